// Reading what `clustertwin simulate` runs: the scenario and the flow table. The scenario comes
// from the first of
//   1. a scenario file (traffic/scenario_parser.h);
//   2. the scenario flags (traffic/scenario_flags.h), when they name a collective or a fault;
//   3. with a flow table and nothing else, an empty scenario named "flows" (the spec's block is
//      not read: give a scenario file for faults);
//   4. the spec's own `scenario:` block;
// and the flow table (traffic/flow_table.h, the format `simulate --csv-flows` writes) adds its
// flows to the scenario's. A scenario with nothing to run and no flow table is a diagnostic.
// Every scenario flag either applies to the scenario chosen or is refused (a usage problem):
// --seed, --paths and --model apply to a file's scenario where the file does not set them, and a
// file that sets them otherwise is a conflict named at both places (traffic/scenario_flags.h
// apply_flags); --seed and --paths apply to a flow table alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/fabric.h"
#include "traffic/flow_table.h"
#include "traffic/scenario.h"
#include "traffic/scenario_flags.h"

namespace ct {

struct SimulationSources {
  std::string spec_path;
  std::string scenario_path;  // empty: none
  std::string flows_path;     // empty: none
  ScenarioFlags flags;
};

struct SimulationInputs {
  Scenario scenario;
  std::optional<FlowTable> flows;
  // Flags that would not apply, or that disagree with the scenario's file (traffic/scenario_flags.h
  // apply_flags): usage problems (exit 2). When not empty, nothing else was read.
  std::vector<std::string> usage;
};

Result<SimulationInputs> load_simulation_inputs(const SimulationSources& sources, const Fabric& fabric);

}  // namespace ct
