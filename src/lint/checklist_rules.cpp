// The checklist family of lint rules: one rule per step of the publishing checklist (checklist.h),
// each reporting the apps whose step is missing or broken.
#include <fmt/format.h>

#include "lint/lint_checks.h"

namespace ct {

void check_checklist_step(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  if (c.checklist == nullptr) return;
  const std::string step = std::string(rule.id).substr(std::string("checklist-").size());
  for (const ChecklistApp& app : *c.checklist) {
    for (const ChecklistStep& s : app.steps) {
      if (s.step != step || (s.status != ChecklistStatus::kMissing && s.status != ChecklistStatus::kBroken)) continue;
      std::vector<LintObject> objects;
      if (!s.object.empty()) objects.push_back({s.object, s.where});
      out.push_back(rule.finding(fmt::format("{}: {} {}: {}", app.host, step, to_string(s.status), s.detail), std::move(objects),
                                 fmt::format("{} is not published: {}", app.host, rule.help),
                                 s.add.starts_with("add ") ? s.add : "add: " + s.add));
    }
  }
}

}  // namespace ct
