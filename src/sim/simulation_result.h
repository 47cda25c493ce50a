// What a simulation of a scenario produced, whichever engine ran it (sim/engine.h: the flow engine
// today, a packet engine beside it later): every flow's start and completion, every operation's
// iterations, the load of every resource it used. No engine owns it: a resource is what a flow
// crosses and shares (one direction of a cable, a GPU's NVLink egress or ingress; a packet engine's
// queues are the same links' egress ports), not the max-min solver's constraint. Plain data, in
// creation order (deterministic); analysis/ and report/ read it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/units.h"
#include "workload/workload.h"

namespace ct {

// OperationKind and kNoGpu come with the workload (workload/workload.h).

// A resource of a run: one direction of a cable, a GPU's NVLink egress or ingress (the workload's
// hops, HopKind), or kBarrier: an engine's internal synchronisation point that carries nothing (the
// flow engine joins an in-network collective's iterations there); never a bottleneck, never
// reported.
enum class ResourceKind : std::uint8_t { kLinkUp, kLinkDown, kNvlinkOut, kNvlinkIn, kBarrier };

struct ResourceInfo {
  ResourceKind kind = ResourceKind::kLinkUp;
  LinkId link;                // kLinkUp / kLinkDown
  std::uint32_t gpu = kNoGpu;  // kNvlinkOut / kNvlinkIn
  BitsPerSecond capacity{0};   // nominal
};

struct ResourceStats {
  double carried_bits = 0;
  double peak_bps = 0;
  TimePs saturated{0};  // time at >= 99.9 % of its capacity at the time (degraded or not)
  std::uint32_t flows = 0;  // flows that crossed it
  // The packet engine's (0 from the flow engine): its output queue and its waits for credits.
  std::int64_t peak_queue_bytes = 0;
  double mean_queue_bytes = 0;  // over the makespan
  TimePs credit_stall{0};       // time with a packet to send and no credits for it
  TimePs pause_time{0};         // PFC: time stopped by a PAUSE with a packet to send
  std::int64_t pause_frames = 0;  // PFC: XOFF frames its far end sent back to it
  std::int64_t ecn_marks = 0;     // ECN: packets it marked at its egress queue (all priorities;
                                  // per priority: PacketRunInfo::ecn_marks_by_class)
};

// What only a packet run has: its parameters, its cost, its losses and its deadlock, if any.
struct PacketRunInfo {
  bool ran = false;  // the packet engine produced this result
  std::int64_t mtu = 0;
  std::uint32_t vls = 0;
  TimePs switch_latency{0};
  std::int64_t buffer_bytes = 0;  // per port and VL
  bool cut_through = false;
  bool pfc = false;  // RoCE v2 (Ethernet): PFC per priority, not credits
  bool dcqcn = false;  // RoCE v2: ECN marking (RED) at the switches and DCQCN at the senders
  std::int64_t ecn_kmin = 0;  // bytes
  std::int64_t ecn_kmax = 0;
  double ecn_pmax = 0;
  std::int64_t cnps = 0;  // sent by the receivers, summed over flows
  // ECN marks per port and traffic class (priority): resource r's marks of class k at [r * vls + k];
  // empty when no port marks (no DCQCN). Each resource's sum is its ResourceStats::ecn_marks.
  std::vector<std::int64_t> ecn_marks_by_class;
  std::uint64_t events = 0;
  std::int64_t packets_delivered = 0;  // summed over flows: each flow's delivered bytes in MTU packets
  bool spraying = false;  // some flow's packets took several paths (paths: spray)
  std::int64_t out_of_order = 0;  // packets delivered after a later packet of their flow, summed over flows
  std::uint64_t drops = 0;  // lossless by construction; counted and checked
  std::uint64_t peak_packets = 0;  // in flight at once
  // The credit loops a deadlocked run ended in, one cycle of resources (waiting for each other's
  // credits, in order) per loop, the loops in the order of their least resource; empty without a
  // deadlock (sim/packet/packet_engine.h PacketDeadlock).
  std::vector<std::vector<std::uint32_t>> deadlock_cycles;
  // With a deadlock: the flow records whose packets hold buffers of a loop's resources (a packet
  // that came over one and waits for the next; any resource of a loop, not only its cycle's), in
  // increasing order: the flows in a credit loop (in_credit_loop says which).
  std::vector<std::uint32_t> deadlock_flows;
  // With a deadlock: the other stalled records that a failed path stopped (one of their paths
  // crosses a resource that is down for good and routing found no other), in increasing order
  // (stalled_by_fault). Every other stalled flow of the run is blocked behind a loop.
  std::vector<std::uint32_t> fault_stalled_flows;
  // SHARP (sim/packet/sharp_aggregation.h): aggregation trees run in the switches, how many of them
  // waited for a switch's free tree slot and for how long in all.
  std::uint32_t sharp_trees = 0;
  std::uint32_t sharp_waited = 0;
  TimePs sharp_wait{0};
};

// Why a flow did not complete.
enum class Unfinished : std::uint8_t {
  kNo,       // it completed
  kStalled,  // it started, then every path it had failed (rate 0 for good): `stalled` says since when
  kWaiting,  // it never started: a flow it waits for never completed
};

struct FlowRecord : FlowIdentity {
  double weight = 1.0;  // max-min weight (sim/engine.h FlowOptions): reported by every engine, used by the flow engine
  TimePs start{-1};
  TimePs end{-1};  // completion (last byte + path latency); -1 when it never completed
  TimePs delay{0};  // after the last flow it waits for
  TimePs stalled{-1};    // kStalled: when it stopped making progress (its path's failure)
  double bits_left = 0;  // not yet sent at the end of the run
  // (The two one-byte fields side by side: 160 bytes a record, not 168; millions of records.)
  Unfinished unfinished = Unfinished::kNo;
  bool pinned = false;   // its route was given (flow table), not chosen by the fabric's routing
  std::uint32_t after_begin = 0;  // into SimulationResult::after_pool: records it waits for
  std::uint32_t after_size = 0;
  std::uint32_t path_begin = 0;  // into SimulationResult::path_pool (resource indices), final path
  std::uint32_t path_size = 0;
  std::uint32_t reroutes = 0;
  std::int64_t cnps = 0;  // packet engine, DCQCN: CNPs its receiver sent back
  std::int64_t ecn_marks = 0;  // packet engine, ECN: its packets delivered marked CE (at one port or more)
  std::int64_t out_of_order = 0;  // packet engine: its packets delivered after a later one of it (spraying, a reroute)
};

struct IterationSpan {
  TimePs start{-1};  // first flow start of the iteration
  TimePs end{-1};    // last completion
};

struct OperationResult : OperationIdentity {
  std::vector<IterationSpan> iterations;
  std::uint32_t flows_begin = 0;   // its flows: records [flows_begin, flows_end)
  std::uint32_t flows_end = 0;
  bool complete = true;
  // Collectives: whether hash collisions dominate the result against `bound` (sim/collision_check.h).
  std::uint32_t collided_links = 0;  // fabric links that carried more of one step's flows than any NIC
  bool collision_dominated = false;  // slowest iteration > kCollisionFactor x bound, collided_links > 0
};

// Workers that run one synchronous phase: the GPUs of a collective, or the senders of a group of
// transfers. Their span is the phase's.
struct PhaseResult {
  std::string name;
  TimePs start{-1};
  TimePs end{-1};
  std::uint32_t workers_begin = 0;
  std::uint32_t workers_end = 0;
};

struct LinkSeries {
  std::uint32_t resource = 0;
  std::vector<double> utilization;  // mean load / nominal capacity per bin
};

// One output queue over time (a packet run; sim/queue_statistics.h): per bin of
// SimulationResult::queue_bin, the time-weighted mean bytes queued and the most at any instant.
struct QueueSeries {
  std::uint32_t resource = 0;
  std::vector<double> mean_bytes;
  std::vector<std::int64_t> peak_bytes;
};

struct SimulationResult {
  std::vector<OperationResult> operations;
  std::vector<PhaseResult> phases;
  std::vector<WorkloadWorker> workers;  // as the workload compiled them (workload/workload.h)
  std::vector<FlowRecord> flows;
  std::vector<std::uint32_t> path_pool;  // the records' final paths, one after the other in record order
  std::vector<double> fraction_pool;     // per path_pool entry: the share of the flow on that hop (spray < 1)
  std::vector<std::uint32_t> after_pool;  // records waited for (internal barriers left out)
  std::vector<ResourceInfo> resources;
  std::vector<ResourceStats> stats;  // per resource
  TimePs makespan{0};  // last completion; when some flow never completed: the last event that changed anything
  bool unbounded = false;  // some flow never completed: the true makespan is unbounded
  // Time series of the busiest resources (by saturated time, then carried bits).
  TimePs series_bin{0};
  std::vector<LinkSeries> series;
  // A packet run's hottest output queues over time (by time-weighted mean, then peak, then index).
  TimePs queue_bin{0};
  std::vector<QueueSeries> queue_series;
  // Cost counters.
  std::uint64_t instants = 0;
  std::uint64_t solves = 0;
  std::uint64_t solved_flows = 0;
  std::uint64_t reroutes = 0;        // path changes (a flow may move more than once)
  std::uint64_t rerouted_flows = 0;  // flows that moved at least once
  std::vector<std::string> notes;  // things the reader must know (flows that never completed, ...)
  PacketRunInfo packet;
};

// A packet run's ECN marks at resource r's egress port of class (priority) k; 0 without marking.
inline std::int64_t ecn_marks_of_class(const SimulationResult& r, std::uint32_t resource, std::uint32_t k) {
  const std::vector<std::int64_t>& marks = r.packet.ecn_marks_by_class;
  return marks.empty() ? 0 : marks[static_cast<std::size_t>(resource) * r.packet.vls + k];
}

// Whether record f's packets hold buffers of a deadlocked packet run's credit loop (false: it is
// not stalled there, or it is blocked behind the loop).
inline bool in_credit_loop(const SimulationResult& r, std::uint32_t f) {
  return std::binary_search(r.packet.deadlock_flows.begin(), r.packet.deadlock_flows.end(), f);
}

// Whether record f of a deadlocked packet run stalled because its path failed, not in or behind
// a credit loop.
inline bool stalled_by_fault(const SimulationResult& r, std::uint32_t f) {
  return std::binary_search(r.packet.fault_stalled_flows.begin(), r.packet.fault_stalled_flows.end(), f);
}

// A packet run's stop and mark figures summed over every port (the report's, JSON's and page's
// totals).
struct PortTotals {
  TimePs credit_stall{0};
  TimePs pause{0};
  std::int64_t pause_frames = 0;
  std::int64_t ecn_marks = 0;
};
inline PortTotals port_totals(const SimulationResult& r) {
  PortTotals t;
  for (const ResourceStats& s : r.stats) {
    t.credit_stall += s.credit_stall;
    t.pause += s.pause_time;
    t.pause_frames += s.pause_frames;
    t.ecn_marks += s.ecn_marks;
  }
  return t;
}

// The resources that carried traffic, busiest first: saturated time, then carried bits, then
// index (the order of the time series and of the report's bottleneck tables). Only the first
// `ranked` are put in that order (the rest follow, in no stated order): a caller that shows the top
// few of many thousand resources does not sort them all.
inline std::vector<std::uint32_t> busiest_resources(const SimulationResult& r,
                                                    std::size_t ranked = std::numeric_limits<std::size_t>::max()) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t c = 0; c < r.resources.size(); ++c) {
    if (r.resources[c].kind != ResourceKind::kBarrier && r.stats[c].carried_bits > 0) order.push_back(c);
  }
  const auto busier = [&](std::uint32_t a, std::uint32_t b) {
    const ResourceStats& x = r.stats[a];
    const ResourceStats& y = r.stats[b];
    if (x.saturated != y.saturated) return x.saturated > y.saturated;
    if (x.carried_bits != y.carried_bits) return x.carried_bits > y.carried_bits;
    return a < b;
  };
  if (ranked >= order.size()) {
    std::sort(order.begin(), order.end(), busier);
  } else {
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(ranked), order.end(), busier);
  }
  return order;
}

}  // namespace ct
