// `clustertwin hash --html FILE`: the study of analysis/hash_study.h as one self-contained page
// (report/html/html_document.h). Figures, all read from the study (nothing is recomputed):
//   link loads      one heat strip per tier and direction, a row per ECMP group the flows entered
//                   and a cell per member link (flows on it, in the group's direction): an idle
//                   twin shows as a white cell beside its busy sibling;
//   Monte Carlo     the distribution of the busiest first-tier uplink over the trials beside the
//                   exact max-load distribution of the closed form (analysis/ecmp_monte_carlo.h);
//   schemes         with --compare, one bar per applicable scheme: flows on the busiest link, and
//                   the slowest flow's fair throughput;
// then the text report itself (report/hash_report.h), so the page holds every figure the text does.
// Test hooks: plots "loads-tier<T>-<up|down>" (rows data-row = group label), "busiest-uplink",
// "schemes-busiest", "schemes-slowest"; facts tables "summary" and "monte-carlo".
// Pure function of the study: same study, same bytes.
#pragma once

#include <string>

#include "analysis/hash_study.h"
#include "report/hash_report.h"

namespace ct {

std::string hash_html(const HashStudy& study, const HashReportOptions& options, const std::string& command_line);

}  // namespace ct
