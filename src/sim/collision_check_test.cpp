// The "dominated by hash collisions" rule (sim/collision_check.h) on hand-made results over
// two_tier(2 leaves, 2 spines, 2 hosts per leaf): a collective whose one step sends two flows,
// host 0 -> host 2 and host 1 -> host 3, each alone on its NIC links (1 flow per NIC).
//   Both flows hashed onto one leaf-spine link: that link carries 2 > 1 flows of the step; an
//   iteration of 2T against a bound of T (2x > 1.5x) is dominated by collisions, 1 collided link.
//   The same paths at 1.4T: collided but not dominated (1.4 <= 1.5).
//   The flows on different spine links at 2T: no link above the NICs' 1 flow: not dominated.
#include "sim/collision_check.h"

#include <gtest/gtest.h>

#include "support/fabric_fixtures.h"

namespace ct {
namespace {

struct Links {
  std::vector<std::uint32_t> nic;     // link ids whose lower end is a port
  std::vector<std::uint32_t> fabric;  // leaf-spine links
};

Links links_of(const Topology& t) {
  Links l;
  for (std::uint32_t i = 0; i < t.link_count(); ++i) {
    (t.tier[t.link_a[i].value()] == 0 ? l.nic : l.fabric).push_back(i);
  }
  return l;
}

// Two flows of one step, paths given as link ids (all "up" constraints, one per link).
SimulationResult two_flows(const Topology& t, std::vector<std::uint32_t> a, std::vector<std::uint32_t> b, TimePs took) {
  SimulationResult r;
  std::vector<std::uint32_t> constraint_of(t.link_count(), kNoIndex);
  auto constraint = [&](std::uint32_t link) {
    if (constraint_of[link] == kNoIndex) {
      constraint_of[link] = static_cast<std::uint32_t>(r.resources.size());
      ResourceInfo c;
      c.kind = ResourceKind::kLinkUp;
      c.link = LinkId(link);
      c.capacity = t.capacity[link];
      r.resources.push_back(c);
      r.stats.emplace_back();
    }
    return constraint_of[link];
  };
  for (const auto& path : {a, b}) {
    FlowRecord f;
    f.operation = 0;
    f.worker = 0;
    f.path_begin = static_cast<std::uint32_t>(r.path_pool.size());
    for (const std::uint32_t l : path) r.path_pool.push_back(constraint(l));
    f.path_size = static_cast<std::uint32_t>(path.size());
    r.flows.push_back(f);
  }
  OperationResult op;
  op.kind = OperationKind::kCollective;
  op.iterations = {{TimePs(0), took}};
  op.flows_end = 2;
  op.bound = TimePs(1'000'000);
  r.operations.push_back(op);
  return r;
}

TEST(CollisionCheck, TwoFlowsOnOneSpineLinkAtTwiceTheBoundAreDominated) {
  const Topology t = fixtures::two_tier(2, 2, 2);
  const Links l = links_of(t);
  ASSERT_GE(l.nic.size(), 4u);
  ASSERT_GE(l.fabric.size(), 2u);
  SimulationResult same = two_flows(t, {l.nic[0], l.fabric[0]}, {l.nic[1], l.fabric[0]}, TimePs(2'000'000));
  mark_collisions(t, same);
  EXPECT_TRUE(same.operations[0].collision_dominated);
  EXPECT_EQ(same.operations[0].collided_links, 1u);
  SimulationResult close = two_flows(t, {l.nic[0], l.fabric[0]}, {l.nic[1], l.fabric[0]}, TimePs(1'400'000));
  mark_collisions(t, close);
  EXPECT_FALSE(close.operations[0].collision_dominated);
  EXPECT_EQ(close.operations[0].collided_links, 1u);
  SimulationResult apart = two_flows(t, {l.nic[0], l.fabric[0]}, {l.nic[1], l.fabric[1]}, TimePs(2'000'000));
  mark_collisions(t, apart);
  EXPECT_FALSE(apart.operations[0].collision_dominated);
  EXPECT_EQ(apart.operations[0].collided_links, 0u);
}

}  // namespace
}  // namespace ct
