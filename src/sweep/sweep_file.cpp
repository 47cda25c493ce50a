#include "sweep/sweep_file.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/suggest.h"
#include "core/text.h"
#include "fabric/fabric.h"
#include "io/files.h"
#include "routing/load_balancing.h"
#include "sim/engine.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "traffic/scenario_parser.h"
#include "yaml/yaml_reader.h"

namespace ct {
namespace {

using Handler = YamlReader::Handler;
constexpr auto kRequired = YamlReader::Presence::kRequired;

// A node as yaml-cpp holds it, for its emitter (the form of the values in the sweep's outputs and
// of the variant specs spec_with writes).
YAML::Node emittable(const YamlNode& node) {
  switch (node.kind()) {
    case YamlNode::Kind::kScalar: {
      YAML::Node out(node.scalar());
      out.SetTag(node.tag());
      return out;
    }
    case YamlNode::Kind::kSequence: {
      YAML::Node out(YAML::NodeType::Sequence);
      for (const YamlNode item : node.items()) out.push_back(emittable(item));
      return out;
    }
    case YamlNode::Kind::kMapping: {
      YAML::Node out(YAML::NodeType::Map);
      for (const auto& [key, value] : node.entries()) out.force_insert(emittable(key), emittable(value));
      return out;
    }
    case YamlNode::Kind::kNull:
    case YamlNode::Kind::kUndefined: break;
  }
  return YAML::Node(YAML::NodeType::Null);
}

std::string flow(const YamlNode& node) {
  YAML::Emitter out;
  out << YAML::Flow << emittable(node);
  return out.c_str();
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> keys;
  std::size_t start = 0;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
    keys.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  keys.push_back(path.substr(start));
  return keys;
}

class SweepReader {
 public:
  SweepReader(const std::string& file, SweepFile& out, const Catalog& catalog) : r_(file), out_(out), catalog_(catalog) {}

  Diagnostics read(const std::string& text) {
    auto root = r_.load(text);
    if (!root) return r_.take_errors();
    std::vector<std::vector<std::string>> zip_paths;
    std::vector<std::vector<std::pair<std::string, std::string>>> exclude_paths;
    std::vector<std::pair<std::string, SourceLocation>> metrics;
    std::string base;
    r_.mapping(*root, *root, "",
               {{"base", [&](auto& k, auto& v, auto& f) { base_where_ = r_.at(k, v); base = r_.text(k, v, f, true).value_or(""); }, kRequired},
                {"axes", [&](auto& k, auto& v, auto& f) { r_.list(k, v, f, [&](auto& i, auto& p) { axis(i, p); }); }, kRequired},
                {"zip", [&](auto& k, auto& v, auto& f) { zips(k, v, f); }},
                {"exclude", [&](auto& k, auto& v, auto& f) { exclusions(k, v, f); }},
                {"seeds", [&](auto& k, auto& v, auto& f) { seeds(k, v, f); }},
                {"scenarios", [&](auto& k, auto& v, auto& f) { scenarios(k, v, f); }},
                {"studies", [&](auto& k, auto& v, auto& f) { studies(k, v, f); }, kRequired},
                {"objectives", [&](auto& k, auto& v, auto& f) { objectives(k, v, f); }}});
    if (out_.seeds.empty()) out_.seeds.push_back(1);
    if (!base.empty() && r_.errors().empty()) load_base(base);
    if (r_.errors().empty()) check_axes();
    if (r_.errors().empty()) resolve_zips_and_exclusions();
    if (r_.errors().empty()) resolve_scenarios();
    check_objectives();
    return r_.take_errors();
  }

 private:
  void axis(const YamlNode& item, const std::string& path) {
    SweepAxis a;
    a.where = r_.at(item);
    bool has_values = false;
    r_.mapping(item, item, path,
               {{"path", [&](auto& k, auto& v, auto& f) { a.where = r_.at(k, v); a.path = r_.text(k, v, f, true).value_or(""); }},
                {"values", [&](auto& k, auto& v, auto& f) {
                   has_values = true;
                   r_.list(k, v, f, [&](const YamlNode& value, const std::string&) {
                     a.values.push_back(SweepValue{flow(value), r_.at(value), {}, {}});
                   });
                   if (v.is_sequence() && v.size() == 0) r_.error(k, v, f, "an axis needs at least one value");
                 }},
                {"name", [&](auto& k, auto& v, auto& f) {
                   a.where = r_.at(k, v);
                   a.variants = true;
                   a.path = r_.text(k, v, f, true).value_or("");
                 }},
                {"variants", [&](auto& k, auto& v, auto& f) { variants(k, v, f, a); }}});
    if (!axis_shape(item, path, a, has_values) || a.path.empty()) return;
    for (const SweepAxis& other : out_.axes) {
      if (other.path == a.path) {
        r_.error(a.where, path + (a.variants ? ".name" : ".path"),
                 fmt::format("duplicate axis '{}' (first at line {})", excerpt(a.path), other.where.line));
        return;
      }
    }
    out_.axes.push_back(std::move(a));
  }

  // An axis is a spec field with its values (path, values) or a set of variant files (name, variants).
  bool axis_shape(const YamlNode& item, const std::string& path, const SweepAxis& a, bool has_values) {
    if (!item.is_mapping()) return false;
    const bool named = item["name"].is_defined();
    const bool listed = item["variants"].is_defined();
    const bool pathed = item["path"].is_defined();
    if (named || listed) {
      if (pathed || has_values) {
        r_.error(r_.at(item), path, "an axis is either a field (path, values) or variant files (name, variants), not both");
        return false;
      }
      if (!named || !listed) r_.error(r_.at(item), path, named ? "missing field 'variants' (the variant files)" : "missing field 'name' (the axis's name)");
      return named && listed;
    }
    if (!pathed || !has_values) {
      r_.error(r_.at(item), path, pathed ? "missing field 'values'" : "missing field 'path' (or 'name' and 'variants' for variant files)");
      return false;
    }
    return !a.values.empty();
  }

  // Each variant file read as the settings it makes: its leaves' dotted paths and values.
  void variants(const YamlNode& key, const YamlNode& value, const std::string& field, SweepAxis& a) {
    const std::filesystem::path folder = std::filesystem::path(r_.file()).parent_path();
    r_.list(key, value, field, [&](const YamlNode& item, const std::string& p) {
      auto name = r_.text(item, item, p, true);
      if (!name) return;
      SweepValue v{std::filesystem::path(*name).stem().string(), r_.at(item), {}, {}};
      for (const SweepValue& other : a.values) {
        if (other.yaml == v.yaml) r_.error(v.where, p, fmt::format("two variants named '{}' (first at line {})", excerpt(v.yaml), other.where.line));
      }
      const std::string file = (folder / *name).lexically_normal().string();
      auto text = read_text_file(file, "a variant file");
      if (!text) {
        r_.error(v.where, p, fmt::format("{}: {}", file, text.errors().front().message));
        return;
      }
      v.text = std::move(text).value();
      YamlReader variant(file);
      if (auto root = variant.load(v.text)) {
        if (root->is_mapping()) {
          settings_of(variant, *root, "", v.settings);
        } else if (!root->is_null()) {
          variant.error(SourceLocation{file, 1, 1}, "", "a variant file is a mapping of spec fields, got " + YamlReader::describe(*root));
        }
      }
      for (Diagnostic& d : variant.take_errors()) r_.errors().push_back(std::move(d));
      a.values.push_back(std::move(v));
    });
    if (value.is_sequence() && value.size() == 0) r_.error(key, value, field, "an axis needs at least one variant");
  }

  void settings_of(YamlReader& variant, const YamlNode& node, const std::string& prefix, std::vector<SweepSetting>& out) {
    for (const auto& kv : node.entries()) {
      const std::string key = kv.first.is_scalar() ? kv.first.scalar() : "";
      const std::string path = prefix.empty() ? key : prefix + "." + key;
      if (key.empty() || key.find('.') != std::string::npos) {
        variant.error(variant.at(kv.first), prefix, fmt::format("'{}' is not a field name", excerpt(key)));
        continue;
      }
      if (kv.second.is_mapping() && kv.second.size() > 0) {
        settings_of(variant, kv.second, path, out);
      } else {
        out.push_back({path, flow(kv.second), variant.at(kv.first)});
      }
    }
  }

  void zips(const YamlNode& key, const YamlNode& value, const std::string& field) {
    r_.list(key, value, field, [&](const YamlNode& group, const std::string& path) {
      std::vector<std::string> names;
      r_.list(group, group, path, [&](const YamlNode& name, const std::string& p) {
        if (auto s = r_.text(name, name, p, true)) names.push_back(*s);
      });
      zip_where_.push_back(r_.at(group));
      zip_names_.push_back(std::move(names));
    });
  }

  void exclusions(const YamlNode& key, const YamlNode& value, const std::string& field) {
    r_.list(key, value, field, [&](const YamlNode& item, const std::string& path) {
      if (!item.is_mapping()) {
        r_.error(item, item, path, "expected a mapping of axis paths to values, got " + YamlReader::describe(item));
        return;
      }
      std::vector<std::tuple<std::string, std::string, SourceLocation>> match;
      for (const auto& kv : item.entries()) match.emplace_back(kv.first.scalar(), flow(kv.second), r_.at(kv.first));
      exclude_raw_.push_back(std::move(match));
    });
  }

  void seeds(const YamlNode& key, const YamlNode& value, const std::string& field) {
    r_.list(key, value, field, [&](const YamlNode& item, const std::string& path) {
      if (auto s = r_.unsigned64(item, item, path)) out_.seeds.push_back(*s);
    });
    if (value.is_sequence() && value.size() == 0) r_.error(key, value, field, "at least one seed");
  }

  void studies(const YamlNode& key, const YamlNode& value, const std::string& field) {
    SweepStudies& s = out_.studies;
    r_.mapping(key, value, field,
               {{"plan", [&](auto& k, auto& v, auto& f) { s.plan = true; if (!v.is_null()) r_.mapping(k, v, f, {}); }},
                {"reliability", [&](auto& k, auto& v, auto& f) {
                   s.reliability = true;
                   if (v.is_null()) return;
                   r_.mapping(k, v, f, {{"trials", [&](auto& k2, auto& v2, auto& f2) {
                                          if (auto n = r_.integer(k2, v2, f2, {.min = 1, .max = 10'000'000, .unit = "trials"}))
                                            s.reliability_trials = static_cast<int>(*n);
                                        }}});
                 }},
                {"simulate", [&](auto& k, auto& v, auto& f) { simulate_study(k, v, f); }},
                {"hash", [&](auto& k, auto& v, auto& f) { hash_study(k, v, f); }},
                {"slice_trials", [&](auto& k, auto& v, auto& f) {
                   if (auto n = r_.integer(k, v, f, {.min = 1, .max = 10'000'000, .unit = "trials"})) s.slice_trials = static_cast<std::uint32_t>(*n);
                 }}});
    if (value.is_mapping() && !s.plan && !s.reliability && !s.simulate && !s.hash) {
      r_.error(key, value, field, "name at least one study (plan, reliability, simulate, hash)");
    }
  }

  void simulate_study(const YamlNode& key, const YamlNode& value, const std::string& field) {
    out_.studies.simulate = true;
    simulate_where_ = r_.at(key);
    if (value.is_null()) return;
    r_.mapping(key, value, field, {{"engine", [&](auto& k, auto& v, auto& f) {
      const auto engine = r_.choice<EngineKind>(k, v, f, {{engine_name(EngineKind::kFlow), EngineKind::kFlow},
                                                          {engine_name(EngineKind::kPacket), EngineKind::kPacket}});
      if (!engine) return;
      // The packet engine needs the switches' latency, buffer and forwarding mode, which the
      // catalog does not publish and a sweep file has no place for yet.
      if (*engine == EngineKind::kPacket) {
        r_.error(k, v, f, "the packet engine needs the switches' latency, buffer and forwarding mode (simulate's "
                          "--switch-latency, --switch-buffer, --forwarding), which a sweep cannot give yet; engine: flow runs the flow engine");
      }
      out_.studies.engine = std::string(engine_name(*engine));
    }}});
  }

  void hash_study(const YamlNode& key, const YamlNode& value, const std::string& field) {
    SweepStudies& s = out_.studies;
    s.hash = true;
    if (value.is_null()) return;
    const auto flag = [&](auto& k, auto& v, auto& f, bool& to) {
      to = r_.choice<bool>(k, v, f, {{"true", true}, {"false", false}}).value_or(to);
    };
    r_.mapping(key, value, field,
               {{"elephants", [&](auto& k, auto& v, auto& f) {
                  // The limit of `clustertwin hash --elephants` (analysis/hash_study.h's sampling floor).
                  if (auto n = r_.integer(k, v, f, {.min = 1, .max = 1 << 15, .unit = "elephants"})) s.hash_elephants = static_cast<int>(*n);
                }},
                {"ring", [&](auto& k, auto& v, auto& f) { flag(k, v, f, s.hash_ring); }},
                {"trials", [&](auto& k, auto& v, auto& f) {
                   if (auto n = r_.integer(k, v, f, {.min = 1, .max = 10'000'000, .unit = "trials"})) s.hash_trials = static_cast<std::uint32_t>(*n);
                 }},
                {"compare", [&](auto& k, auto& v, auto& f) { flag(k, v, f, s.hash_compare); }}});
  }

  void scenarios(const YamlNode& key, const YamlNode& value, const std::string& field) {
    scenarios_where_ = r_.at(key);
    r_.list(key, value, field, [&](const YamlNode& item, const std::string& path) {
      if (auto s = r_.text(item, item, path, true)) scenario_names_.emplace_back(*s, r_.at(item));
    });
  }

  void objectives(const YamlNode& key, const YamlNode& value, const std::string& field) {
    r_.list(key, value, field, [&](const YamlNode& item, const std::string& path) {
      SweepObjective o;
      SourceLocation where = r_.at(item);
      r_.mapping(item, item, path,
                 {{"metric", [&](auto& k, auto& v, auto& f) { where = r_.at(k, v); o.metric = r_.text(k, v, f, true).value_or(""); }, kRequired},
                  {"goal", [&](auto& k, auto& v, auto& f) {
                     o.goal = r_.choice<Goal>(k, v, f, {{"min", Goal::kMinimize}, {"max", Goal::kMaximize}}).value_or(Goal::kMinimize);
                   }}});
      if (!o.metric.empty()) {
        metric_where_.push_back(where);
        out_.objectives.push_back(o);
      }
    });
  }

  void load_base(const std::string& base) {
    const std::filesystem::path folder = std::filesystem::path(r_.file()).parent_path();
    out_.base_path = (folder / base).lexically_normal().string();
    auto text = read_text_file(out_.base_path, "a spec file");
    if (!text) {
      for (Diagnostic d : text.errors()) r_.error(base_where_, "base", d.message);
      return;
    }
    out_.base_text = text.value();
    SpecReading reading = read_spec(out_.base_path, out_.base_text);
    for (const Diagnostic& d : reading.errors) r_.errors().push_back(d);
    if (reading.errors.empty()) base_tree_ = r_.load(out_.base_text).value_or(YamlNode());
  }

  // Every value of every axis written into the base alone and read back by the spec's reader; a
  // variant's settings each on their own, at their line in the variant file.
  void check_axes() {
    for (std::size_t i = 0; i < out_.axes.size(); ++i) {
      const SweepAxis& a = out_.axes[i];
      const std::string field = fmt::format("axes[{}]", i);
      if (a.variants) {
        for (const SweepValue& v : a.values) {
          for (const SweepSetting& s : v.settings) check_setting(s);
        }
        continue;
      }
      if (!path_fits(a.path, a.where)) continue;
      for (const SweepValue& v : a.values) {
        SpecReading reading = read_spec(out_.base_path, spec_with(out_.base_text, {{a.path, v.yaml}}));
        if (reading.errors.empty()) continue;
        const Diagnostic& d = reading.errors.front();
        r_.error(v.where, field + ".values", fmt::format("{}: {}", d.field.empty() ? a.path : d.field, d.message));
      }
    }
  }

  void check_setting(const SweepSetting& s) {
    for (const SweepAxis& other : out_.axes) {
      if (other.variants) continue;
      const bool nested = other.path.rfind(s.path + ".", 0) == 0 || s.path.rfind(other.path + ".", 0) == 0;
      if (other.path == s.path || nested) {
        r_.error(s.where, s.path, fmt::format("'{}' is also an axis (line {}): a point would set it twice", excerpt(other.path),
                                              other.where.line));
        return;
      }
    }
    if (!path_fits(s.path, s.where)) return;
    SpecReading reading = read_spec(out_.base_path, spec_with(out_.base_text, {{s.path, s.yaml}}));
    if (reading.errors.empty()) return;
    const Diagnostic& d = reading.errors.front();
    r_.error(s.where, d.field.empty() ? s.path : d.field, d.message);
  }

  // Each key before the last must be a mapping (or absent) in the base spec.
  bool path_fits(const std::string& path, const SourceLocation& where) {
    YamlNode node = base_tree_;
    const auto keys = split_path(path);
    for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
      if (keys[k].empty()) break;
      YamlNode next = node[keys[k]];
      if (!next.is_defined() || next.is_null()) return true;
      if (!next.is_mapping()) {
        r_.error(where, "axes.path", fmt::format("'{}' is {} in the base spec, not a mapping with fields",
                                                 excerpt(keys[k]), YamlReader::describe(next)));
        return false;
      }
      node = next;
    }
    if (std::any_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); })) {
      r_.error(where, "axes.path", fmt::format("'{}' is not a dotted field path", excerpt(path)));
      return false;
    }
    return true;
  }

  [[nodiscard]] std::vector<std::string> axis_paths() const {
    std::vector<std::string> paths;
    for (const SweepAxis& a : out_.axes) paths.push_back(a.path);
    return paths;
  }

  std::optional<std::size_t> axis_index(const std::string& path, const SourceLocation& where, const std::string& field) {
    for (std::size_t i = 0; i < out_.axes.size(); ++i) {
      if (out_.axes[i].path == path) return i;
    }
    r_.error(where, field, fmt::format("'{}' is not an axis{}", excerpt(path), did_you_mean(path, axis_paths())));
    return std::nullopt;
  }

  void resolve_zips_and_exclusions() {
    std::vector<bool> zipped(out_.axes.size(), false);
    for (std::size_t z = 0; z < zip_names_.size(); ++z) {
      std::vector<std::size_t> group;
      const std::string field = fmt::format("zip[{}]", z);
      for (const std::string& name : zip_names_[z]) {
        auto i = axis_index(name, zip_where_[z], field);
        if (!i) continue;
        if (zipped[*i]) r_.error(zip_where_[z], field, fmt::format("axis '{}' is zipped twice", excerpt(name)));
        if (!group.empty() && out_.axes[*i].values.size() != out_.axes[group.front()].values.size()) {
          r_.error(zip_where_[z], field, fmt::format("zipped axes need as many values each: '{}' has {}, '{}' has {}",
                                                     excerpt(name), out_.axes[*i].values.size(),
                                                     out_.axes[group.front()].path, out_.axes[group.front()].values.size()));
        }
        zipped[*i] = true;
        group.push_back(*i);
      }
      if (!group.empty()) out_.zips.push_back(group);
    }
    for (std::size_t e = 0; e < exclude_raw_.size(); ++e) {
      SweepExclusion x;
      for (const auto& [path, value, where] : exclude_raw_[e]) {
        if (auto i = axis_index(path, where, fmt::format("exclude[{}]", e))) x.match.emplace_back(*i, value);
      }
      out_.exclude.push_back(std::move(x));
    }
  }

  // The base spec built once, each scenario read on it: the scenario's own diagnostics (at its
  // file and line) now rather than at every point, and its operations for the metrics' names.
  void resolve_scenarios() {
    if (!out_.studies.simulate) {
      if (!scenario_names_.empty()) r_.error(scenarios_where_, "scenarios", "only the simulate study reads scenarios; add `simulate: {engine: flow}` to studies");
      return;
    }
    const std::filesystem::path folder = std::filesystem::path(r_.file()).parent_path();
    for (const auto& [name, where] : scenario_names_) {
      SweepScenario s{(folder / name).lexically_normal().string(), "", where, "", {}};
      auto text = read_text_file(s.file, "a scenario file");
      if (!text) {
        r_.error(where, "scenarios", fmt::format("{}: {}", s.file, text.errors().front().message));
        continue;
      }
      s.text = std::move(text).value();
      out_.studies.scenarios.push_back(std::move(s));
    }
    if (scenario_names_.empty()) {
      if (!has_scenario_block(out_.base_text)) {
        r_.error(simulate_where_, "studies.simulate", "nothing to simulate: list scenario files in `scenarios:`, or give the base spec a `scenario:` block");
        return;
      }
      out_.studies.scenarios.push_back({out_.base_path, out_.base_text, simulate_where_, "", {}});
    }
    if (!r_.errors().empty()) return;
    auto valid = validate_reading(read_spec(out_.base_path, out_.base_text), catalog_);
    auto fabric = valid ? build_fabric(valid.value(), catalog_) : Result<Fabric>(valid.errors());
    if (!fabric) {
      r_.error(base_where_, "base", "the scenarios are read on the base spec's fabric, which cannot be built: " +
                                        fabric.errors().front().message);
      return;
    }
    for (SweepScenario& s : out_.studies.scenarios) name_operations(s, fabric.value());
  }

  void name_operations(SweepScenario& s, const Fabric& fabric) {
    auto scenario = parse_scenario(s.file, s.text, fabric, out_.seeds.front());
    if (!scenario) {
      for (const Diagnostic& d : scenario.errors()) r_.errors().push_back(d);
      return;
    }
    s.name = !scenario->name.empty() ? scenario->name : std::filesystem::path(s.file).stem().string();
    for (const CollectiveSpec& c : scenario->collectives) s.operations.push_back(c.name);
    for (const TransferSpec& t : scenario->transfers) s.operations.push_back(t.name);
    for (const SweepScenario& other : out_.studies.scenarios) {
      if (&other == &s) break;
      if (other.name == s.name) r_.error(s.where, "scenarios", fmt::format("two scenarios named '{}': the metrics' names would clash", s.name));
    }
  }

  void check_objectives() {
    const auto names = sweep_metrics(out_.studies);
    for (std::size_t i = 0; i < out_.objectives.size(); ++i) {
      const std::string& m = out_.objectives[i].metric;
      if (std::find(names.begin(), names.end(), m) != names.end()) continue;
      r_.error(metric_where_[i], fmt::format("objectives[{}].metric", i),
               fmt::format("'{}' is not a metric of the sweep's studies{}", excerpt(m), did_you_mean(m, names)));
    }
  }

  YamlReader r_;
  SweepFile& out_;
  const Catalog& catalog_;
  SourceLocation base_where_;
  SourceLocation simulate_where_;
  SourceLocation scenarios_where_;
  std::vector<std::pair<std::string, SourceLocation>> scenario_names_;
  YamlNode base_tree_;
  std::vector<SourceLocation> zip_where_;
  std::vector<std::vector<std::string>> zip_names_;
  std::vector<std::vector<std::tuple<std::string, std::string, SourceLocation>>> exclude_raw_;
  std::vector<SourceLocation> metric_where_;
};

}  // namespace

std::vector<std::string> sweep_metrics(const SweepStudies& studies) {
  std::vector<std::string> m;
  if (studies.plan) m.insert(m.end(), {"switches", "bisection_tbps", "power_w", "cost_usd"});
  if (studies.reliability) m.insert(m.end(), {"p_any_down", "lost_hours_30d", "interruptions_30d"});
  if (studies.simulate) {
    for (const SweepScenario& s : studies.scenarios) {
      m.insert(m.end(), {s.name + ".makespan_s", s.name + ".workers_lost"});
      for (const std::string& op : s.operations) m.insert(m.end(), {s.name + "." + op + ".time_s", s.name + "." + op + ".busbw_GBps"});
    }
  }
  if (studies.hash) {
    m.insert(m.end(), {"p_collision", "p_collision_first_tier", "p_collision_closed_form"});
    if (studies.hash_compare) {
      for (Scheme scheme : kAllSchemes) m.push_back(fmt::format("{}.slowest_Gbps", scheme_name(scheme)));
    }
  }
  return m;
}

Result<SweepFile> read_sweep(const std::string& file, const std::string& text, const Catalog& catalog) {
  SweepFile out;
  out.file = file;
  Diagnostics errors = SweepReader(file, out, catalog).read(text);
  if (!errors.empty()) return errors;
  return out;
}

std::string spec_with(const std::string& base_text, const std::vector<std::pair<std::string, std::string>>& settings) {
  YAML::Node root = YAML::Load(base_text);
  for (const auto& [path, value] : settings) {
    YAML::Node node = root;
    const auto keys = split_path(path);
    for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
      YAML::Node next = node[keys[k]];
      if (!next.IsMap()) next = YAML::Node(YAML::NodeType::Map);
      node.reset(next);
    }
    node[keys.back()] = YAML::Load(value);
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace ct
