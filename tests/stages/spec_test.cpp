// Spec parsing and validation. Validation rules are tested against a small fixture catalog built in
// C++ (ids prefixed "fx-"; its figures are chosen for the tests, they describe no real product);
// the bundled examples are tested against the real catalog/ folder.
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <optional>
#include <string>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/files.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "core/suggest.h"
#include "spec/validate.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

// ---- fixture catalog ----
SwitchModel fixture_switch(std::string id, int ports, int gbps_per_port, std::vector<Breakout> breakouts,
                           std::vector<Protocol> protocols) {
  SwitchModel s;
  s.id = std::move(id);
  s.ports = ports;
  s.port_speed = gbps(gbps_per_port);
  s.breakouts = std::move(breakouts);
  s.protocols = std::move(protocols);
  return s;
}

NicModel fixture_nic(std::string id, int gbps_per_port, std::vector<int> splits, std::vector<Protocol> protocols) {
  NicModel n;
  n.id = std::move(id);
  n.port_speed = gbps(gbps_per_port);
  n.splits = std::move(splits);
  n.protocols = std::move(protocols);
  return n;
}

NodeModel fixture_node(std::string id, std::string backend_nic, int nics, std::string frontend_nic) {
  NodeModel n;
  n.id = std::move(id);
  n.gpus = nics;
  n.backend_nic = std::move(backend_nic);
  n.backend_nics = nics;
  n.frontend_nic = std::move(frontend_nic);
  n.frontend_nics = n.frontend_nic.empty() ? 0 : 1;
  return n;
}

const Catalog& fixture_catalog() {
  static const Catalog catalog = [] {
    const std::vector<Protocol> both = {Protocol::kEthernet, Protocol::kInfiniband};
    Catalog c;
    c.nodes = {fixture_node("fx-node8", "fx-nic800", 8, "fx-dpu400"), fixture_node("fx-node8ib", "fx-nic400", 8, ""),
               fixture_node("fx-node1", "fx-nic100", 1, "")};
    c.nics = {fixture_nic("fx-nic800", 800, {1, 2, 4}, both), fixture_nic("fx-nic400", 400, {1}, both),
              fixture_nic("fx-nic100", 100, {1}, {Protocol::kEthernet}),
              fixture_nic("fx-dpu400", 400, {1, 2}, {Protocol::kEthernet})};
    c.switches = {fixture_switch("fx-sw800", 64, 800, {{2, gbps(400)}}, {Protocol::kEthernet}),
                  fixture_switch("fx-ib400", 64, 400, {}, {Protocol::kInfiniband}),
                  fixture_switch("fx-sw100", 32, 100, {{4, gbps(25)}}, {Protocol::kEthernet})};
    return c;
  }();
  return catalog;
}

Result<ValidSpec> check(const std::string& yaml, const Catalog& catalog = fixture_catalog()) {
  auto spec = parse_spec("t.yaml", yaml);
  if (!spec) return spec.errors();
  return validate(spec.value(), catalog);
}

// The only diagnostic of a spec that must fail with exactly one.
Diagnostic only_error(const std::string& yaml) {
  auto r = check(yaml);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return {};
  EXPECT_EQ(r.errors().size(), 1u) << format_diagnostics(r.errors());
  return r.errors().front();
}

// A spec that must fail with exactly one diagnostic: its field, its line (0: not checked) and its
// message, word for word.
void expect_only_error(const std::string& yaml, const std::string& field, int line, const std::string& message) {
  const Diagnostic d = only_error(yaml);
  EXPECT_EQ(d.field, field) << d.message;
  if (line != 0) {
    EXPECT_EQ(d.where.line, line) << d.message;
  }
  EXPECT_EQ(d.message, message);
}
// The same with words the message must contain.
void expect_only_error_saying(const std::string& yaml, const std::string& field, int line, const std::string& words) {
  const Diagnostic d = only_error(yaml);
  EXPECT_EQ(d.field, field) << d.message;
  if (line != 0) {
    EXPECT_EQ(d.where.line, line) << d.message;
  }
  EXPECT_THAT(d.message, HasSubstr(words));
}

// A 16-node, 2-plane, 2-tier rail-optimized design that validates; tests change one line of it.
// Line numbers:    1     2                                 3        4                          5
const std::string kGood =
    "name: t\n"
    "nodes: {model: fx-node8, count: 16}\n"
    "backend:\n"
    "  topology: rail-optimized\n"
    "  planes: 2\n"  // 5
    "  tiers: 2\n"   // 6
    "  switch: fx-sw800\n";  // 7

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// ---------------------------------------------------------------- parsing

TEST(SpecParser, ReadsEveryFieldWithItsLine) {
  const std::string yaml =
      "name: demo\n"
      "nodes:\n"
      "  model: fx-node8\n"
      "  count: 32\n"
      "backend:\n"
      "  topology: leaf-spine\n"
      "  planes: 2\n"
      "  tiers: 3\n"
      "  switch: fx-sw800\n"
      "  port_speed: 400G\n"  // 10
      "  oversubscription: [1, 2.5]\n"
      "  link_latency_ns: 250\n"
      "  cable_length_m: {leaf: 5, spine: 50, core: 400}\n"
      "  links:\n"
      "    - [plane0.spine.0, plane0.spine.1]\n"  // 15
      "frontend: {nic: fx-dpu400, speed: 200G, switch: fx-sw800, oversubscription: 3}\n"
      "routing:\n"
      "  ecmp: {hash: crc32}\n";
  auto r = parse_spec("demo.yaml", yaml);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const Spec& s = r.value();
  EXPECT_EQ(s.file, "demo.yaml");
  EXPECT_EQ(s.name.value, "demo");
  EXPECT_EQ(s.nodes.model.value, "fx-node8");
  EXPECT_EQ(s.nodes.count.value, 32);
  EXPECT_EQ(s.nodes.count.where.line, 4);
  EXPECT_EQ(s.nodes.count.where.column, 3);
  EXPECT_EQ(s.backend.topology.value, "leaf-spine");
  EXPECT_EQ(s.backend.planes.value, 2);
  EXPECT_EQ(s.backend.planes.where.line, 7);
  EXPECT_EQ(s.backend.port_speed.value, "400G");
  EXPECT_EQ(s.backend.port_speed.where.line, 10);
  ASSERT_EQ(s.backend.oversubscription.size(), 2u);
  EXPECT_DOUBLE_EQ(s.backend.oversubscription[1].value, 2.5);
  EXPECT_EQ(s.backend.oversubscription[1].where.line, 11);
  EXPECT_EQ(s.backend.oversubscription[1].where.column, 25);
  EXPECT_EQ(s.backend.link_latency_ns.value, 250);
  EXPECT_DOUBLE_EQ(s.backend.cable_length_core_m.value, 400.0);
  ASSERT_EQ(s.backend.links.size(), 1u);
  EXPECT_EQ(s.backend.links[0].b.value, "plane0.spine.1");
  EXPECT_EQ(s.backend.links[0].b.where.line, 15);
  EXPECT_TRUE(s.frontend.present);
  EXPECT_EQ(s.frontend.speed.value, "200G");
  EXPECT_DOUBLE_EQ(s.frontend.oversubscription.value, 3.0);
  EXPECT_EQ(s.routing_where.line, 17);
  EXPECT_TRUE(s.routing.present);
  EXPECT_EQ(s.routing.ecmp_where.line, 18);
  EXPECT_EQ(s.routing.hash.value, "crc32");
  EXPECT_EQ(s.routing.hash.where.line, 18);
}

TEST(SpecParser, UnknownFieldIsNamedWithSuggestion) {
  const std::string yaml = replace(kGood, "  planes: 2\n", "  plane: 2\n");
  const Diagnostic d = only_error(yaml);
  EXPECT_EQ(d.field, "backend.plane");
  EXPECT_EQ(d.where.line, 5);
  EXPECT_EQ(d.where.column, 3);
  EXPECT_EQ(d.message, "unknown field (did you mean 'planes'?)");
  EXPECT_EQ(format_diagnostic(d), "t.yaml:5:3: error: backend.plane: unknown field (did you mean 'planes'?)");
}

TEST(SpecParser, UnknownTopLevelFieldWithoutCloseMatch) {
  expect_only_error(kGood + "colour: blue\n", "colour", 8, "unknown field");
}

TEST(SpecParser, TextWhereNumberExpected) {
  expect_only_error_saying(replace(kGood, "count: 16", "count: many"), "nodes.count", 2,
                           "expected an integer, got 'many'");
}

TEST(SpecParser, ListOrQuotedStringWhereIntegerExpected) {
  auto r = check(replace(replace(kGood, "planes: 2", "planes: [2]"), "tiers: 2", "tiers: \"2\""));
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 2u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "backend.planes");
  EXPECT_EQ(r.errors()[0].where.line, 5);
  EXPECT_THAT(r.errors()[0].message, HasSubstr("expected an integer, got a list"));
  EXPECT_EQ(r.errors()[1].field, "backend.tiers");
  EXPECT_EQ(r.errors()[1].where.line, 6);
  EXPECT_THAT(r.errors()[1].message, HasSubstr("quoted string"));
}

TEST(SpecParser, EmptyValuePointsAtItsKey) {
  // The parser marks an empty value at the next token (line 7); the diagnostic names line 6.
  expect_only_error(replace(kGood, "  tiers: 2\n", "  tiers:\n"), "backend.tiers", 6,
                    "expected an integer, got nothing");
}

TEST(SpecParser, FractionalCountIsNotAnInteger) {
  expect_only_error_saying(replace(kGood, "count: 16", "count: 1.5"), "nodes.count", 0, "'1.5'");
}

TEST(SpecParser, OversubscriptionMustBeAList) {
  expect_only_error_saying(kGood + "  oversubscription: 3\n", "backend.oversubscription", 8, "expected a list");
}

TEST(SpecParser, SyntaxErrorHasLineAndColumn) {
  // Truncated in the middle of a flow mapping: the parser reaches the end of input, reported just
  // after the last character of the file (line 3 "  count: 16" has 11 characters: column 12).
  auto r = parse_spec("t.yaml", "name: t\nnodes: {model: fx-node8,\n  count: 16\n\n");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u);
  const Diagnostic& d = r.errors()[0];
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.where.column, 12);
  EXPECT_THAT(d.message, HasSubstr("YAML syntax error"));
  EXPECT_THAT(d.message, HasSubstr("before the end of the file"));
  EXPECT_THAT(format_diagnostic(d), HasSubstr("t.yaml:3:12: error: YAML syntax error"));
}

TEST(SpecParser, BadIndentationIsASyntaxErrorOnItsLine) {
  auto r = parse_spec("t.yaml", "name: t\nbackend:\n  planes: 2\n tiers: 2\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].where.line, 4);
}

TEST(SpecParser, EmptyFileIsAnError) {
  auto r = parse_spec("t.yaml", "# only a comment\n");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors()[0].message, HasSubstr("empty spec"));
}

TEST(SpecParser, FieldWrittenTwice) {
  expect_only_error_saying(kGood + "  planes: 4\n", "backend.planes", 8, "first at line 5");
}

TEST(SpecParser, LinkEntryMustBeAPair) {
  const Diagnostic d = only_error(kGood + "  links:\n    - [plane0.spine.0]\n");
  EXPECT_EQ(d.field, "backend.links[0]");
  EXPECT_EQ(d.where.line, 9);
}

TEST(SpecParser, EveryParseErrorAtOnce) {
  // Three distinct mistakes on lines 2, 5 and 7: three diagnostics, in file order.
  std::string yaml = replace(kGood, "count: 16", "count: x");
  yaml = replace(yaml, "  planes: 2\n", "  plnes: 2\n");
  yaml = replace(yaml, "  switch: fx-sw800\n", "  switch: [fx-sw800]\n");
  auto r = check(yaml);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 3u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].where.line, 2);
  EXPECT_EQ(r.errors()[1].where.line, 5);
  EXPECT_EQ(r.errors()[1].field, "backend.plnes");
  EXPECT_EQ(r.errors()[2].where.line, 7);
  EXPECT_EQ(r.errors()[2].field, "backend.switch");
}

TEST(Suggest, EditDistanceKnownAnswers) {
  // kitten -> sitting: substitute k/s, e/i, insert g = 3 (the textbook example).
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("plane", "planes"), 1u);
  EXPECT_EQ(closest_match("sn560", {"q3400", "sn5600"}), "sn5600");
  EXPECT_EQ(closest_match("zzz", {"q3400", "sn5600"}), "");
}

// ---------------------------------------------------------------- validation: good input

TEST(Validate, GoodSpecDerivesPortSpeedRadixAndSplit) {
  // fx-nic800 (800G, 2 planes) -> 400G per plane; fx-sw800 runs 400G as 2 x 64 = 128 ports;
  // ratio 1: up = floor(128 / 2) = 64, down = 64. 16 nodes x 8 NICs = 128 ports per plane.
  auto r = check(kGood);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const ValidSpec& v = r.value();
  EXPECT_EQ(v.name, "t");
  EXPECT_EQ(v.node_count, 16);
  EXPECT_EQ(v.gpu_count(), 128);
  EXPECT_EQ(v.backend.topology, TopologyKind::kRailOptimized);
  EXPECT_EQ(v.backend.planes, 2);
  EXPECT_EQ(v.backend.port_speed, gbps(400));
  EXPECT_EQ(v.backend.radix, 128);
  EXPECT_EQ(v.backend.down, std::vector<int>({64}));
  EXPECT_EQ(v.backend.up, std::vector<int>({64}));
  EXPECT_EQ(v.backend.oversubscription, std::vector<double>({1.0}));
  EXPECT_EQ(v.backend.ports_per_host, 8);
  EXPECT_EQ(v.endpoints_per_plane(), 128);
  EXPECT_EQ(v.backend.nic.id, "fx-nic800");
  EXPECT_EQ(v.backend.switch_model.id, "fx-sw800");
  EXPECT_EQ(v.backend.link_latency, TimePs(0));
  EXPECT_DOUBLE_EQ(v.backend.cable_length_m[0], 30.0);
  EXPECT_DOUBLE_EQ(v.backend.cable_length_m[1], 100.0);
  EXPECT_DOUBLE_EQ(v.backend.cable_length_m[2], 500.0);
  EXPECT_FALSE(v.frontend.has_value());
}

TEST(Validate, OversubscribedSplitKeepsAtLeastTheRatio) {
  // Radix 64 (800G, 1 plane). Leaf ratio 3: up = floor(64/4) = 16, down = 48 (exactly 3:1).
  // Spine ratio 2: up = floor(64/3) = 21, down = 43 (43/21 = 2.05 >= 2).
  std::string yaml = replace(kGood, "planes: 2", "planes: 1");
  yaml = replace(yaml, "tiers: 2", "tiers: 3") + "  oversubscription: [3, 2]\n";
  auto r = check(yaml);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->backend.radix, 64);
  EXPECT_EQ(r->backend.port_speed, gbps(800));
  EXPECT_EQ(r->backend.down, std::vector<int>({48, 43}));
  EXPECT_EQ(r->backend.up, std::vector<int>({16, 21}));
}

TEST(Validate, FatTreeDefaultsToThreeTiersWithHalfOfKDownAndUp) {
  // fat-tree with k = 8 on fx-sw800 (64 ports at 800G): tiers default to 3, down = up = k/2 = 4.
  const std::string yaml =
      "name: ft\nnodes: {model: fx-node8, count: 4}\nbackend: {topology: fat-tree, switch: fx-sw800, k: 8}\n";
  auto r = check(yaml);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->backend.tiers, 3);
  EXPECT_EQ(r->backend.radix, 8);
  EXPECT_EQ(r->backend.down, std::vector<int>({4, 4}));
  EXPECT_EQ(r->backend.up, std::vector<int>({4, 4}));
  // k = 8 reaches k^3/4 = 128 ports; 4 nodes x 8 NICs = 32 fit.
  EXPECT_EQ(max_endpoints(r->backend.radix, r->backend.down, 3), 128);
}

TEST(Validate, FatTreeKDefaultsToTheRadix) {
  // No k: k = radix = 64 at 800G; a 2-tier fat-tree reaches k^2/2 = 2048 ports.
  const std::string yaml =
      "name: ft\nnodes: {model: fx-node8, count: 256}\nbackend: {topology: fat-tree, tiers: 2, switch: fx-sw800}\n";
  auto r = check(yaml);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->backend.radix, 64);
  EXPECT_EQ(r->backend.down, std::vector<int>({32}));
  EXPECT_EQ(max_endpoints(r->backend.radix, r->backend.down, 2), 2048);
}

TEST(Validate, FatTreeTooSmallForTheNodes) {
  // k = 8, 3 tiers: k^3/4 = 128 ports; 17 nodes x 8 NICs = 136 do not fit.
  const Diagnostic d = only_error(
      "name: ft\nnodes: {model: fx-node8, count: 17}\nbackend:\n  topology: fat-tree\n  switch: fx-sw800\n  k: 8\n");
  EXPECT_EQ(d.field, "backend.tiers");
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.message,
            "17 nodes x 8 backend NICs need 136 endpoint ports per plane, but a 3-tier k = 8 fat-tree reaches k^3/4 = "
            "128; use more planes or a larger k/switch");
}

TEST(Validate, ExplicitValuesOverrideDefaults) {
  const std::string yaml = kGood +
                           "  link_latency_ns: 600\n"
                           "  cable_length_m: {leaf: 3, spine: 40}\n"
                           "  links: [[plane1.spine.0, plane1.spine.2]]\n"
                           "frontend: {switch: fx-sw800, speed: 400G, oversubscription: 2}\n"
                           "routing: {ecmp: {hash: crc32}}\n";
  auto r = check(yaml);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->backend.link_latency, nanoseconds(600));
  EXPECT_DOUBLE_EQ(r->backend.cable_length_m[0], 3.0);
  EXPECT_DOUBLE_EQ(r->backend.cable_length_m[1], 40.0);
  EXPECT_DOUBLE_EQ(r->backend.cable_length_m[2], 500.0);
  ASSERT_EQ(r->backend.extra_links.size(), 1u);
  const auto& l = r->backend.extra_links[0];
  EXPECT_EQ(std::tuple(l.plane_a, l.tier_a, l.index_a, l.plane_b, l.tier_b, l.index_b),
            std::tuple(1, 2, 0, 1, 2, 2));
  ASSERT_TRUE(r->frontend.has_value());
  EXPECT_EQ(r->frontend->nic.id, "fx-dpu400");  // the node's frontend NIC
  EXPECT_EQ(r->frontend->speed, gbps(400));
  EXPECT_DOUBLE_EQ(r->frontend->oversubscription, 2.0);
  EXPECT_EQ(r->routing.hash.value, "crc32");
  EXPECT_EQ(r->routing_where.line, 12);
}

TEST(Validate, MaxEndpointsKnownAnswers) {
  // SN5600-like radix: 128 ports at 400G, non-blocking 2 tiers: 128 leaves x 64 = 8192.
  EXPECT_EQ(max_endpoints(128, {64}, 2), 8192);
  // 64 ports at 800G: 2 tiers 64 x 32 = 2048; 3 tiers 64 pods x 32 leaves x 32 = 65536.
  EXPECT_EQ(max_endpoints(64, {32}, 2), 2048);
  EXPECT_EQ(max_endpoints(64, {32, 32}, 3), 65536);
  // 3:1 leaf on 64 ports: 64 x 48 = 3072.
  EXPECT_EQ(max_endpoints(64, {48}, 2), 3072);
}

// ---------------------------------------------------------------- validation: bad input

TEST(Validate, UnknownNodeModelListsKnownIds) {
  const Diagnostic d = only_error(replace(kGood, "model: fx-node8,", "model: fx-node9,"));
  EXPECT_EQ(d.field, "nodes.model");
  EXPECT_EQ(d.where.line, 2);
  EXPECT_EQ(d.message,
            "unknown node model 'fx-node9' (did you mean 'fx-node8'?); known: fx-node1, fx-node8, fx-node8ib");
}

TEST(Validate, UnknownSwitchModelListsKnownIds) {
  expect_only_error_saying(replace(kGood, "switch: fx-sw800", "switch: sn9999"), "backend.switch", 7,
                           "unknown switch model 'sn9999'; known: fx-ib400, fx-sw100, fx-sw800");
}

TEST(Validate, UnknownFrontendNic) {
  const Diagnostic d = only_error(kGood + "frontend:\n  nic: fx-dpu999\n  switch: fx-sw800\n");
  EXPECT_EQ(d.field, "frontend.nic");
  EXPECT_EQ(d.where.line, 9);
  EXPECT_THAT(d.message, HasSubstr("unknown NIC model 'fx-dpu999'"));
  EXPECT_THAT(d.message, HasSubstr("known: fx-dpu400, fx-nic100, fx-nic400, fx-nic800"));
}

TEST(Validate, ZeroOrNegativeCount) {
  for (const char* count : {"0", "-5"}) {
    const Diagnostic d = only_error(replace(kGood, "count: 16", std::string("count: ") + count));
    EXPECT_EQ(d.field, "nodes.count");
    EXPECT_EQ(d.where.line, 2);
    EXPECT_EQ(d.message, std::string("must be a positive number of nodes, got ") + count);
  }
}

TEST(Validate, PlanesOutsideOneTwoFour) {
  expect_only_error(replace(kGood, "planes: 2", "planes: 3"), "backend.planes", 5, "must be 1, 2 or 4, got 3");
}

TEST(Validate, PlanesTheNicCannotSplitInto) {
  // fx-node8ib's NIC fx-nic400 splits only 1 way.
  std::string yaml = replace(kGood, "fx-node8,", "fx-node8ib,");
  const Diagnostic d = only_error(replace(yaml, "switch: fx-sw800", "switch: fx-ib400"));
  EXPECT_EQ(d.field, "backend.planes");
  EXPECT_EQ(d.where.line, 5);
  EXPECT_EQ(d.message,
            "fx-nic400 (the backend NIC of fx-node8ib) cannot split its 400G port into 2 planes (supported splits: 1)");
}

TEST(Validate, PortSpeedTheSwitchCannotRun) {
  expect_only_error(kGood + "  port_speed: 200G\n", "backend.port_speed", 8,
                    "fx-sw800 cannot run 200G ports; it runs 800G x64, 400G x128");
}

TEST(Validate, DefaultPortSpeedTheSwitchCannotRunPointsAtBackend) {
  // 4 planes of an 800G NIC = 200G, which fx-sw800 cannot run.
  expect_only_error_saying(replace(kGood, "planes: 2", "planes: 4"), "backend.port_speed", 3,
                           "cannot run 200G ports (the default: NIC speed / planes)");
}

TEST(Validate, PortSpeedFasterThanTheNicPlane) {
  expect_only_error_saying(kGood + "  port_speed: 800G\n", "backend.port_speed", 8,
                           "faster than fx-nic800's 800G port split into 2 plane(s) (400G per plane)");
}

TEST(Validate, HugePortSpeedIsRejectedWithoutOverflow) {
  // 5e18 b/s x 2 planes would overflow int64: refused where the speed is read, above 1 Pb/s
  // (core/units.h kMaxSpeed); a speed within that limit but faster than the NIC is refused by
  // validate(): 1000T = kMaxSpeed below.
  expect_only_error(kGood + "  port_speed: 5000000000G\n", "backend.port_speed", 0,
                    "'5000000000G' is above the largest speed this tool models, 1000T");
  const Diagnostic at_limit = only_error(kGood + "  port_speed: 1000T\n");
  EXPECT_THAT(at_limit.message, HasSubstr("is faster than fx-nic800's 800G port"));
}

TEST(Validate, PortSpeedThatIsNotASpeed) {
  expect_only_error_saying(kGood + "  port_speed: fast\n", "backend.port_speed", 0, "'fast' is not a speed");
}

TEST(Validate, OversubscriptionListOfWrongLength) {
  expect_only_error(kGood + "  oversubscription: [1, 1]\n", "backend.oversubscription", 8,
                    "2 tiers have 1 tier(s) with uplinks (leaf): expected 1 ratio(s), got 2");
}

TEST(Validate, OversubscriptionBelowOne) {
  expect_only_error(kGood + "  oversubscription:\n    - 0.5\n", "backend.oversubscription[0]", 9,
                    "a down:up ratio must be at least 1, got 0.5");
}

TEST(Validate, OversubscriptionThatLeavesNoUplinkNeedsMorePortsThanTheSwitchHas) {
  // Radix 128: ratio 200 gives up = floor(128 / 201) = 0.
  expect_only_error_saying(kGood + "  oversubscription: [200]\n", "backend.oversubscription[0]", 8,
                           "needs at least 201 ports per switch, but fx-sw800 has 128 at 400G");
}

TEST(Validate, FatTreeKOddOrLargerThanTheRadix) {
  const std::string base = "name: ft\nnodes: {model: fx-node8, count: 4}\nbackend:\n  topology: fat-tree\n"
                           "  switch: fx-sw800\n";
  Diagnostic d = only_error(base + "  k: 7\n");
  EXPECT_EQ(d.field, "backend.k");
  EXPECT_EQ(d.where.line, 6);
  EXPECT_EQ(d.message, "must be even and at least 2, got 7");
  d = only_error(base + "  k: 80\n");
  EXPECT_EQ(d.field, "backend.k");
  EXPECT_EQ(d.message, "k = 80 needs 80 ports per switch but fx-sw800 has 64 at 800G");
}

TEST(Validate, KIsOnlyForFatTree) {
  const Diagnostic d = only_error(kGood + "  k: 8\n");
  EXPECT_EQ(d.field, "backend.k");
  EXPECT_EQ(d.where.line, 8);
}

TEST(Validate, FatTreeMustBeNonBlocking) {
  const Diagnostic d = only_error(
      "name: ft\nnodes: {model: fx-node8, count: 4}\nbackend:\n  topology: fat-tree\n  switch: fx-sw800\n"
      "  oversubscription: [1, 2]\n");
  EXPECT_EQ(d.field, "backend.oversubscription[1]");
  EXPECT_EQ(d.where.line, 6);
}

TEST(Validate, TierCountTooSmallSaysWhatIsNeededAndWhatTiersReach) {
  // 1 plane at 800G: radix 64, down 32. 1024 nodes x 8 = 8192 ports per plane; 2 tiers reach
  // 64 x 32 = 2048, 3 tiers 64 x 32 x 32 = 65536.
  std::string yaml = replace(kGood, "count: 16", "count: 1024");
  const Diagnostic d = only_error(replace(yaml, "planes: 2", "planes: 1"));
  EXPECT_EQ(d.field, "backend.tiers");
  EXPECT_EQ(d.where.line, 6);
  EXPECT_EQ(d.message,
            "1024 nodes x 8 backend NICs need 8192 endpoint ports per plane, but 2 tiers of fx-sw800 at 800G "
            "(radix 64, 32 down / 32 up per leaf) reach 2048; 3 tiers reach 65536");
}

TEST(Validate, TwoPlanesMakeTwoTiersEnough) {
  // The same 1024 nodes on 2 planes: 400G, radix 128, 2 tiers reach 128 x 64 = 8192 = needed.
  auto r = check(replace(kGood, "count: 16", "count: 1024"));
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->endpoints_per_plane(), 8192);
  EXPECT_EQ(max_endpoints(r->backend.radix, r->backend.down, r->backend.tiers), 8192);
  // One more node does not fit.
  expect_only_error_saying(replace(kGood, "count: 16", "count: 1025"), "backend.tiers", 0,
                           "need 8200 endpoint ports per plane");
}

TEST(Validate, EvenThreeTiersTooSmall) {
  std::string yaml = replace(kGood, "count: 16", "count: 100000");
  const Diagnostic d = only_error(replace(yaml, "tiers: 2", "tiers: 3") + "  oversubscription: [1, 1]\n");
  EXPECT_EQ(d.field, "backend.tiers");
  EXPECT_THAT(d.message, HasSubstr("need 800000 endpoint ports per plane"));
  EXPECT_THAT(d.message, HasSubstr("reach 524288 (2 tiers: 8192)"));  // 128 x 64 x 64 at 400G
  EXPECT_THAT(d.message, HasSubstr("use more planes, a larger switch or fewer nodes"));
}

TEST(Validate, TiersOtherThanTwoOrThree) {
  expect_only_error(replace(kGood, "tiers: 2", "tiers: 4"), "backend.tiers", 6,
                    "must be 2 (leaf, spine) or 3 (leaf, spine, core), got 4");
}

TEST(Validate, UnknownTopology) {
  const Diagnostic d = only_error(replace(kGood, "rail-optimized", "rail-optimised"));
  EXPECT_EQ(d.field, "backend.topology");
  EXPECT_EQ(d.where.line, 4);
  EXPECT_EQ(d.message,
            "unknown topology 'rail-optimised' (did you mean 'rail-optimized'?); expected rail-optimized, "
            "fat-tree or leaf-spine");
}

TEST(Validate, LeafSpineNeedsRoomForAWholeHostOnALeaf) {
  // A tiny switch of 8 x 400G: radix 8, ratio 1 -> 4 down / 4 up per leaf, but leaf-spine puts a
  // host's 8 NICs on one leaf. (A down of 4 never arises on the fixture switches: down >= radix/2.)
  Catalog catalog = fixture_catalog();
  catalog.switches.push_back(fixture_switch("fx-tiny", 8, 400, {}, {Protocol::kEthernet}));
  std::string yaml = replace(kGood, "rail-optimized", "leaf-spine");
  yaml = replace(yaml, "fx-sw800", "fx-tiny");
  yaml = replace(yaml, "count: 16", "count: 1");
  auto r = check(yaml, catalog);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "backend.topology");
  EXPECT_EQ(r.errors()[0].where.line, 4);
  EXPECT_EQ(r.errors()[0].message,
            "leaf-spine puts all 8 backend NICs of a host on one leaf, but a leaf has only 4 host ports");
}

TEST(Validate, CrossPlaneLink) {
  const Diagnostic d = only_error(kGood + "  links:\n    - [plane0.spine.0, plane1.spine.0]\n");
  EXPECT_EQ(d.field, "backend.links[0]");
  EXPECT_EQ(d.where.line, 9);
  EXPECT_EQ(d.message,
            "links plane 0 to plane 1: the planes of a multi-plane design are separate networks and share no cable");
}

TEST(Validate, MalformedLinkEndpoints) {
  auto r = check(kGood +
                 "  links:\n"
                 "    - [plane0.spin.0, plane0.spine.1]\n"  // 9: bad tier name
                 "    - [plane2.spine.0, plane2.spine.1]\n"  // 10: no plane 2
                 "    - [plane0.core.0, plane0.spine.1]\n"   // 11: no core with 2 tiers
                 "    - [plane0.leaf.3, plane0.leaf.3]\n");  // 12: to itself
  ASSERT_FALSE(r.ok());
  const auto& e = r.errors();
  ASSERT_EQ(e.size(), 5u) << format_diagnostics(e);
  EXPECT_EQ(e[0].field, "backend.links[0][0]");
  EXPECT_EQ(e[0].where.line, 9);
  EXPECT_THAT(e[0].message, HasSubstr("'plane0.spin.0' is not a switch name"));
  EXPECT_EQ(e[1].field, "backend.links[1][0]");
  EXPECT_EQ(e[1].where.line, 10);
  EXPECT_EQ(e[1].message, "plane 2 does not exist: the design has 2 plane(s), numbered from 0");
  EXPECT_EQ(e[2].field, "backend.links[1][1]");
  EXPECT_EQ(e[3].field, "backend.links[2][0]");
  EXPECT_EQ(e[3].where.line, 11);
  EXPECT_EQ(e[3].message, "there is no core tier in a 2-tier design");
  EXPECT_EQ(e[4].field, "backend.links[3]");
  EXPECT_EQ(e[4].where.line, 12);
  EXPECT_EQ(e[4].message, "links plane0.leaf.3 to itself");
}

TEST(Validate, FrontendSpeedTheNicCannotRun) {
  // fx-dpu400 runs 400G or (split 2 ways) 200G; 100G is neither.
  expect_only_error(kGood + "frontend:\n  speed: 100G\n  switch: fx-sw100\n", "frontend.speed", 9,
                    "fx-dpu400 cannot run 100G ports; it runs 400G, 200G");
}

TEST(Validate, FrontendSpeedTheSwitchCannotRun) {
  expect_only_error(kGood + "frontend:\n  speed: 200G\n  switch: fx-sw100\n", "frontend.speed", 9,
                    "fx-sw100 cannot run 200G ports; it runs 100G x32, 25G x128");
}

TEST(Validate, FrontendWithoutNicOrSwitch) {
  // fx-node1 has no frontend NIC, and the switch is left out.
  std::string yaml = replace(kGood, "fx-node8,", "fx-node1,");
  yaml = replace(yaml, "planes: 2", "planes: 1");
  yaml = replace(yaml, "switch: fx-sw800", "switch: fx-sw100");
  auto r = check(yaml + "frontend:\n  oversubscription: 2\n");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 2u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "frontend.nic");
  EXPECT_EQ(r.errors()[0].where.line, 8);
  EXPECT_EQ(r.errors()[1].field, "frontend.switch");
}

TEST(Validate, NicAndSwitchWithoutACommonProtocol) {
  // fx-nic100 runs Ethernet only; fx-ib100 (added here) InfiniBand only, at the same 100G.
  Catalog catalog = fixture_catalog();
  catalog.switches.push_back(fixture_switch("fx-ib100", 32, 100, {}, {Protocol::kInfiniband}));
  std::string yaml = replace(kGood, "fx-node8,", "fx-node1,");
  yaml = replace(yaml, "planes: 2", "planes: 1");
  auto r = check(replace(yaml, "switch: fx-sw800", "switch: fx-ib100"), catalog);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "backend.switch");
  EXPECT_EQ(r.errors()[0].where.line, 7);
  EXPECT_EQ(r.errors()[0].message,
            "fx-ib100 runs infiniband but the backend NIC fx-nic100 runs ethernet: no protocol in common");
}

TEST(Validate, MissingRequiredFields) {
  auto r = check("nodes: {count: 4}\nbackend: {planes: 1}\n");
  ASSERT_FALSE(r.ok());
  std::vector<std::string> fields;
  for (const auto& d : r.errors()) fields.push_back(d.field);
  EXPECT_THAT(fields, ::testing::UnorderedElementsAre("name", "nodes.model", "backend.switch"));
}

TEST(Validate, NegativeLatencyAndCableLength) {
  auto r = check(kGood + "  link_latency_ns: -1\n  cable_length_m: {spine: 0}\n");
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 2u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "backend.link_latency_ns");
  EXPECT_EQ(r.errors()[0].where.line, 8);
  EXPECT_EQ(r.errors()[1].field, "backend.cable_length_m.spine");
  EXPECT_EQ(r.errors()[1].where.line, 9);
}

TEST(Validate, ThreeDistinctErrorsAtOnceInFileOrder) {
  // Unknown node (line 2), planes 3 (line 5), unknown switch (line 7): three diagnostics.
  std::string yaml = replace(kGood, "fx-node8,", "gpu-box,");
  yaml = replace(yaml, "planes: 2", "planes: 3");
  yaml = replace(yaml, "switch: fx-sw800", "switch: nope");
  auto r = check(yaml);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 3u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "nodes.model");
  EXPECT_EQ(r.errors()[0].where.line, 2);
  EXPECT_EQ(r.errors()[1].field, "backend.planes");
  EXPECT_EQ(r.errors()[1].where.line, 5);
  EXPECT_EQ(r.errors()[2].field, "backend.switch");
  EXPECT_EQ(r.errors()[2].where.line, 7);
  for (const auto& d : r.errors()) EXPECT_THAT(format_diagnostic(d), HasSubstr("t.yaml:"));
}

TEST(Validate, ReadingAndValidationProblemsTogetherWithoutRepeats) {
  // A misspelt field (line 4, a reading error), a count that is not a number (line 2, a reading
  // error that validate() must not repeat as "count 0") and an unknown switch (line 8, found only by
  // validate()): three diagnostics in one run, in file order.
  std::string yaml = replace(kGood, "count: 16", "count: many");
  yaml = replace(yaml, "backend:\n", "backend:\n  tier: 2\n");
  yaml = replace(yaml, "switch: fx-sw800", "switch: nope");
  auto r = validate_reading(read_spec("t.yaml", yaml), fixture_catalog());
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 3u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "nodes.count");
  EXPECT_EQ(r.errors()[0].where.line, 2);
  EXPECT_EQ(r.errors()[1].field, "backend.tier");
  EXPECT_EQ(r.errors()[1].where.line, 4);
  EXPECT_EQ(r.errors()[2].field, "backend.switch");
  EXPECT_EQ(r.errors()[2].where.line, 8);
}

TEST(Validate, SyntaxErrorStopsBeforeValidation) {
  // An unreadable file gives its syntax error only: nothing else can be trusted.
  auto r = validate_reading(read_spec("t.yaml", "name: t\nnodes: {model: nope, count: [1\n"), fixture_catalog());
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u) << format_diagnostics(r.errors());
  EXPECT_THAT(r.errors()[0].message, HasSubstr("YAML syntax error"));
}

// ---------------------------------------------------------------- examples on the real catalog

class Examples : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto c = load_catalog(ct::testing_support::source_dir() + "/catalog");
    if (c) catalog_ = std::move(c).value();
    else catalog_errors_ = format_diagnostics(c.errors());
  }
  static std::string path(const std::string& name) { return ct::testing_support::source_dir() + "/examples/" + name; }
  static Result<ValidSpec> load(const std::string& name) { return load_spec(path(name), *catalog_); }

  static std::optional<Catalog> catalog_;
  static std::string catalog_errors_;
};
std::optional<Catalog> Examples::catalog_;
std::string Examples::catalog_errors_;

TEST_F(Examples, B300DualPlane) {
  // 1024 x HGX B300 (8 ConnectX-8 each), 2 planes: 800G / 2 = 400G; SN5600 runs 128 x 400G;
  // non-blocking: 64 down / 64 up; 1024 x 8 = 8192 ports per plane = 128 x 64, exactly 2 tiers.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  auto r = load("b300-dual-plane.yaml");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->gpu_count(), 8192);
  EXPECT_EQ(r->backend.planes, 2);
  EXPECT_EQ(r->backend.tiers, 2);
  EXPECT_EQ(r->backend.port_speed, gbps(400));
  EXPECT_EQ(r->backend.radix, 128);
  EXPECT_EQ(r->backend.down, std::vector<int>({64}));
  EXPECT_EQ(r->backend.up, std::vector<int>({64}));
  EXPECT_EQ(r->endpoints_per_plane(), 8192);
  EXPECT_EQ(max_endpoints(r->backend.radix, r->backend.down, 2), 8192);
  EXPECT_TRUE(r->frontend.has_value());
}

TEST_F(Examples, B300SinglePlane) {
  // The same cluster on one 800G plane: radix 64, 32/32; 3 tiers reach 64 x 32 x 32 = 65536.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  auto r = load("b300-single-plane.yaml");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->gpu_count(), 8192);
  EXPECT_EQ(r->backend.planes, 1);
  EXPECT_EQ(r->backend.tiers, 3);
  EXPECT_EQ(r->backend.port_speed, gbps(800));
  EXPECT_EQ(r->backend.radix, 64);
  EXPECT_EQ(r->backend.down, std::vector<int>({32, 32}));
  EXPECT_EQ(r->backend.up, std::vector<int>({32, 32}));
  EXPECT_EQ(max_endpoints(r->backend.radix, r->backend.down, 3), 65536);
}

TEST_F(Examples, B300SinglePlaneOnTwoTiersIsRejected) {
  // The dual-plane argument: one 800G plane on 2 tiers of SN5600 reaches 64 x 32 = 2048 ports,
  // a quarter of the 8192 needed.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  auto text = read_text_file(path("b300-single-plane.yaml"));
  ASSERT_TRUE(text.ok());
  std::string yaml = text.value();
  const auto at = yaml.find("tiers: 3");
  ASSERT_NE(at, std::string::npos);
  const int line = 1 + static_cast<int>(std::count(yaml.begin(), yaml.begin() + static_cast<long>(at), '\n'));
  yaml.replace(at, 8, "tiers: 2");
  // The 3-tier design's oversubscription list has 2 entries; drop it if present so that the only
  // complaint is the tier count.
  if (const auto o = yaml.find("oversubscription: [1, 1]"); o != std::string::npos) {
    yaml.replace(o, 24, "oversubscription: [1]");
  }
  auto spec = parse_spec("single.yaml", yaml);
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  auto r = validate(spec.value(), *catalog_);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u) << format_diagnostics(r.errors());
  EXPECT_EQ(r.errors()[0].field, "backend.tiers");
  EXPECT_EQ(r.errors()[0].where.line, line);
  EXPECT_THAT(r.errors()[0].message, HasSubstr("need 8192 endpoint ports per plane"));
  EXPECT_THAT(r.errors()[0].message, HasSubstr("reach 2048; 3 tiers reach 65536"));
}

TEST_F(Examples, Lab32) {
  // 32 x HGX H100 (8 ConnectX-7 at 400G, no split) on QM9700 (64 x 400G): radix 64, 32 down /
  // 32 up; 256 endpoint ports of the 2,048 that 2 tiers reach.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  auto r = load("lab-32.yaml");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->node_count, 32);
  EXPECT_EQ(r->gpu_count(), 256);
  EXPECT_EQ(r->backend.tiers, 2);
  EXPECT_EQ(r->backend.planes, 1);
  EXPECT_EQ(r->backend.nic.id, "connectx-7");
  EXPECT_EQ(r->backend.port_speed, gbps(400));
  EXPECT_EQ(r->backend.radix, 64);
  EXPECT_EQ(r->backend.down, std::vector<int>({32}));
  EXPECT_EQ(r->backend.up, std::vector<int>({32}));
  EXPECT_EQ(r->endpoints_per_plane(), 256);
  EXPECT_EQ(max_endpoints(r->backend.radix, r->backend.down, 2), 2048);
  EXPECT_DOUBLE_EQ(r->backend.cable_length_m[0], 10.0);
}

TEST_F(Examples, Homelab) {
  // 4 x homelab-node (1 ConnectX-6 Dx, 100G) on SN2700 (32 x 100G): radix 32, 16 down / 16 up,
  // 4 endpoint ports; leaf-spine fits since a host's single NIC needs 1 <= 16 leaf ports.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  auto r = load("homelab.yaml");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->node.id, "homelab-node");
  EXPECT_EQ(r->backend.topology, TopologyKind::kLeafSpine);
  EXPECT_EQ(r->backend.switch_model.id, "sn2700");
  EXPECT_EQ(r->backend.port_speed, gbps(100));
  EXPECT_EQ(r->backend.radix, 32);
  EXPECT_EQ(r->backend.down, std::vector<int>({16}));
  EXPECT_EQ(r->backend.up, std::vector<int>({16}));
  EXPECT_EQ(r->endpoints_per_plane(), 4);
  EXPECT_EQ(r->backend.link_latency, TimePs(0));
  EXPECT_FALSE(r->frontend.has_value());
}

TEST_F(Examples, B300DualPlaneFrontendUsesTheNodesDpus) {
  // No `nic:` in the frontend block: the node's frontend NIC (BlueField-3, 200G) on SN5600 run as
  // 4 x 200G per cage = 256 ports.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  auto r = load("b300-dual-plane.yaml");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_TRUE(r->frontend.has_value());
  EXPECT_EQ(r->frontend->nic.id, "bluefield-3");
  EXPECT_EQ(r->frontend->speed, gbps(200));
  EXPECT_EQ(r->frontend->switch_model.ports_at(r->frontend->speed), 256);
  EXPECT_DOUBLE_EQ(r->frontend->oversubscription, 3.0);
}

TEST_F(Examples, BadCliFixturesReportTheirExpectedDiagnostics) {
  // tests/cli/bad/*.yaml state their diagnostics as "# expect: LINE TEXT"; the CLI test checks
  // them through the binary, this one through the library, so that a fixture is right before the
  // CLI exists. One "# expect:" per diagnostic, each matching one at its line, and no other.
  ASSERT_TRUE(catalog_.has_value()) << catalog_errors_;
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(ct::testing_support::source_dir() + "/tests/cli/bad")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 10u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const std::string text = read_text_file(file.string()).value();
    std::vector<std::pair<int, std::string>> expects;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("# expect: ")) continue;
      const std::string rest = line.substr(10);
      expects.emplace_back(std::stoi(rest), rest.substr(rest.find(' ') + 1));
    }
    ASSERT_FALSE(expects.empty());
    Diagnostics errors;
    if (auto valid = validate_reading(read_spec(file.string(), text), *catalog_); !valid) errors = valid.errors();
    std::set<int> lines_with_errors;
    for (const auto& d : errors) lines_with_errors.insert(d.where.line);
    std::set<int> expected_lines;
    for (const auto& [line, expected_text] : expects) {
      expected_lines.insert(line);
      const bool found = std::any_of(errors.begin(), errors.end(), [&](const Diagnostic& d) {
        return d.where.line == line && format_diagnostic(d).find(expected_text) != std::string::npos;
      });
      EXPECT_TRUE(found) << "line " << line << ": " << expected_text << "\n" << format_diagnostics(errors);
    }
    EXPECT_EQ(lines_with_errors, expected_lines) << format_diagnostics(errors);
    EXPECT_EQ(errors.size(), expects.size()) << format_diagnostics(errors);
  }
}

// ---------------------------------------------------------------- reliability: block

// kGood (16 nodes x 8 GPUs = 128) with a reliability block; lines 8 onwards.
const std::string kReliable = kGood +
    "reliability:\n"                              // 8
    "  job_gpus: 64\n"                            // 9
    "  checkpoint_hours: 3\n"                     // 10
    "  restart_minutes: 0\n"                      // 11
    "  degraded: continue\n"                      // 12
    "  afr: {link: 0.01}\n"                       // 13
    "  repair_hours: {link: 4, spine: 12}\n";     // 14

TEST(Validate, ReliabilityBlockIsReadAndChecked) {
  auto r = check(kReliable);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const ValidReliability& v = r->reliability;
  EXPECT_EQ(v.job_gpus, 64);
  EXPECT_EQ(v.checkpoint_hours, 3.0);
  EXPECT_EQ(v.restart_minutes, 0.0);
  EXPECT_EQ(v.drain_degraded, false);
  EXPECT_FALSE(v.horizon_days.has_value());
  EXPECT_EQ(v.afr[static_cast<int>(FailureElement::kLink)], 0.01);
  EXPECT_FALSE(v.afr[static_cast<int>(FailureElement::kNic)].has_value());
  EXPECT_EQ(v.repair_hours[static_cast<int>(FailureElement::kSpine)], 12.0);
  EXPECT_FALSE(check(kGood)->reliability.job_gpus.has_value());
}

TEST(Validate, ReliabilityErrorsNameFieldAndLine) {
  const Diagnostic big = only_error(replace(kReliable, "job_gpus: 64", "job_gpus: 129"));
  EXPECT_EQ(big.field, "reliability.job_gpus");
  EXPECT_EQ(big.where.line, 9);
  EXPECT_THAT(big.message, HasSubstr("128"));
  const Diagnostic zero = only_error(replace(kReliable, "{link: 4, spine: 12}", "{link: 0, spine: 12}"));
  EXPECT_EQ(zero.field, "reliability.repair_hours.link");
  EXPECT_EQ(zero.where.line, 14);
  EXPECT_EQ(only_error(replace(kReliable, "continue", "pause")).field, "reliability.degraded");
  EXPECT_EQ(only_error(kReliable + "  split: spray\n").field, "reliability.split");
  EXPECT_EQ(check(kReliable + "  split: adaptive\n")->reliability.adaptive_split, true);
  EXPECT_EQ(only_error(kReliable + "  comm_fraction: 1.5\n").field, "reliability.comm_fraction");
  const Diagnostic unknown = only_error(replace(kReliable, "afr: {link: 0.01}", "afr: {optic: 0.01}"));
  EXPECT_EQ(unknown.field, "reliability.afr.optic");
}

}  // namespace
}  // namespace ct
