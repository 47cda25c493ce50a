// clustertwin reliability SPEC [--trials N] [--seed S] [--threads T] [--repair-hours H] [--json]
//                              [--job-gpus N] [--horizon-days D] [--checkpoint-hours H]
//                              [--restart-minutes M] [--comm-fraction C] [--spare-hosts N]
//                              [--degraded drain|continue] [--split ecmp|adaptive]
//                              [--progress] [--quiet] [-o FILE] [--html FILE] [--catalog DIR]
// Failure probabilities of the backend network and what they cost a training job, for the spec's
// design and for the same cluster with 1, 2 and 4 planes (analysis/reliability_study.h). The
// options override the spec's reliability: block, which overrides the defaults.
#include <algorithm>
#include <memory>
#include <string>

#include "analysis/reliability_study.h"
#include "cli/choice_option.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "report/reliability_html.h"
#include "report/reliability_report.h"

namespace ct::cli {
namespace {

struct ReliabilityOptions {
  std::string output;
  std::string html;
  bool json = false;
  int trials = 1000;
  std::uint64_t seed = 1;
  int threads = 0;
  // Negative: not given on the command line.
  double repair_hours = -1;
  long long job_gpus = -1;
  double horizon_days = -1;
  double checkpoint_hours = -1;
  double restart_minutes = -1;
  double comm_fraction = -1;
  long long spare_hosts = -1;
  std::string degraded;
  std::string split;
  ProgressFlags progress;
};

// The command line over the spec's reliability: block. --repair-hours fills every element kind
// whose repair time neither the spec nor the catalog gives.
void apply_options(const ReliabilityOptions& o, const Catalog& catalog, ReliabilityInputs& in) {
  JobPolicy& job = in.job;
  if (o.job_gpus > 0) job.gpus = o.job_gpus;
  if (o.horizon_days > 0) job.horizon_hours = 24 * o.horizon_days;
  if (o.checkpoint_hours > 0) job.checkpoint_hours = o.checkpoint_hours;
  if (o.restart_minutes >= 0) job.restart_hours = o.restart_minutes / 60;
  if (o.comm_fraction >= 0) job.comm_fraction = o.comm_fraction;
  if (o.spare_hosts >= 0) job.spare_hosts = o.spare_hosts;
  if (!o.degraded.empty()) {
    job.degraded = o.degraded == "drain" ? DegradedPolicy::kDrainAtCheckpoint : DegradedPolicy::kContinue;
  }
  if (!o.split.empty()) in.split = o.split == "adaptive" ? PathSplit::kAdaptive : PathSplit::kEcmp;
  if (o.repair_hours <= 0) return;
  for (int k = 0; k < kFailureElementCount; ++k) {
    const bool catalog_has = std::any_of(catalog.failure_rates.begin(), catalog.failure_rates.end(), [&](const auto& r) {
      return static_cast<int>(r.element) == k && r.mttr_hours.has_value();
    });
    if (!in.repair_hours[k] && !catalog_has) in.repair_hours[k] = o.repair_hours;
  }
}

int run_reliability(const ReliabilityOptions& options, const Context& context) {
  const ValidSpec& valid = context.fabric->spec();
  if (options.job_gpus > valid.gpu_count()) {
    return report_errors({flag_error("--job-gpus", "more GPUs than the cluster's " + std::to_string(valid.gpu_count()))});
  }
  ReliabilityInputs inputs = reliability_inputs(valid.reliability);
  apply_options(options, *context.catalog, inputs);
  ProgressReporter progress("reliability", "trials", options.progress);
  const ReliabilityTrials mc{
      .seed = options.seed, .trials = options.trials, .threads = options.threads, .progress = progress.callback()};
  auto study = study_reliability(*context.fabric, *context.raw_spec, inputs, mc);
  progress.finish();
  if (!study) return report_errors(study.errors());
  return emit_report(options.output, options.json ? to_json(study.value()) : to_text(study.value()), options.html,
                     [&] { return reliability_html(study.value(), context.command_line); });
}

}  // namespace

Runner setup_reliability(CLI::App& app, Context& context) {
  auto o = std::make_shared<ReliabilityOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_flag("--json", o->json, "Print JSON (stable key order) instead of tables");
  app.add_option("--trials", o->trials, "Monte Carlo trials")->check(CLI::Range(1, 10'000'000))->capture_default_str();
  add_seed_option(app, o->seed, "Monte Carlo seed");
  add_threads_option(app, o->threads, "Worker threads (results do not depend on it)");
  app.add_option("--repair-hours", o->repair_hours,
                 "Mean time to repair for every element kind the spec and the catalog give none for")
      ->check(CLI::PositiveNumber);
  app.add_option("--job-gpus", o->job_gpus, "GPUs the job spans (default: the spec's, else all)")
      ->check(CLI::PositiveNumber);
  app.add_option("--horizon-days", o->horizon_days, "Horizon of the Monte Carlo (default 30)")->check(CLI::PositiveNumber);
  app.add_option("--checkpoint-hours", o->checkpoint_hours, "Checkpoint interval (default 2)")->check(CLI::PositiveNumber);
  app.add_option("--restart-minutes", o->restart_minutes, "Restart cost (default 5)")->check(CLI::NonNegativeNumber);
  app.add_option("--comm-fraction", o->comm_fraction, "Share of step time at the collective's pace (default 1)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--spare-hosts", o->spare_hosts, "Spare hosts (default: one per 16 job hosts)")
      ->check(CLI::NonNegativeNumber);
  add_choice_option(app, "--degraded", o->degraded, {"drain", "continue"},
                    "A GPU short of planes: drain (at the next checkpoint) or continue");
  add_choice_option(app, "--split", o->split, {"ecmp", "adaptive"}, "Traffic over paths after a failure: ecmp (static) or adaptive");
  add_progress_options(app, o->progress);
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_reliability(*o, c); };
}

}  // namespace ct::cli
