// FlowRateSolver::solve_single_paths (the Monte Carlo trial's entry point) and the split of plain
// paths into one-event components and MaxMinSolver::solve_unit: hand-worked on two_tier(2 leaves,
// 2 spines, 4 hosts per leaf), every link 400G, host h's NIC link h, leaf 8's uplinks links 8 and 9;
// then random plain routes against one heap solve of all sub-flows, bit for bit.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/flow_rates.h"
#include "core/rng.h"
#include "support/fabric_fixtures.h"
#include "support/flow_routes_builder.h"

namespace ct {
namespace {

using testing_support::add_subflow;
using testing_support::empty_routes;
using testing_support::up;

constexpr double kC = 400e9;

// Flows A and B cross NIC links 0, 1 and uplink 8: each gets C/2 = 200G (one event on link 8).
// Flow C alone on NIC link 2 and uplink 9: C. Flow D (NIC 3, uplink 9) did not arrive: 0, and it
// leaves link 9 to C. The throughputs are solve()'s of routes_of_paths's routes, the same bits.
TEST(FlowRatesPaths, HandWorkedPathsAsTheRoutesGiveThem) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  const std::vector<std::uint32_t> begin{0, 2, 4, 6, 8};
  const std::vector<std::uint32_t> links{up(0).first, up(8).first, up(1).first, up(8).first,
                                         up(2).first, up(9).first, up(3).first, up(9).first};
  const std::vector<std::uint8_t> reached{1, 1, 1, 0};
  FlowRateSolver solver(t);
  FlowRates out;
  solver.solve_single_paths(begin, links, reached, out);
  EXPECT_DOUBLE_EQ(out.subflow_rate[0], kC / 2);
  EXPECT_DOUBLE_EQ(out.subflow_rate[1], kC / 2);
  EXPECT_DOUBLE_EQ(out.subflow_rate[2], kC);
  EXPECT_EQ(out.subflow_rate[3], 0.0);
  EXPECT_EQ(out.throughput[3], 0.0);

  FlowRoutes r = empty_routes(4);
  add_subflow(r, 0, 0, 1.0, {up(0), up(8)});
  add_subflow(r, 1, 0, 1.0, {up(1), up(8)});
  add_subflow(r, 2, 0, 1.0, {up(2), up(9)});
  add_subflow(r, 3, 0, 1.0, {up(3), up(9)});
  r.reached[3] = 0;
  FlowRates reference;
  FlowRateSolver(t).solve(r, reference);
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(out.subflow_rate[f], reference.subflow_rate[f]) << f;
    EXPECT_EQ(out.throughput[f], reference.throughput[f]) << f;
  }
}

// Random plain routes (one sub-flow per flow, fraction 1, share 1) on two_tier(4, 4, 8) with
// random capacities (some 0, many equal, so levels tie): 1 to 90 flows, each on 1 to 5 distinct
// directed links of a pool of 4 to 64, some not arrived. The pool's size sweeps components from
// single flows to dozens (beyond kScanFlows, so the heap solve too) and from one event to many.
// solve() gives every sub-flow the rate of one heap solve of all arrived sub-flows (the component
// split and solve_unit change no bit), and solve_single_paths gives solve()'s rates and
// throughputs bit for bit. One solver of each kind is reused throughout.
TEST(FlowRatesPaths, RandomPlainRoutesEqualOneHeapSolveBitForBit) {
  Topology t = fixtures::two_tier(4, 4, 8);
  Rng capacities(46, 0, 0);
  for (auto& c : t.capacity) {
    const std::uint64_t kind = capacities.uniform(12);
    c = BitsPerSecond(kind == 0 ? 0 : kind < 6 ? 400'000'000'000 : kind < 9 ? 100'000'000'000
                                                                 : static_cast<std::int64_t>(1 + capacities.uniform(800'000'000'000)));
  }
  const auto directed = static_cast<std::uint32_t>(2 * t.link_count());
  FlowRateSolver solver(t), paths_solver(t);
  MaxMinSolver heap;
  std::size_t several = 0;  // trials with two or more arrived flows
  for (std::uint64_t trial = 0; trial < 1500; ++trial) {
    Rng rng(46, trial + 1, 0);
    const auto pool_size = static_cast<std::uint32_t>(4 + rng.uniform(61));
    std::vector<std::uint32_t> pool(directed);
    for (std::uint32_t l = 0; l < directed; ++l) pool[l] = l;
    for (std::uint32_t i = 0; i < pool_size; ++i) std::swap(pool[i], pool[i + rng.uniform(directed - i)]);
    const auto flows = static_cast<std::uint32_t>(1 + rng.uniform(90));
    FlowRoutes r = empty_routes(flows);
    std::vector<std::uint32_t> begin{0}, links;
    std::vector<std::uint8_t> reached(flows);
    MaxMinSystem reference_system;
    for (std::uint32_t l = 0; l < directed; ++l) {
      reference_system.add_constraint(static_cast<double>(t.capacity[l / 2].value()));
    }
    std::vector<FlowId> solved;
    for (std::uint32_t f = 0; f < flows; ++f) {
      const auto hops = static_cast<std::uint32_t>(1 + rng.uniform(std::min<std::uint32_t>(5, pool_size)));
      std::vector<std::uint32_t> choice(pool.begin(), pool.begin() + pool_size);
      r.start_subflow(f, 0, 1.0);
      std::vector<ConstraintId> path;
      for (std::uint32_t h = 0; h < hops; ++h) {
        std::swap(choice[h], choice[h + rng.uniform(pool_size - h)]);
        r.add(choice[h], 1.0);
        links.push_back(choice[h]);
        path.push_back(ConstraintId(choice[h]));
      }
      begin.push_back(static_cast<std::uint32_t>(links.size()));
      reached[f] = rng.uniform(10) == 0 ? 0 : 1;
      r.reached[f] = reached[f];
      reference_system.add_flow(path);
      if (reached[f] != 0) solved.push_back(FlowId(f));
    }
    std::vector<double> reference(flows, 0.0);
    heap.solve(reference_system, solved, reference);
    FlowRates by_routes, by_paths;
    solver.solve(r, by_routes);
    paths_solver.solve_single_paths(begin, links, reached, by_paths);
    for (std::uint32_t f = 0; f < flows; ++f) {
      ASSERT_EQ(by_routes.subflow_rate[f], reference[f]) << "trial " << trial << " flow " << f;
      ASSERT_EQ(by_paths.subflow_rate[f], by_routes.subflow_rate[f]) << "trial " << trial << " flow " << f;
      ASSERT_EQ(by_paths.throughput[f], by_routes.throughput[f]) << "trial " << trial << " flow " << f;
    }
    several += solved.size() > 1 ? 1 : 0;
  }
  EXPECT_GT(several, 1000u);
}

}  // namespace
}  // namespace ct
