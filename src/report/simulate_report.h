// Views of a flow simulation for `clustertwin simulate`: readable text, JSON with a fixed key order,
// and CSV tables (per link, per flow, link load over time). Pure functions of their inputs.
//
// Figures:
//   time        an iteration's span: its first flow start to its last completion (the compute
//               phase before it is not counted); the mean over iterations.
//   algbw       nccl-tests' algorithm bandwidth S / time, in GB/s (1e9 bytes per second).
//   busbw       algbw x bus factor (2(n-1)/n for all-reduce, (n-1)/n otherwise; 1 for transfers).
//   mean util   bits carried / (nominal capacity x makespan); peak util: highest load / nominal.
//   saturated   time at >= 99.9 % of nominal capacity. The bottleneck table ranks links by it, then
//               by bits carried.
//   workers     analysis/straggler.h: span, compute, sending, waiting; the share lost to the
//               slowest path is sum(waiting) / sum(span).
//   mice        flow completion time (FCT) quantiles (nearest rank), and the slowdown against the
//               FCT alone on an idle path (size / NIC speed).
//   work        the engine's own: the flow engine's instants and re-solves (of so many flows on
//               average); a packet run's events and packets delivered (at most so many in flight).
//   packet      a packet run only (result.packet.ran): its parameters, events, packets in flight,
//               drops, the packets delivered after a later one of their flow (spraying, a reroute;
//               a line only when the run sprayed or some came late; the JSON's out_of_order and
//               most_out_of_order always), every flow's FCT quantiles and per operation (text: the --top slowest by
//               p99) and per traffic class (VL or priority, with more than one), summed credit
//               stall (PFC: PAUSE time, XOFF frames, ECN marks), the deepest output queues (peak
//               bytes, time-weighted mean bytes over the makespan, credit stall or PAUSE) and a
//               deadlock's cycle; the links CSV gains peak_queue_bytes, mean_queue_bytes,
//               credit_stall_s, pause_s, pause_frames and ecn_marks; with the queues over
//               time kept (--csv-queues, --html), the JSON's packet object holds them too. With
//               DCQCN: the --top ports that marked most (the JSON's dcqcn.most_marks, the page's
//               chart of ECN marks per port), and with more than one priority ECN marks per
//               priority (summed over ports, and per port of those). The flows CSV gains ecn_marks
//               (packets delivered marked), cnps (its receiver's CNPs) and out_of_order (its
//               packets delivered after a later one); the flow engine's has none of these columns.
//   names       one naming everywhere (sim/resource_name.h): a port, a link's row, a queue, a hop of
//               a path, a channel of a credit loop are one direction of a cable named by the name
//               directory (fabric/name_directory.h cable_name: "A -- B", with " #k" after a
//               cable that has parallel twins), then "up" (from A to B) or "down"; the text, JSON,
//               CSVs and page of both engines name it alike, and a pinned route reads it back.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/operation_figures.h"  // mean_iteration_seconds
#include "analysis/straggler.h"
#include "fabric/name_directory.h"
#include "sim/resource_name.h"  // resource_name: one naming of the run's resources
#include "sim/simulation_result.h"
#include "topology/topology.h"

namespace ct {

// What a report shows: the result and the worker account of one run (by reference, owned by the
// caller), the topology that names its links, and the title.
struct SimulateReportInput {
  const Topology& topology;
  // The directory that names its resources (resource_name): the fabric's own (Fabric::names()),
  // not owned, so that a large fabric's cable index is built once per run, not once per report.
  const NameDirectory& names;
  const SimulationResult& result;
  const WorkerAccount& workers;
  std::string title;  // "lab-32: ring-1g"
  std::size_t top_links = 10;
};

std::string simulate_text(const SimulateReportInput& in);
std::string simulate_json(const SimulateReportInput& in);
// One row per constraint that carried traffic.
std::string simulate_links_csv(const SimulateReportInput& in);
// One row per flow.
std::string simulate_flows_csv(const SimulateReportInput& in);
// One row per (busiest link, time bin).
std::string simulate_series_csv(const SimulateReportInput& in);
// A packet run: one row per (hottest output queue, time bin) of result.queue_series
// (sim/queue_statistics.h): the bin's time-weighted mean bytes and its peak; the last bin ends at
// the makespan.
std::string simulate_queues_csv(const SimulateReportInput& in);

// A packet run's ports that queued or were stopped, deepest first: peak queue bytes, then credit
// stall, then PAUSE time, then index (the report's queue table, the JSON's packet.queues, the
// page's queue charts show the first --top).
std::vector<std::uint32_t> deepest_queues(const SimulationResult& r);

// A packet run's ports that marked packets (ECN), most marks first, then index (the text's and the
// JSON's marks per port and priority, the page's chart of marks per port show the first --top).
std::vector<std::uint32_t> marking_ports(const SimulationResult& r);

// A deadlocked packet run's stalled flows (record indices, increasing): in a credit loop (their
// packets hold buffers of a loop's channels, PacketRunInfo::deadlock_flows), stopped by a fault
// (a path of theirs failed, PacketRunInfo::fault_stalled_flows) or blocked behind a loop
// (stalled upstream of it). All empty without a deadlock.
struct DeadlockFlows {
  std::vector<std::uint32_t> in_loop;
  std::vector<std::uint32_t> behind;
  std::vector<std::uint32_t> faulted;
};
DeadlockFlows deadlock_flows(const SimulationResult& r);
// A deadlocked run's credit loops in words, as the report and the engine comparison print them:
// "a credit loop of 4 channels:" and each channel on a line of its own after `indent`; with more
// loops, "2 credit loops:" and each as "loop 1, 4 channels:" with its channels indented further.
// Empty without a deadlock. The JSON's form: one array of channel names per loop.
std::string credit_loops_text(const NameDirectory& names, const SimulationResult& r, std::string_view indent);
nlohmann::ordered_json credit_loops_json(const NameDirectory& names, const SimulationResult& r);

// "37.609 ms", "850.000 us", "1.203 s"; "never" below 0.
std::string human_time(TimePs t);


}  // namespace ct
