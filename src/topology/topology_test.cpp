// Hand-worked tests of the topology builder on small fabrics. Each test opens with the system and
// the counts worked by hand from the rules in builder.h. The specs go through parse_spec + validate
// against a small catalog built here, so the figures do not move when the real catalog does.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "topology/builder.h"
#include "topology/cable_index.h"
#include "topology/topology.h"

namespace ct {
namespace {

SwitchModel make_switch(const std::string& id, int ports, std::vector<Breakout> breakouts) {
  SwitchModel s;
  s.id = id;
  s.protocols = {Protocol::kEthernet};
  s.ports = ports;
  s.port_speed = gbps(400);
  s.breakouts = std::move(breakouts);
  s.capacity = gbps(400) * ports;
  return s;
}

NicModel make_nic(const std::string& id, int ports, std::int64_t speed_g, std::vector<int> splits) {
  NicModel n;
  n.id = id;
  n.protocols = {Protocol::kEthernet};
  n.ports = ports;
  n.port_speed = gbps(speed_g);
  n.splits = std::move(splits);
  return n;
}

NodeModel make_node(const std::string& id, int gpus, int nics, int frontend_nics) {
  NodeModel n;
  n.id = id;
  n.gpus = gpus;
  n.backend_nic = "nic400";
  n.backend_nics = nics;
  if (frontend_nics > 0) {
    n.frontend_nic = "fenic";
    n.frontend_nics = frontend_nics;
  }
  return n;
}

OpticModel make_optic(const std::string& id, std::int64_t speed_g, int links, double reach, std::optional<double> power) {
  OpticModel o;
  o.id = id;
  o.speed = gbps(speed_g);
  o.links = links;
  o.reach_m = reach;
  o.power_w = power;
  return o;
}

// Switches: sw64 (64 x 400G, or 128 x 200G, 256 x 100G), sw16 (16 x 400G, 32 x 200G, 64 x 100G),
// sw8 (8 x 400G). NIC nic400: one 400G cage split 1, 2 or 4 ways. Nodes: node8 (8 GPUs, 8 nic400,
// one dual-port 100G frontend NIC), node3 (3 NICs), node1 (1 NIC).
Catalog test_catalog() {
  Catalog c;
  c.switches = {make_switch("sw64", 64, {{2, gbps(200)}, {4, gbps(100)}}),
                make_switch("sw16", 16, {{2, gbps(200)}, {4, gbps(100)}}), make_switch("sw8", 8, {})};
  c.nics = {make_nic("nic400", 1, 400, {1, 2, 4}), make_nic("fenic", 2, 100, {1})};
  c.nodes = {make_node("node8", 8, 8, 1), make_node("node3", 3, 3, 0), make_node("node1", 1, 1, 0)};
  c.optics = {make_optic("t400-50m", 400, 1, 50, 9.0),     make_optic("t800-2x-100m", 800, 2, 100, 17.0),
              make_optic("dac400", 400, 1, 2, 0.1),         make_optic("t400-500m", 400, 1, 500, 12.0),
              make_optic("t400-500m-b", 400, 1, 500, 12.0), make_optic("t400-1km", 400, 1, 1000, std::nullopt),
              make_optic("t200-100m", 200, 1, 100, 5.0),    make_optic("t100-100m", 100, 1, 100, 3.0)};
  return c;
}

const Catalog& catalog() {
  static const Catalog c = test_catalog();
  return c;
}

ValidSpec valid_spec(const std::string& yaml) {
  auto spec = parse_spec("test.yaml", yaml);
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : format_diagnostics(spec.errors()));
  auto valid = validate(spec.value(), catalog());
  EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : format_diagnostics(valid.errors()));
  return std::move(valid).value();
}

Topology build(const std::string& yaml) {
  const ValidSpec spec = valid_spec(yaml);
  EXPECT_TRUE(check_buildable(spec).empty()) << format_diagnostics(check_buildable(spec));
  return build_topology(spec, catalog());
}

std::string backend_yaml(const std::string& node, int count, const std::string& body) {
  return "name: t\nnodes: {model: " + node + ", count: " + std::to_string(count) + "}\nbackend:\n" + body;
}

struct Counts {
  std::size_t ports = 0;
  std::map<std::pair<int, int>, std::size_t> switches;  // (plane, tier) -> count
};

Counts count_backend(const Topology& t) {
  Counts c;
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] != Network::kBackend) continue;
    if (t.kind[v] == VertexKind::kPort) {
      ++c.ports;
    } else {
      ++c.switches[{t.plane[v], t.tier[v]}];
    }
  }
  return c;
}

// Cables between two vertices.
std::size_t cables_between(const Topology& t, VertexId a, VertexId b) {
  const auto n = t.neighbors(a);
  return static_cast<std::size_t>(std::count_if(n.begin(), n.end(), [&](const Adjacency& x) { return x.neighbor == b; }));
}

// The vertex of switch (plane, tier, pod, index), found by scanning.
VertexId switch_at(const Topology& t, int plane, int tier, std::uint32_t pod, std::uint32_t index) {
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] == Network::kBackend && t.kind[v] == VertexKind::kSwitch && t.plane[v] == plane &&
        t.tier[v] == tier && t.group[v] == pod && t.index[v] == index) {
      return VertexId(v);
    }
  }
  return VertexId::invalid();
}

// Every vertex's CSR degree equals the links that name it; ports have one, switches at most radix.
void expect_degrees_consistent(const Topology& t) {
  std::vector<std::size_t> ends(t.vertex_count(), 0);
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    ++ends[t.link_a[l].value()];
    ++ends[t.link_b[l].value()];
  }
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    const auto degree = t.neighbors(VertexId(v)).size();
    ASSERT_EQ(degree, ends[v]) << t.vertex_name(VertexId(v));
    if (t.kind[v] == VertexKind::kPort) {
      ASSERT_EQ(degree, 1U) << t.vertex_name(VertexId(v));
    } else {
      ASSERT_LE(degree, t.ports[v]) << t.vertex_name(VertexId(v));
    }
  }
}

const std::string kRail32 = "  topology: rail-optimized\n  switch: sw64\n  port_speed: 400G\n  oversubscription: [1]\n";

TEST(RailOptimized, OnePlaneThirtyTwoHostsOnSixtyFourPorts) {
  // 32 hosts x 8 NICs at 400G, 64-port switch, 1:1 -> leaf 32 down / 32 up. One SU of 32 hosts,
  // one leaf per rail: 8 leaves. Spines: smallest S | 32 with 64 S >= 8 x 32 = 256 -> S = 4, each
  // leaf-spine pair 32 / 4 = 8 cables. Vertices 256 ports + 12 switches; links 256 + 8 x 32 = 512.
  const Topology t = build(backend_yaml("node8", 32, kRail32));
  const Counts c = count_backend(t);
  EXPECT_EQ(c.ports, 256U);
  EXPECT_EQ((c.switches.at({0, 1})), 8U);
  EXPECT_EQ((c.switches.at({0, 2})), 4U);
  EXPECT_EQ(c.switches.count({0, 3}), 0U);
  EXPECT_EQ(t.vertex_count(), 268U);
  EXPECT_EQ(t.link_count(), 512U);
  for (long long h = 0; h < 32; ++h) {
    for (int r = 0; r < 8; ++r) {
      const VertexId port = t.port_of(HostId(h), r, 0);
      const VertexId leaf = t.neighbors(port)[0].neighbor;
      ASSERT_EQ(t.tier[leaf.value()], 1);
      ASSERT_EQ(t.index[leaf.value()], static_cast<std::uint32_t>(r)) << "host " << h << " rail " << r;
    }
  }
  expect_degrees_consistent(t);
}

TEST(RailOptimized, EachLeafReachesEverySpineWithUpOverSCables) {
  // Same fabric: every (leaf, spine) pair has 32 / 4 = 8 parallel cables, so each leaf has 32
  // uplinks spread evenly and each spine 8 leaves x 8 = 64 cables (its full radix).
  const Topology t = build(backend_yaml("node8", 32, kRail32));
  for (std::uint32_t l = 0; l < 8; ++l) {
    for (std::uint32_t s = 0; s < 4; ++s) {
      EXPECT_EQ(cables_between(t, switch_at(t, 0, 1, 0, l), switch_at(t, 0, 2, 0, s)), 8U);
    }
  }
  for (std::uint32_t s = 0; s < 4; ++s) EXPECT_EQ(t.neighbors(switch_at(t, 0, 2, 0, s)).size(), 64U);
}

TEST(RailOptimized, TwoPlanesAreDisjoint) {
  // 32 hosts x 8 NICs, 2 planes: each 400G NIC split into 2 x 200G; sw64 runs 128 x 200G, 1:1 ->
  // leaf 64 down / 64 up. An SU is 64 hosts: one (half-filled) SU, 8 leaves per plane. Spines:
  // smallest S | 64 with 128 S >= 8 x 64 = 512 -> 4, 16 cables per pair. Per plane 12 switches;
  // ports 32 x 8 x 2 = 512; links 512 + 2 x 8 x 64 = 1536. No link between planes; from a plane-0
  // port a walk reaches exactly plane 0's 256 ports and 12 switches.
  const Topology t = build(backend_yaml("node8", 32, "  switch: sw64\n  planes: 2\n  oversubscription: [1]\n"));
  const Counts c = count_backend(t);
  EXPECT_EQ(c.ports, 512U);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ((c.switches.at({p, 1})), 8U);
    EXPECT_EQ((c.switches.at({p, 2})), 4U);
  }
  EXPECT_EQ(t.link_count(), 1536U);
  EXPECT_EQ(t.capacity[0], gbps(200));
  EXPECT_EQ(count_cross_plane_links(t), 0U);
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    ASSERT_EQ(t.plane[t.link_a[l].value()], t.plane[t.link_b[l].value()]);
  }
  std::vector<char> seen(t.vertex_count(), 0);
  std::vector<VertexId> stack = {t.port_of(HostId(5), 3, 0)};
  seen[stack[0].value()] = 1;
  std::size_t reached = 0;
  while (!stack.empty()) {
    const VertexId v = stack.back();
    stack.pop_back();
    ++reached;
    EXPECT_EQ(t.plane[v.value()], 0);
    for (const auto& n : t.neighbors(v)) {
      if (!seen[n.neighbor.value()]) {
        seen[n.neighbor.value()] = 1;
        stack.push_back(n.neighbor);
      }
    }
  }
  EXPECT_EQ(reached, 256U + 12U);
  for (std::uint32_t l = 0; l < 8; ++l) {
    EXPECT_EQ(cables_between(t, switch_at(t, 1, 1, 0, l), switch_at(t, 1, 2, 0, 3)), 16U);
  }
  expect_degrees_consistent(t);
}

TEST(RailOptimized, NumberingOfPortsAndNicLinks) {
  // 2 planes, 8 rails: port (h, r, p) is vertex h*16 + r*2 + p; its NIC-leaf link has the same id;
  // switches follow the ports by (plane, tier, pod, index).
  const Topology t = build(backend_yaml("node8", 32, "  switch: sw64\n  planes: 2\n  oversubscription: [1]\n"));
  EXPECT_EQ(t.port_of(HostId(3), 5, 1), VertexId(3 * 16 + 5 * 2 + 1));
  EXPECT_EQ(t.backend_port_count(), 512U);
  for (long long h = 0; h < 32; ++h) {
    for (int r = 0; r < 8; ++r) {
      for (int p = 0; p < 2; ++p) {
        const VertexId v = t.port_of(HostId(h), r, p);
        ASSERT_EQ(t.kind[v.value()], VertexKind::kPort);
        ASSERT_EQ(t.group[v.value()], static_cast<std::uint32_t>(h));
        ASSERT_EQ(t.index[v.value()], static_cast<std::uint32_t>(r));
        ASSERT_EQ(t.plane[v.value()], p);
        ASSERT_EQ(t.link_a[v.value()], v);
      }
    }
  }
  for (std::size_t v = t.backend_port_count() + 1; v < t.vertex_count(); ++v) {
    const auto key = [&](std::size_t x) { return std::tuple(t.plane[x], t.tier[x], t.group[x], t.index[x]); };
    ASSERT_LT(key(v - 1), key(v));
  }
  EXPECT_EQ(t.vertex_name(t.port_of(HostId(3), 5, 1)), "host3/nic5/p1");
  EXPECT_EQ(t.vertex_name(switch_at(t, 1, 2, 0, 3)), "p1/spine/3");
}

TEST(RailOptimized, ThreeTiersBuildPods) {
  // 24 hosts x 8 NICs, sw16 at 400G (radix 16), 3 tiers, 1:1 -> d0 = u0 = d1 = u1 = 8. SU = 8
  // hosts = 8 leaves; a pod is floor(8 / 8) = 1 SU = 8 leaves; 3 SUs -> 24 leaves, 3 pods of
  // u0 = 8 spines, each leaf one cable to each spine of its pod. Cores: smallest C | 8 with
  // 16 C >= 3 x 8 = 24 -> C = 2, 8 / 2 = 4 cables per spine-core pair, 8 groups x 2 = 16 cores.
  // Switches 24 + 24 + 16 = 64; links 192 + 24 x 8 + 24 x 2 x 4 = 576; core degree 3 x 4 = 12.
  const Topology t =
      build(backend_yaml("node8", 24, "  switch: sw16\n  tiers: 3\n  port_speed: 400G\n  oversubscription: [1, 1]\n"));
  const Counts c = count_backend(t);
  EXPECT_EQ((c.switches.at({0, 1})), 24U);
  EXPECT_EQ((c.switches.at({0, 2})), 24U);
  EXPECT_EQ((c.switches.at({0, 3})), 16U);
  EXPECT_EQ(t.link_count(), 576U);
  for (std::uint32_t pod = 0; pod < 3; ++pod) {
    for (std::uint32_t l = 0; l < 8; ++l) {
      const VertexId leaf = switch_at(t, 0, 1, pod, l);
      for (const auto& n : t.neighbors(leaf)) {
        if (t.tier[n.neighbor.value()] == 2) {
          ASSERT_EQ(t.group[n.neighbor.value()], pod);
        }
      }
      for (std::uint32_t s = 0; s < 8; ++s) ASSERT_EQ(cables_between(t, leaf, switch_at(t, 0, 2, pod, s)), 1U);
    }
    for (std::uint32_t j = 0; j < 8; ++j) {
      const VertexId spine = switch_at(t, 0, 2, pod, j);
      for (std::uint32_t core = 0; core < 16; ++core) {
        const std::size_t expected = core / 2 == j ? 4U : 0U;
        ASSERT_EQ(cables_between(t, spine, switch_at(t, 0, 3, 0, core)), expected);
      }
    }
  }
  for (std::uint32_t core = 0; core < 16; ++core) EXPECT_EQ(t.neighbors(switch_at(t, 0, 3, 0, core)).size(), 12U);
  // Host 13 is in SU 1 = pod 1; its NIC 6 is on leaf 6 of pod 1.
  const VertexId leaf = t.neighbors(t.port_of(HostId(13), 6, 0))[0].neighbor;
  EXPECT_EQ(t.group[leaf.value()], 1U);
  EXPECT_EQ(t.index[leaf.value()], 6U);
  EXPECT_EQ(t.vertex_name(leaf), "p0/pod1/leaf/6");
  expect_degrees_consistent(t);
}

TEST(RailOptimized, ThreeTiersPartialLastPodKeepsItsUplinks) {
  // 20 hosts: SUs of 8 hosts -> 3 SUs (the last with 4 hosts), still 24 leaves, 3 pods, 64
  // switches; links 160 + 192 + 192 = 544. Leaf 0 of pod 2 has 4 hosts and 8 uplinks.
  const Topology t =
      build(backend_yaml("node8", 20, "  switch: sw16\n  tiers: 3\n  port_speed: 400G\n  oversubscription: [1, 1]\n"));
  EXPECT_EQ(t.vertex_count() - t.backend_port_count(), 64U);
  EXPECT_EQ(t.link_count(), 544U);
  EXPECT_EQ(t.neighbors(switch_at(t, 0, 1, 2, 0)).size(), 12U);
}

TEST(FatTree, FourAryFatTree) {
  // k = 4 (Al-Fares et al.): k^3/4 = 16 host ports, k pods of 2 edge + 2 aggregation switches,
  // (k/2)^2 = 4 cores: 20 switches. Links: 16 host + 4 pods x 2 x 2 edge-agg + 8 agg x 2 agg-core
  // = 48. Aggregation j of each pod reaches cores 2j and 2j+1; each core one aggregation per pod.
  const Topology t = build(backend_yaml("node1", 16, "  topology: fat-tree\n  switch: sw64\n  k: 4\n"));
  const Counts c = count_backend(t);
  EXPECT_EQ(c.ports, 16U);
  EXPECT_EQ((c.switches.at({0, 1})), 8U);
  EXPECT_EQ((c.switches.at({0, 2})), 8U);
  EXPECT_EQ((c.switches.at({0, 3})), 4U);
  EXPECT_EQ(t.link_count(), 48U);
  for (std::uint32_t pod = 0; pod < 4; ++pod) {
    for (std::uint32_t j = 0; j < 2; ++j) {
      const VertexId agg = switch_at(t, 0, 2, pod, j);
      for (std::uint32_t e = 0; e < 2; ++e) EXPECT_EQ(cables_between(t, switch_at(t, 0, 1, pod, e), agg), 1U);
      for (std::uint32_t core = 0; core < 4; ++core) {
        EXPECT_EQ(cables_between(t, agg, switch_at(t, 0, 3, 0, core)), core / 2 == j ? 1U : 0U);
      }
    }
  }
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] == VertexKind::kSwitch) {
      EXPECT_EQ(t.neighbors(VertexId(v)).size(), 4U);
    }
  }
  // Hosts packed in order, k/2 = 2 per edge: host 5 on edge 2 overall = pod 1, edge 0.
  const VertexId edge = t.neighbors(t.port_of(HostId(5), 0, 0))[0].neighbor;
  EXPECT_EQ(t.group[edge.value()], 1U);
  EXPECT_EQ(t.index[edge.value()], 0U);
  expect_degrees_consistent(t);
}

TEST(FatTree, SwitchesNoHostNeedsAreStillBuilt) {
  // k = 4 with 5 hosts: still 20 switches; links 5 + 16 + 16 = 37.
  const Topology t = build(backend_yaml("node1", 5, "  topology: fat-tree\n  switch: sw64\n  k: 4\n"));
  EXPECT_EQ(t.vertex_count(), 5U + 20U);
  EXPECT_EQ(t.link_count(), 37U);
}

TEST(FatTree, TwoTiers) {
  // 2-tier k = 4: k = 4 leaves of 2 down / 2 up, k/2 = 2 spines, one cable per pair; k^2/2 = 8
  // ports. Links 8 + 4 x 2 = 16.
  const Topology t = build(backend_yaml("node1", 8, "  topology: fat-tree\n  tiers: 2\n  switch: sw64\n  k: 4\n"));
  const Counts c = count_backend(t);
  EXPECT_EQ((c.switches.at({0, 1})), 4U);
  EXPECT_EQ((c.switches.at({0, 2})), 2U);
  EXPECT_EQ(t.link_count(), 16U);
  expect_degrees_consistent(t);
}

TEST(LeafSpine, HostsPackedTopOfRack) {
  // 10 hosts x 8 NICs, sw64 at 400G, 3:1 -> up floor(64 / 4) = 16, down 48: 48 / 8 = 6 whole
  // hosts per leaf, ceil(10 / 6) = 2 leaves. Spines: smallest S | 16 with 64 S >= 2 x 16 -> 1,
  // 16 cables per pair. Links 80 + 32 = 112. Leaf 0: 48 + 16 = 64 cables; leaf 1: 32 + 16 = 48.
  const Topology t = build(backend_yaml(
      "node8", 10, "  topology: leaf-spine\n  switch: sw64\n  port_speed: 400G\n  oversubscription: [3]\n"));
  const Counts c = count_backend(t);
  EXPECT_EQ((c.switches.at({0, 1})), 2U);
  EXPECT_EQ((c.switches.at({0, 2})), 1U);
  EXPECT_EQ(t.link_count(), 112U);
  for (long long h = 0; h < 10; ++h) {
    for (int r = 0; r < 8; ++r) {
      const VertexId leaf = t.neighbors(t.port_of(HostId(h), r, 0))[0].neighbor;
      ASSERT_EQ(t.index[leaf.value()], static_cast<std::uint32_t>(h / 6));
    }
  }
  EXPECT_EQ(t.neighbors(switch_at(t, 0, 1, 0, 0)).size(), 64U);
  EXPECT_EQ(t.neighbors(switch_at(t, 0, 1, 0, 1)).size(), 48U);
  EXPECT_EQ(cables_between(t, switch_at(t, 0, 1, 0, 1), switch_at(t, 0, 2, 0, 0)), 16U);
  expect_degrees_consistent(t);
}

TEST(Frontend, SeparateLeafSpine) {
  // Backend as OnePlaneThirtyTwoHosts (268 vertices, 512 links). Frontend: 1 NIC x 2 ports of
  // 100G per host = 64 ports; sw16 at 100G has radix 64; 3:1 -> up 16, down 48 = 24 hosts per
  // leaf, ceil(32 / 24) = 2 leaves, 1 spine with 16 cables per leaf. Frontend: 64 ports +
  // 3 switches, 64 + 32 = 96 links. No link joins it to the backend.
  const Topology t = build(backend_yaml("node8", 32, kRail32) +
                           "frontend:\n  nic: fenic\n  speed: 100G\n  switch: sw16\n  oversubscription: 3\n");
  EXPECT_EQ(t.frontend_begin, 268U);
  EXPECT_EQ(t.frontend_ports_per_host, 2);
  EXPECT_EQ(t.vertex_count(), 268U + 64U + 3U);
  EXPECT_EQ(t.link_count(), 512U + 96U);
  EXPECT_EQ(count_cross_network_links(t), 0U);
  EXPECT_EQ(count_cross_plane_links(t), 0U);
  const VertexId port = t.frontend_port_of(HostId(30), 1);
  EXPECT_EQ(t.network[port.value()], Network::kFrontend);
  EXPECT_EQ(t.vertex_name(port), "host30/fe1");
  const VertexId leaf = t.neighbors(port)[0].neighbor;
  EXPECT_EQ(t.index[leaf.value()], 1U);  // host 30 / 24 hosts per leaf
  EXPECT_EQ(t.capacity[t.neighbors(port)[0].link.value()], gbps(100));
  EXPECT_EQ(t.neighbors(leaf).size(), 16U + 16U);  // hosts 24..31 x 2 ports + 16 uplinks
  expect_degrees_consistent(t);
}

TEST(ExtraLinks, AddedBetweenNamedSwitchesOfOnePlane) {
  // 2 planes as TwoPlanesAreDisjoint (1536 links) plus one cable plane1.spine.0 -- plane1.spine.3:
  // 1537 links, still none across planes.
  const ValidSpec spec = valid_spec(backend_yaml(
      "node8", 32, "  switch: sw64\n  planes: 2\n  oversubscription: [1]\n  links:\n    - [plane1.spine.0, plane1.spine.3]\n"));
  ASSERT_TRUE(check_buildable(spec).empty());
  const Topology t = build_topology(spec, catalog());
  EXPECT_EQ(t.link_count(), 1537U);
  const LinkId extra(1536);
  EXPECT_EQ(t.link_a[extra.value()], switch_at(t, 1, 2, 0, 0));
  EXPECT_EQ(t.link_b[extra.value()], switch_at(t, 1, 2, 0, 3));
  EXPECT_EQ(count_cross_plane_links(t), 0U);
}

TEST(CheckBuildable, ReportsExtraLinkToMissingSwitch) {
  // The fabric has 4 spines per plane (indices 0-3): plane0.spine.9 does not exist.
  const ValidSpec spec =
      valid_spec(backend_yaml("node8", 32, kRail32 + "  links:\n    - [plane0.spine.0, plane0.spine.9]\n"));
  const Diagnostics problems = check_buildable(spec);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].field, "backend.links[0][1]");
  EXPECT_GT(problems[0].where.line, 0);  // at the name in the spec
  const Topology t = build_topology(spec, catalog());
  EXPECT_EQ(t.link_count(), 512U);  // the link is left out
}

TEST(CheckBuildable, ReportsSpineTierThatCannotHoldTheLeaves) {
  // 10 hosts x 3 NICs on sw8 (radix 8, 4 down / 4 up): 30 ports fit validate's bound 8 x 4 = 32,
  // but SUs of 4 hosts give ceil(10 / 4) x 3 = 9 leaves with 36 uplinks, and 4 spines (the largest
  // divisor of 4) hold only 32.
  const ValidSpec spec = valid_spec(backend_yaml("node3", 10, "  switch: sw8\n  oversubscription: [1]\n"));
  const Diagnostics problems = check_buildable(spec);
  ASSERT_EQ(problems.size(), 1U);
  EXPECT_EQ(problems[0].field, "backend");
  const Topology t = build_topology(spec, catalog());
  EXPECT_EQ(t.link_count(), 30U + 9U * 4U);  // one cable per leaf-spine pair, spines over-full
}

TEST(Media, LowestPowerPerLinkThenShortestReachThenId) {
  // 400G: at 30 m the 2 x 400G module (17 W / 2 links = 8.5 W) beats the 400G ones (9 W); at 1 m
  // the DAC (0.1 W); at 200 m two 12 W modules of equal reach, the smaller id; at 800 m only the
  // module of unknown power; at 2 km nothing. 800G at 30 m: the twin module run whole (17 W).
  EXPECT_EQ(catalog().optics[choose_media(catalog(), gbps(400), 30)].id, "t800-2x-100m");
  EXPECT_EQ(catalog().optics[choose_media(catalog(), gbps(400), 1)].id, "dac400");
  EXPECT_EQ(catalog().optics[choose_media(catalog(), gbps(400), 200)].id, "t400-500m");
  EXPECT_EQ(catalog().optics[choose_media(catalog(), gbps(400), 800)].id, "t400-1km");
  EXPECT_EQ(choose_media(catalog(), gbps(400), 2000), -1);
  EXPECT_EQ(catalog().optics[choose_media(catalog(), gbps(800), 30)].id, "t800-2x-100m");
  EXPECT_EQ(links_per_module(catalog().optics[1], gbps(400)), 2);
  EXPECT_EQ(links_per_module(catalog().optics[1], gbps(800)), 1);
  EXPECT_EQ(links_per_module(catalog().optics[1], gbps(200)), 0);
}

TEST(Media, ChosenPerTierFromCableLengths) {
  // Leaf cables 1 m -> DAC; spine cables 200 m -> t400-500m.
  const Topology t = build(backend_yaml("node8", 32, kRail32 + "  cable_length_m: {leaf: 1, spine: 200}\n"));
  EXPECT_EQ(catalog().optics[t.media[0]].id, "dac400");
  EXPECT_EQ(catalog().optics[t.media[511]].id, "t400-500m");
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// CableIndex on an adjacency that is NOT in neighbour order (so the index sorts a copy, which no
// built fabric needs): two hubs, 0 and 1, each joined to 39 others with 0 to 3 parallel cables per
// pair, added from the highest neighbour down, and joined to each other by 2 cables added midway,
// so both hubs' lists in link-id order run backwards and are longer than one search block of 16
// (a search reads the shorter list: for the two hubs, one of theirs). Expected for every pair
// (a, b) in both orders, against a scan of every link: the cables are exactly the links joining
// them, in link-id order; cable(a, b, k) is the k-th of them and invalid past the last.
TEST(CableIndex, SortsAnAdjacencyNotInNeighbourOrder) {
  Topology t;
  std::vector<VertexId> v;
  for (std::uint32_t i = 0; i < 41; ++i) v.push_back(t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, i < 2 ? 1 : 0, 0, i, 64));
  for (int round = 0; round < 3; ++round) {
    for (int i = 40; i >= 2; --i) {
      if ((i * 7 + round) % 4 != 0) t.add_link(v[static_cast<std::size_t>(i)], v[0], gbps(400), TimePs(0), -1);
      if ((i * 5 + round) % 3 != 0) t.add_link(v[static_cast<std::size_t>(i)], v[1], gbps(400), TimePs(0), -1);
      if (round == 1 && (i == 20 || i == 9)) t.add_link(v[0], v[1], gbps(400), TimePs(0), -1);
    }
  }
  t.finalize();
  ASSERT_GT(t.neighbors(v[0]).front().neighbor.value(), t.neighbors(v[0]).back().neighbor.value());
  ASSERT_GT(t.neighbors(v[1]).size(), 16U);
  const CableIndex index(t);
  for (const VertexId a : v) {
    for (const VertexId b : v) {
      std::vector<std::uint32_t> want;
      for (std::uint32_t l = 0; l < t.link_count(); ++l) {
        if ((t.link_a[l] == a && t.link_b[l] == b) || (t.link_a[l] == b && t.link_b[l] == a)) want.push_back(l);
      }
      std::vector<std::uint32_t> got;
      for (const Adjacency& adj : index.cables(a, b)) got.push_back(adj.link.value());
      ASSERT_EQ(got, want) << a.value() << " -- " << b.value();
      for (std::size_t k = 0; k <= want.size(); ++k) {
        const LinkId l = index.cable(a, b, k);
        if (k < want.size()) {
          EXPECT_EQ(l.value(), want[k]);
        } else {
          EXPECT_FALSE(l.valid());
        }
      }
    }
  }
}

TEST(VertexNames, EveryShapeSpelledAsDocumented) {
  // One vertex of each shape, numbers with one and several digits (and the largest group), names
  // written out by hand from the header's examples. add_vertex(kind, network, plane, tier, group, index, ports).
  Topology t;
  t.planes = 2;
  t.tiers = 3;
  const VertexId port = t.add_vertex(VertexKind::kPort, Network::kBackend, 1, 0, 4095, 7, 1);
  const VertexId pod_leaf = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 3, 12, 64);
  const VertexId pod_spine = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 1, 2, 10, 0, 64);
  const VertexId core = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 3, 0, 255, 64);
  const VertexId fe_port = t.add_vertex(VertexKind::kPort, Network::kFrontend, 0, 0, 4294967295U, 1, 1);
  const VertexId fe_switch = t.add_vertex(VertexKind::kSwitch, Network::kFrontend, 0, 2, 0, 20, 64);
  t.add_link(port, pod_leaf, BitsPerSecond(800'000'000'000), TimePs(0), -1);
  t.finalize();
  EXPECT_EQ(t.vertex_name(port), "host4095/nic7/p1");
  EXPECT_EQ(t.vertex_name(pod_leaf), "p0/pod3/leaf/12");
  EXPECT_EQ(t.vertex_name(pod_spine), "p1/pod10/spine/0");
  EXPECT_EQ(t.vertex_name(core), "p0/core/255");
  EXPECT_EQ(t.vertex_name(fe_port), "host4294967295/fe1");
  EXPECT_EQ(t.vertex_name(fe_switch), "fe/spine/20");
  EXPECT_EQ(t.link_name(LinkId(0)), "host4095/nic7/p1 -- p0/pod3/leaf/12");
  std::string out = "to ";
  t.append_vertex_name(out, core);
  EXPECT_EQ(out, "to p0/core/255");
  // One plane: no plane suffix on a port; two tiers: no pod in a switch's name.
  t.planes = 1;
  t.tiers = 2;
  EXPECT_EQ(t.vertex_name(port), "host4095/nic7");
  EXPECT_EQ(t.vertex_name(pod_leaf), "p0/leaf/12");
}

}  // namespace
}  // namespace ct
