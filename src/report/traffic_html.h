// `clustertwin traffic --html FILE`: a TrafficSummary (diagnose/connection_table.h) as one
// self-contained page (report/html/html_document.h). Figures, all read from the summary:
//   sizes     the connections per size decade, mice and elephants as two series, and the
//             cumulative share of the connections and of the bytes at each decade's upper edge
//             (log size axis, in B, kB, MB, ... so that its ticks stay short) with the elephant
//             threshold as a dashed vertical: most connections are small, most bytes are in a few;
//   top       the ten largest connections' shares of all bytes as bars, each and cumulative (the
//             last cumulative bar is the top-10 share);
//   ECMP      at the fabric's width, the birthday curve P(any collision) of 1, 2, ... elephants
//             with this host's elephants marked, and the elephants per member: the mean against
//             the expected busiest member;
//   NIC       with --counters, the hosts' netdev and RDMA rates side by side (RDMA traffic is in no
//             socket table);
// then the text report itself (report/connection_report.h), so the page holds every figure the
// text does. Test hooks: plots "size-histogram", "size-cdf", "top-shares", "collision-curve",
// "elephant-load", "nic-rates"; facts "summary", "ecmp", "nic"; table "top".
// Pure function of the summary: same summary, same bytes.
#pragma once

#include <string>

#include "diagnose/connection_table.h"

namespace ct {

// `source`: what was read, e.g. "ss -tinH output host-ss.txt".
std::string traffic_html(const TrafficSummary& summary, const TrafficOptions& options, const std::string& source,
                         const std::string& command_line);

}  // namespace ct
