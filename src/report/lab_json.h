// `clustertwin lab ... --json`: what each lab subcommand did (lab/lab_runner.h), as JSON in stable
// key order. Every document opens with {"command", "prefix"}; then
//   up        the namespaces and links of the plan built (lab/lab_plan.h)
//   run       every flow sent: endpoints, 5-tuple, bytes, seconds and bits_per_second unrounded
//             (the flows CSV rounds bits_per_second to a whole number)
//   counters  every interface's transmit and receive bytes with the read time, as in the
//             Prometheus text (same numbers, one object per interface)
//   fail      the links set down, with their devices and addresses (a link that is not in the
//             plan, which lab_fail_link refuses, would be listed by name and id alone)
//   down      the namespaces removed
// Pure functions of their arguments: the same results give the same bytes.
#pragma once

#include <string>
#include <vector>

#include "fabric/name_directory.h"
#include "lab/lab_plan.h"
#include "lab/lab_runner.h"

namespace ct {

// Links are named as every output names a cable (NameDirectory::cable_name), with their link ids.
std::string lab_up_json(const LabPlan& plan, const NameDirectory& names);
std::string lab_run_json(const LabPlan& plan, const std::vector<LabFlowResult>& results, const Topology& topology);
std::string lab_counters_json(const LabPlan& plan, const std::vector<LabCounter>& counters, const Topology& topology);
std::string lab_fail_json(const LabPlan& plan, const std::vector<LinkId>& links, const NameDirectory& names);
std::string lab_down_json(const std::string& prefix, const std::vector<std::string>& removed);

}  // namespace ct
