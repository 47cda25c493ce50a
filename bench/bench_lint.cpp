// lint on a generated platform (platform_generator.h) of issue 25's size: 200 nodes, 2,000 app
// pods, 500 routes, 300 volumes, 3 DNS views; and at a quarter and four times the apps.
//   BM_Lint          run_lint on the parsed model: every rule and the publishing checklist
//   BM_ParseAndLint  the same from the text: manifests, named.conf and zones parsed, the model
//                    built (Gateway model, pod placement), then run_lint: what `clustertwin lint` does
//                    after reading the files
// Goal (issue 25): lint on the 200-node platform under 1 s.
#include <benchmark/benchmark.h>

#include "lint/lint.h"
#include "platform_generator.h"

namespace ct {
namespace {

bench::PlatformSize size_for(std::int64_t scale_percent) {
  bench::PlatformSize s;
  s.pods = static_cast<int>(s.pods * scale_percent / 100);
  s.routes = static_cast<int>(s.routes * scale_percent / 100);
  s.volumes = static_cast<int>(s.volumes * scale_percent / 100);
  return s;
}

void BM_Lint(benchmark::State& state) {
  const FrontendModel model = bench::parse_generated_platform(bench::generate_platform(size_for(state.range(0))));
  std::size_t findings = 0;
  for (auto _ : state) {
    const LintReport r = run_lint(model);
    findings = r.findings.size();
    benchmark::DoNotOptimize(findings);
  }
  state.counters["apps"] = static_cast<double>(size_for(state.range(0)).routes);
  state.counters["findings"] = static_cast<double>(findings);
}
BENCHMARK(BM_Lint)->Arg(25)->Arg(100)->Arg(400)->Unit(benchmark::kMillisecond);

void BM_ParseAndLint(benchmark::State& state) {
  const bench::GeneratedPlatform p = bench::generate_platform(size_for(state.range(0)));
  for (auto _ : state) {
    const FrontendModel model = bench::parse_generated_platform(p);
    benchmark::DoNotOptimize(run_lint(model).findings.size());
  }
}
BENCHMARK(BM_ParseAndLint)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
