// spof on a generated platform (platform_generator.h) of issue 25's size: 200 nodes, 2,000 app pods,
// 500 routes, 300 volumes, 3 DNS views; and at a quarter and a twentieth of the apps.
//   BM_Spof  spof_study on the parsed model: every node, disk, BGP peer, name server and issuer
//            removed in turn (the generated platform has no spec: no switches or links), each
//            failure timeline against the published requests traced once (1,000 at full size: one client inside, one outside)
// Goal (issue 25): spof on the 200-node platform under 10 s.
#include <benchmark/benchmark.h>

#include "platform_generator.h"
#include "survival/spof.h"

namespace ct {
namespace {

void BM_Spof(benchmark::State& state) {
  bench::PlatformSize s;
  s.pods = static_cast<int>(s.pods * state.range(0) / 100);
  s.routes = static_cast<int>(s.routes * state.range(0) / 100);
  s.volumes = static_cast<int>(s.volumes * state.range(0) / 100);
  const FrontendModel model = bench::parse_generated_platform(bench::generate_platform(s));
  SpofReport r;
  for (auto _ : state) {
    r = spof_study(model, LifecycleTimers{}, 0);
    benchmark::DoNotOptimize(r.ranked.size());
  }
  state.counters["elements"] = static_cast<double>(r.ranked.size());
  state.counters["requests"] = static_cast<double>(r.requests);
  state.counters["spofs"] = r.spof_count();
}
BENCHMARK(BM_Spof)->Arg(5)->Arg(25)->Arg(100)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
