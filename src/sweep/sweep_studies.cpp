#include "sweep/sweep_studies.h"

#include <fmt/format.h>

#include "analysis/hash_study.h"
#include "analysis/operation_figures.h"
#include "analysis/straggler.h"
#include "sim/simulation.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

// The scenario's first error as a row's reason: "scenario straggler (file:12): field: words".
Diagnostics located(const std::string& scenario, const Diagnostics& errors) {
  Diagnostic d = errors.front();
  const std::string at = d.where.line > 0 ? fmt::format(" ({}:{})", d.where.file, d.where.line) : "";
  d.message = fmt::format("scenario {}{}: {}{}", scenario, at, d.field.empty() ? "" : d.field + ": ", d.message);
  d.field.clear();
  return {d};
}

std::optional<double> positive(double seconds) { return seconds >= 0 ? std::optional<double>(seconds) : std::nullopt; }

}  // namespace

Result<SweepMetrics> simulate_study_metrics(const SweepStudies& studies, const Fabric& fabric, std::uint64_t seed) {
  SweepMetrics out;
  SimulationOptions options;
  options.engine = parse_engine(studies.engine).value_or(EngineKind::kFlow);
  for (const SweepScenario& s : studies.scenarios) {
    auto scenario = parse_scenario(s.file, s.text, fabric, seed);
    if (!scenario) return located(s.name, scenario.errors());
    auto result = simulate(fabric, scenario.value(), options);
    if (!result) return located(s.name, result.errors());
    const WorkerAccount workers = account_workers(result.value());
    out.push_back(result->unbounded ? std::nullopt : std::optional<double>(to_seconds(result->makespan)));
    out.push_back(workers.waiting_share);
    for (const std::string& name : s.operations) {
      const OperationResult* op = nullptr;
      for (const OperationResult& o : result->operations) {
        if (o.name == name) op = &o;
      }
      if (op == nullptr) return Diagnostic{s.where, "scenarios", fmt::format("scenario {}: no operation '{}' at this point", s.name, name)};
      const auto busbw = busbw_bytes_per_second(*op);
      out.push_back(op->complete ? positive(mean_iteration_seconds(*op)) : std::nullopt);
      out.push_back(busbw ? std::optional<double>(*busbw / 1e9) : std::nullopt);
    }
  }
  return out;
}

Result<SweepMetrics> hash_study_metrics(const SweepStudies& studies, const Fabric& fabric, std::uint64_t seed,
                                        const HashTrials& trials) {
  HashStudyOptions o;
  o.elephants = studies.hash_elephants;
  o.ring = studies.hash_ring;
  o.trials = studies.hash_trials;
  o.seed = seed;
  o.threads = 1;
  o.compare = studies.hash_compare;
  o.where = {"sweep hash study", 0, 0};
  if (trials.kept != nullptr) {
    o.first_trial = trials.first;
    o.trials = trials.count;
  }
  o.gathered = trials.gathered;
  auto study = study_hash(fabric, o);
  if (!study) return study.errors();
  if (trials.kept != nullptr) *trials.kept = {study->monte_carlo->outcomes, study->comparison_measures};
  const MonteCarloResult& mc = *study->monte_carlo;
  SweepMetrics out = {mc.p_any_collision, mc.p_first_collision, mc.closed.p_collision};
  if (studies.hash_compare) {
    for (const SchemeRow& row : *study->comparison) {
      out.push_back(row.applicable ? std::optional<double>(row.slowest / 1e9) : std::nullopt);
    }
  }
  return out;
}

}  // namespace ct
