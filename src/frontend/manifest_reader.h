// The typed reading of one manifest object's fields from the located YAML tree (manifest_yaml.h):
// getters that record an error naming the field when a value has the wrong type or range, and a
// schema check that warns about fields the kind does not have, as `kubectl apply --validate=warn`
// does. Shared by the manifest reader (manifests.cpp) and the readers of its parts
// (gateway_filters.h).
#pragma once

#include <initializer_list>
#include <string_view>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "frontend/manifest_yaml.h"
#include "frontend/manifests.h"

namespace ct {

// Reads fields of one object. Every getter takes the value (nullptr when the field is absent) and
// the field's path for the diagnostic; on a type or range error it records the error and returns
// the fallback (empty for strings and lists).
class ManifestReader {
 public:
  ManifestReader(Diagnostics& errors, Diagnostics& warnings) : errors_(errors), warnings_(warnings) {}

  void error(const SourceLocation& where, const std::string& field, const std::string& message);

  // Warns about keys of `map` that are not in `known` (a map that is not a mapping is an error);
  // false when there is no mapping to read.
  bool check(const YamlValue* map, const std::string& path, std::initializer_list<const char*> known);
  bool check(const YamlValue* map, const std::string& path, const std::vector<const char*>& known);
  bool check(const YamlValue* map, const std::string& path, const char* const* known_begin, const char* const* known_end);

  std::string str(const YamlValue* v, const std::string& field);
  // A string that must follow `rule` (manifest_values.h); an empty or absent value is not checked
  // (the caller says when one is required). The value is returned as written either way.
  std::string checked(const YamlValue* v, const std::string& field, std::string (*rule)(std::string_view));
  // A list the API keys by `key` (listeners, ports, containers, volumes ...): the second item with
  // a key already used is an error at its key, naming the line of the first.
  void unique(const YamlValue* list, const std::string& field, const char* key = "name");
  // An integer in [lo, hi].
  long long integer(const YamlValue* v, const std::string& field, long long fallback, long long lo, long long hi);
  bool boolean(const YamlValue* v, const std::string& field, bool fallback);
  std::vector<std::string> strings(const YamlValue* v, const std::string& field);
  // The same, each item checked against `rule` where it is written.
  std::vector<std::string> strings(const YamlValue* v, const std::string& field, std::string (*rule)(std::string_view));
  Labels labels(const YamlValue* v, const std::string& field);
  // The value when it is a list, else nullptr.
  const YamlValue* seq(const YamlValue* v, const std::string& field);
  // matchExpressions (In, NotIn, Exists, DoesNotExist).
  std::vector<LabelRequirement> requirements(const YamlValue* v, const std::string& field);
  // A LabelSelector (matchLabels, matchExpressions).
  LabelSelector selector(const YamlValue* v, const std::string& field);

 private:
  Diagnostics& errors_;
  Diagnostics& warnings_;
};

// An object reference (group, kind, namespace, name) at `field`; `known` its schema's fields; the
// kind defaults to `default_kind`; a missing name is an error.
ObjectRef read_ref(ManifestReader& r, const YamlValue& v, const std::string& field, const std::string& default_kind,
                   std::initializer_list<const char*> known);

}  // namespace ct
