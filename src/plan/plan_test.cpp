// Unit tests of the planner on topologies built by hand (add_vertex/add_link/finalize), so they do
// not depend on the builder: the expected figures below are counted on the drawing, not computed.
#include <gtest/gtest.h>

#include "plan/max_flow.h"
#include "plan/planner.h"

namespace ct {
namespace {

constexpr auto k400 = gbps(400);

// Fixture rail_4x2(planes): 4 hosts x 2 NICs (2 GPUs each, one NIC per GPU), rail-optimized, two
// scalable units of 2 hosts. Per plane:
//   leaves L(su, rail), index su*2 + rail: L0 = SU0 rail0 {host0, host1}, L1 = SU0 rail1,
//   L2 = SU1 rail0 {host2, host3}, L3 = SU1 rail1; 2 ports down, 2 up (radix 4);
//   2 spines S0, S1; every leaf has one cable to each spine.
//   NIC-leaf links use medium 0 (a transceiver), leaf-spine links medium 1 (an AOC).
//   All links 400G. `bridge`: one extra cable from plane 0's spine S0 to plane 1's spine S0 (a
//   design validation rejects; here to see that the planner counts it).
Topology rail_4x2(int planes, bool bridge = false) {
  Topology t;
  t.host_count = 4;
  t.ports_per_host = 2;
  t.planes = planes;
  t.tiers = 2;
  t.gpus_per_host = 2;
  for (std::uint32_t h = 0; h < 4; ++h) {
    for (std::uint32_t r = 0; r < 2; ++r) {
      for (int p = 0; p < planes; ++p) t.add_vertex(VertexKind::kPort, Network::kBackend, p, 0, h, r, 1);
    }
  }
  for (int p = 0; p < planes; ++p) {
    std::vector<VertexId> leaves;
    std::vector<VertexId> spines;
    for (std::uint32_t i = 0; i < 4; ++i) leaves.push_back(t.add_vertex(VertexKind::kSwitch, Network::kBackend, p, 1, 0, i, 4));
    for (std::uint32_t i = 0; i < 2; ++i) spines.push_back(t.add_vertex(VertexKind::kSwitch, Network::kBackend, p, 2, 0, i, 4));
    for (long long h = 0; h < 4; ++h) {
      for (int r = 0; r < 2; ++r) {
        const auto leaf = leaves[static_cast<std::size_t>((h / 2) * 2 + r)];
        t.add_link(t.port_of(HostId(h), r, p), leaf, k400, nanoseconds(100), 0);
      }
    }
    for (const auto leaf : leaves) {
      for (const auto spine : spines) t.add_link(leaf, spine, k400, nanoseconds(100), 1);
    }
  }
  if (bridge) {
    // Vertices: 4 x 2 x planes ports, then per plane 4 leaves and 2 spines.
    const auto ports = static_cast<std::uint32_t>(8 * planes);
    t.add_link(VertexId(ports + 4), VertexId(ports + 6 + 4), k400, nanoseconds(100), 1);
  }
  t.finalize();
  return t;
}

Catalog test_catalog() {
  Catalog c;
  OpticModel xcvr;
  xcvr.id = "xcvr-2x400";
  xcvr.kind = MediaKind::kTransceiver;
  xcvr.speed = gbps(800);
  xcvr.links = 2;
  xcvr.power_w = 10.0;
  xcvr.price_usd = 500.0;
  OpticModel aoc;
  aoc.id = "aoc-400";
  aoc.kind = MediaKind::kAoc;
  aoc.speed = k400;
  aoc.price_usd = 100.0;  // power unknown
  c.optics = {xcvr, aoc};
  return c;
}

// A switch with 2 cages of 800G, each split 2 x 400G: 4 logical ports, `ways` = 2.
PlanInputs test_inputs() {
  PlanInputs in;
  in.name = "rail_4x2";
  in.switch_model.id = "sw4";
  in.switch_model.ports = 2;
  in.switch_model.port_speed = gbps(800);
  in.switch_model.breakouts = {{2, k400}};
  in.switch_model.power_w = 100.0;
  in.switch_model.price_usd = 1000.0;
  in.nic.id = "nic800";
  in.nic.port_speed = gbps(800);
  in.nic.splits = {1, 2};
  in.nic.power_w = 20.0;
  in.node.id = "node2";
  in.node.gpus = 2;
  in.port_speed = k400;
  in.radix = 4;
  in.down = {2};
  in.oversubscription = {1.0};
  return in;
}

TEST(MaxFlow, TextbookNetwork) {
  // CLRS 3rd ed. figure 26.1: s=0, v1..v4 = 1..4, t=5; the maximum flow is 23.
  MaxFlow f(6);
  f.add_edge(0, 1, 16, 0);
  f.add_edge(0, 2, 13, 0);
  f.add_edge(1, 3, 12, 0);
  f.add_edge(2, 1, 4, 0);
  f.add_edge(2, 4, 14, 0);
  f.add_edge(3, 2, 9, 0);
  f.add_edge(3, 5, 20, 0);
  f.add_edge(4, 3, 7, 0);
  f.add_edge(4, 5, 4, 0);
  EXPECT_EQ(f.solve(0, 5), 23);
}

TEST(MaxFlow, UndirectedLinksNeedTheReverseArc) {
  // s-a (5), a-b (3), s-b (2), b-t (10) as full-duplex links: the cut {b-t} is 10 but s only
  // reaches b through a (3) and directly (2): 5.
  MaxFlow f(4);
  f.add_edge(0, 1, 5, 5);
  f.add_edge(1, 2, 3, 3);
  f.add_edge(0, 2, 2, 2);
  f.add_edge(2, 3, 10, 10);
  EXPECT_EQ(f.solve(0, 3), 5);
}

TEST(Planner, CountsSwitchesPortsAndLinksPerTier) {
  // One plane: 4 leaves x 4 ports (2 down + 2 up, all used), 2 spines x 4 ports (all used);
  // 8 NIC-leaf links, 8 leaf-spine links.
  const auto p = plan(test_inputs(), rail_4x2(1), test_catalog());
  ASSERT_EQ(p.plane_figures.size(), 1U);
  const auto& leaf = p.plane_figures[0].tiers[0];
  const auto& spine = p.plane_figures[0].tiers[1];
  EXPECT_EQ(p.plane_figures[0].endpoints, 8);
  EXPECT_EQ(leaf.switches, 4);
  EXPECT_EQ(leaf.ports_used, 16);
  EXPECT_EQ(leaf.ports_free, 0);
  EXPECT_EQ(leaf.links, 8);
  EXPECT_EQ(leaf.link_speed, k400);
  EXPECT_EQ(leaf.down_capacity, k400 * 8);
  EXPECT_EQ(leaf.up_capacity, k400 * 8);
  EXPECT_DOUBLE_EQ(leaf.oversubscription, 1.0);
  EXPECT_EQ(spine.switches, 2);
  EXPECT_EQ(spine.ports_used, 8);
  EXPECT_EQ(spine.links, 8);
  EXPECT_EQ(spine.up_capacity, BitsPerSecond(0));
  EXPECT_DOUBLE_EQ(spine.oversubscription, 0.0);
  EXPECT_EQ(p.nics, 8);
  EXPECT_EQ(p.gpus, 8);
}

TEST(Planner, FreePortsAreLogicalPortsMinusDegree) {
  // The same fabric on 6-port switches: each leaf and spine has 2 free ports.
  auto t = rail_4x2(1);
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] == VertexKind::kSwitch) t.ports[v] = 6;
  }
  const auto p = plan(test_inputs(), t, test_catalog());
  EXPECT_EQ(p.plane_figures[0].tiers[0].ports_free, 4 * 2);
  EXPECT_EQ(p.plane_figures[0].tiers[1].ports_free, 2 * 2);
}

TEST(Planner, BisectionIsTheUplinkCapacityOfOneScalableUnit) {
  // Hosts {0,1} (SU0) vs {2,3} (SU1): everything crosses through the 4 uplinks of L0 and L1,
  // 4 x 400G = 1.6T, which equals the 4 NIC ports of SU0: full bisection.
  const auto p = plan(test_inputs(), rail_4x2(1), test_catalog());
  EXPECT_EQ(p.bisection, k400 * 4);
  EXPECT_EQ(p.half_injection, k400 * 4);
}

TEST(Planner, BisectionFollowsARemovedUplink) {
  // Rebuild without the L0-S0 cable: SU0 keeps 3 uplinks, 1.2T.
  auto full = rail_4x2(1);
  Topology t;
  t.host_count = full.host_count;
  t.ports_per_host = full.ports_per_host;
  t.gpus_per_host = full.gpus_per_host;
  for (std::size_t v = 0; v < full.vertex_count(); ++v) {
    t.add_vertex(full.kind[v], full.network[v], full.plane[v], full.tier[v], full.group[v], full.index[v], full.ports[v]);
  }
  const VertexId l0(8);
  const VertexId s0(12);
  for (std::size_t l = 0; l < full.link_count(); ++l) {
    if (full.link_a[l] == l0 && full.link_b[l] == s0) continue;
    t.add_link(full.link_a[l], full.link_b[l], full.capacity[l], full.latency[l], full.media[l]);
  }
  t.finalize();
  const auto p = plan(test_inputs(), t, test_catalog());
  EXPECT_EQ(p.bisection, k400 * 3);
  EXPECT_NEAR(p.plane_figures[0].tiers[0].oversubscription, 8.0 / 7.0, 1e-12);
  EXPECT_EQ(p.plane_figures[0].tiers[0].ports_free, 1);
}

TEST(Planner, HopsByBreadthFirstSearch) {
  // host0/nic0 is on L0. host1/nic0: same leaf, 1 switch. host0/nic1 (L1) and host2/nic0 (L2):
  // leaf-spine-leaf, 3 switches, over either spine: 2 shortest paths.
  const auto p = plan(test_inputs(), rail_4x2(1), test_catalog());
  ASSERT_EQ(p.hops.size(), 3U);
  EXPECT_EQ(p.hops[0].relation, "same leaf");
  EXPECT_EQ(p.hops[0].host_b, 1);
  EXPECT_EQ(p.hops[0].rail_b, 0);
  EXPECT_EQ(p.hops[0].switch_hops, std::vector<int>{1});
  EXPECT_EQ(p.hops[0].shortest_paths, std::vector<std::uint64_t>{1});
  EXPECT_EQ(p.hops[1].relation, "same host, other rail");
  EXPECT_EQ(p.hops[1].switch_hops, std::vector<int>{3});
  EXPECT_EQ(p.hops[1].shortest_paths, std::vector<std::uint64_t>{2});
  EXPECT_EQ(p.hops[2].relation, "same rail, other leaf");
  EXPECT_EQ(p.hops[2].host_b, 2);
  EXPECT_EQ(p.hops[2].switch_hops, std::vector<int>{3});
}

TEST(Planner, FailureDomainsOfOnePlane) {
  // 8 GPUs, one 400G port each. NIC port: 1 GPU loses all (1/8 of the fabric). Leaf L0: host0
  // and host1 GPU0 lose all (2/8). Spine S0: every leaf keeps 1 of 2 uplinks, all 8 GPUs lose half.
  const auto p = plan(test_inputs(), rail_4x2(1), test_catalog());
  ASSERT_EQ(p.failure_domains.size(), 3U);
  const auto& port = p.failure_domains[0];
  EXPECT_EQ(port.element, "NIC port");
  EXPECT_EQ(port.gpus_affected, 1);
  EXPECT_DOUBLE_EQ(port.max_share_lost, 1.0);
  EXPECT_DOUBLE_EQ(port.fabric_share_lost, 1.0 / 8);
  const auto& leaf = p.failure_domains[1];
  EXPECT_EQ(leaf.element, "leaf");
  EXPECT_EQ(leaf.gpus_affected, 2);
  EXPECT_DOUBLE_EQ(leaf.fabric_share_lost, 2.0 / 8);
  const auto& spine = p.failure_domains[2];
  EXPECT_EQ(spine.gpus_affected, 8);
  EXPECT_DOUBLE_EQ(spine.min_share_lost, 0.5);
  EXPECT_DOUBLE_EQ(spine.max_share_lost, 0.5);
  EXPECT_DOUBLE_EQ(spine.fabric_share_lost, 0.5);
}

TEST(Planner, FailureDomainsOfTwoPlanes) {
  // Each GPU has a 400G port in each plane. NIC port (plane 0): 1 GPU loses half (1/16 of all
  // ports). The whole NIC (both planes): 1 GPU loses all (2/16). Leaf p0/L0: 2 GPUs lose half
  // (2/16). Spine p0/S0: 8 GPUs lose half of plane 0, a quarter of their bandwidth (4/16).
  const auto p = plan(test_inputs(), rail_4x2(2), test_catalog());
  ASSERT_EQ(p.failure_domains.size(), 4U);
  EXPECT_EQ(p.failure_domains[0].gpus_affected, 1);
  EXPECT_DOUBLE_EQ(p.failure_domains[0].max_share_lost, 0.5);
  EXPECT_DOUBLE_EQ(p.failure_domains[0].fabric_share_lost, 1.0 / 16);
  EXPECT_EQ(p.failure_domains[1].element, "NIC");
  EXPECT_DOUBLE_EQ(p.failure_domains[1].max_share_lost, 1.0);
  EXPECT_DOUBLE_EQ(p.failure_domains[1].fabric_share_lost, 2.0 / 16);
  EXPECT_EQ(p.failure_domains[2].gpus_affected, 2);
  EXPECT_DOUBLE_EQ(p.failure_domains[2].max_share_lost, 0.5);
  EXPECT_EQ(p.failure_domains[3].gpus_affected, 8);
  EXPECT_DOUBLE_EQ(p.failure_domains[3].max_share_lost, 0.25);
  EXPECT_DOUBLE_EQ(p.failure_domains[3].fabric_share_lost, 4.0 / 16);
}

TEST(Planner, OpticsPerUsedCageAndNicModulesSharedByPlanes) {
  // Two planes. Switch cages carry 2 logical ports. Per plane: each leaf's 2 NIC links
  // (transceiver) fill 1 cage -> 4 leaf modules; leaf-spine links are AOCs: 8 cables, no module.
  // NIC side: 8 ports per plane with a transceiver; one module per NIC cage serves both planes,
  // so 8 NIC modules in all (not 16).
  const auto p = plan(test_inputs(), rail_4x2(2), test_catalog());
  ASSERT_EQ(p.plane_figures[0].media.size(), 2U);
  const auto& xcvr = p.plane_figures[0].media[0];
  EXPECT_EQ(xcvr.id, "xcvr-2x400");
  EXPECT_EQ(xcvr.links, 8);
  EXPECT_EQ(xcvr.switch_modules, 4);
  EXPECT_EQ(xcvr.nic_modules, 8);
  EXPECT_EQ(xcvr.cables, 8);
  const auto& aoc = p.plane_figures[0].media[1];
  EXPECT_EQ(aoc.kind, "aoc");
  EXPECT_EQ(aoc.switch_modules, 0);
  EXPECT_EQ(aoc.cables, 8);
  ASSERT_EQ(p.total_media.size(), 2U);
  EXPECT_EQ(p.total_media[0].switch_modules, 8);
  EXPECT_EQ(p.total_media[0].nic_modules, 8);
  EXPECT_EQ(p.total_media[0].cables, 16);
  EXPECT_EQ(p.total_media[1].cables, 16);
}

TEST(Planner, PowerAndCostListUnknownFigures) {
  // Power: 12 switches x 100 W + 8 NICs x 20 W + 16 transceivers (8 in leaf cages, 8 in NIC
  // cages) x 10 W = 1520 W known; the AOC has no power figure (16 cables, 32 ends): listed as
  // unknown. Cost: 12 x 1000 + 16 x 500 + 16 AOCs x 100 = 21600 USD known; the NIC has no price.
  const auto p = plan(test_inputs(), rail_4x2(2), test_catalog());
  EXPECT_DOUBLE_EQ(p.power.known_total, 1520.0);
  EXPECT_EQ(p.power.unknown, std::vector<std::string>{"aoc-400 (cable end)"});
  ASSERT_EQ(p.power.lines.size(), 4U);
  EXPECT_EQ(p.power.lines[3].count, 32);
  EXPECT_DOUBLE_EQ(p.cost.known_total, 21600.0);
  EXPECT_EQ(p.cost.unknown, std::vector<std::string>{"nic800 (NIC)"});
}

TEST(Planner, CrossPlaneLinksAreCounted) {
  // rail_4x2(2) has 2 x (8 + 8) links, each inside its plane: 0 across. With the bridge cable
  // between p0/S0 and p1/S0: exactly 1. One plane: nothing to cross.
  EXPECT_EQ(plan(test_inputs(), rail_4x2(2), test_catalog()).cross_plane_links, 0);
  EXPECT_EQ(plan(test_inputs(), rail_4x2(2, true), test_catalog()).cross_plane_links, 1);
  EXPECT_EQ(plan(test_inputs(), rail_4x2(1), test_catalog()).cross_plane_links, 0);
}

TEST(Planner, ScaleLimitsPerPlaneCount) {
  // Chosen: 2 planes at 400G, radix 4, 2 down: 2 tiers reach 4 leaves x 2 = 8 ports per plane
  // = 8 GPUs (one NIC per GPU); 3 tiers 4 x 2 x 2 = 16. One plane at 800G: 2 cages, radix 2,
  // 1 down: 2 x 1 = 2 GPUs in 2 tiers, 2 x 1 x 1 = 2 in 3.
  const auto p = plan(test_inputs(), rail_4x2(2), test_catalog());
  ASSERT_EQ(p.scale_limits.size(), 2U);
  EXPECT_EQ(p.scale_limits[0].planes, 1);
  EXPECT_EQ(p.scale_limits[0].radix, 2);
  EXPECT_EQ(p.scale_limits[0].gpus_2_tiers, 2);
  EXPECT_FALSE(p.scale_limits[0].chosen);
  EXPECT_EQ(p.scale_limits[1].planes, 2);
  EXPECT_TRUE(p.scale_limits[1].chosen);
  EXPECT_EQ(p.scale_limits[1].gpus_2_tiers, 8);
  EXPECT_EQ(p.scale_limits[1].gpus_3_tiers, 16);
}

}  // namespace
}  // namespace ct
