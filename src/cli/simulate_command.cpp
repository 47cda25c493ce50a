// clustertwin simulate SPEC [--scenario FILE] [--flows FILE] [--json] [--csv-links FILE] [--csv-flows FILE]
//                          [--csv-series FILE] [--top N] [-o FILE] [--html FILE] [--catalog DIR]
//                          [--collective KIND --bytes SIZE [--algorithm A] [--gpus SEL] [--channels N]
//                           [--qps N] [--iterations N] [--compute DUR] [--steps N] [--model pipelined|stepwise]]
//                          [--paths ecmp|spray|adaptive] [--seed N] [--degrade LINK=FRACTION[@TIME]]
//                          [--fail LINK@TIME] [--repair LINK@TIME] [--convergence DUR] [--progress] [--quiet]
// Runs a workload on the built fabric with the fluid engine and reports collective times, algbw
// and busbw, the workers' waiting time, and the bottleneck links. The scenario comes from
// --scenario, else from the flags (built into a Scenario directly and checked by the same rules as a
// scenario file, traffic/scenario_checks.h; their diagnostics name "command line" and the flag),
// else from the spec's own `scenario:` block. --flows adds the flows of a flow table
// (traffic/flow_table.h, the format --csv-flows writes) to the scenario's; with --flows alone the
// spec's `scenario:` block is not read (give --scenario for faults).
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/straggler.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "io/files.h"
#include "io/loaders.h"
#include "report/simulate_html.h"
#include "report/simulate_report.h"
#include "routing/ecmp_config.h"
#include "sim/flow/flow_simulation.h"
#include "topology/builder.h"
#include "core/suggest.h"
#include "traffic/flow_file.h"
#include "traffic/flow_table.h"
#include "traffic/scenario_checks.h"
#include "traffic/scenario_parser.h"

namespace ct::cli {
namespace {

struct SimulateOptions {
  std::string output;
  std::string html;
  std::string scenario_path;
  std::string flows_path;
  bool json = false;
  std::string csv_links;
  std::string csv_flows;
  std::string csv_series;
  std::uint64_t top = 10;
  // Scenario from flags.
  std::string collective;
  std::string algorithm;
  std::string model;
  std::string gpus = "all";
  std::string bytes;
  unsigned channels = 0;
  unsigned qps = 0;
  unsigned iterations = 1;
  std::string compute;
  unsigned steps = 0;
  std::string paths = "ecmp";
  std::uint64_t seed = 1;
  std::vector<std::string> degrade;
  std::vector<std::string> fail;
  std::vector<std::string> repair;
  std::string convergence;
  ProgressFlags progress;
};

// The engine's progress (flows done, simulated time) through the CLI's reporter (cli/progress.h).
class StderrProgress final : public SimulationProgress {
 public:
  explicit StderrProgress(const ProgressFlags& flags) : reporter_("simulate", "flows done", flags) {}
  void update(std::uint64_t done, std::uint64_t total, TimePs now) override {
    reporter_.update(done, total, fmt::format("simulated time {:.6f} s", to_seconds(now)));
  }
  void finish() { reporter_.finish(); }

 private:
  ProgressReporter reporter_;
};

const SourceLocation kCommandLine{"command line", 0, 0};

// "WHAT@TIME" -> (WHAT, TIME); "WHAT" -> (WHAT, "0us").
std::pair<std::string, std::string> split_at(const std::string& text) {
  const auto at = text.rfind('@');
  if (at == std::string::npos) return {text, "0us"};
  return {text.substr(0, at), text.substr(at + 1)};
}

// The scenario the flags describe, built directly (names through the fabric's name directory) and
// checked by the same rules as a scenario file (traffic/scenario_checks.h); every problem names
// its flag.
class FlagScenario {
 public:
  FlagScenario(const SimulateOptions& o, const Fabric& fabric) : o_(o), fabric_(fabric), t_(fabric.topology()) {}

  Result<Scenario> build() {
    s_.file = kCommandLine.file;
    s_.name = o_.collective.empty() ? "flags" : o_.collective;
    s_.seed = o_.seed;
    paths();
    TimePs convergence{0};
    if (!o_.convergence.empty()) duration("--convergence", o_.convergence, convergence);
    if (!o_.collective.empty()) collective();
    faults(convergence);
    // The value rules, for the flags that parsed (a flag already refused is not reported twice).
    std::set<std::string> refused;
    for (const Diagnostic& d : errors_) refused.insert(d.field);
    if (refused.count("--gpus") != 0) refused.insert("--collective");  // a partial selection cannot be planned
    for (const ScenarioProblem& p : check_scenario(s_, t_)) {
      if (std::string flag = flag_of(p); refused.count(flag) == 0) error(std::move(flag), p.message);
    }
    if (!errors_.empty()) return errors_;
    return std::move(s_);
  }

 private:
  void error(std::string flag, std::string message) {
    errors_.push_back(Diagnostic{kCommandLine, std::move(flag), std::move(message)});
  }
  void take(const Diagnostics& ds) { errors_.insert(errors_.end(), ds.begin(), ds.end()); }

  void duration(const char* flag, const std::string& text, TimePs& out) {
    auto d = parse_duration(text);
    if (d) {
      out = d.value();
    } else {
      error(flag, fmt::format("'{}': {}", text, d.errors().front().message));
    }
  }

  // The flag a problem of check_scenario is about: flags are named after the fields they set.
  std::string flag_of(const ScenarioProblem& p) const {
    switch (p.part) {
      case ScenarioPart::kCollective: return p.field.empty() || p.field == "kind" ? "--collective" : "--" + p.field;
      case ScenarioPart::kFault: return fault_flags_[p.index];
      default: return p.field.empty() ? "--scenario" : "--" + p.field;
    }
  }

  void paths() {
    static const std::vector<std::string> kNames = {"ecmp", "spray", "adaptive"};
    const auto it = std::find(kNames.begin(), kNames.end(), o_.paths);
    if (it == kNames.end()) {
      error("--paths", fmt::format("unknown path model '{}' (ecmp, spray, adaptive){}", o_.paths, did_you_mean(o_.paths, kNames)));
      return;
    }
    s_.paths = static_cast<PathModel>(it - kNames.begin());
  }

  void collective() {
    CollectiveSpec c;
    c.name = o_.collective;
    if (const auto kind = parse_collective_kind(o_.collective)) {
      c.kind = *kind;
    } else {
      const std::vector<std::string> all = {"all-reduce", "all-gather", "reduce-scatter", "all-to-all"};
      error("--collective", fmt::format("unknown collective '{}' (all-reduce, all-gather, reduce-scatter, all-to-all){}",
                                        o_.collective, did_you_mean(o_.collective, all)));
    }
    c.algorithm = default_algorithm(c.kind);
    if (!o_.algorithm.empty()) {
      if (const auto a = parse_algorithm(o_.algorithm)) {
        c.algorithm = *a;
      } else {
        const std::vector<std::string> all = {"ring", "tree", "halving-doubling", "hierarchical", "sharp", "direct"};
        error("--algorithm", fmt::format("unknown algorithm '{}' (ring, tree, halving-doubling, hierarchical, sharp, "
                                         "direct){}",
                                         o_.algorithm, did_you_mean(o_.algorithm, all)));
      }
    }
    if (o_.bytes.empty()) {
      error("--bytes", "missing: the collective's size, e.g. 1GiB");
    } else if (auto b = parse_size(o_.bytes); !b) {
      error("--bytes", fmt::format("'{}': {}", o_.bytes, b.errors().front().message));
    } else if (b.value().value() <= 0) {
      error("--bytes", fmt::format("'{}' is not a positive size such as 1GiB, 64KB or 1048576", o_.bytes));
    } else {
      c.bytes = b.value();
    }
    c.channels = o_.channels;
    c.qps = o_.qps;
    c.iterations = o_.iterations;
    c.steps = o_.steps;
    if (c.steps != 0) c.model = CollectiveModel::kStepwise;  // steps are the stepwise model's
    if (!o_.model.empty()) {
      if (const auto m = parse_collective_model(o_.model)) {
        c.model = *m;
      } else {
        error("--model", fmt::format("unknown model '{}' (pipelined, stepwise){}", o_.model,
                                     did_you_mean(o_.model, {"pipelined", "stepwise"})));
      }
    }
    if (!o_.compute.empty()) duration("--compute", o_.compute, c.compute);
    gpus(c);
    s_.collectives.push_back(std::move(c));
  }

  // all | per-rail | per-host | a comma-separated list of GPUs ("host0/gpu0,gpu9,12"), or the
  // scenario file's YAML forms: a list "[0, 1, host2/gpu0]" or a mapping "{hosts: [0, 3], local:
  // [0], per: rail, order: random}", read by the scenario reader itself (one reader, one meaning).
  void gpus(CollectiveSpec& c) {
    if (o_.gpus.starts_with("[") || o_.gpus.starts_with("{")) {
      const std::string yaml = fmt::format(
          "scenario:\n  seed: {}\n  collectives:\n    - {{kind: all-reduce, bytes: 1GiB, gpus: {}}}\n", o_.seed, o_.gpus);
      auto parsed = parse_scenario(kCommandLine.file, yaml, fabric_);
      if (!parsed) {
        for (const Diagnostic& d : parsed.errors()) error("--gpus", fmt::format("'{}': {}", o_.gpus, d.message));
        return;
      }
      if (parsed->collectives.size() == 1) {
        c.groups = parsed->collectives.front().groups;
        c.gpus_text = parsed->collectives.front().gpus_text;
      }
      return;
    }
    const auto hosts = static_cast<std::uint32_t>(t_.host_count);
    const auto per_host = static_cast<std::uint32_t>(std::max(t_.gpus_per_host, 0));
    c.gpus_text = o_.gpus;
    if (o_.gpus == "all") {
      c.groups.emplace_back();
      for (std::uint32_t h = 0; h < hosts; ++h) {
        for (std::uint32_t l = 0; l < per_host; ++l) c.groups.back().push_back(h * per_host + l);
      }
    } else if (o_.gpus == "per-rail") {
      for (std::uint32_t l = 0; l < per_host; ++l) {
        c.groups.emplace_back();
        for (std::uint32_t h = 0; h < hosts; ++h) c.groups.back().push_back(h * per_host + l);
      }
    } else if (o_.gpus == "per-host") {
      for (std::uint32_t h = 0; h < hosts; ++h) {
        c.groups.emplace_back();
        for (std::uint32_t l = 0; l < per_host; ++l) c.groups.back().push_back(h * per_host + l);
      }
    } else if (o_.gpus.find(',') != std::string::npos || o_.gpus.find("gpu") != std::string::npos ||
               o_.gpus.find_first_not_of("0123456789") == std::string::npos) {
      c.gpus_text = "list";
      c.groups.emplace_back();
      for (std::size_t begin = 0; begin <= o_.gpus.size();) {
        const std::size_t end = std::min(o_.gpus.find(',', begin), o_.gpus.size());
        auto g = fabric_.names().gpu(std::string_view(o_.gpus).substr(begin, end - begin), kCommandLine, "--gpus");
        if (g) {
          c.groups.back().push_back(g.value());
        } else {
          take(g.errors());
        }
        begin = end + 1;
      }
    } else {
      error("--gpus", fmt::format("unknown GPU selection '{}' (all, per-rail, per-host, a list such as "
                                  "host0/gpu0,gpu9,12 or [0, 1], or a mapping such as '{{hosts: [0, 3], per: rail}}'){}",
                                  o_.gpus, did_you_mean(o_.gpus, {"all", "per-rail", "per-host"})));
    }
  }

  // "p0/leaf/0 -- p0/spine/3" or digits: a link; "host0/nic0": a port's NIC link; else a switch's links.
  std::vector<LinkId> links_of(const std::string& what, const std::string& flag) {
    const NameDirectory& names = fabric_.names();
    if (what.find("--") != std::string::npos || what.find_first_not_of("0123456789") == std::string::npos) {
      auto links = names.links(what, kCommandLine, flag);
      if (links) return links.value();
      take(links.errors());
      return {};
    }
    if (what.starts_with("host")) {
      auto port = names.backend_port(what, kCommandLine, flag);
      if (port) return {LinkId(port.value().value())};  // a backend port's NIC link has the port's id
      take(port.errors());
      return {};
    }
    auto sw = names.backend_switch(what, kCommandLine, flag);
    if (!sw) {
      take(sw.errors());
      return {};
    }
    std::vector<LinkId> links;
    for (const Adjacency& a : t_.neighbors(sw.value())) links.push_back(a.link);
    std::sort(links.begin(), links.end());
    return links;
  }

  void faults(TimePs convergence) {
    std::vector<std::pair<FaultSpec, std::string>> faults;
    auto add = [&](FaultKind kind, const std::string& text, const char* flag) {
      auto [what, at] = split_at(text);
      FaultSpec f;
      f.kind = kind;
      f.convergence = convergence;
      f.fraction = kind == FaultKind::kRepair ? 1.0 : 0.0;
      if (kind == FaultKind::kDegrade) {
        const auto eq = what.rfind('=');
        const std::string fraction = eq == std::string::npos ? "" : what.substr(eq + 1);
        what = what.substr(0, eq);
        char* end = nullptr;
        f.fraction = std::strtod(fraction.c_str(), &end);
        if (fraction.empty() || *end != '\0' || !(f.fraction > 0 && f.fraction <= 1)) {
          error(flag, fmt::format("'{}': expected LINK=FRACTION[@TIME] with a fraction in (0, 1]", text));
          return;
        }
      }
      f.what = what;
      f.links = links_of(what, flag);
      if (f.links.empty()) return;
      duration(flag, at, f.at);
      faults.emplace_back(std::move(f), fmt::format("{} {}", flag, text));
    };
    for (const std::string& d : o_.degrade) add(FaultKind::kDegrade, d, "--degrade");
    for (const std::string& f : o_.fail) add(FaultKind::kDown, f, "--fail");
    for (const std::string& r : o_.repair) add(FaultKind::kRepair, r, "--repair");
    std::stable_sort(faults.begin(), faults.end(), [](const auto& a, const auto& b) { return a.first.at < b.first.at; });
    for (auto& [fault, flag] : faults) {
      s_.faults.push_back(std::move(fault));
      fault_flags_.push_back(std::move(flag));
    }
  }

  const SimulateOptions& o_;
  const Fabric& fabric_;
  const Topology& t_;
  Scenario s_;
  std::vector<std::string> fault_flags_;  // per fault (in time order): the flag and value that gave it
  Diagnostics errors_;
};

Result<Scenario> load_scenario(const SimulateOptions& o, const std::string& spec_path, const Fabric& fabric) {
  if (!o.scenario_path.empty()) {
    auto text = read_text_file(o.scenario_path);
    if (!text) return text.errors();
    return parse_scenario(o.scenario_path, text.value(), fabric);
  }
  if (!o.collective.empty() || !o.degrade.empty() || !o.fail.empty() || !o.repair.empty()) {
    return FlagScenario(o, fabric).build();
  }
  if (!o.flows_path.empty()) {
    Scenario flows_only;
    flows_only.file = o.flows_path;
    flows_only.name = "flows";
    flows_only.seed = o.seed;
    return flows_only;
  }
  auto spec_text = read_text_file(spec_path);
  if (spec_text && has_scenario_block(spec_text.value())) {
    return parse_scenario(spec_path, spec_text.value(), fabric);
  }
  return Diagnostic{kCommandLine, "--scenario",
                    "nothing to simulate: give --scenario FILE, a `scenario:` block in the spec, or --collective KIND "
                    "--bytes SIZE"};
}

int run_simulate(const SimulateOptions& o, const Context& context) {
  const Fabric& built = *context.fabric;
  const ValidSpec* spec = &built.spec();
  const Topology& topology = built.topology();
  auto scenario = load_scenario(o, context.spec_path, built);
  if (!scenario) return report_errors(scenario.errors());
  std::optional<FlowTable> flows;
  if (!o.flows_path.empty()) {
    auto bytes = read_text_file(o.flows_path);
    if (!bytes) return report_errors(bytes.errors());
    auto table = parse_flow_table(o.flows_path, bytes.value(), built.names());
    if (!table) return report_errors(table.errors());
    flows = std::move(table).value();
  }
  if (scenario->empty() && !flows) {
    return report_errors({Diagnostic{scenario->at.line > 0 ? scenario->at : SourceLocation{scenario->file, 0, 0}, "scenario",
                                     "the scenario has no collective, transfer or mice (add one, or give --flows FILE)"}});
  }

  StderrProgress progress(o.progress);
  SimulationOptions options;
  options.progress = &progress;
  auto result = simulate(built, scenario.value(), flows ? &*flows : nullptr, options);
  progress.finish();
  if (!result) return report_errors(result.errors());
  const WorkerAccount workers = account_workers(result.value());

  SimulateReportInput in{topology, result.value(), workers, "", o.top};
  in.title = fmt::format("{} ({} GPUs on {} hosts, {} plane(s)), scenario {}, paths {}", spec->name, spec->gpu_count(),
                         spec->node_count, spec->backend.planes,
                         scenario->name.empty() ? scenario->file : scenario->name, path_model_name(scenario->paths));
  OutputSet outputs;
  for (const auto& [path, text] : {std::pair{&o.csv_links, &simulate_links_csv}, std::pair{&o.csv_flows, &simulate_flows_csv},
                                   std::pair{&o.csv_series, &simulate_series_csv}}) {
    if (!path->empty()) outputs.stage(*path, text(in));
  }
  return emit_report(outputs, o.output, o.json ? simulate_json(in) : simulate_text(in), o.html,
                     [&] { return simulate_html(in, context.command_line); });
}

}  // namespace

Runner setup_simulate(CLI::App& app, Context& context) {
  auto o = std::make_shared<SimulateOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_option("--scenario", o->scenario_path, "Scenario file (YAML with a `scenario:` block)");
  app.add_option("--flows", o->flows_path,
                 "Flow table (CSV, or gzip of it) in the format --csv-flows writes: flows to run, routes pinned or not");
  app.add_flag("--json", o->json, "JSON instead of text");
  app.add_option("--csv-links", o->csv_links, "Write per-link utilization as CSV to this file");
  app.add_option("--csv-flows", o->csv_flows, "Write one CSV row per flow to this file");
  app.add_option("--csv-series", o->csv_series, "Write the busiest links' utilization over time as CSV");
  add_unsigned_option(app, "--top", o->top, "Bottleneck links to list", 0, 1'000'000'000);
  app.add_option("--collective", o->collective, "all-reduce | all-gather | reduce-scatter | all-to-all (no --scenario)");
  app.add_option("--algorithm", o->algorithm, "ring | tree | halving-doubling | hierarchical | sharp | direct");
  app.add_option("--model", o->model, "pipelined (default) | stepwise");
  app.add_option("--gpus", o->gpus,
                 "all | per-rail | per-host | a list: host0/gpu0,gpu9,12 or [0, 1] | a mapping: '{hosts: [0, 3], "
                 "local: [0], per: rail, order: random}'")
      ->capture_default_str();
  app.add_option("--bytes", o->bytes, "Collective size as nccl-tests counts it, e.g. 1GiB");
  app.add_option("--channels", o->channels, "Channels (default: one per NIC port, planes x rails of the group)");
  app.add_option("--qps", o->qps, "Queue pairs per connection (default: routing.qps_per_connection)");
  app.add_option("--iterations", o->iterations, "Iterations (compute, then the collective)")->capture_default_str();
  app.add_option("--compute", o->compute, "Compute phase before each iteration, e.g. 5ms");
  app.add_option("--steps", o->steps, "Simulate only the first steps of the collective");
  app.add_option("--paths", o->paths, "ecmp | spray | adaptive")->capture_default_str();
  add_seed_option(app, o->seed, "Seed of QP source ports, mice and random orders");
  app.add_option("--degrade", o->degrade, "LINK=FRACTION[@TIME]: a link, port or switch at a fraction of its speed");
  app.add_option("--fail", o->fail, "LINK@TIME: a link, port or switch goes down");
  app.add_option("--repair", o->repair, "LINK@TIME: it comes back");
  app.add_option("--convergence", o->convergence, "Routing convergence after a failure or repair, e.g. 50us");
  add_progress_options(app, o->progress);
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_simulate(*o, c); };
}

}  // namespace ct::cli
