// Longhorn volume states and rebuild times worked by hand.
#include "survival/volume_rebuild.h"

#include <gtest/gtest.h>

namespace ct {
namespace {

constexpr double kGi = 1024.0 * 1024 * 1024;

// Three replicas on n0, n1, n2, engine on n0 (the pod's node):
//   n1 dies: 2 of 3 alive, degraded, the engine lives: served;
//   n0 dies: 2 of 3 alive, degraded, the engine's node is dead: UNAVAILABLE (not lost) until the
//            volume reattaches where the pod goes;
//   n0, n1, n2 die: no replica left: faulted and the data LOST.
// One replica on n1 (numberOfReplicas 1), engine on n0: n0 dies: the replica is intact (healthy)
// but unavailable; n1 dies: faulted, lost.
TEST(VolumeAfter, DegradedUnavailableAndLost) {
  const std::vector<std::string> three{"n0", "n1", "n2"};
  const VolumeAfter a = volume_after(three, 3, "n0", {"n1"});
  EXPECT_EQ(a.health, VolumeHealth::kDegraded);
  EXPECT_EQ(a.replicas_alive, 2);
  EXPECT_FALSE(a.unavailable);
  EXPECT_FALSE(a.data_lost);
  const VolumeAfter b = volume_after(three, 3, "n0", {"n0"});
  EXPECT_EQ(b.health, VolumeHealth::kDegraded);
  EXPECT_TRUE(b.unavailable);
  EXPECT_FALSE(b.data_lost);
  const VolumeAfter c = volume_after(three, 3, "n0", {"n0", "n1", "n2"});
  EXPECT_EQ(to_string(c.health), "faulted");
  EXPECT_TRUE(c.data_lost);
  EXPECT_FALSE(c.unavailable);
  const VolumeAfter d = volume_after({"n1"}, 1, "n0", {"n0"});
  EXPECT_EQ(d.health, VolumeHealth::kHealthy);
  EXPECT_TRUE(d.unavailable);
  EXPECT_TRUE(volume_after({"n1"}, 1, "n0", {"n1"}).data_lost);
}

// One rebuild of 60Gi alone on a 100 Gb/s link: 60 x 2^30 x 8 bits / 1e11 b/s = 5.1539607552 s.
// Starting at 600 s (the replenishment wait) it ends at 605.1539607552 s.
TEST(RebuildTime, FromSizeAndBandwidth) {
  const auto f = rebuild_finish_times({{"node-4 uplink", 100e9}}, {{"model-weights", 60 * kGi, 600, {0}}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NEAR(f[0], 600 + 60 * kGi * 8 / 100e9, 1e-9);
  EXPECT_NEAR(f[0], 605.1539607552, 1e-9);
}

// Two rebuilds share one 100 Gb/s link from t = 0, 60Gi and 30Gi: 50 Gb/s each. The 30Gi one ends
// at 30 x 2^30 x 8 / 5e10 = 5.1539607552 s; by then the 60Gi one has moved as much and has 30Gi
// left, now alone at 100 Gb/s: 30 x 2^30 x 8 / 1e11 = 2.5769803776 s more, 7.7309411328 s in all
// (= 90Gi at 100 Gb/s, the link never idle). A third rebuild on its own link is untouched.
TEST(RebuildTime, TwoConcurrentRebuildsShareOneLink) {
  const auto f = rebuild_finish_times({{"shared", 100e9}, {"other", 25e9}},
                                      {{"a", 60 * kGi, 0, {0}}, {"b", 30 * kGi, 0, {0}}, {"c", 1 * kGi, 0, {1}}});
  EXPECT_NEAR(f[1], 5.1539607552, 1e-9);
  EXPECT_NEAR(f[0], 7.7309411328, 1e-9);
  EXPECT_NEAR(f[2], 1 * kGi * 8 / 25e9, 1e-9);
}

// A rebuild that crosses a link with no capacity (a dead uplink) never finishes.
TEST(RebuildTime, DeadLinkNeverFinishes) {
  const auto f = rebuild_finish_times({{"dead", 0}, {"ok", 1e9}}, {{"v", kGi, 0, {0, 1}}});
  EXPECT_EQ(f[0], std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace ct
