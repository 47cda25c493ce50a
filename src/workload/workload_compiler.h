// Scenario + Fabric -> Workload (workload/workload.h): collectives expanded into GPU-to-GPU flows
// (traffic/collective.h plans them), transfers and mice into flows, SHARP into aggregation trees
// climbed on the fabric. Nothing here simulates; an engine runs the result (sim/engine.h).
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
// hashes alike, as a long-lived NCCL QP does: traffic/flow.h connection_source_port of the two
// ends (GPUs; ports for transfers between ports) and channel x qps + qp, under the scenario's
// seed, whatever the operation or its place in the file. A mouse is a connection of its own:
// the k-th mouse of a set between two ports is QP k of those ports. A transfer between two GPUs of one host is one NVLink
// flow. Transfers wait for their plan dependencies (traffic/collective.h); iteration k + 1's first
// transfers of a rank wait for the transfers of its last step in iteration k (both ends of the
// transfer) plus the compute time; iteration 0 starts at start + compute.
//
// NVLink constraints: a GPU's egress and ingress at half the catalog's per-GPU NVLink figure each
// (NVIDIA quotes both directions added: H100 900 GB/s = 450 GB/s each way); NVSwitch is taken as
// non-blocking and of no latency.
//
// SHARP (in-network all-reduce) as NCCL runs it with NVLink SHARP and switch SHARP (NVLS /
// CollNet): inside each host the NVSwitch reduces, each host sends one share per NIC port into
// the switches' aggregation tree, the result comes back down and the NVSwitch broadcasts it.
// Per instance and channel c (planes x rails by default, S_c = S / C), the channel's owner on each
// host is its (c mod k)-th member (k members there); the owner's NIC port on the channel's plane
// carries S_c up and S_c down. The tree: from each owner's leaf, the (c mod u)-th of each switch's u
// up-links (by LinkId; channels spread over the spines and cores), climbing until the climbs of all leaves meet (a leaf, a spine of one pod, or a
// core), on the healthy fabric; every tree edge carries one reduced stream S_c up and S_c down.
// NVLink (k > 1): member m's egress carries its contributions to the shares it does not own (the
// NVSwitch reads and reduces them) and the multicast of the shares it owns; its ingress the reduced
// shares it owns and the others' multicasts: S each way in all, against the ring's 2(k-1)/k S.
// Pipelined: all of it streams at once, one flow per member and direction on NVLink (S), one per
// NIC port and tree edge and direction (S_c). Stepwise: three stages separated by barriers, the
// NVLink reduction (egress: S - owned, ingress: owned), the switch tree, the NVLink broadcast
// (egress: owned, ingress: S - owned). Iterations are separated by a join (workload.h) that waits
// for all of the iteration's flows.
//
// Bound (WorkloadOperation::bound): per step of iteration 0, the largest bytes x 8 / capacity over
// the constraints its flows cannot avoid (fixed hops; NIC links at both ends of network flows),
// added over the steps: the closed form's bandwidth terms on a fabric without collisions.
#pragma once

#include <cstdint>
#include <vector>

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
// Max-min weights. The flow engine shares rates by weight (sim/flow/flow_engine.h); no other engine
// does, so the workload carries none. When `max_min_weights` is given it receives one weight per
// flow of the workload, in flow order: the scenario's `weight:` of the flow's collective, transfer
// or mice set, times, for a collective, the plan's share of the transfer (traffic/collective.h:
// a tree's chain edge weighs 2, a pipelined halving-doubling round 2^-k); 1 for joins.
// PRECONDITION: check_scenario(scenario, fabric.topology()) is empty (traffic/scenario_checks.h).
Result<Workload> compile_workload(const Fabric& fabric, const Scenario& scenario, const CompileOptions& options = {},
                                  std::vector<double>* max_min_weights = nullptr);

}  // namespace ct
