#include "io/scenario_files.h"

#include "io/files.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

const SourceLocation kCommandLine{"command line", 0, 0};

Result<Scenario> load_scenario(const SimulationSources& s, const Fabric& fabric) {
  if (!s.scenario_path.empty()) {
    auto text = read_text_file(s.scenario_path, "a scenario file");
    if (!text) return text.errors();
    return parse_scenario(s.scenario_path, text.value(), fabric);
  }
  if (s.flags.any()) return build_flag_scenario(s.flags, fabric.names());
  if (!s.flows_path.empty()) {
    Scenario flows_only;
    flows_only.file = s.flows_path;
    flows_only.name = "flows";
    flows_only.seed = s.flags.seed;
    return flows_only;
  }
  auto spec_text = read_text_file(s.spec_path, "a spec file");
  if (spec_text && has_scenario_block(spec_text.value())) {
    return parse_scenario(s.spec_path, spec_text.value(), fabric);
  }
  return Diagnostic{kCommandLine, "--scenario",
                    "nothing to simulate: give --scenario FILE, a `scenario:` block in the spec, or --collective KIND "
                    "--bytes SIZE"};
}

}  // namespace

Result<SimulationInputs> load_simulation_inputs(const SimulationSources& sources, const Fabric& fabric) {
  auto scenario = load_scenario(sources, fabric);
  if (!scenario) return scenario.errors();
  SimulationInputs in{std::move(scenario).value(), std::nullopt};
  if (!sources.flows_path.empty()) {
    auto bytes = read_text_file(sources.flows_path, "a flow table");
    if (!bytes) return bytes.errors();
    auto table = parse_flow_table(sources.flows_path, bytes.value(), fabric.names());
    if (!table) return table.errors();
    in.flows = std::move(table).value();
  }
  const Scenario& s = in.scenario;
  if (s.empty() && !in.flows) {
    return Diagnostic{s.at.line > 0 ? s.at : SourceLocation{s.file, 0, 0}, "scenario",
                      "the scenario has no collective, transfer or mice (add one, or give --flows FILE)"};
  }
  return in;
}

}  // namespace ct
