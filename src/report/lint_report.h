// Reports of `clustertwin lint` (lint/lint.h): the ranked findings and the publishing checklist as
// text and JSON (with every rule's assumptions), and as SARIF 2.1.0 for code-scanning UIs (OASIS
// SARIF v2.1.0, sections 3.13 sarifLog, 3.14 run, 3.19 tool, 3.49 reportingDescriptor, 3.27
// result, 3.28 location, 3.29 physicalLocation, 3.30 region): one run whose tool.driver.rules
// are the rule table (id, name, shortDescription, fullDescription, help, defaultConfiguration
// level), and one result per finding with ruleId, ruleIndex, level (high error, medium warning,
// low note), message, the first object's location and the others as relatedLocations.
// Artifact URIs are the paths as given on the command line, so the log is the same bytes
// wherever it runs from the same folder.
#pragma once

#include <string>

#include "lint/lint.h"

namespace ct {

std::string lint_text(const LintReport& r);
std::string lint_json(const LintReport& r);
std::string lint_sarif(const LintReport& r, const std::string& version);
// "error" | "warning" | "note".
std::string sarif_level(LintSeverity s);

}  // namespace ct
