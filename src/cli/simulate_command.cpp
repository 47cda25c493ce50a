// clustertwin simulate SPEC|--ibnetdiscover FILE [--ib-routing ftree|updn|minhop]
//                          [--scenario FILE] [--flows FILE] [--json] [--csv-links FILE] [--csv-flows FILE]
//                          [--csv-series FILE] [--top N] [-o FILE] [--html FILE] [--catalog DIR]
//                          [--collective KIND --bytes SIZE [--algorithm A] [--gpus SEL] [--channels N]
//                           [--qps N] [--iterations N] [--compute DUR] [--steps N] [--model pipelined|stepwise]]
//                          [--paths ecmp|spray|adaptive] [--seed N] [--degrade LINK=FRACTION[@TIME]]
//                          [--fail LINK@TIME] [--repair LINK@TIME] [--convergence DUR] [--engine flow|packet]
//                          [--mtu SIZE] [--vls N] [--switch-latency DUR] [--switch-buffer SIZE]
//                          [--forwarding cut-through|store-and-forward] [--csv-queues FILE] [--compare-engines]
//                          [--dcqcn on|off] [--ecn-kmin SIZE] [--ecn-kmax SIZE] [--ecn-pmax P]
//                          [--dcqcn-param NAME=VALUE] [--sharp-latency DUR] [--sharp-trees N]
//                          [--threads T] [--progress] [--quiet]
// Runs a workload on the built fabric with an engine (sim/engine.h: the flow engine, or the packet
// engine with its flags, cli/packet_flags.h) and reports collective times, algbw
// and busbw, the workers' waiting time, and the bottleneck links. The scenario comes from
// --scenario, else from the flags (traffic/scenario_flags.h: the scenario file's builder and rules;
// their diagnostics name "command line" and the flag), else from the spec's own `scenario:` block;
// --flows adds the flows of a flow table (io/scenario_files.h says which source wins). The fabric is
// the SPEC's, or an InfiniBand subnet's with its subnet manager's routes (cli/simulate_fabric_flags.h).
// A deadlock is a result, not bad input: the run exits 0 and its report names the cycle.
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/straggler.h"
#include "cli/choice_option.h"
#include "cli/command.h"
#include "cli/packet_flags.h"
#include "cli/progress.h"
#include "cli/simulate_fabric_flags.h"
#include "io/scenario_files.h"
#include "report/engine_comparison_report.h"
#include "report/simulate_html.h"
#include "report/simulate_report.h"
#include "sim/queue_statistics.h"
#include "sim/simulation.h"

namespace ct::cli {
namespace {

struct SimulateOptions {
  std::string output;
  std::string html;
  bool json = false;
  std::string csv_links;
  std::string csv_flows;
  std::string csv_series;
  std::uint64_t top = 10;
  std::string engine = "flow";
  bool engine_given = false;
  PacketFlags packet;
  FabricSourceFlags fabric;
  SimulationSources sources;  // spec_path is the context's
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

// --compare-engines: both engines, side by side (report/engine_comparison_report.h).
int run_compare(const SimulateOptions& o, const Fabric& built, const Scenario& scenario, const FlowTable* flows,
                SimulationOptions options, std::string title) {
  auto runs = simulate_engines(built, scenario, flows, options);
  if (!runs) return report_errors(runs.errors());
  const EngineComparison comparison = compare_engines(runs->flow, runs->packet);
  const EngineComparisonInput in{built.topology(), built.names(), runs.value(), comparison, std::move(title), o.top};
  return emit_report(o.output, o.json ? engine_comparison_json(in) : engine_comparison_text(in), "", [] { return ""; });
}

int run_simulate(const SimulateOptions& o, const Context& context) {
  const EngineKind engine = parse_engine(o.engine).value_or(EngineKind::kFlow);  // a member: checked by CLI11
  if (const std::string usage = packet_flags_usage(o.packet, engine, o.engine_given, !o.html.empty() ||
                                                   !o.csv_links.empty() || !o.csv_flows.empty() || !o.csv_series.empty());
      !usage.empty()) {
    return report_usage(usage);
  }
  if (const std::string usage = fabric_source_usage(o.fabric, context); !usage.empty()) return report_usage(usage);
  auto packet = packet_options(o.packet);
  if (!packet) return report_errors(packet.errors());
  std::optional<Fabric> loaded;
  auto fabric = simulation_fabric_of(o.fabric, context, loaded);
  if (!fabric) return report_errors(fabric.errors());
  const Fabric& built = *fabric.value();
  const ValidSpec* spec = &built.spec();
  const Topology& topology = built.topology();
  SimulationSources sources = o.sources;
  sources.spec_path = context.spec_path;
  auto inputs = load_simulation_inputs(sources, built);
  if (!inputs) return report_errors(inputs.errors());
  if (!inputs->usage.empty()) return report_usage(fmt::format("{}", fmt::join(inputs->usage, "\n")));
  const Scenario* scenario = &inputs->scenario;
  const std::optional<FlowTable>& flows = inputs->flows;

  StderrProgress progress(o.progress);
  SimulationOptions options;
  options.progress = &progress;
  options.engine = engine;
  options.packet = packet.value();
  options.threads = o.packet.threads;
  if (!o.packet.csv_queues.empty() || !o.html.empty()) options.queue_series = kHottestQueues;
  std::string title = fmt::format("{} ({} GPUs on {} hosts, {} plane(s)), scenario {}, paths {}", spec->name,
                                  spec->gpu_count(), spec->node_count, spec->backend.planes,
                                  scenario->name.empty() ? scenario->file : scenario->name,
                                  paths_title(o.fabric, built, path_model_name(scenario->paths)));
  if (o.packet.compare_engines) {
    const int rc = run_compare(o, built, *scenario, flows ? &*flows : nullptr, options, std::move(title));
    progress.finish();
    return rc;
  }
  auto result = simulate(built, *scenario, flows ? &*flows : nullptr, options);
  progress.finish();
  if (!result) return report_errors(result.errors());
  const WorkerAccount workers = account_workers(result.value());

  SimulateReportInput in{topology, built.names(), result.value(), workers, std::move(title), o.top};
  OutputSet outputs;
  for (const auto& [option, path, text] :
       {std::tuple{"--csv-links", &o.csv_links, &simulate_links_csv}, std::tuple{"--csv-flows", &o.csv_flows, &simulate_flows_csv},
        std::tuple{"--csv-series", &o.csv_series, &simulate_series_csv},
        std::tuple{"--csv-queues", &o.packet.csv_queues, &simulate_queues_csv}}) {
    if (!path->empty()) outputs.stage(*path, text(in), option);
  }
  return emit_report(outputs, o.output, o.json ? simulate_json(in) : simulate_text(in), o.html,
                     [&] { return simulate_html(in, context.command_line); });
}

}  // namespace

Runner setup_simulate(CLI::App& app, Context& context) {
  auto o = std::make_shared<SimulateOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML); or --ibnetdiscover FILE");
  add_fabric_source_flags(app, o->fabric);
  app.add_option("--scenario", o->sources.scenario_path, "Scenario file (YAML with a `scenario:` block)");
  app.add_option("--flows", o->sources.flows_path,
                 "Flow table (CSV, or gzip of it) in the format --csv-flows writes: flows to run, routes pinned or not");
  app.add_flag("--json", o->json, "JSON instead of text");
  app.add_option("--csv-links", o->csv_links, "Write per-link utilization as CSV to this file");
  app.add_option("--csv-flows", o->csv_flows, "Write one CSV row per flow to this file");
  app.add_option("--csv-series", o->csv_series, "Write the busiest links' utilization over time as CSV");
  add_unsigned_option(app, "--top", o->top, "Bottleneck links to list", 0, 1'000'000'000);
  app.add_option("--collective", o->sources.flags.collective, "all-reduce | all-gather | reduce-scatter | all-to-all (no --scenario)");
  app.add_option("--algorithm", o->sources.flags.algorithm, "ring | tree | halving-doubling | hierarchical | sharp | direct");
  app.add_option("--model", o->sources.flags.model, "pipelined (default) | stepwise");
  app.add_option("--gpus", o->sources.flags.gpus,
                 "all | per-rail | per-host | a list: host0/gpu0,gpu9,12 or [0, 1] | a mapping: '{hosts: [0, 3], "
                 "local: [0], per: rail, order: random}'")
      ->capture_default_str();
  app.add_option("--bytes", o->sources.flags.bytes, "Collective size as nccl-tests counts it, e.g. 1GiB");
  app.add_option("--channels", o->sources.flags.channels, "Channels (default: one per NIC port, planes x rails of the group)");
  app.add_option("--qps", o->sources.flags.qps, "Queue pairs per connection (default: routing.qps_per_connection)");
  app.add_option("--iterations", o->sources.flags.iterations, "Iterations (compute, then the collective)")->capture_default_str();
  app.add_option("--compute", o->sources.flags.compute, "Compute phase before each iteration, e.g. 5ms");
  app.add_option("--steps", o->sources.flags.steps, "Simulate only the first steps of the collective");
  app.add_option("--paths", o->sources.flags.paths, "ecmp | spray | adaptive")->capture_default_str();
  add_seed_option(app, o->sources.flags.seed, "Seed of QP source ports, mice and random orders");
  app.add_option("--degrade", o->sources.flags.degrade, "LINK=FRACTION[@TIME]: a link, port or switch at a fraction of its speed");
  app.add_option("--fail", o->sources.flags.fail, "LINK@TIME: a link, port or switch goes down");
  app.add_option("--repair", o->sources.flags.repair, "LINK@TIME: it comes back");
  app.add_option("--convergence", o->sources.flags.convergence, "Routing convergence after a failure or repair, e.g. 50us");
  add_choice_option(app, "--engine", o->engine, {"flow", "packet"},
                    "flow (the fluid max-min engine) | packet (packets, InfiniBand credits)")
      ->capture_default_str();
  add_packet_flags(app, o->packet);
  add_progress_options(app, o->progress);
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o, &app](const Context& c) {
    for (const char* flag : {"--collective", "--algorithm", "--model", "--gpus", "--bytes", "--channels", "--qps",
                             "--iterations", "--compute", "--steps", "--paths", "--seed", "--degrade", "--fail",
                             "--repair", "--convergence"}) {
      if (app.get_option(flag)->count() > 0) o->sources.flags.given.emplace_back(flag);
    }
    o->engine_given = app.get_option("--engine")->count() > 0;
    o->fabric.ib_routing_given = app.get_option("--ib-routing")->count() > 0;
    return run_simulate(*o, c);
  };
}

}  // namespace ct::cli
