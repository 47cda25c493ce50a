#include "sim/simulation.h"

#include <array>
#include <optional>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "core/threads.h"
#include "sim/collision_check.h"
#include "sim/flow/flow_simulation.h"
#include "sim/packet/packet_simulation.h"
#include "traffic/scenario_checks.h"
#include "workload/flow_table_workload.h"
#include "workload/workload_compiler.h"

namespace ct {

std::string_view engine_name(EngineKind engine) { return engine == EngineKind::kPacket ? "packet" : "flow"; }

std::optional<EngineKind> parse_engine(std::string_view name) {
  if (name == "flow") return EngineKind::kFlow;
  if (name == "packet") return EngineKind::kPacket;
  return std::nullopt;
}

bool engine_built(EngineKind engine) { return engine == EngineKind::kFlow || engine == EngineKind::kPacket; }

namespace {

// The engines this build has, by kind; null where none is built yet.
EngineRun engine_run(EngineKind engine) {
  switch (engine) {
    case EngineKind::kFlow: return &flow_engine::run;
    case EngineKind::kPacket: return &packet_engine::run;
  }
  return nullptr;
}

Diagnostic not_built(const Scenario& scenario, EngineKind engine) {
  return Diagnostic{{scenario.file, 0, 0}, "engine",
                    fmt::format("the {} engine is not built yet (issue 26); the flow engine is", engine_name(engine))};
}

// Every engine's flow records report the weights (the flows CSV's `weight` column, which `--flows`
// reads back), whether the engine shares rates by them or not. Records are the workload's flows
// less the joins, in order.
void record_weights(const Workload& workload, std::span<const double> weights, SimulationResult& result) {
  if (weights.empty()) return;
  std::size_t record = 0;
  for (std::uint32_t f = 0; f < workload.flows.size(); ++f) {
    if (!workload.flows[f].join) result.flows[record++].weight = weights[f];
  }
}

}  // namespace

Result<SimulationResult> run_engine(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                                    const SimulationOptions& options) {
  const EngineRun run = engine_run(options.engine);
  if (run == nullptr) return not_built(scenario, options.engine);
  auto result = run(fabric, scenario, workload, options);
  if (result) {
    mark_collisions(fabric.topology(), result.value());
    record_weights(workload, options.flow.max_min_weights, result.value());
  }
  return result;
}

Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const SimulationOptions& options) {
  return simulate(fabric, scenario, nullptr, options);
}

namespace {

// The scenario's checks, its workload compiled, the flow table appended; `weights`, the flow
// engine's max-min weights (engine.h FlowOptions), filled beside it.
Result<Workload> prepare_workload(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                  const SimulationOptions& options, std::vector<double>& weights) {
  if (Diagnostics problems = scenario_diagnostics(scenario, fabric.topology()); !problems.empty()) return problems;
  if (fabric.lfts() != nullptr && !scenario.faults.empty()) {
    // The subnet manager's sweep after a cable goes (new LFTs, their upload) is not modelled: the
    // routes would stay those of the intact fabric.
    return Diagnostic{scenario.at.line > 0 ? scenario.at : SourceLocation{scenario.file, 0, 0}, "faults",
                      fmt::format("'{}': faults on a fabric routed by the subnet manager's LFTs (--ibnetdiscover) "
                                  "are not modelled (the SM's rerouting is not simulated); `clustertwin ib route "
                                  "--fail` shows the routes after a cable goes",
                                  scenario.faults.front().what)};
  }
  if (fabric.lfts() != nullptr && scenario.paths != PathModel::kEcmp) {
    // A subnet manager's LFTs give each destination one output port per switch: nothing to spray
    // over or adapt among (InfiniBand's adaptive routing is not modelled).
    return Diagnostic{scenario.at.line > 0 ? scenario.at : SourceLocation{scenario.file, 0, 0}, "paths",
                      fmt::format("paths '{}' on a fabric routed by the subnet manager's LFTs (--ibnetdiscover): "
                                  "the LFTs give one path per source and destination; use paths 'ecmp' (the default)",
                                  path_model_name(scenario.paths))};
  }
  auto workload = compile_workload(fabric, scenario, {options.max_flows}, &weights);
  if (!workload) return workload.errors();
  if (flows != nullptr) {
    if (workload->flows.size() + flows->flows.size() > options.max_flows) {
      return Diagnostic{{flows->file, 0, 0}, "flows",
                        fmt::format("{} flows with the scenario's, more than the limit of {}",
                                    workload->flows.size() + flows->flows.size(), options.max_flows)};
    }
    if (auto appended = append_flow_table(fabric, scenario, *flows, workload.value(), &weights); !appended) {
      return appended.errors();
    }
  }
  return workload;
}

}  // namespace

Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                  const SimulationOptions& options) {
  if (!engine_built(options.engine)) return not_built(scenario, options.engine);
  std::vector<double> weights;
  auto workload = prepare_workload(fabric, scenario, flows, options, weights);
  if (!workload) return workload.errors();
  SimulationOptions run_options = options;
  run_options.flow.max_min_weights = weights;
  return run_engine(fabric, scenario, workload.value(), run_options);
}

Result<EngineRuns> simulate_engines(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                    const SimulationOptions& options) {
  std::vector<double> weights;
  auto workload = prepare_workload(fabric, scenario, flows, options, weights);
  if (!workload) return workload.errors();
  // The two runs share only what they read (the fabric, whose routing is built once under a lock,
  // the scenario and the workload): on two threads, the packet run (the long one) reports progress
  // from the caller's thread and the flow run none.
  const bool together = options.threads != 1;
  std::array<std::optional<Result<SimulationResult>>, 2> runs;
  run_on_threads(together ? 2 : 1, [&](unsigned k) {
    for (unsigned e = k; e < 2; e += together ? 2 : 1) {
      SimulationOptions each = options;
      each.flow.max_min_weights = weights;
      each.engine = e == 0 ? EngineKind::kPacket : EngineKind::kFlow;
      if (together && e == 1) each.progress = nullptr;
      runs[e].emplace(run_engine(fabric, scenario, workload.value(), each));
    }
  });
  auto& packet = *runs[0];
  auto& flow = *runs[1];
  if (!flow) return flow.errors();
  if (!packet) return packet.errors();
  return EngineRuns{std::move(flow.value()), std::move(packet.value())};
}

}  // namespace ct
