#include "sim/maxmin/max_min_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/rng.h"

namespace ct {
namespace {

std::vector<double> solve_all(const MaxMinSystem& s) {
  std::vector<double> rate(s.flow_count(), -1.0);
  MaxMinSolver solver;
  solver.solve_all(s, rate);
  return rate;
}

// One link of 12 shared by three flows of weights 1, 2, 3: level 12 / 6 = 2, rates 2, 4, 6
// ("twice the weight, twice the share").
TEST(MaxMinSolver, WeightsScaleTheShare) {
  MaxMinSystem s;
  const ConstraintId link = s.add_constraint(12.0);
  const ConstraintId path[] = {link};
  s.add_flow(path, 1.0);
  s.add_flow(path, 2.0);
  s.add_flow(path, 3.0);
  const std::vector<double> rate = solve_all(s);
  EXPECT_DOUBLE_EQ(rate[0], 2.0);
  EXPECT_DOUBLE_EQ(rate[1], 4.0);
  EXPECT_DOUBLE_EQ(rate[2], 6.0);
}

// Ties are broken by constraint id, and caps come after constraints at the same level. 40 links
// of 10 in a ring, flow i on links i and i + 1 (mod 40); flow 40 alone on a link of 100, capped at
// 5. Every ring link starts at level 10 / 2 = 5. Link 0 (least id) freezes flows 0 and 39 at 5
// (sequence 0); link 1 is left with R = 5, W = 1, level exactly 5 again and the least id, so it
// freezes flow 1 (sequence 1); and so on, link i freezing flow i (sequence i) up to link 38; link
// 39 is left with no flow. The cap of flow 40, at the same level 5, comes last (sequence 39).
// Every rate is exactly 5, 40 sequences used.
TEST(MaxMinSolver, EqualLevelsSaturateInIdOrderThenCaps) {
  MaxMinSystem s;
  constexpr std::uint32_t kRing = 40;
  for (std::uint32_t i = 0; i < kRing; ++i) s.add_constraint(10.0);
  const ConstraintId own = s.add_constraint(100.0);
  for (std::uint32_t i = 0; i < kRing; ++i) {
    const ConstraintId path[] = {ConstraintId(i), ConstraintId((i + 1) % kRing)};
    s.add_flow(path);
  }
  const ConstraintId capped[] = {own};
  s.add_flow(capped, 1.0, 5.0);
  std::vector<FlowId> all(s.flow_count());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = FlowId(i);
  std::vector<double> rate(s.flow_count(), -1.0);
  std::vector<std::uint64_t> seq(s.flow_count(), 99);
  MaxMinSolver solver;
  solver.solve(s, all, rate, seq);
  for (std::uint32_t i = 0; i <= kRing; ++i) EXPECT_EQ(rate[i], 5.0) << i;
  EXPECT_EQ(seq[0], 0u);
  EXPECT_EQ(seq[kRing - 1], 0u);
  for (std::uint32_t i = 1; i + 1 < kRing; ++i) EXPECT_EQ(seq[i], i) << i;
  EXPECT_EQ(seq[kRing], kRing - 1);
  EXPECT_EQ(solver.next_sequence(), kRing);
}

// Links X (10) and Y (4); flow a on X, b on X and Y, c on Y. Y saturates first at level 2
// (b = c = 2); a then takes what is left of X: 10 - 2 = 8. An equal split of X would give a 5.
TEST(MaxMinSolver, UpstreamBottleneckLeavesItsShareToOthers) {
  MaxMinSystem s;
  const ConstraintId x = s.add_constraint(10.0);
  const ConstraintId y = s.add_constraint(4.0);
  const ConstraintId pa[] = {x};
  const ConstraintId pb[] = {x, y};
  const ConstraintId pc[] = {y};
  s.add_flow(pa);
  s.add_flow(pb);
  s.add_flow(pc);
  const std::vector<double> rate = solve_all(s);
  EXPECT_DOUBLE_EQ(rate[0], 8.0);
  EXPECT_DOUBLE_EQ(rate[1], 2.0);
  EXPECT_DOUBLE_EQ(rate[2], 2.0);
}

// A link of 100 with flows capped at 10 and 30 and one uncapped: the caps bind first (level 10,
// then 30), the uncapped flow takes the rest, 100 - 10 - 30 = 60.
TEST(MaxMinSolver, RateCapsBindBeforeTheLink) {
  MaxMinSystem s;
  const ConstraintId link = s.add_constraint(100.0);
  const ConstraintId path[] = {link};
  s.add_flow(path, 1.0, 10.0);
  s.add_flow(path, 1.0, 30.0);
  s.add_flow(path);
  const std::vector<double> rate = solve_all(s);
  EXPECT_DOUBLE_EQ(rate[0], 10.0);
  EXPECT_DOUBLE_EQ(rate[1], 30.0);
  EXPECT_DOUBLE_EQ(rate[2], 60.0);
}

// A failed link (capacity 0) stalls its flow (rate 0), and that flow then takes nothing from the
// other link it crosses: the second flow there gets all of it, 50.
TEST(MaxMinSolver, FailedConstraintStallsItsFlows) {
  MaxMinSystem s;
  const ConstraintId dead = s.add_constraint(0.0);
  const ConstraintId shared = s.add_constraint(50.0);
  const ConstraintId p0[] = {shared, dead};
  const ConstraintId p1[] = {shared};
  s.add_flow(p0);
  s.add_flow(p1);
  const std::vector<double> rate = solve_all(s);
  EXPECT_EQ(rate[0], 0.0);
  EXPECT_DOUBLE_EQ(rate[1], 50.0);
}

// ---- randomized properties ----

MaxMinSystem random_system(Rng& rng) {
  MaxMinSystem s;
  const auto constraints = 2 + rng.uniform(40);
  for (std::uint64_t c = 0; c < constraints; ++c) {
    const bool failed = rng.uniform(25) == 0;
    s.add_constraint(failed ? 0.0 : 1e9 * static_cast<double>(1 + rng.uniform(400)));
  }
  const auto flows = 1 + rng.uniform(120);
  std::vector<ConstraintId> all(constraints);
  for (std::uint64_t c = 0; c < constraints; ++c) all[c] = ConstraintId(c);
  for (std::uint64_t f = 0; f < flows; ++f) {
    const auto hops = 1 + rng.uniform(std::min<std::uint64_t>(5, constraints));
    for (std::uint64_t h = 0; h < hops; ++h) std::swap(all[h], all[h + rng.uniform(constraints - h)]);
    const double weight = rng.uniform(3) == 0 ? 0.25 + 4.0 * rng.uniform01() : 1.0;
    const double cap = rng.uniform(5) == 0 ? 1e9 * static_cast<double>(1 + rng.uniform(100)) : kNoRateCap;
    s.add_flow(std::span<const ConstraintId>(all.data(), hops), weight, cap);
  }
  return s;
}

// Connected components of the flow/constraint graph (union-find over constraints), as lists of
// flows in increasing order.
std::vector<std::vector<FlowId>> components(const MaxMinSystem& s) {
  std::vector<std::uint32_t> parent(s.constraint_count());
  std::iota(parent.begin(), parent.end(), 0U);
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t f = 0; f < s.flow_count(); ++f) {
    const auto path = s.path(FlowId(f));
    for (const ConstraintId c : path) parent[find(c.value())] = find(path[0].value());
  }
  std::vector<std::vector<FlowId>> by_root(s.constraint_count());
  for (std::size_t f = 0; f < s.flow_count(); ++f) by_root[find(s.path(FlowId(f))[0].value())].push_back(FlowId(f));
  std::erase_if(by_root, [](const auto& v) { return v.empty(); });
  return by_root;
}

constexpr double kRel = 1e-9;

// For 300 random systems (failed links, weights, caps included):
//   feasibility: every constraint's allocated rate <= capacity (1 + 1e-9), every rate <= its cap;
//   optimality: every flow is at its cap or crosses a saturated constraint (load >= capacity
//   (1 - 1e-9)) on which its rate / weight is the largest (the max-min condition);
//   incrementality: solving each connected component alone gives bit-identical rates.
TEST(MaxMinSolver, RandomSystemsAreFeasibleMaxMinAndComponentLocal) {
  MaxMinSolver solver;
  for (std::uint64_t trial = 0; trial < 300; ++trial) {
    Rng rng(42, trial, 0);
    const MaxMinSystem s = random_system(rng);
    std::vector<double> rate(s.flow_count(), -1.0);
    solver.solve_all(s, rate);

    std::vector<double> load(s.constraint_count(), 0.0);
    std::vector<double> top_level(s.constraint_count(), 0.0);
    for (std::size_t f = 0; f < s.flow_count(); ++f) {
      ASSERT_GE(rate[f], 0.0);
      ASSERT_LE(rate[f], s.rate_cap[f] * (1 + kRel));
      for (const ConstraintId c : s.path(FlowId(f))) {
        load[c.value()] += rate[f];
        top_level[c.value()] = std::max(top_level[c.value()], rate[f] / s.weight[f]);
      }
    }
    for (std::size_t c = 0; c < s.constraint_count(); ++c) ASSERT_LE(load[c], s.capacity[c] * (1 + kRel)) << trial;
    for (std::size_t f = 0; f < s.flow_count(); ++f) {
      bool bottlenecked = rate[f] >= s.rate_cap[f] * (1 - kRel);
      for (const ConstraintId c : s.path(FlowId(f))) {
        const bool saturated = load[c.value()] >= s.capacity[c.value()] * (1 - kRel);
        bottlenecked |= saturated && rate[f] / s.weight[f] >= top_level[c.value()] * (1 - kRel);
      }
      ASSERT_TRUE(bottlenecked) << "trial " << trial << " flow " << f;
    }

    std::vector<double> piecewise(s.flow_count(), -1.0);
    for (const std::vector<FlowId>& component : components(s)) solver.solve(s, component, piecewise);
    for (std::size_t f = 0; f < s.flow_count(); ++f) ASSERT_EQ(piecewise[f], rate[f]) << trial;
  }
}

// A flow alone on links X (10, fraction 0.5) and Y (8, fraction 1), weight 2: the levels are
// 10 / (0.5 x 2) = 10 and 8 / 2 = 4, so Y freezes it at 2 x 4 = 8; with a cap of 6 (level 3 < 4) it
// stops at 6. alone_rate says so without a solve.
TEST(MaxMinSolver, AloneRateIsTheLeastLevelOrTheCap) {
  MaxMinSystem s;
  const ConstraintId x = s.add_constraint(10.0);
  const ConstraintId y = s.add_constraint(8.0);
  const ConstraintId path[] = {x, y};
  const double fractions[] = {0.5, 1.0};
  s.add_flow(path, 2.0, kNoRateCap, fractions);
  s.add_flow(path, 2.0, 6.0, fractions);
  EXPECT_EQ(MaxMinSolver::alone_rate(s, FlowId(0)), 8.0);
  EXPECT_EQ(MaxMinSolver::alone_rate(s, FlowId(1)), 6.0);
}

// Sparse random systems (many constraints, few flows, random fractions, weights and caps, some
// failed constraints): for every flow that is a connected component by itself, alone_rate equals
// the rate of the full solve bit for bit, so FlowRateSolver may take it instead of solving.
TEST(MaxMinSolver, AloneRateEqualsTheSolveBitForBit) {
  MaxMinSolver solver;
  std::size_t checked = 0;
  for (std::uint64_t trial = 0; trial < 200; ++trial) {
    Rng rng(43, trial, 0);
    MaxMinSystem s;
    const auto constraints = 20 + rng.uniform(200);
    for (std::uint64_t c = 0; c < constraints; ++c) {
      const bool failed = rng.uniform(40) == 0;
      s.add_constraint(failed ? 0.0 : 1e9 * (1.0 + 399.0 * rng.uniform01()));
    }
    std::vector<ConstraintId> all(constraints);
    for (std::uint64_t c = 0; c < constraints; ++c) all[c] = ConstraintId(c);
    const auto flows = 1 + rng.uniform(24);
    for (std::uint64_t f = 0; f < flows; ++f) {
      const auto hops = 1 + rng.uniform(5);
      std::vector<double> fractions(hops);
      for (std::uint64_t h = 0; h < hops; ++h) {
        std::swap(all[h], all[h + rng.uniform(constraints - h)]);
        fractions[h] = rng.uniform(2) == 0 ? 1.0 : 1.0 / static_cast<double>(1 + rng.uniform(8));
      }
      const double weight = rng.uniform(3) == 0 ? 0.25 + 4.0 * rng.uniform01() : 1.0;
      const double cap = rng.uniform(4) == 0 ? 1e9 * (1.0 + 100.0 * rng.uniform01()) : kNoRateCap;
      s.add_flow(std::span<const ConstraintId>(all.data(), hops), weight, cap, fractions);
    }
    std::vector<double> rate(s.flow_count(), -1.0);
    solver.solve_all(s, rate);
    for (const std::vector<FlowId>& component : components(s)) {
      if (component.size() != 1) continue;
      ASSERT_EQ(MaxMinSolver::alone_rate(s, component[0]), rate[component[0].value()]) << trial;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);   // the property was exercised, not vacuously true
}

// solve() freezes every flow in one event without its heap when the least (level, id) key is a
// constraint all the solved flows cross (max_min_solver.cpp, solve_in_one_event). Checked against
// the heap on random components: k flows crossing a shared constraint, some a second shared one,
// each a few private ones (random capacities, some failed; random weights, fractions and caps), so
// that the first event is sometimes the shared constraint and sometimes a private one or a cap.
// Solving the component with one more flow on a constraint of its own can never freeze every flow
// in the first event, so that solve takes the heap; by the component property its rates of the
// component are the same bits. Also: a one-event solve gives every flow one sequence number and
// uses one.
TEST(MaxMinSolver, OneEventSolvesEqualTheHeapBitForBit) {
  MaxMinSolver one, heap;
  std::size_t one_event = 0, more_events = 0;
  for (std::uint64_t trial = 0; trial < 2000; ++trial) {
    Rng rng(44, trial, 0);
    MaxMinSystem s;
    auto capacity = [&rng]() { return rng.uniform(30) == 0 ? 0.0 : 1e9 * (1.0 + 399.0 * rng.uniform01()); };
    const ConstraintId shared = s.add_constraint(capacity());
    const ConstraintId second = s.add_constraint(capacity());
    const auto k = 1 + rng.uniform(6);
    for (std::uint64_t f = 0; f < k; ++f) {
      std::vector<ConstraintId> path{shared};
      std::vector<double> fractions{rng.uniform(2) == 0 ? 1.0 : 1.0 / static_cast<double>(1 + rng.uniform(8))};
      if (rng.uniform(2) == 0) {
        path.push_back(second);
        fractions.push_back(rng.uniform(2) == 0 ? 1.0 : 0.5);
      }
      for (std::uint64_t p = rng.uniform(4); p > 0; --p) {
        path.push_back(s.add_constraint(capacity()));
        fractions.push_back(1.0);
      }
      const double weight = rng.uniform(3) == 0 ? 0.25 + 4.0 * rng.uniform01() : 1.0;
      const double cap = rng.uniform(4) == 0 ? 1e9 * (1.0 + 100.0 * rng.uniform01()) : kNoRateCap;
      s.add_flow(path, weight, cap, fractions);
    }
    const ConstraintId own = s.add_constraint(capacity());
    s.add_flow(std::span<const ConstraintId>(&own, 1));

    std::vector<FlowId> component(k);
    for (std::uint64_t f = 0; f < k; ++f) component[f] = FlowId(f);
    std::vector<FlowId> with_other = component;
    with_other.push_back(FlowId(k));
    std::vector<double> rate(s.flow_count(), -1.0), reference(s.flow_count(), -1.0);
    std::vector<std::uint64_t> seq(s.flow_count(), 0), reference_seq(s.flow_count(), 0);
    const std::uint64_t before = one.next_sequence();
    one.solve(s, component, rate, seq);
    const std::uint64_t heap_before = heap.next_sequence();
    heap.solve(s, with_other, reference, reference_seq);
    ASSERT_GT(heap.next_sequence() - heap_before, 1u) << trial;  // the extra flow's own event at least
    for (std::uint64_t f = 0; f < k; ++f) ASSERT_EQ(rate[f], reference[f]) << "trial " << trial << " flow " << f;
    // Did the heap freeze the whole component in its first event touching it?
    const bool together = std::all_of(component.begin(), component.end(),
                                      [&](FlowId f) { return reference_seq[f.value()] == reference_seq[0]; });
    if (one.next_sequence() - before == 1) {
      ++one_event;
      for (std::uint64_t f = 0; f < k; ++f) ASSERT_EQ(seq[f], before) << trial;
      ASSERT_TRUE(together) << trial;
    } else {
      ++more_events;
    }
  }
  EXPECT_GT(one_event, 500u);    // both paths were exercised, neither vacuously
  EXPECT_GT(more_events, 300u);
}

// Fractions are stored only once one is below 1: a system of plain paths keeps none (8 bytes a hop
// saved), and the first sprayed flow fills in the 1s of the hops before it. Two links of 10; flow
// 0 crosses both, flow 1 link 0 alone: level 5 on link 0. Flow 2 then crosses link 1 with a = 1/2:
// link 1 carries 5 + L/2 and link 0 still 10, so flow 2 gets 2 x 5 = 10. The rates of the same
// system solved with every fraction given explicitly are equal bit for bit.
TEST(MaxMinSystem, UnitFractionsAreNotStoredUntilOneIsBelowOne) {
  MaxMinSystem s;
  const ConstraintId a = s.add_constraint(10.0);
  const ConstraintId b = s.add_constraint(10.0);
  const ConstraintId both[] = {a, b};
  const ConstraintId only_a[] = {a};
  const ConstraintId only_b[] = {b};
  s.add_flow(both);
  s.begin_flow();
  s.add_hop(a);
  EXPECT_TRUE(s.path_fraction.empty());
  EXPECT_TRUE(s.fractions(FlowId(0)).empty());
  EXPECT_EQ(s.fraction_at(2), 1.0);
  const double half[] = {0.5};
  s.add_flow(only_b, 1.0, kNoRateCap, half);
  EXPECT_EQ(s.path_fraction, (std::vector<double>{1.0, 1.0, 1.0, 0.5}));
  ASSERT_EQ(s.fractions(FlowId(2)).size(), 1u);
  EXPECT_EQ(s.fractions(FlowId(2))[0], 0.5);

  MaxMinSystem explicit_ones;
  explicit_ones.add_constraint(10.0);
  explicit_ones.add_constraint(10.0);
  const double ones[] = {1.0, 1.0};
  explicit_ones.add_flow(both, 1.0, kNoRateCap, ones);
  explicit_ones.add_flow(only_a, 1.0, kNoRateCap, std::span<const double>(ones, 1));
  explicit_ones.add_flow(only_b, 1.0, kNoRateCap, half);
  EXPECT_EQ(explicit_ones.path_fraction, s.path_fraction);
  const std::vector<double> rate = solve_all(s);
  EXPECT_EQ(rate, (std::vector<double>{5.0, 5.0, 10.0}));
  EXPECT_EQ(rate, solve_all(explicit_ones));
}

// A solve of a million flows or more gives its working arrays back (kKeepWorkspace); the solver's
// next solves are those of a fresh one: the same rates, and sequences shifted by the first
// solve's events. Flows of two or three hops over 4,096 links with weights 1 to 3 and some caps,
// so that the heap re-keys many constraints per event.
TEST(MaxMinSolver, ALargeSolveLeavesTheNextOnesAsAFreshSolversAre) {
  MaxMinSystem s;
  constexpr std::uint32_t kLinks = 4096;
  for (std::uint32_t c = 0; c < kLinks; ++c) s.add_constraint(100.0 + c % 7);
  Rng rng(5, 0, 0);
  constexpr std::uint32_t kFlows = (1U << 20) + 3;
  for (std::uint32_t f = 0; f < kFlows; ++f) {
    const auto a = static_cast<std::uint32_t>(rng.uniform(kLinks));
    const auto b = (a + 1 + static_cast<std::uint32_t>(rng.uniform(kLinks - 1))) % kLinks;
    std::vector<ConstraintId> path{ConstraintId(a), ConstraintId(b)};
    const auto c = static_cast<std::uint32_t>(rng.uniform(kLinks));
    if (c != a && c != b && f % 3 == 0) path.push_back(ConstraintId(c));
    s.add_flow(path, 1.0 + static_cast<double>(f % 3), f % 11 == 0 ? 0.001 * (1 + f % 5) : kNoRateCap);
  }
  std::vector<FlowId> all;
  for (std::uint32_t f = 0; f < kFlows; ++f) all.push_back(FlowId(f));
  std::vector<double> rate(kFlows, -1.0);
  std::vector<std::uint64_t> seq(kFlows, 0);
  MaxMinSolver used;
  used.solve(s, all, rate, seq);
  const std::uint64_t shift = used.next_sequence();
  EXPECT_GT(shift, 1U);
  for (const std::uint32_t step : {1U, 97U, 1001U}) {
    std::vector<FlowId> some;
    for (std::uint32_t f = step - 1; f < kFlows; f += step) some.push_back(FlowId(f));
    std::vector<double> fresh_rate(kFlows, -1.0), used_rate(kFlows, -1.0);
    std::vector<std::uint64_t> fresh_seq(kFlows, 0), used_seq(kFlows, 0);
    MaxMinSolver fresh;
    const std::uint64_t before = used.next_sequence();
    fresh.solve(s, some, fresh_rate, fresh_seq);
    used.solve(s, some, used_rate, used_seq);
    for (const FlowId f : some) {
      ASSERT_EQ(used_rate[f.value()], fresh_rate[f.value()]) << "step " << step << " flow " << f.value();
      ASSERT_EQ(used_seq[f.value()], fresh_seq[f.value()] + before) << "step " << step << " flow " << f.value();
    }
    if (step == 1) {
      for (std::uint32_t f = 0; f < kFlows; ++f) ASSERT_EQ(used_rate[f], rate[f]);
    }
  }
}

}  // namespace
}  // namespace ct
