// Per-packet spraying in the packet engine (paths: spray; packet_simulation.h "Spraying"), worked
// by hand on small two-tier fabrics and against the flow engine's fractions. Links 400 Gb/s
// (fixtures::kLinkSpeed): a 4096 B packet serializes in 81.92 ns.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "routing/load_balancing.h"
#include "sim/packet/packet_simulation.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "support/faults.h"

namespace ct {
namespace {

constexpr TimePs ns(double v) { return TimePs(static_cast<std::int64_t>(v * 1000.0 + 0.5)); }

Scenario sprayed(std::initializer_list<std::array<std::int64_t, 3>> transfers) {
  Scenario s;
  s.paths = PathModel::kSpray;
  for (const auto& [src, dst, bytes] : transfers) {
    TransferSpec x;
    x.name = "x" + std::to_string(s.transfers.size());
    x.src.gpu = static_cast<std::uint32_t>(src);
    x.dst.gpu = static_cast<std::uint32_t>(dst);
    x.bytes = Bytes(bytes);
    s.transfers.push_back(x);
  }
  return s;
}

SimulationOptions packet_options() {
  SimulationOptions o;
  o.engine = EngineKind::kPacket;
  o.packet.switch_latency = ns(200);
  o.packet.buffer_bytes = 1 << 20;
  o.packet.cut_through = true;
  return o;
}

// Two leaves, two spines, one host per leaf; links of 100 ns. Links: NIC links 0 and 1, then
// leaf 0 - spine 0 (2), leaf 0 - spine 1 (3), leaf 1 - spine 0 (4), leaf 1 - spine 1 (5).
Fabric two_spines() {
  Topology t = fixtures::two_tier(2, 2, 1);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = ns(100);
  return fixtures::fixture_fabric(t);
}

// The resource of directed link `link` up (leaf to spine) or down.
std::uint32_t resource(const SimulationResult& r, std::uint32_t link, bool up) {
  for (std::uint32_t c = 0; c < r.resources.size(); ++c) {
    if (r.resources[c].link == LinkId(link) && (r.resources[c].kind == ResourceKind::kLinkUp) == up) return c;
  }
  ADD_FAILURE() << "no resource for link " << link;
  return 0;
}

// The rule: packet n takes member n mod 2 of leaf 0's up group: even packets by spine 0 (links 2
// then 4 down), odd ones by spine 1 (3, then 5); the path repeats every 2 packets.
TEST(PacketSpray, PacketsAlternateOverTheMembers) {
  const Fabric fabric = two_spines();
  const PathWalker& w = fabric.walker();
  const VertexId src(0);
  const VertexId dst(1);
  EXPECT_EQ(spray_period(w, src, dst), 2u);
  std::vector<std::uint32_t> links;
  for (std::uint64_t n = 0; n < 8; ++n) {
    SCOPED_TRACE(n);
    ASSERT_TRUE(sprayed_path(w, src, dst, n, links));
    ASSERT_EQ(links.size(), 4u);
    const std::uint32_t spine = n % 2;
    EXPECT_EQ(links[0], directed_link(LinkId(0), true));
    EXPECT_EQ(links[1], directed_link(LinkId(2 + spine), true));
    EXPECT_EQ(links[2], directed_link(LinkId(4 + spine), false));
    EXPECT_EQ(links[3], directed_link(LinkId(1), false));
  }
}

// One flow of 8 packets (32 KiB), sprayed: packets 0, 2, 4, 6 by spine 0 and 1, 3, 5, 7 by spine 1,
// 16,384 B on each member's up and down link, 32,768 B on the NIC links. No packet meets another
// on the spines' links, so the time is the one-path time, cut-through: 8 x 81.92 + 4 x 100 + 3 x
// 200 = 1,655.36 ns; in order at the receiver. The record lists both members at a half each.
TEST(PacketSpray, EightPacketsOverTwoSpinesByHand) {
  const Fabric fabric = two_spines();
  auto r = simulate(fabric, sprayed({{0, 1, 8 * 4096}}), packet_options());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->flows[0].end, ns(1655.36));
  EXPECT_EQ(r->packet.drops, 0u);
  for (const std::uint32_t spine : {0U, 1U}) {
    EXPECT_EQ(r->stats[resource(r.value(), 2 + spine, true)].carried_bits, 16384.0 * 8);
    EXPECT_EQ(r->stats[resource(r.value(), 4 + spine, false)].carried_bits, 16384.0 * 8);
  }
  EXPECT_EQ(r->stats[resource(r.value(), 0, true)].carried_bits, 32768.0 * 8);
  EXPECT_EQ(r->stats[resource(r.value(), 1, false)].carried_bits, 32768.0 * 8);
  const FlowRecord& f = r->flows[0];
  ASSERT_EQ(f.path_size, 6u);  // NIC up, two leaf uplinks, two spine downlinks, NIC down
  for (std::uint32_t h = f.path_begin; h < f.path_begin + f.path_size; ++h) {
    const bool nic = r->resources[r->path_pool[h]].link.value() < 2;
    EXPECT_EQ(r->fraction_pool[h], nic ? 1.0 : 0.5);
  }
  EXPECT_TRUE(r->packet.spraying);
  EXPECT_EQ(r->flows[0].out_of_order, 0);
  EXPECT_EQ(r->packet.out_of_order, 0);
  EXPECT_EQ(r->packet.packets_delivered, 8);
}

// The remainder: 7 packets, the last of 1,000 B: spine 0 carries packets 0, 2, 4, 6 (3 x 4,096 +
// 1,000 = 13,288 B), spine 1 packets 1, 3, 5 (12,288 B).
TEST(PacketSpray, TheRemainderGoesToTheFirstMembers) {
  const Fabric fabric = two_spines();
  auto r = simulate(fabric, sprayed({{0, 1, 6 * 4096 + 1000}}), packet_options());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->stats[resource(r.value(), 2, true)].carried_bits, 13288.0 * 8);
  EXPECT_EQ(r->stats[resource(r.value(), 3, true)].carried_bits, 12288.0 * 8);
  EXPECT_EQ(r->flows[0].unfinished, Unfinished::kNo);
}

// Unequal members reorder: leaf 0 - spine 1 at a quarter of its rate from the start (a degrade),
// so the odd packets of 16 take 327.68 ns on it against 81.92 ns, and queue there: each of
// packets 1, 3, ..., 13 arrives after the even packet that follows it, packet 15 after 14 only,
// so 7 of the 16 arrive out of order. The flow still completes with all its bytes.
TEST(PacketSpray, ASlowMemberReordersAndIsCounted) {
  const Fabric fabric = two_spines();
  Scenario s = sprayed({{0, 1, 16 * 4096}});
  s.faults.push_back(testing_support::degrade(LinkId(3), 0.25, TimePs(0), "p0/leaf/0 -- p0/spine/1"));
  auto r = simulate(fabric, s, packet_options());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->flows[0].unfinished, Unfinished::kNo);
  EXPECT_EQ(r->flows[0].bits_left, 0.0);
  EXPECT_EQ(r->flows[0].out_of_order, 7);
  EXPECT_EQ(r->packet.out_of_order, 7);
  EXPECT_EQ(r->packet.packets_delivered, 16);
}

// A reroute of a sprayed flow (review item 5 of issue 26): leaf 0 - spine 1 (link 3) goes down at
// 2 us and routing reconverges 1 us later; the flow of 64 packets from host 0 to host 1 sprays over
// both spines until then, over spine 0 alone after. Under the fabric's forwarding (up/down shortest
// paths, routing/forwarding_state.h) every member of a group is one hop nearer the destination,
// so the sprayed paths of a flow are always of one length, before a fault and after: the reroute
// moves the flow (no "differ in length" error) and its packets made after it all cross spine 0.
// The packets sprayed onto spine 1 before the failure wait there for a repair that never comes
// (no retransmission: docs/models/packet-engine.md), so the flow stalls with fewer than 64 and more
// than the 32 of spine 0's share delivered. (Unequal sprayed paths end the run with an error
// naming the flow and the fault; no fabric the forwarding model builds reaches that error.)
TEST(PacketSpray, ARerouteKeepsTheSprayedPathsOfOneLength) {
  const Fabric fabric = two_spines();
  Scenario s = sprayed({{0, 1, 64 * 4096}});
  FaultSpec down;
  down.kind = FaultKind::kDown;
  down.what = "p0/leaf/0 -- p0/spine/1";
  down.links = {LinkId(3)};
  down.at = ns(2000);
  down.convergence = ns(1000);
  s.faults.push_back(down);
  auto r = simulate(fabric, s, packet_options());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->flows[0].unfinished, Unfinished::kStalled);
  EXPECT_EQ(r->flows[0].reroutes, 1U);
  EXPECT_GT(r->packet.packets_delivered, 32);
  EXPECT_LT(r->packet.packets_delivered, 64);
  // Its final paths: one, over spine 0 (links 2 up, 4 down), every hop whole.
  const FlowRecord& f = r->flows[0];
  ASSERT_EQ(f.path_size, 4U);
  EXPECT_EQ(r->path_pool[f.path_begin + 1], resource(r.value(), 2, true));
  EXPECT_EQ(r->path_pool[f.path_begin + 2], resource(r.value(), 4, false));
  for (std::uint32_t h = 0; h < f.path_size; ++h) EXPECT_EQ(r->fraction_pool[f.path_begin + h], 1.0);
}

// A long sprayed flow's steady state is the flow engine's rate: three hosts of leaf 0 each send
// 32 MiB to a host of leaf 1 over two spines; each flow puts half its rate on each uplink, so each
// uplink carries 1.5 flows and max-min gives each flow 400 / 1.5 = 266.7 Gb/s (1.007 ms). The
// packet engine's completions are within 2 % of the flow engine's.
TEST(PacketSpray, LongSprayedFlowsAgreeWithTheFlowEngine) {
  Topology t = fixtures::two_tier(2, 2, 3);
  t.gpus_per_host = 1;
  const Fabric fabric = fixtures::fixture_fabric(t);
  const std::int64_t size = 32LL << 20;
  const Scenario s = sprayed({{0, 3, size}, {1, 4, size}, {2, 5, size}});
  auto fluid = simulate(fabric, s);
  ASSERT_TRUE(fluid.ok()) << format_diagnostics(fluid.errors());
  auto packets = simulate(fabric, s, packet_options());
  ASSERT_TRUE(packets.ok()) << format_diagnostics(packets.errors());
  for (std::size_t f = 0; f < fluid->flows.size(); ++f) {
    SCOPED_TRACE(f);
    EXPECT_NEAR(to_seconds(fluid->flows[f].end), static_cast<double>(size) * 8 / (400e9 / 1.5), 1e-6);
    EXPECT_NEAR(to_seconds(packets->flows[f].end) / to_seconds(fluid->flows[f].end), 1.0, 0.02);
  }
  EXPECT_EQ(packets->packet.drops, 0u);
}

}  // namespace
}  // namespace ct
