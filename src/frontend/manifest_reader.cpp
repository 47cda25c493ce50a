#include "frontend/manifest_reader.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include <fmt/format.h>

#include "yaml/yaml_reader.h"

namespace ct {

void ManifestReader::error(const SourceLocation& where, const std::string& field, const std::string& message) {
  errors_.push_back({where, field, message, Severity::kError});
}

bool ManifestReader::check(const YamlValue* map, const std::string& path, std::initializer_list<const char*> known) {
  return check(map, path, known.begin(), known.end());
}

bool ManifestReader::check(const YamlValue* map, const std::string& path, const std::vector<const char*>& known) {
  return check(map, path, known.data(), known.data() + known.size());
}

bool ManifestReader::check(const YamlValue* map, const std::string& path, const char* const* known_begin, const char* const* known_end) {
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

std::string ManifestReader::str(const YamlValue* v, const std::string& field) {
  if (v == nullptr || v->kind == YamlValue::Kind::kNull) return "";
  if (!v->is_scalar()) {
    error(v->where, field, "expected a string");
    return "";
  }
  return v->scalar;
}

std::string ManifestReader::checked(const YamlValue* v, const std::string& field, std::string (*rule)(std::string_view)) {
  std::string s = str(v, field);
  if (s.empty()) return s;
  if (const std::string problem = rule(s); !problem.empty()) error(v->where, field, fmt::format("'{}': {}", excerpt(s), problem));
  return s;
}

void ManifestReader::unique(const YamlValue* list, const std::string& field, const char* key) {
  if (list == nullptr || !list->is_seq()) return;
  std::map<std::string, int> first;  // key -> line of the first item with it
  for (std::size_t i = 0; i < list->items.size(); ++i) {
    const YamlValue* k = list->items[i].is_map() ? list->items[i].get(key) : nullptr;
    if (k == nullptr || !k->is_scalar() || k->scalar.empty()) continue;
    if (const auto [it, fresh] = first.emplace(k->scalar, k->where.line); !fresh) {
      error(k->where, fmt::format("{}[{}].{}", field, i, key),
            fmt::format("duplicate {} '{}' (first at line {}): the API keys {} by {}", key, excerpt(k->scalar), it->second, field, key));
    }
  }
}

long long ManifestReader::integer(const YamlValue* v, const std::string& field, long long fallback, long long lo, long long hi) {
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

bool ManifestReader::boolean(const YamlValue* v, const std::string& field, bool fallback) {
  if (v == nullptr) return fallback;
  if (v->scalar == "true") return true;
  if (v->scalar == "false") return false;
  error(v->where, field, fmt::format("expected true or false, got '{}'", v->scalar));
  return fallback;
}

std::vector<std::string> ManifestReader::strings(const YamlValue* v, const std::string& field) {
  std::vector<std::string> out;
  if (v == nullptr) return out;
  if (!v->is_seq()) {
    error(v->where, field, "expected a list of strings");
    return out;
  }
  for (const auto& item : v->items) out.push_back(str(&item, field + "[]"));
  return out;
}

std::vector<std::string> ManifestReader::strings(const YamlValue* v, const std::string& field,
                                                std::string (*rule)(std::string_view)) {
  std::vector<std::string> out;
  if (v == nullptr) return out;
  if (!v->is_seq()) {
    error(v->where, field, "expected a list of strings");
    return out;
  }
  for (std::size_t i = 0; i < v->items.size(); ++i) out.push_back(checked(&v->items[i], fmt::format("{}[{}]", field, i), rule));
  return out;
}

Labels ManifestReader::labels(const YamlValue* v, const std::string& field) {
  Labels out;
  if (v == nullptr) return out;
  if (!v->is_map()) {
    error(v->where, field, "expected a mapping of strings");
    return out;
  }
  for (const auto& [k, x] : v->entries) out[k] = str(&x, field + "." + k);
  return out;
}

const YamlValue* ManifestReader::seq(const YamlValue* v, const std::string& field) {
  if (v == nullptr) return nullptr;
  if (!v->is_seq()) {
    error(v->where, field, v->is_scalar() ? fmt::format("expected a list, got '{}'", excerpt(v->scalar)) : "expected a list, got a mapping");
    return nullptr;
  }
  return v;
}

std::vector<LabelRequirement> ManifestReader::requirements(const YamlValue* v, const std::string& field) {
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

LabelSelector ManifestReader::selector(const YamlValue* v, const std::string& field) {
  LabelSelector s;
  if (!check(v, field, {"matchLabels", "matchExpressions"})) return s;
  s.present = true;
  s.match_labels = labels(v->get("matchLabels"), field + ".matchLabels");
  s.expressions = requirements(v->get("matchExpressions"), field + ".matchExpressions");
  return s;
}

ObjectRef read_ref(ManifestReader& r, const YamlValue& v, const std::string& field, const std::string& default_kind,
                   std::initializer_list<const char*> known) {
  r.check(&v, field, known);
  ObjectRef ref;
  ref.where = v.where;
  ref.group = r.str(v.get("group"), field + ".group");
  ref.kind = r.str(v.get("kind"), field + ".kind");
  if (ref.kind.empty()) ref.kind = default_kind;
  ref.ns = r.str(v.get("namespace"), field + ".namespace");
  ref.name = r.str(v.get("name"), field + ".name");
  if (ref.name.empty()) r.error(v.where, field + ".name", "is required");
  return ref;
}

}  // namespace ct
