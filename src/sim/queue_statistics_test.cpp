// The output queue of a 2 -> 1 incast, worked by hand, in the packet engine's core and in the
// queue statistics' bins.
//
// Two senders, P = 4 packets of 4,096 B each, into one switch port; every channel 400 Gb/s (a
// packet serializes in t = 81.92 ns), propagation d = 100 ns, switch latency L = 200 ns,
// store-and-forward, credits unlimited (no flow control: the queue is the output port's alone).
// The k-th packets of both senders reach the output queue together at a_k = k t + d + L
// (a_1 = 381.92 ns, a_4 = 627.68 ns); the output port sends one packet per t from a_1 on. After
// the events at a_k it has received 2k packets and started k: k wait. After a_P it drains one a t.
//   Q = k packets on [a_k, a_k + t), k = 1..P, then P - j on [a_P + j t, a_P + (j + 1) t)
//   integral = t (P (P + 1) / 2 + P (P - 1) / 2) = t P^2 packets x time
//            = 4,096 B x 81,920 ps x 16 = 5,368,709,120 B ps
//   makespan = a_1 + 2 P t + d = 2 d + L + (2 P + 1) t = 1,137,280 ps
//   time-weighted mean = 5,368,709,120 / 1,137,280 = 4,720.66... B (1.15 packets)
// Peak: at a_k (k >= 2) both arrivals come before the port's end of transmission (they were
// scheduled when the senders started them, at (k - 1) t, before the port's, at a_(k-1)): for no
// time the queue holds k + 1 packets; the peak is (P + 1) x 4,096 = 20,480 B.
// Bins: the makespan needs 64 bins of 32 ns (1 ns doubled five times: 64 x 16 ns < 1,137.28 ns),
// ceil(1,137.28 / 32) = 36 of them. Bin 11, [352, 384) ns: one packet from a_1 = 381.92 ns on,
// 2.08 ns: mean 4,096 x 2.08 / 32 = 266.24 B, peak 4,096 B. Bin 19, [608, 640) ns, holds a_4:
// peak 5 packets, 20,480 B.
#include "sim/queue_statistics.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/packet/packet_engine.h"

namespace ct {
namespace {

constexpr std::int64_t kMtu = 4096;
constexpr std::int64_t kPackets = 4;

PacketChannelSpec channel(bool to_switch) {
  PacketChannelSpec s;
  s.rate = gbps(400);
  s.propagation = TimePs(100'000);
  s.forward_latency = to_switch ? TimePs(200'000) : TimePs(0);
  return s;
}

TEST(QueueStatistics, IncastTwoToOneTimeWeightedMeanByHand) {
  PacketEngine e(kMtu, 1);
  const std::uint32_t a = e.add_channel(channel(true));
  const std::uint32_t b = e.add_channel(channel(true));
  const std::uint32_t out = e.add_channel(channel(false));
  QueueStatistics queues;
  e.set_on_queue([&](std::uint32_t c, TimePs at, std::int64_t bytes) { queues.on_queue(c, at, bytes); });
  for (const std::uint32_t in : {a, b}) {
    const std::uint32_t path[] = {in, out};
    PacketFlowRequest r;
    r.path = path;
    r.size = Bytes(kPackets * kMtu);
    e.add_flow(r);
  }
  e.run();
  EXPECT_EQ(e.drops(), 0U);
  const TimePs makespan = std::max(e.completion_time(0), e.completion_time(1));
  EXPECT_EQ(makespan, TimePs(1'137'280));
  const PacketChannelStats s = e.channel_stats(out);
  EXPECT_EQ(s.queue_byte_ps, 5'368'709'120.0);
  EXPECT_EQ(s.peak_queue_bytes, 20'480);
  EXPECT_NEAR(s.queue_byte_ps / 1'137'280.0, 4'720.66, 0.01);

  SimulationResult result;
  result.makespan = makespan;
  result.stats.resize(3);
  for (const std::uint32_t c : {a, b, out}) {
    result.stats[c].peak_queue_bytes = e.channel_stats(c).peak_queue_bytes;
    result.stats[c].mean_queue_bytes = e.channel_stats(c).queue_byte_ps / 1'137'280.0;
  }
  queues.add_series(result, 8);
  // The senders' queues hold a packet for no time (lazy injection): only the port is hot.
  ASSERT_EQ(result.queue_series.size(), 1U);
  const QueueSeries& q = result.queue_series.front();
  EXPECT_EQ(q.resource, out);
  EXPECT_EQ(result.queue_bin, TimePs(32'000));
  ASSERT_EQ(q.mean_bytes.size(), 36U);
  EXPECT_DOUBLE_EQ(q.mean_bytes[11], 266.24);
  EXPECT_EQ(q.peak_bytes[11], 4'096);
  EXPECT_EQ(q.peak_bytes[19], 20'480);
  EXPECT_EQ(q.mean_bytes[10], 0.0);
  double integral = 0;
  for (std::size_t k = 0; k < q.mean_bytes.size(); ++k) {
    const double covered = std::min(32'000.0, 1'137'280.0 - 32'000.0 * static_cast<double>(k));
    integral += q.mean_bytes[k] * covered;
  }
  EXPECT_NEAR(integral, 5'368'709'120.0, 1e-3);
}

// The bins double and merge as time passes: a queue of 1,000 B held over [0, 10 us) then empty,
// reported again at 1 ms: width 1 ns x 2^14 = 16.384 us (64 of them reach 1.048576 ms > 1 ms);
// the first bin holds the 10 us of 1,000 B: mean 1,000 x 10 / 16.384 = 610.35... B, peak 1,000.
TEST(QueueStatistics, BinsDoubleAndMerge) {
  QueueStatistics queues;
  queues.on_queue(0, TimePs(0), 1000);
  queues.on_queue(0, TimePs(10'000'000), 0);
  queues.on_queue(0, TimePs(1'000'000'000), 0);
  EXPECT_EQ(queues.width(), TimePs(16'384'000));
  SimulationResult result;
  result.makespan = TimePs(1'000'000'000);
  result.stats.resize(1);
  result.stats[0].mean_queue_bytes = 10.0;
  queues.add_series(result, 1);
  ASSERT_EQ(result.queue_series.size(), 1U);
  const QueueSeries& q = result.queue_series.front();
  EXPECT_EQ(q.mean_bytes.size(), 62U);  // ceil(1,000 / 16.384)
  EXPECT_DOUBLE_EQ(q.mean_bytes[0], 1000.0 * 10'000'000 / 16'384'000);
  EXPECT_EQ(q.peak_bytes[0], 1000);
  EXPECT_EQ(q.peak_bytes[1], 0);
}

}  // namespace
}  // namespace ct
