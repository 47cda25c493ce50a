// The packet engine (docs/performance.md, section "Packet simulation"):
//   BM_PacketPermutation/nodes  a random permutation of the backend ports of `nodes` HGX B300 (8
//                               ports each: 128 nodes = 1,024 ports) on a one-plane, three-tier
//                               rail-optimized SN5600 fabric at 800G: per rail a random permutation
//                               of the hosts, every port sending 2 MB to the same rail of its
//                               image, all at t = 0, ECMP paths, 4 KiB packets, cut-through,
//                               switch latency 300 ns, 256 KiB of buffer per port and VL. Timed:
//                               the whole simulate() (workload, routing, the packet run, statistics);
//                               fabric build excluded. Counters: events, events per second of CPU
//                               (one core), peak packets in flight, the process's peak resident
//                               set, the simulated makespan, the fabric build's CPU time. Goals
//                               (issue 26): at 128 nodes under 5 s and 200 MB (htsim: 21-28 s,
//                               210 MB); at 1,024 nodes (8,192 ports) under 60 s; >= 5 M events/s
//                               per core. The 1,024-node cases run once (--benchmark_filter=/1024).
//                               The second argument: 1 = DCQCN and ECN marking on (the default on
//                               this RoCE v2 fabric), 0 = PFC alone. Counters also: ECN marks, CNPs.
//   BM_PacketEventQueue         the event queue alone: push/pop pairs over a heap of 4,096 events
//                               (the in-flight population of such a run), per second.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>

#include "bench_util.h"
#include "core/rng.h"
#include "fabric/fabric.h"
#include "sim/packet/packet_event_queue.h"
#include "sim/simulation.h"

namespace ct {
namespace {

std::string b300_800g_yaml(long long nodes) {
  return fmt::format(R"(
name: bench-packet-{}
nodes: {{model: hgx-b300, count: {}}}
backend:
  topology: rail-optimized
  planes: 1
  tiers: 3
  switch: sn5600
  port_speed: 800G
  oversubscription: [1, 1]
  cable_length_m: {{leaf: 30, spine: 100, core: 500}}
)",
                     nodes, nodes);
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void BM_PacketPermutation(benchmark::State& state) {
  const long long nodes = state.range(0);
  const double build0 = cpu_seconds();
  auto fabric = build_fabric(bench::valid_spec(b300_800g_yaml(nodes)), bench::catalog());
  const double build_cpu = cpu_seconds() - build0;
  if (!fabric) {
    std::fputs(format_diagnostics(fabric.errors()).c_str(), stderr);
    std::abort();
  }
  // Per rail, a random permutation of the hosts (none onto itself is skipped: a host's own port is
  // the same NIC); GPU g = host x 8 + rail sends to the same rail of its image, over the fabric
  // alone (no NVLink hop): 1,024 ports, each sending one flow and receiving one.
  const auto hosts = static_cast<std::uint32_t>(nodes);
  Rng rng(1, 0, 0);
  Scenario s;
  s.name = "permutation";
  for (std::uint32_t rail = 0; rail < 8; ++rail) {
    std::vector<std::uint32_t> image(hosts);
    for (std::uint32_t h = 0; h < hosts; ++h) image[h] = h;
    for (std::uint32_t h = hosts - 1; h > 0; --h) std::swap(image[h], image[static_cast<std::uint32_t>(rng.uniform(h + 1))]);
    for (std::uint32_t h = 0; h < hosts; ++h) {
      if (image[h] == h) continue;
      TransferSpec x;
      x.name = fmt::format("p{}", h * 8 + rail);
      x.src.gpu = h * 8 + rail;
      x.dst.gpu = image[h] * 8 + rail;
      x.bytes = Bytes(2'000'000);
      s.transfers.push_back(x);
    }
  }
  SimulationOptions o;
  o.engine = EngineKind::kPacket;
  o.packet.switch_latency = nanoseconds(300);
  o.packet.buffer_bytes = 256 * 1024;
  o.packet.cut_through = true;
  o.packet.dcqcn = state.range(1) != 0;
  std::uint64_t events = 0;
  double marks = 0;
  double cnps = 0;
  double cpu = 0;
  std::uint64_t in_flight = 0;
  double makespan = 0;
  for (auto _ : state) {
    const double c0 = cpu_seconds();
    auto r = simulate(fabric.value(), s, o);
    cpu += cpu_seconds() - c0;
    if (!r) {
      std::fputs(format_diagnostics(r.errors()).c_str(), stderr);
      std::abort();
    }
    events += r->packet.events;
    in_flight = r->packet.peak_packets;
    makespan = to_seconds(r->makespan);
    marks = 0;
    for (const ResourceStats& st : r->stats) marks += static_cast<double>(st.ecn_marks);
    cnps = static_cast<double>(r->packet.cnps);
    benchmark::DoNotOptimize(r);
  }
  state.counters["flows"] = static_cast<double>(s.transfers.size());
  state.counters["events"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.counters["events_per_cpu_s"] = static_cast<double>(events) / cpu;
  state.counters["peak_packets"] = static_cast<double>(in_flight);
  state.counters["peak_rss_MiB"] = bench::peak_rss_mib();
  state.counters["makespan_us"] = makespan * 1e6;
  state.counters["ecn_marks"] = marks;
  state.counters["cnps"] = cnps;
  state.counters["fabric_build_cpu_s"] = build_cpu;
}
BENCHMARK(BM_PacketPermutation)->Args({128, 1})->Args({128, 0})->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PacketPermutation)->Args({1024, 1})->Args({1024, 0})->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_PacketEventQueue(benchmark::State& state) {
  PacketEventQueue q;
  Rng rng(1, 0, 0);
  for (std::uint32_t i = 0; i < 4096; ++i) q.push(TimePs(static_cast<std::int64_t>(rng.uniform(1'000'000))), PacketEventKind::kArrive, i);
  for (auto _ : state) {
    const PacketEvent e = q.pop();
    q.push(e.time + TimePs(static_cast<std::int64_t>(rng.uniform(100'000))), e.kind(), e.subject());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PacketEventQueue);

}  // namespace
}  // namespace ct

BENCHMARK_MAIN();
