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
//   BM_ParseScenario/flows         parse_scenario of the YAML scenario of one transfer per flow of
//                                  that permutation (4,096 or 8,192 flows) over a memory buffer:
//                                  the reading and expanding stages of the YAML path alone.
//   BM_YamlRead/flows/mode         the reading stage alone on that text: 0 YamlReader::load
//                                  (libyaml's events, the located tree, the bounds walk), 1 libyaml's
//                                  events with nothing built (the parser's share).
//   BM_CommandVsSimGrid/flows/modes  the whole command on every input path, side by side with
//                                  SimGrid in one run: a random permutation of the plane-0 ports of
//                                  the 512- (4,096 flows), 1,024- (8,192) or 4,096-node 3-tier
//                                  (32,768) B300 fabric, sizes 16 MB +- 50 % (uniform in [8, 24] MB),
//                                  all at t = 0, ECMP paths, given three ways: a compact flow table
//                                  (flow,src,dst,bytes), the pinned table --csv-flows writes (every
//                                  column, every route), and a YAML scenario of one transfer per
//                                  flow. Each is the process `clustertwin simulate SPEC --flows FILE |
//                                  --scenario FILE --csv-flows OUT -o REPORT` (spawned: catalog,
//                                  spec, fabric, input, workload, routing, the fluid run, the report
//                                  and CSV). SimGrid 3.32 runs the same constraints, paths and sizes
//                                  (tests/simgrid, forked children) in the modes asked for,
//                                  network/optim:Full and Lazy (SimGrid's lazy updates with its
//                                  action heap, the faster exact mode; its platform building and
//                                  run, not its process start). Counters per input: CPU and wall
//                                  seconds (user + system, wait4), SimGrid's faster CPU over the
//                                  command's (`_x_cpu`), and the largest relative difference of
//                                  last-byte times between the command's CSV and SimGrid's.
//                                  Goal: >= 10 on every input, differences <= 1e-6. With
//                                  CT_BENCH_BASELINE=BINARY every input also runs through that
//                                  build (compact_baseline_*, pinned_baseline_*, yaml_baseline_*:
//                                  before and after in one run);
//                                  CT_BENCH_KEEP=1 keeps the inputs in $TMPDIR/ct-bench-FLOWS.
//   BM_CollectiveCommandVsSimGrid/gpus/modes  the same for a generated collective: the first step
//                                  of a ring all-reduce (1 GiB, GPUs in random order, 1 channel)
//                                  over 4,096, 8,192 or 32,768 GPUs, given as `--collective` flags
//                                  (with CT_BENCH_BASELINE, collective_baseline_* as above).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
#include <yaml.h>

#include "analysis/straggler.h"
#include "bench_util.h"
#include "core/memory_policy.h"
#include "core/rng.h"
#include "sim/simulation.h"
#include "topology/builder.h"
#include "io/loaders.h"
#include "report/simulate_report.h"
#include "traffic/flow_table.h"
#include "traffic/scenario_parser.h"
#include "yaml/yaml_reader.h"

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
      keep_freed_memory();  // the CLI's policy (cli/main.cpp)
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
std::pair<long long, int> shape_of(std::int64_t flows) { return {static_cast<long long>(flows / 8), flows <= 8192 ? 2 : 3}; }

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
    text = simulate_flows_csv({fabric.topology(), fabric.names(), r, workers, "bench"});
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

// The flow table `text` (flow,src,dst,bytes) as a scenario file naming the same flows: one
// transfer between two ports per row, one QP each (the table's rows are QP 0 of their ports).
std::string scenario_of_table(const std::string& text) {
  std::string out = "scenario:\n  name: permutation\n  transfers:\n";
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cell;
    std::stringstream row(line);
    for (std::string c; std::getline(row, c, ',');) cell.push_back(c);
    out += fmt::format("    - {{name: p{}, src: {}, dst: {}, bytes: {}, qps: 1}}\n", cell[0], cell[1], cell[2], cell[3]);
  }
  return out;
}

// Reading a scenario file of one transfer per flow (the YAML path of BM_CommandVsSimGrid) into a
// Scenario, in this process: parse_scenario over a memory buffer, names resolved on the fabric.
void BM_ParseScenario(benchmark::State& state) {
  const auto [nodes, tiers] = shape_of(state.range(0));
  const Fabric fabric = fabric_of(valid_spec(b300_yaml(nodes, tiers)));
  const std::string text = scenario_of_table(permutation_table(fabric.topology()));
  std::size_t transfers = 0;
  for (auto _ : state) {
    auto s = parse_scenario("bench.yaml", text, fabric);
    if (!s) {
      state.SkipWithError("parse failed");
      return;
    }
    transfers = s->transfers.size();
    benchmark::DoNotOptimize(s->transfers.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(transfers) * static_cast<std::int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ParseScenario)->Arg(4096)->Arg(8192)->Unit(benchmark::kMillisecond);

// The text of BM_ParseScenario/flows read alone (issue 24 item 1: where the reading stage's time
// goes): mode 0 YamlReader::load (libyaml's events, the located tree, the bounds walk: what the
// reading stage costs); mode 1 libyaml's events alone, nothing built (the parser's share).
void BM_YamlRead(benchmark::State& state) {
  const auto [nodes, tiers] = shape_of(state.range(0));
  const Fabric fabric = fabric_of(valid_spec(b300_yaml(nodes, tiers)));
  const std::string text = scenario_of_table(permutation_table(fabric.topology()));
  for (auto _ : state) {
    if (state.range(1) == 0) {
      YamlReader reader("bench.yaml");
      const auto root = reader.load(text);
      benchmark::DoNotOptimize(root->size());
    } else {
      yaml_parser_t parser;
      yaml_parser_initialize(&parser);
      yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
      std::size_t bytes = 0;
      for (bool more = true; more;) {
        yaml_event_t event;
        if (yaml_parser_parse(&parser, &event) == 0) break;
        if (event.type == YAML_SCALAR_EVENT) bytes += event.data.scalar.length;
        more = event.type != YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
      }
      yaml_parser_delete(&parser);
      benchmark::DoNotOptimize(bytes);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_YamlRead)->Args({8192, 0})->Args({8192, 1})->Unit(benchmark::kMillisecond);


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

// Runs `args` (after `clustertwin simulate SPEC`) writing its flows CSV; CPU seconds (user +
// system) and wall seconds of the process, and the largest relative difference of its last bytes
// from `theirs` (SimGrid's, per flow; none: 0). A failure or a wrong row count is an error.
struct CommandRun {
  double wall = -1;
  double cpu = 0;
  double diff = 0;
};
CommandRun run_command(const std::filesystem::path& dir, std::vector<std::string> args, const std::vector<double>& latency,
                       const std::vector<double>& theirs, const std::string& binary = CT_CLUSTERTWIN_BINARY) {
  std::vector<std::string> argv = {binary, "simulate", (dir / "spec.yaml").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  for (const std::string& a : {std::string("--csv-flows"), (dir / "out.csv").string(), std::string("-o"), (dir / "report.txt").string()}) {
    argv.push_back(a);
  }
  CommandRun run;
  run.wall = time_command(argv, run.cpu);
  const std::vector<double> ends = end_seconds(dir / "out.csv");
  if (run.wall < 0 || ends.size() != latency.size()) {
    run.wall = -1;
    return run;
  }
  for (std::size_t f = 0; f < ends.size() && !theirs.empty(); ++f) {
    run.diff = std::max(run.diff, std::abs(ends[f] - latency[f] - theirs[f]) / theirs[f]);
  }
  return run;
}

// The same flows through SimGrid in each mode asked for (bit 1 Full, bit 2 Lazy); the faster
// mode's completions are returned, and the counters set.
std::vector<double> simgrid_modes(benchmark::State& state, const SimulationResult& r, std::int64_t modes) {
  const FluidScenario fluid = fluid_of(r);
  std::vector<double> fastest;
  double fastest_cpu = -1;
  for (const SimGridMode mode : {SimGridMode::kFull, SimGridMode::kLazy}) {
    if ((modes & (mode == SimGridMode::kFull ? 1 : 2)) == 0) continue;
    std::vector<double> theirs;
    double cpu = 0;
    const double wall = run_simgrid_in_child(fluid, theirs, mode, &cpu);
    const std::string name = mode == SimGridMode::kFull ? "full" : "lazy";
    state.counters["simgrid_" + name + "_s"] = wall;
    state.counters["simgrid_" + name + "_cpu_s"] = cpu;
    if (wall >= 0 && (fastest_cpu < 0 || cpu < fastest_cpu)) {
      fastest_cpu = cpu;
      fastest = std::move(theirs);
    }
  }
  state.counters["simgrid_faster_cpu_s"] = fastest_cpu;
  return fastest;
}

std::vector<double> latencies(const SimulationResult& r, const Topology& topology) {
  std::vector<double> latency;
  const std::vector<double> last = last_byte_seconds(r, topology);
  for (std::size_t f = 0; f < r.flows.size(); ++f) latency.push_back(to_seconds(r.flows[f].end) - last[f]);
  return latency;
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
  write_text(dir / "scenario.yaml", scenario_of_table(table_text));
  // The reference paths: the same run in this process (deterministic: the command takes the same).
  const SimulationResult r = run_table(fabric, table_of(fabric, table_text));
  {
    const WorkerAccount workers = account_workers(r);
    write_text(dir / "pinned.csv", simulate_flows_csv({fabric.topology(), fabric.names(), r, workers, "bench"}));
  }
  const std::vector<double> latency = latencies(r, fabric.topology());
  struct Input {
    std::string name;
    std::vector<std::string> args;
    std::string binary = CT_CLUSTERTWIN_BINARY;
  };
  std::vector<Input> inputs = {
      {"compact", {"--flows", (dir / "flows.csv").string()}},
      {"pinned", {"--flows", (dir / "pinned.csv").string()}},
      {"yaml", {"--scenario", (dir / "scenario.yaml").string()}},
  };
  // CT_BENCH_BASELINE=BINARY: every input through another build as well ("yaml_baseline", ...), in
  // the same run, against the same SimGrid run: a before and after side by side.
  if (const char* baseline = std::getenv("CT_BENCH_BASELINE"); baseline != nullptr && baseline[0] != '\0') {
    for (std::size_t i = 0, n = inputs.size(); i < n; ++i) {
      inputs.push_back({inputs[i].name + "_baseline", inputs[i].args, baseline});
    }
  }
  for (auto _ : state) {
    const std::vector<double> theirs = simgrid_modes(state, r, state.range(1));
    double slowest = 0;
    for (const auto& [name, args, binary] : inputs) {
      const CommandRun run = run_command(dir, args, latency, theirs, binary);
      if (run.wall < 0) {
        state.SkipWithError(fmt::format("the command on the {} input failed", name).c_str());
        return;
      }
      state.counters[fmt::format("{}_cpu_s", name)] = run.cpu;
      state.counters[fmt::format("{}_wall_s", name)] = run.wall;
      state.counters[fmt::format("{}_max_rel_diff", name)] = run.diff;
      if (!theirs.empty()) state.counters[fmt::format("{}_x_cpu", name)] = state.counters["simgrid_faster_cpu_s"] / run.cpu;
      slowest = std::max(slowest, run.wall);
    }
    state.SetIterationTime(slowest);
  }
  // CT_BENCH_KEEP=1 leaves the inputs (spec.yaml, flows.csv, pinned.csv, scenario.yaml) for a
  // profile of the command.
  if (std::getenv("CT_BENCH_KEEP") == nullptr) std::filesystem::remove_all(dir);
  state.counters["flows"] = static_cast<double>(r.flows.size());
}
// First argument: flows (4,096: 512 nodes and 8,192: 1,024 nodes on 2 tiers; 32,768: 4,096 nodes
// on 3 tiers); second: the SimGrid modes to run (0 none, 1 Full, 2 Lazy, 3 both). Full takes hours
// at 32,768 flows with distinct sizes (333 s at 8,192 on a busy machine).
BENCHMARK(BM_CommandVsSimGrid)
    ->Args({4096, 2})
    ->Args({4096, 3})
    ->Args({8192, 3})
    ->Args({8192, 2})
    ->Args({32768, 2})
    ->Args({4096, 0})
    ->Args({8192, 0})
    ->Args({32768, 0})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

// A generated collective: the first step of a ring all-reduce of 1 GiB over every GPU in a random
// order, one channel (the GPU count in flows, nearly all between hosts, none waiting on another),
// given as flags (`--collective all-reduce --gpus '{order: random}' --channels 1 --steps 1`), side
// by side with SimGrid on the same flows and paths.
void BM_CollectiveCommandVsSimGrid(benchmark::State& state) {
  const auto [nodes, tiers] = shape_of(state.range(0));
  const std::int64_t gpus = state.range(0);
  const std::string spec_text = b300_yaml(nodes, tiers);
  const Fabric fabric = fabric_of(valid_spec(spec_text));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / fmt::format("ct-bench-coll-{}", gpus);
  std::filesystem::create_directories(dir);
  write_text(dir / "spec.yaml", spec_text);
  const std::vector<std::string> flags = {"--collective", "all-reduce", "--bytes", "1GiB", "--gpus", "{order: random}",
                                          "--channels", "1", "--steps", "1"};
  auto scenario = parse_scenario("bench.yaml",
                                 "scenario:\n  name: all-reduce\n  collectives:\n    - {name: all-reduce, kind: all-reduce, "
                                 "bytes: 1GiB, gpus: {order: random}, channels: 1, steps: 1}\n",
                                 fabric);
  if (!scenario) {
    std::fputs(format_diagnostics(scenario.errors()).c_str(), stderr);
    std::abort();
  }
  const SimulationResult r = run(fabric, scenario.value());
  const std::vector<double> latency = latencies(r, fabric.topology());
  // CT_BENCH_BASELINE=BINARY: the same flags through another build as well ("collective_baseline").
  std::vector<std::pair<std::string, std::string>> builds = {{"collective", CT_CLUSTERTWIN_BINARY}};
  if (const char* baseline = std::getenv("CT_BENCH_BASELINE"); baseline != nullptr && baseline[0] != '\0') {
    builds.emplace_back("collective_baseline", baseline);
  }
  for (auto _ : state) {
    const std::vector<double> theirs = simgrid_modes(state, r, state.range(1));
    for (const auto& [name, binary] : builds) {
      const CommandRun command = run_command(dir, flags, latency, theirs, binary);
      if (command.wall < 0) {
        state.SkipWithError(fmt::format("the command ({}) failed", name).c_str());
        return;
      }
      state.counters[name + "_cpu_s"] = command.cpu;
      state.counters[name + "_wall_s"] = command.wall;
      state.counters[name + "_max_rel_diff"] = command.diff;
      if (!theirs.empty()) state.counters[name + "_x_cpu"] = state.counters["simgrid_faster_cpu_s"] / command.cpu;
      if (name == "collective") state.SetIterationTime(command.wall);
    }
  }
  std::filesystem::remove_all(dir);
  state.counters["flows"] = static_cast<double>(r.flows.size());
}
BENCHMARK(BM_CollectiveCommandVsSimGrid)
    ->Args({4096, 2})
    ->Args({4096, 3})
    ->Args({8192, 2})
    ->Args({8192, 3})
    ->Args({32768, 2})
    ->Args({32768, 1})
    ->Args({4096, 0})
    ->Args({8192, 0})
    ->Args({32768, 0})
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
