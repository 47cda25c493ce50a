// Scenario + Fabric -> Workload (workload/workload.h): collectives expanded into GPU-to-GPU flows
// (traffic/collective.h plans them), transfers and mice into flows, SHARP into aggregation trees
// climbed on the fabric. Nothing here simulates; sim/flow/flow_simulation.h runs the result.
//
// Flows. A GPU-to-GPU transfer between hosts on channel c runs on plane (c / m) mod planes, m the
// most GPUs of the group on one host (channels cycle through a node's GPUs, hence its rails, before
// the next plane), and arrives at the peer's NIC (rail g x rails / gpus for local GPU g). It leaves
// from the source host's NIC on the destination's rail (PXN, NCCL's default when NVLink joins the
// GPUs: rail-aligned traffic stays on its rail's leaf); when that NIC is not the source GPU's own,
// the data first crosses NVLink to the GPU that owns it (both NVLink constraints lead the path).
// Default channels: planes x the distinct rails of the group's GPUs (one per NIC port). It is
// split into Q queue pairs (qps), each a flow of 1/Q of its bytes with its own RoCEv2 UDP source
// port, fixed per connection (GPU pair, channel, QP) so every iteration and step of a connection
// hashes alike, as a long-lived NCCL QP does. A transfer between two GPUs of one host is one NVLink
// flow. Transfers wait for their plan dependencies (traffic/collective.h); iteration k + 1's first
// transfers of a rank wait for the transfers of its last step in iteration k (both ends of the
// transfer) plus the compute time; iteration 0 starts at start + compute.
//
// NVLink constraints: a GPU's egress and ingress at half the catalog's per-GPU NVLink figure each
// (NVIDIA quotes both directions added: H100 900 GB/s = 450 GB/s each way); NVSwitch is taken as
// non-blocking and of no latency.
//
// SHARP (in-network all-reduce): per instance and channel, an aggregation tree on plane c mod P:
// from each leaf holding a member port, the first up-link of each switch (lowest LinkId), climbing
// until the climbs of all leaves meet (a leaf, a spine of one pod, or a core), on the healthy
// fabric; every member's NIC link carries S_c up and S_c down, every tree edge S_c up and S_c
// down, all streaming at once (the switches reduce on the fly). Iterations are separated by a
// barrier flow that waits for all of the iteration's flows.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "fabric/fabric.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

struct CompileOptions {
  std::uint64_t max_flows = 40'000'000;  // refuse scenarios above this many flows
};

// Errors (one diagnostic at the scenario file): a transfer between GPUs of one host when the
// catalog has no NVLink figure, more flows than max_flows.
// PRECONDITION: check_scenario(scenario, fabric.topology()) is empty (traffic/scenario_checks.h).
Result<Workload> compile_workload(const Fabric& fabric, const Scenario& scenario, const CompileOptions& options = {});

}  // namespace ct
