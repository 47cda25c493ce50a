// YAML text -> Spec. Syntax errors, wrong types and unknown fields are diagnostics with file, line,
// column and field; all of them are returned at once.
#pragma once

#include <string>

#include "core/result.h"
#include "spec/spec.h"

namespace ct {

Result<Spec> parse_spec(const std::string& file, const std::string& yaml_text);

// The spec as far as it could be read, with every problem found while reading it. When the YAML
// itself is readable (`readable`), `spec` holds every field that was read; a field with a problem
// keeps its default, so validate() can still run on the rest (see validate_reading in validate.h).
struct SpecReading {
  Spec spec;
  Diagnostics errors;
  bool readable = true;
};

SpecReading read_spec(const std::string& file, const std::string& yaml_text);

}  // namespace ct
