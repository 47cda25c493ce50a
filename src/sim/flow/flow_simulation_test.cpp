// Hand-computed model tests of scenarios on small fabrics (sim/flow/flow_simulation.h). Links are
// 400 Gb/s (tests/support/fabric_fixtures.h); one GPU per host on a single rail unless stated.
#include "sim/simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/flow_router.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "workload/workload_compiler.h"
#include "support/faults.h"

namespace ct {
namespace {

constexpr double kB = 400e9;             // bits per second of every link
constexpr std::int64_t kGiB = 1LL << 30;

Topology fixture(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts_per_leaf, TimePs latency = TimePs(0)) {
  Topology t = fixtures::two_tier(leaves, spines, hosts_per_leaf);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = latency;
  return t;
}

CollectiveSpec collective(CollectiveKind kind, CollectiveAlgorithm algorithm, std::int64_t bytes, std::uint32_t gpus) {
  CollectiveSpec c;
  c.name = "c";
  c.kind = kind;
  c.algorithm = algorithm;
  c.bytes = Bytes(bytes);
  c.groups.emplace_back();
  for (std::uint32_t g = 0; g < gpus; ++g) c.groups.back().push_back(g);
  return c;
}

// One transfer of `bytes` from GPU 0 to GPU 1: the scenario most of these tests start from.
Scenario one_transfer(std::int64_t bytes = kGiB, const std::string& name = "") {
  Scenario s;
  TransferSpec x;
  x.name = name;
  x.src.gpu = 0;
  x.dst.gpu = 1;
  x.bytes = Bytes(bytes);
  s.transfers.push_back(x);
  return s;
}

SimulationResult run(const Topology& t, const Scenario& s, std::optional<double> nvlink = std::nullopt) {
  auto r = simulate(fixtures::fixture_fabric(t, nvlink), s);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  return r.ok() ? std::move(r).value() : SimulationResult{};
}

double seconds(TimePs t) { return to_seconds(t); }

TimePs duration(const OperationResult& op, std::size_t it = 0) { return op.iterations[it].end - op.iterations[it].start; }

// Ring all-reduce of S = 1 GiB over n = 8 GPUs, one per host, 4 hosts on each of 2 leaves, 2
// spines, 500 ns per link. Every ring edge has its own NIC links and the two leaf-crossing edges
// (3 -> 4, 7 -> 0) leave from different leaves, so each transfer runs alone at B = 400 Gb/s: a step
// moves S/n = 2^27 B = 2^30 bits in 2,684,354,560 ps. Rank 3 crosses leaves at every step (4 hops,
// 2 us of latency) and each of its sends waits for its previous one, so the critical path is
// 2(n-1) = 14 steps of 2,684,354,560 + 2,000,000 ps = 37,608,963,840 ps: the closed form
// 2(n-1)/n x S/B plus 2(n-1) path latencies, within 0.5 % of 2(n-1)/n x S/B alone.
TEST(FlowSimulation, RingAllReduceMatchesTheClosedForm) {
  const Topology t = fixture(2, 2, 4, nanoseconds(500));
  Scenario s;
  s.collectives.push_back(collective(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, kGiB, 8));
  s.collectives.back().model = CollectiveModel::kStepwise;  // pipelined: tests/model/collective_model_test.cpp
  const SimulationResult r = run(t, s);
  ASSERT_EQ(r.operations.size(), 1U);
  EXPECT_TRUE(r.operations[0].complete);
  const TimePs took = duration(r.operations[0]);
  EXPECT_NEAR(static_cast<double>(took.value()), 37'608'963'840.0, 14.0);
  const double closed = 2.0 * 7 / 8 * kGiB * 8 / kB;
  EXPECT_NEAR(seconds(took), closed, 0.005 * closed);
  EXPECT_EQ(r.flows.size(), 14U * 8U);
}

// SHARP all-reduce of S = 1 GiB over the same 8 GPUs: each NIC link carries S up and S down, and
// each leaf's link to spine 0 (the root where the two climbs meet) carries one reduced stream of S
// each way, all at B at once: S/B = 21.47483648 ms plus one hop of latency (500 ns), against
// 1.75 S/B for the ring.
TEST(FlowSimulation, SharpAllReduceApproachesSOverB) {
  const Topology t = fixture(2, 2, 4, nanoseconds(500));
  Scenario s;
  s.collectives.push_back(collective(CollectiveKind::kAllReduce, CollectiveAlgorithm::kSharp, kGiB, 8));
  const SimulationResult r = run(t, s);
  const double s_over_b = kGiB * 8 / kB;
  EXPECT_NEAR(seconds(duration(r.operations[0])), s_over_b + 500e-9, 1e-11);
  EXPECT_NEAR(seconds(duration(r.operations[0])), s_over_b, 0.005 * s_over_b);
  // 8 GPUs x 2 NIC directions + 2 leaf-spine edges x 2 directions.
  EXPECT_EQ(r.flows.size(), 20U);
}

// All-to-all of S = 1 GiB per GPU over 8 GPUs, 4 per leaf, on a 2:1 oversubscribed leaf (4 host
// ports, 2 uplinks to 2 spines). Each leaf sends 4 x 4 x S/8 = 2S across, over 2 x 400 Gb/s: at
// least 2S / 2B = S/B = 21.47 ms, more than the NIC bound 7S/(8B) = 18.79 ms: the tier binds.
// Sprayed, each crossing flow puts half its rate on each uplink: 16 flows x r/2 <= 400 Gb/s gives
// r = 50 Gb/s, so the crossing flows (S/8 each) take exactly S/B. Hashed (ECMP) they can only do
// worse. On a non-blocking leaf (4 spines) the NIC bound 7S/(8B) holds instead.
TEST(FlowSimulation, AllToAllOnAnOversubscribedTierIsBoundByTheTier) {
  const double s_over_b = kGiB * 8 / kB;
  Scenario s;
  s.collectives.push_back(collective(CollectiveKind::kAllToAll, CollectiveAlgorithm::kDirect, kGiB, 8));
  s.paths = PathModel::kSpray;
  const SimulationResult sprayed = run(fixture(2, 2, 4), s);
  EXPECT_NEAR(seconds(duration(sprayed.operations[0])), s_over_b, 1e-9);
  s.paths = PathModel::kEcmp;
  const SimulationResult hashed = run(fixture(2, 2, 4), s);
  EXPECT_GE(seconds(duration(hashed.operations[0])), s_over_b * (1 - 1e-9));
  s.paths = PathModel::kSpray;
  const SimulationResult nonblocking = run(fixture(2, 4, 4), s);
  EXPECT_NEAR(seconds(duration(nonblocking.operations[0])), 7.0 / 8 * s_over_b, 1e-9);
}

// A sprayed flow's latency is one path's, not the sum over the members it is sprayed on. One
// transfer of S = 1 GiB from host0 (leaf 0) to host1 (leaf 1), 4 spines, sprayed: each
// leaf-spine link in each direction carries a quarter of it. Latencies: NIC links 100 ns,
// leaf-spine links 400 ns. Every path is host0 -> leaf0 -> spine k -> leaf1 -> host1, 100 + 400 +
// 400 + 100 = 1,000 ns (summing the 4 + 4 sprayed members would give 100 + 8 x 400 + 100 =
// 3,400 ns). Alone on 400 Gb/s NICs it takes S/B = 2^33 bits / 4e11 b/s = 21,474,836,480 ps,
// plus 1,000,000 ps: 21,475,836,480 ps.
TEST(FlowSimulation, ASprayedFlowTakesOnePathsLatency) {
  Topology t = fixture(2, 4, 1);
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    const bool nic = t.kind[t.link_a[l].value()] == VertexKind::kPort || t.kind[t.link_b[l].value()] == VertexKind::kPort;
    t.latency[l] = nanoseconds(nic ? 100 : 400);
  }
  Scenario s = one_transfer(kGiB, "x");
  s.paths = PathModel::kSpray;
  const SimulationResult sprayed = run(t, s);
  ASSERT_EQ(sprayed.flows.size(), 1U);
  EXPECT_EQ(sprayed.flows[0].path_size, 10U);  // 2 NIC hops, 4 + 4 sprayed leaf-spine hops
  EXPECT_EQ(sprayed.operations[0].iterations[0].end, TimePs(21'475'836'480));
  s.paths = PathModel::kEcmp;  // one hashed path: the same latency
  EXPECT_EQ(run(t, s).operations[0].iterations[0].end, TimePs(21'475'836'480));
}

// One transfer of 1 GiB between two hosts on different leaves (2 spines, no latency): alone it
// takes T = 2^33 bits / 400 Gb/s = 21.47483648 ms. If the leaf-spine link it hashes onto goes down
// at T/4 and routing converges 100 us later, it stalls for 100 us and finishes on the other spine
// at T + 100 us, moved once.
TEST(FlowSimulation, LinkDownStallsUntilRoutingConvergesThenRehashes) {
  const Topology t = fixture(2, 2, 1);
  Scenario s = one_transfer(kGiB, "x");
  const SimulationResult healthy = run(t, s);
  const TimePs alone = healthy.operations[0].iterations[0].end;
  EXPECT_EQ(alone, TimePs(21'474'836'480));
  // The flow's second hop is the leaf-spine link it hashed onto (up direction).
  const ResourceInfo& hop = healthy.resources[healthy.path_pool[healthy.flows[0].path_begin + 1]];
  ASSERT_EQ(hop.kind, ResourceKind::kLinkUp);
  FaultSpec down;
  down.kind = FaultKind::kDown;
  down.links = {hop.link};
  down.at = TimePs(alone.value() / 4);
  down.convergence = TimePs(100'000'000);
  s.faults.push_back(down);
  const SimulationResult failed = run(t, s);
  EXPECT_EQ(failed.operations[0].iterations[0].end, alone + down.convergence);
  EXPECT_EQ(failed.flows[0].reroutes, 1U);
  EXPECT_EQ(failed.reroutes, 1U);
}

// The same transfer with its source NIC link degraded to half its capacity from the start: 2T.
// ECMP does not see capacity: no reroute.
TEST(FlowSimulation, DegradedLinkHalvesTheRate) {
  const Topology t = fixture(2, 2, 1);
  Scenario s = one_transfer();
  s.faults.push_back(testing_support::degrade(LinkId(0), 0.5));
  const SimulationResult r = run(t, s);
  EXPECT_EQ(r.operations[0].iterations[0].end, TimePs(2 * 21'474'836'480));
  EXPECT_EQ(r.reroutes, 0U);
}

// Two GPUs of one host (2 GPUs per host, HGX H100's 900 GB/s NVLink per GPU = 450 GB/s each way):
// 1 GB = 8e9 bits over 3.6e12 b/s takes 2.2222 ms and touches no network link.
TEST(FlowSimulation, SameHostTransfersUseNvlink) {
  Topology t = fixture(1, 1, 2);
  t.gpus_per_host = 2;
  Scenario s = one_transfer(1'000'000'000);
  const SimulationResult r = run(t, s, 900e9);
  EXPECT_NEAR(seconds(r.operations[0].iterations[0].end), 8e9 / 3.6e12, 1e-12);
  ASSERT_EQ(r.flows.size(), 1U);
  EXPECT_EQ(r.resources[r.path_pool[r.flows[0].path_begin]].kind, ResourceKind::kNvlinkOut);
  // Without an NVLink figure the scenario is refused.
  EXPECT_FALSE(simulate(fixtures::fixture_fabric(t), s).ok());
}

// PXN: host0/gpu0 sends 1 GiB to host1/gpu1 on a rail-optimized pair of hosts with 2 GPUs and
// 2 NICs each (rail r on leaf r, a spine above both leaves). The data crosses NVLink to host0/gpu1
// and leaves through host0's rail-1 NIC to host1's rail-1 NIC, both on leaf 1: four constraints
// (gpu0 NVLink out, gpu1 NVLink in, the two NIC links), no spine, S/B = 21.47483648 ms.
TEST(FlowSimulation, CrossRailTransfersGoThroughTheDestinationsRail) {
  Topology t;
  t.host_count = 2;
  t.ports_per_host = 2;
  t.gpus_per_host = 2;
  for (std::uint32_t h = 0; h < 2; ++h) {
    for (std::uint32_t r = 0; r < 2; ++r) t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, r, 1);
  }
  for (std::uint32_t l = 0; l < 2; ++l) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, l, 3);
  t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, 0, 0, 2);
  for (std::uint32_t p = 0; p < 4; ++p) t.add_link(VertexId(p), VertexId(4 + p % 2), gbps(400), TimePs(0), -1);
  for (std::uint32_t l = 0; l < 2; ++l) t.add_link(VertexId(4 + l), VertexId(6), gbps(400), TimePs(0), -1);
  t.finalize();
  Scenario s;
  TransferSpec x;
  x.src.gpu = 0;
  x.dst.gpu = 3;
  x.bytes = Bytes(kGiB);
  s.transfers.push_back(x);
  const SimulationResult r = run(t, s, 900e9);
  ASSERT_EQ(r.flows.size(), 1U);
  const FlowRecord& f = r.flows[0];
  EXPECT_EQ(f.via_gpu, 1U);
  EXPECT_EQ(f.src_port, VertexId(1));
  ASSERT_EQ(f.path_size, 4U);
  const ResourceKind kinds[] = {ResourceKind::kNvlinkOut, ResourceKind::kNvlinkIn, ResourceKind::kLinkUp,
                                  ResourceKind::kLinkDown};
  const LinkId links[] = {LinkId::invalid(), LinkId::invalid(), LinkId(1), LinkId(3)};
  for (std::uint32_t h = 0; h < 4; ++h) {
    const ResourceInfo& c = r.resources[r.path_pool[f.path_begin + h]];
    EXPECT_EQ(c.kind, kinds[h]) << h;
    if (h >= 2) {
      EXPECT_EQ(c.link, links[h]) << h;
    }
  }
  EXPECT_EQ(r.operations[0].iterations[0].end, TimePs(21'474'836'480));
}

// Iterations: a ring all-reduce of 64 MiB over 4 GPUs on one leaf (2(n-1) = 6 steps of S/4 = 2^27
// bits: 335,544,320 ps each, 2,013,265,920 ps per collective), 3 iterations with a
// 1 ms compute phase before each: every iteration waits for the previous plus 1 ms, so the last
// ends at 3 x (1 ms + 2.013 ms) and the GPUs spend 2.013 / 3.013 of their time on the network.
TEST(FlowSimulation, IterationsAlternateComputeAndCollective) {
  const Topology t = fixture(1, 1, 4);
  Scenario s;
  CollectiveSpec c = collective(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 64LL << 20, 4);
  c.iterations = 3;
  c.compute = TimePs(1'000'000'000);
  s.collectives.push_back(c);
  const SimulationResult r = run(t, s);
  const OperationResult& op = r.operations[0];
  ASSERT_EQ(op.iterations.size(), 3U);
  const std::int64_t collective_ps = 6 * 335'544'320LL;
  for (std::size_t it = 0; it < 3; ++it) {
    EXPECT_EQ(op.iterations[it].start, TimePs(static_cast<std::int64_t>(it + 1) * 1'000'000'000 + static_cast<std::int64_t>(it) * collective_ps));
    EXPECT_EQ(duration(op, it), TimePs(collective_ps));
  }
  EXPECT_EQ(r.phases[0].end, TimePs(3 * (1'000'000'000 + collective_ps)));
}

// Per-link statistics: the degraded transfer above carries 2^33 bits over its source NIC link at
// 200 Gb/s, the whole run: carried = 2^33 bits, peak = 200 Gb/s = half the nominal capacity, and
// saturated at its degraded capacity for the whole transfer: 2^33 bits / 200 Gb/s = 42.94967296 ms.
TEST(FlowSimulation, LinkStatisticsCountBitsAndPeaks) {
  const Topology t = fixture(2, 2, 1);
  Scenario s = one_transfer();
  s.faults.push_back(testing_support::degrade(LinkId(0), 0.5));
  const SimulationResult r = run(t, s);
  const std::uint32_t nic_up = r.path_pool[r.flows[0].path_begin];
  EXPECT_NEAR(r.stats[nic_up].carried_bits, 8.0 * kGiB, 1.0);
  EXPECT_DOUBLE_EQ(r.stats[nic_up].peak_bps, 200e9);
  EXPECT_EQ(r.stats[nic_up].saturated, TimePs(42'949'672'960));
  ASSERT_FALSE(r.series.empty());
  // The busiest links' time series: half utilisation in every bin.
  for (const LinkSeries& series : r.series) {
    for (const double u : series.utilization) EXPECT_NEAR(u, 0.5, 1e-6);
  }
}

// A batch of more network flows than the driver routes at once (20,000 mice, each routed alone
// under hashing and spraying) gets, flow by flow, the paths and per-hop fractions FlowRouter gives
// the batch routed whole: each record's resources are the directed links of its flow's sub-flow
// (a cable's up direction 2 x link, its down direction 2 x link + 1), with the same fractions.
TEST(FlowSimulation, ALargeBatchRoutedInPartsTakesThePathsOfTheWholeBatch) {
  const Fabric fabric = fixtures::fixture_fabric(fixture(4, 4, 4));
  for (const PathModel paths : {PathModel::kEcmp, PathModel::kSpray}) {
    SCOPED_TRACE(std::string(path_model_name(paths)));
    Scenario s;
    s.paths = paths;
    MiceSpec m;
    m.name = "m";
    m.count = 20'000;
    m.bytes = Bytes(1'000);
    for (std::uint32_t h = 0; h < 16; ++h) m.hosts.push_back(h);
    s.mice.push_back(m);
    auto r = simulate(fabric, s);
    ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
    auto w = compile_workload(fabric, s);
    ASSERT_TRUE(w.ok());
    std::vector<std::uint32_t> flows(w->flows.size());
    for (std::uint32_t f = 0; f < flows.size(); ++f) flows[f] = f;
    std::vector<std::uint32_t> position;
    const FlowRoutes whole = FlowRouter(fabric, s, w.value()).route(flows, position);
    ASSERT_EQ(r->flows.size(), flows.size());
    std::size_t sprayed = 0;
    for (std::uint32_t f = 0; f < flows.size(); ++f) {
      const FlowRecord& rec = r->flows[f];
      const auto links = whole.links(position[f]);
      const auto fractions = whole.fractions(position[f]);
      ASSERT_EQ(rec.path_size, links.size()) << "flow " << f;
      for (std::uint32_t h = 0; h < rec.path_size; ++h) {
        const ResourceInfo& res = r->resources[r->path_pool[rec.path_begin + h]];
        EXPECT_EQ(2 * res.link.value() + (res.kind == ResourceKind::kLinkDown ? 1 : 0), links[h]) << "flow " << f;
        EXPECT_EQ(r->fraction_pool[rec.path_begin + h], fractions[h]) << "flow " << f;
        sprayed += fractions[h] < 1.0 ? 1 : 0;
      }
    }
    EXPECT_EQ(sprayed > 0, paths == PathModel::kSpray);
  }
}

}  // namespace
}  // namespace ct
