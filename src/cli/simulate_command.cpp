// clustertwin simulate SPEC [--scenario FILE] [--json] [--csv-links FILE] [--csv-flows FILE]
//                          [--csv-series FILE] [--top N] [-o FILE] [--catalog DIR]
//                          [--collective KIND --bytes SIZE [--algorithm A] [--gpus SEL] [--channels N]
//                           [--qps N] [--iterations N] [--compute DUR] [--steps N]]
//                          [--paths ecmp|spray|adaptive] [--seed N] [--degrade LINK=FRACTION[@TIME]]
//                          [--fail LINK@TIME] [--repair LINK@TIME] [--convergence DUR]
// Runs a workload on the built fabric with the fluid engine and reports collective times, algbw
// and busbw, the workers' waiting time, and the bottleneck links. The scenario comes from
// --scenario, else from the flags (turned into the same YAML, so they are checked the same way;
// their diagnostics name "<command line>"), else from the spec's own `scenario:` block.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "analysis/straggler.h"
#include "cli/command.h"
#include "io/files.h"
#include "io/loaders.h"
#include "report/simulate_report.h"
#include "routing/ecmp_config.h"
#include "sim/flow/flow_simulation.h"
#include "topology/builder.h"
#include "traffic/scenario_parser.h"

namespace ct::cli {
namespace {

constexpr const char* kCommandLine = "<command line>";

struct SimulateOptions {
  std::string output;
  std::string scenario_path;
  bool json = false;
  std::string csv_links;
  std::string csv_flows;
  std::string csv_series;
  std::size_t top = 10;
  // Scenario from flags.
  std::string collective;
  std::string algorithm;
  std::string gpus = "all";
  std::string bytes;
  unsigned channels = 0;
  unsigned qps = 0;
  unsigned iterations = 1;
  std::string compute;
  unsigned steps = 0;
  std::string paths = "ecmp";
  unsigned long long seed = 1;
  std::vector<std::string> degrade;
  std::vector<std::string> fail;
  std::vector<std::string> repair;
  std::string convergence;
};

// Progress on stderr once a run has taken two seconds, at most once a second.
class StderrProgress final : public SimulationProgress {
 public:
  void update(std::uint64_t done, std::uint64_t total, TimePs now) override {
    const auto t = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(t - start_).count();
    if (elapsed < 2.0 || std::chrono::duration<double>(t - last_).count() < 1.0) return;
    last_ = t;
    printed_ = true;
    std::fprintf(stderr, "\rsimulating: %llu of %llu flows done, simulated time %.6f s, %.0f s elapsed ",
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), to_seconds(now), elapsed);
  }
  // Ends the progress line, if one was printed.
  void finish() {
    if (printed_) std::fputs("\n", stderr);
    printed_ = false;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_;
  bool printed_ = false;
};

// "p0/leaf/0 -- p0/spine/3" is a link; "host0/nic0" a port; "p0/spine/3" a switch; digits a link id.
void emit_selector(YAML::Emitter& y, const std::string& what) {
  const bool link = what.find("--") != std::string::npos || what.find_first_not_of("0123456789") == std::string::npos;
  const bool port = !link && what.starts_with("host");
  y << YAML::Key << (link ? "link" : port ? "port" : "switch") << YAML::Value << what;
}

// "WHAT@TIME" -> (WHAT, TIME); "WHAT" -> (WHAT, "0us").
std::pair<std::string, std::string> split_at(const std::string& text) {
  const auto at = text.rfind('@');
  if (at == std::string::npos) return {text, "0us"};
  return {text.substr(0, at), text.substr(at + 1)};
}

// The flags as a scenario file, so that one parser checks both.
std::string flags_yaml(const SimulateOptions& o) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "scenario" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << (o.collective.empty() ? "flags" : o.collective);
  y << YAML::Key << "paths" << YAML::Value << o.paths;
  y << YAML::Key << "seed" << YAML::Value << o.seed;
  if (!o.convergence.empty()) y << YAML::Key << "convergence" << YAML::Value << o.convergence;
  if (!o.collective.empty()) {
    y << YAML::Key << "collectives" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << o.collective;
    y << YAML::Key << "kind" << YAML::Value << o.collective;
    if (!o.algorithm.empty()) y << YAML::Key << "algorithm" << YAML::Value << o.algorithm;
    y << YAML::Key << "gpus" << YAML::Value << o.gpus;
    y << YAML::Key << "bytes" << YAML::Value << o.bytes;
    if (o.channels > 0) y << YAML::Key << "channels" << YAML::Value << o.channels;
    if (o.qps > 0) y << YAML::Key << "qps" << YAML::Value << o.qps;
    y << YAML::Key << "iterations" << YAML::Value << o.iterations;
    if (!o.compute.empty()) y << YAML::Key << "compute" << YAML::Value << o.compute;
    if (o.steps > 0) y << YAML::Key << "steps" << YAML::Value << o.steps;
    y << YAML::EndMap << YAML::EndSeq;
  }
  if (!o.degrade.empty() || !o.fail.empty() || !o.repair.empty()) {
    y << YAML::Key << "faults" << YAML::Value << YAML::BeginSeq;
    for (const std::string& d : o.degrade) {
      const auto [what_fraction, at] = split_at(d);
      const auto eq = what_fraction.rfind('=');
      y << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << "degrade";
      emit_selector(y, what_fraction.substr(0, eq));
      y << YAML::Key << "fraction" << YAML::Value << (eq == std::string::npos ? "" : what_fraction.substr(eq + 1));
      y << YAML::Key << "at" << YAML::Value << at << YAML::EndMap;
    }
    for (const auto& [list, kind] : {std::pair{&o.fail, "down"}, std::pair{&o.repair, "repair"}}) {
      for (const std::string& f : *list) {
        const auto [what, at] = split_at(f);
        y << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << kind;
        emit_selector(y, what);
        y << YAML::Key << "at" << YAML::Value << at << YAML::EndMap;
      }
    }
    y << YAML::EndSeq;
  }
  y << YAML::EndMap << YAML::EndMap;
  return y.c_str();
}

// Diagnostics of the YAML made from the flags, pointed back at the flags: no line or column (the
// user never saw that YAML), the field named by its option (scenario.collectives[0].bytes ->
// --bytes; scenario.faults[i] -> the i-th of --degrade, --fail, --repair in that order, with its value).
Diagnostics flag_diagnostics(const SimulateOptions& o, Diagnostics errors) {
  static const std::vector<std::pair<std::string, std::string>> kOptions = {
      {"scenario.collectives[0].kind", "--collective"}, {"scenario.collectives[0].algorithm", "--algorithm"},
      {"scenario.collectives[0].gpus", "--gpus"},       {"scenario.collectives[0].bytes", "--bytes"},
      {"scenario.collectives[0].channels", "--channels"}, {"scenario.collectives[0].qps", "--qps"},
      {"scenario.collectives[0].iterations", "--iterations"}, {"scenario.collectives[0].compute", "--compute"},
      {"scenario.collectives[0].steps", "--steps"},     {"scenario.collectives[0]", "--collective"},
      {"scenario.paths", "--paths"},                    {"scenario.seed", "--seed"},
      {"scenario.convergence", "--convergence"}};
  std::vector<std::pair<const char*, const std::string*>> faults;
  for (const std::string& d : o.degrade) faults.emplace_back("--degrade", &d);
  for (const std::string& f : o.fail) faults.emplace_back("--fail", &f);
  for (const std::string& r : o.repair) faults.emplace_back("--repair", &r);
  for (Diagnostic& d : errors) {
    d.where = {kCommandLine, 0, 0};
    const auto option = std::find_if(kOptions.begin(), kOptions.end(), [&](const auto& e) { return d.field == e.first; });
    if (option != kOptions.end()) {
      d.field = option->second;
      continue;
    }
    std::size_t i = 0;
    if (std::sscanf(d.field.c_str(), "scenario.faults[%zu]", &i) == 1 && i < faults.size()) {
      d.field = fmt::format("{} {}", faults[i].first, *faults[i].second);
    }
  }
  return errors;
}

Result<Scenario> load_scenario(const SimulateOptions& o, const std::string& spec_path, const Fabric& fabric) {
  if (!o.scenario_path.empty()) {
    auto text = read_text_file(o.scenario_path);
    if (!text) return text.errors();
    return parse_scenario(o.scenario_path, text.value(), fabric);
  }
  if (!o.collective.empty() || !o.degrade.empty() || !o.fail.empty() || !o.repair.empty()) {
    auto parsed = parse_scenario(kCommandLine, flags_yaml(o), fabric);
    if (!parsed) return flag_diagnostics(o, parsed.errors());
    return parsed;
  }
  auto spec_text = read_text_file(spec_path);
  if (spec_text && has_scenario_block(spec_text.value())) return parse_scenario(spec_path, spec_text.value(), fabric);
  return Diagnostic{{kCommandLine, 0, 0}, "--scenario",
                    "nothing to simulate: give --scenario FILE, a `scenario:` block in the spec, or --collective KIND "
                    "--bytes SIZE"};
}

// Every output file's folder must exist before the first one is written, so that a wrong path
// leaves no partial output (the files are written one after another, each atomically).
Diagnostics check_destinations(const std::vector<std::string>& paths) {
  Diagnostics problems;
  for (const std::string& path : paths) {
    if (path.empty() || path == "-") continue;
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
      problems.push_back(Diagnostic{{path, 0, 0}, "output", "cannot write here: no such folder; nothing was written"});
    }
  }
  return problems;
}

int run_simulate(const SimulateOptions& o, const Context& context) {
  const Fabric& built = *context.fabric;
  const ValidSpec* spec = &built.spec();
  const Topology& topology = built.topology();
  auto scenario = load_scenario(o, context.spec_path, built);
  if (!scenario) return report_errors(scenario.errors());
  if (scenario->empty()) {
    return report_errors({Diagnostic{{scenario->file, 0, 0}, "scenario", "the scenario has no collective, transfer or mice"}});
  }

  StderrProgress progress;
  SimulationOptions options;
  options.progress = &progress;
  auto result = simulate(built, scenario.value(), options);
  progress.finish();
  if (!result) return report_errors(result.errors());
  const WorkerAccount workers = account_workers(result.value());

  SimulateReportInput in{topology, result.value(), workers, "", o.top};
  in.title = fmt::format("{} ({} GPUs on {} hosts, {} plane(s)), scenario {}, paths {}", spec->name, spec->gpu_count(),
                         spec->node_count, spec->backend.planes,
                         scenario->name.empty() ? scenario->file : scenario->name, path_model_name(scenario->paths));
  if (const Diagnostics unwritable = check_destinations({o.csv_links, o.csv_flows, o.csv_series, o.output});
      !unwritable.empty()) {
    return report_errors(unwritable);
  }
  for (const auto& [path, text] : {std::pair{&o.csv_links, &simulate_links_csv}, std::pair{&o.csv_flows, &simulate_flows_csv},
                                   std::pair{&o.csv_series, &simulate_series_csv}}) {
    if (path->empty()) continue;
    if (const int rc = emit(*path, text(in)); rc != kExitOk) return rc;
  }
  return emit(o.output, o.json ? simulate_json(in) : simulate_text(in));
}

}  // namespace

Runner setup_simulate(CLI::App& app, Context& context) {
  auto o = std::make_shared<SimulateOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_option("--scenario", o->scenario_path, "Scenario file (YAML with a `scenario:` block)");
  app.add_flag("--json", o->json, "JSON instead of text");
  app.add_option("--csv-links", o->csv_links, "Write per-link utilization as CSV to this file");
  app.add_option("--csv-flows", o->csv_flows, "Write one CSV row per flow to this file");
  app.add_option("--csv-series", o->csv_series, "Write the busiest links' utilization over time as CSV");
  app.add_option("--top", o->top, "Bottleneck links to list")->capture_default_str();
  app.add_option("--collective", o->collective, "all-reduce | all-gather | reduce-scatter | all-to-all (no --scenario)");
  app.add_option("--algorithm", o->algorithm, "ring | tree | halving-doubling | hierarchical | sharp | direct");
  app.add_option("--gpus", o->gpus, "all | per-rail | per-host")->capture_default_str();
  app.add_option("--bytes", o->bytes, "Collective size as nccl-tests counts it, e.g. 1GiB");
  app.add_option("--channels", o->channels, "Channels (default: one per NIC port, planes x rails of the group)");
  app.add_option("--qps", o->qps, "Queue pairs per connection (default: routing.qps_per_connection)");
  app.add_option("--iterations", o->iterations, "Iterations (compute, then the collective)")->capture_default_str();
  app.add_option("--compute", o->compute, "Compute phase before each iteration, e.g. 5ms");
  app.add_option("--steps", o->steps, "Simulate only the first steps of the collective");
  app.add_option("--paths", o->paths, "ecmp | spray | adaptive")->capture_default_str();
  app.add_option("--seed", o->seed, "Seed of QP source ports, mice and random orders")->capture_default_str();
  app.add_option("--degrade", o->degrade, "LINK=FRACTION[@TIME]: a link, port or switch at a fraction of its speed");
  app.add_option("--fail", o->fail, "LINK@TIME: a link, port or switch goes down");
  app.add_option("--repair", o->repair, "LINK@TIME: it comes back");
  app.add_option("--convergence", o->convergence, "Routing convergence after a failure or repair, e.g. 50us");
  add_output_option(app, o->output);
  return [o](const Context& c) { return run_simulate(*o, c); };
}

}  // namespace ct::cli
