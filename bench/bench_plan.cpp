// `clustertwin plan` benchmarks: parse + validate + build_topology + plan of rail-optimized
// HGX B300 clusters on SN5600 at 400G (radix 128), two planes:
//   BM_BuildAndPlan/1024   1,024 nodes = 8,192 GPUs, 2 tiers (examples/b300-dual-plane.yaml)
//   BM_BuildAndPlan/4096   4,096 nodes = 32,768 GPUs, 3 tiers: per plane 512 leaves, 8 pods x 64
//                          spines, 256 cores; 98,304 links per plane, 196,608 in all
//   BM_PlanOnly/4096       the planner alone on the prebuilt 32,768-GPU topology
// Counter peak_rss_MiB: the process's peak resident set size (getrusage ru_maxrss) after the run,
// an upper bound on what one build + plan needs. Goal (docs/performance.md): under 1 s and 1 GiB.
#include <benchmark/benchmark.h>

#include "bench_util.h"
#include "plan/planner.h"
#include "topology/builder.h"

namespace ct {
namespace {

ValidSpec valid_spec(long long nodes) { return bench::valid_spec(bench::b300_yaml(nodes, nodes > 1024 ? 3 : 2)); }

void report(benchmark::State& state, const Topology& t, const Plan& p) {
  state.counters["gpus"] = static_cast<double>(p.gpus);
  state.counters["vertices"] = static_cast<double>(t.vertex_count());
  state.counters["links"] = static_cast<double>(t.link_count());
  state.counters["peak_rss_MiB"] = bench::peak_rss_mib();
}

void BM_BuildAndPlan(benchmark::State& state) {
  const long long nodes = state.range(0);
  bench::catalog();
  for (auto _ : state) {
    const ValidSpec spec = valid_spec(nodes);
    const Topology topology = build_topology(spec, bench::catalog());
    const Plan p = plan(spec, topology, bench::catalog());
    benchmark::DoNotOptimize(p.bisection);
    state.PauseTiming();
    report(state, topology, p);
    state.ResumeTiming();
  }
}
BENCHMARK(BM_BuildAndPlan)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

void BM_PlanOnly(benchmark::State& state) {
  const ValidSpec spec = valid_spec(state.range(0));
  const Topology topology = build_topology(spec, bench::catalog());
  for (auto _ : state) {
    const Plan p = plan(spec, topology, bench::catalog());
    benchmark::DoNotOptimize(p.bisection);
    state.PauseTiming();
    report(state, topology, p);
    state.ResumeTiming();
  }
}
BENCHMARK(BM_PlanOnly)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
