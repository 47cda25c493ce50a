// clustertwin: a digital twin of an AI cluster's networks. This file lists the subcommands with the
// stage each needs (cli/command.h), loads that stage once, and runs the command; each command lives
// in its own <name>_command.cpp.
#include <cstdlib>
#include <cctype>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/build_info.h"
#include "cli/command.h"
#include "cli/parse_failure.h"
#include "core/memory_policy.h"
#include "core/units.h"
#include "io/files.h"
#include "io/loaders.h"
#include "core/text.h"

namespace ct::cli {
Runner setup_alerts(CLI::App& app, Context& context);
Runner setup_break(CLI::App& app, Context& context);
Runner setup_catalog(CLI::App& app, Context& context);
Runner setup_export(CLI::App& app, Context& context);
Runner setup_diagnose(CLI::App& app, Context& context);
Runner setup_hash(CLI::App& app, Context& context);
Runner setup_ib(CLI::App& app, Context& context);
Runner setup_lab(CLI::App& app, Context& context);
Runner setup_lint(CLI::App& app, Context& context);
Runner setup_plan(CLI::App& app, Context& context);
Runner setup_reliability(CLI::App& app, Context& context);
Runner setup_route(CLI::App& app, Context& context);
Runner setup_routes(CLI::App& app, Context& context);
Runner setup_simulate(CLI::App& app, Context& context);
Runner setup_spof(CLI::App& app, Context& context);
Runner setup_sweep(CLI::App& app, Context& context);
Runner setup_topology(CLI::App& app, Context& context);
Runner setup_trace(CLI::App& app, Context& context);
Runner setup_traffic(CLI::App& app, Context& context);

namespace {
const Command kCommands[] = {
    {"alerts", "Prometheus alerting and recording rules for the ECMP uplink groups, from the fabric model", Stage::kFabric, false,
     setup_alerts},
    {"break", "What failures do over time: URLs down and when, pods, volumes degraded or lost, rebuilds, downtime per app",
     Stage::kFabric, true, setup_break},
    {"catalog", "List the hardware catalog (--zoo: the data-center chip zoo)", Stage::kCatalog, false, setup_catalog},
    {"export", "The frontend for real daemons: DNS views as named.conf + zones, the BGP VIP as gobgpd and BIRD 2 configs",
     Stage::kNone, false, setup_export},
    {"diagnose", "Diagnose a running fabric from its counters: imbalanced groups, witnesses, cause, fix", Stage::kFabric, false, setup_diagnose},
    {"hash", "ECMP on the built fabric: paths, collisions and why, Monte Carlo vs closed forms, alternatives",
     Stage::kFabric, false, setup_hash},
    {"ib", "InfiniBand subnet manager: LIDs, ftree/updn/minhop LFTs, checks, ibnetdiscover and LFT dumps",
     Stage::kFabric, true, setup_ib},
    {"lab", "The spec's small fabric as Linux namespaces: up, run traffic, counters, fail, down", Stage::kFabric, false, setup_lab},
    {"lint", "The traps planted in manifests and DNS views, ranked by expected hours lost, and the publishing checklist (SARIF too)",
     Stage::kFabric, true, setup_lint},
    {"plan", "Size the backend fabric of a cluster spec: BOM, power, bisection, limits, failure domains",
     Stage::kFabric, false, setup_plan},
    {"reliability", "Failure probabilities of the backend network and their cost to a training job, 1 vs 2 vs 4 planes",
     Stage::kFabric, false, setup_reliability},
    {"route", "Gateway API: which listener, HTTPRoute rule and backends take a request, and why", Stage::kNone, false,
     setup_route},
    {"routes", "Gateway API: route table per listener, status conditions, shadowed rules", Stage::kNone, false,
     setup_routes},
    {"simulate", "Flow-level simulation of collectives, transfers and faults: times, busbw, waiting, bottlenecks",
     Stage::kFabric, true, setup_simulate},
    {"spof", "Single points of failure: each element removed in turn, ranked by apps lost x time lost, named per layer",
     Stage::kFabric, true, setup_spof},
    {"sweep", "A design study over many points of a spec: rows per point x seed, summary, Pareto front", Stage::kCatalog,
     false, setup_sweep},
    {"trace", "One request through the front door: DNS view, BGP VIP and ECMP, switch, Gateway + TLS, route, pod, storage",
     Stage::kFabric, true, setup_trace},
    {"topology", "Export the physical topology of a cluster spec as JSON or Graphviz DOT", Stage::kFabric, false,
     setup_topology},
    {"traffic", "What the traffic really is, from ss or conntrack: mice, elephants, and what it means for ECMP", Stage::kFabric, true, setup_traffic},
};

// "clustertwin 0.1.0 (commit 5114a8d1c2f3)": --version.
std::string version_line() { return std::string("clustertwin ") + CT_VERSION + " (commit " + std::string(build_commit()) + ")"; }

// Runs the command; no exception leaves main. Bad input is reported as diagnostics, never thrown,
// so one that arrives here is a bug of clustertwin: said as such (exit 1, no output written,
// since outputs are committed only at the end), rather than std::terminate's abort.
template <typename Run>
int run_guarded(Run&& run) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::cerr << "clustertwin: error: out of memory (an input's size limit, --max-input or CLUSTERTWIN_MAX_INPUT, bounds what is read)\n";
  } catch (const std::exception& e) {
    std::cerr << "clustertwin: internal error: " << ct::excerpt(e.what()) << "; please report it with the command line\n";
  } catch (...) {
    std::cerr << "clustertwin: internal error: an unknown exception; please report it with the command line\n";
  }
  return kExitInputError;
}

// --max-input: the loader's limit for this run, through the variable it reads (io/files.h); an
// error when the value is not a size above 0.
std::string take_max_input(const std::string& value) {
  if (value.empty()) return "";
  const auto size = ct::parse_size(value);
  if (!size || size.value().value() <= 0) return "'" + value + "': expected a size above 0, e.g. 1GiB";
  setenv(ct::kMaxInputVariable, value.c_str(), 1);
  return "";
}

}  // namespace
}  // namespace ct::cli

int main(int argc, char** argv) {
  using namespace ct::cli;
  ct::keep_freed_memory();  // core/memory_policy.h: a stage reuses what the one before freed
  // Named, so that usage lines say "clustertwin", not the path the binary was started by.
  CLI::App app{"clustertwin: a digital twin of an AI cluster's networks", "clustertwin"};
  app.set_version_flag("--version", version_line(), "Print the version and the commit it was built from, and exit");
  app.require_subcommand(1);
  struct Entry {
    const Command* command;
    CLI::App* app;
    Runner run;
  };
  std::vector<Entry> entries;
  std::vector<Context> contexts(std::size(kCommands));
  std::string max_input;  // --max-input SIZE, for every command (io/files.h)
  for (std::size_t i = 0; i < std::size(kCommands); ++i) {
    const Command& command = kCommands[i];
    CLI::App* sub = app.add_subcommand(command.name, command.help);
    Context& context = contexts[i];
    if (command.stage != Stage::kNone) {
      context.catalog_dir = ct::default_catalog_dir();
      sub->add_option("--catalog", context.catalog_dir, "Hardware catalog folder (default: $CLUSTERTWIN_CATALOG or the built-in)");
    }
    sub->add_option(ct::kMaxInputFlag, max_input, "The most bytes one input may hold, read or inflated (default 256MiB)");
    entries.push_back(Entry{&command, sub, command.setup(*sub, context)});
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parse_failure_exit(app, e);  // unknown words (did you mean), bad values, usage
  }
  if (const std::string error = take_max_input(max_input); !error.empty()) {
    std::cerr << ct::format_diagnostics({ct::Diagnostic{command_line(), ct::kMaxInputFlag, error}});
    return kExitInputError;
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].app->parsed()) continue;
    if (const std::string clash = output_clash(*entries[i].app); !clash.empty()) return report_usage(clash);
    Context& context = contexts[i];
    context.command_line = quoted_command_line(argc, argv);
    return run_guarded([&] {
      if (const auto errors = load_stage(entries[i].command->stage, entries[i].command->spec_optional, context);
          !errors.empty()) {
        return report_errors(errors);
      }
      return entries[i].run(context);
    });
  }
  return kExitUsage;
}
