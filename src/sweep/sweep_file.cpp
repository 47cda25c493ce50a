#include "sweep/sweep_file.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/suggest.h"
#include "core/text.h"
#include "io/files.h"
#include "spec/spec_parser.h"
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
  SweepReader(const std::string& file, SweepFile& out) : r_(file), out_(out) {}

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
                {"studies", [&](auto& k, auto& v, auto& f) { studies(k, v, f); }, kRequired},
                {"objectives", [&](auto& k, auto& v, auto& f) { objectives(k, v, f); }}});
    if (out_.seeds.empty()) out_.seeds.push_back(1);
    if (!base.empty() && r_.errors().empty()) load_base(base);
    if (r_.errors().empty()) check_axes();
    if (r_.errors().empty()) resolve_zips_and_exclusions();
    check_objectives();
    return r_.take_errors();
  }

 private:
  void axis(const YamlNode& item, const std::string& path) {
    SweepAxis a;
    a.where = r_.at(item);
    r_.mapping(item, item, path,
               {{"path", [&](auto& k, auto& v, auto& f) { a.where = r_.at(k, v); a.path = r_.text(k, v, f, true).value_or(""); }, kRequired},
                {"values", [&](auto& k, auto& v, auto& f) {
                   r_.list(k, v, f, [&](const YamlNode& value, const std::string&) {
                     a.values.push_back(SweepValue{flow(value), r_.at(value)});
                   });
                   if (v.is_sequence() && v.size() == 0) r_.error(k, v, f, "an axis needs at least one value");
                 }, kRequired}});
    if (a.path.empty()) return;
    for (const SweepAxis& other : out_.axes) {
      if (other.path == a.path) {
        r_.error(a.where, path + ".path", fmt::format("duplicate axis '{}' (first at line {})", excerpt(a.path), other.where.line));
        return;
      }
    }
    out_.axes.push_back(std::move(a));
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
                 }}});
    if (value.is_mapping() && !s.plan && !s.reliability) r_.error(key, value, field, "name at least one study (plan, reliability)");
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

  // Every value of every axis written into the base alone and read back by the spec's reader.
  void check_axes() {
    for (std::size_t i = 0; i < out_.axes.size(); ++i) {
      const SweepAxis& a = out_.axes[i];
      const std::string field = fmt::format("axes[{}]", i);
      if (!path_fits(a)) continue;
      for (const SweepValue& v : a.values) {
        SpecReading reading = read_spec(out_.base_path, spec_with(out_.base_text, {{a.path, v.yaml}}));
        if (reading.errors.empty()) continue;
        const Diagnostic& d = reading.errors.front();
        r_.error(v.where, field + ".values", fmt::format("{}: {}", d.field.empty() ? a.path : d.field, d.message));
      }
    }
  }

  // Each key before the last must be a mapping (or absent) in the base spec.
  bool path_fits(const SweepAxis& a) {
    YamlNode node = base_tree_;
    const auto keys = split_path(a.path);
    for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
      if (keys[k].empty()) break;
      YamlNode next = node[keys[k]];
      if (!next.is_defined() || next.is_null()) return true;
      if (!next.is_mapping()) {
        r_.error(a.where, "axes.path", fmt::format("'{}' is {} in the base spec, not a mapping with fields",
                                                   excerpt(keys[k]), YamlReader::describe(next)));
        return false;
      }
      node = next;
    }
    if (std::any_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); })) {
      r_.error(a.where, "axes.path", fmt::format("'{}' is not a dotted field path", excerpt(a.path)));
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
  SourceLocation base_where_;
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
  return m;
}

Result<SweepFile> read_sweep(const std::string& file, const std::string& text) {
  SweepFile out;
  out.file = file;
  Diagnostics errors = SweepReader(file, out).read(text);
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
