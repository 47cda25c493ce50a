#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/catalog_parser.h"
#include "io/loaders.h"
#include "report/catalog_report.h"
#include "report/table.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

// A valid one-NIC catalog; tests below break one thing at a time. Line numbers (1-based) matter:
// line 1 "nics:", line 2 "  - id: nic-a" (the entry's mapping starts at column 5), line 8 ports.
constexpr const char* kNicYaml =
    "nics:\n"
    "  - id: nic-a\n"
    "    name: NIC A\n"
    "    vendor: Acme\n"
    "    part_number: A-1\n"
    "    kind: supernic\n"
    "    protocols: [ethernet, infiniband]\n"
    "    ports: 1\n"
    "    port_speed: 800G\n"
    "    splits: [1, 2, 4]\n"
    "    power_w: null\n"
    "    price_usd: null\n"
    "    source: https://example.com/nic-a\n";

constexpr const char* kSwitchYaml =
    "switches:\n"
    "  - id: sw-a\n"
    "    name: Switch A\n"
    "    vendor: Acme\n"
    "    protocols: [ethernet]\n"
    "    asic: X\n"
    "    ports: 64\n"
    "    port_speed: 800G\n"
    "    breakouts:\n"
    "      - {ways: 2, speed: 400G}\n"
    "    capacity: 51.2T\n"
    "    power_w: 1500\n"
    "    price_usd: null\n"
    "    rack_units: 2\n"
    "    source: [https://example.com/sw-a, Switch A datasheet]\n";

Result<Catalog> parse_one(const std::string& text, const std::string& file = "test.yaml") {
  return parse_catalog({{file, text}});
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The one diagnostic naming `field`; fails the test when there is not exactly one.
Diagnostic only_error_for(const Result<Catalog>& r, const std::string& field) {
  EXPECT_FALSE(r.ok());
  if (r.ok()) return {};
  std::vector<Diagnostic> hits;
  for (const auto& d : r.errors()) {
    if (d.field == field) hits.push_back(d);
  }
  EXPECT_EQ(hits.size(), 1u) << format_diagnostics(r.errors());
  return hits.empty() ? Diagnostic{} : hits.front();
}

TEST(CatalogParser, ReadsAValidEntry) {
  auto r = parse_catalog({{"nics.yaml", kNicYaml}, {"switches.yaml", kSwitchYaml}});
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const NicModel* nic = r->find_nic("nic-a");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->kind, NicKind::kSuperNic);
  EXPECT_EQ(nic->port_speed, gbps(800));
  EXPECT_EQ(nic->splits, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(nic->part_number, "A-1");
  EXPECT_FALSE(nic->power_w.has_value());
  EXPECT_EQ(nic->where.file, "nics.yaml");
  EXPECT_EQ(nic->where.line, 2);
  const SwitchModel* sw = r->find_switch("sw-a");
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(sw->capacity.value(), 51'200'000'000'000);
  EXPECT_EQ(sw->ports_at(gbps(400)), 128);
  EXPECT_EQ(sw->power_w, 1500.0);
  EXPECT_EQ(sw->rack_units, 2);
  EXPECT_EQ(sw->sources, (std::vector<std::string>{"https://example.com/sw-a", "Switch A datasheet"}));
}

TEST(CatalogParser, MissingFieldNamesTheEntry) {
  auto r = parse_one(replace(kNicYaml, "    ports: 1\n", ""));
  const Diagnostic d = only_error_for(r, "nics[0].ports");
  EXPECT_EQ(d.where.file, "test.yaml");
  EXPECT_EQ(d.where.line, 2);
  EXPECT_EQ(d.where.column, 5);
  EXPECT_THAT(d.message, HasSubstr("missing"));
}

TEST(CatalogParser, WrongTypeNamesTheValue) {
  auto r = parse_one(replace(kNicYaml, "ports: 1", "ports: many"));
  const Diagnostic d = only_error_for(r, "nics[0].ports");
  EXPECT_EQ(d.where.line, 8);
  EXPECT_EQ(d.where.column, 12);
  EXPECT_THAT(d.message, HasSubstr("integer"));
  EXPECT_EQ(format_diagnostic(d).rfind("test.yaml:8:12: error: nics[0].ports: ", 0), 0u) << format_diagnostic(d);
}

TEST(CatalogParser, UnknownFieldIsAnError) {
  auto r = parse_one(std::string(kNicYaml) + "    colour: red\n");
  const Diagnostic d = only_error_for(r, "nics[0].colour");
  EXPECT_EQ(d.where.line, 14);
  EXPECT_EQ(d.where.column, 5);
  EXPECT_THAT(d.message, HasSubstr("unknown field"));
  auto top = parse_one(std::string(kNicYaml) + "routers: []\n");
  EXPECT_EQ(only_error_for(top, "routers").where.line, 14);
}

TEST(CatalogParser, BadSpeed) {
  auto r = parse_one(replace(kNicYaml, "port_speed: 800G", "port_speed: 800X"));
  const Diagnostic d = only_error_for(r, "nics[0].port_speed");
  EXPECT_EQ(d.where.line, 9);
  EXPECT_THAT(d.message, HasSubstr("speed"));
}

TEST(CatalogParser, BadEnumListsTheChoices) {
  auto r = parse_one(replace(kNicYaml, "kind: supernic", "kind: smartnic"));
  const Diagnostic d = only_error_for(r, "nics[0].kind");
  EXPECT_THAT(d.message, HasSubstr("nic, supernic, dpu"));
  auto p = parse_one(replace(kNicYaml, "[ethernet, infiniband]", "[ethernet, fddi]"));
  EXPECT_EQ(only_error_for(p, "nics[0].protocols[1]").where.line, 7);
}

TEST(CatalogParser, DuplicateIdAcrossSourcesNamesBothPlaces) {
  auto r = parse_catalog({{"a.yaml", kNicYaml}, {"b.yaml", std::string("# comment\n") + kNicYaml}});
  const Diagnostic d = only_error_for(r, "nics[0].id");
  EXPECT_EQ(d.where.file, "b.yaml");
  EXPECT_EQ(d.where.line, 3);
  EXPECT_THAT(d.message, HasSubstr("duplicate id 'nic-a'"));
  EXPECT_THAT(d.message, HasSubstr("a.yaml:2:5"));
}

TEST(CatalogParser, RepeatedFieldIsAnError) {
  auto r = parse_one(replace(kNicYaml, "    ports: 1\n", "    ports: 1\n    ports: 2\n"));
  const Diagnostic d = only_error_for(r, "nics[0].ports");
  EXPECT_EQ(d.where.line, 9);
  EXPECT_THAT(d.message, HasSubstr("twice"));
}

TEST(CatalogParser, YamlSyntaxErrorHasLineAndColumn) {
  auto r = parse_one("nics:\n  - id: a\n    name: [unclosed\n", "broken.yaml");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u);
  const Diagnostic& d = r.errors().front();
  EXPECT_EQ(d.where.file, "broken.yaml");
  EXPECT_GE(d.where.line, 3);
  EXPECT_GT(d.where.column, 0);
  EXPECT_THAT(d.message, HasSubstr("YAML syntax error"));
}

TEST(CatalogParser, ReportsEveryErrorOfAFileAtOnce) {
  std::string text = replace(kNicYaml, "ports: 1", "ports: 0");
  text = replace(text, "    source: https://example.com/nic-a\n", "");
  auto r = parse_one(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors().size(), 2u) << format_diagnostics(r.errors());
  EXPECT_EQ(only_error_for(r, "nics[0].ports").message, "must be between 1 and 4096 ports, got 0");
  EXPECT_THAT(only_error_for(r, "nics[0].source").message, HasSubstr("missing"));
}

TEST(CatalogParser, NullOnlyWhereAFigureMayBeUnpublished) {
  auto missing = parse_one(replace(kNicYaml, "    power_w: null\n", ""));
  EXPECT_THAT(only_error_for(missing, "nics[0].power_w").message, HasSubstr("missing"));
  auto null_speed = parse_one(replace(kNicYaml, "port_speed: 800G", "port_speed: null"));
  EXPECT_EQ(only_error_for(null_speed, "nics[0].port_speed").where.line, 9);
}

TEST(CatalogParser, SwitchFiguresMustAddUp) {
  auto capacity = parse_one(replace(kSwitchYaml, "capacity: 51.2T", "capacity: 102.4T"));
  EXPECT_THAT(only_error_for(capacity, "switches[0].capacity").message, HasSubstr("51.2T"));
  auto breakout = parse_one(replace(kSwitchYaml, "{ways: 2, speed: 400G}", "{ways: 4, speed: 400G}"));
  const Diagnostic d = only_error_for(breakout, "switches[0].breakouts[0]");
  EXPECT_EQ(d.where.line, 10);
  // A bad figure is reported once, not again as an inconsistency with the capacity.
  auto bad_ports = parse_one(replace(kSwitchYaml, "ports: 64", "ports: many"));
  ASSERT_FALSE(bad_ports.ok());
  EXPECT_EQ(bad_ports.errors().size(), 1u) << format_diagnostics(bad_ports.errors());
  auto unknown = parse_one(replace(kSwitchYaml, "{ways: 2, speed: 400G}", "{ways: 2, speed: 400G, fec: rs}"));
  EXPECT_EQ(only_error_for(unknown, "switches[0].breakouts[0].fec").where.line, 10);
}

TEST(CatalogParser, NodeMustNameKnownNics) {
  const std::string node =
      "nodes:\n"
      "  - id: n\n"
      "    name: N\n"
      "    vendor: Acme\n"
      "    gpu: G\n"
      "    gpus: 8\n"
      "    nvlink: 1.8TB/s\n"
      "    backend_nic: nic-a\n"
      "    backend_nics: 8\n"
      "    frontend_nic: nic-b\n"
      "    frontend_nics: 2\n"
      "    power_w: null\n"
      "    price_usd: null\n"
      "    source: https://example.com/n\n";
  auto r = parse_catalog({{"nics.yaml", kNicYaml}, {"nodes.yaml", node}});
  const Diagnostic d = only_error_for(r, "nodes[0].frontend_nic");
  EXPECT_THAT(d.message, HasSubstr("nic-b"));
  auto ok = parse_catalog({{"nics.yaml", kNicYaml}, {"nodes.yaml", replace(node, "nic-b", "nic-a")}});
  ASSERT_TRUE(ok.ok()) << format_diagnostics(ok.errors());
  EXPECT_EQ(ok->nodes.front().nvlink_bytes_per_s, 1.8e12);
  auto bytes = parse_catalog({{"nics.yaml", kNicYaml}, {"nodes.yaml", replace(node, "1.8TB/s", "1.8Tb")}});
  EXPECT_EQ(only_error_for(bytes, "nodes[0].nvlink").where.line, 7);
}

// The bundled catalog: the figures below are the ones the issue states and the sources give.
class BundledCatalog : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto r = load_catalog(ct::testing_support::source_dir() + "/catalog");
    ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
    catalog_ = new Catalog(std::move(r).value());
  }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static const Catalog& catalog() { return *catalog_; }

 private:
  static Catalog* catalog_;
};
Catalog* BundledCatalog::catalog_ = nullptr;

// The packet engine's switch figures (issue 26): optional, null where unpublished (every bundled
// switch today), read when given, a bad forwarding mode names the field and the choices.
TEST(CatalogParser, SwitchPacketFiguresAreOptionalAndChecked) {
  auto plain = parse_one(kSwitchYaml);
  ASSERT_TRUE(plain.ok()) << format_diagnostics(plain.errors());
  EXPECT_FALSE(plain->switches[0].latency_ns.has_value());
  EXPECT_FALSE(plain->switches[0].forwarding.has_value());
  const std::string with = replace(kSwitchYaml, "    rack_units: 2\n",
                                   "    rack_units: 2\n    latency_ns: 130\n    buffer_bytes_per_vl: 65536\n"
                                   "    forwarding: cut-through\n");
  auto given = parse_one(with);
  ASSERT_TRUE(given.ok()) << format_diagnostics(given.errors());
  EXPECT_EQ(given->switches[0].latency_ns, 130.0);
  EXPECT_EQ(given->switches[0].buffer_bytes_per_vl, 65536.0);
  EXPECT_EQ(given->switches[0].forwarding, Forwarding::kCutThrough);
  auto bad = parse_one(replace(with, "forwarding: cut-through", "forwarding: wormhole"));
  EXPECT_THAT(only_error_for(bad, "switches[0].forwarding").message, HasSubstr("cut-through, store-and-forward"));
}

TEST_F(BundledCatalog, SwitchesHaveThePublishedRadix) {
  const SwitchModel* sn5600 = catalog().find_switch("sn5600");
  ASSERT_NE(sn5600, nullptr);
  EXPECT_EQ(sn5600->ports, 64);
  EXPECT_EQ(sn5600->port_speed, gbps(800));
  EXPECT_EQ(sn5600->ports_at(gbps(400)), 128);
  EXPECT_EQ(sn5600->ports_at(gbps(200)), 256);
  EXPECT_EQ(sn5600->capacity, gbps(51'200));
  const SwitchModel* q3400 = catalog().find_switch("q3400");
  ASSERT_NE(q3400, nullptr);
  EXPECT_EQ(q3400->ports, 144);
  EXPECT_EQ(q3400->port_speed, gbps(800));
  EXPECT_EQ(q3400->capacity, gbps(115'200));
  const SwitchModel* qm9700 = catalog().find_switch("qm9700");
  ASSERT_NE(qm9700, nullptr);
  EXPECT_EQ(qm9700->ports, 64);
  EXPECT_FALSE(qm9700->latency_ns.has_value());  // not published: a packet run must be given it
  EXPECT_EQ(qm9700->port_speed, gbps(400));
  const SwitchModel* sn2700 = catalog().find_switch("sn2700");
  ASSERT_NE(sn2700, nullptr);
  EXPECT_EQ(sn2700->ports_at(gbps(100)), 32);
}

TEST_F(BundledCatalog, NicsSplitAsDocumented) {
  const NicModel* cx8 = catalog().find_nic("connectx-8");
  ASSERT_NE(cx8, nullptr);
  EXPECT_EQ(cx8->port_speed, gbps(800));
  EXPECT_TRUE(cx8->can_split(1));
  EXPECT_TRUE(cx8->can_split(2));
  EXPECT_TRUE(cx8->can_split(4));
  EXPECT_FALSE(cx8->can_split(3));
  const NicModel* cx7 = catalog().find_nic("connectx-7");
  ASSERT_NE(cx7, nullptr);
  EXPECT_EQ(cx7->port_speed, gbps(400));
  ASSERT_NE(catalog().find_nic("bluefield-3"), nullptr);
  EXPECT_EQ(catalog().find_nic("bluefield-3")->kind, NicKind::kDpu);
  ASSERT_NE(catalog().find_nic("connectx-6-dx"), nullptr);
  EXPECT_EQ(catalog().find_nic("connectx-6-dx")->port_speed, gbps(100));
}

TEST_F(BundledCatalog, NodesHaveTheirNics) {
  const NodeModel* b300 = catalog().find_node("hgx-b300");
  ASSERT_NE(b300, nullptr);
  EXPECT_EQ(b300->gpus, 8);
  EXPECT_EQ(b300->backend_nics, 8);
  EXPECT_EQ(b300->backend_nic, "connectx-8");
  EXPECT_EQ(b300->frontend_nic, "bluefield-3");
  EXPECT_EQ(b300->nvlink_bytes_per_s, 1.8e12);
  for (const char* id : {"hgx-h100", "hgx-h200"}) {
    const NodeModel* n = catalog().find_node(id);
    ASSERT_NE(n, nullptr) << id;
    EXPECT_EQ(n->gpus, 8);
    EXPECT_EQ(n->backend_nics, 8);
    EXPECT_EQ(n->backend_nic, "connectx-7");
    EXPECT_EQ(n->nvlink_bytes_per_s, 9e11);
  }
  const NodeModel* home = catalog().find_node("homelab-node");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(home->backend_nic, "connectx-6-dx");
}

TEST_F(BundledCatalog, OpticsCoverTheNeededReaches) {
  const OpticModel* dr4 = catalog().find_optic("osfp-800g-2xdr4");
  ASSERT_NE(dr4, nullptr);
  EXPECT_EQ(dr4->links, 2);
  EXPECT_EQ(dr4->medium, Medium::kSingleMode);
  EXPECT_EQ(dr4->reach_m, 500);
  const OpticModel* sr4 = catalog().find_optic("osfp-800g-2xsr4");
  ASSERT_NE(sr4, nullptr);
  EXPECT_EQ(sr4->medium, Medium::kMultiMode);
  EXPECT_EQ(sr4->reach_m, 50);
  const OpticModel* dac = catalog().find_optic("osfp-800g-dac");
  ASSERT_NE(dac, nullptr);
  EXPECT_EQ(dac->kind, MediaKind::kDac);
  EXPECT_LE(dac->reach_m, 3);
  EXPECT_NE(catalog().find_optic("osfp-400g-dr4"), nullptr);
  EXPECT_NE(catalog().find_optic("qsfp28-100g-sr4"), nullptr);
}

TEST_F(BundledCatalog, EveryEntryAndChipClassHasASource) {
  auto check = [](const auto& entries) {
    for (const auto& e : entries) EXPECT_FALSE(e.sources.empty()) << e.id;
  };
  check(catalog().nodes);
  check(catalog().nics);
  check(catalog().switches);
  check(catalog().optics);
  std::vector<std::string> classes;
  for (const auto& c : catalog().zoo) {
    EXPECT_FALSE(c.sources.empty()) << c.name;
    EXPECT_FALSE(c.bottleneck.empty()) << c.name;
    classes.push_back(c.name);
  }
  for (const char* expected : {"CPU", "GPU", "NVSwitch", "NIC / SuperNIC", "DPU", "Switch ASIC", "TPU-like ASIC",
                               "Optical DSP / retimer"}) {
    EXPECT_NE(std::find(classes.begin(), classes.end(), expected), classes.end()) << expected;
  }
}

// Two columns, hand-aligned: widths are max(header, cells) = 4 and 2, separated by two spaces;
// the right-aligned column pads on the left; no line ends in a space.
TEST(TextTable, AlignsColumns) {
  TextTable t({{"name"}, {"n", Align::kRight}}, "T");
  t.add_row({"a", "1"});
  t.add_row({"bbb", "22"});
  EXPECT_EQ(t.render(),
            "T\n"
            "name   n\n"
            "----  --\n"
            "a      1\n"
            "bbb   22\n");
}

TEST(TextTable, WrapsAndCountsCodePoints) {
  TextTable t;
  t.add_column("k");
  t.add_column("text", Align::kLeft, 10);
  t.add_row({"µs", "alpha beta gamma"});
  EXPECT_EQ(t.render(),
            "k   text\n"
            "--  ----------\n"
            "µs  alpha beta\n"
            "    gamma\n");
  EXPECT_EQ(display_width("µs→"), 3u);
  // Past eight bytes (counted eight at a time while ASCII): 12 ASCII + µ (2 bytes) + → (3) + 3.
  EXPECT_EQ(display_width("abcdefghijklµ→xyz"), 17u);
  EXPECT_EQ(display_width("0123456789abcdef"), 16u);
  EXPECT_EQ(wrap_words("a bb ccc", 4), (std::vector<std::string>{"a bb", "ccc"}));
}

TEST(CatalogReport, TextShowsFiguresAndUnknowns) {
  auto r = parse_catalog({{"nics.yaml", kNicYaml}, {"switches.yaml", kSwitchYaml}});
  ASSERT_TRUE(r.ok());
  const std::string text = render_catalog_text(r.value(), CatalogKind::kAll);
  EXPECT_THAT(text, HasSubstr("Switches (1)"));
  EXPECT_THAT(text, HasSubstr("64 x 800G, 128 x 400G"));
  EXPECT_THAT(text, HasSubstr("51.2T"));
  EXPECT_THAT(text, HasSubstr("1500"));
  EXPECT_THAT(text, HasSubstr("eth+ib"));
  // The NIC row ends with its unknown power "-" then 1 source.
  EXPECT_THAT(text, ::testing::ContainsRegex("nic-a +supernic +eth\\+ib +1 +800G +1,2,4 +- +1\n"));
  const std::string only_nics = render_catalog_text(r.value(), CatalogKind::kNics);
  EXPECT_THAT(only_nics, HasSubstr("NICs (1)"));
  EXPECT_EQ(only_nics.find("Switches"), std::string::npos);
}

TEST(CatalogReport, JsonHasStableKeysAndNulls) {
  auto r = parse_catalog({{"nics.yaml", kNicYaml}, {"switches.yaml", kSwitchYaml}});
  ASSERT_TRUE(r.ok());
  const auto j = nlohmann::ordered_json::parse(render_catalog_json(r.value(), CatalogKind::kAll));
  EXPECT_EQ(j.begin().key(), "nodes");
  const auto& sw = j["switches"][0];
  EXPECT_EQ(sw.begin().key(), "id");
  EXPECT_EQ(sw["ports"], 64);
  EXPECT_EQ(sw["capacity_bps"], 51'200'000'000'000LL);
  EXPECT_EQ(sw["breakouts"][0]["ways"], 2);
  EXPECT_TRUE(j["nics"][0]["power_w"].is_null());
  EXPECT_EQ(j["nics"][0]["splits"], nlohmann::ordered_json({1, 2, 4}));
  const auto only = nlohmann::ordered_json::parse(render_catalog_json(r.value(), CatalogKind::kSwitches));
  EXPECT_EQ(only.size(), 1u);
  EXPECT_TRUE(only.contains("switches"));
}

TEST_F(BundledCatalog, ReportListsBundledEntriesSortedById) {
  const std::string text = render_catalog_text(catalog(), CatalogKind::kNodes);
  const auto b300 = text.find("hgx-b300");
  const auto h100 = text.find("hgx-h100");
  const auto home = text.find("homelab-node");
  ASSERT_NE(b300, std::string::npos);
  EXPECT_LT(b300, h100);
  EXPECT_LT(h100, home);
  EXPECT_THAT(text, HasSubstr("8 x connectx-8"));
  EXPECT_THAT(text, HasSubstr("1.8 TB/s"));
  const std::string zoo = render_zoo_text(catalog());
  EXPECT_THAT(zoo, HasSubstr("NVSwitch"));
  EXPECT_THAT(zoo, HasSubstr("ConnectX-8"));
  const auto zj = nlohmann::json::parse(render_zoo_json(catalog()));
  EXPECT_EQ(zj["zoo"].size(), catalog().zoo.size());
}

// ---- failure data (catalog/reliability.yaml) ----

constexpr const char* kFailureYaml =
    "failure_rates:\n"
    "  - id: nic-x\n"
    "    element: nic\n"
    "    rate:\n"
    "      observed: {failures: 7, elements: 16384, days: 54}\n"
    "    mttr_hours: null\n"
    "    basis: seven NIC failures\n"
    "    source: https://example.com/x\n"
    "  - id: link-x\n"
    "    element: link\n"
    "    media: transceiver\n"
    "    rate:\n"
    "      fraction: {value: 0.00057, days: 30.4375}\n"
    "    mttr_hours: 4\n"
    "    basis: a share failing per month\n"
    "    source: https://example.com/y\n"
    "  - id: leaf-x\n"
    "    element: leaf\n"
    "    rate:\n"
    "      mtbf_hours: 1000000\n"
    "    mttr_hours: null\n"
    "    basis: an MTBF\n"
    "    source: https://example.com/z\n"
    "  - id: link-dac-x\n"
    "    element: link\n"
    "    media: dac\n"
    "    rate: null\n"
    "    mttr_hours: null\n"
    "    basis: nothing published\n"
    "    source: none found\n";

TEST(CatalogParser, FailureRatesFollowTheThreeForms) {
  // observed: 7 failures over 16,384 NICs x 54 days x 24 h = 7 / 21,233,664 per hour.
  // fraction: 0.057% of links fail each 30.4375-day month: -ln(1 - 0.00057) / 730.5 h, where
  // -ln(1 - x) = x + x^2/2 + x^3/3 + ... = 0.000570162512 for x = 0.00057.
  // mtbf: 1 / 1e6 per hour.
  auto r = parse_catalog({{"reliability.yaml", kFailureYaml}});
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const FailureRate* nic = r->find_failure_rate(FailureElement::kNic);
  ASSERT_NE(nic, nullptr);
  EXPECT_DOUBLE_EQ(*nic->per_hour, 7.0 / 21'233'664.0);
  EXPECT_FALSE(nic->mttr_hours.has_value());
  const FailureRate* link = r->find_failure_rate(FailureElement::kLink, MediaKind::kTransceiver);
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->id, "link-x");
  EXPECT_NEAR(*link->per_hour * 730.5, 0.000570162512, 1e-12);
  EXPECT_EQ(link->mttr_hours, 4.0);
  EXPECT_DOUBLE_EQ(*r->find_failure_rate(FailureElement::kLeaf)->per_hour, 1e-6);
  const FailureRate* dac = r->find_failure_rate(FailureElement::kLink, MediaKind::kDac);
  ASSERT_NE(dac, nullptr);
  EXPECT_FALSE(dac->per_hour.has_value());
  // No entry without media: an AOC link has no figure at all, and there is no spine entry.
  EXPECT_EQ(r->find_failure_rate(FailureElement::kLink, MediaKind::kAoc), nullptr);
  EXPECT_EQ(r->find_failure_rate(FailureElement::kSpine), nullptr);
}

TEST(CatalogParser, FailureRateErrorsNameTheField) {
  auto two_forms = parse_catalog(
      {{"r.yaml", replace(kFailureYaml, "      mtbf_hours: 1000000\n", "      mtbf_hours: 1000000\n      fraction: {value: 0.1, days: 1}\n")}});
  EXPECT_THAT(only_error_for(two_forms, "failure_rates[2].rate").message, HasSubstr("exactly one of"));
  auto media_on_nic =
      parse_catalog({{"r.yaml", replace(kFailureYaml, "    element: nic\n", "    element: nic\n    media: dac\n")}});
  EXPECT_EQ(only_error_for(media_on_nic, "failure_rates[0].media").where.line, 4);
  auto whole = parse_catalog({{"r.yaml", replace(kFailureYaml, "value: 0.00057", "value: 1")}});
  EXPECT_THAT(only_error_for(whole, "failure_rates[1].rate.fraction.value").message, HasSubstr("below 1"));
  auto missing_basis = parse_catalog({{"r.yaml", replace(kFailureYaml, "    basis: an MTBF\n", "")}});
  EXPECT_THAT(only_error_for(missing_basis, "failure_rates[2].basis").message, HasSubstr("missing"));
  auto duplicate = parse_catalog({{"r.yaml", replace(kFailureYaml, "media: dac", "media: transceiver")}});
  EXPECT_THAT(only_error_for(duplicate, "failure_rates[3]").message, HasSubstr("first defined at r.yaml:9:5"));
}

TEST_F(BundledCatalog, FailureRatesCarryTheirPublishedFigures) {
  // Llama 3 Table 5: 7 NIC interruptions, 16,384 NICs, 54 days -> 0.00289 per NIC-year.
  const FailureRate* nic = catalog().find_failure_rate(FailureElement::kNic);
  ASSERT_NE(nic, nullptr);
  EXPECT_NEAR(*nic->per_hour * 8766.0, 7.0 / 16384.0 * 365.25 / 54.0, 1e-12);
  // HPN: 0.057% of NIC-ToR links and 0.051% of ToRs fail each month.
  const FailureRate* link = catalog().find_failure_rate(FailureElement::kLink, MediaKind::kTransceiver);
  ASSERT_NE(link, nullptr);
  EXPECT_NEAR(*link->per_hour * 730.5, 0.00057, 2e-7);
  EXPECT_NEAR(*catalog().find_failure_rate(FailureElement::kLeaf)->per_hour * 730.5, 0.00051, 2e-7);
  EXPECT_FALSE(catalog().find_failure_rate(FailureElement::kLink, MediaKind::kDac)->per_hour.has_value());
  for (const FailureRate& r : catalog().failure_rates) {
    EXPECT_FALSE(r.sources.empty()) << r.id;
    EXPECT_FALSE(r.mttr_hours.has_value()) << r.id << ": no public repair time was found";
  }
}

}  // namespace
}  // namespace ct
