// The engine contract: what every simulation engine is, so that a second one (a packet engine) can
// run the same workload beside the flow engine.
//
//   run(fabric, scenario, workload, options) -> Result<SimulationResult>
//
// An engine runs a compiled workload (workload/workload.h: flows, their fixed hops, joins and
// dependencies, route batches) on a built fabric, under the scenario's path model, seed and faults,
// and answers the one result type (sim/simulation_result.h). It takes from sim/ what every engine
// needs: routing a batch of flows (flow_router.h), the fault timeline (fault_timeline.h), link
// statistics and time series (link_statistics.h). simulate() (sim/simulation.h) checks the
// scenario, compiles the workload and calls the engine `options.engine` names.
//
// Engines: kFlow, the fluid max-min engine (sim/flow/flow_simulation.h, flow_engine::run);
// kPacket, the packet-level lossless engine of issue 26, not built yet (simulate() refuses it).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/result.h"
#include "core/units.h"
#include "fabric/fabric.h"
#include "sim/simulation_result.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

enum class EngineKind : std::uint8_t { kFlow, kPacket };

// "flow", "packet".
std::string_view engine_name(EngineKind engine);
std::optional<EngineKind> parse_engine(std::string_view name);
// Whether this build has the engine (the packet engine: not yet).
bool engine_built(EngineKind engine);

// Told about progress every few thousand instants (the CLI prints it on long runs).
class SimulationProgress {
 public:
  virtual ~SimulationProgress() = default;
  virtual void update(std::uint64_t flows_done, std::uint64_t flows_total, TimePs now) = 0;
};

struct SimulationOptions {
  EngineKind engine = EngineKind::kFlow;
  std::uint64_t max_flows = 40'000'000;  // refuse scenarios above this many flows
  std::uint32_t series_links = 16;       // time series for this many of the busiest resources
  std::uint32_t series_bins = 50;
  SimulationProgress* progress = nullptr;
};

// The signature every engine's run() has. PRECONDITION of each: workload = compile_workload(fabric,
// scenario) (with a flow table appended, if any).
using EngineRun = Result<SimulationResult> (*)(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                                               const SimulationOptions& options);

}  // namespace ct
