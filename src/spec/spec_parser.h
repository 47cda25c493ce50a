// YAML text -> Spec. Syntax errors, wrong types and unknown fields are diagnostics with file, line,
// column and field; all of them are returned at once.
#pragma once

#include <string>

#include "core/result.h"
#include "spec/spec.h"

namespace ct {

Result<Spec> parse_spec(const std::string& file, const std::string& yaml_text);

}  // namespace ct
