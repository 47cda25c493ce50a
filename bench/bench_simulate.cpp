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
//   BM_AllReduce/nodes/algorithm   a full all-reduce of 1 GiB over every GPU of nodes HGX B300 on the
//                                  two-plane, three-tier SN5600 fabric (1,024 / 4,096 / 16,384 nodes:
//                                  8,192 / 32,768 / 131,072 GPUs; examples/b300-32k.yaml at 4,096),
//                                  the pipelined model, ECMP crc32; algorithm 0 ring, 1 tree,
//                                  2 halving-doubling, 3 hierarchical, 4 sharp (every algorithm an
//                                  all-reduce takes). Timed: fabric build, scenario, the whole
//                                  simulate() (routing, the fluid run, statistics), in a forked
//                                  child so that each run's peak resident set is its own. Counters:
//                                  the child's CPU time (user + system) and wall time, its peak RSS
//                                  (wait4 ru_maxrss), flows, instants and the simulated time.
//                                  Reported time = the child's CPU time. Goal at 131,072 GPUs: every
//                                  algorithm under 10 s CPU and 4 GiB, time growing <= N log N.
//   BM_Permutation8kVsSimGrid      a random permutation of 8,192 transfers (1-64 MB, all at t = 0)
//                                  between the 8,192 ports of plane 0 of examples/b300-dual-plane
//                                  (2 tiers, 128 leaves, 128 spines) with ECMP paths; then the very
//                                  same constraints, paths and sizes given to SimGrid 3.32 (CM02,
//                                  Full, tests/simgrid/simgrid_reference.h) in a forked child.
//                                  Counters: both wall times, their ratio, the largest relative
//                                  difference of completion times. Goal: >= 10x, identical results.
//   BM_ParseFlowTable/flows/paths  parse_flow_table (traffic/flow_table.h) over a memory buffer:
//                                  a permutation of the plane-0 ports of the 1,024-node (8,192
//                                  flows) or 4,096-node 3-tier (32,768 flows) B300 fabric; paths 0:
//                                  flow,src,dst,bytes only; 1: the full table --csv-flows writes
//                                  (every column, every flow's route pinned). Goal: >= 2 M flows/s.
//   BM_CommandVsSimGrid/flows/modes  the whole command, side by side with SimGrid in one run: the
//                                  process `clustertwin simulate SPEC --flows FILE --csv-flows OUT
//                                  -o REPORT` (spawned, wall time: catalog, spec, fabric, flow
//                                  table, routing, the fluid run, the report and CSV) on a random
//                                  permutation of the plane-0 ports, sizes 16 MB +- 50 % (uniform
//                                  in [8, 24] MB), all at t = 0, ECMP paths; then SimGrid 3.32 on
//                                  the same constraints, paths and sizes (tests/simgrid, forked
//                                  children) in both exact modes, network/optim:Full and Lazy (its
//                                  platform building and run; not its process start). Counters: the
//                                  wall and CPU times (user + system, wait4) of each process, the
//                                  ratios, and the largest relative difference of last-byte times
//                                  between the command's CSV and each mode.
//                                  Goal: SimGrid's faster mode / command >= 10, differences <= 1e-6.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "analysis/straggler.h"
#include "bench_util.h"
#include "core/rng.h"
#include "sim/flow/flow_simulation.h"
#include "topology/builder.h"
#include "io/loaders.h"
#include "report/simulate_report.h"
#include "traffic/flow_table.h"
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

constexpr const char* kAllReduceAlgorithms[] = {"ring", "tree", "halving-doubling", "hierarchical", "sharp"};

Scenario all_reduce(const Fabric& fabric, const char* algorithm) {
  const std::string yaml = fmt::format(R"(scenario:
  collectives:
    - kind: all-reduce
      gpus: all
      bytes: 1GiB
      algorithm: {}
)",
                                       algorithm);
  auto s = parse_scenario("bench-all-reduce.yaml", yaml, fabric);
  if (!s) {
    std::fputs(format_diagnostics(s.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(s).value();
}

// What the child reports through its pipe.
struct AllReduceFigures {
  double flows = 0;
  double instants = 0;
  double time_ms = 0;
};

void BM_AllReduce(benchmark::State& state) {
  const auto nodes = static_cast<long long>(state.range(0));
  const char* algorithm = kAllReduceAlgorithms[state.range(1)];
  AllReduceFigures figures;
  double cpu = 0;
  double wall = 0;
  double rss_mib = 0;
  for (auto _ : state) {
    int fds[2];
    if (pipe(fds) != 0) {
      state.SkipWithError("pipe failed");
      return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      const Fabric fabric = fabric_of(valid_spec(b300_yaml(nodes, 3)));
      const SimulationResult r = run(fabric, all_reduce(fabric, algorithm));
      const AllReduceFigures out{static_cast<double>(r.flows.size()), static_cast<double>(r.instants),
                                 to_seconds(r.makespan) * 1e3};
      const bool written = write(fds[1], &out, sizeof out) == static_cast<ssize_t>(sizeof out);
      _exit(written ? 0 : 1);
    }
    close(fds[1]);
    const bool read_ok = pid > 0 && read(fds[0], &figures, sizeof figures) == static_cast<ssize_t>(sizeof figures);
    close(fds[0]);
    int status = 0;
    rusage usage{};
    if (pid > 0) wait4(pid, &status, 0, &usage);
    wall = seconds_since(t0);
    if (!read_ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("the child failed");
      return;
    }
    cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
          static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
    rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
    state.SetIterationTime(cpu);
  }
  state.SetLabel(fmt::format("{} GPUs, {}", nodes * 8, algorithm));
  state.counters["cpu_s"] = cpu;
  state.counters["wall_s"] = wall;
  state.counters["max_rss_MiB"] = rss_mib;
  state.counters["flows"] = figures.flows;
  state.counters["instants"] = figures.instants;
  state.counters["time_ms"] = figures.time_ms;
}
BENCHMARK(BM_AllReduce)
    ->ArgsProduct({{1024, 4096, 16384}, {0, 1, 2, 3, 4}})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

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

// ---- flow tables ----

// The fabric of `flows` plane-0 ports: 8,192 (1,024 nodes, 2 tiers) or 32,768 (4,096 nodes, 3 tiers).
std::pair<long long, int> shape_of(std::int64_t flows) { return flows <= 8192 ? std::pair{1024LL, 2} : std::pair{4096LL, 3}; }

// A random permutation of the plane-0 ports as a flow table (flow,src,dst,bytes), 16 MB +- 50 %.
std::string permutation_table(const Topology& topology) {
  std::vector<VertexId> plane0;
  for (std::uint32_t v = 0; v < topology.backend_port_count(); ++v) {
    if (topology.plane[v] == 0) plane0.push_back(VertexId(v));
  }
  const std::size_t ports = plane0.size();
  Rng rng(11, 0, 0);
  std::vector<std::size_t> dst(ports);
  std::iota(dst.begin(), dst.end(), 0);
  for (std::size_t i = ports - 1; i > 0; --i) std::swap(dst[i], dst[rng.uniform(i + 1)]);
  for (std::size_t i = 0; i < ports; ++i) {
    if (dst[i] == i) std::swap(dst[i], dst[(i + 1) % ports]);
  }
  std::string out = "flow,src,dst,bytes\n";
  for (std::size_t i = 0; i < ports; ++i) {
    out += fmt::format("{},{},{},{}\n", i, topology.vertex_name(plane0[i]), topology.vertex_name(plane0[dst[i]]),
                       8'000'000 + rng.uniform(16'000'001));
  }
  return out;
}

FlowTable table_of(const Fabric& fabric, const std::string& text) {
  auto t = parse_flow_table("bench.csv", text, fabric.names());
  if (!t) {
    std::fputs(format_diagnostics(t.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(t).value();
}

SimulationResult run_table(const Fabric& fabric, const FlowTable& table) {
  SimulationOptions options;
  auto r = simulate(fabric, Scenario{}, &table, options);
  if (!r) {
    std::fputs(format_diagnostics(r.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(r).value();
}

void BM_ParseFlowTable(benchmark::State& state) {
  const auto [nodes, tiers] = shape_of(state.range(0));
  const Fabric fabric = fabric_of(valid_spec(b300_yaml(nodes, tiers)));
  std::string text = permutation_table(fabric.topology());
  if (state.range(1) != 0) {
    // The full table --csv-flows writes, routes pinned.
    const SimulationResult r = run_table(fabric, table_of(fabric, text));
    const WorkerAccount workers = account_workers(r);
    text = simulate_flows_csv({fabric.topology(), r, workers, "bench"});
  }
  std::size_t flows = 0;
  for (auto _ : state) {
    auto t = parse_flow_table("bench.csv", text, fabric.names());
    if (!t) {
      state.SkipWithError("parse failed");
      return;
    }
    flows = t->flows.size();
    benchmark::DoNotOptimize(t->flows.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(flows) * static_cast<std::int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * static_cast<std::int64_t>(state.iterations()));
  state.counters["flows"] = static_cast<double>(flows);
}
BENCHMARK(BM_ParseFlowTable)->Args({8192, 0})->Args({8192, 1})->Args({32768, 0})->Args({32768, 1})->Unit(benchmark::kMillisecond);

#ifdef CT_HAVE_SIMGRID
void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Spawns `argv` with CLUSTERTWIN_CATALOG set; its wall time in seconds, or -1 when it failed;
// `cpu` receives its CPU time (user + system).
double time_command(const std::vector<std::string>& argv, double& cpu) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_text = {"CLUSTERTWIN_CATALOG=" + default_catalog_dir()};
  std::vector<char*> env;
  for (std::string& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), env.data()) != 0) return -1;
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double wall = seconds_since(t0);
  cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
        static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? wall : -1;
}

// The end_s column of a flows CSV, in seconds, one per row.
std::vector<double> end_seconds(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  std::size_t column = 0;
  {
    std::stringstream header(line);
    std::string name;
    for (std::size_t i = 0; std::getline(header, name, ','); ++i) {
      if (name == "end_s") column = i;
    }
  }
  std::vector<double> out;
  while (std::getline(in, line)) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < column; ++i) at = line.find(',', at) + 1;
    out.push_back(std::strtod(line.c_str() + at, nullptr));
  }
  return out;
}

void BM_CommandVsSimGrid(benchmark::State& state) {
  const auto [nodes, tiers] = shape_of(state.range(0));
  const std::string spec_text = b300_yaml(nodes, tiers);
  const Fabric fabric = fabric_of(valid_spec(spec_text));
  const std::string table_text = permutation_table(fabric.topology());
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("ct-bench-{}", state.range(0));
  std::filesystem::create_directories(dir);
  write_text(dir / "spec.yaml", spec_text);
  write_text(dir / "flows.csv", table_text);
  // The reference paths: the same run in this process (deterministic: the command takes the same).
  const SimulationResult r = run_table(fabric, table_of(fabric, table_text));
  const FluidScenario fluid = fluid_of(r);
  std::vector<double> latency;
  {
    const std::vector<double> last = last_byte_seconds(r, fabric.topology());
    for (std::size_t f = 0; f < r.flows.size(); ++f) latency.push_back(to_seconds(r.flows[f].end) - last[f]);
  }
  double command_s = 0;
  double command_cpu = 0;
  double full_s = 0;
  double lazy_s = 0;
  double full_cpu = 0;
  double lazy_cpu = 0;
  double full_diff = 0;
  double lazy_diff = 0;
  for (auto _ : state) {
    command_s = time_command({CT_CLUSTERTWIN_BINARY, "simulate", (dir / "spec.yaml").string(), "--flows",
                              (dir / "flows.csv").string(), "--csv-flows", (dir / "out.csv").string(), "-o",
                              (dir / "report.txt").string()},
                             command_cpu);
    if (command_s < 0) {
      state.SkipWithError("the clustertwin command failed");
      return;
    }
    const std::vector<double> ends = end_seconds(dir / "out.csv");
    if (ends.size() != r.flows.size()) {
      state.SkipWithError("the command's CSV has the wrong number of rows");
      return;
    }
    for (const SimGridMode mode : {SimGridMode::kFull, SimGridMode::kLazy}) {
      if ((state.range(1) & (mode == SimGridMode::kFull ? 1 : 2)) == 0) continue;  // mode not asked for
      std::vector<double> theirs;
      double cpu = 0;
      const double wall = run_simgrid_in_child(fluid, theirs, mode, &cpu);
      (mode == SimGridMode::kFull ? full_cpu : lazy_cpu) = cpu;
      if (wall < 0) {
        state.SkipWithError("SimGrid child failed");
        return;
      }
      double worst = 0;
      for (std::size_t f = 0; f < ends.size(); ++f) {
        worst = std::max(worst, std::abs(ends[f] - latency[f] - theirs[f]) / theirs[f]);
      }
      (mode == SimGridMode::kFull ? full_s : lazy_s) = wall;
      (mode == SimGridMode::kFull ? full_diff : lazy_diff) = worst;
    }
    state.SetIterationTime(command_s);
  }
  std::filesystem::remove_all(dir);
  state.counters["flows"] = static_cast<double>(r.flows.size());
  state.counters["command_s"] = command_s;
  state.counters["simgrid_full_s"] = full_s;
  state.counters["simgrid_lazy_s"] = lazy_s;
  const auto faster = [](double full, double lazy) { return full <= 0 ? lazy : lazy <= 0 ? full : std::min(full, lazy); };
  state.counters["faster_simgrid_over_command"] = faster(full_s, lazy_s) / command_s;
  state.counters["command_cpu_s"] = command_cpu;
  state.counters["simgrid_full_cpu_s"] = full_cpu;
  state.counters["simgrid_lazy_cpu_s"] = lazy_cpu;
  state.counters["faster_simgrid_over_command_cpu"] = faster(full_cpu, lazy_cpu) / command_cpu;
  state.counters["max_rel_diff_full"] = full_diff;
  state.counters["max_rel_diff_lazy"] = lazy_diff;
}
// Second argument: the SimGrid modes to run (1 Full, 2 Lazy, 3 both). Full takes hours at 32,768
// flows with distinct sizes (333 s at 8,192 on a busy machine), hence the Lazy-only variant.
BENCHMARK(BM_CommandVsSimGrid)
    ->Args({8192, 3})
    ->Args({32768, 3})
    ->Args({32768, 2})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

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
    theirs_s = run_simgrid_in_child(fluid_of(r), theirs);
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
