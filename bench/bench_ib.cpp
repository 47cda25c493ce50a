// bench_ib: the InfiniBand subnet manager model on regular fat trees of radix-64 switches.
//   two_level   2,048 hosts: 64 leaves x 32 hosts, 32 spines (every leaf to every spine)
//   three_level 16,384 hosts: 16 pods of 32 leaves and 32 spines, 32 hosts per leaf; 32 core
//               groups of 32 cores (2,048 switches in all)
// Each benchmark times LID assignment + routing with one engine (route_fabric), on one thread and
// on all cores; the checks are timed separately. `bench_ib --write-net=DIR` instead writes both
// fabrics as ibsim net files (DIR/ib-2level.net, DIR/ib-3level.net) for the OpenSM comparison in
// docs/performance.md.
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include <benchmark/benchmark.h>

#include "ib/fat_tree_fabric.h"
#include "ib/ib_checks.h"
#include "ib/ibnetdiscover.h"
#include "ib/subnet_manager.h"

namespace ct {
namespace {

const IbFabric& fabric(int levels) {
  static const IbFabric two = make_fat_tree_fabric({1, 64, 32, 32, 0});
  static const IbFabric three = make_fat_tree_fabric({16, 32, 32, 32, 32});
  return levels == 2 ? two : three;
}

void route(benchmark::State& state, int levels, IbEngine engine) {
  const IbFabric& f = fabric(levels);
  IbRoutingOptions options;
  options.engine = engine;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    auto routed = route_fabric(f, options);
    if (!routed.ok()) state.SkipWithError("routing failed");
    benchmark::DoNotOptimize(routed);
  }
  state.counters["hosts"] = static_cast<double>(f.ca_count());
  state.counters["switches"] = static_cast<double>(f.switch_count());
}

void checks(benchmark::State& state, int levels) {
  const IbFabric& f = fabric(levels);
  IbRoutingOptions options;
  options.engine = IbEngine::kFatTree;
  const IbRouting routed = route_fabric(f, options).value();
  for (auto _ : state) {
    benchmark::DoNotOptimize(check_reachability(f, routed));
    benchmark::DoNotOptimize(check_credit_loops(f, routed));
  }
}

void BM_TwoLevelFtree(benchmark::State& s) { route(s, 2, IbEngine::kFatTree); }
void BM_TwoLevelUpDown(benchmark::State& s) { route(s, 2, IbEngine::kUpDown); }
void BM_TwoLevelMinHop(benchmark::State& s) { route(s, 2, IbEngine::kMinHop); }
void BM_ThreeLevelFtree(benchmark::State& s) { route(s, 3, IbEngine::kFatTree); }
void BM_ThreeLevelUpDown(benchmark::State& s) { route(s, 3, IbEngine::kUpDown); }
void BM_ThreeLevelMinHop(benchmark::State& s) { route(s, 3, IbEngine::kMinHop); }
void BM_TwoLevelChecks(benchmark::State& s) { checks(s, 2); }
void BM_ThreeLevelChecks(benchmark::State& s) { checks(s, 3); }

BENCHMARK(BM_TwoLevelFtree)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TwoLevelUpDown)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TwoLevelMinHop)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ThreeLevelFtree)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ThreeLevelUpDown)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ThreeLevelMinHop)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TwoLevelChecks)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ThreeLevelChecks)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ct

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--write-net=", 12) == 0) {
      const std::string dir = argv[i] + 12;
      std::ofstream(dir + "/ib-2level.net") << ct::write_ibnetdiscover(ct::fabric(2), nullptr);
      std::ofstream(dir + "/ib-3level.net") << ct::write_ibnetdiscover(ct::fabric(3), nullptr);
      std::cout << "wrote " << dir << "/ib-2level.net and ib-3level.net\n";
      return 0;
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
