// Max-min fair throughput with fractional crossings, worked by hand on two_tier(2 leaves,
// 2 spines, 4 hosts per leaf): every link 400G; host h's NIC link is link h; leaf 8's uplinks are
// links 8 (to spine 10) and 9 (to spine 11).
#include <gtest/gtest.h>

#include "analysis/flow_rates.h"
#include "support/fabric_fixtures.h"
#include "support/flow_routes_builder.h"

namespace ct {
namespace {

using testing_support::add_subflow;
using testing_support::empty_routes;
using testing_support::up;

constexpr double kC = 400e9;

// Flows A and B both cross uplink 8 (up): each gets C/2 = 200G. Flow C alone on uplink 9: 400G.
TEST(FlowRates, TwoFlowsShareOneLink) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes r = empty_routes(3);
  for (std::uint32_t f = 0; f < 3; ++f) add_subflow(r, f, 0, 1.0, {up(f), up(f < 2 ? 8 : 9)});
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
  FlowRoutes r = empty_routes(2);
  add_subflow(r, 0, 0, 1.0, {up(0), up(8, 0.5), up(9, 0.5)});
  add_subflow(r, 1, 0, 1.0, {up(1), up(8)});
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
  FlowRoutes r = empty_routes(2);
  add_subflow(r, 0, 0, 0.5, {up(0), up(8)});
  add_subflow(r, 0, 0, 0.5, {up(0), up(9)});
  add_subflow(r, 1, 0, 1.0, {up(1), up(9)});
  const FlowRates x = solve_flow_rates(r, t);
  EXPECT_DOUBLE_EQ(x.throughput[0], kC);
  EXPECT_DOUBLE_EQ(x.throughput[1], kC / 2);

  FlowRoutes e = empty_routes(2, 2);
  add_subflow(e, 0, 0, 1.0, {up(8)});  // epoch 0: alone on uplink 8
  add_subflow(e, 0, 1, 1.0, {up(9)});  // epoch 1: shares uplink 9 with flow 1
  add_subflow(e, 1, 0, 1.0, {up(9)});
  add_subflow(e, 1, 1, 1.0, {up(9)});
  const FlowRates y = solve_flow_rates(e, t);
  EXPECT_NEAR(y.throughput[0], 2 * kC / 3, 1.0);
  EXPECT_NEAR(y.throughput[1], 2 / (1 / kC + 2 / kC), 1.0);
}

// n flows, each on its NIC link and uplink 8: C / n each.
FlowRoutes sharing_uplink_8(std::uint32_t n) {
  FlowRoutes r = empty_routes(n);
  for (std::uint32_t f = 0; f < n; ++f) add_subflow(r, f, 0, 1.0, {up(f), up(8)});
  return r;
}

// One FlowRateSolver reused over systems that grow, shrink and change epochs gives every time the
// bits a fresh solver gives: nothing of a previous solve leaks into the next (the Monte Carlo
// reuses one per thread). The rates themselves are the hand-worked ones above.
TEST(FlowRates, AReusedSolverForgetsThePreviousSolve) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes epochs = empty_routes(2, 2);  // flow 0 alone on 8, then with flow 1 on 9: 2C/3
  add_subflow(epochs, 0, 0, 1.0, {up(8)});
  add_subflow(epochs, 0, 1, 1.0, {up(9)});
  add_subflow(epochs, 1, 0, 1.0, {up(9)});
  add_subflow(epochs, 1, 1, 1.0, {up(9)});
  FlowRateSolver solver(t);
  FlowRates x;
  const FlowRoutes sequence[] = {sharing_uplink_8(4), sharing_uplink_8(2), epochs, sharing_uplink_8(3),
                                 sharing_uplink_8(1)};
  for (const FlowRoutes& r : sequence) {
    solver.solve(r, x);
    const FlowRates fresh = solve_flow_rates(r, t);
    EXPECT_EQ(x.subflow_rate, fresh.subflow_rate);
    EXPECT_EQ(x.throughput, fresh.throughput);
    if (r.epochs == 1) {
      for (double thr : x.throughput) EXPECT_DOUBLE_EQ(thr, kC / r.flow_count);
    } else {
      EXPECT_NEAR(x.throughput[0], 2 * kC / 3, 1.0);
    }
  }
  EXPECT_DOUBLE_EQ(x.throughput[0], kC);  // the last: one flow alone
}

// A flow that does not reach its destination gets 0 and leaves the link to the others: flows 0 and
// 1 on uplink 8, flow 1 unreached, so flow 0 has the whole C.
TEST(FlowRates, UnreachedFlowsTakeNoShare) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  FlowRoutes r = sharing_uplink_8(2);
  r.reached[1] = 0;
  const FlowRates x = solve_flow_rates(r, t);
  EXPECT_DOUBLE_EQ(x.throughput[0], kC);
  EXPECT_EQ(x.throughput[1], 0.0);
  EXPECT_EQ(x.subflow_rate[1], 0.0);
}

}  // namespace
}  // namespace ct
