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

// The reaction point by hand, line rate 40 Gb/s, the paper's parameters (g = 1/256, K = T = 55 us,
// B = 10 MB, F = 5, R_AI = 40 Mb/s, R_HAI = 400 Mb/s).
// First CNP at 0: Rt = 40, Rc = 40 (1 - 1/2) = 20 Gb/s; alpha = (1 - g) 1 + g = 1.
// Increase timer ticks at 55, 110, ... us: five of fast recovery halve the gap to Rt each,
// Rc = 40 - 20 / 2^k; the sixth is additive (Rt stays at the line rate): Rc = (40 + 39.375) / 2.
// Alpha: 10 periods of K without a CNP: (255/256)^10; the CNP at 560 us then cuts Rc by alpha / 2
// and raises alpha by g.
TEST(PacketDcqcn, ReactionPointByHand) {
  const DcqcnParams p;
  DcqcnRate r(gbps(40));
  EXPECT_FALSE(r.limited());
  r.advance(p, TimePs(0));
  r.on_cnp(p, TimePs(0));
  EXPECT_DOUBLE_EQ(r.rate(), 20e9);
  EXPECT_DOUBLE_EQ(r.target(), 40e9);
  EXPECT_DOUBLE_EQ(r.alpha(), 1.0);
  const double expected[] = {30e9, 35e9, 37.5e9, 38.75e9, 39.375e9, 39.6875e9};
  for (int k = 1; k <= 6; ++k) {
    r.advance(p, TimePs(55'000'000LL * k));
    EXPECT_DOUBLE_EQ(r.rate(), expected[k - 1]) << k;
  }
  r.advance(p, TimePs(560'000'000));  // 10 alpha periods of 55 us since the CNP
  const double alpha = std::pow(255.0 / 256.0, 10);
  EXPECT_NEAR(r.alpha(), alpha, 1e-15);
  const double rc = r.rate();
  r.on_cnp(p, TimePs(560'000'000));
  EXPECT_DOUBLE_EQ(r.target(), rc);
  EXPECT_DOUBLE_EQ(r.rate(), rc * (1 - alpha / 2));
  EXPECT_NEAR(r.alpha(), (1 - p.g) * alpha + p.g, 1e-15);
  // The byte counter: B = 10 MB sent is one increase event (fast recovery: half the gap).
  const double before = r.rate();
  r.on_sent(p, 10'000'000);
  EXPECT_DOUBLE_EQ(r.rate(), (r.target() + before) / 2);
}

// Hyper increase: after F + 1 events of both the timer and the byte counter, Rt grows by R_HAI.
TEST(PacketDcqcn, HyperIncreaseAfterBothCountersPassF) {
  DcqcnParams p;
  DcqcnRate r(gbps(400));
  r.on_cnp(p, TimePs(0));
  r.on_cnp(p, TimePs(0));  // two cuts: Rt = 200, Rc = 100 Gb/s
  EXPECT_DOUBLE_EQ(r.target(), 200e9);
  for (int k = 1; k <= 6; ++k) r.on_sent(p, p.byte_counter);  // j = 6 > F: additive from the sixth
  for (int k = 1; k <= 5; ++k) r.advance(p, TimePs(55'000'000LL * k));  // i = 5: still additive
  const double rt = r.target();
  r.advance(p, TimePs(55'000'000LL * 6));  // i = 6: min(i, j) > F: hyper
  EXPECT_DOUBLE_EQ(rt, 200e9 + 6 * 40e6);  // additive: j = 6, then i = 1..5 (max(i, j) > F)
  EXPECT_DOUBLE_EQ(r.target(), rt + 400e6);
}

// Two flows on one 40 Gb/s bottleneck (the DCQCN paper's link rate; the paper's Kmin, Kmax, Pmax
// and parameters, XOFF 400 KiB per ingress so that PFC does not act): flow 0 alone from 0, flow 1
// from 2 ms. The paper's experiments show DCQCN flows converging to their fair share within a few
// to tens of milliseconds at 40 Gb/s (cited from memory). Checked: from 10 ms after the second flow
// starts, in every 2 ms window, each flow within 15 % of the fair share of 20 Gb/s (DCQCN keeps
// no per-flow state at the switch: the flows' rates saw-tooth around the share by alpha / 2 of a
// cut, at most one per 50 us, and marks are drawn with Pmax 1 %; measured: at most 12 % apart),
// the two together at least 95 % of the link, and their means over 12-62 ms within 5 % of it
// (measured 19.2 and 20.8 Gb/s: the late starter keeps a small edge for tens of ms, alpha decaying
// at g = 1/256 per 55 us); no drops, and the first CNP only after flow 1 starts (flow 0 alone keeps the
// queue at one packet: nothing to mark).
TEST(PacketDcqcn, TwoFlowsConvergeToTheFairShare) {
  Star x(2, 1'000'000'000, gbps(40), 400 * 1024, RedEcnSpec{}, true, TimePs(2'000'000'000));
  const auto window = [](std::int64_t ms) { return TimePs(ms * 1'000'000'000); };
  std::vector<std::int64_t> last = x.run_to(window(2));
  EXPECT_EQ(x.e.cnps(x.flows[0]), 0);
  EXPECT_EQ(x.e.channel_stats(x.out).ecn_marks, 0);
  std::vector<std::int64_t> at_12;
  for (std::int64_t ms = 4; ms <= 62; ms += 2) {
    const std::vector<std::int64_t> got = x.run_to(window(ms));
    if (ms == 12) at_12 = got;
    if (ms > 12) {
      SCOPED_TRACE(ms);
      double sum = 0;
      for (std::size_t f = 0; f < 2; ++f) {
        const double rate = static_cast<double>(got[f] - last[f]) * 8 / 2e-3;
        EXPECT_NEAR(rate, 20e9, 0.15 * 20e9) << "flow " << f;
        sum += rate;
      }
      EXPECT_GE(sum, 0.95 * 40e9);
    }
    last = got;
  }
  for (std::size_t f = 0; f < 2; ++f) {
    const double mean = static_cast<double>(last[f] - at_12[f]) * 8 / 50e-3;
    EXPECT_NEAR(mean, 20e9, 0.05 * 20e9) << "flow " << f;
    EXPECT_GT(x.e.cnps(x.flows[f]), 0);
  }
  EXPECT_EQ(x.e.drops(), 0U);
}

// Incast n -> 1 at 40 Gb/s, 8 MiB per sender, XOFF 64 KiB per ingress (the egress queue can pass
// Kmax = 200 KB, so DCQCN gets marks): with DCQCN on, no drops and far fewer PAUSE frames than PFC
// alone: measured 825 -> 12 (n = 4), 2,445 -> 43 (n = 8), 4,893 -> 84 (n = 16): 57 to 69 times
// fewer; checked: at least 10 times fewer. After the first cuts (three of alpha / 2, 150 us,
// bring each sender from 40 to about 40 / n Gb/s) the queue drains below XOFF and PFC stops;
// without DCQCN every sender is paused (n - 1) / n of the run. The price: the bottleneck idles
// while the senders recover (last completion 7.86 vs 6.71 ms, 15.23 vs 13.43, 29.43 vs 26.85 ms).
// The notification point sends at most one CNP per flow per 50 us.
TEST(PacketDcqcn, IncastKeepsZeroDropsWithFewerPausesThanPfcAlone) {
  for (const int n : {4, 8, 16}) {
    SCOPED_TRACE(n);
    std::int64_t frames[2] = {0, 0};
    for (const bool dcqcn : {false, true}) {
      Star x(n, 8 * 1024 * 1024, gbps(40), 64 * 1024, RedEcnSpec{}, dcqcn);
      x.e.run();
      EXPECT_EQ(x.e.drops(), 0U);
      for (const std::uint32_t c : x.in) frames[dcqcn ? 1 : 0] += x.e.channel_stats(c).pause_frames;
      for (const std::uint32_t f : x.flows) {
        ASSERT_EQ(x.e.state(f), PacketFlowState::kDone);
        const TimePs span = x.e.completion_time(f) - x.e.start_time(f);
        EXPECT_LE(x.e.cnps(f), span.value() / 50'000'000 + 1);
        if (!dcqcn) {
          EXPECT_EQ(x.e.cnps(f), 0);
        }
      }
      // Line rate bound: n 8 MiB through 40 Gb/s; DCQCN within 20 % of it.
      const double bound = static_cast<double>(n) * 8 * 1024 * 1024 * 8 / 40e9;
      EXPECT_LT(to_seconds(x.e.now()), 1.2 * bound);
    }
    EXPECT_GT(frames[0], 0);
    EXPECT_LT(frames[1] * 10, frames[0]) << frames[1] << " vs " << frames[0];
  }
}

}  // namespace
}  // namespace ct
