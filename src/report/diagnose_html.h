// `clustertwin diagnose --html FILE`: a Diagnosis (diagnose/diagnosis.h) as one self-contained page
// (report/html/html_document.h). Figures, all read from the diagnosis (nothing is recomputed):
//   groups        one heat strip, a row per judged ECMP group and a cell per member: the rate the
//                 counters show leaving the switch (Gb/s), so an idle twin is a white cell at 0
//                 beside its busy sibling; imbalanced groups first when there are more than
//                 kHeatRowsShown;
//   per verdict   for each imbalanced group, its members as bars (Gb/s): the idle or degraded
//                 members and, beside an idle one, the busiest named under their bars (groups of
//                 up to 4), the busiest also as a reference line beside an idle member, and the
//                 group's mean as a reference line (what a per-group panel averages, the first
//                 reason the dashboards stayed green); then the facts (the busiest member's share of the group's
//                 traffic, Jain's fairness, P(any collision) for bad luck), the members and the
//                 four witnesses as tables, the cause, why the dashboards stayed green, the fix and
//                 the model's prediction;
//   alerts        the alert that would have fired (report/diagnose_report.h), and every alert whose
//                 condition held as a table;
//   links, hosts  the text report's tables of the directed links carrying traffic and the hosts'
//                 NIC counters;
// then the text report itself (report/diagnose_report.h), so the page holds every figure the text
// does. Test hooks: plots "group-members" (rows data-row = "<switch> <up|down>") and
// "group-<i>-members" (i: the group's index in the JSON's "groups"); facts "summary" and
// "group-<i>"; tables "groups", "group-<i>-members", "group-<i>-witnesses", "alerts", "links", "hosts".
// Pure function of the diagnosis: same diagnosis, same bytes.
#pragma once

#include <cstddef>
#include <string>

#include "diagnose/diagnosis.h"
#include "topology/topology.h"

namespace ct {

// Rows of the groups' heat strip at most; bar charts for this many imbalanced groups at most.
inline constexpr std::size_t kHeatRowsShown = 64;
inline constexpr std::size_t kVerdictChartsShown = 16;

std::string diagnose_html(const Diagnosis& diagnosis, const Topology& topology, const std::string& spec_name,
                          const std::string& command_line);

}  // namespace ct
