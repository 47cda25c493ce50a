#include "spec/spec_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "spec/routing_spec.h"
#include "spec/suggest.h"

namespace ct {
namespace {

// Reads the YAML tree into a Spec, one mapping at a time. Every problem is recorded and reading
// goes on, so that the user sees all of them in one run.
class SpecParser {
 public:
  explicit SpecParser(const std::string& file) { spec_.file = file; }

  SpecReading read(const std::string& text) {
    bool readable = true;
    try {
      read_root(YAML::Load(text));
    } catch (const YAML::Exception& e) {
      readable = false;
      if (!e.mark.is_null() && e.mark.pos >= 0 && static_cast<std::size_t>(e.mark.pos) >= text.size()) {
        error(end_of_text(text), "", "YAML syntax error: " + e.msg + " before the end of the file");
      } else {
        error(location(e.mark), "", "YAML syntax error: " + e.msg);
      }
    }
    return SpecReading{std::move(spec_), std::move(errors_), readable};
  }

 private:
  // One field of a mapping: its name and what to do with its key and value.
  struct Field {
    const char* name;
    std::function<void(const YAML::Node& key, const YAML::Node& value, const std::string& path)> read;
  };

  SourceLocation location(const YAML::Mark& mark) const {
    if (mark.is_null() || mark.line < 0) return {spec_.file, 0, 0};
    return {spec_.file, mark.line + 1, mark.column + 1};
  }
  SourceLocation location(const YAML::Node& node) const { return location(node.Mark()); }
  // A value's location; an empty value has none of its own (yaml-cpp marks the next token), so
  // its key stands in.
  SourceLocation location(const YAML::Node& key, const YAML::Node& value) const {
    return value.IsNull() ? location(key) : location(value);
  }

  // Just after the last character that is not white space: where a truncated file stops, rather
  // than the empty line after its final newline.
  SourceLocation end_of_text(const std::string& text) const {
    const auto last = text.find_last_not_of(" \t\r\n");
    if (last == std::string::npos) return {spec_.file, 1, 1};
    const auto line_start = text.rfind('\n', last);
    const auto column = last - (line_start == std::string::npos ? 0 : line_start + 1) + 2;
    const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(last), '\n') + 1;
    return {spec_.file, static_cast<int>(line), static_cast<int>(column)};
  }

  void error(SourceLocation where, std::string field, std::string message) {
    errors_.push_back(Diagnostic{std::move(where), std::move(field), std::move(message), Severity::kError});
  }

  static std::string join(const std::string& path, const std::string& name) {
    return path.empty() ? name : path + "." + name;
  }

  static std::string describe(const YAML::Node& node) {
    switch (node.Type()) {
      case YAML::NodeType::Map: return "a mapping";
      case YAML::NodeType::Sequence: return "a list";
      case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
      case YAML::NodeType::Null: return "nothing";
      case YAML::NodeType::Undefined: break;
    }
    return "nothing";
  }

  // Checks every key of `node` against `fields` (unknown and repeated keys are errors) and hands
  // each known one to its reader.
  void read_mapping(const YAML::Node& owner, const YAML::Node& node, const std::string& path,
                    const std::vector<Field>& fields) {
    if (!node.IsMap()) {
      error(location(owner, node), path, "expected a mapping of fields, got " + describe(node));
      return;
    }
    std::vector<std::string> names;
    for (const auto& f : fields) names.emplace_back(f.name);
    std::map<std::string, int> seen;  // field -> line where first written
    for (const auto& entry : node) {
      const YAML::Node key = entry.first;
      const YAML::Node value = entry.second;
      if (!key.IsScalar()) {
        error(location(key), path, "expected a field name, got " + describe(key));
        continue;
      }
      const std::string& name = key.Scalar();
      const std::string field = join(path, name);
      auto match = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return name == f.name; });
      if (match == fields.end()) {
        error(location(key), field, "unknown field" + did_you_mean(name, names));
        continue;
      }
      const SourceLocation where = location(key);
      if (auto [first, inserted] = seen.emplace(name, where.line); !inserted) {
        error(where, field, fmt::format("field written twice (first at line {})", first->second));
        continue;
      }
      match->read(key, value, field);
    }
  }

  // ---- scalars ----
  // A plain (unquoted) scalar, or an error saying what was expected.
  bool plain_scalar(const YAML::Node& key, const YAML::Node& value, const std::string& field, const char* expected) {
    if (value.IsScalar() && value.Tag() != "!") return true;
    const std::string got = value.IsScalar() ? "the quoted string \"" + value.Scalar() + "\"" : describe(value);
    error(location(key, value), field, fmt::format("expected {}, got {}", expected, got));
    return false;
  }

  void read_string(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                   Located<std::string>& out) {
    out.where = location(key);
    out.present = true;
    if (!value.IsScalar()) {
      error(location(key, value), field, "expected a text value, got " + describe(value));
      return;
    }
    out.value = value.Scalar();
  }

  void read_integer(const YAML::Node& key, const YAML::Node& value, const std::string& field,
                    Located<long long>& out) {
    out.where = location(key);
    out.present = true;
    if (!plain_scalar(key, value, field, "an integer")) return;
    const std::string& text = value.Scalar();
    const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, out.value, 10);
    if (ec != std::errc() || ptr != end) error(location(value), field, "expected an integer, got '" + text + "'");
  }

  bool parse_number(const YAML::Node& key, const YAML::Node& value, const std::string& field, double& out) {
    if (!plain_scalar(key, value, field, "a number")) return false;
    const std::string& text = value.Scalar();
    const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, out);
    if (ec != std::errc() || ptr != end || !std::isfinite(out)) {
      error(location(value), field, "expected a number, got '" + text + "'");
      return false;
    }
    return true;
  }

  void read_number(const YAML::Node& key, const YAML::Node& value, const std::string& field, Located<double>& out) {
    out.where = location(key);
    out.present = true;
    parse_number(key, value, field, out.value);
  }

  // ---- the schema ----
  void read_root(const YAML::Node& root) {
    if (root.IsNull() || !root.IsDefined()) {
      error({spec_.file, 1, 1}, "", "empty spec: expected a mapping with name, nodes and backend");
      return;
    }
    read_mapping(root, root, "",
                 {{"name", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, spec_.name); }},
                  {"nodes", [&](auto& k, auto& v, auto& f) { read_nodes(k, v, f); }},
                  {"backend", [&](auto& k, auto& v, auto& f) { read_backend(k, v, f); }},
                  {"frontend", [&](auto& k, auto& v, auto& f) { read_frontend(k, v, f); }},
                  {"routing", [&](auto& k, auto& v, auto&) { read_routing(k, v); }},
                  {"reliability", [&](auto& k, auto& v, auto& f) { read_reliability(k, v, f); }},
                  // A workload for `clustertwin simulate`, read by traffic/scenario_parser.h.
                  {"scenario", [](auto&, auto&, auto&) {}}});
  }

  void read_nodes(const YAML::Node& key, const YAML::Node& value, const std::string& path) {
    NodesSpec& n = spec_.nodes;
    n.where = location(key);
    read_mapping(key, value, path,
                 {{"model", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, n.model); }},
                  {"count", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, n.count); }}});
  }

  void read_backend(const YAML::Node& key, const YAML::Node& value, const std::string& path) {
    BackendSpec& b = spec_.backend;
    b.where = location(key);
    b.present = true;
    read_mapping(key, value, path,
                 {{"topology", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, b.topology); }},
                  {"planes", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, b.planes); }},
                  {"tiers", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, b.tiers); }},
                  {"switch", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, b.switch_model); }},
                  {"port_speed", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, b.port_speed); }},
                  {"oversubscription", [&](auto& k, auto& v, auto& f) { read_oversubscription(k, v, f); }},
                  {"k", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, b.k); }},
                  {"link_latency_ns", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, b.link_latency_ns); }},
                  {"cable_length_m", [&](auto& k, auto& v, auto& f) { read_cable_lengths(k, v, f); }},
                  {"links", [&](auto& k, auto& v, auto& f) { read_links(k, v, f); }}});
  }

  void read_oversubscription(const YAML::Node& key, const YAML::Node& value, const std::string& field) {
    BackendSpec& b = spec_.backend;
    b.oversubscription_where = location(key);
    if (!value.IsSequence()) {
      error(location(key, value), field,
            "expected a list with one down:up ratio per tier that has uplinks, e.g. [1, 1] for 3 tiers; got " +
                describe(value));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      Located<double> ratio;
      ratio.where = location(value[i]);
      ratio.present = true;
      parse_number(value[i], value[i], fmt::format("{}[{}]", field, i), ratio.value);
      b.oversubscription.push_back(ratio);
    }
  }

  void read_cable_lengths(const YAML::Node& key, const YAML::Node& value, const std::string& path) {
    BackendSpec& b = spec_.backend;
    read_mapping(key, value, path,
                 {{"leaf", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, b.cable_length_leaf_m); }},
                  {"spine", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, b.cable_length_spine_m); }},
                  {"core", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, b.cable_length_core_m); }}});
  }

  void read_links(const YAML::Node& key, const YAML::Node& value, const std::string& field) {
    if (!value.IsSequence()) {
      error(location(key, value), field, "expected a list of pairs like [plane0.spine.0, plane0.spine.1], got " +
                                        describe(value));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const YAML::Node entry = value[i];
      const std::string entry_field = fmt::format("{}[{}]", field, i);
      if (!entry.IsSequence() || entry.size() != 2 || !entry[0].IsScalar() || !entry[1].IsScalar()) {
        error(location(entry), entry_field,
              "expected a pair of switch names like [plane0.spine.0, plane0.spine.1], got " + describe(entry));
        continue;
      }
      ExtraLinkSpec link;
      link.where = location(entry);
      link.a = {entry[0].Scalar(), location(entry[0]), true};
      link.b = {entry[1].Scalar(), location(entry[1]), true};
      spec_.backend.links.push_back(std::move(link));
    }
  }

  void read_frontend(const YAML::Node& key, const YAML::Node& value, const std::string& path) {
    FrontendSpec& fe = spec_.frontend;
    fe.where = location(key);
    fe.present = true;
    read_mapping(key, value, path,
                 {{"nic", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, fe.nic); }},
                  {"speed", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, fe.speed); }},
                  {"switch", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, fe.switch_model); }},
                  {"oversubscription", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, fe.oversubscription); }}});
  }

  void read_reliability(const YAML::Node& key, const YAML::Node& value, const std::string& path) {
    ReliabilitySpec& r = spec_.reliability;
    r.where = location(key);
    r.present = true;
    const auto figures = [&](ElementFiguresSpec& out) {
      return [&](auto& k, auto& v, auto& f) {
        read_mapping(k, v, f,
                     {{"nic", [&](auto& k2, auto& v2, auto& f2) { read_number(k2, v2, f2, out.nic); }},
                      {"link", [&](auto& k2, auto& v2, auto& f2) { read_number(k2, v2, f2, out.link); }},
                      {"leaf", [&](auto& k2, auto& v2, auto& f2) { read_number(k2, v2, f2, out.leaf); }},
                      {"spine", [&](auto& k2, auto& v2, auto& f2) { read_number(k2, v2, f2, out.spine); }},
                      {"core", [&](auto& k2, auto& v2, auto& f2) { read_number(k2, v2, f2, out.core); }}});
      };
    };
    read_mapping(key, value, path,
                 {{"job_gpus", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, r.job_gpus); }},
                  {"horizon_days", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, r.horizon_days); }},
                  {"checkpoint_hours", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, r.checkpoint_hours); }},
                  {"restart_minutes", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, r.restart_minutes); }},
                  {"comm_fraction", [&](auto& k, auto& v, auto& f) { read_number(k, v, f, r.comm_fraction); }},
                  {"spare_hosts", [&](auto& k, auto& v, auto& f) { read_integer(k, v, f, r.spare_hosts); }},
                  {"degraded", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, r.degraded); }},
                  {"split", [&](auto& k, auto& v, auto& f) { read_string(k, v, f, r.split); }},
                  {"afr", figures(r.afr)},
                  {"repair_hours", figures(r.repair_hours)}});
  }

  void read_routing(const YAML::Node& key, const YAML::Node& value) {
    spec_.routing_where = location(key);
    read_routing_spec(spec_.file, key, value, spec_.routing, errors_);
    if (value.IsNull()) return;
    YAML::Emitter out;
    out << value;
    spec_.routing_yaml = out.c_str();
  }

  Spec spec_;
  Diagnostics errors_;
};

}  // namespace

SpecReading read_spec(const std::string& file, const std::string& yaml_text) {
  return SpecParser(file).read(yaml_text);
}

Result<Spec> parse_spec(const std::string& file, const std::string& yaml_text) {
  SpecReading reading = read_spec(file, yaml_text);
  if (!reading.errors.empty()) return std::move(reading.errors);
  return std::move(reading.spec);
}

}  // namespace ct
