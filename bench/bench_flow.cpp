// Flow engine benchmarks: a random permutation of N flows (every host sends one flow to another
// host) on a synthetic 2-tier leaf-spine fabric (32 hosts per leaf, S spines, 400 Gb/s
// everywhere, each flow on a random spine as ECMP would spread it), sizes 1-64 MB, all starting at
// 0, run to the last completion. S = 32 is non-blocking (flows meet mostly at hosts, so the
// flow/constraint graph falls into many small components); S = 4 is 8:1 oversubscribed (one
// large component, the incremental re-solve's worst case).
//   BM_FlowEngine/N/S            clustertwin's engine alone (build + run).
//   BM_FlowEngineVsSimGrid/N/S   the same scenario in clustertwin and in SimGrid 3.32 (CM02, Full,
//                              configured as tests/simgrid/simgrid_reference.h), one iteration
//                              each; counters: both wall times, their ratio, and the largest
//                              relative difference of flow durations. SimGrid runs in a forked
//                              child because its engine can live only once per process.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "bench_util.h"
#include "fluid_scenario.h"
#include "sim/flow/flow_engine.h"
#include "simgrid_reference.h"

namespace ct {
namespace {

using bench::seconds_since;

FluidScenario permutation_scenario(int hosts, int spines, std::uint64_t seed) {
  LeafSpineShape shape;
  shape.hosts = hosts;
  shape.hosts_per_leaf = 32;
  shape.spines = spines;
  shape.host_link = gbps(400);
  shape.fabric_link = gbps(400);
  FluidScenario s = leaf_spine_constraints(shape);
  Rng rng(seed, 0, 0);
  std::vector<int> dst(static_cast<std::size_t>(hosts));
  std::iota(dst.begin(), dst.end(), 0);
  for (std::size_t i = dst.size() - 1; i > 0; --i) std::swap(dst[i], dst[rng.uniform(i + 1)]);
  for (std::size_t i = 0; i < dst.size(); ++i) {
    if (dst[i] == static_cast<int>(i)) std::swap(dst[i], dst[(i + 1) % dst.size()]);
  }
  for (int h = 0; h < hosts; ++h) {
    const auto spine = static_cast<int>(rng.uniform(static_cast<std::uint64_t>(spines)));
    FluidScenario::Flow f;
    f.path = leaf_spine_path(shape, h, dst[static_cast<std::size_t>(h)], spine);
    f.size = Bytes(1'000'000 + static_cast<std::int64_t>(rng.uniform(63'000'000)));
    f.start = TimePs(0);
    s.flows.push_back(std::move(f));
  }
  return s;
}

void BM_FlowEngine(benchmark::State& state) {
  const FluidScenario s = permutation_scenario(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(clustertwin_completion_seconds(s));
  state.counters["flows"] = static_cast<double>(s.flows.size());
}
BENCHMARK(BM_FlowEngine)
    ->Args({512, 32})
    ->Args({2048, 32})
    ->Args({8192, 32})
    ->Args({8192, 4})
    ->Unit(benchmark::kMillisecond);

void BM_FlowEngineVsSimGrid(benchmark::State& state) {
  const FluidScenario s = permutation_scenario(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), 1);
  double ours_s = 0;
  double theirs_s = 0;
  double worst = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<double> ours = clustertwin_completion_seconds(s);
    ours_s = seconds_since(t0);
    std::vector<double> theirs;
    theirs_s = run_simgrid_in_child(s, theirs);
    if (theirs_s < 0) {
      state.SkipWithError("SimGrid child failed");
      return;
    }
    for (std::size_t i = 0; i < ours.size(); ++i) {
      worst = std::max(worst, std::abs(ours[i] - theirs[i]) / theirs[i]);
    }
    state.SetIterationTime(ours_s + theirs_s);
  }
  state.counters["clustertwin_s"] = ours_s;
  state.counters["simgrid_s"] = theirs_s;
  state.counters["simgrid_over_clustertwin"] = theirs_s / ours_s;
  state.counters["max_rel_diff"] = worst;
}
BENCHMARK(BM_FlowEngineVsSimGrid)
    ->Args({512, 32})
    ->Args({2048, 32})
    ->Args({8192, 32})
    ->Args({2048, 4})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
