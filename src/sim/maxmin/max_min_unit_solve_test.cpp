// MaxMinSolver::solve_unit, the scan entry point for flows of weight 1 without caps on plain paths:
// hand-worked systems, then random ones against solve() bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rng.h"
#include "sim/maxmin/max_min_solver.h"

namespace ct {
namespace {

std::vector<FlowId> all_flows(const MaxMinSystem& s) {
  std::vector<FlowId> all(s.flow_count());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = FlowId(i);
  return all;
}

// Links X (10) and Y (4); flow a on X, b on X and Y, c on Y. Levels: X 10 / 2 = 5, Y 4 / 2 = 2.
// Event 0 is Y at 2: b = c = 2, and X keeps R = 10 - 2 = 8 for a alone. Event 1 is X at 8 / 1:
// a = 8. Two sequence numbers used.
TEST(MaxMinUnitSolve, UpstreamBottleneckLeavesItsShareToOthers) {
  MaxMinSystem s;
  const ConstraintId x = s.add_constraint(10.0);
  const ConstraintId y = s.add_constraint(4.0);
  const ConstraintId pa[] = {x};
  const ConstraintId pb[] = {x, y};
  const ConstraintId pc[] = {y};
  s.add_flow(pa);
  s.add_flow(pb);
  s.add_flow(pc);
  std::vector<double> rate(3, -1.0);
  std::vector<std::uint64_t> seq(3, 99);
  MaxMinSolver solver;
  solver.solve_unit(s, all_flows(s), rate, seq);
  EXPECT_EQ(rate[0], 8.0);
  EXPECT_EQ(rate[1], 2.0);
  EXPECT_EQ(rate[2], 2.0);
  EXPECT_EQ(seq[0], 1u);
  EXPECT_EQ(seq[1], 0u);
  EXPECT_EQ(seq[2], 0u);
  EXPECT_EQ(solver.next_sequence(), 2u);
}

// Equal levels go to the lower constraint id. 12 links of 10 in a ring, flow i on links i and
// i + 1 (mod 12): every link starts at 10 / 2 = 5. Link 0 freezes flows 0 and 11 at 5 (sequence
// 0); link 1 is left with R = 5 for flow 1 alone, level 5 again and now the least id, so it
// freezes flow 1 (sequence 1); and so on up to link 10 freezing flow 10. All rates exactly 5,
// 11 sequence numbers.
TEST(MaxMinUnitSolve, EqualLevelsSaturateInIdOrder) {
  MaxMinSystem s;
  constexpr std::uint32_t kRing = 12;
  for (std::uint32_t i = 0; i < kRing; ++i) s.add_constraint(10.0);
  for (std::uint32_t i = 0; i < kRing; ++i) {
    const ConstraintId path[] = {ConstraintId((i + 1) % kRing), ConstraintId(i)};
    s.add_flow(path);
  }
  std::vector<double> rate(kRing, -1.0);
  std::vector<std::uint64_t> seq(kRing, 99);
  MaxMinSolver solver;
  solver.solve_unit(s, all_flows(s), rate, seq);
  for (std::uint32_t i = 0; i < kRing; ++i) EXPECT_EQ(rate[i], 5.0) << i;
  EXPECT_EQ(seq[0], 0u);
  EXPECT_EQ(seq[kRing - 1], 0u);
  for (std::uint32_t i = 1; i + 1 < kRing; ++i) EXPECT_EQ(seq[i], i) << i;
  EXPECT_EQ(solver.next_sequence(), kRing - 1);
}

// A failed link (capacity 0) stalls its flow at 0, which then takes nothing from the link of 50
// it shares: the other flow there gets all 50. Three flows on one link of 30 share it, 10 each, in
// one event.
TEST(MaxMinUnitSolve, FailedLinkStallsAndOneLinkSplitsEvenly) {
  MaxMinSystem s;
  const ConstraintId dead = s.add_constraint(0.0);
  const ConstraintId shared = s.add_constraint(50.0);
  const ConstraintId three = s.add_constraint(30.0);
  const ConstraintId p0[] = {shared, dead};
  const ConstraintId p1[] = {shared};
  const ConstraintId p2[] = {three};
  s.add_flow(p0);
  s.add_flow(p1);
  for (int i = 0; i < 3; ++i) s.add_flow(p2);
  std::vector<double> rate(s.flow_count(), -1.0);
  MaxMinSolver solver;
  const std::vector<FlowId> first{FlowId(0), FlowId(1)};
  solver.solve_unit(s, first, rate);
  EXPECT_EQ(rate[0], 0.0);
  EXPECT_EQ(rate[1], 50.0);
  EXPECT_EQ(solver.next_sequence(), 2u);
  const std::vector<FlowId> second{FlowId(2), FlowId(3), FlowId(4)};
  solver.solve_unit(s, second, rate);
  for (int i = 2; i < 5; ++i) EXPECT_EQ(rate[i], 10.0) << i;
  EXPECT_EQ(solver.next_sequence(), 3u);
  solver.solve_unit(s, {}, rate);  // nothing to solve: no event
  EXPECT_EQ(solver.next_sequence(), 3u);
}

// Random unit systems (weight 1, no cap, fraction 1): capacities drawn from a few values so that
// levels tie often, some failed; a random subset of the flows solved (ascending), from 1 to 60
// flows on up to 6 hops. solve_unit gives solve()'s rates and sequence numbers bit for bit, and
// uses as many sequence numbers; the solver is reused across systems of different sizes.
TEST(MaxMinUnitSolve, RandomUnitSystemsEqualTheHeapBitForBit) {
  MaxMinSolver unit, heap;
  std::size_t multi_event = 0;
  for (std::uint64_t trial = 0; trial < 3000; ++trial) {
    Rng rng(45, trial, 0);
    MaxMinSystem s;
    const auto constraints = 2 + rng.uniform(trial % 3 == 0 ? 200 : 24);
    for (std::uint64_t c = 0; c < constraints; ++c) {
      const std::uint64_t kind = rng.uniform(20);
      s.add_constraint(kind == 0 ? 0.0 : kind < 10 ? 4e11 : kind < 15 ? 8e11 : 1e9 * (1.0 + 799.0 * rng.uniform01()));
    }
    std::vector<ConstraintId> all(constraints);
    for (std::uint64_t c = 0; c < constraints; ++c) all[c] = ConstraintId(c);
    const auto flows = 1 + rng.uniform(60);
    for (std::uint64_t f = 0; f < flows; ++f) {
      const auto hops = 1 + rng.uniform(std::min<std::uint64_t>(6, constraints));
      for (std::uint64_t h = 0; h < hops; ++h) std::swap(all[h], all[h + rng.uniform(constraints - h)]);
      s.add_flow(std::span<const ConstraintId>(all.data(), hops));
    }
    std::vector<FlowId> solved;
    for (std::uint32_t f = 0; f < s.flow_count(); ++f) {
      if (rng.uniform(4) != 0) solved.push_back(FlowId(f));
    }
    if (solved.empty()) solved.push_back(FlowId(0));
    std::vector<double> rate(s.flow_count(), -1.0), reference(s.flow_count(), -1.0);
    std::vector<std::uint64_t> seq(s.flow_count(), 0), reference_seq(s.flow_count(), 0);
    const std::uint64_t unit_before = unit.next_sequence();
    const std::uint64_t heap_before = heap.next_sequence();
    unit.solve_unit(s, solved, rate, seq);
    heap.solve(s, solved, reference, reference_seq);
    ASSERT_EQ(unit.next_sequence() - unit_before, heap.next_sequence() - heap_before) << trial;
    for (const FlowId f : solved) {
      ASSERT_EQ(rate[f.value()], reference[f.value()]) << "trial " << trial << " flow " << f.value();
      ASSERT_EQ(seq[f.value()] - unit_before, reference_seq[f.value()] - heap_before) << trial;
    }
    for (std::uint32_t f = 0; f < s.flow_count(); ++f) ASSERT_EQ(rate[f], reference[f]) << trial;  // others untouched
    multi_event += unit.next_sequence() - unit_before > 1 ? 1 : 0;
  }
  EXPECT_GT(multi_event, 1000u);  // the scan's later events were exercised, not only the first
}

}  // namespace
}  // namespace ct
