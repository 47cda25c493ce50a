// Generated flow sets on hand-built fabrics.
#include <gtest/gtest.h>

#include <set>

#include "routing/port_address.h"
#include "support/fabric_fixtures.h"
#include "traffic/flow_generator.h"

namespace ct {
namespace {

// two_tier(3 leaves, 2 spines, 4 hosts per leaf): leaf 0 holds hosts 0-3, leaf 1 hosts 4-7. For 6
// flows the default sources are leaf 0's 4 ports (hosts 0..3); the farthest leaf of a 2-tier fabric
// is the next leaf, leaf 1, whose hosts 4..7 do not send. For 2 flows: sources hosts 0 and 1.
TEST(FlowGenerator, DefaultElephantsClimbFromTheFirstLeaf) {
  const Topology t = fixtures::two_tier(3, 2, 4);
  EXPECT_EQ(default_elephant_endpoints(t, 2).sources, (std::vector<VertexId>{VertexId(0u), VertexId(1u)}));
  const Endpoints e = default_elephant_endpoints(t, 6);
  ASSERT_EQ(e.sources.size(), 4u);
  ASSERT_EQ(e.destinations.size(), 4u);
  EXPECT_EQ(e.sources[0], VertexId(0u));
  EXPECT_EQ(e.destinations[0], VertexId(4u));
  ElephantOptions o;
  o.count = 6;
  const std::vector<Flow> flows = elephant_flows(t, o, 7);
  ASSERT_EQ(flows.size(), 6u);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    EXPECT_EQ(flows[i].src, VertexId(static_cast<std::uint32_t>(i % 4)));
    EXPECT_EQ(flows[i].dst, VertexId(static_cast<std::uint32_t>(4 + i % 4)));
    EXPECT_EQ(flows[i].key.src_ip, port_address(t, flows[i].src));
    EXPECT_GE(flows[i].key.src_port, 0xC000);
    EXPECT_EQ(flows[i].key.dst_port, kRoceV2UdpPort);
  }
  // Same seed, same ports; another seed, other ports.
  EXPECT_EQ(elephant_flows(t, o, 7)[5].key.src_port, flows[5].key.src_port);
  int same = 0;
  const auto other = elephant_flows(t, o, 8);
  for (std::size_t i = 0; i < flows.size(); ++i) same += other[i].key.src_port == flows[i].key.src_port;
  EXPECT_LT(same, 6);
}

// In the 4-ary fat tree the first edge switch holds hosts 0 and 1 (pod 0); the farthest leaf is
// the first edge of another pod: edge 2 (pod 1) with hosts 4 and 5.
TEST(FlowGenerator, DefaultDestinationIsInAnotherPod) {
  const Topology t = fixtures::fat_tree_4();
  const Endpoints e = default_elephant_endpoints(t, 2);
  EXPECT_EQ(e.sources, (std::vector<VertexId>{VertexId(0u), VertexId(1u)}));
  EXPECT_EQ(e.destinations, (std::vector<VertexId>{VertexId(4u), VertexId(5u)}));
}

// Rail-optimized: fixtures::rail_two_tier(4 hosts, 2 rails, 1 spine): leaf 8 holds NIC 0 of hosts
// 0..3 (ports 0, 2, 4, 6), leaf 9 (the farthest: no pods) NIC 1 (ports 1, 3, 5, 7).
//   3 elephants: sources hosts 0, 1, 2; the first far port of a host that sends nothing is host
//     3's (port 7), so flows go to hosts 3, 0, 1: every flow to another host, distinct NICs.
//   4 elephants: every host of leaf 9 also sends. The old rule sent flow i to its own host's
//     NIC 1; now the destinations rotate by one: flow i -> host (i + 1) mod 4.
//   8 elephants: leaf 8 has 4 ports, so flow i leaves port 2 (i mod 4) (NICs carry 2 each) and goes
//     to host (i + 1) mod 4.
TEST(FlowGenerator, DefaultElephantsGoToOtherHosts) {
  const Topology t = fixtures::rail_two_tier(4, 2, 1);
  const auto host = [&](VertexId port) { return t.group[port.value()]; };
  ElephantOptions o;
  o.count = 3;
  std::vector<Flow> flows = elephant_flows(t, o, 1);
  ASSERT_EQ(flows.size(), 3u);
  const std::uint32_t three[] = {7, 1, 3};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(flows[i].src, VertexId(static_cast<std::uint32_t>(2 * i)));
    EXPECT_EQ(flows[i].dst, VertexId(three[i]));
  }
  for (int count : {4, 8}) {
    o.count = count;
    flows = elephant_flows(t, o, 1);
    ASSERT_EQ(flows.size(), static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < flows.size(); ++i) {
      EXPECT_EQ(flows[i].src, VertexId(static_cast<std::uint32_t>(2 * (i % 4))));
      EXPECT_EQ(host(flows[i].dst), (i + 1) % 4) << count << " flow " << i;
      EXPECT_NE(host(flows[i].src), host(flows[i].dst));
    }
  }
}

// Ring over 8 hosts, 1 rail, 2 channels x 3 QPs: 8 connections x 6 flows = 48, host h to h+1 mod 8,
// every QP with its own source port draw (RoCE range).
TEST(FlowGenerator, RingHasChannelsTimesQpsFlowsPerNeighbour) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  const std::vector<Flow> flows = ring_flows(t, RingOptions{2, 3, Bytes(0)}, 1);
  ASSERT_EQ(flows.size(), 48u);
  std::set<std::uint16_t> ports;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const std::uint32_t h = static_cast<std::uint32_t>(i / 6);
    EXPECT_EQ(flows[i].src, VertexId(h));
    EXPECT_EQ(flows[i].dst, VertexId((h + 1) % 8));
    ports.insert(flows[i].key.src_port);
  }
  EXPECT_GT(ports.size(), 40u);  // 48 draws from 16,384 ports: a repeat or two at most, not a constant
}

TEST(FlowGenerator, RedrawIsAFunctionOfSeedAndTrial) {
  const Topology t = fixtures::two_tier(2, 2, 4);
  std::vector<Flow> a = elephant_flows(t, ElephantOptions{}, 1);
  std::vector<Flow> b = a;
  redraw_source_ports(a, 3, 5);
  redraw_source_ports(b, 3, 5);
  EXPECT_EQ(a[0].key.src_port, b[0].key.src_port);
  EXPECT_EQ(a[1].key.src_port, b[1].key.src_port);
  // Trial 0 of seed s reproduces the generator's own draw.
  std::vector<Flow> c = elephant_flows(t, ElephantOptions{}, 9);
  std::vector<Flow> d = c;
  redraw_source_ports(d, 9, 0);
  EXPECT_EQ(c[0].key.src_port, d[0].key.src_port);
  EXPECT_EQ(c[1].key.src_port, d[1].key.src_port);
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// roce_port_of is a permutation of the 16,384 RoCEv2 source ports for every key (a Feistel network
// is a bijection whatever its round function), and different keys give different permutations.
TEST(RocePortOf, IsAPermutationOfThePortRangeForEveryKey) {
  for (const std::uint64_t key : {std::uint64_t{0}, std::uint64_t{1}, stream_of({7, 3, 1})}) {
    std::vector<std::uint8_t> seen(kRoceSourcePorts, 0);
    for (std::uint32_t i = 0; i < kRoceSourcePorts; ++i) {
      const std::uint16_t port = roce_port_of(key, i);
      ASSERT_GE(port, kRoceSourcePortMin);
      ASSERT_EQ(seen[port - kRoceSourcePortMin]++, 0) << "key " << key << " index " << i;
    }
  }
  int same = 0;
  for (std::uint32_t i = 0; i < 64; ++i) same += roce_port_of(1, i) == roce_port_of(2, i) ? 1 : 0;
  EXPECT_LT(same, 4);  // independent permutations agree on ~64 / 16,384 of 64 indices
}

}  // namespace
}  // namespace ct
