// clustertwin sweep SWEEP.yaml [--threads K] [--checkpoint DIR] [--csv FILE] [--jsonl FILE] [--json]
//                             [-o FILE] [--progress] [--quiet] [--catalog DIR]
// A design study over many points of a spec (sweep/sweep_file.h): every point validated first, the
// infeasible ones listed with the planner's reason, the others run on K threads; the rows per point
// x seed to --csv and --jsonl, the summary per point and the Pareto front to -o (text or --json),
// all committed together. The bytes do not depend on K, nor on a checkpoint's resumptions.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/progress.h"
#include "io/files.h"
#include "sweep/sweep_output.h"

namespace ct::cli {
namespace {

struct SweepCommandOptions {
  std::string sweep_path;
  std::string output;
  std::string csv;
  std::string jsonl;
  std::string checkpoint;
  bool json = false;
  unsigned threads = 1;
  ProgressFlags progress;
};

std::string progress_detail(const SweepProgress& p) {
  std::string s = fmt::format("{} running, {} failed", p.running, p.failed);
  if (p.eta_seconds >= 0) s += fmt::format(", about {:.0f} s left", p.eta_seconds);
  return s;
}

int run_sweep_command(const SweepCommandOptions& o, const Context& context) {
  auto text = read_text_file(o.sweep_path, "a sweep file");
  if (!text) return report_errors(text.errors());
  auto sweep = read_sweep(o.sweep_path, text.value());
  if (!sweep) return report_errors(sweep.errors());
  ProgressReporter reporter("sweep", "points", o.progress);
  SweepOptions options{.threads = o.threads, .checkpoint_dir = o.checkpoint};
  options.progress = [&](const SweepProgress& p) { reporter.update(p.done, p.total, progress_detail(p)); };
  auto run = run_sweep(sweep.value(), *context.catalog, options);
  reporter.finish();
  if (!run) return report_errors(run.errors());
  OutputSet outputs;
  if (!o.csv.empty()) outputs.stage(o.csv, sweep_rows_csv(sweep.value(), run.value()));
  if (!o.jsonl.empty()) outputs.stage(o.jsonl, sweep_rows_jsonl(sweep.value(), run.value()));
  outputs.stage(o.output, o.json ? sweep_report_json(sweep.value(), run.value()) : sweep_report_text(sweep.value(), run.value()));
  return commit(outputs);
}

}  // namespace

Runner setup_sweep(CLI::App& app, Context&) {
  auto o = std::make_shared<SweepCommandOptions>();
  app.add_option("sweep", o->sweep_path, "Sweep file (YAML): base spec, axes, seeds, studies, objectives")->required();
  app.add_flag("--json", o->json, "Print the summary and the front as JSON (stable key order)");
  app.add_option("--csv", o->csv, "Write one row per point x seed as CSV");
  app.add_option("--jsonl", o->jsonl, "Write one row per point x seed as JSON lines");
  app.add_option("--checkpoint", o->checkpoint, "Journal each finished point in DIR; a rerun computes only the others");
  add_threads_option(app, o->threads, "Points run at once (the output does not depend on it)");
  add_output_option(app, o->output);
  add_progress_options(app, o->progress);
  return [o](const Context& c) { return run_sweep_command(*o, c); };
}

}  // namespace ct::cli
