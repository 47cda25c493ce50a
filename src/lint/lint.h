// `clustertwin lint`: the traps a platform's manifests and DNS views carry, each found by one rule
// of the table in lint_rules.cpp (one file per family: route_rules, certificate_rules, dns_rules,
// bgp_rules, storage_rules, network_rules (from the spec), workload_rules, and the publishing
// checklist in checklist.h), ranked by the expected hours they cost a year (lint_finding.h). The rules read the frontend model as
// `trace` builds it (frontend/request_trace.h: the Gateway model, the pods' placement, the DNS
// views) and decide nothing the model does not: a shadowed rule is the Gateway model's, a pod's
// node is pod_placement's, a volume's replica candidates are volume_replicas'.
#pragma once

#include <string>
#include <vector>

#include "lint/checklist.h"
#include "lint/lint_context.h"
#include "lint/lint_finding.h"

namespace ct {

struct LintRule;
using LintCheck = void (*)(const LintContext& context, const LintRule& rule, std::vector<LintFinding>& out);

// One row of the rule table.
struct LintRule {
  const char* id;
  const char* family;  // routes, certificates, dns, bgp, storage, network, workloads, auth, checklist
  LintSeverity severity;
  const char* summary;  // one line, also the SARIF rule's shortDescription
  const char* help;     // the trap and its fix, the SARIF rule's help text
  double likelihood;    // chance of biting in a year (the ranking's first assumption)
  double hours;         // hours lost when it bites (the second)
  const char* basis;    // why those two numbers
  LintCheck check;
  // A finding of this rule, its severity and assumptions filled in.
  [[nodiscard]] LintFinding finding(std::string title, std::vector<LintObject> objects, std::string consequence,
                                    std::string fix) const;
};

// Every rule, in the order of the table (lint_rules.cpp).
const std::vector<LintRule>& lint_rules();

struct LintReport {
  std::vector<LintFinding> findings;  // ranked (lint_finding.h)
  std::vector<ChecklistApp> checklist;
  bool dns_given = false;
  bool spec_given = false;
  // Findings at or above `floor`.
  [[nodiscard]] std::size_t count_at_least(LintSeverity floor) const;
  [[nodiscard]] double expected_hours() const;
};

LintReport run_lint(const FrontendModel& model);

// The order of the report: expected hours lost (descending), severity (descending), rule id, then
// the first object's file, line and label.
void rank_findings(std::vector<LintFinding>& findings);

}  // namespace ct
