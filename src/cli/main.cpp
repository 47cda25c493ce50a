// clustertwin: a digital twin of an AI cluster's networks. This file only lists the subcommands;
// each one lives in its own <name>_command.cpp.
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace ct::cli {
Runner setup_catalog(CLI::App& app);
Runner setup_hash(CLI::App& app);
Runner setup_ib(CLI::App& app);
Runner setup_plan(CLI::App& app);
Runner setup_reliability(CLI::App& app);
Runner setup_simulate(CLI::App& app);
Runner setup_topology(CLI::App& app);

namespace {
const Command kCommands[] = {
    {"catalog", "List the hardware catalog (--zoo: the data-center chip zoo)", setup_catalog},
    {"hash", "ECMP on the built fabric: paths, collisions and why, Monte Carlo vs closed forms, alternatives",
     setup_hash},
    {"ib", "InfiniBand subnet manager: LIDs, ftree/updn/minhop LFTs, checks, ibnetdiscover and LFT dumps", setup_ib},
    {"plan", "Size the backend fabric of a cluster spec: BOM, power, bisection, limits, failure domains", setup_plan},
    {"reliability", "Failure probabilities of the backend network and their cost to a training job, 1 vs 2 vs 4 planes",
     setup_reliability},
    {"simulate", "Flow-level simulation of collectives, transfers and faults: times, busbw, waiting, bottlenecks",
     setup_simulate},
    {"topology", "Export the physical topology of a cluster spec as JSON or Graphviz DOT", setup_topology},
};
}  // namespace
}  // namespace ct::cli

int main(int argc, char** argv) {
  using namespace ct::cli;
  CLI::App app{"clustertwin: a digital twin of an AI cluster's networks"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, Runner>> runners;
  for (const auto& command : kCommands) {
    CLI::App* sub = app.add_subcommand(command.name, command.help);
    runners.emplace_back(sub, command.setup(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  for (auto& [sub, run] : runners) {
    if (sub->parsed()) return run();
  }
  return kExitUsage;
}
