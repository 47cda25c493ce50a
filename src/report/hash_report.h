// The text report of `clustertwin hash`: the ECMP groups of the fabric, each flow's path hop by
// hop, flows per link and per ECMP group, collisions with their causes and the per-tier evidence,
// each flow's fair throughput; with Monte Carlo, the simulated statistics beside their closed
// forms; with --compare, one row per load-balancing scheme. Pure function of its inputs: the same
// inputs give the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/decision_coupling.h"
#include "analysis/ecmp_monte_carlo.h"
#include "analysis/hash_scenario.h"
#include "analysis/scheme_comparison.h"
#include "routing/ecmp_config.h"
#include "routing/forwarding_state.h"
#include "routing/switch_hashes.h"
#include "topology/topology.h"
#include "traffic/flow.h"

namespace ct {

struct HashReportInput {
  std::string spec_name;
  std::string spec_file;
  const Topology* topology = nullptr;
  const ForwardingState* forwarding = nullptr;
  const SwitchHashes* hashes = nullptr;
  std::span<const Flow> flows;
  std::string flow_source;  // "2 elephant flows (generated, seed 1)", "flows.csv"
  std::vector<LinkId> failed;
  const HashScenario* scenario = nullptr;
  const DecisionCoupling* coupling = nullptr;
  std::uint32_t coupling_samples = 0;
  const MonteCarloResult* monte_carlo = nullptr;   // optional
  std::uint64_t seed = 0;
  const std::vector<SchemeRow>* comparison = nullptr;  // optional
  std::uint32_t comparison_trials = 1;
  std::size_t max_listed = 64;  // paths, links, groups and collisions listed at most
  std::vector<VertexId> fib_switches;  // switches whose whole table to print (--fib)
};

std::string hash_report(const HashReportInput& in);

}  // namespace ct
