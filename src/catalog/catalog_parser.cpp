// Catalog YAML -> Catalog. The schema is documented in docs/models/catalog.md and at the top of each
// file under catalog/. Rules enforced here:
//   - each file is a mapping whose keys are among nodes, nics, switches, optics, zoo,
//     failure_rates, each a list;
//   - every entry names id (zoo: class), name, vendor and source (a string or list of strings);
//   - figure fields are required; those a vendor may not publish (power_w, price_usd, ...) may be
//     written `null`, which records "not published" rather than "forgotten";
//   - unknown and repeated fields, wrong types, bad speeds, numbers out of range are errors with
//     file:line:column and the field path (e.g. switches[2].ports), read through the one YAML
//     reader (yaml/yaml_reader.h);
//   - ids are unique across all files (the error names both places); a node's NICs exist.
#include "catalog/catalog_parser.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "yaml/yaml_reader.h"

namespace ct {
namespace {

template <typename E>
using EnumNames = std::vector<std::pair<std::string_view, E>>;

const EnumNames<Protocol> kProtocols = {{"ethernet", Protocol::kEthernet}, {"infiniband", Protocol::kInfiniband}};
const EnumNames<Forwarding> kForwardings = {{"cut-through", Forwarding::kCutThrough},
                                            {"store-and-forward", Forwarding::kStoreAndForward}};
const EnumNames<NicKind> kNicKinds = {{"nic", NicKind::kNic}, {"supernic", NicKind::kSuperNic}, {"dpu", NicKind::kDpu}};
const EnumNames<MediaKind> kMediaKinds = {
    {"transceiver", MediaKind::kTransceiver}, {"dac", MediaKind::kDac}, {"acc", MediaKind::kAcc}, {"aoc", MediaKind::kAoc}};
const EnumNames<Medium> kMedia = {{"smf", Medium::kSingleMode}, {"mmf", Medium::kMultiMode}, {"copper", Medium::kCopper}};
const EnumNames<FailureElement> kFailureElements = {{"nic", FailureElement::kNic},
                                                     {"link", FailureElement::kLink},
                                                     {"leaf", FailureElement::kLeaf},
                                                     {"spine", FailureElement::kSpine},
                                                     {"core", FailureElement::kCore}};

// Limits of the catalog's figures: far above any product, low enough that products of them (ports x
// port speed, elements x days) cannot overflow.
constexpr IntegerRange kPorts{.min = 1, .max = 4096, .unit = "ports"};
constexpr IntegerRange kWays{.min = 2, .max = 64, .unit = "logical ports"};
constexpr IntegerRange kSplits{.min = 1, .max = 64, .unit = "planes"};
constexpr IntegerRange kGpus{.min = 1, .max = 1024, .unit = "GPUs"};
constexpr IntegerRange kNics{.min = 1, .max = 1024, .unit = "NICs"};
constexpr IntegerRange kLinks{.min = 1, .max = 64, .unit = "links"};
constexpr IntegerRange kRackUnits{.min = 1, .max = 100, .unit = "rack units"};
constexpr NumberRange kSwitchLatency{.min = 0, .max = 1e6, .unit = "ns"};
constexpr NumberRange kSwitchBuffer{.min = 64, .max = 1e10, .unit = "bytes"};
constexpr NumberRange kSharpLatency{.min = 0, .max = 1e6, .unit = "ns"};
constexpr IntegerRange kSharpTrees{.min = 1, .max = 1 << 20, .unit = "trees"};
constexpr IntegerRange kFailures{.min = 0, .max = 1'000'000'000, .unit = "failures"};
constexpr IntegerRange kElements{.min = 1, .max = 1'000'000'000, .unit = "elements"};
constexpr NumberRange kReach{.min = 0, .max = 1'000'000, .unit = "m"};
constexpr NumberRange kWatts{.min = 0, .max = 1'000'000, .unit = "W"};
constexpr NumberRange kPrice{.min = 0, .max = 1e9, .unit = "USD"};
constexpr NumberRange kDays{.min = 0, .max = 1e6, .min_open = true, .unit = "days"};
constexpr NumberRange kHours{.min = 0, .max = 1e9, .min_open = true, .unit = "hours"};
constexpr NumberRange kShare{.min = 0, .max = 1, .unit = ""};

// "1.8TB/s", "900GB/s" -> bytes per second (capital B: bytes), at most 1 PB/s.
Result<double> parse_byte_rate(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double number = std::strtod(s.c_str(), &end);
  const std::string_view suffix(end);
  double scale = 0;
  if (suffix == "GB/s") scale = 1e9;
  else if (suffix == "TB/s") scale = 1e12;
  if (end == s.c_str() || !(number > 0) || !(number * scale <= 1e15) || scale == 0) {
    return Diagnostic{{}, "", "expected a byte rate like 900GB/s or 1.8TB/s (at most 1000TB/s)"};
  }
  return number * scale;
}

// The catalog's field tables: handlers that store a value once the reader accepted it.
class CatalogReader {
 public:
  using Field = YamlReader::Field;
  using Handler = YamlReader::Handler;
  static constexpr auto kRequired = YamlReader::Presence::kRequired;

  explicit CatalogReader(YamlReader& r) : r_(r) {}

  [[nodiscard]] std::size_t error_count() { return r_.errors().size(); }
  YamlReader& yaml() { return r_; }

  Handler text(std::string& out) {
    return [this, &out](auto& k, auto& v, auto& f) { out = r_.text(k, v, f, true).value_or(out); };
  }
  Handler integer(int& out, IntegerRange range) {
    return [this, &out, range](auto& k, auto& v, auto& f) {
      if (auto n = r_.integer(k, v, f, range)) out = static_cast<int>(*n);
    };
  }
  // `null` records "not published".
  Handler nullable_integer(std::optional<int>& out, IntegerRange range) {
    return [this, &out, range](auto& k, auto& v, auto& f) {
      if (v.is_null()) return;
      if (auto n = r_.integer(k, v, f, range)) out = static_cast<int>(*n);
    };
  }
  Handler number(double& out, NumberRange range) {
    return [this, &out, range](auto& k, auto& v, auto& f) { out = r_.number(k, v, f, range).value_or(out); };
  }
  Handler nullable_number(std::optional<double>& out, NumberRange range) {
    return [this, &out, range](auto& k, auto& v, auto& f) {
      if (!v.is_null()) out = r_.number(k, v, f, range);
    };
  }
  Handler speed(BitsPerSecond& out) {
    return [this, &out](auto& k, auto& v, auto& f) { out = r_.speed(k, v, f).value_or(out); };
  }
  Handler nullable_byte_rate(std::optional<double>& out) {
    return [this, &out](auto& k, auto& v, auto& f) {
      if (v.is_null()) return;
      auto rate = v.is_scalar() ? parse_byte_rate(v.scalar()) : parse_byte_rate("");
      if (rate) {
        out = rate.value();
      } else {
        r_.error(k, v, f, rate.errors().front().message + ", got " + YamlReader::describe(v));
      }
    };
  }
  template <typename E>
  Handler enumeration(E& out, const EnumNames<E>& names) {
    return [this, &out, &names](auto& k, auto& v, auto& f) { out = r_.choice(k, v, f, names).value_or(out); };
  }
  template <typename E>
  Handler nullable_enumeration(std::optional<E>& out, const EnumNames<E>& names) {
    return [this, &out, &names](auto& k, auto& v, auto& f) {
      if (!v.is_null()) out = r_.choice(k, v, f, names);
    };
  }
  template <typename E>
  Handler enum_list(std::vector<E>& out, const EnumNames<E>& names) {
    return [this, &out, &names](auto& k, auto& v, auto& f) {
      non_empty_list(k, v, f, [&](auto& item, auto& path) {
        if (auto e = r_.choice(item, item, path, names)) out.push_back(*e);
      });
    };
  }
  Handler int_list(std::vector<int>& out, IntegerRange range) {
    return [this, &out, range](auto& k, auto& v, auto& f) {
      out.clear();
      non_empty_list(k, v, f, [&](auto& item, auto& path) {
        if (auto n = r_.integer(item, item, path, range)) out.push_back(static_cast<int>(*n));
      });
    };
  }
  // `source:` a non-empty string or a non-empty list of non-empty strings.
  Handler sources(std::vector<std::string>& out) {
    return [this, &out](auto& k, auto& v, auto& f) {
      if (v.is_scalar()) {
        if (auto s = r_.text(k, v, f, true)) out.push_back(*s);
        return;
      }
      if (!v.is_sequence() || v.size() == 0) {
        r_.error(k, v, f, "expected a URL or a list of URLs and document titles, got " + YamlReader::describe(v));
        return;
      }
      r_.list(k, v, f, [&](auto& item, auto& path) {
        if (auto s = r_.text(item, item, path, true)) out.push_back(*s);
      });
    };
  }

  // The header every entry starts with.
  std::vector<Field> header(CatalogEntry& e) {
    return {{"id", text(e.id), kRequired},
            {"name", text(e.name), kRequired},
            {"vendor", text(e.vendor), kRequired},
            {"part_number", text(e.part_number)},
            {"source", sources(e.sources), kRequired}};
  }
  // The two figures every priced part has, published or null.
  std::vector<Field> power_and_price(std::optional<double>& power_w, std::optional<double>& price_usd) {
    return {{"power_w", nullable_number(power_w, kWatts), kRequired},
            {"price_usd", nullable_number(price_usd, kPrice), kRequired}};
  }
  // The tables one after another, in order.
  static std::vector<Field> with(std::vector<Field> a, std::vector<Field> b, std::vector<Field> c = {},
                                 std::vector<Field> d = {}) {
    for (std::vector<Field>* more : {&b, &c, &d}) {
      a.insert(a.end(), std::make_move_iterator(more->begin()), std::make_move_iterator(more->end()));
    }
    return a;
  }

 private:
  void non_empty_list(const YamlNode& k, const YamlNode& v, const std::string& f, const YamlReader::ItemReader& read) {
    if (!v.is_sequence() || v.size() == 0) {
      r_.error(k, v, f, "expected a non-empty list, got " + YamlReader::describe(v));
      return;
    }
    r_.list(k, v, f, read);
  }

  YamlReader& r_;
};

std::vector<Breakout> read_breakouts(CatalogReader& c, const YamlNode& key, const YamlNode& value,
                                     const std::string& field, BitsPerSecond port_speed) {
  std::vector<Breakout> out;
  if (value.is_null()) return out;
  YamlReader& r = c.yaml();
  r.list(key, value, field, [&](const YamlNode& item, const std::string& path) {
    Breakout b;
    const std::size_t errors_before = c.error_count();
    if (!r.mapping(item, item, path,
                   {{"ways", c.integer(b.ways, kWays), CatalogReader::kRequired},
                    {"speed", c.speed(b.speed), CatalogReader::kRequired}})) {
      return;
    }
    // A breakout splits the cage's lanes: the logical ports cannot carry more than the cage.
    if (c.error_count() == errors_before && port_speed.value() > 0 && b.speed.value() * b.ways > port_speed.value()) {
      r.error(r.at(item), path, fmt::format("{} x {} exceeds the port speed {}", b.ways, format_speed(b.speed),
                                            format_speed(port_speed)));
    }
    out.push_back(b);
  });
  return out;
}

SwitchModel read_switch(CatalogReader& c, const YamlNode& item, const std::string& path) {
  YamlReader& r = c.yaml();
  const std::size_t errors_before = c.error_count();
  SwitchModel s;
  std::optional<std::pair<YamlNode, YamlNode>> breakouts;  // key, value
  std::string breakouts_field;
  r.mapping(item, item, path,
            CatalogReader::with(c.header(s), {{"protocols", c.enum_list(s.protocols, kProtocols), CatalogReader::kRequired},
                                              {"asic", c.text(s.asic), CatalogReader::kRequired},
                                              {"ports", c.integer(s.ports, kPorts), CatalogReader::kRequired},
                                              {"port_speed", c.speed(s.port_speed), CatalogReader::kRequired},
                                              {"breakouts",
                                               [&](auto& k, auto& v, auto& f) {
                                                 breakouts.emplace(k, v);
                                                 breakouts_field = f;
                                               }},
                                              {"capacity", c.speed(s.capacity), CatalogReader::kRequired}},
                                              c.power_and_price(s.power_w, s.price_usd),
                                              {{"rack_units", c.nullable_integer(s.rack_units, kRackUnits),
                                                CatalogReader::kRequired},
                                               {"latency_ns", c.nullable_number(s.latency_ns, kSwitchLatency)},
                                               {"buffer_bytes_per_vl", c.nullable_number(s.buffer_bytes_per_vl, kSwitchBuffer)},
                                               {"forwarding", c.nullable_enumeration(s.forwarding, kForwardings)},
                                               {"sharp_latency_ns", c.nullable_number(s.sharp_latency_ns, kSharpLatency)},
                                               {"sharp_trees", c.nullable_integer(s.sharp_trees, kSharpTrees)}}));
  if (breakouts) s.breakouts = read_breakouts(c, breakouts->first, breakouts->second, breakouts_field, s.port_speed);
  // Capacity is one direction: every port at full speed at once (at most 4096 x 1 Pb/s: no overflow).
  if (c.error_count() == errors_before && s.capacity != s.port_speed * s.ports) {
    r.error(r.at(item), join_field(path, "capacity"),
            fmt::format("{} differs from ports x port_speed = {} (capacity counts one direction)",
                        format_speed(s.capacity), format_speed(s.port_speed * s.ports)));
  }
  return s;
}

NicModel read_nic(CatalogReader& c, const YamlNode& item, const std::string& path) {
  NicModel n;
  c.yaml().mapping(item, item, path,
                   CatalogReader::with(c.header(n), {{"kind", c.enumeration(n.kind, kNicKinds), CatalogReader::kRequired},
                                                     {"protocols", c.enum_list(n.protocols, kProtocols), CatalogReader::kRequired},
                                                     {"ports", c.integer(n.ports, kPorts), CatalogReader::kRequired},
                                                     {"port_speed", c.speed(n.port_speed), CatalogReader::kRequired},
                                                     {"splits", c.int_list(n.splits, kSplits), CatalogReader::kRequired}},
                                                    c.power_and_price(n.power_w, n.price_usd)));
  return n;
}

NodeModel read_node(CatalogReader& c, const YamlNode& item, const std::string& path) {
  YamlReader& r = c.yaml();
  NodeModel n;
  std::optional<YamlNode> count_key;
  r.mapping(item, item, path,
            CatalogReader::with(c.header(n), {{"gpu", c.text(n.gpu), CatalogReader::kRequired},
                                              {"gpus", c.integer(n.gpus, kGpus), CatalogReader::kRequired},
                                              {"nvlink", c.nullable_byte_rate(n.nvlink_bytes_per_s), CatalogReader::kRequired},
                                              {"backend_nic", c.text(n.backend_nic), CatalogReader::kRequired},
                                              {"backend_nics", c.integer(n.backend_nics, kNics), CatalogReader::kRequired},
                                              {"frontend_nic", c.text(n.frontend_nic)},
                                              {"frontend_nics",
                                               [&](auto& k, auto& v, auto& f) {
                                                 count_key.emplace(k);
                                                 c.integer(n.frontend_nics, kNics)(k, v, f);
                                               }}},
                                                    c.power_and_price(n.power_w, n.price_usd)));
  // A node without a frontend NIC omits both fields.
  if (!n.frontend_nic.empty() && !count_key && item.is_mapping()) {
    r.error(r.at(item), join_field(path, "frontend_nics"), "missing required field");
  } else if (n.frontend_nic.empty() && count_key) {
    r.error(r.at(*count_key), join_field(path, "frontend_nics"), "given without frontend_nic");
  }
  return n;
}

OpticModel read_optic(CatalogReader& c, const YamlNode& item, const std::string& path) {
  OpticModel o;
  c.yaml().mapping(item, item, path,
                   CatalogReader::with(c.header(o), {{"kind", c.enumeration(o.kind, kMediaKinds), CatalogReader::kRequired},
                                                     {"medium", c.enumeration(o.medium, kMedia), CatalogReader::kRequired},
                                                     {"form_factor", c.text(o.form_factor), CatalogReader::kRequired},
                                                     {"speed", c.speed(o.speed), CatalogReader::kRequired},
                                                     {"links", c.integer(o.links, kLinks), CatalogReader::kRequired},
                                                     {"reach_m", c.number(o.reach_m, kReach), CatalogReader::kRequired}},
                                                    c.power_and_price(o.power_w, o.price_usd)));
  return o;
}

// `rate:` null (not published) or exactly one of the forms of catalog.h, converted to failures per
// element-hour.
std::optional<double> read_failure_per_hour(CatalogReader& c, const YamlNode& key, const YamlNode& n,
                                            const std::string& path) {
  if (n.is_null()) return std::nullopt;
  YamlReader& r = c.yaml();
  const std::size_t errors_before = c.error_count();
  int forms = 0;
  std::optional<double> out;
  int failures = 0;
  int elements = 1;
  double days = 0;
  double value = 0;
  double hours = 0;
  const auto form = [&](auto read) {
    return [&forms, read](auto& k, auto& v, auto& f) {
      ++forms;
      read(k, v, f);
    };
  };
  if (!r.mapping(key, n, path,
                 {{"observed", form([&](auto&, auto& v, auto& f) {
                     r.mapping(v, v, f,
                               {{"failures", c.integer(failures, kFailures), CatalogReader::kRequired},
                                {"elements", c.integer(elements, kElements), CatalogReader::kRequired},
                                {"days", c.number(days, kDays), CatalogReader::kRequired}});
                     if (c.error_count() == errors_before) out = failures / (elements * 24.0 * days);
                   })},
                  {"fraction", form([&](auto&, auto& v, auto& f) {
                     // A share failing within the period; 1 would be an infinite rate.
                     r.mapping(v, v, f,
                               {{"value", c.number(value, {.min = 0, .max = 1, .unit = ""}), CatalogReader::kRequired},
                                {"days", c.number(days, kDays), CatalogReader::kRequired}});
                     if (c.error_count() != errors_before) return;
                     if (value >= 1) r.error(r.at(v), join_field(f, "value"), "a share failing must be below 1");
                     else out = -std::log1p(-value) / (24.0 * days);
                   })},
                  {"mtbf_hours", form([&](auto& k, auto& v, auto& f) {
                     c.number(hours, kHours)(k, v, f);
                     if (c.error_count() == errors_before) out = 1.0 / hours;
                   })}})) {
    return std::nullopt;
  }
  if (forms != 1) {
    r.error(r.at(key, n), path, "expected exactly one of observed, fraction, mtbf_hours");
    return std::nullopt;
  }
  return out;
}

FailureRate read_failure_rate(CatalogReader& c, const YamlNode& item, const std::string& path) {
  YamlReader& r = c.yaml();
  FailureRate f;
  std::optional<YamlNode> media_key;
  r.mapping(item, item, path,
            {{"id", c.text(f.id), CatalogReader::kRequired},
             {"element", c.enumeration(f.element, kFailureElements), CatalogReader::kRequired},
             {"media",
              [&](auto& k, auto& v, auto& fld) {
                media_key.emplace(k);
                f.media = r.choice(k, v, fld, kMediaKinds);
              }},
             {"rate", [&](auto& k, auto& v, auto& fld) { f.per_hour = read_failure_per_hour(c, k, v, fld); },
              CatalogReader::kRequired},
             {"mttr_hours", c.nullable_number(f.mttr_hours, kHours), CatalogReader::kRequired},
             {"basis", c.text(f.basis), CatalogReader::kRequired},
             {"source", c.sources(f.sources), CatalogReader::kRequired}});
  if (f.media && media_key && f.element != FailureElement::kLink) r.error(r.at(*media_key), join_field(path, "media"), "only links have a media");
  f.where = r.at(item);
  return f;
}

ChipClass read_chip_class(CatalogReader& c, const YamlNode& item, const std::string& path) {
  ChipClass z;
  c.yaml().mapping(item, item, path,
                   {{"class", c.text(z.name), CatalogReader::kRequired},
                    {"bottleneck", c.text(z.bottleneck), CatalogReader::kRequired},
                    {"example", c.text(z.example), CatalogReader::kRequired},
                    {"source", c.sources(z.sources), CatalogReader::kRequired}});
  return z;
}

// Where each id was first defined, to report duplicates with both places.
using IdIndex = std::map<std::string, SourceLocation>;

void register_id(IdIndex& ids, const std::string& id, const SourceLocation& where, const std::string& path,
                 Diagnostics& errors) {
  if (id.empty()) return;
  auto [it, inserted] = ids.emplace(id, where);
  if (inserted) return;
  const auto& first = it->second;
  errors.push_back({where, path, fmt::format("duplicate id '{}', first defined at {}:{}:{}", id, first.file, first.line,
                                             first.column)});
}

// One catalog file: a mapping of lists, each item read by its entry reader.
class FileParser {
 public:
  FileParser(YamlReader& r, Catalog& catalog, IdIndex& ids, IdIndex& zoo_ids)
      : r_(r), c_(r), catalog_(catalog), ids_(ids), zoo_ids_(zoo_ids) {}

  void parse(const YamlNode& root) {
    r_.mapping(root, root, "",
               {{"nodes", entries(catalog_.nodes, read_node)},
                {"nics", entries(catalog_.nics, read_nic)},
                {"switches", entries(catalog_.switches, read_switch)},
                {"optics", entries(catalog_.optics, read_optic)},
                {"failure_rates", entries(catalog_.failure_rates, read_failure_rate)},
                {"zoo", [&](auto& k, auto& v, auto& f) {
                   r_.list(k, v, f, [&](const YamlNode& item, const std::string& path) {
                     if (!item.is_mapping()) {
                       r_.error(r_.at(item), path, "expected a mapping of fields, got " + YamlReader::describe(item));
                       return;
                     }
                     catalog_.zoo.push_back(read_chip_class(c_, item, path));
                     register_id(zoo_ids_, catalog_.zoo.back().name, r_.at(item), path + ".class", r_.errors());
                   });
                 }}});
  }

 private:
  template <typename T, typename Read>
  YamlReader::Handler entries(std::vector<T>& out, Read read) {
    return [this, &out, read](auto& k, auto& v, auto& f) {
      r_.list(k, v, f, [&](const YamlNode& item, const std::string& path) {
        if (!item.is_mapping()) {
          r_.error(r_.at(item), path, "expected a mapping of fields, got " + YamlReader::describe(item));
          return;
        }
        out.push_back(read(c_, item, path));
        out.back().where = r_.at(item);
        register_id(ids_, out.back().id, out.back().where, path + ".id", r_.errors());
      });
    };
  }

  YamlReader& r_;
  CatalogReader c_;
  Catalog& catalog_;
  IdIndex& ids_;
  IdIndex& zoo_ids_;  // chip classes are named, not referenced: their own namespace
};

void check_node_references(const Catalog& catalog, Diagnostics& errors) {
  for (std::size_t i = 0; i < catalog.nodes.size(); ++i) {
    const NodeModel& n = catalog.nodes[i];
    const auto check = [&](const std::string& nic, const char* field) {
      if (!nic.empty() && catalog.find_nic(nic) == nullptr) {
        errors.push_back({n.where, fmt::format("nodes[{}].{}", i, field), fmt::format("no NIC '{}' in the catalog", nic)});
      }
    };
    check(n.backend_nic, "backend_nic");
    check(n.frontend_nic, "frontend_nic");
  }
}

// Two entries for the same element kind and media would make the figure ambiguous.
void check_failure_rates(const Catalog& catalog, Diagnostics& errors) {
  const auto& rates = catalog.failure_rates;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (rates[i].element != rates[j].element || rates[i].media != rates[j].media) continue;
      const SourceLocation& first = rates[j].where;
      errors.push_back({rates[i].where, fmt::format("failure_rates[{}]", i),
                        fmt::format("a second entry for {}{}, first defined at {}:{}:{}", to_string(rates[i].element),
                                    rates[i].media ? " on " + to_string(*rates[i].media) : std::string(), first.file,
                                    first.line, first.column)});
      break;
    }
  }
}

}  // namespace

Result<Catalog> parse_catalog(const std::vector<CatalogSource>& sources) {
  Catalog catalog;
  IdIndex ids;
  IdIndex zoo_ids;
  Diagnostics errors;
  for (const auto& source : sources) {
    YamlReader reader(source.file);
    if (const auto root = reader.load(source.text); root && root->is_null()) {
      reader.error({source.file, 1, 1}, "", "empty catalog file: expected nodes, nics, switches, optics, zoo or failure_rates");
    } else if (root) {
      FileParser(reader, catalog, ids, zoo_ids).parse(*root);
    }
    Diagnostics file_errors = reader.take_errors();
    errors.insert(errors.end(), std::make_move_iterator(file_errors.begin()), std::make_move_iterator(file_errors.end()));
  }
  if (errors.empty()) check_node_references(catalog, errors);
  if (errors.empty()) check_failure_rates(catalog, errors);
  if (!errors.empty()) {
    std::stable_sort(errors.begin(), errors.end(), [](const Diagnostic& a, const Diagnostic& b) {
      return std::tie(a.where.file, a.where.line, a.where.column) < std::tie(b.where.file, b.where.line, b.where.column);
    });
    return errors;
  }
  return catalog;
}

}  // namespace ct
