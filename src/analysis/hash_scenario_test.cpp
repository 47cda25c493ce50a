// Why a collision happened, on constructed cases whose cause is known by construction.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/ecmp_monte_carlo.h"
#include "analysis/hash_scenario.h"
#include "support/ecmp_test_support.h"
#include "support/fabric_fixtures.h"

namespace ct {
namespace {

using testing_support::EcmpFabric;

// Missing entropy. two_tier(2, 2, 4); the hash reads only the addresses (src_ip, dst_ip). Two
// flows host0 -> host4 on source ports 1000 and 2000 have identical hash inputs, so they take the
// same uplink and the same spine whatever the seeds. Expected: one collision at leaf 8's uplink
// (and none elsewhere but the spine's single down cable, no choice), cause missing entropy,
// witnesses flows 0 and 1.
TEST(HashScenario, IdenticalInputsAreMissingEntropy) {
  EcmpConfig c = testing_support::config(HashAlgorithm::kCrc32, SeedMode::kPerSwitch);
  c.fields = kL3Only;
  const EcmpFabric f(fixtures::two_tier(2, 2, 4), c);
  const std::vector<RouteRequest> flows = {f.request(0, 4, 1000), f.request(0, 4, 2000)};
  const DecisionCoupling coupling(*f.walker, flows, 1, 64);
  const HashScenario s = analyze_hash_scenario(*f.walker, flows, coupling);
  ASSERT_EQ(s.collisions.size(), 1u);
  const Collision& x = s.collisions[0];
  EXPECT_EQ(x.cause, CollisionCause::kMissingEntropy);
  EXPECT_EQ(x.at, VertexId(8u));
  EXPECT_EQ(x.flows, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(x.flows_in_group, 2u);
  // Without the source port in the hash, redrawing it proves nothing: no stage is "determined".
  for (const DecisionStage& st : coupling.stages()) EXPECT_FALSE(st.determined);
}

// Polarization. The 4-ary fat tree, crc32 with the same seed everywhere, hash-threshold. Flow A:
// host 0 (edge 16) -> host 4 (pod 1); flow B: host 2 (edge 17) -> host 8 (pod 2). Source ports
// are searched (deterministically) until both edges send their flow to agg 24 (member 0, i.e.
// h < 2^31 for both). Agg 24 computes the same h, so both flows take its member 0 (link 32):
// a certain collision, not chance. Expected: exactly one collision, at agg 24's up link 32,
// cause polarization.
TEST(HashScenario, RepeatedHashIsPolarization) {
  const EcmpFabric f(fixtures::fat_tree_4(), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  std::vector<RouteRequest> flows = {f.request(0, 4, 0), f.request(2, 8, 0)};
  std::vector<PathHop> path;
  for (auto& r : flows) {
    for (std::uint16_t port = 49152;; ++port) {
      r.key.src_port = port;
      ASSERT_TRUE(f.walker->walk(r.src, r.dst, r.key, path));
      if (f.topology->other_end(path[1].link, path[1].from) == VertexId(24u)) break;
    }
  }
  const DecisionCoupling coupling(*f.walker, flows, 1, 256);
  const HashScenario s = analyze_hash_scenario(*f.walker, flows, coupling);
  ASSERT_EQ(s.collisions.size(), 1u);
  EXPECT_EQ(s.collisions[0].cause, CollisionCause::kPolarization);
  EXPECT_EQ(s.collisions[0].at, VertexId(24u));
  EXPECT_EQ(s.collisions[0].directed_link, directed_link(LinkId(32u), true));
}

// Bad luck. two_tier(2, 2, 4) with per-switch seeds and the ideal function; flows host0 -> host4
// and host1 -> host5 with the second port searched until both take the same uplink of leaf 8.
// Expected: the collision is bad luck (a first decision, distinct inputs), and the probability
// it reports for k = 2 flows on n = 2 members is 1/2.
TEST(HashScenario, IndependentHashesAreBadLuck) {
  const EcmpFabric f(fixtures::two_tier(2, 2, 4), testing_support::config(HashAlgorithm::kRandom, SeedMode::kPerSwitch));
  const std::vector<RouteRequest> flows = f.colliding_pair(0, 4, 1, 5);
  const DecisionCoupling coupling(*f.walker, flows, 1, 64);
  const HashScenario s = analyze_hash_scenario(*f.walker, flows, coupling);
  ASSERT_EQ(s.collisions.size(), 1u);
  EXPECT_EQ(s.collisions[0].cause, CollisionCause::kBadLuck);
  EXPECT_EQ(s.collisions[0].flows_in_group, 2u);
  EXPECT_EQ(s.loads.first_tier_uplinks.busiest, 2.0);
  EXPECT_EQ(s.loads.first_tier_uplinks.idle, 1u);
  EXPECT_DOUBLE_EQ(s.loads.slowest, 200e9);
}

// Over many trials the causes separate: 4-ary fat tree, flows from edges 16 and 17 (pod 0) to pods
// 1 and 2. With the same seed everywhere, any two flows that reach the same agg take the same core
// link: polarization occurs in some trials. With per-switch seeds and the ideal function no
// decision is determined, so no collision is ever called polarization.
TEST(HashScenario, MonteCarloCountsCauses) {
  for (SeedMode mode : {SeedMode::kSame, SeedMode::kPerSwitch}) {
    const EcmpFabric f(fixtures::fat_tree_4(), testing_support::config(HashAlgorithm::kRandom, mode));
    const std::vector<RouteRequest> flows = {f.request(0, 4, 0), f.request(2, 8, 0)};
    const DecisionCoupling coupling(*f.walker, flows, 1, 256);
    const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {2000, 8, 2});
    const auto polarized = r.trials_with_cause[static_cast<int>(CollisionCause::kPolarization)];
    const auto luck = r.trials_with_cause[static_cast<int>(CollisionCause::kBadLuck)];
    if (mode == SeedMode::kSame) {
      // Both flows reach agg 24 or both agg 25 with probability 1/2, then collide for certain:
      // p = 1/2, p (1 - p) = 0.25.
      EXPECT_NEAR(polarized / 2000.0, 0.5, 4 * std::sqrt(0.5 * 0.5 / 2000));
      EXPECT_EQ(luck, 0u);
    } else {
      EXPECT_EQ(polarized, 0u);
      // Same agg (1/2) and then the same of its 2 core links (1/2): p = 1/4, within 4 standard
      // errors sqrt(p (1 - p) / T), p (1 - p) = 1/4 x 3/4 = 0.1875.
      EXPECT_NEAR(luck / 2000.0, 0.25, 4 * std::sqrt(0.25 * 0.75 / 2000));
    }
  }
}

}  // namespace
}  // namespace ct
