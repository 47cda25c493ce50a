// A scenario compiled for a fabric (workload/workload_compiler.h): every flow the engine will run,
// what each waits for, and the fixed hops of the flows the fabric does not route (NVLink transfers,
// the PXN hop in front of a network flow, SHARP aggregation trees, iteration barriers). Plain data
// in dense arrays and CSR pools, in creation order, so that it can be compared whole in a test.
//
//   Scenario + Fabric --compile_workload--> Workload --an engine (sim/engine.h)--> SimulationResult
//
// Flow i of the workload is flow i of the engine. Network flows (`routed`) get their network hops
// from the fabric's routing when the engine driver runs, batch by batch (`batch_begin`: the flows
// of one step of one operation are routed together, so adaptive routing balances them against each
// other); their `hops` are only the PXN prefix. Joins (the iteration barriers of an in-network
// collective: no bytes, no hops, done when the flows they wait for are) order the flows but are not
// reported; each engine makes of them what it needs (the flow engine: a zero-byte flow on a barrier
// resource of its own). Nothing here belongs to one engine: no max-min constraints, no barrier hop,
// no max-min weights (the compiler hands those to the flow engine apart: workload_compiler.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/units.h"

namespace ct {

inline constexpr std::uint32_t kNoGpu = 0xFFFF'FFFFU;
inline constexpr std::uint32_t kNoIndex = 0xFFFF'FFFFU;

enum class OperationKind : std::uint8_t { kCollective, kTransfer, kMice };

// What a hop of a flow crosses: one direction of a cable, or a GPU's NVLink egress or ingress.
enum class HopKind : std::uint8_t { kLinkUp, kLinkDown, kNvlinkOut, kNvlinkIn };

// One hop of a fixed path: `index` is the LinkId (kLinkUp: from the link's a end to its b end,
// kLinkDown: back) or the global GPU id (kNvlinkOut / kNvlinkIn).
struct Hop {
  HopKind kind = HopKind::kLinkUp;
  std::uint32_t index = 0;
  friend bool operator==(const Hop&, const Hop&) = default;
};

// What a flow is, as the workload made it and as the simulation's record reports it.
struct FlowIdentity {
  std::uint32_t operation = kNoIndex;  // kNoIndex for joins
  std::uint32_t instance = 0;  // collective: group index; transfer: 0; mice: flow index in the set
  std::uint32_t iteration = 0;
  std::uint32_t step = 0;
  std::uint32_t channel = 0;
  std::uint32_t qp = 0;
  std::uint32_t worker = kNoIndex;  // index into the workers: the sender
  std::uint32_t src_gpu = kNoGpu;
  std::uint32_t dst_gpu = kNoGpu;
  std::uint32_t via_gpu = kNoGpu;  // PXN: the GPU on the destination's rail the data reaches by NVLink
  VertexId src_port;  // network flows; invalid for NVLink and switch-tree flows
  VertexId dst_port;
  std::uint16_t src_udp_port = 0;
  Bytes bytes{0};
};

struct WorkloadFlow : FlowIdentity {
  TimePs start{0};  // earliest start
  TimePs delay{0};  // after the last flow it waits for
  bool routed = false;    // network flow: hops appended by the fabric's routing
  bool join = false;      // iteration barrier: no bytes, no hops, waits for `after`; not reported
  std::uint32_t hops_begin = 0;  // into Workload::hops
  std::uint32_t hops_size = 0;
  std::uint32_t after_begin = 0;  // into Workload::after
  std::uint32_t after_size = 0;
};

// What an operation is, as the workload compiled it and as the simulation's result reports it.
struct OperationIdentity {
  std::string name;
  OperationKind kind = OperationKind::kCollective;
  std::string what;  // "all-reduce ring", "transfer host0/gpu0 -> host4/gpu0", "mice 2000 x 65536 B"
  std::uint32_t phase = kNoIndex;  // index into the phases (mice: none)
  std::uint32_t instances = 1;     // collective groups (per-rail: one per rail)
  std::uint32_t ranks = 0;         // GPUs per instance
  double bus_factor = 1.0;         // nccl-tests: busbw = algbw x bus_factor
  Bytes bytes{0};                  // per instance (collective: S of nccl-tests)
  TimePs compute{0};
  std::uint32_t steps = 1;         // steps compiled (and simulated) per iteration
  std::uint32_t total_steps = 1;   // steps of the whole collective (more than `steps`: a partial run)
  // The least time of one iteration on a fabric without collisions (the bandwidth terms of the
  // closed form: per step the busiest NIC, NVLink or switch-tree edge, steps added); 0 for
  // transfers and mice.
  TimePs bound{0};
};

struct WorkloadOperation : OperationIdentity {
  std::uint32_t iterations = 1;
  std::uint32_t records_begin = 0;  // its reported flows: the flows other than joins [begin, end) in order
  std::uint32_t records_end = 0;
};

struct WorkloadPhase {
  std::string name;
  TimePs start{-1};
  std::uint32_t workers_begin = 0;
  std::uint32_t workers_end = 0;
};

struct WorkloadWorker {
  std::string name;  // "host3/gpu2", "host0/nic1/p0"
  std::uint32_t phase = 0;
  TimePs compute{0};  // total compute time in the phase (iterations x compute)
};

struct Workload {
  std::vector<WorkloadFlow> flows;
  std::vector<Hop> hops;             // fixed hops, CSR by flow
  std::vector<std::uint32_t> after;  // flows waited for (earlier indices), CSR by flow
  std::vector<std::uint32_t> batch_begin{0};  // route batches: flows [batch_begin[b], batch_begin[b + 1])
  std::vector<WorkloadOperation> operations;
  std::vector<WorkloadPhase> phases;
  std::vector<WorkloadWorker> workers;
  std::vector<std::string> notes;  // what the reader must know (a partial run, PXN hops left out)

  [[nodiscard]] std::span<const Hop> hops_of(std::uint32_t f) const {
    return {hops.data() + flows[f].hops_begin, flows[f].hops_size};
  }
  [[nodiscard]] std::span<const std::uint32_t> after_of(std::uint32_t f) const {
    return {after.data() + flows[f].after_begin, flows[f].after_size};
  }
  [[nodiscard]] std::size_t batch_count() const { return batch_begin.size() - 1; }
};

}  // namespace ct
