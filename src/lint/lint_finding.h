// What `clustertwin lint` reports: a trap planted in the manifests and DNS views, named by the rule
// that found it, with the objects and the file:line of each, what it costs and how to fix it.
//
// Ranking (docs/models/lint.md): each rule states two assumptions, the chance that the trap bites
// in a year of running the platform and the hours it costs when it does (the outage and the hours
// spent finding the cause); a finding's expected hours lost a year is their product. Findings are
// ranked by it, then by severity, rule id and first location, so the order is deterministic.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace ct {

// high: an outage or data at risk as written; medium: an outage when a node, router or rollout
// does what it routinely does; low: a gap that costs time but no outage. SARIF levels: error,
// warning, note.
enum class LintSeverity { kLow, kMedium, kHigh };
std::string to_string(LintSeverity s);
// "low" | "medium" | "high" (case-sensitive); false for anything else.
bool parse_severity(const std::string& text, LintSeverity& out);

// One object a finding involves: "HTTPRoute apps/wiki" and where it is written.
struct LintObject {
  std::string label;
  SourceLocation where;
};

struct LintFinding {
  std::string rule;  // the rule's id: "route-shadowed", "checklist-service", ...
  LintSeverity severity = LintSeverity::kMedium;
  std::string title;        // one line: what is wrong, naming the objects
  std::vector<LintObject> objects;  // the first is where the fix goes
  std::string consequence;  // what happens because of it
  std::string fix;          // what to change (a line to add where one is enough)
  double likelihood = 1;    // the rule's chance of biting in a year
  double hours = 1;         // the rule's hours lost when it bites
  [[nodiscard]] double expected_hours() const { return likelihood * hours; }
};

}  // namespace ct
