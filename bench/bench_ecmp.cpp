// ECMP path walking on built fabrics: flow-hop decisions per second (a decision = one switch
// hashing a flow and picking a member of a group of two or more; path_walker.h), the forwarding
// state's build time (also at 8k / 32k / 131k GPUs: BM_ForwardingBuildScale), Monte Carlo trials per second, the max-min solve of one trial, and the whole
// hash study as `clustertwin hash` runs it.
//
// Fabrics from the bundled catalog: examples/b300-dual-plane.yaml (1,024 HGX B300, 2 planes,
// 2 tiers: 2 decisions per cross-leaf flow) and a 3-tier variant (4,096 nodes: up to 4 decisions).
// Flows: 4,096 random pairs of plane-0 ports on different leaves with random RoCE source ports,
// walked in order; items/s = decisions per second on one core.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/decision_coupling.h"
#include "analysis/ecmp_monte_carlo.h"
#include "analysis/flow_rates.h"
#include "analysis/hash_scenario.h"
#include "bench_util.h"
#include "analysis/hash_study.h"
#include "core/rng.h"
#include "fabric/fabric.h"
#include "io/loaders.h"
#include "routing/forwarding_state.h"
#include "routing/path_walker.h"
#include "routing/port_address.h"
#include "routing/switch_hashes.h"
#include "topology/builder.h"
#include "traffic/flow.h"

namespace ct {
namespace {

const char* kThreeTier =
    "name: b300-3tier\nnodes: {model: hgx-b300, count: 4096}\n"
    "backend: {topology: rail-optimized, planes: 2, tiers: 3, switch: sn5600, oversubscription: [1, 1]}\n";

Topology build(bool three_tier) {
  if (three_tier) return build_topology(bench::valid_spec(kThreeTier), bench::catalog());
  auto spec = load_spec(std::string(CT_SOURCE_DIR) + "/examples/b300-dual-plane.yaml", bench::catalog());
  if (!spec) {
    std::fputs(format_diagnostics(spec.errors()).c_str(), stderr);
    std::abort();
  }
  return build_topology(spec.value(), bench::catalog());
}

const Topology& fabric(bool three_tier) {
  if (three_tier) {
    static const Topology three = build(true);
    return three;
  }
  static const Topology two = build(false);
  return two;
}

std::vector<RouteRequest> random_flows(const Topology& t, const ForwardingState& f, std::size_t count) {
  Rng rng(7, 0, 0);
  const auto ports_per_plane = static_cast<std::uint64_t>(t.host_count) * t.ports_per_host;
  std::vector<RouteRequest> flows;
  while (flows.size() < count) {
    const std::uint64_t a = rng.uniform(ports_per_plane);
    const std::uint64_t b = rng.uniform(ports_per_plane);
    const VertexId src = t.port_of(HostId(static_cast<std::uint32_t>(a / t.ports_per_host)), static_cast<int>(a % t.ports_per_host), 0);
    const VertexId dst = t.port_of(HostId(static_cast<std::uint32_t>(b / t.ports_per_host)), static_cast<int>(b % t.ports_per_host), 0);
    if (f.leaf_of(src) == f.leaf_of(dst)) continue;
    RouteRequest r{src, dst, FlowKey{port_address(t, src), port_address(t, dst), kIpProtoUdp,
                                     static_cast<std::uint16_t>(0xC000 + rng.uniform(0x4000)), kRoceV2UdpPort}};
    flows.push_back(r);
  }
  return flows;
}

// Args: fabric (0: 2 tiers, 1: 3 tiers), hash (HashAlgorithm, or -1 for linux policy 1), seed
// mode, number of flows (4,096: the fabric's tables mostly out of cache; 64: a Monte Carlo's few
// flows walked again and again, tables in cache).
EcmpConfig config_of(const benchmark::State& state) {
  EcmpConfig c;
  if (state.range(1) < 0) {
    c.linux_kernel = true;
    c.linux_policy = 1;
  } else {
    c.algorithm = static_cast<HashAlgorithm>(state.range(1));
  }
  c.seed_mode = static_cast<SeedMode>(state.range(2));
  return c;
}

// The fabric, hash, walker and flows of the path-walk benchmarks' arguments.
struct WalkSetup {
  explicit WalkSetup(const benchmark::State& state)
      : t(fabric(state.range(0) == 1)), c(config_of(state)), f(t), h(t, c), w(f, h),
        flows(random_flows(t, f, static_cast<std::size_t>(state.range(3)))) {}
  const Topology& t;
  const EcmpConfig c;
  const ForwardingState f;
  const SwitchHashes h;
  const PathWalker w;
  const std::vector<RouteRequest> flows;
};

void BM_PathWalk(benchmark::State& state) {
  const WalkSetup setup(state);
  const auto& [t, c, f, h, w, flows] = setup;
  std::vector<PathHop> path;
  std::uint64_t decisions = 0;
  std::uint64_t hops = 0;
  for (const RouteRequest& r : flows) {
    w.walk(r.src, r.dst, r.key, path);
    for (const PathHop& hop : path) decisions += hop.group != kNoGroup && f.size(hop.group) > 1;
    hops += path.size();
  }
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (const RouteRequest& r : flows) {
      w.walk(r.src, r.dst, r.key, path);
      sum += path.back().link.value();
    }
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * decisions));
  state.counters["hops_per_second"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(fmt::format("{} tiers, {} flows, {}, {}, {:.2f} decisions/flow", t.tiers, flows.size(), c.function_name(),
                             seed_mode_name(c.seed_mode), static_cast<double>(decisions) / static_cast<double>(flows.size())));
}

// The same flows and decisions through PathWalker::walk_all (kLanes flows interleaved hop by
// hop; identical hops, routing_forwarding_test), the way the Monte Carlo and the hash report walk.
void BM_PathWalkAll(benchmark::State& state) {
  const WalkSetup setup(state);
  const auto& [t, c, f, h, w, flows] = setup;
  std::uint64_t decisions = 0;
  std::uint64_t hops = 0;
  w.walk_all(std::span<const RouteRequest>(flows), [&](std::size_t, bool, std::span<const PathHop> path) {
    for (const PathHop& hop : path) decisions += hop.group != kNoGroup && f.size(hop.group) > 1;
    hops += path.size();
  });
  std::uint64_t sum = 0;
  for (auto _ : state) {
    w.walk_all(std::span<const RouteRequest>(flows),
               [&](std::size_t, bool, std::span<const PathHop> path) { sum += path.back().link.value(); });
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * decisions));
  state.counters["hops_per_second"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(fmt::format("{} tiers, {} flows, {}, {}, {:.2f} decisions/flow, interleaved", t.tiers, flows.size(),
                             c.function_name(), seed_mode_name(c.seed_mode),
                             static_cast<double>(decisions) / static_cast<double>(flows.size())));
}

void BM_ForwardingBuild(benchmark::State& state) {
  const Topology& t = fabric(state.range(0) == 1);
  std::size_t groups = 0;
  for (auto _ : state) {
    const ForwardingState f(t);
    groups = f.group_count();
    benchmark::DoNotOptimize(groups);
  }
  state.SetLabel(fmt::format("{} tiers, {} links, {} groups", t.tiers, t.link_count(), groups));
}

// The build alone at scale: the two-plane, three-tier B300 fabric of bench_simulate's BM_AllReduce
// at `nodes` HGX B300 (1,024 / 4,096 / 16,384 nodes: 8,192 / 32,768 / 131,072 GPUs). Counters: the
// window entries stored and the groups. Goal: time growing no faster than the fabric (N log N).
void BM_ForwardingBuildScale(benchmark::State& state) {
  const std::string yaml = fmt::format(
      "name: b300-scale\nnodes: {{model: hgx-b300, count: {}}}\n"
      "backend: {{topology: rail-optimized, planes: 2, tiers: 3, switch: sn5600, oversubscription: [1, 1]}}\n",
      state.range(0));
  const Topology t = build_topology(bench::valid_spec(yaml), bench::catalog());
  std::size_t groups = 0;
  std::size_t entries = 0;
  for (auto _ : state) {
    const ForwardingState f(t);
    groups = f.group_count();
    entries = f.window_entries();
    benchmark::DoNotOptimize(groups);
  }
  state.SetLabel(fmt::format("{} GPUs, {} links", state.range(0) * 8, t.link_count()));
  state.counters["groups"] = static_cast<double>(groups);
  state.counters["window_entries"] = static_cast<double>(entries);
}

// Monte Carlo trials per second on one thread: 64 flows, each trial = fresh ports, walk, collisions
// with causes, max-min rates.
void BM_MonteCarloTrials(benchmark::State& state) {
  const Topology& t = fabric(false);
  const ForwardingState f(t);
  const SwitchHashes h(t, EcmpConfig{});
  const PathWalker w(f, h);
  const std::vector<RouteRequest> flows = random_flows(t, f, static_cast<std::size_t>(state.range(0)));
  const DecisionCoupling coupling(w, flows, 1, 64);
  const auto trials = static_cast<std::uint32_t>(state.range(1));
  for (auto _ : state) {
    const MonteCarloResult r = run_ecmp_monte_carlo(w, flows, coupling, {trials, 1, 1});
    benchmark::DoNotOptimize(r.p_any_collision);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trials));
  state.SetLabel(fmt::format("{} flows, items = trials", flows.size()));
}

// The max-min part of a trial alone: the rates of `flows` hashed paths (64: the Monte Carlo's
// elephants) by one reused FlowRateSolver, as each Monte Carlo thread does per trial (no allocation
// once warm, flow_rates_alloc_test). items = solves.
void BM_FlowRatesPerTrial(benchmark::State& state) {
  const Topology& t = fabric(false);
  const ForwardingState f(t);
  const SwitchHashes h(t, EcmpConfig{});
  const PathWalker w(f, h);
  const std::vector<RouteRequest> flows = random_flows(t, f, static_cast<std::size_t>(state.range(0)));
  std::vector<FlowPath> paths(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    paths[i].reached = w.walk(flows[i].src, flows[i].dst, flows[i].key, paths[i].hops);
  }
  const FlowRoutes routes = routes_of_paths(paths, f);
  FlowRateSolver solver(t);
  FlowRates rates;
  for (auto _ : state) {
    solver.solve(routes, rates);
    benchmark::DoNotOptimize(rates.throughput.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetLabel(fmt::format("{} flows, {} sub-flow hops, items = solves", flows.size(), routes.link.size()));
}

// The b300-dual-plane example's fabric, built once for every benchmark that uses it; empty when
// the example does not build.
const std::optional<Fabric>& b300_example() {
  static const std::optional<Fabric> fabric = []() -> std::optional<Fabric> {
    auto catalog = load_catalog(default_catalog_dir());
    if (!catalog) return std::nullopt;
    auto spec = load_spec(std::string(CT_SOURCE_DIR) + "/examples/b300-dual-plane.yaml", catalog.value());
    if (!spec) return std::nullopt;
    auto built = build_fabric(spec.value(), catalog.value());
    if (!built) return std::nullopt;
    return std::move(built).value();
  }();
  return fabric;
}

// The whole `clustertwin hash` study (analysis/hash_study.h, the function the CLI calls) on the
// b300-dual-plane example: 64 elephants, decision coupling, one draw, `trials` Monte Carlo trials
// on one thread and, with compare, the scheme comparison over the same trials.
void BM_HashStudy(benchmark::State& state) {
  const std::optional<Fabric>& fabric = b300_example();
  if (!fabric) {
    state.SkipWithError("the example did not build");
    return;
  }
  HashStudyOptions o;
  o.elephants = 64;
  o.seed = 5;
  o.trials = static_cast<std::uint32_t>(state.range(0));
  o.compare = state.range(1) != 0;
  o.threads = 1;
  for (auto _ : state) {
    auto study = study_hash(*fabric, o);
    if (!study) state.SkipWithError("study failed");
    benchmark::DoNotOptimize(study);
  }
  state.SetLabel(fmt::format("64 elephants, {} trials{}", o.trials, o.compare ? ", compare" : ""));
}

// The Monte Carlo of `clustertwin hash examples/b300-dual-plane.yaml --elephants 64 --trials N`
// alone, on one thread: the study's own 64 elephants, walker and decision coupling (built once,
// outside the timing), then run_ecmp_monte_carlo with `trials` trials: fresh ports, walks, first-tier
// loads, collisions with causes, max-min rates per trial, and the closed forms once per run.
// items = trials.
void BM_MonteCarloElephants(benchmark::State& state) {
  const std::optional<Fabric>& fabric = b300_example();
  if (!fabric) {
    state.SkipWithError("the example did not build");
    return;
  }
  HashStudyOptions o;
  o.elephants = 64;
  o.trials = 0;
  o.threads = 1;
  auto study = study_hash(*fabric, o);
  if (!study) {
    state.SkipWithError("study failed");
    return;
  }
  std::vector<RouteRequest> requests;
  for (const Flow& f : study.value().flows) requests.push_back(RouteRequest{f.src, f.dst, f.key, 1});
  const auto trials = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    const MonteCarloResult r = run_ecmp_monte_carlo(study.value().walker(), requests, study.value().coupling(),
                                                    {trials, o.seed, 1});
    benchmark::DoNotOptimize(r.mean_slowest);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trials));
  state.SetLabel(fmt::format("b300-dual-plane, {} elephants, {} trials, items = trials", requests.size(), trials));
}

void walk_args(benchmark::internal::Benchmark* b) {
  for (int tiers = 0; tiers < 2; ++tiers) {
    for (int hash : {static_cast<int>(HashAlgorithm::kCrc32), static_cast<int>(HashAlgorithm::kCrc16CcittFalse),
                     static_cast<int>(HashAlgorithm::kXor16), static_cast<int>(HashAlgorithm::kRandom), -1}) {
      for (int flows : {64, 4096}) b->Args({tiers, hash, static_cast<int>(SeedMode::kPerSwitch), flows});
    }
  }
}

BENCHMARK(BM_PathWalk)->Apply(walk_args);
BENCHMARK(BM_PathWalkAll)->Apply(walk_args);
BENCHMARK(BM_ForwardingBuild)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ForwardingBuildScale)->Arg(1024)->Arg(4096)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HashStudy)->Args({200, 0})->Args({200, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MonteCarloTrials)->Args({2, 1000})->Args({64, 100})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MonteCarloElephants)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FlowRatesPerTrial)->Arg(64);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
