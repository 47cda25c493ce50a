// The studies at one point and one seed, each through the library call its command uses
// (sim/simulation.h simulate, analysis/hash_study.h study_hash), never by running the command:
//
//   simulate  per scenario of the sweep, read on the point's fabric with the row's seed as its
//             default seed (a scenario file that writes `seed:` keeps it, so its rows agree over
//             seeds): the makespan (s), the share of the workers' time lost to the slowest path
//             (analysis/straggler.h), and per collective or transfer the mean iteration time (s)
//             and busbw (GB/s, 1e9 bytes/s; analysis/operation_figures.h). A figure the run cannot
//             give (an operation that never finishes, a partial one) is empty.
//   hash      generated elephants (or a ring's flows) hashed per flow on the point's fabric with the
//             row's seed: the Monte Carlo's P(two flows share a member of a multi-member group),
//             the same on the first tier, and the closed form of the first tier (analysis/
//             ecmp_monte_carlo.h); with compare, the slowest flow's max-min rate (Gbit/s) under
//             each load-balancing scheme, empty where a scheme does not apply.
// Both run on the calling thread (one thread per point, or per trial slice of a point:
// docs/models/sweep.md).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/result.h"
#include "analysis/hash_study.h"
#include "fabric/fabric.h"
#include "sweep/sweep_file.h"

namespace ct {

using SweepMetrics = std::vector<std::optional<double>>;

// In sweep_metrics() order for the simulate study; an error when a scenario cannot run on the point.
Result<SweepMetrics> simulate_study_metrics(const SweepStudies& studies, const Fabric& fabric, std::uint64_t seed);
// The trials a hash study runs: all of them (the default); a slice, trials first .. first + count - 1,
// whose per-trial outcomes go to *kept (the metrics are then the slice's, of no use); or none, with
// every trial's outcomes gathered from the slices (the metrics then equal the unsplit study's).
struct HashTrials {
  std::uint32_t first = 0;
  std::uint32_t count = 0;  // with kept: the slice's trials
  HashTrialOutcomes* kept = nullptr;
  const HashTrialOutcomes* gathered = nullptr;
};
// In sweep_metrics() order for the hash study.
Result<SweepMetrics> hash_study_metrics(const SweepStudies& studies, const Fabric& fabric, std::uint64_t seed,
                                        const HashTrials& trials = {});

}  // namespace ct
