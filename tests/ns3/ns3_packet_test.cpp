// The packet engine's core against ns-3.37 on what both model the same way: frames serialized at
// a link's rate, a propagation delay per link, routers that store and forward at once through FIFO
// (DropTail) queues, no losses (queues longer than any burst here). The engine runs with switch
// latency 0, store-and-forward, unlimited credits (ns-3's point-to-point links have no link-level
// flow control), and packets of the frame's size. Compared: each flow's completion (its last
// frame's arrival at the receiver), in ps: they agree to the picosecond in every case here (ns-3
// at ps resolution; every serialization time here is a whole number of ps).
#include <gtest/gtest.h>

#include <vector>

#include "ns3_reference.h"
#include "sim/packet/packet_engine.h"

namespace ct {
namespace {

using ns3ref::Ns3Chain;
using ns3ref::Ns3Flow;
using ns3ref::Ns3Link;

constexpr std::int64_t kGbps = 1'000'000'000;
constexpr std::int64_t kNs = 1000;

std::vector<std::int64_t> engine_completion_times(const Ns3Chain& c) {
  PacketEngine e(c.frame_bytes, 1);
  const auto channel = [&](const Ns3Link& l) {
    return e.add_channel({BitsPerSecond(l.rate_bps), TimePs(l.delay_ps), TimePs(0), false, kUnlimitedCredits});
  };
  std::vector<std::uint32_t> chain;
  for (const Ns3Link& l : c.chain) chain.push_back(channel(l));
  std::vector<std::vector<std::uint32_t>> paths;
  for (const Ns3Flow& f : c.flows) {
    std::vector<std::uint32_t> path{channel(f.access)};
    path.insert(path.end(), chain.begin(), chain.end());
    paths.push_back(path);
  }
  for (std::size_t f = 0; f < c.flows.size(); ++f) {
    PacketFlowRequest r;
    r.path = paths[f];
    r.size = Bytes(static_cast<std::int64_t>(c.flows[f].packets) * c.frame_bytes);
    r.start = TimePs(c.flows[f].start_ps);
    e.add_flow(r);
  }
  e.run();
  std::vector<std::int64_t> out;
  for (std::uint32_t f = 0; f < c.flows.size(); ++f) out.push_back(e.completion_time(f).value());
  return out;
}

void expect_agree(const Ns3Chain& c) {
  const std::vector<std::int64_t> ns3 = ns3ref::ns3_completion_times(c);
  const std::vector<std::int64_t> ours = engine_completion_times(c);
  ASSERT_EQ(ns3.size(), ours.size());
  for (std::size_t f = 0; f < ns3.size(); ++f) {
    SCOPED_TRACE(f);
    ASSERT_GE(ns3[f], 0) << "ns-3 lost a frame";
    EXPECT_EQ(ours[f], ns3[f]);
  }
}

// One flow of 8 frames over 1, 2 and 3 hops of 400 Gb/s (100, 250, 400 ns): serialization,
// propagation and store-and-forward pipelining.
TEST(Ns3SideBySide, ChainsOfOneTwoThreeHops) {
  for (std::size_t hops = 1; hops <= 3; ++hops) {
    SCOPED_TRACE(hops);
    Ns3Chain c;
    c.flows.push_back({{400 * kGbps, 100 * kNs}, 0, 8});
    const Ns3Link chain[] = {{400 * kGbps, 250 * kNs}, {400 * kGbps, 400 * kNs}};
    for (std::size_t h = 1; h < hops; ++h) c.chain.push_back(chain[h - 1]);
    expect_agree(c);
  }
}

// A slower link after the first router: 64 frames queue there (FIFO), the flow completes at the
// slow link's pace.
TEST(Ns3SideBySide, QueueingBeforeASlowerLink) {
  Ns3Chain c;
  c.flows.push_back({{400 * kGbps, 100 * kNs}, 0, 64});
  c.chain = {{100 * kGbps, 300 * kNs}, {400 * kGbps, 50 * kNs}};
  expect_agree(c);
}

// Two senders into one router and one 100 Gb/s link out (an incast of 2): their frames interleave
// in arrival order in the FIFO; the second starts 1.3 us later over a longer access link, so that
// no two frames arrive at the same picosecond (where the two simulators may order ties apart).
TEST(Ns3SideBySide, TwoFlowsShareAFifo) {
  Ns3Chain c;
  c.flows.push_back({{400 * kGbps, 100 * kNs}, 0, 32});
  c.flows.push_back({{200 * kGbps, 170 * kNs}, 1'300 * kNs, 16});
  c.chain = {{100 * kGbps, 200 * kNs}};
  expect_agree(c);
}

// Frames of 1,500 B (an Ethernet MTU) over two hops at 100 Gb/s.
TEST(Ns3SideBySide, EthernetSizedFrames) {
  Ns3Chain c;
  c.frame_bytes = 1500;
  c.flows.push_back({{100 * kGbps, 500 * kNs}, 0, 20});
  c.chain = {{100 * kGbps, 500 * kNs}};
  expect_agree(c);
}

}  // namespace
}  // namespace ct
