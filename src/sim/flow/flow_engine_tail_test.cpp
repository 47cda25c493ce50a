// Hand-computed tests of the engine's fractions, timers, moved flows, load statistics, and of the
// departure-only re-solve (flow_engine.h). 1 GB = 8e9 bits: 80 ms at 100 Gb/s.
#include <gtest/gtest.h>

#include <vector>

#include "core/rng.h"
#include "sim/flow/flow_engine.h"

namespace ct {
namespace {

constexpr Bytes kGB{1'000'000'000};
constexpr TimePs ms(std::int64_t v) { return TimePs(v * 1'000'000'000); }

FlowRequest on(std::span<const ConstraintId> path, Bytes size, std::span<const double> fraction = {}) {
  FlowRequest r;
  r.path = path;
  r.fraction = fraction;
  r.size = size;
  return r;
}

// A sprayed flow s puts half its rate on A and half on B (100 Gb/s each); flow a uses A alone.
// Filling: A carries L + L/2 and saturates at L = 66.67 Gb/s, freezing both; B then carries
// 33.3 Gb/s and has room to spare, which s cannot use (A binds it). Both send 1 GB: 120 ms.
TEST(FlowEngineFractions, SprayedFlowIsBoundByItsBusiestMember) {
  FlowEngine e;
  const ConstraintId a = e.add_constraint(gbps(100));
  const ConstraintId b = e.add_constraint(gbps(100));
  const ConstraintId both[] = {a, b};
  const double halves[] = {0.5, 0.5};
  const ConstraintId only_a[] = {a};
  const FlowId sprayed = e.add_flow(on(both, kGB, halves));
  const FlowId plain = e.add_flow(on(only_a, kGB));
  e.run(TimePs(0));
  EXPECT_DOUBLE_EQ(e.rate(sprayed), 200e9 / 3);
  EXPECT_DOUBLE_EQ(e.rate(plain), 200e9 / 3);
  EXPECT_DOUBLE_EQ(e.load(a), 100e9);
  EXPECT_DOUBLE_EQ(e.load(b), 100e9 / 3);
  e.run();
  EXPECT_EQ(e.last_byte_time(sprayed), ms(120));
  EXPECT_EQ(e.last_byte_time(plain), ms(120));
}

// Departures re-solve only what was frozen at or after them. k = 6 small flows g_i (1 GB) each
// alone on its own 100 Gb/s link Y_i, and two large flows f1, f2 (10 GB) sharing X (100 Gb/s);
// every flow also crosses Z (10 Tb/s, never full), so all 8 form one component. Levels: X
// saturates at 50 (f1, f2 frozen first), each Y_i at 100 (g_i last). The g_i end together at
// 80 ms; they were frozen after f1 and f2, so nothing is re-solved (the full reference re-solves
// f1 and f2). f1 and f2 end together at 10 GB / 50 Gb/s = 1.6 s, leaving nothing. Solved flows:
// 8 (the start) against 8 + 2.
TEST(FlowEngineTail, DeparturesFrozenLastReSolveNothing) {
  FlowEngine incremental;
  FlowEngine full(FlowEngine::Options{.incremental = false});
  for (FlowEngine* e : {&incremental, &full}) {
    const ConstraintId z = e->add_constraint(gbps(10'000));
    const ConstraintId x = e->add_constraint(gbps(100));
    for (int i = 0; i < 2; ++i) {
      const ConstraintId path[] = {x, z};
      e->add_flow(on(path, Bytes(10'000'000'000)));
    }
    for (int i = 0; i < 6; ++i) {
      const ConstraintId path[] = {e->add_constraint(gbps(100)), z};
      e->add_flow(on(path, kGB));
    }
    e->run();
  }
  EXPECT_EQ(incremental.solved_flows(), 8U);
  EXPECT_EQ(full.solved_flows(), 10U);
  for (std::uint32_t f = 0; f < 8; ++f) {
    EXPECT_EQ(incremental.last_byte_time(FlowId(f)), full.last_byte_time(FlowId(f)));
  }
  EXPECT_EQ(incremental.last_byte_time(FlowId(0)), ms(1600));
  EXPECT_EQ(incremental.last_byte_time(FlowId(2)), ms(80));
}

// A departure looks only at the flows it can change, however many share its links (issue 23
// item 4: a million mice took 15 s because each departure walked every flow of its links).
// N = 1,000 slow flows m_i, each on its own 10 Mb/s link P_i and on S (100 Gb/s), and K = 10
// fast flows x_j on S alone, x_j sending j GB. Filling: each P_i saturates at 10 Mb/s (an event
// each, the m_i frozen first), then S at (100 - 10) / 10 = 9 Gb/s for the x_j (frozen last). x_1
// leaves first (8 Gb / 9 Gb/s = 0.89 s), then x_2 .. x_10 one by one; each departure re-solves the
// x_j left and must not look at the m_i (frozen before it). The m_i end together at 1 GB /
// 10 Mb/s = 800 s. Departures look at 10 + 9 + ... + 1 = 55 flows of S and stop at the first m_i
// (one more look each): at most 65, against 10 x 1,010 when every departure walked all of S.
TEST(FlowEngineTail, DeparturesLookOnlyAtTheFlowsFrozenAfterThem) {
  FlowEngine incremental;
  FlowEngine full(FlowEngine::Options{.incremental = false});
  for (FlowEngine* e : {&incremental, &full}) {
    const ConstraintId s = e->add_constraint(gbps(100));
    for (int i = 0; i < 1000; ++i) {
      const ConstraintId path[] = {e->add_constraint(BitsPerSecond(10'000'000)), s};
      e->add_flow(on(path, kGB));
    }
    for (int j = 1; j <= 10; ++j) {
      const ConstraintId path[] = {s};
      e->add_flow(on(path, Bytes(j * 1'000'000'000LL)));
    }
    e->run();
  }
  EXPECT_LE(incremental.tail_scanned(), 65U);
  for (std::uint32_t f = 0; f < 1010; ++f) {
    ASSERT_EQ(incremental.last_byte_time(FlowId(f)), full.last_byte_time(FlowId(f)));
  }
  EXPECT_EQ(incremental.last_byte_time(FlowId(0)), ms(800'000));
  EXPECT_EQ(incremental.last_byte_time(FlowId(1000)), TimePs(888'888'888'889));
}

// Random systems where every flow starts at 0, so every later instant is departures only and takes
// the restarted re-solve: 1-200 flows of 1-3 hops over 3-40 constraints (10-400 Gb/s), weights
// 1, 2, 0.5 or 1/3, hop fractions 1, 1/2 or 1/3, sizes 1 B - 50 MB, some with rate caps. The
// engine must give to the picosecond the last bytes of the full re-solve, solving fewer flows.
TEST(FlowEngineTail, RestartedReSolvesMatchTheFullReSolve) {
  std::uint64_t fewer = 0;
  for (std::uint64_t trial = 0; trial < 60; ++trial) {
    FlowEngine incremental;
    FlowEngine full(FlowEngine::Options{.incremental = false});
    for (FlowEngine* e : {&incremental, &full}) {
      Rng rng(11, trial, 0);
      const auto constraints = 3 + rng.uniform(38);
      for (std::uint64_t c = 0; c < constraints; ++c) {
        e->add_constraint(gbps(10 + 10 * static_cast<std::int64_t>(rng.uniform(40))));
      }
      const auto flows = 1 + rng.uniform(200);
      std::vector<ConstraintId> all(constraints);
      for (std::uint64_t c = 0; c < constraints; ++c) all[c] = ConstraintId(c);
      for (std::uint64_t f = 0; f < flows; ++f) {
        const auto hops = 1 + rng.uniform(std::min<std::uint64_t>(3, constraints));
        for (std::uint64_t h = 0; h < hops; ++h) std::swap(all[h], all[h + rng.uniform(constraints - h)]);
        std::vector<double> fraction(hops);
        for (double& a : fraction) a = 1.0 / static_cast<double>(1 + rng.uniform(3));
        const double weights[] = {1.0, 2.0, 0.5, 1.0 / 3};
        FlowRequest r = on(std::span<const ConstraintId>(all.data(), hops),
                           Bytes(1 + static_cast<std::int64_t>(rng.uniform(50'000'000))), fraction);
        r.weight = weights[rng.uniform(4)];
        if (rng.uniform(6) == 0) r.rate_cap = gbps(1 + static_cast<std::int64_t>(rng.uniform(100)));
        e->add_flow(r);
      }
      e->run();
    }
    for (std::uint32_t i = 0; i < incremental.flow_count(); ++i) {
      ASSERT_EQ(incremental.last_byte_time(FlowId(i)), full.last_byte_time(FlowId(i))) << trial << " " << i;
    }
    ASSERT_LE(incremental.solved_flows(), full.solved_flows());
    if (incremental.solved_flows() < full.solved_flows()) ++fewer;
  }
  EXPECT_GT(fewer, 30U);
}

// A timer at 40 ms moves a 1 GB flow from A (100 Gb/s) to B (50 Gb/s): half is left, 4e9 bits at
// 50 Gb/s take 80 ms more: 120 ms. A carried 4e9 bits, B 4e9 bits; A's peak was 100 Gb/s.
TEST(FlowEngineTimer, TimerMovesAFlowWithItsRemainingBytes) {
  FlowEngine e;
  const ConstraintId a = e.add_constraint(gbps(100));
  const ConstraintId b = e.add_constraint(gbps(50));
  const ConstraintId path_a[] = {a};
  const ConstraintId path_b[] = {b};
  const FlowId f = e.add_flow(on(path_a, kGB));
  std::vector<std::uint32_t> fired;
  e.set_on_timer([&](std::uint32_t tag) {
    fired.push_back(tag);
    e.move_flow(f, path_b);
  });
  e.schedule_timer(ms(40), 7);
  std::uint32_t load_events = 0;
  e.set_on_load([&](ConstraintId, TimePs, double) { ++load_events; });
  e.run();
  EXPECT_EQ(fired, std::vector<std::uint32_t>{7});
  EXPECT_EQ(e.last_byte_time(f), ms(120));
  EXPECT_DOUBLE_EQ(e.carried_bits(a), 4e9);
  EXPECT_DOUBLE_EQ(e.carried_bits(b), 4e9);
  EXPECT_DOUBLE_EQ(e.peak_load(a), 100e9);
  EXPECT_DOUBLE_EQ(e.peak_load(b), 50e9);
  EXPECT_DOUBLE_EQ(e.load(a), 0.0);
  // A: 0 -> 100 at 0 and 100 -> 0 at 40 ms; B: 0 -> 50 at 40 ms and back to 0 at 120 ms.
  EXPECT_EQ(load_events, 4U);
}

}  // namespace
}  // namespace ct
