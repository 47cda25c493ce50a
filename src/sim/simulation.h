// A scenario run on a built fabric by an engine (sim/engine.h): the stage between "Fabric +
// Scenario" and "Result" (simulation_result.h).
//
//   simulate(fabric, scenario) = check_scenario (traffic/scenario_checks.h)
//                                -> compile_workload (workload/workload_compiler.h: the flows)
//                                -> append_flow_table (workload/flow_table_workload.h), if any
//                                -> the engine's run (options.engine; sim/engine.h)
//                                -> mark_collisions (collision_check.h)
#pragma once

#include "core/result.h"
#include "fabric/fabric.h"
#include "sim/engine.h"
#include "sim/simulation_result.h"
#include "traffic/flow_table.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

// The library entry point of `clustertwin simulate`, its tests and benchmarks.
// Errors: the engine is not built (kPacket), the scenario breaks a rule of check_scenario, a
// transfer between GPUs of one host when the catalog has no NVLink figure, more flows than
// max_flows, a flow with no path on the healthy fabric.
Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const SimulationOptions& options = {});
// The same with the flows of a flow table (traffic/flow_table.h) appended after the scenario's
// (workload/flow_table_workload.h); `flows` may be null. Errors as above, and NVLink flows of the
// table when the catalog has no NVLink figure.
Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                  const SimulationOptions& options = {});

// One scenario run by both engines, on one compiled workload (`simulate --compare-engines`):
// records, operations and phases correspond one for one; resources do not (each engine numbers
// those it uses in its own order, and the flow engine adds its barrier).
struct EngineRuns {
  SimulationResult flow;
  SimulationResult packet;
};
// The same errors as simulate(), from either engine (options.engine is ignored).
Result<EngineRuns> simulate_engines(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                    const SimulationOptions& options = {});

// The engine alone (options.engine), on a compiled workload, then the collision check.
// PRECONDITION: workload = compile_workload(fabric, scenario) (and any flow table appended).
Result<SimulationResult> run_engine(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                                    const SimulationOptions& options = {});

}  // namespace ct
