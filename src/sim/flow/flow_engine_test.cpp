// Hand-computed model tests of the fluid engine. Sizes in bytes, rates in bits/s: 1 GB = 8e9 bits,
// which a 100 Gb/s link carries in 80 ms. Times are integer picoseconds (1 ms = 1e9 ps).
#include "sim/flow/flow_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/rng.h"

namespace ct {
namespace {

constexpr Bytes kGB{1'000'000'000};
constexpr TimePs ms(std::int64_t v) { return TimePs(v * 1'000'000'000); }
constexpr TimePs us(std::int64_t v) { return TimePs(v * 1'000'000); }

FlowRequest on(std::span<const ConstraintId> path, Bytes size, TimePs start = TimePs(0)) {
  FlowRequest r;
  r.path = path;
  r.size = size;
  r.start = start;
  return r;
}

// One flow alone on a 3-hop path of 100 Gb/s links with latencies 500, 700 and 300 ns: it gets
// the full 100 Gb/s, sends 1 GB (8e9 bits) in 80 ms; completion = 80 ms + 1.5 us.
TEST(FlowEngine, OneFlowAloneGetsTheLink) {
  FlowEngine engine;
  const ConstraintId path[] = {engine.add_constraint(gbps(100), nanoseconds(500)),
                               engine.add_constraint(gbps(100), nanoseconds(700)),
                               engine.add_constraint(gbps(100), nanoseconds(300))};
  const FlowId f = engine.add_flow(on(path, kGB));
  engine.run(ms(1));
  EXPECT_EQ(engine.rate(f), 1e11);
  engine.run();
  EXPECT_EQ(engine.state(f), FlowState::kDone);
  EXPECT_EQ(engine.last_byte_time(f), ms(80));
  EXPECT_EQ(engine.completion_time(f), ms(80) + nanoseconds(1500));
}

// Two flows start together on one 100 Gb/s link: A = 1 GB, B = 0.5 GB. Each gets 50 Gb/s; B
// (4e9 bits) ends at 80 ms, when A has sent 4e9 bits; A then runs alone at 100 Gb/s and sends its
// last 4e9 bits in 40 ms: A ends at 120 ms (= 12e9 bits / 100 Gb/s, the link never idles).
TEST(FlowEngine, TwoFlowsShareThenTheSurvivorSpeedsUp) {
  FlowEngine engine;
  const ConstraintId path[] = {engine.add_constraint(gbps(100))};
  const FlowId a = engine.add_flow(on(path, kGB));
  const FlowId b = engine.add_flow(on(path, Bytes(500'000'000)));
  engine.run(ms(10));
  EXPECT_EQ(engine.rate(a), 5e10);
  EXPECT_EQ(engine.rate(b), 5e10);
  engine.run(ms(100));
  EXPECT_EQ(engine.last_byte_time(b), ms(80));
  EXPECT_EQ(engine.rate(a), 1e11);
  engine.run();
  EXPECT_EQ(engine.last_byte_time(a), ms(120));
}

// Links X = 10 Gb/s and Y = 4 Gb/s; flow a crosses X (1 GB), b crosses X and Y (1 GB), c crosses Y
// (0.5 GB). Max-min: Y saturates first, b = c = 2 Gb/s; a gets 10 - 2 = 8 Gb/s (not the 5 of an
// equal split of X). a ends at 8e9 / 8e9 = 1 s; nothing changes for b and c (still limited by Y).
// c (4e9 bits at 2 Gb/s) ends at 2 s, when b has sent 4e9 bits; b alone then gets min(10, 4) =
// 4 Gb/s and sends its last 4e9 bits in 1 s: b ends at 3 s.
TEST(FlowEngine, FlowLimitedUpstreamLeavesItsShareToOthers) {
  FlowEngine engine;
  const ConstraintId x = engine.add_constraint(gbps(10));
  const ConstraintId y = engine.add_constraint(gbps(4));
  const ConstraintId pa[] = {x};
  const ConstraintId pb[] = {x, y};
  const ConstraintId pc[] = {y};
  const FlowId a = engine.add_flow(on(pa, kGB));
  const FlowId b = engine.add_flow(on(pb, kGB));
  const FlowId c = engine.add_flow(on(pc, Bytes(500'000'000)));
  engine.run(ms(1));
  EXPECT_EQ(engine.rate(a), 8e9);
  EXPECT_EQ(engine.rate(b), 2e9);
  EXPECT_EQ(engine.rate(c), 2e9);
  engine.run();
  EXPECT_EQ(engine.last_byte_time(a), ms(1000));
  EXPECT_EQ(engine.last_byte_time(c), ms(2000));
  EXPECT_EQ(engine.last_byte_time(b), ms(3000));
}

// A flow spread over two parallel paths (spraying's fluid limit): hops A (100 ns), B1 (200 ns,
// fraction 3/4), B2 (600 ns, fraction 1/4), C (100 ns), all 100 Gb/s. Path A-B1-C is 400 ns and
// carries 3/4 of the bytes, A-B2-C is 800 ns and carries 1/4: the byte-weighted latency is
// 3/4 x 400 + 1/4 x 800 = 500 ns, which is the sum of fraction x latency over the hops
// (100 + 150 + 150 + 100), not the 1,000 ns of all four hops added. A and C bind: 100 Gb/s,
// 1 GB in 80 ms; completion 80 ms + 500 ns.
TEST(FlowEngine, ASplitFlowTakesTheByteWeightedLatencyOfItsPaths) {
  FlowEngine engine;
  const ConstraintId path[] = {engine.add_constraint(gbps(100), nanoseconds(100)),
                               engine.add_constraint(gbps(100), nanoseconds(200)),
                               engine.add_constraint(gbps(100), nanoseconds(600)),
                               engine.add_constraint(gbps(100), nanoseconds(100))};
  const double fraction[] = {1.0, 0.75, 0.25, 1.0};
  FlowRequest r = on(path, kGB);
  r.fraction = fraction;
  const FlowId f = engine.add_flow(r);
  EXPECT_EQ(engine.path_latency(f), nanoseconds(500));
  engine.run();
  EXPECT_EQ(engine.last_byte_time(f), ms(80));
  EXPECT_EQ(engine.completion_time(f), ms(80) + nanoseconds(500));
}

// Twins merged (the tree's one chain per node, traffic/collective.h): two flows of 0.5 GB, weight
// 1, on the same 90 Gb/s link beside a third flow O of 0.75 GB, against one flow of 1 GB at weight
// 2 beside O. Weighted max-min gives the twins 30 + 30 and O 30 Gb/s, the merged flow 60 and O 30:
// the twins and the merged flow end at 4e9 / 3e10 s = 133,333,333,333 ps (rounded), O then sends its
// last 2e9 bits alone at 90 Gb/s and ends at the same time in both.
TEST(FlowEngine, OneFlowAtTwiceTheWeightIsTwoTwins) {
  auto run = [](bool merged) {
    FlowEngine engine;
    const ConstraintId link[] = {engine.add_constraint(gbps(90))};
    std::vector<FlowId> ours;
    if (merged) {
      FlowRequest r = on(link, Bytes(1'000'000'000));
      r.weight = 2.0;
      ours.push_back(engine.add_flow(r));
    } else {
      ours.push_back(engine.add_flow(on(link, Bytes(500'000'000))));
      ours.push_back(engine.add_flow(on(link, Bytes(500'000'000))));
    }
    const FlowId o = engine.add_flow(on(link, Bytes(750'000'000)));
    engine.run();
    std::vector<TimePs> ends;
    for (const FlowId f : ours) ends.push_back(engine.completion_time(f));
    ends.push_back(engine.completion_time(o));
    return ends;
  };
  const std::vector<TimePs> twins = run(false);
  const std::vector<TimePs> merged = run(true);
  EXPECT_NEAR(static_cast<double>(twins[0].value()), 133'333'333'333.0, 1.0);
  EXPECT_EQ(twins[0], twins[1]);
  EXPECT_EQ(merged[0], twins[0]);
  EXPECT_EQ(merged[1], twins[2]);
  EXPECT_NEAR(static_cast<double>(merged[1].value()), 133'333'333'333.0 + 2e9 / 9e10 * 1e12, 2.0);
}

// Incast: n senders, each on its own 100 Gb/s uplink (latency 1 us), into one 100 Gb/s port
// (latency 1 us), S = 1 GB each. The port is the bottleneck: each gets 100/n Gb/s and all end
// together at n x S / B = n x 80 ms; completion adds the 2 us path latency.
TEST(FlowEngine, IncastIntoOnePortTakesNTimesSOverB) {
  for (const int n : {2, 4, 7, 16}) {
    FlowEngine engine;
    const ConstraintId port = engine.add_constraint(gbps(100), us(1));
    std::vector<FlowId> flows;
    for (int i = 0; i < n; ++i) {
      const ConstraintId path[] = {engine.add_constraint(gbps(100), us(1)), port};
      flows.push_back(engine.add_flow(on(path, kGB)));
    }
    engine.run();
    for (const FlowId f : flows) {
      EXPECT_EQ(engine.last_byte_time(f), ms(80) * n) << n;
      EXPECT_EQ(engine.completion_time(f), ms(80) * n + us(2)) << n;
    }
  }
}

// Weights on a 90 Gb/s link: H has weight 2, L weight 1, 0.75 GB (6e9 bits) each. Twice the weight,
// twice the share: H = 60, L = 30 Gb/s. H ends at 6e9 / 6e10 = 100 ms, when L has sent 3e9 bits;
// L alone at 90 Gb/s needs 3e9 / 9e10 s = 33,333,333,333.3 ps, rounded to the nearest ps:
// L ends at 133,333,333,333 ps.
TEST(FlowEngine, TwiceTheWeightTwiceTheShare) {
  FlowEngine engine;
  const ConstraintId path[] = {engine.add_constraint(gbps(90))};
  FlowRequest heavy = on(path, Bytes(750'000'000));
  heavy.weight = 2.0;
  const FlowId h = engine.add_flow(heavy);
  const FlowId l = engine.add_flow(on(path, Bytes(750'000'000)));
  engine.run(ms(1));
  EXPECT_EQ(engine.rate(h), 6e10);
  EXPECT_EQ(engine.rate(l), 3e10);
  engine.run();
  EXPECT_EQ(engine.last_byte_time(h), ms(100));
  EXPECT_EQ(engine.last_byte_time(l), TimePs(133'333'333'333));
}

// A 25 Gb/s rate cap (a NIC below the link speed) on one of two flows on a 100 Gb/s link: the
// capped flow gets 25, the other 75 Gb/s (not 50/50).
TEST(FlowEngine, RateCapLeavesTheRestToOthers) {
  FlowEngine engine;
  const ConstraintId path[] = {engine.add_constraint(gbps(100))};
  FlowRequest capped = on(path, kGB);
  capped.rate_cap = gbps(25);
  const FlowId a = engine.add_flow(capped);
  const FlowId b = engine.add_flow(on(path, kGB));
  engine.run(ms(1));
  EXPECT_EQ(engine.rate(a), 25e9);
  EXPECT_EQ(engine.rate(b), 75e9);
}

// Degradation mid-flight: 1 GB on 100 Gb/s; at 40 ms the link drops to half (50 Gb/s). By then
// 4e9 bits are sent; the other 4e9 take 80 ms at 50 Gb/s: last byte at 120 ms.
TEST(FlowEngine, DegradationMidFlightSlowsTheFlow) {
  FlowEngine engine;
  const ConstraintId link = engine.add_constraint(gbps(100));
  const ConstraintId path[] = {link};
  const FlowId f = engine.add_flow(on(path, kGB));
  engine.schedule_capacity(link, ms(40), 0.5);
  engine.run(ms(50));
  EXPECT_EQ(engine.rate(f), 5e10);
  engine.run();
  EXPECT_EQ(engine.last_byte_time(f), ms(120));
}

// Failure and repair: 1 GB on 100 Gb/s; the link fails at 20 ms (2e9 bits sent) and is repaired
// at 50 ms. The flow stalls (rate 0) in between, then sends its last 6e9 bits in 60 ms: last byte
// at 110 ms.
TEST(FlowEngine, FailureStallsAndRepairResumes) {
  FlowEngine engine;
  const ConstraintId link = engine.add_constraint(gbps(100));
  const ConstraintId path[] = {link};
  const FlowId f = engine.add_flow(on(path, kGB));
  engine.schedule_capacity(link, ms(20), 0.0);
  engine.schedule_capacity(link, ms(50), 1.0);
  engine.run(ms(30));
  EXPECT_EQ(engine.state(f), FlowState::kActive);
  EXPECT_EQ(engine.rate(f), 0.0);
  engine.run();
  EXPECT_EQ(engine.last_byte_time(f), ms(110));
}

// Failure with rerouting: 1 GB on primary P (100 Gb/s, 1 us); backup B is 50 Gb/s, 2 us. P fails
// at 20 ms (2e9 bits sent); the callback moves the flow to B, where the last 6e9 bits take
// 120 ms: last byte at 140 ms, completion 140 ms + 2 us (the new path's latency).
TEST(FlowEngine, FailureReroutesThroughTheCallback) {
  FlowEngine engine;
  const ConstraintId primary = engine.add_constraint(gbps(100), us(1));
  const ConstraintId backup = engine.add_constraint(gbps(50), us(2));
  const ConstraintId path[] = {primary};
  const FlowId f = engine.add_flow(on(path, kGB));
  int offers = 0;
  engine.set_reroute([&](FlowId flow, ConstraintId failed, std::vector<ConstraintId>& new_path) {
    EXPECT_EQ(flow, f);
    EXPECT_EQ(failed, primary);
    ++offers;
    new_path.push_back(backup);
    return true;
  });
  engine.schedule_capacity(primary, ms(20), 0.0);
  engine.run();
  EXPECT_EQ(offers, 1);
  EXPECT_EQ(engine.last_byte_time(f), ms(140));
  EXPECT_EQ(engine.completion_time(f), ms(140) + us(2));
}

// Dependencies: B waits for A, plus 1 us. A: 1 GB on 100 Gb/s with 1 us latency, completion at
// 80 ms + 1 us; B starts at 80 ms + 2 us and takes 80 ms: last byte at 160 ms + 2 us, completion
// 160 ms + 3 us. C waits for A and B with no delay: starts at B's completion.
TEST(FlowEngine, FlowStartsAfterItsDependenciesComplete) {
  FlowEngine engine;
  const ConstraintId path[] = {engine.add_constraint(gbps(100), us(1))};
  const FlowId a = engine.add_flow(on(path, kGB));
  FlowRequest rb = on(path, kGB);
  const FlowId deps_b[] = {a};
  rb.after = deps_b;
  rb.delay = us(1);
  const FlowId b = engine.add_flow(rb);
  FlowRequest rc = on(path, Bytes(0));
  const FlowId deps_c[] = {b, a};
  rc.after = deps_c;
  const FlowId c = engine.add_flow(rc);
  engine.run();
  EXPECT_EQ(engine.completion_time(a), ms(80) + us(1));
  EXPECT_EQ(engine.start_time(b), ms(80) + us(2));
  EXPECT_EQ(engine.last_byte_time(b), ms(160) + us(2));
  EXPECT_EQ(engine.completion_time(b), ms(160) + us(3));
  EXPECT_EQ(engine.start_time(c), ms(160) + us(3));
  EXPECT_EQ(engine.completion_time(c), ms(160) + us(4));
}

// Two disjoint links, each with one flow: an event on one link re-solves only its component, so
// the incremental engine solves 1 flow per event where the full reference solves every active one.
// Flow 0: 1 GB on link 0 (ends 80 ms); flow 1: 2 GB on link 1 (ends 160 ms). Events: start
// (both, one solve of 2 flows in either mode), flow 0 ends (incremental: nothing left in its
// component, no solve; full: 1 flow). The completion times match.
TEST(FlowEngine, IncrementalSolvesOnlyTheAffectedComponent) {
  FlowEngine incremental;
  FlowEngine full(FlowEngine::Options{.incremental = false});
  for (FlowEngine* e : {&incremental, &full}) {
    const ConstraintId p0[] = {e->add_constraint(gbps(100))};
    const ConstraintId p1[] = {e->add_constraint(gbps(100))};
    e->add_flow(on(p0, kGB));
    e->add_flow(on(p1, Bytes(2'000'000'000)));
    e->run();
  }
  EXPECT_EQ(incremental.solved_flows(), 2U);
  EXPECT_EQ(full.solved_flows(), 3U);
  for (std::uint32_t f = 0; f < 2; ++f) {
    EXPECT_EQ(incremental.last_byte_time(FlowId(f)), full.last_byte_time(FlowId(f)));
  }
  EXPECT_EQ(incremental.last_byte_time(FlowId(1)), ms(160));
}

std::int64_t draw(Rng& rng, std::uint64_t bound) { return static_cast<std::int64_t>(rng.uniform(bound)); }

// Odd flows offered a failed constraint move to a one-hop detour (the next constraint after it,
// shifted by the flow's id) while the detour is up; even flows stall.
void reroute_odd_flows_to_a_detour(FlowEngine& e, std::uint64_t constraints) {
  e.set_reroute([constraints, &e](FlowId flow, ConstraintId failed, std::vector<ConstraintId>& path) {
    if (flow.value() % 2 == 0) return false;
    const auto detour = ConstraintId((failed.value() + 1 + flow.value()) % constraints);
    if (e.capacity(detour) == 0) return false;
    path.push_back(detour);
    return true;
  });
}

// 4-43 constraints of 10-400 Gb/s with 0-900 ns latency; their ids.
std::vector<ConstraintId> add_random_constraints(FlowEngine& e, Rng& rng) {
  const auto constraints = static_cast<std::uint64_t>(4 + draw(rng, 40));
  for (std::uint64_t c = 0; c < constraints; ++c) {
    e.add_constraint(gbps(10 + 10 * draw(rng, 40)), nanoseconds(100 * draw(rng, 10)));
  }
  std::vector<ConstraintId> all(constraints);
  for (std::uint64_t c = 0; c < constraints; ++c) all[c] = ConstraintId(c);
  return all;
}

// A path of 1-4 distinct constraints drawn from `all` (moved to its front).
std::span<const ConstraintId> random_path(Rng& rng, std::vector<ConstraintId>& all) {
  const auto hops = static_cast<std::uint64_t>(1 + draw(rng, 4));
  for (std::uint64_t h = 0; h < hops; ++h) std::swap(all[h], all[h + rng.uniform(all.size() - h)]);
  return {all.data(), hops};
}

// A random scenario of trial `trial`: 4-43 constraints of 10-400 Gb/s with 0-900 ns latency, up to
// 150 flows of 1-4 hops, 1 B-100 MB, starting within 20 ms, one in four of weight 2, one in four
// waiting on an earlier flow; six capacity changes within 30 ms (failures, degradations, repairs);
// odd flows offered a failure are moved to a one-hop detour when it is up.
void build_random_scenario(FlowEngine& e, std::uint64_t trial) {
  Rng rng(7, trial, 0);
  std::vector<ConstraintId> all = add_random_constraints(e, rng);
  const std::uint64_t constraints = all.size();
  const auto flows = static_cast<std::uint64_t>(1 + draw(rng, 150));
  for (std::uint64_t f = 0; f < flows; ++f) {
    const std::span<const ConstraintId> path = random_path(rng, all);
    FlowRequest r = on(path, Bytes(1 + draw(rng, 100'000'000)), us(draw(rng, 20'000)));
    r.weight = rng.uniform(4) == 0 ? 2.0 : 1.0;
    const FlowId dep[] = {FlowId(rng.uniform(std::max<std::uint64_t>(f, 1)))};
    if (f > 0 && rng.uniform(4) == 0) r.after = dep;
    e.add_flow(r);
  }
  for (int k = 0; k < 6; ++k) {
    const double fraction = k % 3 == 0 ? 0.0 : 0.25 * static_cast<double>(1 + rng.uniform(4));
    e.schedule_capacity(ConstraintId(rng.uniform(constraints)), us(draw(rng, 30'000)), fraction);
  }
  reroute_odd_flows_to_a_detour(e, constraints);
}

// Random scenarios (build_random_scenario: random paths, sizes, start times, weights,
// dependencies, degradations, failures with rerouting, repairs): the incremental engine must
// produce exactly the same states, last-byte and completion times as the full re-solve reference,
// and solve no more flows in total.
TEST(FlowEngine, IncrementalMatchesFullResolveOnRandomScenarios) {
  for (std::uint64_t trial = 0; trial < 40; ++trial) {
    FlowEngine incremental;
    FlowEngine full(FlowEngine::Options{.incremental = false});
    build_random_scenario(incremental, trial);
    build_random_scenario(full, trial);
    incremental.run();
    full.run();
    ASSERT_EQ(incremental.flow_count(), full.flow_count());
    EXPECT_LE(incremental.solved_flows(), full.solved_flows());
    for (std::uint32_t i = 0; i < incremental.flow_count(); ++i) {
      const FlowId f(i);
      ASSERT_EQ(incremental.state(f), full.state(f)) << trial << " " << i;
      ASSERT_EQ(incremental.last_byte_time(f), full.last_byte_time(f)) << trial << " " << i;
      ASSERT_EQ(incremental.completion_time(f), full.completion_time(f)) << trial << " " << i;
    }
  }
}

// A collective's shape: every flow of trial `trial` starts at t = 0 (the instant whose lists the
// relink builds without linking first), one in eight of 0 bytes (done as it starts), the others
// 1 B-100 MB, one in four of weight 2; a quarter wait on an earlier flow (started later, linked
// as they start); in odd trials a constraint fails at t = 0 and odd flows offered it move to a
// one-hop detour, and another is degraded at 5 ms.
void build_t0_scenario(FlowEngine& e, std::uint64_t trial) {
  Rng rng(9, trial, 0);
  std::vector<ConstraintId> all = add_random_constraints(e, rng);
  const std::uint64_t constraints = all.size();
  const auto flows = static_cast<std::uint64_t>(1 + draw(rng, 150));
  for (std::uint64_t f = 0; f < flows; ++f) {
    const std::span<const ConstraintId> path = random_path(rng, all);
    const Bytes size = rng.uniform(8) == 0 ? Bytes(0) : Bytes(1 + draw(rng, 100'000'000));
    FlowRequest r = on(path, size);
    r.weight = rng.uniform(4) == 0 ? 2.0 : 1.0;
    const FlowId dep[] = {FlowId(rng.uniform(std::max<std::uint64_t>(f, 1)))};
    if (f > 0 && rng.uniform(4) == 0) r.after = dep;
    e.add_flow(r);
  }
  if (trial % 2 == 1) {
    e.schedule_capacity(ConstraintId(rng.uniform(constraints)), TimePs(0), 0.0);
    e.schedule_capacity(ConstraintId(rng.uniform(constraints)), ms(5), 0.5);
  }
  reroute_odd_flows_to_a_detour(e, constraints);
}

// Flows that all start at t = 0 (their lists built by the re-solve's relink, not linked as they
// start; 0-byte flows, failures and moves in that instant linking them first): the incremental
// engine gives exactly the full re-solve's states, times, loads and statistics.
TEST(FlowEngine, FlowsStartedTogetherMatchTheFullReSolve) {
  for (std::uint64_t trial = 0; trial < 60; ++trial) {
    FlowEngine incremental;
    FlowEngine full(FlowEngine::Options{.incremental = false});
    for (FlowEngine* e : {&incremental, &full}) {
      e->set_saturation(0.999);
      build_t0_scenario(*e, trial);
      e->run();
    }
    ASSERT_EQ(incremental.flow_count(), full.flow_count());
    for (std::uint32_t i = 0; i < incremental.flow_count(); ++i) {
      const FlowId f(i);
      ASSERT_EQ(incremental.state(f), full.state(f)) << trial << " " << i;
      ASSERT_EQ(incremental.last_byte_time(f), full.last_byte_time(f)) << trial << " " << i;
      ASSERT_EQ(incremental.completion_time(f), full.completion_time(f)) << trial << " " << i;
    }
    for (std::uint32_t c = 0; c < incremental.constraint_count(); ++c) {
      const ConstraintId id(c);
      ASSERT_EQ(incremental.carried_bits(id), full.carried_bits(id)) << trial << " " << c;
      ASSERT_EQ(incremental.peak_load(id), full.peak_load(id)) << trial << " " << c;
      ASSERT_EQ(incremental.saturated_time(id), full.saturated_time(id)) << trial << " " << c;
    }
  }
}

// Saturated time, by hand: 1 GB over A (100 Gb/s) then B (200 Gb/s). The flow runs at 100 Gb/s for
// 80 ms: A is full (saturated, at any threshold up to 1) for 80 ms, B half full (not saturated at
// 0.999) for none; both loads last change at 80 ms, when the flow leaves.
TEST(FlowEngine, SaturatedTimeCountsOnlyTheFullLink) {
  FlowEngine engine;
  engine.set_saturation(0.999);
  const ConstraintId a = engine.add_constraint(gbps(100));
  const ConstraintId b = engine.add_constraint(gbps(200));
  const ConstraintId path[] = {a, b};
  engine.add_flow(on(path, kGB));
  engine.run();
  EXPECT_EQ(engine.saturated_time(a), ms(80));
  EXPECT_EQ(engine.saturated_time(b), TimePs(0));
  EXPECT_EQ(engine.last_load_change(a), ms(80));
  EXPECT_EQ(engine.last_load_change(b), ms(80));
  EXPECT_EQ(engine.load(a), 0.0);
}

// The engine's saturated time is the account an observer of every load change keeps (the one
// LinkStatistics::on_load kept before the engine did): at each change, the time since the last
// one is added when the load then was > 0 and >= 0.999 x the capacity at that change. Random
// scenarios with degradations, failures and repairs (a capacity that moves between two load
// changes is judged at its value at the first), checked on every constraint.
TEST(FlowEngine, SaturatedTimeIsTheLoadObserversAccount) {
  struct Account {
    TimePs change{0};
    double load = 0.0;
    double capacity = 0.0;
    TimePs saturated{0};
  };
  for (std::uint64_t trial = 0; trial < 40; ++trial) {
    FlowEngine e;
    e.set_saturation(0.999);
    build_random_scenario(e, trial);
    std::vector<Account> account(e.constraint_count());
    e.set_on_load([&](ConstraintId c, TimePs at, double load) {
      Account& a = account[c.value()];
      if (a.load > 0.0 && a.load >= 0.999 * a.capacity) a.saturated += at - a.change;
      a = Account{at, load, e.capacity(c), a.saturated};
    });
    e.run();
    for (std::uint32_t c = 0; c < e.constraint_count(); ++c) {
      const ConstraintId id(c);
      ASSERT_EQ(e.saturated_time(id), account[c].saturated) << trial << " " << c;
      ASSERT_EQ(e.last_load_change(id), account[c].change) << trial << " " << c;
      ASSERT_EQ(e.load(id), account[c].load) << trial << " " << c;
      if (account[c].change.value() > 0) {
        ASSERT_EQ(e.load_capacity(id), account[c].capacity) << trial << " " << c;
      }
    }
  }
}

}  // namespace
}  // namespace ct
