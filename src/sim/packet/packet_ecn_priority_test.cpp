// ECN marks counted per port and priority (packet_engine.h ecn_marks(channel, vl)), worked by hand.
//
// A star: senders H0 and H1 on links of R = 400 Gb/s and H2 on one of R / 4 into a switch S, one
// egress port e of R to the receiver D; propagation d = 1 us on every link, switch latency L =
// 500 ns, store-and-forward, no credit limit, no PFC. H0 and H1 send P = 8 packets of 4 KiB each on
// the "hot" priority, H2 sends Q = 4 on the "cold" one, all starting at 0. e marks at dequeue with
// a hard threshold of one packet (Kmin = Kmax = 4096 B): a departing packet is marked when it
// leaves at least one packet of its own priority behind.
//
// t = 81.92 ns per packet at R. Packet k of H0 and of H1 reaches e's queue at a_k = (k + 1) t + d
// + L (k = 0..7); packet j of H2 at b_j = (j + 1) 4 t + d + L = a_{4j+3}. Ties at one instant go
// in the order the events were scheduled: an arrival was scheduled when its sender started it,
// before e's end of transmission at that instant was (scheduled one t earlier, at a_{k-1} > k t),
// so arrivals come first, H0's before H1's.
//   - e is idle at a_0: H0's packet 0 leaves at once, nothing of its priority behind: unmarked.
//     From then on e sends back to back (departure i at a_i, i = 0..19: 2 P + Q = 20 packets).
//   - Hot: by a_k (k <= 7) 2 (k + 1) hot packets arrived and at most k + 1 left, so every hot
//     departure from a_1 on leaves one or more behind, until the last hot packet (H1's packet 7,
//     FIFO) leaves the queue empty: 2 P - 2 = 14 marks; H0's flow receives 7 marked packets (1..7),
//     H1's 7 (0..6).
//   - Cold: H2's packet j arrives at a_{4j+3} before e's departure there, and e's round robin over
//     priorities serves it next (the packet before it was hot); the next cold packet comes 4 t
//     later, so each leaves no cold packet behind: 0 marks, although e's queue (both priorities)
//     holds hot packets every time. A port-wide count would mark all 4.
// With DCQCN each marked flow's receiver sends one CNP (N = 50 us is longer than the run, and the
// first CNP comes back 2.5 us after a delivery, when every packet has left its sender): 1, 1, 0.
#include <gtest/gtest.h>

#include <vector>

#include "sim/packet/dcqcn.h"
#include "sim/packet/packet_engine.h"

namespace ct {
namespace {

constexpr std::int64_t kMtu = 4096;
constexpr BitsPerSecond kRate{400'000'000'000};

PacketChannelSpec link(BitsPerSecond rate, bool to_switch) {
  PacketChannelSpec s;
  s.rate = rate;
  s.propagation = TimePs(1'000'000);
  s.forward_latency = to_switch ? TimePs(500'000) : TimePs(0);
  return s;
}

struct Marks {
  std::int64_t hot = 0;
  std::int64_t cold = 0;
  std::int64_t port = 0;
  std::vector<std::int64_t> marked;  // per flow: H0, H1, H2
  std::vector<std::int64_t> cnps;
};

Marks run_star(std::uint8_t hot, std::uint8_t cold) {
  PacketEngine e(kMtu, 2);
  const std::uint32_t h0 = e.add_channel(link(kRate, true));
  const std::uint32_t h1 = e.add_channel(link(kRate, true));
  const std::uint32_t h2 = e.add_channel(link(BitsPerSecond(kRate.value() / 4), true));
  PacketChannelSpec egress = link(kRate, false);
  egress.ecn.enabled = true;
  egress.ecn.kmin_bytes = egress.ecn.kmax_bytes = kMtu;
  const std::uint32_t out = e.add_channel(egress);
  const std::vector<std::vector<std::uint32_t>> paths = {{h0, out}, {h1, out}, {h2, out}};
  const std::uint8_t vls[] = {hot, hot, cold};
  const std::int64_t packets[] = {8, 8, 4};
  for (std::size_t i = 0; i < 3; ++i) {
    PacketFlowRequest r;
    r.path = paths[i];
    r.size = Bytes(packets[i] * kMtu);
    r.vl = vls[i];
    e.add_flow(r);
  }
  e.enable_dcqcn(DcqcnParams{});
  e.run();
  Marks m;
  m.hot = e.ecn_marks(out, hot);
  m.cold = e.ecn_marks(out, cold);
  m.port = e.channel_stats(out).ecn_marks;
  for (std::uint32_t f = 0; f < 3; ++f) {
    EXPECT_EQ(e.state(f), PacketFlowState::kDone);
    m.marked.push_back(e.marked_received(f));
    m.cnps.push_back(e.cnps(f));
  }
  // e sent back to back from a_0: the last tail left it at a_20 = 21 t + d + L and reached D one
  // d later, 21 t + 2 d + L = 4,220.32 ns: H1's flow (its packet 7 is the last).
  EXPECT_EQ(e.completion_time(1), TimePs(4'220'320));
  return m;
}

TEST(PacketEcnPriority, MarksOnlyThePriorityAboveTheThresholdByHand) {
  for (const auto& [hot, cold] : {std::pair<std::uint8_t, std::uint8_t>{0, 1}, {1, 0}}) {
    SCOPED_TRACE(testing::Message() << "hot priority " << int{hot});
    const Marks m = run_star(hot, cold);
    EXPECT_EQ(m.hot, 14);
    EXPECT_EQ(m.cold, 0);
    EXPECT_EQ(m.port, 14);  // the port's count is the sum over its priorities
    EXPECT_EQ(m.marked, (std::vector<std::int64_t>{7, 7, 0}));
    EXPECT_EQ(m.cnps, (std::vector<std::int64_t>{1, 1, 0}));
  }
}

// No port marks anything below its threshold: with Kmin = Kmax above the deepest queue (20
// packets), neither priority is marked and no CNP is sent.
TEST(PacketEcnPriority, NothingBelowTheThreshold) {
  PacketEngine e(kMtu, 2);
  const std::uint32_t h0 = e.add_channel(link(kRate, true));
  const std::uint32_t h1 = e.add_channel(link(kRate, true));
  PacketChannelSpec egress = link(kRate, false);
  egress.ecn.enabled = true;
  egress.ecn.kmin_bytes = egress.ecn.kmax_bytes = 21 * kMtu;
  const std::uint32_t out = e.add_channel(egress);
  const std::vector<std::vector<std::uint32_t>> paths = {{h0, out}, {h1, out}};
  for (std::uint8_t i = 0; i < 2; ++i) {
    PacketFlowRequest r;
    r.path = paths[i];
    r.size = Bytes(8 * kMtu);
    r.vl = i;
    e.add_flow(r);
  }
  e.enable_dcqcn(DcqcnParams{});
  e.run();
  EXPECT_EQ(e.ecn_marks(out, 0), 0);
  EXPECT_EQ(e.ecn_marks(out, 1), 0);
  EXPECT_EQ(e.cnps(0) + e.cnps(1), 0);
}

}  // namespace
}  // namespace ct
