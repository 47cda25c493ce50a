#include "analysis/birthday.h"

#include <gtest/gtest.h>

#include <numeric>

namespace ct {
namespace {

// Two flows on two uplinks: the second flow lands on the first one's uplink with probability 1/2;
// then one uplink carries both (E[members with >= 2] = 1/2) and one is idle: E[idle] =
// n (1 - 1/n)^k = 2 (1/2)^2 = 1/2.
TEST(Birthday, TwoFlowsTwoUplinks) {
  EXPECT_DOUBLE_EQ(p_any_collision(2, 2), 0.5);
  EXPECT_DOUBLE_EQ(p_no_collision(2, 2), 0.5);
  EXPECT_DOUBLE_EQ(expected_members_with_two_or_more(2, 2), 0.5);
  EXPECT_DOUBLE_EQ(expected_idle_members(2, 2), 0.5);
}

// Eight flows on eight uplinks: P(no collision) = 8!/8^8 = 40320/16777216, so
// P(collision) = 0.99759674072265625; E[idle] = 8 (7/8)^8 = 46118408/16777216 = 2.748776197433...;
// E[>= 2] = 8 [1 - (7/8)^8 - (7/8)^7] = 2.1095614433288574.
TEST(Birthday, EightFlowsEightUplinks) {
  EXPECT_NEAR(p_any_collision(8, 8), 0.99759674072265625, 1e-15);
  EXPECT_NEAR(p_no_collision(8, 8), 40320.0 / 16777216.0, 1e-15);
  EXPECT_NEAR(expected_idle_members(8, 8), 46118408.0 / 16777216.0, 1e-12);
  EXPECT_NEAR(expected_members_with_two_or_more(8, 8), 2.1095614433288574, 1e-12);
}

// The classic birthday problem: 23 people, 365 days, P(shared birthday) = 0.507297234323985...
// More flows than members always collide.
TEST(Birthday, ClassicAndPigeonhole) {
  EXPECT_NEAR(p_any_collision(365, 23), 0.5072972343239857, 1e-12);
  EXPECT_EQ(p_no_collision(4, 5), 0.0);
  EXPECT_EQ(p_any_collision(4, 5), 1.0);
  EXPECT_EQ(p_any_collision(1000000, 1), 0.0);
  // Large n stays accurate: k = 2 gives exactly 1/n.
  EXPECT_NEAR(p_any_collision(1'000'000'000, 2), 1e-9, 1e-21);
}

// Max load by counting placements: n = 3, k = 3 has 27 placements; 3! = 6 have max 1, 3 have max 3
// (all in one bin), the other 18 have max 2. n = 2, k = 3: 2 of 8 have max 3, 6 have max 2.
TEST(Birthday, MaxLoadByCounting) {
  const auto d33 = max_load_distribution(3, 3);
  ASSERT_EQ(d33.size(), 4u);
  EXPECT_NEAR(d33[0], 0.0, 1e-15);
  EXPECT_NEAR(d33[1], 6.0 / 27.0, 1e-15);
  EXPECT_NEAR(d33[2], 18.0 / 27.0, 1e-15);
  EXPECT_NEAR(d33[3], 3.0 / 27.0, 1e-15);
  const auto d23 = max_load_distribution(2, 3);
  EXPECT_NEAR(d23[1], 0.0, 1e-15);
  EXPECT_NEAR(d23[2], 0.75, 1e-15);
  EXPECT_NEAR(d23[3], 0.25, 1e-15);
  EXPECT_NEAR(expected_max_load(2, 3), 2.25, 1e-14);
  // P(max = 1) is P(no collision), for a larger case too.
  const auto d88 = max_load_distribution(8, 8);
  EXPECT_NEAR(d88[1], p_no_collision(8, 8), 1e-14);
  EXPECT_NEAR(std::accumulate(d88.begin(), d88.end(), 0.0), 1.0, 1e-12);
  // All eight on one of 8 members; the value comes from a difference of CDF values near 1, so it
  // is exact only to about 1e-15 absolute.
  EXPECT_NEAR(d88[8], 8.0 / 16777216.0, 1e-14);
}

// One threshold alone: n = 3, k = 3 has P(max <= 1) = 6/27 and P(max <= 2) = 24/27 (the counts
// above); n = 2, k = 8: all 8 on one member in 2 of 256 placements, so P(max <= 7) = 254/256; the
// same values as the whole distribution's running sums, and 1 from m = k on.
TEST(Birthday, MaxLoadAtMostOneThreshold) {
  EXPECT_NEAR(p_max_load_at_most(3, 3, 1), 6.0 / 27.0, 1e-15);
  EXPECT_NEAR(p_max_load_at_most(3, 3, 2), 24.0 / 27.0, 1e-15);
  EXPECT_EQ(p_max_load_at_most(3, 3, 3), 1.0);
  EXPECT_NEAR(p_max_load_at_most(2, 8, 7), 254.0 / 256.0, 1e-14);  // near 1: exact to about 1e-15
  const auto d = max_load_distribution(4, 16);
  double below = 0;
  for (std::uint32_t m = 0; m < 16; ++m) {
    below += d[m];
    EXPECT_NEAR(p_max_load_at_most(4, 16, m), below, 1e-14) << m;
  }
}

// Repeated trials: 6 collisions in 6 trials at p = 1/2 is (1/2)^6 = 1/64; at least one of two is 3/4.
TEST(Birthday, CollisionsInTrials) {
  EXPECT_DOUBLE_EQ(binomial_pmf(6, 6, 0.5), 1.0 / 64.0);
  EXPECT_NEAR(binomial_pmf(6, 3, 0.5), 20.0 / 64.0, 1e-15);
  EXPECT_NEAR(binomial_at_least(2, 1, 0.5), 0.75, 1e-15);
  EXPECT_EQ(binomial_pmf(5, 0, 0.0), 1.0);
  EXPECT_EQ(binomial_pmf(5, 5, 1.0), 1.0);
}

}  // namespace
}  // namespace ct
