#include "lint/lint.h"

#include <algorithm>
#include <tuple>

#include "lint/lint_query.h"
#include "routing/port_address.h"

namespace ct {

std::string to_string(LintSeverity s) {
  switch (s) {
    case LintSeverity::kLow: return "low";
    case LintSeverity::kMedium: return "medium";
    case LintSeverity::kHigh: return "high";
  }
  return "?";
}

bool parse_severity(const std::string& text, LintSeverity& out) {
  for (const LintSeverity s : {LintSeverity::kLow, LintSeverity::kMedium, LintSeverity::kHigh}) {
    if (text == to_string(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

LintFinding LintRule::finding(std::string title, std::vector<LintObject> objects, std::string consequence, std::string fix) const {
  LintFinding f;
  f.rule = id;
  f.severity = severity;
  f.title = std::move(title);
  f.objects = std::move(objects);
  f.consequence = std::move(consequence);
  f.fix = std::move(fix);
  f.likelihood = likelihood;
  f.hours = hours;
  return f;
}

std::size_t LintReport::count_at_least(LintSeverity floor) const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [&](const LintFinding& f) { return f.severity >= floor; }));
}

double LintReport::expected_hours() const {
  double sum = 0;
  for (const auto& f : findings) sum += f.expected_hours();
  return sum;
}

void rank_findings(std::vector<LintFinding>& findings) {
  auto key = [](const LintFinding& f) {
    const SourceLocation none;
    const SourceLocation& w = f.objects.empty() ? none : f.objects.front().where;
    const std::string label = f.objects.empty() ? std::string() : f.objects.front().label;
    return std::make_tuple(-f.expected_hours(), -static_cast<int>(f.severity), f.rule, w.file, w.line, label, f.title);
  };
  std::stable_sort(findings.begin(), findings.end(), [&](const LintFinding& a, const LintFinding& b) { return key(a) < key(b); });
}

LintReport run_lint(const FrontendModel& model) {
  const LonghornSchedule schedule = schedule_longhorn(model.manifests, model.placement);
  LintContext context{model, std::nullopt, std::nullopt, nullptr, &schedule};
  for (const auto& n : model.manifests.nodes) {
    if (auto ip = parse_ipv4(n.internal_ip)) {
      context.inside_client = *ip;
      break;
    }
  }
  if (model.dns) {
    if (auto rep = representative_client(*model.dns, false)) context.outside_client = rep->first;
  }
  LintReport report;
  report.dns_given = model.dns.has_value();
  report.spec_given = model.topology.has_value();
  report.checklist = publishing_checklist(context);
  context.checklist = &report.checklist;
  for (const LintRule& rule : lint_rules()) rule.check(context, rule, report.findings);
  rank_findings(report.findings);
  return report;
}

}  // namespace ct
