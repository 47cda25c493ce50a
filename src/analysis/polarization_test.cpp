// Polarization: the same function and seed on consecutive tiers make the second decision a
// function of the first, so part of the second tier's links can never carry the traffic.
#include <gtest/gtest.h>

#include "analysis/decision_coupling.h"
#include "analysis/ecmp_monte_carlo.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/ecmp_test_support.h"
#include "support/fabric_fixtures.h"
#include "topology/builder.h"

namespace ct {
namespace {

using testing_support::EcmpFabric;

const DecisionStage* stage(const DecisionCoupling& c, int tier, bool up) {
  for (const DecisionStage& s : c.stages()) {
    if (s.tier == tier && s.up == up) return &s;
  }
  return nullptr;
}

// System: the 4-ary fat tree (a 2x2 Clos: edge and aggregation switches each have 2 up links).
// Flows from edge 16 (hosts 0 and 1) to pods 1 and 3. The tier-2 up stage offers the 4 up links of
// aggs 24 and 25. Same function and seed everywhere, hash-threshold over 2 members: both tiers
// pick member floor(h / 2^31) of the same h, so agg 24 only ever gets flows that then take its
// member 0, agg 25 its member 1. Expected: exactly 2 of the 4 links reachable, the tier-2 choice
// determined by the tier-1 choice, identical hashes. Per-switch seeds with an ideal keyed function
// (random): all 4 reachable, not determined. Per-switch seeds with crc32: still 2 of 4, since a CRC
// is affine and a different seed only XORs a constant into the hash.
TEST(Polarization, TwoByTwoClosUsesHalfTheSecondTier) {
  struct Case {
    HashAlgorithm a;
    SeedMode mode;
    std::uint32_t reachable;
    bool determined;
    bool same_hash;
  };
  const Case cases[] = {{HashAlgorithm::kCrc32, SeedMode::kSame, 2, true, true},
                        {HashAlgorithm::kRandom, SeedMode::kSame, 2, true, true},
                        {HashAlgorithm::kRandom, SeedMode::kPerSwitch, 4, false, false},
                        {HashAlgorithm::kCrc32, SeedMode::kPerSwitch, 2, true, false}};
  for (const Case& c : cases) {
    const EcmpFabric f(fixtures::fat_tree_4(), testing_support::config(c.a, c.mode));
    const std::vector<RouteRequest> flows = {f.request(0, 4, 0), f.request(1, 12, 0)};
    const DecisionCoupling coupling(*f.walker, flows, 9, 512);
    const DecisionStage* s = stage(coupling, 2, true);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->links_available, 4u);
    EXPECT_EQ(s->links_reachable, c.reachable) << hash_algorithm_name(c.a) << " " << seed_mode_name(c.mode);
    EXPECT_EQ(s->determined, c.determined) << hash_algorithm_name(c.a) << " " << seed_mode_name(c.mode);
    EXPECT_EQ(s->same_hash_as_previous, c.same_hash);
    // The first tier has nothing before it and both of its links are reachable.
    const DecisionStage* first = stage(coupling, 1, true);
    ASSERT_NE(first, nullptr);
    EXPECT_FALSE(first->follows_decision);
    EXPECT_EQ(first->links_reachable, 2u);
    // Over Monte Carlo trials the flows themselves use exactly the reachable links.
    const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {400, 3, 2});
    const auto index = static_cast<std::size_t>(s - coupling.stages().data());
    EXPECT_EQ(r.stage_links_used.at(index), c.reachable);
  }
}

// Real shapes built from specs with the project catalog.
Topology build(const std::string& yaml) {
  auto catalog = load_catalog(std::string(CT_SOURCE_DIR) + "/catalog");
  EXPECT_TRUE(catalog.ok());
  auto spec = parse_spec("t.yaml", yaml);
  EXPECT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  auto valid = validate(spec.value(), catalog.value());
  EXPECT_TRUE(valid.ok()) << format_diagnostics(valid.errors());
  return build_topology(valid.value(), catalog.value());
}

// System: a 3-tier k = 8 fat tree (16 HGX H100 x 8 NICs = 128 ports, QM9700 run as k = 8): an
// edge has 4 up links to the 4 aggregation switches of its pod, each with 4 up links to cores.
// Flows from host0/nic0 (edge 0, pod 0) to host 2 (pod 1). Same seed, hash-threshold: the agg
// choice floor(4h / 2^32) repeats the edge choice, so each agg can use 1 of its 4 up links: 4 of
// 16 reachable. Per-switch seeds with the ideal function: all 16.
TEST(Polarization, FatTreeK8FromASpec) {
  const Topology t = build(
      "name: ft8\nnodes: {model: hgx-h100, count: 16}\n"
      "backend: {topology: fat-tree, tiers: 3, switch: qm9700, k: 8}\n");
  for (SeedMode mode : {SeedMode::kSame, SeedMode::kPerSwitch}) {
    const EcmpFabric f(t, testing_support::config(HashAlgorithm::kRandom, mode));
    const std::vector<RouteRequest> flows = {f.request(0, t.port_of(HostId(2u), 0, 0).value(), 0)};
    const DecisionCoupling coupling(*f.walker, flows, 1, 2048);
    const DecisionStage* s = stage(coupling, 2, true);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->links_available, 16u);
    EXPECT_EQ(s->links_reachable, mode == SeedMode::kSame ? 4u : 16u);
    EXPECT_EQ(s->determined, mode == SeedMode::kSame);
  }
}

// System: examples/lab-32.yaml (2 tiers; a leaf has 32 up links, 8 parallel cables to each of 4
// spines). host0/nic0 -> host1/nic1 climbs from leaf 0 and descends to leaf 1 over one of a
// spine's 8 cables. With the same seed the spine's choice floor(8h / 2^32) = floor(m / 4) for the
// leaf's choice m = floor(32h / 2^32): 2 of each spine's 8 down cables, 8 of 32, and determined.
// Per-switch seeds (ideal function): all 32, not determined.
TEST(Polarization, Lab32DownCablesFollowTheLeafChoice) {
  auto catalog = load_catalog(std::string(CT_SOURCE_DIR) + "/catalog");
  ASSERT_TRUE(catalog.ok());
  auto spec = load_spec(std::string(CT_SOURCE_DIR) + "/examples/lab-32.yaml", catalog.value());
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  const Topology t = build_topology(spec.value(), catalog.value());
  for (SeedMode mode : {SeedMode::kSame, SeedMode::kPerSwitch}) {
    const EcmpFabric f(t, testing_support::config(HashAlgorithm::kRandom, mode));
    const std::vector<RouteRequest> flows = {
        f.request(t.port_of(HostId(0u), 0, 0).value(), t.port_of(HostId(1u), 1, 0).value(), 0)};
    const DecisionCoupling coupling(*f.walker, flows, 1, 4096);
    const DecisionStage* up = stage(coupling, 1, true);
    const DecisionStage* down = stage(coupling, 2, false);
    ASSERT_NE(up, nullptr);
    ASSERT_NE(down, nullptr);
    EXPECT_EQ(up->links_available, 32u);
    EXPECT_EQ(up->links_reachable, 32u);
    EXPECT_EQ(down->links_available, 32u);
    EXPECT_EQ(down->links_reachable, mode == SeedMode::kSame ? 8u : 32u);
    EXPECT_EQ(down->determined, mode == SeedMode::kSame);
  }
}

}  // namespace
}  // namespace ct
