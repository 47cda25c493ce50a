// Why a collision happened, on constructed cases whose cause is known by construction.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/ecmp_monte_carlo.h"
#include "analysis/hash_scenario.h"
#include "support/ecmp_test_support.h"
#include "routing/port_address.h"
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

// Missing entropy without identical inputs. A leaf with two uplinks (two_tier(2, 1, 4, 2): two
// cables from each leaf to the one spine) whose hash reads only the addresses. Flow 0: host0 ->
// host4; flow 1: host1 -> host d, d the first of hosts 5..7 whose addresses land on flow 0's
// uplink. Their inputs differ (source and destination address) but the source port, the only
// field a trial redraws, is not hashed: the placement is a function of the addresses and the
// collision recurs in every trial. Expected: the collision is missing entropy (not bad luck), and
// over 6 trials all 6 collide, all 6 with cause missing entropy, none bad luck.
TEST(HashScenario, UnhashedSourcePortIsMissingEntropyInEveryTrial) {
  EcmpConfig c = testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame);
  c.fields = kFieldSrcIp | kFieldDstIp | kFieldProtocol | kFieldDstPort;
  const EcmpFabric f(fixtures::two_tier(2, 1, 4, 2), c);
  std::vector<RouteRequest> flows = {f.request(0, 4, 50000), f.request(1, 5, 50001)};
  std::vector<PathHop> a, b;
  ASSERT_TRUE(f.walker->walk(flows[0].src, flows[0].dst, flows[0].key, a));
  bool found = false;
  for (std::uint32_t d = 5; d < 8 && !found; ++d) {
    flows[1] = f.request(1, d, 50001);
    ASSERT_TRUE(f.walker->walk(flows[1].src, flows[1].dst, flows[1].key, b));
    found = b[1].link == a[1].link;
  }
  ASSERT_TRUE(found) << "no destination shares flow 0's uplink; the test needs another seed";
  const DecisionCoupling coupling(*f.walker, flows, 1, 64);
  const HashScenario s = analyze_hash_scenario(*f.walker, flows, coupling);
  ASSERT_GE(s.collisions.size(), 1u);
  EXPECT_EQ(s.collisions[0].cause, CollisionCause::kMissingEntropy);
  EXPECT_FALSE(s.collisions[0].identical_inputs);
  EXPECT_EQ(s.collisions[0].witness_a, 0u);
  EXPECT_EQ(s.collisions[0].witness_b, 1u);
  const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {6, 1, 1});
  EXPECT_EQ(r.p_first_collision, 1.0);
  EXPECT_EQ(r.trials_with_cause[static_cast<int>(CollisionCause::kMissingEntropy)], 6u);
  EXPECT_EQ(r.trials_with_cause[static_cast<int>(CollisionCause::kBadLuck)], 0u);
}

// No path. two_tier(4, 2, 2): leaf 3 (vertex 11) holds hosts 6 and 7 and has one cable to each
// of spines 12 and 13; both failed. Flow 0: host 6 -> host 0 stops at leaf 3 itself; flow 1: host
// 0 -> host 6 stops at leaf 0 (vertex 8), which has no route toward leaf 3, because leaf 3 has no
// uplink left; flow 2: host 2 -> host 4 is unharmed. Expected: flows 0 and 1 without a path, both
// blamed on leaf 3's uplinks; flow 2 reaches.
TEST(HashScenario, AllUplinksDownIsNoPath) {
  const Topology t = fixtures::two_tier(4, 2, 2);
  std::vector<LinkId> failed;
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    const bool leaf3 = t.link_a[l] == VertexId(11u) || t.link_b[l] == VertexId(11u);
    if (leaf3 && t.kind[t.link_a[l].value()] == VertexKind::kSwitch) failed.push_back(LinkId(l));
  }
  ASSERT_EQ(failed.size(), 2u);
  const ForwardingState degraded(t, failed);
  const SwitchHashes hashes(t, testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  const PathWalker walker(degraded, hashes);
  auto request = [&](std::uint32_t src, std::uint32_t dst) {
    return RouteRequest{VertexId(src), VertexId(dst),
                        FlowKey{port_address(t, VertexId(src)), port_address(t, VertexId(dst)), kIpProtoUdp, 50000,
                                kRoceV2UdpPort},
                        1};
  };
  const std::vector<RouteRequest> flows = {request(6, 0), request(0, 6), request(2, 4)};
  const DecisionCoupling coupling(walker, flows, 1, 64);
  const HashScenario s = analyze_hash_scenario(walker, flows, coupling);
  ASSERT_EQ(s.unreachable.size(), 2u);
  EXPECT_EQ(s.unreachable[0].flow, 0u);
  EXPECT_EQ(s.unreachable[0].reason, NoPathReason::kAllUplinksDown);
  EXPECT_EQ(s.unreachable[0].stopped_at, VertexId(11u));
  EXPECT_EQ(s.unreachable[0].culprit, VertexId(11u));
  EXPECT_EQ(s.unreachable[1].flow, 1u);
  EXPECT_EQ(s.unreachable[1].reason, NoPathReason::kAllUplinksDown);
  EXPECT_EQ(s.unreachable[1].stopped_at, VertexId(8u));
  EXPECT_EQ(s.unreachable[1].culprit, VertexId(11u));
  EXPECT_TRUE(s.paths[2].reached);
  // The closed forms name the reason instead of "flows share NICs".
  const EcmpClosedForms c = first_tier_closed_forms(walker, s.paths);
  EXPECT_EQ(c.unreachable, 2u);
  EXPECT_FALSE(c.slowest_applicable);
  EXPECT_FALSE(c.shared_nics);
}

}  // namespace
}  // namespace ct
