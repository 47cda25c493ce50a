// Views of a Plan for `clustertwin plan`: readable text, HTML (a header stating the scale limits, then
// one table per subject) and JSON with a fixed key order. Pure functions of the plan: no I/O.
// Unknown figures print as "unknown" in text and null in JSON; speeds are bits per second in JSON.
#pragma once

#include <string>

#include "plan/plan.h"

namespace ct {

std::string to_text(const Plan& plan);
std::string to_json(const Plan& plan);
// A self-contained HTML page (report/html/html_document.h): the text report's figures as tables, the
// fabric drawn per plane and tier (aggregated), the scale-limit chart. `command_line` is shown on it.
std::string to_html(const Plan& plan, const std::string& command_line);

}  // namespace ct
