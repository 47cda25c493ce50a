// The packet engine (sim/engine.h's contract): a compiled workload run on a built fabric packet by
// packet (packet_engine.h). simulate() (sim/simulation.h) calls it for `--engine packet`.
//
//   packet_engine::run(fabric, scenario, workload, options): routing (sim/flow_router.h: the same
//   ECMP hashes, adaptive choices and forwarding tables as the flow engine), the fault timeline
//   (sim/fault_timeline.h), the event loop (packet_engine.h), link statistics and time series
//   (sim/link_statistics.h), into the one result (sim/simulation_result.h)
//
// Channels. One per direction of every backend cable a flow uses (rate = the link's capacity,
// propagation = the link's latency), one per GPU NVLink egress and ingress a flow uses (the
// catalog's NVLink rate, no propagation, unlimited credits); numbered in order of first use like
// the flow engine's resources, so resource i is channel i. A channel whose far end is a switch
// forwards after the switch's latency, cut-through or store-and-forward; the far end's buffer per
// VL (a switch's or a NIC's: the same figure) is buffer_bytes / 64 credits. The switch figures come
// from options.packet, else the catalog's switch model (catalog/switches.yaml), else the run is
// refused naming the figure.
// On an Ethernet backend (RoCE v2) the links run PFC instead of credits (packet_engine.h): per
// link, headroom = R (2 d + L) / 8 + 2 MTU, XOFF = buffer - headroom, XON = XOFF - 2 MTU; a buffer
// below headroom + MTU is refused.
//
// Flows. Workload flow i is engine flow i (joins: zero-byte flows with no path that complete when
// the flows they wait for do). A flow's VL is its channel mod vls.
//
// Spraying (paths: spray). Every switch sprays a flow's packets over the members of its ECMP
// group round robin, per port they came in on, in their order (routing/load_balancing.h
// sprayed_path: packet n takes member n mod k1 at its first group, (n / k1) mod k2 at the next,
// ...): each member of a k-way group carries 1/k of the flow's packets, exactly up to the
// remainder, the flow engine's fractions. The engine flow holds the paths of its first
// min(spray period, packets) packets (engine memory: that many paths x hops x 4 B per flow). The
// flow's record lists every channel with its share of those paths; a note counts the packets
// delivered out of order.
//
// SHARP. The flows of an all-reduce with algorithm sharp that cross one switch-tree edge (the
// workload compiler's aggregation trees) are gated and run by sim/packet/sharp_aggregation.h: one
// tree per operation, instance, iteration, stage and channel, reduced in its switches
// (options.packet.sharp_latency, sharp_trees, else the catalog's, else the run is refused naming
// the flag). The result's packet info counts the trees and their waits for a tree slot; a note
// says them.
//
// Faults. A link's rate changes in both directions at once; at routing's reconvergence every
// unfinished network flow is walked again and its packets not yet sent take the new path (a
// sprayed flow: its new paths; those
// already in the network keep theirs; a packet queued behind a link that is down waits for its
// repair: no transport retransmission is modelled).
//
// Statistics. Per channel: bits carried, busy time as saturated time (a channel sends at its line
// rate or not at all), peak load (its rate while sending), output-queue peak and mean, credit-stall
// time. A run that ends with packets waiting for credits reports the credit loop (the resources of
// the cycle, in order) in result.packet and as a note.
#pragma once

#include "core/result.h"
#include "fabric/fabric.h"
#include "sim/engine.h"
#include "sim/simulation_result.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct::packet_engine {

// PRECONDITION: workload = compile_workload(fabric, scenario) (and any flow table appended).
// Errors: a switch figure neither options.packet nor the catalog gives (SHARP's: when the workload
// has a SHARP tree), a buffer smaller than one packet, a network flow with no path on the healthy
// fabric, sprayed paths of unequal length.
Result<SimulationResult> run(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                             const SimulationOptions& options);

}  // namespace ct::packet_engine
