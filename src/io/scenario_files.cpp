#include "io/scenario_files.h"

#include "io/files.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

const SourceLocation kCommandLine{"command line", 0, 0};

// A scenario read from `file` with the flags applied to it (traffic/scenario_flags.h apply_flags).
Result<Scenario> from_file(const std::string& file, const std::string& text, const Fabric& fabric,
                           const ScenarioFlags& flags, std::vector<std::string>& usage) {
  auto scenario = parse_scenario(file, text, fabric, flags.was_given("--seed") ? flags.seed : 1);
  if (!scenario) return scenario.errors();
  FlagProblems problems = apply_flags(flags, file, scenario.value());
  if (!problems.errors.empty()) return problems.errors;
  usage = std::move(problems.usage);
  return scenario;
}

Result<Scenario> load_scenario(const SimulationSources& s, const Fabric& fabric, std::vector<std::string>& usage) {
  if (!s.scenario_path.empty()) {
    auto text = read_text_file(s.scenario_path, "a scenario file");
    if (!text) return text.errors();
    return from_file(s.scenario_path, text.value(), fabric, s.flags, usage);
  }
  if (s.flags.any()) {
    usage = unused_flags(s.flags, "");
    if (!usage.empty()) return Scenario{};
    return build_flag_scenario(s.flags, fabric.names());
  }
  if (!s.flows_path.empty()) {
    Scenario flows_only;
    flows_only.file = s.flows_path;
    flows_only.name = "flows";
    FlagProblems problems = apply_flags(s.flags, "--flows", flows_only);
    if (!problems.errors.empty()) return problems.errors;
    usage = std::move(problems.usage);
    return flows_only;
  }
  auto spec_text = read_text_file(s.spec_path, "a spec file");
  if (spec_text && has_scenario_block(spec_text.value())) {
    return from_file(s.spec_path, spec_text.value(), fabric, s.flags, usage);
  }
  if (auto unused = unused_flags(s.flags, ""); !unused.empty()) {
    usage = std::move(unused);
    return Scenario{};
  }
  return Diagnostic{kCommandLine, "--scenario",
                    "nothing to simulate: give --scenario FILE, a `scenario:` block in the spec, or --collective KIND "
                    "--bytes SIZE"};
}

}  // namespace

Result<SimulationInputs> load_simulation_inputs(const SimulationSources& sources, const Fabric& fabric) {
  std::vector<std::string> usage;
  auto scenario = load_scenario(sources, fabric, usage);
  if (!scenario) return scenario.errors();
  SimulationInputs in{std::move(scenario).value(), std::nullopt, std::move(usage)};
  if (!in.usage.empty()) return in;
  if (!sources.flows_path.empty()) {
    // Read a piece at a time as it is parsed: the table is held, never its whole text.
    auto source = FileTextSource::open(sources.flows_path, "a flow table");
    if (!source) return source.errors();
    auto table = parse_flow_table(sources.flows_path, *source.value(), fabric.names());
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
