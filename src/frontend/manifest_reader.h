// The typed reading of one manifest object's fields from the located YAML tree (manifest_yaml.h):
// getters that record an error naming the field when a value has the wrong type or range, and a
// schema check that warns about fields the kind does not have, as `kubectl apply --validate=warn`
// does. Shared by the manifest reader (manifests.cpp) and the readers of its parts
// (gateway_filters.h).
#pragma once

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/diagnostic.h"
#include "frontend/manifest_yaml.h"
#include "frontend/manifests.h"

namespace ct {

// Reads fields of one object: typed getters that record a diagnostic naming the field on a type
// error, and a schema check that warns about fields the kind does not have.
class ManifestReader {
 public:
  ManifestReader(Diagnostics& errors, Diagnostics& warnings) : errors_(errors), warnings_(warnings) {}

  void error(const SourceLocation& where, const std::string& field, const std::string& message) {
    errors_.push_back({where, field, message, Severity::kError});
  }

  // Warns about keys of `map` that are not in `known` (a map that is not a mapping is an error).
  bool check(const YamlValue* map, const std::string& path, std::initializer_list<const char*> known) {
    return check(map, path, known.begin(), known.end());
  }
  bool check(const YamlValue* map, const std::string& path, const std::vector<const char*>& known) {
    return check(map, path, known.data(), known.data() + known.size());
  }
  bool check(const YamlValue* map, const std::string& path, const char* const* known_begin, const char* const* known_end) {
    if (map == nullptr) return false;
    if (!map->is_map()) {
      error(map->where, path, "expected a mapping");
      return false;
    }
    for (std::size_t i = 0; i < map->entries.size(); ++i) {
      const std::string& key = map->entries[i].first;
      if (std::none_of(known_begin, known_end, [&](const char* k) { return key == k; })) {
        warnings_.push_back({map->key_where[i], path.empty() ? key : path + "." + key,
                             "unknown field (ignored)", Severity::kWarning});
      }
    }
    return true;
  }

  std::string str(const YamlValue* v, const std::string& field) {
    if (v == nullptr || v->kind == YamlValue::Kind::kNull) return "";
    if (!v->is_scalar()) {
      error(v->where, field, "expected a string");
      return "";
    }
    return v->scalar;
  }

  long long integer(const YamlValue* v, const std::string& field, long long fallback, long long lo, long long hi) {
    if (v == nullptr) return fallback;
    long long x = 0;
    const std::string& s = v->scalar;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (!v->is_scalar() || ec != std::errc() || p != s.data() + s.size()) {
      error(v->where, field, fmt::format("expected an integer, got '{}'", s));
      return fallback;
    }
    if (x < lo || x > hi) {
      error(v->where, field, fmt::format("{} is out of range [{}, {}]", x, lo, hi));
      return fallback;
    }
    return x;
  }

  bool boolean(const YamlValue* v, const std::string& field, bool fallback) {
    if (v == nullptr) return fallback;
    if (v->scalar == "true") return true;
    if (v->scalar == "false") return false;
    error(v->where, field, fmt::format("expected true or false, got '{}'", v->scalar));
    return fallback;
  }

  std::vector<std::string> strings(const YamlValue* v, const std::string& field) {
    std::vector<std::string> out;
    if (v == nullptr) return out;
    if (!v->is_seq()) {
      error(v->where, field, "expected a list of strings");
      return out;
    }
    for (const auto& item : v->items) out.push_back(str(&item, field + "[]"));
    return out;
  }

  Labels labels(const YamlValue* v, const std::string& field) {
    Labels out;
    if (v == nullptr) return out;
    if (!v->is_map()) {
      error(v->where, field, "expected a mapping of strings");
      return out;
    }
    for (const auto& [k, x] : v->entries) out[k] = str(&x, field + "." + k);
    return out;
  }

  const YamlValue* seq(const YamlValue* v, const std::string& field) {
    if (v == nullptr) return nullptr;
    if (!v->is_seq()) {
      error(v->where, field, "expected a list");
      return nullptr;
    }
    return v;
  }

  std::vector<LabelRequirement> requirements(const YamlValue* v, const std::string& field) {
    std::vector<LabelRequirement> out;
    if (!seq(v, field)) return out;
    for (const auto& e : v->items) {
      check(&e, field + "[]", {"key", "operator", "values"});
      LabelRequirement r{str(e.get("key"), field + ".key"), str(e.get("operator"), field + ".operator"),
                         strings(e.get("values"), field + ".values")};
      static const std::set<std::string> kOps = {"In", "NotIn", "Exists", "DoesNotExist"};
      if (!kOps.contains(r.op)) error(e.where, field + ".operator", "expected In, NotIn, Exists or DoesNotExist");
      out.push_back(std::move(r));
    }
    return out;
  }

  LabelSelector selector(const YamlValue* v, const std::string& field) {
    LabelSelector s;
    if (!check(v, field, {"matchLabels", "matchExpressions"})) return s;
    s.present = true;
    s.match_labels = labels(v->get("matchLabels"), field + ".matchLabels");
    s.expressions = requirements(v->get("matchExpressions"), field + ".matchExpressions");
    return s;
  }

 private:
  Diagnostics& errors_;
  Diagnostics& warnings_;
};

// An object reference (group, kind, namespace, name) at `field`; `known` its schema's fields; the
// kind defaults to `default_kind`; a missing name is an error.
ObjectRef read_ref(ManifestReader& r, const YamlValue& v, const std::string& field, const std::string& default_kind,
                   std::initializer_list<const char*> known);

}  // namespace ct
