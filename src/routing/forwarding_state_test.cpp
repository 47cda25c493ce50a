// Forwarding state on hand-built fabrics: group members, kinds and sizes worked out by hand from
// the cabling, and what link failures remove.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/rng.h"

#include "routing/forwarding_state.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "topology/builder.h"

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

// The model of the header, computed the plain way: for every destination leaf, down() over every
// switch in ascending tiers, dist() in descending tiers, then each switch's members by scanning its
// links. Returns, per (switch, destination ordinal) of the switch's plane, the member links with the
// kind appended (1 down, 0 up), empty for local, {kNoRoute} for no route.
constexpr std::uint32_t kInf = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kNoRoute = kInf;
std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> reference_groups(
    const Topology& t, const ForwardingState& f, const std::vector<LinkId>& failed_links) {
  std::vector<std::uint8_t> failed(t.link_count(), 0);
  for (const LinkId l : failed_links) failed[l.value()] = 1;
  std::vector<std::uint32_t> switches;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] == VertexKind::kSwitch && t.network[v] == Network::kBackend) switches.push_back(v);
  }
  std::stable_sort(switches.begin(), switches.end(), [&](auto a, auto b) { return t.tier[a] < t.tier[b]; });
  auto usable = [&](std::uint32_t v, const Adjacency& a) {
    const std::uint32_t n = a.neighbor.value();
    return !failed[a.link.value()] && t.kind[n] == VertexKind::kSwitch && t.network[n] == Network::kBackend &&
           t.plane[n] == t.plane[v] && t.tier[n] != t.tier[v];
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> out;
  for (std::uint32_t o = 0; o < f.leaf_count(); ++o) {
    const std::uint32_t target = f.leaf(o).value();
    std::vector<std::uint32_t> down(t.vertex_count(), kInf);
    down[target] = 0;
    for (const std::uint32_t v : switches) {
      for (const Adjacency& a : t.neighbors(VertexId(v))) {
        const std::uint32_t n = a.neighbor.value();
        if (usable(v, a) && t.tier[n] < t.tier[v] && down[n] != kInf) down[v] = std::min(down[v], down[n] + 1);
      }
    }
    std::vector<std::uint32_t> dist = down;
    for (auto it = switches.rbegin(); it != switches.rend(); ++it) {
      if (dist[*it] != kInf) continue;
      for (const Adjacency& a : t.neighbors(VertexId(*it))) {
        const std::uint32_t n = a.neighbor.value();
        if (usable(*it, a) && t.tier[n] > t.tier[*it] && dist[n] != kInf) dist[*it] = std::min(dist[*it], dist[n] + 1);
      }
    }
    for (const std::uint32_t v : switches) {
      if (t.plane[v] != t.plane[target]) continue;
      std::vector<std::uint32_t>& g = out[{v, o}];
      if (v == target) continue;
      const bool go_down = down[v] != kInf;
      if (!go_down && dist[v] == kInf) {
        g.push_back(kNoRoute);
        continue;
      }
      const std::vector<std::uint32_t>& level = go_down ? down : dist;
      for (const Adjacency& a : t.neighbors(VertexId(v))) {
        const std::uint32_t n = a.neighbor.value();
        if (usable(v, a) && (t.tier[n] < t.tier[v]) == go_down && level[n] == level[v] - 1) g.push_back(a.link.value());
      }
      g.push_back(go_down ? 1 : 0);
    }
  }
  return out;
}

// The forwarding state of t with `failed` against the plain computation above: the same members in
// the same order and kind for every switch and destination, and each switch's groups numbered in
// order of first use over ascending destinations.
void expect_plain_groups(const Topology& t, const std::vector<LinkId>& failed) {
  const ForwardingState f(t, failed);
  const auto expected = reference_groups(t, f, failed);
  std::map<std::uint32_t, std::uint32_t> next_id;  // switch -> the id its next new group must get
  for (const auto& [at, members] : expected) {
    if (next_id.count(at.first) == 0) next_id[at.first] = f.first_group(VertexId(at.first));
  }
  for (std::uint32_t o = 0; o < f.leaf_count(); ++o) {
    for (const auto& [at, members] : expected) {
      if (at.second != o) continue;
      const std::uint32_t v = at.first;
      const std::uint32_t g = f.group(VertexId(v), o);
      SCOPED_TRACE(testing::Message() << "switch " << v << " leaf " << o);
      if (members.empty()) {
        EXPECT_EQ(g, ForwardingState::kLocalGroup);
      } else if (members.front() == kNoRoute) {
        EXPECT_EQ(g, ForwardingState::kNoRouteGroup);
      } else {
        std::vector<std::uint32_t> got = ids(f.members(g));
        got.push_back(f.kind(g) == GroupKind::kDown ? 1 : 0);
        EXPECT_EQ(got, members);
        EXPECT_LE(g, next_id[v]);
        if (g == next_id[v]) ++next_id[v];
      }
    }
  }
  for (const auto& [v, id] : next_id) EXPECT_EQ(id, f.first_group(VertexId(v)) + f.group_count(VertexId(v)));
}

// Up to `most` random switch-to-switch links of t, `draws` times (the first draw: none).
void expect_plain_groups_under_failures(const Topology& t, int draws, std::uint64_t most, Rng& rng) {
  std::vector<LinkId> inner;
  for (std::uint32_t l = static_cast<std::uint32_t>(t.backend_port_count()); l < t.link_count(); ++l) inner.push_back(LinkId(l));
  for (int draw = 0; draw < draws; ++draw) {
    std::vector<LinkId> failed;
    const std::uint64_t count = draw == 0 ? 0 : rng.uniform(std::min<std::uint64_t>(most, inner.size()) + 1);
    for (std::uint64_t i = 0; i < count; ++i) failed.push_back(inner[rng.uniform(inner.size())]);
    SCOPED_TRACE(testing::Message() << "draw " << draw);
    expect_plain_groups(t, failed);
  }
}

// The forwarding state built from sparse distance rows against the plain computation, on the
// fixtures with random sets of failed links (up to 6 of the switch-to-switch links, 40 draws per
// fabric).
TEST(ForwardingState, MatchesThePlainComputationUnderRandomFailures) {
  const std::vector<Topology> fabrics = {fixtures::fat_tree_4(), fixtures::three_tier_two_pods(3, 2),
                                         fixtures::rail_two_tier(6, 3, 4), fixtures::two_tier(4, 3, 2, 2)};
  Rng rng(7, 0, 0);
  for (std::size_t k = 0; k < fabrics.size(); ++k) {
    SCOPED_TRACE(testing::Message() << "fabric " << k);
    expect_plain_groups_under_failures(fabrics[k], 40, 6, rng);
  }
}

// Switches with the same inputs share one computation of their rows and groups (the spines of a pod,
// the cores of a plane: forwarding_state.cpp). On a spec-built two-plane, three-tier rail-optimized
// B300 fabric, where nearly every spine and core shares, and with failures that make some of them
// differ from their peers (up to 12 failed links, 6 draws): the same groups as the plain computation.
TEST(ForwardingState, SharedRowsMatchThePlainComputationOnABuiltThreeTierFabric) {
  const std::string yaml =
      "name: b300-3tier-small\nnodes: {model: hgx-b300, count: 256}\n"
      "backend: {topology: rail-optimized, planes: 2, tiers: 3, switch: sn5600, oversubscription: [1, 1]}\n";
  const auto spec = parse_spec("small.yaml", yaml);
  ASSERT_TRUE(spec);
  const auto valid = validate(spec.value(), fixtures::test_catalog());
  ASSERT_TRUE(valid);
  const Topology t = build_topology(valid.value(), fixtures::test_catalog());
  ASSERT_EQ(t.tiers, 3);
  Rng rng(11, 0, 0);
  expect_plain_groups_under_failures(t, 6, 12, rng);
}

}  // namespace
}  // namespace ct
