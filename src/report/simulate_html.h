// `clustertwin simulate --html FILE`: one run of either engine as a self-contained page
// (report/html/html_document.h). The summary facts give the engine's own work (the flow engine's
// instants and re-solves; a packet run's events, packets delivered and in flight, drops, credit
// stall or PAUSE and XOFF frames, ECN marks and CNPs with DCQCN, packets out of order when it
// sprayed or some came late, its deadlock or none). Figures, all read from the result (nothing is
// recomputed):
//   timeline        one row per operation, raised while one of its iterations runs (first flow
//                   start to last completion) and low between them: the operations' Gantt chart;
//   completion      per operation, the CDF of its flows' completion times (end - start) on a log
//                   axis, at most kCdfPoints points (nearest-rank quantiles when it has more flows);
//   utilization     the engine's time series of the hottest links (SimulationResult::series, the
//                   first kSeriesShown), load / nominal capacity per bin;
//   queues          a packet run's hottest output queues over time (SimulationResult::queue_series);
//   deepest         a packet run's --top deepest output queues (deepest_queues): peak and mean KiB,
//                   and the time each was stopped with packets to send (credit stall or PAUSE);
//   busbw           per complete collective, busbw beside the busbw of its bound (the time of a
//                   fabric without collisions, sim/collision_check.h): S / bound x bus factor;
// then the text report itself (simulate_text), so the page holds every figure the text does.
// Test hooks: plots "timeline", "completion-cdf", "link-utilization", "queue-occupancy", "queue-depth",
// "queue-stopped", "busbw"; facts "summary" and
// "operations". Pure function of its input: same result, same bytes.
#pragma once

#include <cstddef>
#include <string>

#include "report/simulate_report.h"

namespace ct {

inline constexpr std::size_t kCdfPoints = 256;
inline constexpr std::size_t kSeriesShown = 4;

std::string simulate_html(const SimulateReportInput& in, const std::string& command_line);

}  // namespace ct
