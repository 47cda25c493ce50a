// A scenario (traffic/scenario.h) run on a built fabric by the fluid engine (flow_engine.h): the
// stage between "Fabric + Scenario" and "Result" (simulation_result.h).
//
// Constraints. One per direction of every backend cable a flow uses (capacity = the link's, latency
// = the link's), and, for transfers between two GPUs of one host, the GPUs' NVLink egress and
// ingress at half the catalog's per-GPU NVLink figure each (NVIDIA quotes both directions added:
// H100 900 GB/s = 450 GB/s each way); NVSwitch is taken as non-blocking and of no latency.
//
// Flows. A GPU-to-GPU transfer between hosts on channel c runs on plane (c / m) mod planes, m the
// most GPUs of the group on one host (channels cycle through a node's GPUs, hence its rails, before
// the next plane), and arrives at the peer's NIC (rail g x rails / gpus for local GPU g). It leaves
// from the source host's NIC on the destination's rail (PXN, NCCL's default when NVLink joins the
// GPUs: rail-aligned traffic stays on its rail's leaf); when that NIC is not the source GPU's own,
// the data first crosses NVLink to the GPU that owns it (both NVLink constraints join the path).
// Default channels: planes x the distinct rails of the group's GPUs (one per NIC port). It is
// split into Q queue pairs (qps), each a flow of 1/Q of its bytes with its own RoCEv2 UDP source
// port, drawn once per connection (GPU pair, channel, QP) from Rng(seed, operation, connection) so
// every iteration and step of a connection hashes alike, as a long-lived NCCL QP does. A transfer
// between two GPUs of one host is one NVLink flow. Transfers wait for their plan dependencies
// (traffic/collective.h); iteration k + 1's first transfers of a rank wait for the transfers of its
// last step in iteration k (both ends of the transfer) plus the compute time; iteration 0 starts at
// start + compute.
// SHARP (in-network all-reduce): per instance and channel, an aggregation tree on plane c mod P:
// from each leaf holding a member port, the first live up-link of each switch, climbing until the
// climbs of all leaves meet (a leaf, a spine of one pod, or a core); every member's NIC link
// carries S_c up and S_c down, every tree edge S_c up and S_c down, all streaming at once (the
// switches reduce on the fly). Iterations are separated by a barrier.
//
// Paths. ECMP, spraying or adaptive (PathModel) through routing/load_balancing.h over the fabric's
// forwarding state (routing/forwarding_state.h) and hash configuration (routing/ecmp_config.h),
// routed one step of one operation at a time (adaptive balances a step's flows against each
// other). Faults: a link that goes down or comes back changes capacity at once (down: its flows
// stall); `convergence` later the forwarding state is rebuilt without the links then down, and every
// unfinished network flow is walked again: a flow whose path changed moves there with its remaining
// bytes (ECMP rehashing moves flows that never crossed the failed link too, as hash-threshold
// groups that change size do). A flow with no path left stays where it is and never completes.
// A degraded link keeps its routes (ECMP does not see capacity).
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.h"
#include "routing/ecmp_config.h"
#include "sim/flow/simulation_result.h"
#include "topology/topology.h"
#include "traffic/scenario.h"

namespace ct {

struct SimulationFabric {
  const Topology* topology = nullptr;
  EcmpConfig ecmp;
  std::optional<double> nvlink_bytes_per_s;  // per GPU, both directions added (catalog NodeModel)
};

// Told about progress every few thousand instants (the CLI prints it on long runs).
class SimulationProgress {
 public:
  virtual ~SimulationProgress() = default;
  virtual void update(std::uint64_t flows_done, std::uint64_t flows_total, TimePs now) = 0;
};

struct SimulationOptions {
  std::uint64_t max_flows = 40'000'000;  // refuse scenarios above this many flows
  std::uint32_t series_links = 16;       // time series for this many of the busiest constraints
  std::uint32_t series_bins = 50;
  SimulationProgress* progress = nullptr;
};

// Errors: a transfer between GPUs of one host when the catalog has no NVLink figure, more flows
// than max_flows, a flow with no path on the healthy fabric.
Result<SimulationResult> simulate_flows(const SimulationFabric& fabric, const Scenario& scenario,
                                        const SimulationOptions& options = {});

}  // namespace ct
