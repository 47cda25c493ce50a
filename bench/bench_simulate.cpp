// `clustertwin simulate` benchmarks on built fabrics with ECMP paths (docs/performance.md, section
// "Flow simulation"):
//   BM_RingStep32k/order/channels  one step of a ring all-reduce over 32,768 B300 GPUs (4,096 HGX
//                                  nodes) on the two-plane, three-tier rail-optimized SN5600 fabric
//                                  at 400G of bench_plan (per plane 512 leaves, 8 pods x 64 spines,
//                                  256 cores). order 0: NCCL-like rail-aligned rings (one channel
//                                  per NIC port, 7 of 8 hops on NVLink); order 1: the GPUs in a
//                                  random order (a scattered job: nearly every hop crosses the
//                                  fabric, most through the cores). Timed: topology build, routing
//                                  and the fluid run (YAML parsing excluded). Goal: under 2 s and
//                                  2 GiB (peak_rss_MiB, the process's peak resident set).
//   BM_Permutation8kVsSimGrid      a random permutation of 8,192 transfers (1-64 MB, all at t = 0)
//                                  between the 8,192 ports of plane 0 of examples/b300-dual-plane
//                                  (2 tiers, 128 leaves, 128 spines) with ECMP paths; then the very
//                                  same constraints, paths and sizes given to SimGrid 3.32 (CM02,
//                                  Full, tests/simgrid/simgrid_reference.h) in a forked child.
//                                  Counters: both wall times, their ratio, the largest relative
//                                  difference of completion times. Goal: >= 10x, identical results.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "bench_util.h"
#include "core/rng.h"
#include "sim/flow/flow_simulation.h"
#include "topology/builder.h"
#include "traffic/scenario_parser.h"

#ifdef CT_HAVE_SIMGRID
#include "fluid_scenario.h"
#include "simgrid_reference.h"
#endif

namespace ct {
namespace {

using bench::b300_yaml;
using bench::catalog;
using bench::peak_rss_mib;
using bench::seconds_since;
using bench::valid_spec;

Fabric fabric_of(const ValidSpec& spec) {
  auto f = build_fabric(spec, catalog());
  if (!f) {
    std::fputs(format_diagnostics(f.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(f).value();
}

SimulationResult run(const Fabric& fabric, const Scenario& scenario) {
  SimulationOptions options;
  options.series_links = 0;
  auto r = simulate(fabric, scenario, options);
  if (!r) {
    std::fputs(format_diagnostics(r.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(r).value();
}

Scenario ring_step(const Fabric& fabric, bool random_order) {
  const std::string yaml = fmt::format(R"(scenario:
  collectives:
    - kind: all-reduce
      gpus: {}
      bytes: 1GiB
      steps: 1
      {}
)",
                                       random_order ? "{order: random}" : "all", random_order ? "channels: 2" : "");
  auto s = parse_scenario("bench-ring.yaml", yaml, fabric);
  if (!s) {
    std::fputs(format_diagnostics(s.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(s).value();
}

void BM_RingStep32k(benchmark::State& state) {
  const bool random_order = state.range(0) != 0;
  const ValidSpec spec = valid_spec(b300_yaml(4096, 3));
  SimulationResult last;
  for (auto _ : state) {
    const Fabric fabric = fabric_of(spec);
    const Scenario scenario = ring_step(fabric, random_order);
    last = run(fabric, scenario);
    benchmark::DoNotOptimize(last.makespan);
  }
  std::size_t network = 0;
  for (const FlowRecord& f : last.flows) network += f.src_port.valid() ? 1 : 0;
  state.counters["flows"] = static_cast<double>(last.flows.size());
  state.counters["network_flows"] = static_cast<double>(network);
  state.counters["step_ms"] = to_seconds(last.makespan) * 1e3;
  state.counters["solved_flows"] = static_cast<double>(last.solved_flows);
  state.counters["instants"] = static_cast<double>(last.instants);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_RingStep32k)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

// A random permutation of the 8,192 ports of plane 0: port i sends to perm[i] != i, 1-64 MB.
Scenario permutation(const Topology& topology) {
  const std::size_t ports = topology.backend_port_count() / static_cast<std::size_t>(topology.planes);
  std::vector<VertexId> plane0;
  for (std::uint32_t v = 0; v < topology.backend_port_count(); ++v) {
    if (topology.plane[v] == 0) plane0.push_back(VertexId(v));
  }
  Rng rng(1, 0, 0);
  std::vector<std::size_t> dst(ports);
  std::iota(dst.begin(), dst.end(), 0);
  for (std::size_t i = ports - 1; i > 0; --i) std::swap(dst[i], dst[rng.uniform(i + 1)]);
  for (std::size_t i = 0; i < ports; ++i) {
    if (dst[i] == i) std::swap(dst[i], dst[(i + 1) % ports]);
  }
  Scenario s;
  for (std::size_t i = 0; i < ports; ++i) {
    TransferSpec t;
    t.name = fmt::format("p{}", i);
    t.src.is_port = true;
    t.src.port = plane0[i];
    t.dst.is_port = true;
    t.dst.port = plane0[dst[i]];
    t.bytes = Bytes(1'000'000 + static_cast<std::int64_t>(rng.uniform(63'000'000)));
    t.qps = 1;
    s.transfers.push_back(t);
  }
  return s;
}

#ifdef CT_HAVE_SIMGRID
// The simulated flows as a FluidScenario: same constraints (capacities), same paths, same sizes.
FluidScenario as_fluid(const SimulationResult& r) {
  FluidScenario f;
  for (const ConstraintInfo& c : r.constraints) f.capacity.push_back(c.capacity);
  for (const FlowRecord& rec : r.flows) {
    FluidScenario::Flow flow;
    for (std::uint32_t h = 0; h < rec.path_size; ++h) flow.path.push_back(ConstraintId(r.path_pool[rec.path_begin + h]));
    flow.size = rec.bytes;
    flow.start = rec.start;
    f.flows.push_back(std::move(flow));
  }
  return f;
}

void BM_Permutation8kVsSimGrid(benchmark::State& state) {
  const ValidSpec spec = valid_spec(b300_yaml(1024, 2));
  const Fabric fabric = fabric_of(spec);
  const Scenario scenario = permutation(fabric.topology());
  double ours_s = 0;
  double theirs_s = 0;
  double worst = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const SimulationResult r = run(fabric, scenario);
    ours_s = seconds_since(t0);
    std::vector<double> theirs;
    theirs_s = run_simgrid_in_child(as_fluid(r), theirs);
    if (theirs_s < 0) {
      state.SkipWithError("SimGrid child failed");
      return;
    }
    for (std::size_t i = 0; i < r.flows.size(); ++i) {
      const double ours = to_seconds(r.flows[i].end);
      worst = std::max(worst, std::abs(ours - theirs[i]) / theirs[i]);
    }
    state.SetIterationTime(ours_s + theirs_s);
  }
  state.counters["flows"] = static_cast<double>(scenario.transfers.size());
  state.counters["clustertwin_s"] = ours_s;
  state.counters["simgrid_s"] = theirs_s;
  state.counters["simgrid_over_clustertwin"] = theirs_s / ours_s;
  state.counters["max_rel_diff"] = worst;
}
BENCHMARK(BM_Permutation8kVsSimGrid)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
#endif

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
