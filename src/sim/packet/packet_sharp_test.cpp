// SHARP in the packet engine's switches (sim/packet/sharp_aggregation.h), worked by hand in the
// comments and against the flow engine. Links 400 Gb/s (fixtures::kLinkSpeed) with 100 ns of
// propagation d: a 4096 B packet serializes in t = 81.92 ns. Switch latency L = 200 ns, reduction
// latency R = 50 ns. One GPU per host on one rail: one channel, so one tree per all-reduce.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "sim/packet/packet_simulation.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"

namespace ct {
namespace {

constexpr TimePs ns(double v) { return TimePs(static_cast<std::int64_t>(v * 1000.0 + 0.5)); }
constexpr double kT = 81.92;  // ns per packet
constexpr double kD = 100;
constexpr double kL = 200;
constexpr double kR = 50;

Topology fabric_of(std::uint32_t leaves, std::uint32_t hosts_per_leaf) {
  Topology t = fixtures::two_tier(leaves, 1, hosts_per_leaf);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = ns(kD);
  return t;
}

CollectiveSpec all_reduce(CollectiveAlgorithm algorithm, std::int64_t bytes, std::uint32_t first, std::uint32_t gpus,
                          const std::string& name = "ar") {
  CollectiveSpec c;
  c.name = name;
  c.kind = CollectiveKind::kAllReduce;
  c.algorithm = algorithm;
  c.bytes = Bytes(bytes);
  c.groups.emplace_back();
  for (std::uint32_t g = first; g < first + gpus; ++g) c.groups.back().push_back(g);
  return c;
}

SimulationOptions options(std::uint32_t trees = 4, std::int64_t buffer = 1 << 20) {
  SimulationOptions o;
  o.engine = EngineKind::kPacket;
  o.packet.switch_latency = ns(kL);
  o.packet.buffer_bytes = buffer;
  o.packet.cut_through = true;
  o.packet.sharp_latency = ns(kR);
  o.packet.sharp_trees = trees;
  return o;
}

TimePs last_end(const SimulationResult& r, std::uint32_t operation) {
  TimePs end{0};
  for (const FlowRecord& f : r.flows) {
    if (f.operation == operation) end = std::max(end, f.end);
  }
  return end;
}

SimulationResult run(const Topology& t, const Scenario& s, const SimulationOptions& o) {
  auto r = simulate(fixtures::fixture_fabric(t), s, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  return r.ok() ? std::move(r).value() : SimulationResult{};
}

// One level: 8 ranks under one leaf, the leaf is the root. S = 1 MiB = P = 256 chunks. Chunk k's
// tail reaches the leaf from all eight NICs at (k + 1) t + d, is reduced L + R later and goes down
// each NIC link (t + d): the last one lands at 257 t + 2 d + L + R = 21,503.44 ns, every rank alike.
TEST(PacketSharp, OneLevelTreeToTheNanosecond) {
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 1 << 20, 0, 8));
  const SimulationResult r = run(fabric_of(1, 8), s, options());
  EXPECT_EQ(r.packet.sharp_trees, 1u);
  EXPECT_EQ(r.packet.drops, 0u);
  const TimePs expected = ns(257 * kT + 2 * kD + kL + kR);
  EXPECT_EQ(expected, ns(21503.44));
  EXPECT_EQ(r.operations[0].iterations[0].end, expected);
  std::uint32_t down = 0;
  for (const FlowRecord& f : r.flows) {
    if (f.end == expected) ++down;
  }
  EXPECT_EQ(down, 8u);  // the eight NIC links' down flows end together
}

// Two levels: 2 leaves of 4 hosts under one spine (the root). Up: NIC -> leaf (t + d), reduced
// (L + R), leaf -> spine (t + d), reduced (L + R); down: spine -> leaf (t + d), replicated (L),
// leaf -> NIC (t + d). The chunks leave each switch t apart, so nothing queues: the last lands at
// 256 t + 3 t + 4 d + 3 L + 2 R = 22,317.28 ns.
TEST(PacketSharp, TwoLevelTreeToTheNanosecond) {
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 1 << 20, 0, 8));
  const SimulationResult r = run(fabric_of(2, 4), s, options());
  const TimePs expected = ns(259 * kT + 4 * kD + 3 * kL + 2 * kR);
  EXPECT_EQ(expected, ns(22317.28));
  EXPECT_EQ(r.operations[0].iterations[0].end, expected);
  EXPECT_EQ(r.flows.size(), 20u);  // 8 NIC links and 2 leaf-spine links, each way
  EXPECT_EQ(r.packet.drops, 0u);
}

// Two all-reduces at once on disjoint ranks under one leaf (GPUs 0-3 and 4-7: no link shared).
// Two trees per switch: both end at 21,503.44 ns (the one-level figure; it does not depend on the
// ranks). One tree per switch: the second waits for the first's last chunk and then takes exactly
// as long: it ends at 2 x 21,503.44 ns, having waited 21,503.44 ns.
TEST(PacketSharp, TreeLimitMakesTheSecondWaitOneOperation) {
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 1 << 20, 0, 4, "a"));
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 1 << 20, 4, 4, "b"));
  const TimePs one = ns(257 * kT + 2 * kD + kL + kR);
  const SimulationResult both = run(fabric_of(1, 8), s, options(2));
  EXPECT_EQ(last_end(both, 0), one);
  EXPECT_EQ(last_end(both, 1), one);
  EXPECT_EQ(both.packet.sharp_waited, 0u);
  const SimulationResult limited = run(fabric_of(1, 8), s, options(1));
  EXPECT_EQ(last_end(limited, 0), one);
  EXPECT_EQ(last_end(limited, 1), one + one);
  EXPECT_EQ(limited.packet.sharp_waited, 1u);
  EXPECT_EQ(limited.packet.sharp_wait, one);
}

// Credits hold the children back: a child's chunk keeps its blocks at the leaf until the reduced
// chunk's tail has left, so with a buffer of one packet each NIC sends chunk k + 1 only when the
// credits of chunk k are back: t + d (up) + L + R + t (the copy down leaves) + d (credits back) =
// 2 t + 2 d + L + R = 613.84 ns per chunk. P = 16 chunks: the last lands at 16 x 613.84 =
// 9,821.44 ns (the last period ends with the copy's flight down, t + d, instead of the credits').
TEST(PacketSharp, CreditsApplyToTheAggregationPackets) {
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 16 * 4096, 0, 8));
  const SimulationResult r = run(fabric_of(1, 8), s, options(4, 4096));
  EXPECT_EQ(r.operations[0].iterations[0].end, ns(16 * (2 * kT + 2 * kD + kL + kR)));
  EXPECT_EQ(r.operations[0].iterations[0].end, ns(9821.44));
  EXPECT_EQ(r.packet.drops, 0u);
  EXPECT_TRUE(r.packet.deadlock_cycles.empty());
  TimePs stall{0};
  for (const ResourceStats& st : r.stats) stall += st.credit_stall;
  EXPECT_GT(stall.value(), 0);
}

// A long SHARP all-reduce (64 MiB on the two-level fabric) streams at the line rate: its time is
// within 2 % of the flow engine's SHARP figure (S / B plus a hop of latency), where only the
// pipeline's fill differs: 16,387 t + 4 d + 3 L + 2 R = 1,343,523.04 ns against 1,342,277.28 ns
// (0.09 % above).
TEST(PacketSharp, LongAllReduceAgreesWithTheFlowEngine) {
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 64LL << 20, 0, 8));
  const Topology t = fabric_of(2, 4);
  const SimulationResult packets = run(t, s, options());
  const SimulationResult fluid = run(t, s, SimulationOptions{});
  const double p = to_seconds(packets.operations[0].iterations[0].end - packets.operations[0].iterations[0].start);
  const double f = to_seconds(fluid.operations[0].iterations[0].end - fluid.operations[0].iterations[0].start);
  EXPECT_NEAR(f, 64.0 * (1 << 20) * 8 / 400e9 + 100e-9, 1e-10);
  EXPECT_EQ(packets.operations[0].iterations[0].end, ns(16387 * kT + 4 * kD + 3 * kL + 2 * kR));
  EXPECT_NEAR(p / f, 1.0, 0.02);
  EXPECT_GT(p, f);
}

// SHARP beside ring and tree all-reduce on the same fabric with the packet engine (8 ranks on two
// leaves, 16 MiB): each rank's NIC carries S each way under SHARP, 2 (n - 1) / n S under the
// ring, so SHARP is the fastest, within 2 % of S / B; all lossless.
TEST(PacketSharp, BesideRingAndTree) {
  const Topology t = fabric_of(2, 4);
  std::map<CollectiveAlgorithm, double> took;
  for (const CollectiveAlgorithm a : {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kTree, CollectiveAlgorithm::kSharp}) {
    Scenario s;
    s.collectives.push_back(all_reduce(a, 16 << 20, 0, 8));
    const SimulationResult r = run(t, s, options());
    ASSERT_EQ(r.operations.size(), 1u);
    EXPECT_TRUE(r.operations[0].complete);
    EXPECT_EQ(r.packet.drops, 0u);
    took[a] = to_seconds(r.operations[0].iterations[0].end - r.operations[0].iterations[0].start);
  }
  const double s_over_b = 16.0 * (1 << 20) * 8 / 400e9;
  EXPECT_NEAR(took[CollectiveAlgorithm::kSharp] / s_over_b, 1.0, 0.02);
  EXPECT_LT(took[CollectiveAlgorithm::kSharp], took[CollectiveAlgorithm::kRing]);
  EXPECT_LT(took[CollectiveAlgorithm::kSharp], took[CollectiveAlgorithm::kTree]);
  EXPECT_GT(took[CollectiveAlgorithm::kRing], 1.7 * s_over_b);  // 2 (n - 1) / n = 1.75
}

// RoCE v2 (the hardware of examples/lab-32-roce.yaml: Ethernet, PFC): PFC applies to the
// aggregation packets. 8 ranks under one leaf, 32 KiB per port and priority: headroom = 400 Gb/s x
// (2 d + L) / 8 + 2 MTU = 28,192 B leaves an XOFF of 4,576 B, about one packet, while a child's
// chunk waits at the leaf for L + R + t (reduced, the copy's tail gone): the leaf pauses the NICs,
// nothing is dropped, and the run takes longer than with 1 MiB of buffer (the one-level figure).
TEST(PacketSharp, PfcAppliesToTheAggregationPackets) {
  Topology t = fabric_of(1, 8);
  const ValidSpec spec = fixtures::example_spec("examples/lab-32-roce.yaml");
  const Fabric fabric = fabric_over(spec, fixtures::test_catalog(), t, EcmpConfig{});
  ASSERT_EQ(fabric.protocol(), Protocol::kEthernet);
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 1 << 20, 0, 8));
  auto wide = simulate(fabric, s, options());
  ASSERT_TRUE(wide.ok()) << format_diagnostics(wide.errors());
  EXPECT_EQ(wide->operations[0].iterations[0].end, ns(257 * kT + 2 * kD + kL + kR));
  auto r = simulate(fabric, s, options(4, 32 << 10));
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_TRUE(r->packet.pfc);
  EXPECT_EQ(r->packet.drops, 0u);
  EXPECT_TRUE(r->packet.deadlock_cycles.empty());
  std::int64_t frames = 0;
  for (const ResourceStats& st : r->stats) frames += st.pause_frames;
  EXPECT_GT(frames, 0);
  EXPECT_GT(r->operations[0].iterations[0].end, wide->operations[0].iterations[0].end);
  EXPECT_TRUE(r->operations[0].complete);
}

// The SHARP figures come from the options, else the catalog (the fixture's has none): a run without
// them is refused naming the flag; a run without SHARP needs neither.
TEST(PacketSharp, MissingFiguresAreNamed) {
  Scenario s;
  s.collectives.push_back(all_reduce(CollectiveAlgorithm::kSharp, 4096, 0, 8));
  const Fabric fabric = fixtures::fixture_fabric(fabric_of(1, 8));
  SimulationOptions o = options();
  o.packet.sharp_latency.reset();
  auto r = simulate(fabric, s, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("--sharp-latency"), std::string::npos);
  o = options();
  o.packet.sharp_trees.reset();
  r = simulate(fabric, s, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("--sharp-trees"), std::string::npos);
  Scenario ring;
  ring.collectives.push_back(all_reduce(CollectiveAlgorithm::kRing, 4096, 0, 8));
  o.packet.sharp_latency.reset();
  EXPECT_TRUE(simulate(fabric, ring, o).ok());
}

}  // namespace
}  // namespace ct
