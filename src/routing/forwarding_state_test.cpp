// Forwarding state on hand-built fabrics: group members, kinds and sizes worked out by hand from
// the cabling, and what link failures remove.
#include <gtest/gtest.h>

#include <vector>

#include "routing/forwarding_state.h"
#include "support/fabric_fixtures.h"

namespace ct {
namespace {

std::vector<std::uint32_t> ids(std::span<const LinkId> links) {
  std::vector<std::uint32_t> out;
  for (LinkId l : links) out.push_back(l.value());
  return out;
}

// two_tier(2 leaves, 2 spines, 4 hosts per leaf, 2 parallel cables): ports 0-7 (links 0-7),
// leaves 8 and 9, spines 10 and 11. Leaf-spine links by (leaf, spine, parallel): leaf 8 has links
// 8, 9 (spine 10) and 10, 11 (spine 11); leaf 9 has 12, 13 (spine 10) and 14, 15 (spine 11).
// Expected: leaf 8 toward leaf 9: up over all 4 cables; toward itself: local; spine 10 toward leaf
// 9: down over its 2 cables 12, 13. Each leaf stores one window entry (itself) and falls back to its
// up group; each spine has one down group per leaf.
TEST(ForwardingState, TwoTierGroupsCountParallelCables) {
  const Topology t = fixtures::two_tier(2, 2, 4, 2);
  const ForwardingState f(t);
  ASSERT_EQ(f.leaf_count(), 2u);
  EXPECT_EQ(f.destination_of(VertexId(5u)), 1u);
  const std::uint32_t up = f.group(VertexId(8u), 1);
  EXPECT_EQ(f.kind(up), GroupKind::kUp);
  EXPECT_EQ(ids(f.members(up)), (std::vector<std::uint32_t>{8, 9, 10, 11}));
  EXPECT_EQ(f.owner(up), VertexId(8u));
  EXPECT_EQ(f.group(VertexId(8u), 0), ForwardingState::kLocalGroup);
  const std::uint32_t down = f.group(VertexId(10u), 1);
  EXPECT_EQ(f.kind(down), GroupKind::kDown);
  EXPECT_EQ(ids(f.members(down)), (std::vector<std::uint32_t>{12, 13}));
  EXPECT_EQ(f.group_count(VertexId(8u)), 1u);
  EXPECT_EQ(f.group_count(VertexId(10u)), 2u);
  // Groups: leaf 8 (1), leaf 9 (1), spine 10 (2), spine 11 (2), plus local and no-route.
  EXPECT_EQ(f.group_count(), 8u);
  // Windows: 1 entry per leaf, 2 per spine (one of them is its fallback, but the window spans it).
  EXPECT_LE(f.window_entries(), 6u);
}

// The 4-ary fat tree (fixtures::fat_tree_4): edges 16-23 (pod p: 16+2p, 17+2p), aggregations
// 24-31 (pod p: 24+2p, 25+2p), cores 32-35. Edge-agg links 16-31 by (pod, edge, agg); agg-core
// links 32-47 by (pod, agg j, core c) going to core 2j+c.
// Expected: edge 16 toward any other leaf goes up over links 16 (agg 24) and 17 (agg 25); agg 24
// toward edge 17 (same pod) goes down over link 18; toward edge 18 (pod 1) it goes up over links
// 32, 33 (cores 32, 33); core 32 toward edge 18 goes down over the link of agg 26 (pod 1, j = 0),
// link 36.
TEST(ForwardingState, FatTreeUpDownGroups) {
  const Topology t = fixtures::fat_tree_4();
  const ForwardingState f(t);
  ASSERT_EQ(f.leaf_count(), 8u);
  const std::uint32_t edge_up = f.group(VertexId(16u), 2);
  EXPECT_EQ(ids(f.members(edge_up)), (std::vector<std::uint32_t>{16, 17}));
  EXPECT_EQ(f.group(VertexId(16u), 1), edge_up);  // the same group for in-pod and remote leaves
  EXPECT_EQ(ids(f.members(f.group(VertexId(24u), 1))), (std::vector<std::uint32_t>{18}));
  const std::uint32_t agg_up = f.group(VertexId(24u), 2);
  EXPECT_EQ(f.kind(agg_up), GroupKind::kUp);
  EXPECT_EQ(ids(f.members(agg_up)), (std::vector<std::uint32_t>{32, 33}));
  const std::uint32_t core_down = f.group(VertexId(32u), 2);
  EXPECT_EQ(f.kind(core_down), GroupKind::kDown);
  EXPECT_EQ(ids(f.members(core_down)), (std::vector<std::uint32_t>{36}));
}

// Failing both up links of agg 24 (pod 0, j = 0: links 32 and 33) cuts cores 32 and 33 off from
// pod 0 and agg 24 off from the other pods. Expected: edge 16 toward edge 17 (same pod) still has 2
// members; toward edge 18 (pod 1) only agg 25 (link 17) remains; agg 26 (pod 1, j = 0) can no
// longer reach pod 0 (its cores lost pod 0), so edge 18 toward edge 16 keeps only link 21 (agg 27);
// core 32 has no route to pod 0.
TEST(ForwardingState, FailuresRemoveMembers) {
  const Topology t = fixtures::fat_tree_4();
  const std::vector<LinkId> failed = {LinkId(32u), LinkId(33u)};
  const ForwardingState f(t, failed);
  EXPECT_EQ(ids(f.members(f.group(VertexId(16u), 1))), (std::vector<std::uint32_t>{16, 17}));
  EXPECT_EQ(ids(f.members(f.group(VertexId(16u), 2))), (std::vector<std::uint32_t>{17}));
  EXPECT_EQ(ids(f.members(f.group(VertexId(18u), 0))), (std::vector<std::uint32_t>{21}));
  EXPECT_EQ(f.group(VertexId(32u), 0), ForwardingState::kNoRouteGroup);
  EXPECT_EQ(f.group(VertexId(26u), 0), ForwardingState::kNoRouteGroup);
  EXPECT_TRUE(f.failed(LinkId(32u)));
  EXPECT_FALSE(f.failed(LinkId(34u)));
}

// One of the two parallel cables between leaf 8 and spine 10 (link 8) fails. Expected: leaf 8's up
// group loses exactly that member (3 left); spine 10 reaches leaf 8 over link 9 only.
TEST(ForwardingState, FailedParallelCableLeavesItsTwin) {
  const Topology t = fixtures::two_tier(2, 2, 4, 2);
  const std::vector<LinkId> failed = {LinkId(8u)};
  const ForwardingState f(t, failed);
  EXPECT_EQ(ids(f.members(f.group(VertexId(8u), 1))), (std::vector<std::uint32_t>{9, 10, 11}));
  EXPECT_EQ(ids(f.members(f.group(VertexId(10u), 0))), (std::vector<std::uint32_t>{9}));
}

}  // namespace
}  // namespace ct
