// Field readers of the spec's schema that record where each value was written (Located<T>,
// spec.h): handlers for a YamlReader field table (yaml/yaml_reader.h). The field counts as present
// once written; its value is stored only when it passed the reader's type and range checks, so a
// rejected value (NaN, an overflowing integer) never reaches validate().
#pragma once

#include <string>

#include "spec/spec.h"
#include "yaml/yaml_reader.h"

namespace ct {

inline YamlReader::Handler text_field(YamlReader& r, Located<std::string>& out) {
  return [&r, &out](const YamlNode& k, const YamlNode& v, const std::string& f) {
    out.where = r.at(k);
    out.present = true;
    if (auto s = r.text(k, v, f)) out.value = std::move(*s);
  };
}

inline YamlReader::Handler integer_field(YamlReader& r, Located<long long>& out, IntegerRange range = {}) {
  return [&r, &out, range](const YamlNode& k, const YamlNode& v, const std::string& f) {
    out.where = r.at(k);
    out.present = true;
    if (auto n = r.integer(k, v, f, range)) out.value = *n;
  };
}

inline YamlReader::Handler number_field(YamlReader& r, Located<double>& out, NumberRange range = {}) {
  return [&r, &out, range](const YamlNode& k, const YamlNode& v, const std::string& f) {
    out.where = r.at(k);
    out.present = true;
    if (auto n = r.number(k, v, f, range)) out.value = *n;
  };
}

}  // namespace ct
