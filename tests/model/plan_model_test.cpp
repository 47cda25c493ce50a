// Hand-worked model tests of `clustertwin plan`: three small designs run through the real pipeline
// (parse_spec -> validate -> build_topology -> plan). Each design's opening comment counts every
// switch, port, link, module and cable by hand; the tests assert that the planner, which measures
// the built topology, finds exactly those figures.
//
// Optics: the builder picks, per tier, the catalog medium that runs the link speed within the
// tier's cable length at the lowest power per link. At 400G that is the twin-port 2 x 400G OSFP
// multimode module (osfp-800g-2xsr4, 15 W / 2 links, 50 m) up to 50 m and the 100 m single-mode
// one (osfp-800g-2xdr4-100m, 17 W / 2 links; same power per link as the 500 m part, shorter reach
// wins) up to 100 m. Watts are read from the catalog, the counts are the hand-worked ones.
#include <string>

#include <gtest/gtest.h>

#include "io/loaders.h"
#include "plan/planner.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/shipped_catalog.h"
#include "topology/builder.h"

namespace ct {
namespace {

constexpr auto k400 = gbps(400);

using testing_support::real_catalog;

Plan plan_of(const std::string& yaml, const Catalog& catalog) {
  auto spec = parse_spec("model.yaml", yaml);
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : format_diagnostics(spec.errors()));
  if (!spec.ok()) return {};
  auto valid = validate(spec.value(), catalog);
  EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : format_diagnostics(valid.errors()));
  if (!valid.ok()) return {};
  EXPECT_TRUE(check_buildable(valid.value()).empty());
  const Topology topology = build_topology(valid.value(), catalog);
  return plan(valid.value(), topology, catalog);
}

double watts(const std::string& optic) {
  const auto* o = real_catalog().find_optic(optic);
  EXPECT_NE(o, nullptr) << optic;
  EXPECT_TRUE(o != nullptr && o->power_w.has_value()) << optic;
  return o != nullptr && o->power_w ? *o->power_w : 0.0;
}

const MediaFigures* find_media(const std::vector<MediaFigures>& media, const std::string& id) {
  for (const auto& m : media) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

void expect_tier(const TierFigures& f, long long switches, long long used, long long free, long long links) {
  EXPECT_EQ(f.switches, switches) << "tier " << f.tier;
  EXPECT_EQ(f.ports_used, used) << "tier " << f.tier;
  EXPECT_EQ(f.ports_free, free) << "tier " << f.tier;
  EXPECT_EQ(f.links, links) << "tier " << f.tier;
}

void expect_media(const MediaFigures* m, long long links, long long switch_modules, long long nic_modules,
                  long long cables) {
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->links, links) << m->id;
  EXPECT_EQ(m->switch_modules, switch_modules) << m->id;
  EXPECT_EQ(m->nic_modules, nic_modules) << m->id;
  EXPECT_EQ(m->cables, cables) << m->id;
}

// ================================================================================================
// Design 1: 32 HGX H100 nodes x 8 GPUs, ONE plane of QM9700 (64 x 400G), rail-optimized, 2 tiers.
//   Each node: 8 ConnectX-7 at 400G, one per GPU: 256 NICs, 256 endpoint ports.
//   Radix 64, non-blocking leaf: 32 down, 32 up. A scalable unit is 32 hosts: the 32 nodes are one
//   SU, so 8 leaves (one per rail), each with 32 NIC links and 32 uplinks: 64 ports used, 0 free.
//   Spines: the smallest S dividing 32 with S x 64 >= 8 leaves x 32 uplinks = 256 is S = 4, so
//   32 / 4 = 8 parallel cables per leaf-spine pair; each spine: 8 leaves x 8 = 64 ports, 0 free.
//   Switches 8 + 4 = 12. Links: 256 NIC-leaf + 256 leaf-spine = 512. Down:up at the leaf 1:1.
//   Optics (QM9700's 64 ports are 32 twin-port cages: one 2 x 400G module per 2 ports):
//     NIC-leaf (30 m) osfp-800g-2xsr4: leaf side 8 x 32 / 2 = 128 modules, 256 fibers. NIC side:
//       a ConnectX-7 cage is one 400G port, so a twin-port module cannot sit in it; the multimode
//       OSFP part carrying one 400G link is osfp-400g-sr4: 256 modules (one per NIC cage).
//     leaf-spine (100 m) osfp-800g-2xdr4-100m: leaves 8 x 32 / 2 = 128, spines 4 x 64 / 2 = 128:
//       256 modules, 256 fibers.
//   Power known: 128 x 15 W + 256 x 9 W + 256 x 17 W = 8,576 W; QM9700 and ConnectX-7 unknown.
//   Bisection: hosts 0-15 vs 16-31 sit on every leaf, 16 of each per leaf: 8 x 16 x 400G =
//     51.2T, all of the smaller half's 128 ports: ratio 1.
//   Hops from host0/nic0 (leaf 0): host1/nic0, same leaf: 1 switch, 1 path. host0/nic1 (leaf 1):
//     leaf-spine-leaf, 3 switches, 4 spines x 8 x 8 parallel cables = 256 paths. One SU: no
//     other leaf on rail 0.
//   Failure domains (256 GPUs, one 400G port each): NIC port: 1 GPU loses 100% (1/256). Leaf 0:
//     the 32 rail-0 GPUs lose 100% (12.5%). Spine 0: every leaf loses 8 of 32 uplinks, all 256
//     GPUs lose 25% (25%).
//   Scale limits: ConnectX-7 does not split: one row, 2 tiers 64 x 32 = 2,048 GPUs, 3 tiers
//     64 x 32 x 32 = 65,536.
// ================================================================================================
constexpr const char* kOnePlane = R"(
name: model-32x8-one-plane
nodes: {model: hgx-h100, count: 32}
backend:
  topology: rail-optimized
  planes: 1
  tiers: 2
  switch: qm9700
  oversubscription: [1]
  cable_length_m: {leaf: 30, spine: 100}
)";

TEST(PlanModelOnePlane, SwitchesPortsLinks) {
  const Plan p = plan_of(kOnePlane, real_catalog());
  ASSERT_EQ(p.plane_figures.size(), 1U);
  EXPECT_EQ(p.gpus, 256);
  EXPECT_EQ(p.nics, 256);
  expect_tier(p.plane_figures[0].tiers[0], 8, 512, 0, 256);
  expect_tier(p.plane_figures[0].tiers[1], 4, 256, 0, 256);
  EXPECT_DOUBLE_EQ(p.plane_figures[0].tiers[0].oversubscription, 1.0);
  EXPECT_EQ(p.plane_figures[0].tiers[0].link_speed, k400);
}

TEST(PlanModelOnePlane, OpticsAndPower) {
  const Plan p = plan_of(kOnePlane, real_catalog());
  ASSERT_EQ(p.total_media.size(), 3U);
  expect_media(find_media(p.total_media, "osfp-800g-2xsr4"), 256, 128, 0, 256);
  expect_media(find_media(p.total_media, "osfp-400g-sr4"), 0, 0, 256, 0);
  expect_media(find_media(p.total_media, "osfp-800g-2xdr4-100m"), 256, 256, 0, 256);
  EXPECT_DOUBLE_EQ(p.power.known_total, 128 * watts("osfp-800g-2xsr4") + 256 * watts("osfp-400g-sr4") +
                                            256 * watts("osfp-800g-2xdr4-100m"));
  EXPECT_DOUBLE_EQ(p.power.known_total, 8576.0);
  EXPECT_EQ(p.power.unknown, (std::vector<std::string>{"qm9700 (switch)", "connectx-7 (NIC)"}));
}

TEST(PlanModelOnePlane, BisectionHopsFailuresLimits) {
  const Plan p = plan_of(kOnePlane, real_catalog());
  EXPECT_EQ(p.bisection, k400 * 128);
  EXPECT_EQ(p.half_injection, k400 * 128);
  ASSERT_EQ(p.hops.size(), 2U);
  EXPECT_EQ(p.hops[0].host_b, 1);
  EXPECT_EQ(p.hops[0].switch_hops, std::vector<int>{1});
  EXPECT_EQ(p.hops[1].relation, "same host, other rail");
  EXPECT_EQ(p.hops[1].switch_hops, std::vector<int>{3});
  EXPECT_EQ(p.hops[1].shortest_paths, std::vector<std::uint64_t>{256});
  ASSERT_EQ(p.failure_domains.size(), 3U);
  EXPECT_EQ(p.failure_domains[0].gpus_affected, 1);
  EXPECT_DOUBLE_EQ(p.failure_domains[0].fabric_share_lost, 1.0 / 256);
  EXPECT_EQ(p.failure_domains[1].gpus_affected, 32);
  EXPECT_DOUBLE_EQ(p.failure_domains[1].max_share_lost, 1.0);
  EXPECT_DOUBLE_EQ(p.failure_domains[1].fabric_share_lost, 0.125);
  EXPECT_EQ(p.failure_domains[2].gpus_affected, 256);
  EXPECT_DOUBLE_EQ(p.failure_domains[2].max_share_lost, 0.25);
  ASSERT_EQ(p.scale_limits.size(), 1U);
  EXPECT_EQ(p.scale_limits[0].gpus_2_tiers, 2048);
  EXPECT_EQ(p.scale_limits[0].gpus_3_tiers, 65536);
}

// ================================================================================================
// Design 2: 32 HGX B300 nodes x 8 GPUs, TWO planes of SN5600 at 400G, rail-optimized, 2 tiers.
//   Each node: 8 ConnectX-8 with one 800G cage split 2 x 400G, port p to plane p: 256 NICs, 256
//   endpoint ports per plane. SN5600: 64 cages of 800G, 128 logical ports at 400G (2 per cage).
//   Per plane: radix 128, non-blocking leaf 64 down, 64 up; an SU is 64 hosts, so the 32 nodes
//   half-fill one SU: 8 leaves, each with 32 NIC links and all 64 uplinks: 96 used, 32 free.
//   Spines: smallest S dividing 64 with S x 128 >= 8 x 64 = 512 is S = 4, 16 parallel cables per
//   pair; a spine has 8 x 16 = 128 ports used, 0 free.
//   Per plane: 8 leaves (768 used, 256 free, 256 NIC-leaf links), 4 spines (512 used, 0 free,
//   512 leaf-spine links). Both planes: 24 switches, 512 + 1,024 links. Leaf down:up measured:
//   32 x 400G down over 64 x 400G up = 0.5.
//   Optics per plane: osfp-800g-2xsr4 (NIC-leaf): leaves 8 x 32 / 2 = 128 modules, 256 fibers;
//   NIC side 256 modules in each plane's view, but one module per NIC cage serves both planes:
//   256 in total, not 512. osfp-800g-2xdr4-100m (leaf-spine): leaves 8 x 64 / 2 = 256, spines
//   4 x 128 / 2 = 256: 512 modules, 512 fibers. Totals: 2xsr4 256 switch + 256 NIC modules, 512
//   fibers; 2xdr4-100m 1,024 modules, 1,024 fibers. Power known: 512 x 15 W + 1,024 x 17 W.
//   Bisection per plane: hosts 0-15 and 16-31 share every leaf: 8 x 16 x 400G = 51.2T; 102.4T for
//   both planes, ratio 1.
//   Hops (both planes): host1/nic0 same leaf, 1 switch; host0/nic1: 3 switches, 4 spines x 16 x 16
//   = 1,024 paths.
//   Failure domains (256 GPUs, 2 x 400G each): NIC port (plane 0): 1 GPU loses 50% (1/512). Whole
//   NIC: 1 GPU loses 100% (2/512). Leaf p0/0: 32 GPUs lose 50% (32/512). Spine p0/0: each plane-0
//   leaf loses 16 of 64 uplinks, 25% of plane 0: all 256 GPUs lose 12.5%.
//   Scale limits (ConnectX-8 splits 1, 2, 4): 1 plane at 800G, radix 64, 32 down: 2,048 GPUs in 2
//   tiers, 64 x 32 x 32 = 65,536 in 3; 2 planes at 400G, radix 128, 64 down: 8,192 and 524,288;
//   4 planes at 200G, radix 256, 128 down: 32,768 and 4,194,304.
// ================================================================================================
constexpr const char* kTwoPlanes = R"(
name: model-32x8-two-planes
nodes: {model: hgx-b300, count: 32}
backend:
  topology: rail-optimized
  planes: 2
  tiers: 2
  switch: sn5600
  oversubscription: [1]
  cable_length_m: {leaf: 30, spine: 100}
)";

TEST(PlanModelTwoPlanes, SwitchesPortsLinks) {
  const Plan p = plan_of(kTwoPlanes, real_catalog());
  ASSERT_EQ(p.plane_figures.size(), 2U);
  for (const auto& plane : p.plane_figures) {
    EXPECT_EQ(plane.endpoints, 256);
    expect_tier(plane.tiers[0], 8, 768, 256, 256);
    expect_tier(plane.tiers[1], 4, 512, 0, 512);
    EXPECT_DOUBLE_EQ(plane.tiers[0].oversubscription, 0.5);
  }
  expect_tier(p.total_tiers[0], 16, 1536, 512, 512);
  expect_tier(p.total_tiers[1], 8, 1024, 0, 1024);
}

TEST(PlanModelTwoPlanes, OneNicModuleServesBothPlanes) {
  const Plan p = plan_of(kTwoPlanes, real_catalog());
  expect_media(find_media(p.plane_figures[0].media, "osfp-800g-2xsr4"), 256, 128, 256, 256);
  expect_media(find_media(p.plane_figures[1].media, "osfp-800g-2xdr4-100m"), 512, 512, 0, 512);
  expect_media(find_media(p.total_media, "osfp-800g-2xsr4"), 512, 256, 256, 512);
  expect_media(find_media(p.total_media, "osfp-800g-2xdr4-100m"), 1024, 1024, 0, 1024);
  EXPECT_DOUBLE_EQ(p.power.known_total, 512 * watts("osfp-800g-2xsr4") + 1024 * watts("osfp-800g-2xdr4-100m"));
}

TEST(PlanModelTwoPlanes, BisectionHopsFailuresLimits) {
  const Plan p = plan_of(kTwoPlanes, real_catalog());
  EXPECT_EQ(p.plane_figures[0].bisection, k400 * 128);
  EXPECT_EQ(p.bisection, k400 * 256);
  ASSERT_EQ(p.hops.size(), 2U);
  EXPECT_EQ(p.hops[0].switch_hops, (std::vector<int>{1, 1}));
  EXPECT_EQ(p.hops[1].switch_hops, (std::vector<int>{3, 3}));
  EXPECT_EQ(p.hops[1].shortest_paths, (std::vector<std::uint64_t>{1024, 1024}));
  ASSERT_EQ(p.failure_domains.size(), 4U);
  EXPECT_DOUBLE_EQ(p.failure_domains[0].max_share_lost, 0.5);
  EXPECT_DOUBLE_EQ(p.failure_domains[0].fabric_share_lost, 1.0 / 512);
  EXPECT_EQ(p.failure_domains[1].element, "NIC");
  EXPECT_DOUBLE_EQ(p.failure_domains[1].max_share_lost, 1.0);
  EXPECT_EQ(p.failure_domains[2].gpus_affected, 32);
  EXPECT_DOUBLE_EQ(p.failure_domains[2].max_share_lost, 0.5);
  EXPECT_EQ(p.failure_domains[3].gpus_affected, 256);
  EXPECT_DOUBLE_EQ(p.failure_domains[3].max_share_lost, 0.125);
  ASSERT_EQ(p.scale_limits.size(), 3U);
  EXPECT_EQ(p.scale_limits[0].radix, 64);
  EXPECT_EQ(p.scale_limits[0].gpus_2_tiers, 2048);
  EXPECT_EQ(p.scale_limits[0].gpus_3_tiers, 65536);
  EXPECT_TRUE(p.scale_limits[1].chosen);
  EXPECT_EQ(p.scale_limits[1].gpus_2_tiers, 8192);
  EXPECT_EQ(p.scale_limits[1].gpus_3_tiers, 524288);
  EXPECT_EQ(p.scale_limits[2].radix, 256);
  EXPECT_EQ(p.scale_limits[2].gpus_2_tiers, 32768);
  EXPECT_EQ(p.scale_limits[2].gpus_3_tiers, 4194304);
}

// ================================================================================================
// Design 3: the 4-ary fat tree (Al-Fares et al., SIGCOMM 2008) on a test catalog (the real one has
// no 4-port switch): 16 one-GPU hosts, one 100G NIC each; switch "ft-sw4", 4 x 100G, 50 W, $1,000.
//   4 pods x (2 edge + 2 aggregation) + (k/2)^2 = 4 cores: 20 switches, every port used:
//   edges 8 x 4 = 32 ports, aggregation 8 x 4 = 32, cores 4 x 4 = 16; 0 free.
//   Links: 16 host-edge, 4 pods x 2 x 2 = 16 edge-aggregation, 8 x 2 = 16 aggregation-core.
//   Media: host-edge (2 m) the DAC "ft-dac" (0 W per end, $20): 16 cables. Edge-aggregation and
//   aggregation-core (30 m) the transceiver "ft-sr" (2.5 W, $100, one link per module, one port per
//   cage): modules = switch ports on those links = 8 x 2 + 8 x 4 + 4 x 4 = 64; 32 fibers.
//   Power: 20 x 50 + 64 x 2.5 + 32 ends x 0 = 1,160 W known; the NIC's power is unknown.
//   Cost: 20 x 1,000 + 16 x 300 (NIC) + 64 x 100 + 16 x 20 = 31,520 USD, complete.
//   Bisection: hosts 0-7 (pods 0, 1) vs 8-15 (pods 2, 3): the cut is the 8 aggregation-core links
//   of pods 0 and 1: 800G = the 8 host ports of a half: ratio 1.
//   Hops from host0 (pod 0, edge 0): host1 same edge, 1 switch, 1 path; host2 (edge 1 of pod 0):
//   edge-aggregation-edge, 3 switches, 2 paths; host4 (pod 1): 5 switches, 2 aggregations x 2
//   cores = 4 paths.
//   Failure domains: NIC port: host0 loses 100% (1/16). Edge 0: hosts 0, 1 lose 100% (2/16).
//   Aggregation 0 of pod 0: the pod's 2 edges lose 1 of 2 uplinks: hosts 0-3 lose 50% (2/16).
//   Core 0: aggregation 0 of every pod loses 1 of 2 uplinks (R = 1/2), so every edge keeps
//   (1/2 + 1) / 2 = 3/4: all 16 hosts lose 25%.
//   Scale limits: k = 4, non-blocking: 2 tiers 4 x 2 = 8 GPUs, 3 tiers 4 x 2 x 2 = 16.
// ================================================================================================
Catalog fat_tree_catalog() {
  Catalog c;
  NodeModel node;
  node.id = "ft-node";
  node.gpus = 1;
  node.backend_nic = "ft-nic";
  node.backend_nics = 1;
  NicModel nic;
  nic.id = "ft-nic";
  nic.protocols = {Protocol::kEthernet};
  nic.port_speed = gbps(100);
  nic.price_usd = 300.0;
  SwitchModel sw;
  sw.id = "ft-sw4";
  sw.protocols = {Protocol::kEthernet};
  sw.ports = 4;
  sw.port_speed = gbps(100);
  sw.capacity = gbps(400);
  sw.power_w = 50.0;
  sw.price_usd = 1000.0;
  OpticModel dac;
  dac.id = "ft-dac";
  dac.kind = MediaKind::kDac;
  dac.medium = Medium::kCopper;
  dac.speed = gbps(100);
  dac.reach_m = 3;
  dac.power_w = 0.0;
  dac.price_usd = 20.0;
  OpticModel sr;
  sr.id = "ft-sr";
  sr.kind = MediaKind::kTransceiver;
  sr.medium = Medium::kMultiMode;
  sr.speed = gbps(100);
  sr.reach_m = 100;
  sr.power_w = 2.5;
  sr.price_usd = 100.0;
  c.nodes = {node};
  c.nics = {nic};
  c.switches = {sw};
  c.optics = {dac, sr};
  return c;
}

constexpr const char* kFatTree = R"(
name: model-fat-tree-4
nodes: {model: ft-node, count: 16}
backend:
  topology: fat-tree
  planes: 1
  tiers: 3
  switch: ft-sw4
  k: 4
  cable_length_m: {leaf: 2, spine: 30, core: 30}
)";

TEST(PlanModelFatTree, SwitchesPortsLinks) {
  const Plan p = plan_of(kFatTree, fat_tree_catalog());
  ASSERT_EQ(p.plane_figures.size(), 1U);
  ASSERT_EQ(p.plane_figures[0].tiers.size(), 3U);
  expect_tier(p.plane_figures[0].tiers[0], 8, 32, 0, 16);
  expect_tier(p.plane_figures[0].tiers[1], 8, 32, 0, 16);
  expect_tier(p.plane_figures[0].tiers[2], 4, 16, 0, 16);
  EXPECT_DOUBLE_EQ(p.plane_figures[0].tiers[0].oversubscription, 1.0);
  EXPECT_DOUBLE_EQ(p.plane_figures[0].tiers[1].oversubscription, 1.0);
}

TEST(PlanModelFatTree, MediaPowerCost) {
  const Plan p = plan_of(kFatTree, fat_tree_catalog());
  expect_media(find_media(p.total_media, "ft-dac"), 16, 0, 0, 16);
  expect_media(find_media(p.total_media, "ft-sr"), 32, 64, 0, 32);
  EXPECT_DOUBLE_EQ(p.power.known_total, 1160.0);
  EXPECT_EQ(p.power.unknown, std::vector<std::string>{"ft-nic (NIC)"});
  EXPECT_TRUE(p.cost.complete());
  EXPECT_DOUBLE_EQ(p.cost.known_total, 31520.0);
}

TEST(PlanModelFatTree, BisectionHopsFailuresLimits) {
  const Plan p = plan_of(kFatTree, fat_tree_catalog());
  EXPECT_EQ(p.bisection, gbps(800));
  EXPECT_EQ(p.half_injection, gbps(800));
  ASSERT_EQ(p.hops.size(), 3U);
  EXPECT_EQ(p.hops[0].host_b, 1);
  EXPECT_EQ(p.hops[0].switch_hops, std::vector<int>{1});
  EXPECT_EQ(p.hops[1].host_b, 2);
  EXPECT_EQ(p.hops[1].switch_hops, std::vector<int>{3});
  EXPECT_EQ(p.hops[1].shortest_paths, std::vector<std::uint64_t>{2});
  EXPECT_EQ(p.hops[2].relation, "same rail, other pod");
  EXPECT_EQ(p.hops[2].host_b, 4);
  EXPECT_EQ(p.hops[2].switch_hops, std::vector<int>{5});
  EXPECT_EQ(p.hops[2].shortest_paths, std::vector<std::uint64_t>{4});
  ASSERT_EQ(p.failure_domains.size(), 4U);
  EXPECT_DOUBLE_EQ(p.failure_domains[0].fabric_share_lost, 1.0 / 16);
  EXPECT_EQ(p.failure_domains[1].gpus_affected, 2);
  EXPECT_EQ(p.failure_domains[2].element, "spine");
  EXPECT_EQ(p.failure_domains[2].gpus_affected, 4);
  EXPECT_DOUBLE_EQ(p.failure_domains[2].max_share_lost, 0.5);
  EXPECT_DOUBLE_EQ(p.failure_domains[2].fabric_share_lost, 2.0 / 16);
  EXPECT_EQ(p.failure_domains[3].element, "core");
  EXPECT_EQ(p.failure_domains[3].gpus_affected, 16);
  EXPECT_DOUBLE_EQ(p.failure_domains[3].min_share_lost, 0.25);
  EXPECT_DOUBLE_EQ(p.failure_domains[3].max_share_lost, 0.25);
  ASSERT_EQ(p.scale_limits.size(), 1U);
  EXPECT_EQ(p.scale_limits[0].gpus_2_tiers, 8);
  EXPECT_EQ(p.scale_limits[0].gpus_3_tiers, 16);
}

// ================================================================================================
// Design 4: the frontend. 32 HGX H100 nodes (backend as design 1, cables 3 m / 30 m) with a frontend
// of one ConnectX-6 Dx (2 x 100GbE) per host on SN2700 switches (32 x 100G), 3:1 at the leaves.
//   Ports per host: max(1, frontend NICs of hgx-h100 = 0) = 1 NIC x 2 ports x (100G / 100G = 1
//   way) = 2; 64 frontend ports. NICs: 32.
//   Radix 32 at 100G. Leaf up = floor(32 / (1 + 3)) = 8, down = 32 - 8 = 24. Top-of-rack packing:
//   24 / 2 = 12 hosts per leaf, ceil(32 / 12) = 3 leaves: hosts 0-11, 12-23, 24-31.
//   Spines: the smallest S dividing 8 with S x 32 >= 3 leaves x 8 uplinks = 24 is S = 1, so each
//   leaf runs 8 parallel cables to the one spine.
//   Leaf tier: 3 switches; ports used 32 + 32 + (16 + 8) = 88, free 0 + 0 + 8 = 8; 64 NIC-leaf
//     links; down 64 x 100G = 6.4T, up 24 x 100G = 2.4T, down:up 8:3 (the last leaf is not full).
//   Spine tier: 1 switch, 24 ports used, 8 free, 24 leaf-spine links, down 2.4T.
//   Media (the backend's lengths): NIC-leaf 3 m -> qsfp28-100g-dac (5 m), 64 cables, no modules.
//     Leaf-spine 30 m -> qsfp28-100g-sr4 (100 m), one 100G link per module, a cage per port:
//     8 per leaf x 3 + 24 at the spine = 48 switch modules, 24 fibers.
//   Bisection, hosts 0-15 (A) vs 16-31 (B): A has 24 ports on leaf 0 and 8 on leaf 1. Leaf 0's
//     traffic leaves over its 8 uplinks (800G); leaf 1's A ports (800G) reach B ports on leaf 1
//     directly. Cut {leaf 0 uplinks, leaf 1's A ports} = 1.6T, and that flow is feasible (leaf 0
//     -> spine -> leaf 2's 16 B ports): 1.6T of the half's 32 x 100G = 3.2T, ratio 0.5.
//   Bill: 4 sn2700, 32 connectx-6-dx, 128 DAC cable ends, 48 SR4 modules: every unit unknown in
//     the catalog. Frontend and backend share no link.
// ================================================================================================
constexpr const char* kFrontend = R"(
name: model-32-frontend
nodes: {model: hgx-h100, count: 32}
backend:
  topology: rail-optimized
  planes: 1
  tiers: 2
  switch: qm9700
  oversubscription: [1]
  cable_length_m: {leaf: 3, spine: 30}
frontend:
  nic: connectx-6-dx
  speed: 100G
  switch: sn2700
  oversubscription: 3
)";

TEST(PlanModelFrontend, SwitchesPortsLinks) {
  const Plan p = plan_of(kFrontend, real_catalog());
  ASSERT_TRUE(p.frontend.has_value());
  const FrontendFigures& f = *p.frontend;
  EXPECT_EQ(f.ports_per_host, 2);
  EXPECT_EQ(f.endpoints, 64);
  EXPECT_EQ(f.nics, 32);
  ASSERT_EQ(f.tiers.size(), 2U);
  expect_tier(f.tiers[0], 3, 88, 8, 64);
  expect_tier(f.tiers[1], 1, 24, 8, 24);
  EXPECT_EQ(f.tiers[0].down_capacity, gbps(100) * 64);
  EXPECT_EQ(f.tiers[0].up_capacity, gbps(100) * 24);
  EXPECT_DOUBLE_EQ(f.tiers[0].oversubscription, 8.0 / 3.0);
  EXPECT_DOUBLE_EQ(f.oversubscription_asked, 3.0);
  EXPECT_EQ(f.backend_links, 0);
  // The backend is planned as before: design 1's counts.
  expect_tier(p.plane_figures[0].tiers[0], 8, 512, 0, 256);
}

TEST(PlanModelFrontend, MediaBisectionBill) {
  const Plan p = plan_of(kFrontend, real_catalog());
  ASSERT_TRUE(p.frontend.has_value());
  const FrontendFigures& f = *p.frontend;
  ASSERT_EQ(f.media.size(), 2U);
  expect_media(find_media(f.media, "qsfp28-100g-dac"), 64, 0, 0, 64);
  expect_media(find_media(f.media, "qsfp28-100g-sr4"), 24, 48, 0, 24);
  EXPECT_EQ(f.bisection, gbps(100) * 16);
  EXPECT_EQ(f.half_injection, gbps(100) * 32);
  ASSERT_EQ(f.power.lines.size(), 4U);
  EXPECT_EQ(f.power.lines[0].part, "sn2700");
  EXPECT_EQ(f.power.lines[0].count, 4);
  EXPECT_EQ(f.power.lines[1].part, "connectx-6-dx");
  EXPECT_EQ(f.power.lines[1].count, 32);
  long long dac_ends = 0, sr4 = 0;
  for (const auto& line : f.power.lines) {
    if (line.part == "qsfp28-100g-dac") dac_ends = line.count;
    if (line.part == "qsfp28-100g-sr4") sr4 = line.count;
  }
  EXPECT_EQ(dac_ends, 128);
  EXPECT_EQ(sr4, 48);
  EXPECT_FALSE(f.power.complete());
}

// A spec without `frontend:` plans no frontend.
TEST(PlanModelFrontend, AbsentWithoutTheBlock) {
  EXPECT_FALSE(plan_of(kOnePlane, real_catalog()).frontend.has_value());
}

// ================================================================================================
// Catalog gaps (issue 23): 32 HGX B300 nodes on 4 planes of SN5600 at 200G (each ConnectX-8 cage
// split 4 ways). The catalog's optics and cables run 800G whole or split 2 x 400G, 400G and 100G:
// none runs a 200G link, so every backend link (NIC-leaf at 30 m and leaf-spine at 100 m) has no
// medium. The plan still counts them (256 NIC-leaf links per plane) but says so: one warning per
// length tier, located at backend.port_speed (line 9, column 3), naming 200G and the entry to add
// (speed 200G, or 400G split in 2). At 400G with a 3 km leaf-spine reach, the 400G entries reach
// too short: the warning is at backend.cable_length_m.spine and names the longest of them.
// ================================================================================================
constexpr const char* kFourPlanes200G = R"(
name: model-4-planes-200g
nodes: {model: hgx-b300, count: 32}
backend:
  topology: rail-optimized
  planes: 4
  tiers: 2
  switch: sn5600
  port_speed: 200G
  cable_length_m: {leaf: 30, spine: 100}
)";

TEST(PlanModelCatalogGaps, ASpeedNoOpticRunsIsAWarningThatNamesTheEntryToAdd) {
  const Plan p = plan_of(kFourPlanes200G, real_catalog());
  ASSERT_EQ(p.warnings.size(), 2U) << format_diagnostics(p.warnings);
  for (const Diagnostic& w : p.warnings) {
    EXPECT_EQ(w.severity, Severity::kWarning);
    EXPECT_EQ(w.field, "backend.port_speed");
    EXPECT_EQ(w.where.line, 9);
    EXPECT_EQ(w.where.column, 3);
    EXPECT_NE(w.message.find("it has no 200G optic or cable"), std::string::npos) << w.message;
    EXPECT_NE(w.message.find("speed: 200G (links: 1), or speed: 400G and links: 2"), std::string::npos) << w.message;
  }
  EXPECT_NE(p.warnings[0].message.find("NIC-leaf 200G links of 30 m (1024 links)"), std::string::npos) << p.warnings[0].message;
  EXPECT_NE(p.warnings[1].message.find("leaf-spine 200G links of 100 m"), std::string::npos) << p.warnings[1].message;
  const MediaFigures* none = find_media(p.plane_figures[0].media, kNoMedium);
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->kind, "-");
}

TEST(PlanModelCatalogGaps, AReachNoOpticCoversNamesTheLongest) {
  std::string yaml = kFourPlanes200G;
  yaml.replace(yaml.find("planes: 4"), 9, "planes: 2");
  yaml.replace(yaml.find("port_speed: 200G"), 16, "port_speed: 400G");
  yaml.replace(yaml.find("spine: 100"), 10, "spine: 3000");
  const Plan p = plan_of(yaml, real_catalog());
  ASSERT_EQ(p.warnings.size(), 1U) << format_diagnostics(p.warnings);
  EXPECT_EQ(p.warnings[0].field, "backend.cable_length_m.spine");
  EXPECT_EQ(p.warnings[0].where.line, 10);
  EXPECT_NE(p.warnings[0].message.find("its 400G entries reach at most 2000 m"), std::string::npos) << p.warnings[0].message;
}

// The bundled designs at 400G and 800G have a medium for every backend link.
TEST(PlanModelCatalogGaps, NoneForTheBundledBackends) {
  EXPECT_TRUE(plan_of(kOnePlane, real_catalog()).warnings.empty());
}

}  // namespace
}  // namespace ct
