// The engines' walk over the subnet manager's tables (fabric/lft_forwarding.h LftForwarding::walk,
// what a flow of `simulate --ibnetdiscover` follows, in either engine) against `ib trace`'s
// trace_route (ib/ib_checks.h, ibtracert's hop-by-hop walk) over the same tables, for every
// ordered pair of hosts, hop by hop: each hop as (the node it leaves, the node it reaches), the
// source CA first (the trace's last entry, the destination CA, sends on no port), and both
// delivered or both stopped at the same hop. No fabric here has parallel
// cables, so a (from, to) pair names one cable.
//   fabrics  the three-level fat tree make_fat_tree_fabric({pods 2, leaves 2, spines 2, hosts 2,
//            cores 2}) (8 hosts, 56 pairs) under ftree, updn and minhop; the two-by-two of
//            tests/support/ib_fixtures.h (4 hosts, 12 pairs) under the three; the ring of four
//            (kIbRing, 4 hosts, 12 pairs) under minhop and updn (ftree refuses a ring); and the
//            ring with its clockwise min-hop tables (every LID routed out of port 2 but the local
//            one: the credit-loop tables of ib_packet_deadlock_test), set by hand.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "fabric/fabric.h"
#include "fabric/lft_forwarding.h"
#include "ib/fat_tree_fabric.h"
#include "ib/ib_checks.h"
#include "ib/ib_routing.h"
#include "ib/ibnetdiscover.h"
#include "ib/simulation_fabric.h"
#include "ib/subnet_manager.h"
#include "support/ib_fixtures.h"
#include "support/ib_routed.h"
#include "support/shipped_catalog.h"

namespace ct {
namespace {

using Hops = std::vector<std::pair<std::string, std::string>>;

using fixtures::parsed;
using fixtures::routed;

// The fabric with every cabled port at 4xNDR (the fixtures state no rates; simulate needs them).
IbFabric rated(IbFabric f) {
  for (std::uint32_t n = 0; n < f.node_count(); ++n) {
    for (int p = 1; p <= f.ports(IbNodeId(n)); ++p) {
      if (f.remote(IbNodeId(n), p).node.valid()) f.set_link_rate(IbNodeId(n), p, *parse_ib_link_rate("4xNDR"));
    }
  }
  return f;
}

// Compares the two walks for every ordered pair of hosts; returns the pairs compared.
std::size_t compare_every_pair(const IbFabric& unrated, const IbRouting& routing, const std::string& what) {
  const IbFabric subnet = rated(unrated);
  auto built = simulation_fabric(subnet, routing, testing_support::real_catalog(), what);
  EXPECT_TRUE(built.ok()) << what << ": " << (built.ok() ? "" : built.errors().front().message);
  if (!built.ok()) return 0;
  const Fabric& fabric = built.value();
  const Topology& t = fabric.topology();
  EXPECT_NE(fabric.lfts(), nullptr);
  std::vector<std::uint32_t> directed;
  std::size_t pairs = 0;
  for (std::uint32_t s = 0; s < t.backend_port_count(); ++s) {
    for (std::uint32_t d = 0; d < t.backend_port_count(); ++d) {
      if (s == d) continue;
      const std::string src = t.vertex_name(VertexId(s));
      const std::string dst = t.vertex_name(VertexId(d));
      const bool walked = fabric.lfts()->walk(t, VertexId(s), VertexId(d), directed);
      Hops walk;
      for (const std::uint32_t dl : directed) {
        const LinkId l(dl / 2);
        const VertexId from = dl % 2 == 0 ? t.link_a[l.value()] : t.link_b[l.value()];
        walk.emplace_back(t.vertex_name(from), t.vertex_name(t.other_end(l, from)));
      }
      const auto src_node = subnet.find(src);
      const auto dst_node = subnet.find(dst);
      EXPECT_TRUE(src_node && dst_node) << src << " " << dst;
      if (!src_node || !dst_node) continue;
      const Trace trace = trace_route(subnet, routing, *src_node, 1, routing.lids.base_lid(*dst_node, 1));
      Hops traced;
      for (const TraceHop& h : trace.hops) {
        if (h.out_port == 0) {  // the destination CA, reached: it sends on no port
          EXPECT_EQ(h.node, *dst_node) << what << ": " << src << " -> " << dst;
          continue;
        }
        traced.emplace_back(subnet.label(h.node), subnet.label(subnet.remote(h.node, h.out_port).node));
      }
      EXPECT_EQ(walked, trace.delivered) << what << ": " << src << " -> " << dst << " " << trace.problem;
      EXPECT_EQ(walk, traced) << what << ": " << src << " -> " << dst;
      ++pairs;
    }
  }
  return pairs;
}

TEST(LftWalkAgainstTrace, FatTreeUnderEveryEngine) {
  const IbFabric tree = make_fat_tree_fabric({2, 2, 2, 2, 2});
  for (const IbEngine e : {IbEngine::kFatTree, IbEngine::kUpDown, IbEngine::kMinHop}) {
    EXPECT_EQ(compare_every_pair(tree, routed(tree, e), "fat tree " + to_string(e)), 56U);
  }
  const IbFabric two = parsed(fixtures::kIbTwoByTwo, "two.net");
  for (const IbEngine e : {IbEngine::kFatTree, IbEngine::kUpDown, IbEngine::kMinHop}) {
    EXPECT_EQ(compare_every_pair(two, routed(two, e), "two-by-two " + to_string(e)), 12U);
  }
}

TEST(LftWalkAgainstTrace, RingUnderMinHopUpDownAndClockwise) {
  const IbFabric ring = parsed(fixtures::kIbRing, "ring.net");
  for (const IbEngine e : {IbEngine::kMinHop, IbEngine::kUpDown}) {
    EXPECT_EQ(compare_every_pair(ring, routed(ring, e), "ring " + to_string(e)), 12U);
  }
  IbRouting clockwise = routed(ring, IbEngine::kMinHop);
  for (std::uint32_t s = 0; s < 4; ++s) {
    for (std::uint32_t lid = 1; lid <= 4; ++lid) clockwise.set_port(s, lid, lid - 1 == s ? 1 : 2);
  }
  EXPECT_EQ(compare_every_pair(ring, clockwise, "ring clockwise"), 12U);
}

}  // namespace
}  // namespace ct
