// The flow engine (sim/engine.h's contract): a compiled workload run on a built fabric by the fluid
// max-min engine (flow_engine.h). simulate() (sim/simulation.h) calls it for `--engine flow`.
//
//   flow_engine::run(fabric, scenario, workload, options): routing (sim/flow_router.h), the fault
//   timeline (sim/fault_timeline.h), the event loop (flow_engine.h), link statistics and time series
//   (sim/link_statistics.h), into the one result (sim/simulation_result.h)
//
// Constraints. The max-min model of the result's resources: one constraint per direction of every
// backend cable a flow uses (capacity = the link's, latency = the link's), one per GPU NVLink egress
// and ingress a flow uses (workload_compiler.h), and one barrier (resource kind kBarrier) on which
// the workload's joins run as zero-byte flows, so that an in-network collective's iterations wait
// for each other. They are numbered in order of first use: the links of the faults first, then
// flow by flow, batch by batch (a batch's fixed hops before its routed ones). Constraint i is
// resource i of the result. Each flow runs at its weighted max-min rate: its weight comes from
// options.flow.max_min_weights (the compiler's, sim/engine.h FlowOptions; the scenario's `weight:`),
// not from the workload, which carries no weights.
//
// Paths. Each route batch is routed together (sim/flow_router.h). Faults (sim/fault_timeline.h): a
// link's capacity changes at once (down: its flows stall); at routing's reconvergence every
// unfinished network flow is walked again: a flow whose path changed moves there with its remaining
// bytes (ECMP rehashing moves flows that never crossed the failed link too, as hash-threshold groups
// that change size do). A flow with no path left stays where it is and never completes.
//
// Statistics. Per constraint: bits carried and peak load (the engine's), time saturated and the
// load over time of the busiest (sim/link_statistics.h), flows that crossed it.
#pragma once

#include "core/result.h"
#include "fabric/fabric.h"
#include "sim/engine.h"
#include "sim/simulation_result.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct::flow_engine {

// PRECONDITION: workload = compile_workload(fabric, scenario) (and any flow table appended).
// Errors: a network flow with no path on the healthy fabric.
Result<SimulationResult> run(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                             const SimulationOptions& options);

}  // namespace ct::flow_engine
