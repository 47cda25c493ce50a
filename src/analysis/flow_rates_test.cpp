// Max-min fair throughput with fractional crossings, worked by hand on two_tier(2 leaves,
// 2 spines, 4 hosts per leaf): every link 400G; leaf 8 uplinks 8 (spine 10), 9 (spine 11).
#include <gtest/gtest.h>

#include "analysis/flow_rates.h"
#include "routing/fabric_fixtures.h"
#include "routing/path_walker.h"

namespace ct {
namespace {

constexpr double kC = 400e9;

// Flows A and B both cross uplink 8 (up): each gets C/2 = 200G. Flow C alone on uplink 9: 400G.
TEST(FlowRates, TwoFlowsShareOneLink) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes r;
  r.flow_count = 3;
  r.reached = {1, 1, 1};
  for (std::uint32_t f = 0; f < 3; ++f) {
    r.start_subflow(f, 0, 1.0);
    r.add(directed_link(LinkId(f), true), 1.0);  // its own NIC link
    r.add(directed_link(LinkId(f < 2 ? 8u : 9u), true), 1.0);
  }
  const FlowRates x = solve_flow_rates(r, t);
  EXPECT_DOUBLE_EQ(x.throughput[0], kC / 2);
  EXPECT_DOUBLE_EQ(x.throughput[1], kC / 2);
  EXPECT_DOUBLE_EQ(x.throughput[2], kC);
}

// Flow S is sprayed: half on uplink 8, half on 9. Flow H is hashed onto uplink 8. Level L for both:
// link 8 carries 0.5 L + L = C at L = 2C/3; link 9 carries 0.5 L (not tight); the NIC links carry L
// (tight at C, later). So both freeze at 2C/3 = 266.7G.
TEST(FlowRates, SprayedFractionsShareByCoefficient) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes r;
  r.flow_count = 2;
  r.reached = {1, 1};
  r.start_subflow(0, 0, 1.0);
  r.add(directed_link(LinkId(0u), true), 1.0);
  r.add(directed_link(LinkId(8u), true), 0.5);
  r.add(directed_link(LinkId(9u), true), 0.5);
  r.start_subflow(1, 0, 1.0);
  r.add(directed_link(LinkId(1u), true), 1.0);
  r.add(directed_link(LinkId(8u), true), 1.0);
  const FlowRates x = solve_flow_rates(r, t);
  EXPECT_NEAR(x.throughput[0], 2 * kC / 3, 1.0);
  EXPECT_NEAR(x.throughput[1], 2 * kC / 3, 1.0);
}

// One flow in two QPs of share 1/2 each: QP0 alone on uplink 8, QP1 on uplink 9 with another flow
// F. QP1 and F get C/2 each; QP0 is limited by the NIC link both QPs share (C - C/2 = C/2). The flow
// finishes when its slower half does: min(r/share) = (C/2)/(1/2) = C.
// Flowlets: a flow with 2 epochs at C and C/2 has throughput 2 / (1/C + 2/C) = 2C/3.
TEST(FlowRates, SharesAndEpochs) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes r;
  r.flow_count = 2;
  r.reached = {1, 1};
  r.start_subflow(0, 0, 0.5);
  r.add(directed_link(LinkId(0u), true), 1.0);
  r.add(directed_link(LinkId(8u), true), 1.0);
  r.start_subflow(0, 0, 0.5);
  r.add(directed_link(LinkId(0u), true), 1.0);
  r.add(directed_link(LinkId(9u), true), 1.0);
  r.start_subflow(1, 0, 1.0);
  r.add(directed_link(LinkId(1u), true), 1.0);
  r.add(directed_link(LinkId(9u), true), 1.0);
  const FlowRates x = solve_flow_rates(r, t);
  EXPECT_DOUBLE_EQ(x.throughput[0], kC);
  EXPECT_DOUBLE_EQ(x.throughput[1], kC / 2);

  FlowRoutes e;
  e.flow_count = 2;
  e.epochs = 2;
  e.reached = {1, 1};
  e.start_subflow(0, 0, 1.0);  // epoch 0: alone on uplink 8
  e.add(directed_link(LinkId(8u), true), 1.0);
  e.start_subflow(0, 1, 1.0);  // epoch 1: shares uplink 9 with flow 1
  e.add(directed_link(LinkId(9u), true), 1.0);
  e.start_subflow(1, 0, 1.0);
  e.add(directed_link(LinkId(9u), true), 1.0);
  e.start_subflow(1, 1, 1.0);
  e.add(directed_link(LinkId(9u), true), 1.0);
  const FlowRates y = solve_flow_rates(e, t);
  EXPECT_NEAR(y.throughput[0], 2 * kC / 3, 1.0);
  EXPECT_NEAR(y.throughput[1], 2 / (1 / kC + 2 / kC), 1.0);
}

// One FlowRateSolver reused over systems that grow, shrink and change epochs gives every time the
// bits a fresh solver gives: nothing of a previous solve leaks into the next (the Monte Carlo
// reuses one per thread). The rates themselves are the hand-worked ones above.
TEST(FlowRates, AReusedSolverForgetsThePreviousSolve) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  auto shared = [](std::uint32_t flows) {  // `flows` flows, each on its NIC link and uplink 8
    FlowRoutes r;
    r.flow_count = flows;
    r.reached.assign(flows, 1);
    for (std::uint32_t f = 0; f < flows; ++f) {
      r.start_subflow(f, 0, 1.0);
      r.add(directed_link(LinkId(f), true), 1.0);
      r.add(directed_link(LinkId(8u), true), 1.0);
    }
    return r;
  };
  FlowRoutes epochs;  // flow 0 alone on 8 then with flow 1 on 9: 2C/3 (SharesAndEpochs)
  epochs.flow_count = 2;
  epochs.epochs = 2;
  epochs.reached = {1, 1};
  for (std::uint32_t f = 0; f < 2; ++f) {
    for (std::uint32_t e = 0; e < 2; ++e) {
      epochs.start_subflow(f, e, 1.0);
      epochs.add(directed_link(LinkId(f == 0 && e == 0 ? 8u : 9u), true), 1.0);
    }
  }
  FlowRateSolver solver(t);
  FlowRates x;
  const FlowRoutes sequence[] = {shared(4), shared(2), epochs, shared(3), shared(1)};
  for (const FlowRoutes& r : sequence) {
    solver.solve(r, x);
    const FlowRates fresh = solve_flow_rates(r, t);
    EXPECT_EQ(x.subflow_rate, fresh.subflow_rate);
    EXPECT_EQ(x.throughput, fresh.throughput);
    if (r.epochs == 1) {  // n flows on one uplink: C / n each
      for (double thr : x.throughput) EXPECT_DOUBLE_EQ(thr, kC / r.flow_count);
    }
  }
  EXPECT_NEAR(x.throughput[0], kC, 1.0);  // the last: one flow alone
}

// A flow that does not reach its destination gets 0 and leaves the link to the others: flows 0 and
// 1 on uplink 8, flow 1 unreached, so flow 0 has the whole C.
TEST(FlowRates, UnreachedFlowsTakeNoShare) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes r;
  r.flow_count = 2;
  r.reached = {1, 0};
  for (std::uint32_t f = 0; f < 2; ++f) {
    r.start_subflow(f, 0, 1.0);
    r.add(directed_link(LinkId(f), true), 1.0);
    r.add(directed_link(LinkId(8u), true), 1.0);
  }
  const FlowRates x = solve_flow_rates(r, t);
  EXPECT_DOUBLE_EQ(x.throughput[0], kC);
  EXPECT_EQ(x.throughput[1], 0.0);
  EXPECT_EQ(x.subflow_rate[1], 0.0);
}

}  // namespace
}  // namespace ct
