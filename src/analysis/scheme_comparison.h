// The same flows under each load-balancing scheme (routing/load_balancing.h), one row per scheme:
// the busiest link in play, how many links in play stayed idle (analysis/link_loads.h), and the
// slowest and mean flow throughput under max-min fair sharing (analysis/flow_rates.h).
//
// Every scheme sees the same source ports: trial t draws them as the Monte Carlo does
// (analysis/ecmp_monte_carlo.h), and each row is the mean over trials 0 .. trials-1 (trial 0
// alone when trials = 1). Trials run on `threads` threads with per-trial results combined in
// trial order: identical for any thread count. Flowlets: a flow with bursts separated by idle
// gaps of at least the threshold has one flowlet per burst, else one. Plane split needs 2 or more
// planes (otherwise the row is marked not applicable).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "core/threads.h"

namespace ct {

struct SchemeRow {
  Scheme scheme = Scheme::kHash;
  bool applicable = true;
  std::string note;            // what the row assumed, e.g. "4 QPs", "gap 500 us: 1 flowlet per flow"
  double busiest = 0.0;        // flows on the busiest link in play (mean over trials)
  double idle = 0.0;           // idle links in play
  double links = 0.0;          // links in play
  double slowest = 0.0;        // bits per second
  double mean_throughput = 0.0;
};

struct ComparisonOptions {
  std::uint32_t qps = 4;
  double flowlet_gap_us = 500.0;
  std::uint64_t seed = 1;
  std::uint32_t trials = 1;
  unsigned threads = 1;
  ProgressCallback progress{};  // trials done, from the caller's thread (core/threads.h); may be empty
  std::uint32_t first_trial = 0;  // scheme_trials: the trials run are first_trial .. first_trial + trials - 1
};

// One trial's figures under one scheme (a row is their mean over trials).
struct SchemeMeasure {
  double busiest = 0, idle = 0, links = 0, slowest = 0, mean = 0;
};

// bursts and idle gaps per request, for the flowlet count.
struct BurstPattern {
  int bursts = 1;
  double idle_us = 0.0;
};

// The per-trial figures, [trial x scheme] in kAllSchemes order, of the trials first_trial ..
// first_trial + max(1, trials) - 1: a slice of a comparison (each trial depends on (seed, t) alone).
std::vector<SchemeMeasure> scheme_trials(const PathWalker& walker, std::span<const RouteRequest> requests,
                                         std::span<const BurstPattern> bursts, const ComparisonOptions& options);
// The rows from every trial's figures in trial order (the slices' gathered), as compare_schemes gives them.
std::vector<SchemeRow> scheme_rows(const PathWalker& walker, std::span<const RouteRequest> requests,
                                   std::span<const BurstPattern> bursts, const ComparisonOptions& options,
                                   const std::vector<SchemeMeasure>& per_trial);
// scheme_rows(scheme_trials(...)) over trials 0 .. max(1, trials) - 1.
std::vector<SchemeRow> compare_schemes(const PathWalker& walker, std::span<const RouteRequest> requests,
                                       std::span<const BurstPattern> bursts, const ComparisonOptions& options);

}  // namespace ct
