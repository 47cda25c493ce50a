// A scenario run on a built fabric by the fluid engine (flow_engine.h): the stage between
// "Fabric + Scenario" and "Result" (simulation_result.h).
//
//   simulate(fabric, scenario) = check_scenario (traffic/scenario_checks.h)
//                                -> compile_workload (workload/workload_compiler.h: the flows)
//                                -> run_workload (here: routing, faults, the event loop, statistics)
//
// Constraints. One per direction of every backend cable a flow uses (capacity = the link's, latency
// = the link's), one per GPU NVLink egress and ingress a flow uses (workload_compiler.h), and the
// barrier of in-network collectives. They are numbered in order of first use: the links of the
// faults first, then flow by flow, batch by batch (a batch's fixed hops before its routed ones).
//
// Paths. ECMP, spraying or adaptive (PathModel) through routing/load_balancing.h over the fabric's
// forwarding state and hash configuration, routed one batch (a step of one operation) at a time
// (adaptive balances a batch's flows against each other, taking them in an order of their ends,
// source port, bytes, start and weight, never of the input's order). Faults: a link that goes down or comes
// back changes capacity at once (down: its flows stall); `convergence` later the forwarding state is
// rebuilt without the links then down, and every unfinished network flow is walked again: a flow
// whose path changed moves there with its remaining bytes (ECMP rehashing moves flows that never
// crossed the failed link too, as hash-threshold groups that change size do). A flow with no path
// left stays where it is and never completes. A degraded link keeps its routes (ECMP does not see
// capacity).
//
// Statistics. Per constraint: bits carried, peak load, time saturated (>= 99.9 % of its capacity
// at the time), flows that crossed it; the load over time of the busiest constraints, in bins.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "fabric/fabric.h"
#include "sim/simulation_result.h"
#include "traffic/flow_table.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

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

// The library entry point of `clustertwin simulate`, its tests and benchmarks.
// Errors: the scenario breaks a rule of check_scenario, a transfer between GPUs of one host when
// the catalog has no NVLink figure, more flows than max_flows, a flow with no path on the healthy
// fabric.
Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const SimulationOptions& options = {});
// The same with the flows of a flow table (traffic/flow_table.h) appended after the scenario's
// (workload/flow_table_workload.h); `flows` may be null. Errors as above, and NVLink flows of the
// table when the catalog has no NVLink figure.
Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                  const SimulationOptions& options = {});

// The engine driver alone, on a compiled workload (the scenario gives the path model, seed and
// faults). PRECONDITION: workload = compile_workload(fabric, scenario).
Result<SimulationResult> run_workload(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                                      const SimulationOptions& options = {});

}  // namespace ct
