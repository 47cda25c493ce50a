// Views of a Plan for `clustertwin plan`: readable text (a header stating the scale limits, then
// one table per subject) and JSON with a fixed key order. Pure functions of the plan: no I/O.
// Unknown figures print as "unknown" in text and null in JSON; speeds are bits per second in JSON.
#pragma once

#include <string>

#include "plan/plan.h"

namespace ct {

std::string to_text(const Plan& plan);
std::string to_json(const Plan& plan);

}  // namespace ct
