// `clustertwin alerts`: an AlertPlan (diagnose/alert_rules.h) as a Prometheus rule file (YAML, one
// rule group per ECMP group: the members' and the group's recording rules, then the five alerts)
// and as JSON (the groups, their members and thresholds, every rule's expression). Every string a
// single-quoted YAML scalar, so PromQL's double quotes stay as they are. Pure functions: the same
// plan gives the same bytes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "diagnose/alert_rules.h"

namespace ct {

// The one-line summary annotation of `rule` on `group`.
std::string alert_summary(AlertRule rule, const AlertGroup& group);
// The labels every alert of `group` carries besides those of its series (in this order).
std::vector<std::pair<std::string, std::string>> alert_labels(AlertRule rule, const AlertGroup& group);

std::string alert_rules_yaml(const AlertPlan& plan, const std::string& spec_name);
std::string alert_rules_json(const AlertPlan& plan, const std::string& spec_name);

}  // namespace ct
