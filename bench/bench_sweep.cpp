// `clustertwin sweep` benchmarks on points of examples/lab-32.yaml (plan + reliability, 50 trials,
// one seed):
//   BM_SweepPointOverhead  what a point costs beyond its studies: the point's spec written into the
//                          base tree and read back (spec_with + read_spec), validated, and its result
//                          encoded as a journal line. Goal (docs/performance.md): under 5 ms.
//   BM_SweepPointStudies   the studies alone on the point's built fabric (plan, reliability)
//   BM_SweepPointWhole     evaluate_point(): the two above plus build_fabric
// The 1 -> 2 rank speed-up of a 200-point sweep is timed by bench/sweep_ranks.sh (mpirun).
#include <benchmark/benchmark.h>

#include "analysis/reliability_study.h"
#include "bench_util.h"
#include "fabric/fabric.h"
#include "plan/planner.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "sweep/sweep_run.h"

namespace ct {
namespace {

const SweepFile& sweep() {
  static const SweepFile s = [] {
    const std::string text = std::string("base: ") + CT_SOURCE_DIR +
                             "/examples/lab-32.yaml\naxes:\n  - path: nodes.count\n    values: [24]\n"
                             "studies:\n  plan: {}\n  reliability: {trials: 50}\n";
    return read_sweep("bench.yaml", text, bench::catalog()).value();
  }();
  return s;
}

void BM_SweepPointOverhead(benchmark::State& state) {
  const SweepPoint point = sweep_points(sweep()).front();
  const PointResult result = evaluate_point(sweep(), bench::catalog(), point);
  for (auto _ : state) {
    SpecReading reading = read_spec(sweep().base_path, point_spec_text(sweep(), point));
    auto valid = validate_reading(reading, bench::catalog());
    benchmark::DoNotOptimize(valid.ok());
    benchmark::DoNotOptimize(encode_point(sweep(), point, result).size());
  }
}
BENCHMARK(BM_SweepPointOverhead)->Unit(benchmark::kMillisecond);

void BM_SweepPointStudies(benchmark::State& state) {
  const SweepPoint point = sweep_points(sweep()).front();
  SpecReading reading = read_spec(sweep().base_path, point_spec_text(sweep(), point));
  const ValidSpec valid = validate_reading(reading, bench::catalog()).value();
  const Fabric fabric = build_fabric(valid, bench::catalog()).value();
  for (auto _ : state) {
    const Plan p = plan(fabric.spec(), fabric.topology(), fabric.catalog());
    auto r = study_design_reliability(fabric, reliability_inputs(valid.reliability), {.seed = 1, .trials = 50, .threads = 1});
    benchmark::DoNotOptimize(p.bisection);
    benchmark::DoNotOptimize(r.ok());
  }
}
BENCHMARK(BM_SweepPointStudies)->Unit(benchmark::kMillisecond);

void BM_SweepPointWhole(benchmark::State& state) {
  const SweepPoint point = sweep_points(sweep()).front();
  for (auto _ : state) benchmark::DoNotOptimize(evaluate_point(sweep(), bench::catalog(), point).rows.size());
}
BENCHMARK(BM_SweepPointWhole)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
