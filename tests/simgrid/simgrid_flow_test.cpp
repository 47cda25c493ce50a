// Side-by-side validation of the fluid engine against SimGrid 3.32 (CM02 max-min, configured as in
// simgrid_reference.h). The system: 12 random 2-tier leaf-spine fabrics (8-32 hosts, 2-4 spines,
// 100-800 Gb/s links), each with H..3H flows between random hosts on random spines, 1-256 MB,
// starting within 10 ms, one in six with a rate cap, and up to three link degradations. The
// expected answer is SimGrid's: both solve the same max-min problem at the same events, so each
// flow's duration (completion - start) must agree within 0.1 %. SimGrid runs once per process, so
// the fabrics are merged into one SimGrid platform (disjoint links, hence independent systems)
// while clustertwin runs each fabric alone. Both of SimGrid's exact modes: Full and Lazy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fluid_scenario.h"
#include "simgrid_reference.h"

namespace ct {
namespace {

constexpr int kFabrics = 12;
constexpr double kTolerance = 1e-3;

// The fabrics, and SimGrid's completion of every flow of them merged, in `mode`.
struct Reference {
  std::vector<FluidScenario> fabrics;
  std::vector<double> completion;
};
Reference reference(SimGridMode mode) {
  Reference r;
  FluidScenario merged;
  for (int i = 0; i < kFabrics; ++i) {
    Rng rng(2024, static_cast<std::uint64_t>(i), 0);
    r.fabrics.push_back(random_leaf_spine_scenario(rng));
    merged.append(r.fabrics.back());
  }
  EXPECT_GE(run_simgrid_in_child(merged, r.completion, mode), 0) << "the SimGrid child failed";
  return r;
}

void expect_agreement(const Reference& ref, const char* mode) {
  std::size_t index = 0;
  double worst = 0;
  for (int i = 0; i < kFabrics; ++i) {
    const FluidScenario& fabric = ref.fabrics[static_cast<std::size_t>(i)];
    const std::vector<double> ours = clustertwin_completion_seconds(fabric);
    for (std::size_t f = 0; f < ours.size(); ++f, ++index) {
      const double start = to_seconds(fabric.flows[f].start);
      const double theirs = ref.completion[index];
      ASSERT_GT(theirs, start) << mode << ": fabric " << i << " flow " << f << " did not complete in SimGrid";
      const double error = std::abs(ours[f] - theirs) / (theirs - start);
      worst = std::max(worst, error);
      EXPECT_LE(error, kTolerance) << mode << ": fabric " << i << " flow " << f << ": clustertwin " << ours[f]
                                   << " s, SimGrid " << theirs << " s";
      if (i < 2 && f < 4) {
        std::printf("fabric %d flow %zu: %zu hops, %lld B, start %.9f s: clustertwin %.9f s, SimGrid %.9f s\n", i, f,
                    fabric.flows[f].path.size(), static_cast<long long>(fabric.flows[f].size.value()), start, ours[f],
                    theirs);
      }
    }
  }
  std::printf("%s: %zu flows on %d fabrics; largest relative difference of durations: %.3g\n", mode, index, kFabrics,
              worst);
}

TEST(SimGridComparison, RandomLeafSpineFabricsAgreeWithin0Point1Percent) {
  expect_agreement(reference(SimGridMode::kFull), "Full");
}

// The same fabrics against SimGrid's faster exact mode, network/optim:Lazy (lazy updates with its
// action heap), the mode the speed comparison of bench/bench_simulate.cpp is made against.
TEST(SimGridComparison, RandomLeafSpineFabricsAgreeInLazyMode) {
  expect_agreement(reference(SimGridMode::kLazy), "Lazy");
}

}  // namespace
}  // namespace ct
