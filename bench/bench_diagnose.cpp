// bench_diagnose: reading counters and diagnosing a fabric from them.
//   BM_ParsePrometheus/N      N lines of node_exporter exposition (device and instance labels, a
//                             timestamp), parsed into samples; items = lines (target >= 1 M/s).
//   BM_DiagnoseB300_32768     the 32,768-GPU two-plane B300 fabric of bench_plan (4,096 nodes,
//                             3 tiers): the scrape pair of bench/scrape_pair.h (a transmit counter
//                             at both ends of every backend link, the port map of every
//                             interface), then read_counter_inputs + diagnose (target < 2 s).
//                             Every 64th leaf has an idle uplink, so the verdict path runs too.
// The whole command on the same pair: bench/diagnose_32k.sh.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "scrape_pair.h"
#include "diagnose/counter_inputs.h"
#include "diagnose/counter_reader.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"

namespace ct {
namespace {

std::string exposition(std::size_t lines) {
  std::string out;
  out.reserve(lines * 100);
  for (std::size_t i = 0; i < lines; ++i) {
    out += fmt::format("node_network_transmit_bytes_total{{device=\"eth{}\",instance=\"host{}\"}} {} 1700000000000\n", i % 16,
                       i / 16, 1000000007ull * i);
  }
  return out;
}

void BM_ParsePrometheus(benchmark::State& state) {
  const auto lines = static_cast<std::size_t>(state.range(0));
  const std::string text = exposition(lines);
  for (auto _ : state) {
    auto s = read_prometheus_text(text, "bench.prom", -1);
    if (!s || s->samples.size() != lines) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(lines));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_ParsePrometheus)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

const Fabric& b300_32768() {
  static const Fabric f = [] {
    auto catalog = load_catalog(default_catalog_dir());
    const std::string yaml = R"(
name: bench-b300-4096
nodes: {model: hgx-b300, count: 4096}
backend:
  topology: rail-optimized
  planes: 2
  tiers: 3
  switch: sn5600
  port_speed: 400G
  oversubscription: [1, 1]
)";
    auto valid = validate_reading(read_spec("bench.yaml", yaml), catalog.value());
    if (!valid) {
      std::fputs(format_diagnostics(valid.errors()).c_str(), stderr);
      std::abort();
    }
    return std::move(build_fabric(valid.value(), catalog.value())).value();
  }();
  return f;
}

void BM_DiagnoseB300_32768(benchmark::State& state) {
  const Fabric& f = b300_32768();
  const Topology& t = f.topology();
  bench::ScrapePair pair = bench::scrape_pair(f, 1);
  CounterInputs inputs;
  inputs.scrapes = {{"before.prom", std::move(pair.before)}, {"after.prom", std::move(pair.after)}};
  inputs.map = TextInput{"map.csv", std::move(pair.map)};
  std::size_t groups = 0, imbalanced = 0;
  for (auto _ : state) {
    auto counters = read_counter_inputs(inputs, f);
    if (!counters) {
      state.SkipWithError(format_diagnostics(counters.errors()).substr(0, 300).c_str());
      break;
    }
    auto d = diagnose(f, counters.value(), DiagnoseOptions{});
    groups = d->groups.size();
    imbalanced = d->imbalanced();
    benchmark::DoNotOptimize(d);
  }
  state.counters["links"] = static_cast<double>(t.link_count());
  state.counters["series"] = static_cast<double>(2 * t.link_count());
  state.counters["groups"] = static_cast<double>(groups);
  state.counters["imbalanced"] = static_cast<double>(imbalanced);
}
BENCHMARK(BM_DiagnoseB300_32768)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
