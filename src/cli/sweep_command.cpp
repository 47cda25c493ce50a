// clustertwin sweep SWEEP.yaml [--threads K] [--checkpoint DIR] [--csv FILE] [--jsonl FILE] [--json]
//                             [-o FILE] [--html FILE] [--progress] [--quiet] [--catalog DIR]
// A design study over many points of a spec (sweep/sweep_file.h): every point validated first, the
// infeasible ones listed with the planner's reason, the others run on K threads; the rows per point
// x seed to --csv and --jsonl, the summary per point and the Pareto front to -o (text or --json),
// all committed together. The bytes do not depend on K, nor on a checkpoint's resumptions. Under
// mpirun the MPI runner beside the binary takes over (cli/sweep_command.h).
#include "cli/sweep_command.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "cli/progress.h"
#include "io/files.h"
#include "report/sweep_html.h"
#include "sweep/sweep_output.h"

namespace ct::cli {
namespace {

// Replaces this process by clustertwin-sweep-mpi with the same arguments, less the subcommand.
// Returns only when that fails.
int exec_mpi_runner() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (std::size_t start = 0, end; start < all.size(); start = end + 1) {
    end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    args.push_back(all.substr(start, end - start));
  }
  const auto runner = std::filesystem::read_symlink("/proc/self/exe").parent_path() / "clustertwin-sweep-mpi";
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "sweep") {
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  args[0] = runner.string();
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(runner.c_str(), argv.data());
  std::cerr << "clustertwin: error: started by mpirun, but the MPI runner " << runner.string()
            << " cannot be run (built without Open MPI?); run the sweep without mpirun and --threads\n";
  return kExitInputError;
}

int run_sweep_command(const SweepCommandOptions& o, const Context& context) {
  if (std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr) return exec_mpi_runner();
  auto sweep = load_sweep(o.sweep_path, *context.catalog);
  if (!sweep) return report_errors(sweep.errors());
  ProgressReporter reporter("sweep", "points", o.progress);
  SweepOptions options{.threads = o.threads, .checkpoint_dir = o.checkpoint};
  options.progress = [&](const SweepProgress& p) { reporter.update(p.done, p.total, sweep_progress_detail(p)); };
  auto run = run_sweep(sweep.value(), *context.catalog, options);
  reporter.finish();
  if (!run) return report_errors(run.errors());
  return write_sweep(o, sweep.value(), run.value());
}

}  // namespace

void add_sweep_options(CLI::App& app, SweepCommandOptions& o) {
  app.add_option("sweep", o.sweep_path, "Sweep file (YAML): base spec, axes, seeds, studies, objectives")->required();
  app.add_flag("--json", o.json, "Print the summary and the front as JSON (stable key order)");
  app.add_option("--csv", o.csv, "Write one row per point x seed as CSV");
  app.add_option("--jsonl", o.jsonl, "Write one row per point x seed as JSON lines");
  add_html_option(app, o.html);
  app.add_option("--checkpoint", o.checkpoint, "Journal each finished point in DIR; a rerun computes only the others");
  add_threads_option(app, o.threads, "Points run at once (the output does not depend on it)");
  add_output_option(app, o.output);
  add_progress_options(app, o.progress);
}

std::string sweep_progress_detail(const SweepProgress& p) {
  std::string s = fmt::format("{} running, {} failed", p.running, p.failed);
  if (p.eta_seconds >= 0) s += fmt::format(", about {:.0f} s left", p.eta_seconds);
  return s;
}

std::string mpi_command_line(int argc, char** argv, int ranks) {
  std::string line = fmt::format("mpirun -np {} clustertwin sweep", ranks);
  for (const std::string& a : result_arguments(argc, argv)) {
    line += a.find_first_of(" '\"$\\") == std::string::npos ? " " + a : " '" + a + "'";
  }
  return line;
}

Result<SweepFile> load_sweep(const std::string& path, const Catalog& catalog) {
  auto text = read_text_file(path, "a sweep file");
  if (!text) return text.errors();
  return read_sweep(path, text.value(), catalog);
}

int write_sweep(const SweepCommandOptions& o, const SweepFile& sweep, const SweepRun& run) {
  if (!o.checkpoint.empty() && !o.progress.quiet) {
    std::cerr << fmt::format("sweep: {} of {} points computed, {} from the checkpoint\n", run.computed,
                             run.points.size(), run.points.size() - run.computed);
  }
  OutputSet outputs;
  if (!o.csv.empty()) outputs.stage(o.csv, sweep_rows_csv(sweep, run), "--csv");
  if (!o.jsonl.empty()) outputs.stage(o.jsonl, sweep_rows_jsonl(sweep, run), "--jsonl");
  return emit_report(outputs, o.output, o.json ? sweep_report_json(sweep, run) : sweep_report_text(sweep, run), o.html,
                     [&] { return sweep_html(sweep, run, o.command_line); });
}

Runner setup_sweep(CLI::App& app, Context&) {
  auto o = std::make_shared<SweepCommandOptions>();
  add_sweep_options(app, *o);
  return [o](const Context& c) {
    o->command_line = c.command_line;
    return run_sweep_command(*o, c);
  };
}

}  // namespace ct::cli
