// ECN marking (RED) and DCQCN in the packet engine's core (red_marking.h, dcqcn.h). A star: n
// senders on their own links into one switch, one egress link to the receiver; every link has the
// same rate, propagation d = 1 us (a data-centre hop with its cable and serdes), switch latency
// L = 500 ns, store-and-forward, PFC on every link and ECN on the switch's egress port.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/packet/dcqcn.h"
#include "sim/packet/packet_engine.h"
#include "sim/packet/red_marking.h"

namespace ct {
namespace {

constexpr std::int64_t kMtu = 4096;

PacketChannelSpec link(BitsPerSecond rate, bool to_switch, bool marks, std::int64_t xoff) {
  PacketChannelSpec s;
  s.rate = rate;
  s.propagation = TimePs(1'000'000);
  s.forward_latency = to_switch ? TimePs(500'000) : TimePs(0);
  s.pfc = true;
  // Headroom R (2 d + L) / 8 + 2 MTU (packet_simulation.h); XON 2 MTU below XOFF.
  s.headroom_bytes = static_cast<std::int64_t>(std::ceil(static_cast<double>(rate.value()) * 2.5e-6 / 8)) + 2 * kMtu;
  s.xoff_bytes = xoff;
  s.xon_bytes = xoff - 2 * kMtu;
  s.ecn.enabled = marks;
  return s;
}

struct Star {
  PacketEngine e{kMtu, 1};
  std::vector<std::uint32_t> in;
  std::uint32_t out = 0;
  std::vector<std::uint32_t> flows;
  std::vector<std::vector<std::uint32_t>> paths;

  // n senders of `bytes` each, the k-th starting at k * stagger.
  Star(int n, std::int64_t bytes, BitsPerSecond rate, std::int64_t xoff, const RedEcnSpec& red, bool dcqcn,
       TimePs stagger = TimePs(0)) {
    for (int i = 0; i < n; ++i) in.push_back(e.add_channel(link(rate, true, false, xoff)));
    PacketChannelSpec egress = link(rate, false, true, xoff);
    egress.ecn = red;
    egress.ecn.enabled = true;
    out = e.add_channel(egress);
    for (int i = 0; i < n; ++i) paths.push_back({in[static_cast<std::size_t>(i)], out});
    for (int i = 0; i < n; ++i) {
      PacketFlowRequest r;
      r.path = paths[static_cast<std::size_t>(i)];
      r.size = Bytes(bytes);
      r.start = TimePs(stagger.value() * i);
      flows.push_back(e.add_flow(r));
    }
    e.set_seed(7);
    if (dcqcn) e.enable_dcqcn(DcqcnParams{});
  }

  // Runs to `until` (or the end); the bytes each flow had delivered by then.
  std::vector<std::int64_t> run_to(TimePs until) {
    while (e.now() < until && e.step()) {
    }
    std::vector<std::int64_t> got;
    for (const std::uint32_t f : flows) got.push_back(e.delivered_bytes(f));
    return got;
  }
};

// RED's profile by hand (Kmin 5 KB, Kmax 200 KB, Pmax 1 %): 0 up to Kmin, Pmax (q - Kmin) /
// (Kmax - Kmin) between, 1 from Kmax; a hard threshold when Kmin = Kmax.
TEST(PacketEcn, RedProbabilityByHand) {
  const RedEcnSpec red;
  EXPECT_EQ(red_mark_probability(red, 0), 0.0);
  EXPECT_EQ(red_mark_probability(red, 5000), 0.0);
  EXPECT_DOUBLE_EQ(red_mark_probability(red, 102'500), 0.005);
  EXPECT_DOUBLE_EQ(red_mark_probability(red, 199'999), 0.01 * 194'999 / 195'000);
  EXPECT_EQ(red_mark_probability(red, 200'000), 1.0);
  RedEcnSpec step;
  step.kmin_bytes = step.kmax_bytes = 40'960;
  EXPECT_EQ(red_mark_probability(step, 40'959), 0.0);
  EXPECT_EQ(red_mark_probability(step, 40'960), 1.0);
}

// The marking decision the engine makes, over many draws from one port's stream: for queues at
// Kmin + k (Kmax - Kmin) / 8, k = 1..7, with Pmax 20 % (probabilities 2.5 % to 17.5 %) and 1 %
// (0.125 % to 0.875 %), 400,000 draws each: the fraction marked within 4 standard deviations,
// 4 sqrt(p (1 - p) / n), of the RED formula (a false failure once in about 16,000 runs of a
// case; the stream is seeded, so the result is the same every run). Below Kmin no draw is made and
// nothing is marked, from 0 to Kmin; from Kmax everything is.
TEST(PacketEcn, MarkFractionMatchesRedFormulaOverManyDraws) {
  constexpr int kDraws = 400'000;
  for (const double pmax : {0.2, 0.01}) {
    RedEcnSpec red;
    red.pmax = pmax;
    Rng rng(11, 0, stream_of({kEcnStreamTag, 3}));
    for (int k = 1; k <= 7; ++k) {
      SCOPED_TRACE(k);
      const std::int64_t q = red.kmin_bytes + k * (red.kmax_bytes - red.kmin_bytes) / 8;
      const double p = red_mark_probability(red, q);
      EXPECT_NEAR(p, pmax * k / 8, 1e-12);
      int marks = 0;
      for (int i = 0; i < kDraws; ++i) marks += red_mark(red, q, rng) ? 1 : 0;
      const double sigma = std::sqrt(p * (1 - p) / kDraws);
      EXPECT_NEAR(static_cast<double>(marks) / kDraws, p, 4 * sigma) << "pmax " << pmax;
    }
    for (std::int64_t q = 0; q <= red.kmin_bytes; q += 64) EXPECT_FALSE(red_mark(red, q, rng));
    EXPECT_TRUE(red_mark(red, red.kmax_bytes, rng));
  }
}

// A queue that stays below Kmin gets no mark. Two senders at 100 Gb/s into one 100 Gb/s port:
// PFC holds each ingress at XOFF (16 packets, 64 KiB) + headroom, so the egress queue stays below
// 2 (XOFF + headroom) < 200 KiB; with Kmin = 256 KiB nothing is marked (and no draw is made); the
// same run with Kmin = 5 KB marks (the control).
TEST(PacketEcn, NoMarksWhileTheQueueStaysBelowKmin) {
  RedEcnSpec high;
  high.kmin_bytes = 256 * 1024;
  high.kmax_bytes = 512 * 1024;
  Star quiet(2, 4 * 1024 * 1024, gbps(100), 16 * kMtu, high, false);
  quiet.e.run();
  const PacketChannelStats s = quiet.e.channel_stats(quiet.out);
  EXPECT_LT(s.peak_queue_bytes, high.kmin_bytes);
  EXPECT_GT(s.peak_queue_bytes, 16 * kMtu);  // it did queue
  EXPECT_EQ(s.ecn_marks, 0);
  EXPECT_EQ(quiet.e.drops(), 0U);

  Star marked(2, 4 * 1024 * 1024, gbps(100), 16 * kMtu, RedEcnSpec{}, false);
  marked.e.run();
  EXPECT_GT(marked.e.channel_stats(marked.out).ecn_marks, 0);
  EXPECT_GT(marked.e.marked_received(marked.flows[0]) + marked.e.marked_received(marked.flows[1]), 0);
}

// Same input, same seed, same marks; another seed, other marks.
TEST(PacketEcn, MarksAreDeterministicPerSeed) {
  const auto marks = [](std::uint64_t seed) {
    Star x(2, 2 * 1024 * 1024, gbps(100), 16 * kMtu, RedEcnSpec{}, true);
    x.e.set_seed(seed);
    x.e.run();
    return std::vector<std::int64_t>{x.e.channel_stats(x.out).ecn_marks, x.e.cnps(x.flows[0]), x.e.cnps(x.flows[1]),
                                     x.e.completion_time(x.flows[0]).value(), x.e.completion_time(x.flows[1]).value()};
  };
  EXPECT_EQ(marks(7), marks(7));
  EXPECT_NE(marks(7), marks(8));
}

}  // namespace
}  // namespace ct
