// Hand-worked model tests of the packet engine's core. Rates 400 Gb/s, MTU 4096 B: a full packet
// serializes in 4096 x 8 / 400e9 s = 81.92 ns exactly (81,920 ps). Times in ps.
#include "sim/packet/packet_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace ct {
namespace {

constexpr std::int64_t kMtu = 4096;
constexpr TimePs ns(double v) { return TimePs(static_cast<std::int64_t>(v * 1000.0 + 0.5)); }

PacketChannelSpec channel(TimePs propagation, TimePs forward = TimePs(0), bool cut_through = false,
                          std::int64_t credit_blocks = kUnlimitedCredits) {
  return {gbps(400), propagation, forward, cut_through, credit_blocks};
}

PacketFlowRequest flow(std::span<const std::uint32_t> path, std::int64_t bytes, TimePs start = TimePs(0)) {
  PacketFlowRequest r;
  r.path = path;
  r.size = Bytes(bytes);
  r.start = start;
  return r;
}

// A path of `hops` channels, 100 ns propagation each, switches (200 ns, store-and-forward or
// cut-through) between them, the last one ending at a NIC; one flow of `bytes` alone on it.
TimePs one_flow(int hops, std::int64_t bytes, bool cut_through, std::int64_t credit_blocks = kUnlimitedCredits) {
  PacketEngine e(kMtu, 1);
  std::vector<std::uint32_t> path;
  for (int h = 0; h < hops; ++h) {
    const bool to_switch = h + 1 < hops;
    path.push_back(e.add_channel(channel(ns(100), to_switch ? ns(200) : TimePs(0), to_switch && cut_through, credit_blocks)));
  }
  const std::uint32_t f = e.add_flow(flow(path, bytes));
  e.run();
  EXPECT_EQ(e.state(f), PacketFlowState::kDone);
  EXPECT_EQ(e.delivered_bytes(f), bytes);
  EXPECT_EQ(e.drops(), 0U);
  return e.completion_time(f);
}

// One flow of 3 full packets (12,288 B) on one link: the three packets leave back to back
// (3 x 81.92 = 245.76 ns), the last tail arrives one propagation later: 345.76 ns.
TEST(PacketEngine, OneLinkIsSerializationPlusPropagation) { EXPECT_EQ(one_flow(1, 3 * kMtu, false), ns(345.76)); }

// Store-and-forward, n hops of equal rate, P equal packets of serialization t, propagation d,
// switch latency L: completion = P t + n d + (n - 1)(L + t) (the last packet leaves the source
// at P t, then waits for its tail and L at each of the n - 1 switches).
//   2 hops: 245.76 + 200 + 281.92 = 727.68 ns;  3 hops: 245.76 + 300 + 563.84 = 1,109.60 ns.
// Cut-through (the catalog's InfiniBand switches): each switch adds L only: P t + n d + (n - 1) L
//   2 hops: 245.76 + 200 + 200 = 645.76 ns;     3 hops: 245.76 + 300 + 400 = 945.76 ns.
TEST(PacketEngine, HopsStoreAndForwardAndCutThrough) {
  EXPECT_EQ(one_flow(2, 3 * kMtu, false), ns(727.68));
  EXPECT_EQ(one_flow(3, 3 * kMtu, false), ns(1109.60));
  EXPECT_EQ(one_flow(2, 3 * kMtu, true), ns(645.76));
  EXPECT_EQ(one_flow(3, 3 * kMtu, true), ns(945.76));
}

// A short last packet queues behind the one before it (store-and-forward, 2 hops, 10,000 B =
// 4096 + 4096 + 1808; t = 81.92 ns, the last 1808 x 8 / 400e9 = 36.16 ns):
//   packet 1 leaves the source at 81.92, is at the switch at 81.92 + 81.92 + 100 + 200 = 463.84
//   and holds hop 2 until 545.76; packet 2 leaves the source at 163.84, is ready at the switch at
//   163.84 + 36.16 + 100 + 200 = 500.00 but waits for hop 2 until 545.76, sends until 581.92 and
//   arrives at 681.92 ns (not 636.16, which the equal-packet formula would give).
TEST(PacketEngine, ShortLastPacketQueuesBehindTheOneBefore) { EXPECT_EQ(one_flow(2, 10'000, false), ns(681.92)); }

// Enough credits change nothing: a buffer of 64 packets (4096 blocks) per hop gives the times above.
TEST(PacketEngine, AmpleCreditsDoNotSlowAFlow) { EXPECT_EQ(one_flow(3, 3 * kMtu, true, 4096), ns(945.76)); }

// Too few credits. One link NIC to NIC, propagation d = 500 ns, the receiver's buffer k packets
// (k x 64 credits of 64 B). A packet's credits come back when its tail has arrived and the credit
// has crossed back: credit round trip = t + 2 d = 1,081.92 ns. With k t < t + 2 d the sender
// sends k packets back to back, then waits: packet i leaves at (i / k) RTT + (i mod k) t, and the
// last of N arrives at that + t + d. Throughput = credits x 64 B / RTT: each further k packets
// add exactly one RTT. For k = 1, 2, 4 (64, 128, 256 credits): 30.28, 60.56, 121.13 Gb/s of 400.
TEST(PacketEngine, TooFewCreditsLimitThroughputToCreditsPerRoundTrip) {
  const TimePs t = ns(81.92);
  const TimePs d = ns(500);
  const TimePs rtt = t + d + d;
  for (const std::int64_t k : {1, 2, 4}) {
    SCOPED_TRACE(k);
    const std::int64_t credits = k * kMtu / kCreditBlockBytes;
    const auto run = [&](std::int64_t packets) {
      PacketEngine e(kMtu, 1);
      const std::uint32_t path[] = {e.add_channel({gbps(400), d, TimePs(0), false, credits})};
      const std::uint32_t f = e.add_flow(flow(path, packets * kMtu));
      e.run();
      const PacketChannelStats s = e.channel_stats(path[0]);
      EXPECT_GT(s.credit_stall.value(), 0);
      EXPECT_EQ(e.drops(), 0U);
      return e.completion_time(f);
    };
    const std::int64_t n = 64;
    const TimePs last_leaves = rtt * ((n - 1) / k) + t * ((n - 1) % k);
    EXPECT_EQ(run(n), last_leaves + t + d);
    // k more packets take one more credit round trip: throughput = credits x 64 B / RTT.
    const TimePs per_round = run(n + k) - run(n);
    EXPECT_EQ(per_round, rtt);
    const double throughput_bps = static_cast<double>(credits * kCreditBlockBytes * 8) / to_seconds(per_round);
    EXPECT_NEAR(throughput_bps, static_cast<double>(k) * 4096 * 8 / 1081.92e-9, 1.0);
  }
}

// Two flows from two NICs into one switch and out on one link (an incast of 2): the output
// queue builds up, the shared link runs at line rate, nothing is dropped. Each sends 8 packets;
// the shared hop carries 16 packets back to back from the first arrival (81.92 + 100 + 200 =
// 381.92 ns) on: the last tail leaves at 381.92 + 16 x 81.92 = 1,692.64 ns, arrives 1,792.64 ns.
TEST(PacketEngine, IncastQueuesAtTheSharedPortAndDropsNothing) {
  PacketEngine e(kMtu, 1);
  const std::uint32_t a = e.add_channel(channel(ns(100), ns(200), false, 4096));
  const std::uint32_t b = e.add_channel(channel(ns(100), ns(200), false, 4096));
  const std::uint32_t out = e.add_channel(channel(ns(100), TimePs(0), false, 4096));
  const std::uint32_t pa[] = {a, out};
  const std::uint32_t pb[] = {b, out};
  const std::uint32_t fa = e.add_flow(flow(pa, 8 * kMtu));
  const std::uint32_t fb = e.add_flow(flow(pb, 8 * kMtu));
  e.run();
  EXPECT_EQ(std::max(e.completion_time(fa), e.completion_time(fb)), ns(1792.64));
  const PacketChannelStats s = e.channel_stats(out);
  EXPECT_EQ(s.carried_bytes, 16 * kMtu);
  EXPECT_EQ(s.busy, ns(16 * 81.92));
  EXPECT_GE(s.peak_queue_bytes, kMtu);
  EXPECT_EQ(e.drops(), 0U);
}

// Dependencies: a flow that waits for another starts `delay` after its completion.
TEST(PacketEngine, AFlowWaitsForTheOneBefore) {
  PacketEngine e(kMtu, 1);
  const std::uint32_t path[] = {e.add_channel(channel(ns(100)))};
  const std::uint32_t first = e.add_flow(flow(path, kMtu));
  PacketFlowRequest second = flow(path, kMtu);
  const std::uint32_t after[] = {first};
  second.after = after;
  second.delay = ns(50);
  const std::uint32_t f2 = e.add_flow(second);
  e.run();
  EXPECT_EQ(e.completion_time(first), ns(181.92));
  EXPECT_EQ(e.start_time(f2), ns(231.92));
  EXPECT_EQ(e.completion_time(f2), ns(413.84));
}

// A credit loop. Four switches on a ring, one NIC on each; every NIC sends to the NIC two
// switches on clockwise (min-hop on a ring of 4 breaks the tie one way: here clockwise), so flow
// i takes ring channels i and i + 1: the channel dependency graph has the cycle r0 -> r1 -> r2 ->
// r3 -> r0 (Dally & Seitz). Buffers of one packet, flows of 32 packets all starting at once: each
// ring buffer fills with a packet for the next ring channel, whose buffer is full the same way;
// no credit ever comes back. The engine stops with packets waiting and names the cycle.
// Breaking the loop (flow 3 goes counter-clockwise, as up/down routing with switch 0 as root
// would send it: no route turns from r3 into r0) lets every flow finish.
struct Ring {
  PacketEngine e{kMtu, 1};
  std::uint32_t inject[4]{};
  std::uint32_t eject[4]{};
  std::uint32_t cw[4]{};   // switch i -> switch i + 1
  std::uint32_t ccw[4]{};  // switch i -> switch i - 1
  Ring() {
    const std::int64_t one_packet = kMtu / kCreditBlockBytes;
    for (int i = 0; i < 4; ++i) {
      inject[i] = e.add_channel(channel(ns(100), ns(200), false, one_packet));
      eject[i] = e.add_channel(channel(ns(100), TimePs(0), false, one_packet));
      cw[i] = e.add_channel(channel(ns(100), ns(200), false, one_packet));
      ccw[i] = e.add_channel(channel(ns(100), ns(200), false, one_packet));
    }
  }
};

TEST(PacketEngine, CreditLoopDeadlocksAndNamesTheCycle) {
  Ring ring;
  std::vector<std::vector<std::uint32_t>> paths;
  for (int i = 0; i < 4; ++i) paths.push_back({ring.inject[i], ring.cw[i], ring.cw[(i + 1) % 4], ring.eject[(i + 2) % 4]});
  for (const auto& p : paths) ring.e.add_flow(flow(p, 32 * kMtu));
  ring.e.run();
  for (std::uint32_t f = 0; f < 4; ++f) EXPECT_NE(ring.e.state(f), PacketFlowState::kDone);
  const PacketDeadlock dead = ring.e.deadlock();
  ASSERT_EQ(dead.cycles.size(), 1U);
  EXPECT_EQ(dead.cycles[0], (std::vector<std::uint32_t>{ring.cw[0], ring.cw[1], ring.cw[2], ring.cw[3]}));
  EXPECT_EQ(dead.channels, dead.cycles[0]);
  EXPECT_EQ(ring.e.drops(), 0U);
}

// Two credit loops at once (issue 26 review, item 3): the shift-2 flows clockwise and four more
// counter-clockwise (ccw[i] leaves node i for node i - 1, over NICs of their own), so each
// direction of the ring is a loop of its own. Both are named, and the flows of each are in a loop: flows_holding of every loop's
// channels is all eight, none of them "behind".
TEST(PacketEngine, TwoCreditLoopsAreBothNamedAndTheirFlowsAreInALoop) {
  Ring ring;
  std::vector<std::vector<std::uint32_t>> paths;
  for (int i = 0; i < 4; ++i) paths.push_back({ring.inject[i], ring.cw[i], ring.cw[(i + 1) % 4], ring.eject[(i + 2) % 4]});
  // The counter-clockwise flows enter and leave through NIC channels of their own, so that they do
  // not wait behind the clockwise loop at a shared NIC.
  const std::int64_t one_packet = kMtu / kCreditBlockBytes;
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t in = ring.e.add_channel(channel(ns(100), ns(200), false, one_packet));
    const std::uint32_t out = ring.e.add_channel(channel(ns(100), TimePs(0), false, one_packet));
    paths.push_back({in, ring.ccw[i], ring.ccw[(i + 3) % 4], out});
  }
  for (const auto& p : paths) ring.e.add_flow(flow(p, 32 * kMtu));
  ring.e.run();
  for (std::uint32_t f = 0; f < 8; ++f) EXPECT_NE(ring.e.state(f), PacketFlowState::kDone) << f;
  const PacketDeadlock dead = ring.e.deadlock();
  ASSERT_EQ(dead.cycles.size(), 2U);
  EXPECT_EQ(dead.cycles[0], (std::vector<std::uint32_t>{ring.cw[0], ring.cw[1], ring.cw[2], ring.cw[3]}));
  EXPECT_EQ(dead.cycles[1], (std::vector<std::uint32_t>{ring.ccw[0], ring.ccw[3], ring.ccw[2], ring.ccw[1]}));
  std::vector<std::uint32_t> both = dead.cycles[0];
  both.insert(both.end(), dead.cycles[1].begin(), dead.cycles[1].end());
  std::sort(both.begin(), both.end());
  EXPECT_EQ(dead.channels, both);
  EXPECT_EQ(ring.e.flows_holding(dead.channels), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // The first loop alone, as before this fix, would leave the other loop's flows "behind".
  EXPECT_EQ(ring.e.flows_holding(dead.cycles[0]), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(ring.e.drops(), 0U);
}

TEST(PacketEngine, NoCreditLoopNoDeadlock) {
  Ring ring;
  std::vector<std::vector<std::uint32_t>> paths;
  for (int i = 0; i < 3; ++i) paths.push_back({ring.inject[i], ring.cw[i], ring.cw[(i + 1) % 4], ring.eject[(i + 2) % 4]});
  paths.push_back({ring.inject[3], ring.ccw[3], ring.ccw[2], ring.eject[1]});
  for (const auto& p : paths) ring.e.add_flow(flow(p, 32 * kMtu));
  ring.e.run();
  for (std::uint32_t f = 0; f < 4; ++f) EXPECT_EQ(ring.e.state(f), PacketFlowState::kDone);
  EXPECT_TRUE(ring.e.deadlock().empty());
  EXPECT_TRUE(ring.e.deadlock().channels.empty());
}

// Same input, same run: two engines fed alike end with the same event count and times.
TEST(PacketEngine, Deterministic) {
  const auto run = [] {
    Ring ring;
    for (int i = 0; i < 4; ++i) {
      const std::uint32_t p[] = {ring.inject[i], ring.ccw[i], ring.eject[(i + 3) % 4]};
      ring.e.add_flow(flow(p, 7 * kMtu + 100));
    }
    ring.e.run();
    std::vector<std::int64_t> out{static_cast<std::int64_t>(ring.e.events())};
    for (std::uint32_t f = 0; f < 4; ++f) out.push_back(ring.e.completion_time(f).value());
    return out;
  };
  EXPECT_EQ(run(), run());
}

// Faults: a link whose rate drops to 0 stops sending; back at full rate it resumes.
TEST(PacketEngine, RateChangesStopAndResumeAChannel) {
  PacketEngine e(kMtu, 1);
  const std::uint32_t path[] = {e.add_channel(channel(ns(100)))};
  const std::uint32_t f = e.add_flow(flow(path, 2 * kMtu));
  e.schedule_rate(path[0], ns(10), 0.0);    // packet 0 on the wire finishes at 81.92
  e.schedule_rate(path[0], ns(1000), 0.5);  // packet 1 then at 200 Gb/s: 163.84 ns
  e.run();
  EXPECT_EQ(e.completion_time(f), ns(1000 + 163.84 + 100));
}

// Its load, kept by the engine (no report per change): sending at 400 Gb/s from 0; the link goes
// down at 10 ns while packet 0 is on the wire (load 0: sending at rate 0 until 81.92 is not
// saturated); back at half rate at 1,000 ns, packet 1 takes 163.84 ns. Saturated 10 + 163.84 ns;
// the last change at 1,163.84; the peak 400 Gb/s. The log keeps the five changes below a limit; at
// or past it (the series would be dropped) it is full and keeps none.
TEST(PacketEngine, KeepsItsLoadStatisticsAndLoadChanges) {
  for (const std::size_t limit : {std::size_t{100}, std::size_t{6}, std::size_t{5}, std::size_t{2}}) {
    PacketEngine e(kMtu, 1);
    const std::uint32_t path[] = {e.add_channel(channel(ns(100)))};
    e.add_flow(flow(path, 2 * kMtu));
    e.schedule_rate(path[0], ns(10), 0.0);
    e.schedule_rate(path[0], ns(1000), 0.5);
    e.keep_load_log(limit);
    e.run();
    const PacketChannelStats s = e.channel_stats(path[0]);
    EXPECT_EQ(s.saturated, ns(10 + 163.84));
    EXPECT_EQ(s.busy, ns(81.92 + 163.84));
    EXPECT_EQ(s.load_changed, ns(1163.84));
    EXPECT_EQ(s.load, BitsPerSecond(0));
    EXPECT_EQ(s.load_rate, gbps(200));
    EXPECT_EQ(s.peak_load, gbps(400));
    const LoadLog log = e.take_load_log();
    const std::vector<TimePs> times = {TimePs(0), ns(10), ns(81.92), ns(1000), ns(1163.84)};
    const std::vector<double> loads = {400e9, 0, 0, 200e9, 0};
    const bool kept = limit > times.size();
    EXPECT_EQ(log.full(), !kept);
    std::vector<std::uint32_t> channel;
    std::vector<TimePs> time;
    std::vector<double> load;
    log.for_each([&](std::uint32_t c, TimePs at, double l) {
      channel.push_back(c);
      time.push_back(at);
      load.push_back(l);
    });
    EXPECT_EQ(channel, std::vector<std::uint32_t>(kept ? times.size() : 0, path[0]));
    EXPECT_EQ(time, kept ? times : std::vector<TimePs>());
    EXPECT_EQ(load, kept ? loads : std::vector<double>());
  }
}

}  // namespace
}  // namespace ct
