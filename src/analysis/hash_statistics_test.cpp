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

// Collision frequency over `trials` trials of k flows with distinct uniform source ports, each
// placed on one of n members by place(key).
template <typename Place>
double measured_collision_rate(Place&& place, std::uint32_t n, std::uint32_t k, int trials, std::uint64_t generator,
                               std::uint64_t stream) {
  Rng rng(2024, generator, stream);
  int collisions = 0;
  std::vector<bool> used(n);
  for (int t = 0; t < trials; ++t) {
    std::set<std::uint16_t> ports;
    while (ports.size() < k) ports.insert(static_cast<std::uint16_t>(rng.uniform(65536)));
    std::fill(used.begin(), used.end(), false);
    bool collided = false;
    for (std::uint16_t port : ports) {
      const FlowKey key{ipv4(10, 0, 0, 1), ipv4(10, 0, 1, 1), kIpProtoUdp, port, kRoceV2UdpPort};
      const std::uint32_t member = place(key);
      collided = collided || used[member];
      used[member] = true;
    }
    collisions += collided ? 1 : 0;
  }
  return static_cast<double>(collisions) / trials;
}

// The check itself: is a measured rate within 4 standard errors of the ideal p?
struct Verdict {
  double p = 0.0;
  double measured = 0.0;
  double tolerance = 0.0;  // 4 standard errors
  [[nodiscard]] bool ideal() const { return std::abs(measured - p) <= tolerance; }
};

template <typename Place>
Verdict check_against_birthday(Place&& place, std::uint32_t n, std::uint32_t k, int trials, std::uint64_t generator) {
  Verdict v;
  v.p = p_any_collision(n, k);
  v.tolerance = 4 * std::sqrt(v.p * (1 - v.p) / trials);
  v.measured = measured_collision_rate(place, n, k, trials, generator, n);
  return v;
}

constexpr int kTrials = 20000;

TEST(HashStatistics, CollisionRateMatchesBirthdayBound) {
  const struct {
    std::uint32_t n, k;
  } cases[] = {{2, 2}, {8, 8}};
  for (HashAlgorithm a : kAllHashAlgorithms) {
    const FlowHasher hasher(a, 0xC0FFEE, SeedInput::kPrepend, kFiveTuple);
    for (MemberSelection method : {MemberSelection::kModulo, MemberSelection::kHashThreshold}) {
      for (const auto& c : cases) {
        const MemberSelector selector(c.n, method, hasher.bits());
        const auto place = [&](const FlowKey& key) { return selector.select(hasher.hash(key)); };
        const Verdict v = check_against_birthday(place, c.n, c.k, kTrials, static_cast<std::uint64_t>(a));
        EXPECT_TRUE(v.ideal()) << hash_algorithm_name(a) << " " << member_selection_name(method) << " n=" << c.n
                               << " k=" << c.k << ": measured " << v.measured << ", p " << v.p << " +- "
                               << v.tolerance;
      }
    }
  }
}

// The same check must reject bad functions, or passing it means nothing. Two, n = k = 2 (p = 1/2,
// 4 standard errors = 4 sqrt(0.25 / 20000) = 0.0141):
//  - hashing only the destination address (constant here) puts every flow on one member: the
//    measured rate is exactly 1;
//  - a biased selector over a good hash, member 1 only when the CRC-32 is 0 mod 4: members get
//    3/4 and 1/4 of the flows, so two flows collide with probability (3/4)^2 + (1/4)^2 = 5/8 =
//    0.625, 0.125 above 1/2: about 35 standard errors, a bias the test must see.
TEST(HashStatistics, DetectsABadFunction) {
  const FlowHasher destination_only(HashAlgorithm::kCrc32, 1, SeedInput::kPrepend, kFieldDstIp);
  const MemberSelector modulo(2, MemberSelection::kModulo, destination_only.bits());
  const Verdict constant = check_against_birthday(
      [&](const FlowKey& key) { return modulo.select(destination_only.hash(key)); }, 2, 2, kTrials, 1);
  EXPECT_EQ(constant.measured, 1.0);
  EXPECT_FALSE(constant.ideal());

  const FlowHasher crc(HashAlgorithm::kCrc32, 0xC0FFEE, SeedInput::kPrepend, kFiveTuple);
  const Verdict biased = check_against_birthday(
      [&](const FlowKey& key) { return crc.hash(key) % 4 == 0 ? 1u : 0u; }, 2, 2, kTrials, 2);
  EXPECT_NEAR(biased.measured, 0.625, biased.tolerance);
  EXPECT_FALSE(biased.ideal());
}

}  // namespace
}  // namespace ct
