// The packet engine deadlocks exactly where `ib route`'s credit-loop checker says, on the ring of
// four switches (tests/support/ib_fixtures.h kIbRing: A-B-C-D-A, one host each). Channels are the
// directed cables; each packet follows the subnet manager's LFTs hop by hop from its host to the
// destination LID. Every host sends 32 packets of 4 KiB to the host two switches ahead, buffers of
// one packet per port (64 credits of 64 B), 100 ns cables, 200 ns store-and-forward switches.
//   - Clockwise routes (the min-hop tie broken one way, as the checker's test sets them): the
//     checker finds the cycle of the four clockwise switch-to-switch channels; the engine stops
//     with packets waiting for credits and names the same four channels.
//   - Up/down on the same ring: the checker finds no loop, and every flow completes.
//   - Clockwise, with a fifth flow HA -> HB (one switch hop: HA -> A, A -> B, B -> HB): the loop
//     forms as before (HA's flows share their NIC round robin). Worked by hand: the far end of a
//     clockwise channel X -> Y (Y's input buffer) fills with packets of the flow entering at X (it
//     goes on Y -> Z, which waits); packets of HA -> HB that cross A -> B leave B for its host at
//     once, so the rest wait in A's output queue for A -> B, held in the buffer of HA -> A, which is
//     not on the cycle. flows_holding(cycle) = the four shift-2 flows {0, 1, 2, 3}; flow 4 is
//     stalled behind the loop, holding none of its buffers.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ib/ib_checks.h"
#include "ib/ib_fabric.h"
#include "ib/ib_routing.h"
#include "ib/ibnetdiscover.h"
#include "ib/subnet_manager.h"
#include "sim/packet/packet_engine.h"
#include "support/ib_fixtures.h"
#include "support/ib_routed.h"

namespace ct {
namespace {

using fixtures::routed;

IbFabric ring() { return fixtures::parsed(fixtures::kIbRing, "ring.net"); }

struct RingRun {
  std::vector<std::string> cycle;  // "'A'[2]" per channel, as the checker names them, sorted
  bool all_done = true;
  std::vector<std::uint32_t> holding;  // flows whose packets hold the cycle's buffers
  std::vector<bool> done;              // per flow
};

// The engine on the fabric: one channel per cable direction (node, port), flows along the LFTs:
// every host to the host two switches ahead, then each of `one_hop` (host indices) to the next.
RingRun simulate_ring(const IbFabric& f, const IbRouting& r, const std::vector<std::size_t>& one_hop = {}) {
  PacketEngine engine(4096, 1);
  std::map<std::pair<std::uint32_t, int>, std::uint32_t> channel;  // (node, out port) -> channel
  std::vector<std::pair<std::uint32_t, int>> owner;
  const auto channel_of = [&](IbNodeId n, int p) {
    const auto key = std::pair(n.value(), p);
    if (const auto it = channel.find(key); it != channel.end()) return it->second;
    const bool to_switch = f.is_switch(f.remote(n, p).node);
    const std::uint32_t c = engine.add_channel({gbps(400), nanoseconds(100), to_switch ? nanoseconds(200) : TimePs(0),
                                                false, 4096 / kCreditBlockBytes});
    channel.emplace(key, c);
    owner.push_back(key);
    return c;
  };
  std::vector<IbNodeId> hosts;
  for (std::uint32_t n = 0; n < f.node_count(); ++n) {
    if (!f.is_switch(IbNodeId(n))) hosts.push_back(IbNodeId(n));
  }
  std::vector<std::vector<std::uint32_t>> paths;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (host, hosts ahead)
  for (std::size_t h = 0; h < hosts.size(); ++h) pairs.emplace_back(h, 2);
  for (const std::size_t h : one_hop) pairs.emplace_back(h, 1);
  for (const auto& [h, ahead] : pairs) {
    const IbNodeId dst = hosts[(h + ahead) % hosts.size()];
    const std::uint32_t lid = r.lids.base_lid(dst, 1);
    std::vector<std::uint32_t> path{channel_of(hosts[h], 1)};
    IbNodeId at = f.remote(hosts[h], 1).node;
    while (f.is_switch(at)) {
      const int out = r.port(r.switch_index(at), lid);
      path.push_back(channel_of(at, out));
      at = f.remote(at, out).node;
    }
    EXPECT_EQ(at, dst);
    paths.push_back(path);
  }
  for (const auto& p : paths) {
    PacketFlowRequest request;
    request.path = p;
    request.size = Bytes(32 * 4096);
    engine.add_flow(request);
  }
  engine.run();
  RingRun out;
  for (std::uint32_t fl = 0; fl < engine.flow_count(); ++fl) {
    out.done.push_back(engine.state(fl) == PacketFlowState::kDone);
    out.all_done &= out.done.back();
  }
  const PacketDeadlock dead = engine.deadlock();
  EXPECT_LE(dead.cycles.size(), 1U);
  for (const std::uint32_t c : dead.empty() ? std::vector<std::uint32_t>{} : dead.cycles.front()) {
    out.cycle.push_back(fmt::format("'{}'[{}]", f.label(IbNodeId(owner[c].first)), owner[c].second));
  }
  out.holding = engine.flows_holding(dead.channels);
  std::sort(out.cycle.begin(), out.cycle.end());
  EXPECT_EQ(engine.drops(), 0U);
  return out;
}

TEST(PacketDeadlock, WhereTheCreditLoopCheckerSays) {
  const IbFabric f = ring();
  IbRouting clockwise = routed(f, IbEngine::kMinHop);
  for (std::uint32_t s = 0; s < 4; ++s) {
    for (std::uint32_t lid = 1; lid <= 4; ++lid) clockwise.set_port(s, lid, lid - 1 == s ? 1 : 2);  // HA..HD: LIDs 1-4
  }
  CreditLoopReport loops = check_credit_loops(f, clockwise);
  ASSERT_FALSE(loops.ok());
  std::sort(loops.cycle.begin(), loops.cycle.end());
  const RingRun run = simulate_ring(f, clockwise);
  EXPECT_FALSE(run.all_done);
  EXPECT_EQ(run.cycle, loops.cycle);
  EXPECT_EQ(run.cycle, (std::vector<std::string>{"'A'[2]", "'B'[2]", "'C'[2]", "'D'[2]"}));
}

TEST(PacketDeadlock, FlowsInTheLoopAndBehindIt) {
  const IbFabric f = ring();
  IbRouting clockwise = routed(f, IbEngine::kMinHop);
  for (std::uint32_t s = 0; s < 4; ++s) {
    for (std::uint32_t lid = 1; lid <= 4; ++lid) clockwise.set_port(s, lid, lid - 1 == s ? 1 : 2);
  }
  const RingRun run = simulate_ring(f, clockwise, {0});  // flow 4: HA -> HB
  EXPECT_EQ(run.cycle, (std::vector<std::string>{"'A'[2]", "'B'[2]", "'C'[2]", "'D'[2]"}));
  EXPECT_EQ(run.holding, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  ASSERT_EQ(run.done.size(), 5U);
  EXPECT_FALSE(run.done[4]);  // stalled, behind the loop
}

TEST(PacketDeadlock, NoneUnderUpDown) {
  const IbFabric f = ring();
  const IbRouting updn = routed(f, IbEngine::kUpDown);
  ASSERT_TRUE(check_credit_loops(f, updn).ok());
  const RingRun run = simulate_ring(f, updn);
  EXPECT_TRUE(run.all_done);
  EXPECT_TRUE(run.cycle.empty());
  EXPECT_TRUE(run.holding.empty());
}

}  // namespace
}  // namespace ct
