// Hand-computed tests of the fabric slowdown (reliability_slowdown.h) on tiny planes built by hand.
#include "analysis/reliability_slowdown.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ct {
namespace {

// One two-tier plane: `leaves` leaves with `ports` endpoint ports each, `spines` spines, `cables`
// parallel cables between every leaf and every spine, every link 100 Gb/s. Vertex order: ports,
// leaves, spines; links: ports first, then leaf-spine cables by (leaf, spine, cable).
struct TwoTier {
  Topology t;
  std::vector<VertexId> leaf, spine;
  std::vector<LinkId> uplinks;  // by (leaf, spine, cable)
};

TwoTier two_tier(int leaves, int ports, int spines, int cables) {
  TwoTier f;
  f.t.tiers = 2;
  std::vector<VertexId> port_vertices;
  for (int l = 0; l < leaves; ++l) {
    for (int p = 0; p < ports; ++p) {
      port_vertices.push_back(f.t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, 0, 0, 1));
    }
  }
  for (int l = 0; l < leaves; ++l) {
    f.leaf.push_back(f.t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, l, ports + spines * cables));
  }
  for (int s = 0; s < spines; ++s) {
    f.spine.push_back(f.t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, 0, s, leaves * cables));
  }
  for (int l = 0; l < leaves; ++l) {
    for (int p = 0; p < ports; ++p) f.t.add_link(port_vertices[l * ports + p], f.leaf[l], gbps(100), TimePs(0), -1);
  }
  for (int l = 0; l < leaves; ++l) {
    for (int s = 0; s < spines; ++s) {
      for (int c = 0; c < cables; ++c) f.uplinks.push_back(f.t.add_link(f.leaf[l], f.spine[s], gbps(100), TimePs(0), -1));
    }
  }
  f.t.finalize();
  return f;
}

// 4 leaves x 2 ports, 2 spines, one cable per leaf-spine pair: non-blocking (2 down, 2 up).
// Pattern: leaf i -> leaf i+2; each pair's 2 GB go 1 GB via each spine at 100 Gb/s: 80 ms.
// Spine 0 down: all 2 GB over spine 1's single 100 Gb/s cable: 160 ms. Slowdown 2 = S / (S - 1).
TEST(FabricSlowdown, OneSpineOfTwoDoublesTheTime) {
  TwoTier f = two_tier(4, 2, 2, 1);
  EXPECT_DOUBLE_EQ(fabric_slowdown(f.t, 0, 2, {f.spine[0], LinkId::invalid()}), 2.0);
}

// 8 leaves x 4 ports, 4 spines: one spine down leaves 3 of 4 uplinks, each now carrying 4/3 of a
// share: 4/3 = S / (S - 1).
TEST(FabricSlowdown, OneSpineOfFourCostsAThird) {
  TwoTier f = two_tier(8, 4, 4, 1);
  EXPECT_NEAR(fabric_slowdown(f.t, 0, 2, {f.spine[2], LinkId::invalid()}), 4.0 / 3.0, 1e-9);
}

// One cable of leaf 0 to spine 1 (of 4 spines, one cable each) down: leaf 0's traffic out and in
// shares 3 paths (4/3 of the time); the pairs not touching leaf 0 are unchanged; the last flow sets
// the time: 4/3.
TEST(FabricSlowdown, OneCableSlowsOnlyItsLeafsPairs) {
  TwoTier f = two_tier(8, 4, 4, 1);
  EXPECT_NEAR(fabric_slowdown(f.t, 0, 2, {VertexId::invalid(), f.uplinks[1]}), 4.0 / 3.0, 1e-9);
}

// Two parallel cables per leaf-spine pair (4 leaves x 4 ports, 2 spines): one cable down halves the
// bundle to 100 Gb/s. Each pair splits its bytes equally over the 2 spine paths (static split), so
// the path through the half bundle takes twice as long: slowdown 2 = c / (c - 1). An adaptive
// split sends that path half the bytes of the other (its worst bundle is at 1/2): shares 1/3 and
// 2/3 over 100 and 200 Gb/s, 4/3 of the healthy time = S c / (S c - 1) with S = c = 2.
TEST(FabricSlowdown, AHalvedBundleMakesItsPathTheStraggler) {
  TwoTier f = two_tier(4, 4, 2, 2);
  EXPECT_NEAR(fabric_slowdown(f.t, 0, 2, {VertexId::invalid(), f.uplinks[0]}), 2.0, 1e-9);
  EXPECT_NEAR(fabric_slowdown(f.t, 0, 2, {VertexId::invalid(), f.uplinks[0]}, PathSplit::kAdaptive), 4.0 / 3.0, 1e-9);
  // A whole spine down is the same for both splits: its paths are gone.
  EXPECT_NEAR(fabric_slowdown(f.t, 0, 2, {f.spine[1], LinkId::invalid()}, PathSplit::kAdaptive), 2.0, 1e-9);
}

// A single spine: its failure disconnects the leaves: infinite slowdown.
TEST(FabricSlowdown, ALoneSpineDownDisconnects) {
  TwoTier f = two_tier(2, 2, 1, 2);
  EXPECT_TRUE(std::isinf(fabric_slowdown(f.t, 0, 2, {f.spine[0], LinkId::invalid()})));
}

}  // namespace
}  // namespace ct
