// Catalog YAML -> Catalog. The schema is documented in docs/models/catalog.md and at the top of each
// file under catalog/. Rules enforced here:
//   - each file is a mapping whose keys are among nodes, nics, switches, optics, zoo,
//     failure_rates, each a list;
//   - every entry names id (zoo: class), name, vendor and source (a string or list of strings);
//   - figure fields are required; those a vendor may not publish (power_w, price_usd, ...) may be
//     written `null`, which records "not published" rather than "forgotten";
//   - unknown and repeated fields, wrong types, bad speeds are errors with file:line:column and the
//     field path (e.g. switches[2].ports);
//   - ids are unique across all files (the error names both places); a node's NICs exist.
// yaml-cpp reports syntax errors by exception; they are caught here and become diagnostics.
#include "catalog/catalog_parser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace ct {
namespace {

SourceLocation location(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

std::string kind_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Scalar: return fmt::format("'{}'", node.Scalar());
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

// "1.8TB/s", "900GB/s" -> bytes per second (capital B: bytes). Returns false when not a rate.
bool parse_byte_rate(const std::string& text, double& out) {
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !(number > 0) || !std::isfinite(number)) return false;
  const std::string suffix(end);
  if (suffix == "GB/s") out = number * 1e9;
  else if (suffix == "TB/s") out = number * 1e12;
  else return false;
  return true;
}

template <typename E>
using EnumNames = std::vector<std::pair<const char*, E>>;

const EnumNames<Protocol> kProtocols = {{"ethernet", Protocol::kEthernet}, {"infiniband", Protocol::kInfiniband}};
const EnumNames<NicKind> kNicKinds = {{"nic", NicKind::kNic}, {"supernic", NicKind::kSuperNic}, {"dpu", NicKind::kDpu}};
const EnumNames<MediaKind> kMediaKinds = {
    {"transceiver", MediaKind::kTransceiver}, {"dac", MediaKind::kDac}, {"acc", MediaKind::kAcc}, {"aoc", MediaKind::kAoc}};
const EnumNames<Medium> kMedia = {{"smf", Medium::kSingleMode}, {"mmf", Medium::kMultiMode}, {"copper", Medium::kCopper}};
const EnumNames<FailureElement> kFailureElements = {{"nic", FailureElement::kNic},
                                                     {"link", FailureElement::kLink},
                                                     {"leaf", FailureElement::kLeaf},
                                                     {"spine", FailureElement::kSpine},
                                                     {"core", FailureElement::kCore}};

// The fields of one YAML mapping, read by name. Each read marks its field used; finish() reports
// the fields nobody read as unknown. Errors go to the shared list; the reads then return a default
// so that parsing continues and every error of a file is reported at once.
class MapReader {
 public:
  MapReader(const YAML::Node& map, std::string file, std::string path, Diagnostics& errors)
      : file_(std::move(file)), path_(std::move(path)), where_(location(file_, map.Mark())), errors_(errors) {
    if (!map.IsMap()) {
      error_at(where_, path_, fmt::format("expected a mapping, found {}", kind_name(map)));
      return;
    }
    for (const auto& kv : map) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
      if (find_field(key) != nullptr) {
        error_at(location(file_, kv.first.Mark()), field(key), "field given twice");
        continue;
      }
      fields_.push_back({key, kv.first, kv.second, false});
    }
  }

  [[nodiscard]] const SourceLocation& where() const { return where_; }
  // Errors reported so far (by any reader sharing the list): cross-field checks run only when a
  // read added none, so one bad figure does not also raise a spurious inconsistency.
  [[nodiscard]] std::size_t error_count() const { return errors_.size(); }
  [[nodiscard]] std::string field(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  // The value of a required field; an undefined node (and an error) when it is missing.
  YAML::Node required(const std::string& key) {
    Field* f = take(key);
    if (f == nullptr) {
      error_at(where_, field(key), "missing required field");
      return YAML::Node(YAML::NodeType::Undefined);
    }
    return f->value;
  }
  // The value of an optional field; an undefined node when absent.
  YAML::Node optional(const std::string& key) {
    Field* f = take(key);
    return f == nullptr ? YAML::Node(YAML::NodeType::Undefined) : f->value;
  }

  std::string string(const std::string& key) { return as_string(required(key), key); }
  std::string optional_string(const std::string& key) {
    const YAML::Node n = optional(key);
    return n.IsDefined() && !n.IsNull() ? as_string(n, key) : std::string();
  }

  int integer(const std::string& key, int min) { return as_integer(required(key), key, min); }
  std::optional<int> nullable_integer(const std::string& key, int min) {
    const YAML::Node n = required(key);
    if (!n.IsDefined() || n.IsNull()) return std::nullopt;
    return as_integer(n, key, min);
  }

  double number(const std::string& key) { return as_number(required(key), key).value_or(0.0); }
  std::optional<double> nullable_number(const std::string& key) {
    const YAML::Node n = required(key);
    if (!n.IsDefined() || n.IsNull()) return std::nullopt;
    return as_number(n, key);
  }

  BitsPerSecond speed(const std::string& key) { return as_speed(required(key), field(key)); }
  BitsPerSecond as_speed(const YAML::Node& n, const std::string& path) {
    if (!n.IsDefined()) return {};
    BitsPerSecond out;
    if (!n.IsScalar() || !parse_speed(n.Scalar(), out)) {
      error(n, path, fmt::format("expected a speed like 800G or 1.6T, found {}", kind_name(n)));
      return {};
    }
    return out;
  }

  std::optional<double> nullable_byte_rate(const std::string& key) {
    const YAML::Node n = required(key);
    if (!n.IsDefined() || n.IsNull()) return std::nullopt;
    double out = 0;
    if (!n.IsScalar() || !parse_byte_rate(n.Scalar(), out)) {
      error(n, field(key), fmt::format("expected a byte rate like 900GB/s or 1.8TB/s, found {}", kind_name(n)));
      return std::nullopt;
    }
    return out;
  }

  template <typename E>
  E enumeration(const std::string& key, const EnumNames<E>& names) {
    return as_enum(required(key), field(key), names);
  }

  template <typename E>
  std::optional<E> optional_enumeration(const std::string& key, const EnumNames<E>& names) {
    const YAML::Node n = optional(key);
    if (!n.IsDefined()) return std::nullopt;
    return as_enum(n, field(key), names);
  }

  template <typename E>
  std::vector<E> enum_list(const std::string& key, const EnumNames<E>& names) {
    std::vector<E> out;
    const YAML::Node n = list(key);
    for (std::size_t i = 0; i < n.size(); ++i) out.push_back(as_enum(n[i], fmt::format("{}[{}]", field(key), i), names));
    return out;
  }

  std::vector<int> int_list(const std::string& key, int min) {
    std::vector<int> out;
    const YAML::Node n = list(key);
    for (std::size_t i = 0; i < n.size(); ++i) out.push_back(as_integer(n[i], fmt::format("{}[{}]", key, i), min));
    return out;
  }

  // A required non-empty list.
  YAML::Node list(const std::string& key) {
    const YAML::Node n = required(key);
    if (!n.IsDefined()) return YAML::Node(YAML::NodeType::Sequence);
    if (!n.IsSequence() || n.size() == 0) {
      error(n, field(key), fmt::format("expected a non-empty list, found {}", kind_name(n)));
      return YAML::Node(YAML::NodeType::Sequence);
    }
    return n;
  }

  // `source:` a non-empty string or a non-empty list of non-empty strings.
  std::vector<std::string> sources() {
    const YAML::Node n = required("source");
    std::vector<std::string> out;
    if (!n.IsDefined()) return out;
    if (n.IsScalar() && !n.Scalar().empty()) return {n.Scalar()};
    if (n.IsSequence() && n.size() > 0) {
      for (std::size_t i = 0; i < n.size(); ++i) {
        if (n[i].IsScalar() && !n[i].Scalar().empty()) out.push_back(n[i].Scalar());
        else error(n[i], fmt::format("{}[{}]", field("source"), i), "expected a URL or document title");
      }
      return out;
    }
    error(n, field("source"), "expected a URL or a list of URLs and document titles");
    return out;
  }

  // A reader for a mapping nested in this one (e.g. one item of a list field).
  MapReader child(const YAML::Node& map, const std::string& path) { return MapReader(map, file_, path, errors_); }

  void finish() {
    for (const auto& f : fields_) {
      if (!f.used) error(f.key_node, field(f.key), "unknown field");
    }
  }

  void error(const YAML::Node& at, const std::string& path, std::string message) {
    const YAML::Mark mark = at.IsDefined() ? at.Mark() : YAML::Mark::null_mark();
    error_at(mark.is_null() ? where_ : location(file_, mark), path, std::move(message));
  }
  void error_at(const SourceLocation& where, const std::string& path, std::string message) {
    errors_.push_back({where, path, std::move(message)});
  }

 private:
  struct Field {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
    bool used = false;
  };

  Field* find_field(const std::string& key) {
    for (auto& f : fields_) {
      if (f.key == key) return &f;
    }
    return nullptr;
  }
  Field* take(const std::string& key) {
    Field* f = find_field(key);
    if (f != nullptr) f->used = true;
    return f;
  }

  std::string as_string(const YAML::Node& n, const std::string& key) {
    if (!n.IsDefined()) return {};
    if (!n.IsScalar() || n.Scalar().empty()) {
      error(n, field(key), fmt::format("expected a non-empty string, found {}", kind_name(n)));
      return {};
    }
    return n.Scalar();
  }

  int as_integer(const YAML::Node& n, const std::string& key, int min) {
    if (!n.IsDefined()) return min;
    int out = 0;
    if (!n.IsScalar() || !YAML::convert<int>::decode(n, out)) {
      error(n, field(key), fmt::format("expected an integer, found {}", kind_name(n)));
      return min;
    }
    if (out < min) {
      error(n, field(key), fmt::format("must be at least {}, found {}", min, out));
      return min;
    }
    return out;
  }

  std::optional<double> as_number(const YAML::Node& n, const std::string& key) {
    if (!n.IsDefined()) return std::nullopt;
    double out = 0;
    if (!n.IsScalar() || !YAML::convert<double>::decode(n, out) || !std::isfinite(out) || out < 0) {
      error(n, field(key), fmt::format("expected a non-negative number, found {}", kind_name(n)));
      return std::nullopt;
    }
    return out;
  }

  template <typename E>
  E as_enum(const YAML::Node& n, const std::string& path, const EnumNames<E>& names) {
    if (!n.IsDefined()) return names.front().second;
    if (n.IsScalar()) {
      for (const auto& [name, value] : names) {
        if (n.Scalar() == name) return value;
      }
    }
    std::string allowed;
    for (const auto& [name, value] : names) allowed += (allowed.empty() ? "" : ", ") + std::string(name);
    error(n, path, fmt::format("expected one of {}; found {}", allowed, kind_name(n)));
    return names.front().second;
  }

  std::string file_;
  std::string path_;
  SourceLocation where_;
  Diagnostics& errors_;
  std::vector<Field> fields_;
};

void read_entry_header(MapReader& r, CatalogEntry& e) {
  e.id = r.string("id");
  e.name = r.string("name");
  e.vendor = r.string("vendor");
  e.part_number = r.optional_string("part_number");
  e.sources = r.sources();
  e.where = r.where();
}

std::vector<Breakout> read_breakouts(MapReader& r, BitsPerSecond port_speed) {
  std::vector<Breakout> out;
  const YAML::Node list = r.optional("breakouts");
  if (!list.IsDefined() || list.IsNull()) return out;
  if (!list.IsSequence()) {
    r.error(list, r.field("breakouts"), fmt::format("expected a list, found {}", kind_name(list)));
    return out;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = fmt::format("{}[{}]", r.field("breakouts"), i);
    MapReader item = r.child(list[i], path);
    Breakout b;
    b.ways = item.integer("ways", 2);
    b.speed = item.speed("speed");
    item.finish();
    // A breakout splits the cage's lanes: the logical ports cannot carry more than the cage.
    if (b.speed.value() > 0 && port_speed.value() > 0 && b.speed.value() * b.ways > port_speed.value()) {
      item.error(list[i], path, fmt::format("{} x {} exceeds the port speed {}", b.ways, format_speed(b.speed),
                                            format_speed(port_speed)));
    }
    out.push_back(b);
  }
  return out;
}

SwitchModel read_switch(MapReader& r) {
  const std::size_t errors_before = r.error_count();
  SwitchModel s;
  read_entry_header(r, s);
  s.protocols = r.enum_list("protocols", kProtocols);
  s.asic = r.string("asic");
  s.ports = r.integer("ports", 1);
  s.port_speed = r.speed("port_speed");
  s.breakouts = read_breakouts(r, s.port_speed);
  s.capacity = r.speed("capacity");
  s.power_w = r.nullable_number("power_w");
  s.price_usd = r.nullable_number("price_usd");
  s.rack_units = r.nullable_integer("rack_units", 1);
  // Capacity is one direction: every port at full speed at once.
  if (r.error_count() == errors_before && s.capacity != s.port_speed * s.ports) {
    r.error_at(r.where(), r.field("capacity"),
               fmt::format("{} differs from ports x port_speed = {} (capacity counts one direction)",
                           format_speed(s.capacity), format_speed(s.port_speed * s.ports)));
  }
  return s;
}

NicModel read_nic(MapReader& r) {
  NicModel n;
  read_entry_header(r, n);
  n.kind = r.enumeration("kind", kNicKinds);
  n.protocols = r.enum_list("protocols", kProtocols);
  n.ports = r.integer("ports", 1);
  n.port_speed = r.speed("port_speed");
  n.splits = r.int_list("splits", 1);
  n.power_w = r.nullable_number("power_w");
  n.price_usd = r.nullable_number("price_usd");
  return n;
}

NodeModel read_node(MapReader& r) {
  NodeModel n;
  read_entry_header(r, n);
  n.gpu = r.string("gpu");
  n.gpus = r.integer("gpus", 1);
  n.nvlink_bytes_per_s = r.nullable_byte_rate("nvlink");
  n.backend_nic = r.string("backend_nic");
  n.backend_nics = r.integer("backend_nics", 1);
  // A node without a frontend NIC omits both fields.
  n.frontend_nic = r.optional_string("frontend_nic");
  if (!n.frontend_nic.empty()) {
    n.frontend_nics = r.integer("frontend_nics", 1);
  } else if (const YAML::Node count = r.optional("frontend_nics"); count.IsDefined()) {
    r.error(count, r.field("frontend_nics"), "given without frontend_nic");
  }
  n.power_w = r.nullable_number("power_w");
  n.price_usd = r.nullable_number("price_usd");
  return n;
}

OpticModel read_optic(MapReader& r) {
  OpticModel o;
  read_entry_header(r, o);
  o.kind = r.enumeration("kind", kMediaKinds);
  o.medium = r.enumeration("medium", kMedia);
  o.form_factor = r.string("form_factor");
  o.speed = r.speed("speed");
  o.links = r.integer("links", 1);
  o.reach_m = r.number("reach_m");
  o.power_w = r.nullable_number("power_w");
  o.price_usd = r.nullable_number("price_usd");
  return o;
}

// `rate:` null (not published) or exactly one of the forms of catalog.h, converted to failures per
// element-hour.
std::optional<double> read_failure_per_hour(MapReader& r) {
  const YAML::Node n = r.required("rate");
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  const std::string path = r.field("rate");
  MapReader rate = r.child(n, path);
  if (!n.IsMap()) return std::nullopt;
  const YAML::Node observed = rate.optional("observed");
  const YAML::Node fraction = rate.optional("fraction");
  const YAML::Node mtbf = rate.optional("mtbf_hours");
  const int forms = int{observed.IsDefined()} + int{fraction.IsDefined()} + int{mtbf.IsDefined()};
  std::optional<double> out;
  if (forms != 1) {
    rate.error(n, path, "expected exactly one of observed, fraction, mtbf_hours");
  } else if (observed.IsDefined()) {
    MapReader o = rate.child(observed, path + ".observed");
    const int failures = o.integer("failures", 0);
    const int elements = o.integer("elements", 1);
    const double days = o.number("days");
    o.finish();
    if (days > 0) out = failures / (elements * 24.0 * days);
    else o.error(observed, o.field("days"), "must be positive");
  } else if (fraction.IsDefined()) {
    MapReader f = rate.child(fraction, path + ".fraction");
    const double value = f.number("value");
    const double days = f.number("days");
    f.finish();
    if (value >= 1) f.error(fraction, f.field("value"), "a share failing must be below 1");
    else if (days <= 0) f.error(fraction, f.field("days"), "must be positive");
    else out = -std::log1p(-value) / (24.0 * days);
  } else {
    const double hours = rate.number("mtbf_hours");
    if (hours > 0) out = 1.0 / hours;
    else rate.error(mtbf, rate.field("mtbf_hours"), "must be positive");
  }
  rate.finish();
  return out;
}

FailureRate read_failure_rate(MapReader& r) {
  FailureRate f;
  f.id = r.string("id");
  f.element = r.enumeration("element", kFailureElements);
  f.media = r.optional_enumeration("media", kMediaKinds);
  if (f.media && f.element != FailureElement::kLink) {
    r.error(r.optional("media"), r.field("media"), "only links have a media");
  }
  f.per_hour = read_failure_per_hour(r);
  f.mttr_hours = r.nullable_number("mttr_hours");
  if (f.mttr_hours && *f.mttr_hours <= 0) {
    r.error(r.optional("mttr_hours"), r.field("mttr_hours"), "must be positive");
  }
  f.basis = r.string("basis");
  f.sources = r.sources();
  f.where = r.where();
  return f;
}

ChipClass read_chip_class(MapReader& r, SourceLocation& where) {
  ChipClass c;
  c.name = r.string("class");
  c.bottleneck = r.string("bottleneck");
  c.example = r.string("example");
  c.sources = r.sources();
  where = r.where();
  return c;
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

class FileParser {
 public:
  FileParser(const CatalogSource& source, Catalog& catalog, IdIndex& ids, IdIndex& zoo_ids, Diagnostics& errors)
      : source_(source), catalog_(catalog), ids_(ids), zoo_ids_(zoo_ids), errors_(errors) {}

  void parse(const YAML::Node& root) {
    MapReader top(root, source_.file, "", errors_);
    if (!root.IsMap()) return;
    read_list(top, "nodes", catalog_.nodes, read_node);
    read_list(top, "nics", catalog_.nics, read_nic);
    read_list(top, "switches", catalog_.switches, read_switch);
    read_list(top, "optics", catalog_.optics, read_optic);
    read_list(top, "failure_rates", catalog_.failure_rates, read_failure_rate);
    const YAML::Node zoo = top.optional("zoo");
    for (std::size_t i = 0; list_ok(top, zoo, "zoo") && i < zoo.size(); ++i) {
      const std::string path = fmt::format("zoo[{}]", i);
      MapReader r = top.child(zoo[i], path);
      if (!zoo[i].IsMap()) continue;
      SourceLocation where;
      catalog_.zoo.push_back(read_chip_class(r, where));
      r.finish();
      register_id(zoo_ids_, catalog_.zoo.back().name, where, path + ".class", errors_);
    }
    top.finish();
  }

 private:
  bool list_ok(MapReader& top, const YAML::Node& n, const std::string& key) {
    if (!n.IsDefined()) return false;
    if (n.IsSequence()) return true;
    top.error(n, key, fmt::format("expected a list, found {}", kind_name(n)));
    return false;
  }

  template <typename T, typename Read>
  void read_list(MapReader& top, const std::string& key, std::vector<T>& out, Read read) {
    const YAML::Node n = top.optional(key);
    for (std::size_t i = 0; list_ok(top, n, key) && i < n.size(); ++i) {
      const std::string path = fmt::format("{}[{}]", key, i);
      MapReader r = top.child(n[i], path);
      if (!n[i].IsMap()) continue;
      out.push_back(read(r));
      r.finish();
      register_id(ids_, out.back().id, out.back().where, path + ".id", errors_);
    }
  }

  const CatalogSource& source_;
  Catalog& catalog_;
  IdIndex& ids_;
  IdIndex& zoo_ids_;  // chip classes are named, not referenced: their own namespace
  Diagnostics& errors_;
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
    YAML::Node root;
    try {
      root = YAML::Load(source.text);
    } catch (const YAML::Exception& e) {
      errors.push_back({location(source.file, e.mark), "", fmt::format("YAML syntax error: {}", e.msg)});
      continue;
    }
    if (root.IsNull()) {
      errors.push_back({{source.file, 1, 1}, "", "empty catalog file: expected nodes, nics, switches, optics, zoo or failure_rates"});
      continue;
    }
    FileParser(source, catalog, ids, zoo_ids, errors).parse(root);
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
