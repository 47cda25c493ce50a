// Monte Carlo of per-flow ECMP against the balls-into-bins closed forms, with fixed seeds and
// tolerances of 4 standard errors (a correct model fails with probability ~6e-5 per check).
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/birthday.h"
#include "analysis/ecmp_monte_carlo.h"
#include "support/ecmp_test_support.h"
#include "support/fabric_fixtures.h"

namespace ct {
namespace {

using testing_support::EcmpFabric;

std::vector<RouteRequest> pairs(const EcmpFabric& f, std::uint32_t count, std::uint32_t offset) {
  std::vector<RouteRequest> r;
  for (std::uint32_t i = 0; i < count; ++i) r.push_back(f.request(i, offset + i, 0));
  return r;
}

// System: two_tier(2 leaves, 2 spines, 4 hosts per leaf), one cable per pair, 400G links. Flows
// host0 -> host4 and host1 -> host5: both enter leaf 8's 2-way up group (k = 2, n = 2).
// Expected by hand: P(collision) = 1 - 2!/(0! 2^2) = 1/2; E[idle uplinks] = 2 (1/2)^2 = 1/2;
// P(busiest = 2) = 1/2; a collision also puts both on the same spine's single cable down, so the
// slowest flow gets C/2 then and C otherwise: E[slowest] = C (1/2 + 1/4) = 0.75 x 400G = 300G.
TEST(EcmpMonteCarlo, TwoFlowsOnTwoUplinksCollideHalfTheTime) {
  for (HashAlgorithm a : {HashAlgorithm::kCrc32, HashAlgorithm::kRandom}) {
    const EcmpFabric f(fixtures::two_tier(2, 2, 4), testing_support::config(a, SeedMode::kSame));
    const std::vector<RouteRequest> flows = pairs(f, 2, 4);
    const DecisionCoupling coupling(*f.walker, flows, 3, 64);
    constexpr std::uint32_t kTrials = 20000;
    const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {kTrials, 11, 2});
    ASSERT_EQ(r.closed.groups.size(), 1u);
    EXPECT_EQ(r.closed.groups[0], std::make_pair(2u, 2u));
    EXPECT_DOUBLE_EQ(r.closed.p_collision, 0.5);
    EXPECT_DOUBLE_EQ(r.closed.expected_idle, 0.5);
    ASSERT_EQ(r.closed.busiest_pmf.size(), 3u);
    EXPECT_DOUBLE_EQ(r.closed.busiest_pmf[2], 0.5);
    ASSERT_TRUE(r.closed.slowest_applicable);
    EXPECT_DOUBLE_EQ(r.closed.expected_slowest, 300e9);
    const double se = std::sqrt(0.25 / kTrials);
    EXPECT_NEAR(r.p_first_collision, 0.5, 4 * se) << hash_algorithm_name(a);
    EXPECT_NEAR(r.mean_idle, 0.5, 4 * r.se_idle);
    EXPECT_NEAR(r.mean_slowest, 300e9, 4 * r.se_slowest);
    EXPECT_NEAR(r.mean_busiest, r.closed.expected_busiest, 4 * r.se_busiest);
    // Every collision here is the two flows meeting by chance at the leaf (then again on the
    // spine's one down cable, which is no choice): bad luck, never polarization.
    EXPECT_EQ(r.trials_with_cause[static_cast<int>(CollisionCause::kPolarization)], 0u);
    EXPECT_EQ(r.trials_with_cause[static_cast<int>(CollisionCause::kMissingEntropy)], 0u);
  }
}

// System: two_tier(2 leaves, 8 spines, 8 hosts per leaf); 8 flows host i -> host 8+i enter leaf
// 16's 8-way up group. Expected: P(collision) = 1 - 8!/8^8 = 0.997597; E[idle] = 8 (7/8)^8 = 2.7487.
TEST(EcmpMonteCarlo, EightFlowsOnEightUplinks) {
  const EcmpFabric f(fixtures::two_tier(2, 8, 8), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kPerSwitch));
  const std::vector<RouteRequest> flows = pairs(f, 8, 8);
  const DecisionCoupling coupling(*f.walker, flows, 3, 64);
  constexpr std::uint32_t kTrials = 20000;
  const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {kTrials, 5, 2});
  const double p = 1.0 - 40320.0 / 16777216.0;
  EXPECT_NEAR(r.closed.p_collision, p, 1e-12);
  EXPECT_NEAR(r.closed.expected_idle, 8 * std::pow(7.0 / 8.0, 8), 1e-12);
  EXPECT_NEAR(r.p_first_collision, p, 4 * std::sqrt(p * (1 - p) / kTrials));
  EXPECT_NEAR(r.mean_idle, r.closed.expected_idle, 4 * r.se_idle);
  EXPECT_NEAR(r.mean_busiest, r.closed.expected_busiest, 4 * r.se_busiest);
  // The busiest-uplink histogram follows the exact max-load distribution: P(busiest = 2) is the
  // most likely value; check it within 4 standard errors.
  const double p2 = r.closed.busiest_pmf[2];
  const double got2 = static_cast<double>(r.busiest_histogram.at(2)) / kTrials;
  EXPECT_NEAR(got2, p2, 4 * std::sqrt(p2 * (1 - p2) / kTrials));
}

// The result does not depend on the thread count: 1 and 4 threads give identical trials.
TEST(EcmpMonteCarlo, IdenticalForAnyThreadCount) {
  const EcmpFabric f(fixtures::fat_tree_4(), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  const std::vector<RouteRequest> flows = {f.request(0, 4, 0), f.request(1, 12, 0), f.request(2, 5, 0)};
  const DecisionCoupling coupling(*f.walker, flows, 3, 64);
  const MonteCarloResult one = run_ecmp_monte_carlo(*f.walker, flows, coupling, {997, 42, 1});
  const MonteCarloResult four = run_ecmp_monte_carlo(*f.walker, flows, coupling, {997, 42, 4});
  ASSERT_EQ(one.outcomes.size(), four.outcomes.size());
  for (std::size_t t = 0; t < one.outcomes.size(); ++t) {
    EXPECT_EQ(one.outcomes[t].busiest_first, four.outcomes[t].busiest_first);
    EXPECT_EQ(one.outcomes[t].idle_first, four.outcomes[t].idle_first);
    EXPECT_EQ(one.outcomes[t].slowest, four.outcomes[t].slowest);
    EXPECT_EQ(one.outcomes[t].causes, four.outcomes[t].causes);
  }
  EXPECT_EQ(one.p_any_collision, four.p_any_collision);
  EXPECT_EQ(one.mean_slowest, four.mean_slowest);
  EXPECT_EQ(one.stage_links_used, four.stage_links_used);
  EXPECT_EQ(one.busiest_histogram, four.busiest_histogram);
}

// Six collisions in six independent trials at p = 1/2 has probability (1/2)^6 = 1/64. System as in
// the first test; 4,000 blocks of 6 consecutive trials: expected 4000/64 = 62.5 blocks in which
// every trial collides, within 4 binomial standard errors; this also checks that trials are
// independent (correlated trials would make all-collide blocks far more common).
TEST(EcmpMonteCarlo, SixOfSixIsOneIn64) {
  const EcmpFabric f(fixtures::two_tier(2, 2, 4), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  const std::vector<RouteRequest> flows = pairs(f, 2, 4);
  const DecisionCoupling coupling(*f.walker, flows, 3, 64);
  constexpr std::uint32_t kBlocks = 4000;
  const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {6 * kBlocks, 2024, 2});
  std::uint32_t all_six = 0;
  for (std::uint32_t b = 0; b < kBlocks; ++b) {
    bool all = true;
    for (std::uint32_t t = 0; t < 6; ++t) all = all && r.outcomes[6 * b + t].first_collision;
    all_six += all ? 1 : 0;
  }
  const double p = binomial_at_least(6, 6, 0.5);
  EXPECT_DOUBLE_EQ(p, 1.0 / 64);
  EXPECT_NEAR(all_six, kBlocks * p, 4 * std::sqrt(kBlocks * p * (1 - p)));
}

}  // namespace
}  // namespace ct
