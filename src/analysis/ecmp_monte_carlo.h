// Monte Carlo over source ports: how often per-flow ECMP collides on this fabric with these flows,
// beside the balls-into-bins closed forms (analysis/birthday.h).
//
// Trial t gives every flow a fresh RoCE source port, drawn in flow order from
// Rng(seed, t, kPortStream) (traffic/flow.h; trial 0 is the draw the elephant generator makes with
// the same seed), walks all flows, and records:
//   first-tier collision  two flows on one member of a source leaf's up group (the leaf uplinks);
//   any collision         two flows on one member of any multi-member group (analysis/hash_scenario.h),
//                         with the cause of each;
//   busiest first-tier uplink, idle first-tier uplinks (members of the entered leaf up groups
//   without a flow), and the slowest flow's max-min fair throughput (analysis/flow_rates.h).
// Trials run on `threads` std::threads, trial t on thread t mod threads; each trial depends only
// on (seed, t), and results are combined in trial order, so the result is identical for any
// thread count.
//
// Closed forms, for the first-tier groups the flows enter (k_g flows on n_g members each; the
// groups are fixed by sources and destinations, not by ports), assuming independent uniform
// hashing:
//   P(collision)      = 1 - prod_g n_g! / ((n_g - k_g)! n_g^k_g)
//   P(busiest <= m)   = prod_g P(max load of k_g flows on n_g members <= m)
//   E[idle uplinks]   = sum_g n_g (1 - 1/n_g)^k_g
//   E[slowest flow]   = C sum_m P(busiest = m) / m, when every flow crosses links of one capacity C,
//                       no two flows share a NIC, and the leaf uplinks are the only links they share.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "analysis/decision_coupling.h"
#include "analysis/hash_scenario.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "core/threads.h"

namespace ct {

struct EcmpClosedForms {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> groups;  // (members n, flows k) per first-tier group
  double p_collision = 0.0;
  bool busiest_known = false;       // max-load distribution computed (k <= 200, n <= 1024 per group)
  std::vector<double> busiest_pmf;  // P(busiest first-tier uplink carries m flows), m = 0..max k
  double expected_busiest = 0.0;
  double expected_idle = 0.0;
  bool slowest_applicable = false;
  double expected_slowest = 0.0;  // bits per second
  // Why the slowest-flow form does not apply (any may hold):
  std::uint32_t unreachable = 0;          // flows without a path
  std::uint32_t without_leaf_choice = 0;  // flows that arrive without a hashed choice at a source leaf
  bool shared_nics = false;               // two flows leave or enter over one NIC link
  bool mixed_capacities = false;          // the flows cross links of more than one capacity
};

// The closed forms for the first-tier groups of walked paths.
EcmpClosedForms first_tier_closed_forms(const PathWalker& walker, const std::vector<FlowPath>& paths);

struct TrialOutcome {
  bool first_collision = false;
  bool any_collision = false;
  std::uint32_t busiest_first = 0;
  std::uint32_t idle_first = 0;
  double slowest = 0.0;
  std::array<std::uint32_t, kCollisionCauses> causes{};  // collisions by cause
};

struct MonteCarloOptions {
  std::uint32_t trials = 1000;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  ProgressCallback progress{};  // trials done, from the caller's thread (core/threads.h); may be empty
  // The trials run are first_trial .. first_trial + trials - 1: a slice of a larger study, whose
  // outcomes, gathered in trial order from every slice, summarize_ecmp_trials turns into the
  // whole study's result (each trial depends on (seed, t) alone).
  std::uint32_t first_trial = 0;
};

struct MonteCarloResult {
  std::uint32_t trials = 0;
  std::vector<TrialOutcome> outcomes;  // per trial
  double p_first_collision = 0.0;
  double p_any_collision = 0.0;
  std::vector<std::uint32_t> busiest_histogram;  // trials whose busiest first-tier uplink carried m flows
  double mean_busiest = 0.0;
  double se_busiest = 0.0;
  double mean_idle = 0.0;
  double se_idle = 0.0;
  double mean_slowest = 0.0;  // bits per second
  double se_slowest = 0.0;
  std::array<std::uint64_t, kCollisionCauses> collisions_by_cause{};
  std::array<std::uint32_t, kCollisionCauses> trials_with_cause{};
  std::vector<std::uint32_t> stage_links_used;  // per DecisionCoupling stage, over all trials; empty
                                                // from summarize_ecmp_trials (not kept per trial)
  EcmpClosedForms closed;
};

// PRECONDITION: options.trials >= 1, options.threads >= 1.
MonteCarloResult run_ecmp_monte_carlo(const PathWalker& walker, std::span<const RouteRequest> requests,
                                      const DecisionCoupling& coupling, const MonteCarloOptions& options);

// The result of outcomes already run (every trial of a study, in trial order: the slices'
// outcomes gathered), as run_ecmp_monte_carlo gives it, less stage_links_used.
// PRECONDITION: outcomes is not empty.
MonteCarloResult summarize_ecmp_trials(const PathWalker& walker, std::span<const RouteRequest> requests,
                                       std::vector<TrialOutcome> outcomes, std::uint64_t seed);

// Fresh source ports of trial t (see above), in place.
void draw_trial_ports(std::span<RouteRequest> requests, std::uint64_t seed, std::uint64_t trial);

}  // namespace ct
