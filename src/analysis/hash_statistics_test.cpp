// Statistical model test of the ECMP hash functions against the balls-into-bins closed form.
//
// System: k RoCEv2 flows between one fixed pair of hosts (10.0.0.1 -> 10.0.1.1, UDP destination
// port 4791), each with a distinct source port drawn uniformly from [0, 65536), placed by one
// switch (fixed seed) onto n equal members. A trial "collides" when two flows share a member.
// Expected: if the function spreads source ports like an ideal random function, the collision
// frequency over T trials lies within 4 standard errors sqrt(p (1 - p) / T) of
//   p = 1 - n! / ((n - k)! n^k):  k = 2, n = 2 -> 0.5;  k = 8, n = 8 -> 0.99759674...
// Deterministic: fixed generator seeds, so the test gives the same verdict on every run.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "analysis/birthday.h"
#include "core/rng.h"
#include "routing/hash_function.h"
#include "routing/member_select.h"

namespace ct {
namespace {

double measured_collision_rate(HashAlgorithm a, MemberSelection method, std::uint32_t n, std::uint32_t k,
                               int trials, std::uint64_t stream) {
  const FlowHasher hasher(a, 0xC0FFEE, SeedInput::kPrepend, kFiveTuple);
  const MemberSelector selector(n, method, hasher.bits());
  Rng rng(2024, static_cast<std::uint64_t>(a), stream);
  int collisions = 0;
  std::vector<bool> used(n);
  for (int t = 0; t < trials; ++t) {
    std::set<std::uint16_t> ports;
    while (ports.size() < k) ports.insert(static_cast<std::uint16_t>(rng.uniform(65536)));
    std::fill(used.begin(), used.end(), false);
    bool collided = false;
    for (std::uint16_t port : ports) {
      const FlowKey key{ipv4(10, 0, 0, 1), ipv4(10, 0, 1, 1), kIpProtoUdp, port, kRoceV2UdpPort};
      const std::uint32_t member = selector.select(hasher.hash(key));
      collided = collided || used[member];
      used[member] = true;
    }
    collisions += collided ? 1 : 0;
  }
  return static_cast<double>(collisions) / trials;
}

TEST(HashStatistics, CollisionRateMatchesBirthdayBound) {
  constexpr int kTrials = 20000;
  const struct {
    std::uint32_t n, k;
  } cases[] = {{2, 2}, {8, 8}};
  for (HashAlgorithm a : kAllHashAlgorithms) {
    for (MemberSelection method : {MemberSelection::kModulo, MemberSelection::kHashThreshold}) {
      for (const auto& c : cases) {
        const double p = p_any_collision(c.n, c.k);
        const double se = std::sqrt(p * (1 - p) / kTrials);
        const double got = measured_collision_rate(a, method, c.n, c.k, kTrials, c.n);
        EXPECT_NEAR(got, p, 4 * se) << hash_algorithm_name(a) << " " << member_selection_name(method)
                                    << " n=" << c.n << " k=" << c.k;
      }
    }
  }
}

// A degenerate case the test must catch: hashing only the destination (constant here) puts every
// flow on one member, so the measured rate is 1, far outside 4 standard errors of 0.5.
TEST(HashStatistics, DetectsABadFunction) {
  const FlowHasher hasher(HashAlgorithm::kCrc32, 1, SeedInput::kPrepend, kFieldDstIp);
  const MemberSelector selector(2, MemberSelection::kModulo, hasher.bits());
  const FlowKey f1{ipv4(10, 0, 0, 1), ipv4(10, 0, 1, 1), kIpProtoUdp, 1000, kRoceV2UdpPort};
  FlowKey f2 = f1;
  f2.src_port = 2000;
  EXPECT_EQ(selector.select(hasher.hash(f1)), selector.select(hasher.hash(f2)));
}

}  // namespace
}  // namespace ct
