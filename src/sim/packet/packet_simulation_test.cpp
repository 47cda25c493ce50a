// The packet engine through simulate() on small fabrics, worked by hand, and against the flow
// engine where both models agree (long flows: the packet engine's shares are the max-min rates).
// Links 400 Gb/s (fixtures::kLinkSpeed): a 4096 B packet serializes in 81.92 ns.
#include "sim/packet/packet_simulation.h"

#include <gtest/gtest.h>

#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"

namespace ct {
namespace {

constexpr TimePs ns(double v) { return TimePs(static_cast<std::int64_t>(v * 1000.0 + 0.5)); }

Scenario transfer(std::uint32_t src_gpu, std::uint32_t dst_gpu, Bytes bytes) {
  Scenario s;
  TransferSpec x;
  x.name = "x";
  x.src.gpu = src_gpu;
  x.dst.gpu = dst_gpu;
  x.bytes = bytes;
  s.transfers.push_back(x);
  return s;
}

SimulationOptions packet_options(bool cut_through, std::int64_t buffer = 1 << 20) {
  SimulationOptions o;
  o.engine = EngineKind::kPacket;
  o.packet.switch_latency = ns(200);
  o.packet.buffer_bytes = buffer;
  o.packet.cut_through = cut_through;
  return o;
}

// Two hosts on one leaf, links of 100 ns; 1 MiB from host 0 to host 1 = 256 packets over 2 hops.
// Cut-through: 256 x 81.92 + 2 x 100 + 200 = 21,371.52 ns. Store-and-forward adds the last
// packet's serialization once more: 21,453.44 ns.
TEST(PacketSimulation, OneTransferOverTwoHopsToTheNanosecond) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = ns(100);
  const Fabric fabric = fixtures::fixture_fabric(t);
  const Scenario s = transfer(0, 1, Bytes(1 << 20));
  auto ct = simulate(fabric, s, packet_options(true));
  ASSERT_TRUE(ct.ok()) << format_diagnostics(ct.errors());
  ASSERT_EQ(ct->flows.size(), 1u);
  EXPECT_EQ(ct->flows[0].end, ns(21371.52));
  EXPECT_EQ(ct->makespan, ns(21371.52));
  EXPECT_TRUE(ct->packet.ran);
  EXPECT_EQ(ct->packet.drops, 0u);
  EXPECT_TRUE(ct->packet.deadlock_cycles.empty());
  auto saf = simulate(fabric, s, packet_options(false));
  ASSERT_TRUE(saf.ok());
  EXPECT_EQ(saf->flows[0].end, ns(21453.44));
  // The flow engine: 8,388,608 bits at 400 Gb/s = 20,971.52 ns + 200 ns of latency; the packet
  // engine adds the switch and the pipeline of the packets.
  auto fluid = simulate(fabric, s);
  ASSERT_TRUE(fluid.ok());
  EXPECT_EQ(fluid->flows[0].end, ns(21171.52));
}

// Across the spine (4 hops, 3 switches), cut-through: 256 x 81.92 + 4 x 100 + 3 x 200 = 21,971.52 ns.
TEST(PacketSimulation, OneTransferAcrossTheSpine) {
  Topology t = fixtures::two_tier(2, 1, 1);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = ns(100);
  const Fabric fabric = fixtures::fixture_fabric(t);
  auto r = simulate(fabric, transfer(0, 1, Bytes(1 << 20)), packet_options(true));
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->flows[0].end, ns(21971.52));
}

// Long flows on a permutation, the same paths in both engines. Four leaves of four hosts under one
// spine; host i sends 64 MiB to host i + 4 mod 16: each leaf's single uplink carries its four
// hosts' flows and each spine downlink four flows to one leaf, so max-min gives every flow a
// quarter of 400 Gb/s (100 Gb/s: 5.37 ms for 64 MiB). The packet engine's shares come from the
// switches' round robin and FIFO queues under credit backpressure: here the same quarter. Every
// flow's completion is within 2 % of the flow engine's.
TEST(PacketSimulation, PermutationAgreesWithMaxMinWithinTwoPercent) {
  Topology t = fixtures::two_tier(4, 1, 4);
  t.gpus_per_host = 1;
  const Fabric fabric = fixtures::fixture_fabric(t);
  const Scenario s = fixtures::shift_permutation(16, 4, Bytes(64LL << 20));
  auto fluid = simulate(fabric, s);
  ASSERT_TRUE(fluid.ok()) << format_diagnostics(fluid.errors());
  auto packets = simulate(fabric, s, packet_options(true));
  ASSERT_TRUE(packets.ok()) << format_diagnostics(packets.errors());
  ASSERT_EQ(packets->flows.size(), fluid->flows.size());
  for (std::size_t f = 0; f < fluid->flows.size(); ++f) {
    SCOPED_TRACE(f);
    EXPECT_NEAR(to_seconds(fluid->flows[f].end), 64.0 * 1024 * 1024 * 8 / 100e9, 1e-6);
    EXPECT_NEAR(to_seconds(packets->flows[f].end) / to_seconds(fluid->flows[f].end), 1.0, 0.02);
  }
  EXPECT_EQ(packets->packet.drops, 0u);
}

// The switch figures come from the options, else the catalog; the lab's catalog publishes none,
// so a run without them is refused naming each missing figure in turn.
TEST(PacketSimulation, MissingSwitchFiguresAreNamed) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 1;
  const Fabric fabric = fixtures::fixture_fabric(t);
  const Scenario s = transfer(0, 1, Bytes(4096));
  SimulationOptions o = packet_options(true);
  o.packet.buffer_bytes.reset();
  auto r = simulate(fabric, s, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("buffer per port and VL"), std::string::npos);
  EXPECT_NE(r.errors()[0].message.find("--switch-buffer"), std::string::npos);
  o = packet_options(true, 1024);
  r = simulate(fabric, s, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("holds no packet"), std::string::npos);
}

// Same input and seed, same result, field by field.
TEST(PacketSimulation, Deterministic) {
  Topology t = fixtures::fat_tree_4();
  t.gpus_per_host = 1;
  const Fabric fabric = fixtures::fixture_fabric(t);
  Scenario s;
  for (std::uint32_t h = 0; h < 16; ++h) {
    TransferSpec x;
    x.name = "x" + std::to_string(h);
    x.src.gpu = h;
    x.dst.gpu = (h * 7 + 3) % 16;
    x.bytes = Bytes(1 << 20);
    s.transfers.push_back(x);
  }
  auto a = simulate(fabric, s, packet_options(false, 16384));
  auto b = simulate(fabric, s, packet_options(false, 16384));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->packet.events, b->packet.events);
  for (std::size_t f = 0; f < a->flows.size(); ++f) EXPECT_EQ(a->flows[f].end, b->flows[f].end);
  for (std::size_t c = 0; c < a->stats.size(); ++c) {
    EXPECT_EQ(a->stats[c].credit_stall, b->stats[c].credit_stall);
    EXPECT_EQ(a->stats[c].peak_queue_bytes, b->stats[c].peak_queue_bytes);
  }
}

// RoCE v2 (the fixture topology with the hardware of examples/lab-32-roce.yaml, SN5600 switches:
// Ethernet): PFC instead of credits (DCQCN off: PFC alone). An incast of 2 onto host 2
// (4 MiB each, 64 KiB of buffer per port and priority): nothing dropped, the receiver's link at
// line rate (2 x 4 MiB at 400 Gb/s = 167.77 us, plus under 1 us of pipeline), and the senders'
// links paused about half the time each (n = 2: (n - 1) / n of 167.77 us, less the buffered end).
TEST(PacketSimulation, RoceIncastRunsPfcWithoutDrops) {
  Topology t = fixtures::two_tier(1, 1, 3);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = ns(100);
  const ValidSpec spec = fixtures::example_spec("examples/lab-32-roce.yaml");
  const Fabric fabric = fabric_over(spec, fixtures::test_catalog(), t, EcmpConfig{});
  ASSERT_EQ(fabric.protocol(), Protocol::kEthernet);
  Scenario s = transfer(0, 2, Bytes(4 << 20));
  s.transfers.push_back(transfer(1, 2, Bytes(4 << 20)).transfers[0]);
  SimulationOptions pfc_alone = packet_options(true, 64 << 10);
  pfc_alone.packet.dcqcn = false;
  auto r = simulate(fabric, s, pfc_alone);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_TRUE(r->packet.pfc);
  EXPECT_FALSE(r->packet.dcqcn);
  EXPECT_EQ(r->packet.drops, 0u);
  const double line = 2.0 * (4 << 20) * 8 / 400e9;
  EXPECT_GE(to_seconds(r->makespan), line);
  EXPECT_LE(to_seconds(r->makespan), line + 1e-6);
  double pause = 0;
  std::int64_t frames = 0;
  for (const ResourceStats& st : r->stats) {
    pause += to_seconds(st.pause_time);
    frames += st.pause_frames;
  }
  EXPECT_GT(frames, 0);
  EXPECT_NEAR(pause, line / 2 * 2, line * 0.1);  // two senders, each paused about half the run
  // A buffer that cannot hold the headroom and one packet is refused, naming the flag.
  auto small = simulate(fabric, s, packet_options(true, 16 << 10));
  ASSERT_FALSE(small.ok());
  EXPECT_NE(format_diagnostics(small.errors()).find("--switch-buffer"), std::string::npos);
}

// The same incast with DCQCN on (the default on RoCE v2) and 1 MiB per port and priority, so that
// the egress queue passes Kmax = 200 KB: the switch's egress port towards host 2 marks, the
// receivers send CNPs (counted per flow, at most one per 50 us), nothing is dropped; same seed,
// same marks. On InfiniBand DCQCN is off, and asking for it is refused naming --dcqcn.
TEST(PacketSimulation, RoceRunsDcqcnByDefaultAndInfinibandRefusesIt) {
  Topology t = fixtures::two_tier(1, 1, 3);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = ns(100);
  const ValidSpec spec = fixtures::example_spec("examples/lab-32-roce.yaml");
  const Fabric fabric = fabric_over(spec, fixtures::test_catalog(), t, EcmpConfig{});
  Scenario s = transfer(0, 2, Bytes(16 << 20));
  s.transfers.push_back(transfer(1, 2, Bytes(16 << 20)).transfers[0]);
  auto r = simulate(fabric, s, packet_options(true, 1 << 20));
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_TRUE(r->packet.dcqcn);
  EXPECT_EQ(r->packet.ecn_kmin, 5000);
  EXPECT_EQ(r->packet.ecn_kmax, 200000);
  EXPECT_EQ(r->packet.drops, 0u);
  std::int64_t marks = 0;
  for (std::size_t c = 0; c < r->stats.size(); ++c) {
    marks += r->stats[c].ecn_marks;
    if (r->stats[c].ecn_marks > 0) {
      EXPECT_EQ(r->resources[c].kind, ResourceKind::kLinkDown);  // a switch's egress only
    }
  }
  EXPECT_GT(marks, 0);
  std::int64_t cnps = 0;
  for (const FlowRecord& f : r->flows) {
    EXPECT_GT(f.cnps, 0);
    EXPECT_LE(f.cnps, (f.end - f.start).value() / 50'000'000 + 1);
    cnps += f.cnps;
  }
  EXPECT_EQ(r->packet.cnps, cnps);
  auto again = simulate(fabric, s, packet_options(true, 1 << 20));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->packet.cnps, r->packet.cnps);
  EXPECT_EQ(again->makespan, r->makespan);

  const Fabric ib = fixtures::fixture_fabric(t);
  const Scenario one = transfer(0, 1, Bytes(1 << 20));
  auto plain = simulate(ib, one, packet_options(true));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->packet.dcqcn);
  SimulationOptions asked = packet_options(true);
  asked.packet.dcqcn = true;
  auto refused = simulate(ib, one, asked);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(format_diagnostics(refused.errors()).find("--dcqcn"), std::string::npos);
}

}  // namespace
}  // namespace ct
