// Link statistics every engine reports (sim/link_statistics.h), worked by hand on one resource of
// nominal capacity 100 b/s over a run of 40 ps, bins of 10 ps:
//   [0, 10)  load 100 at capacity 100: saturated;
//   [10, 20) load 50 at capacity 100: not;
//   [20, 30) load 50 at capacity 50 (degraded to half): saturated, at its reduced capacity;
//   [30, 40) load 99.95 at capacity 100: saturated (>= 99.9 %).
// Saturated time 10 + 10 + 10 = 30 ps. Utilization per bin, against the nominal 100: 1, 0.5, 0.5,
// 0.9995. A second resource at 99.8 % of its capacity throughout is never saturated.
#include "sim/link_statistics.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "support/link_resources.h"

namespace ct {
namespace {

TEST(LinkStatistics, SaturatedTimeAndSeriesByHand) {
  SimulationResult r;
  LinkStatistics stats(true);
  testing_support::add_link_resources(r, stats, 2, BitsPerSecond(100));
  stats.on_load(0, TimePs(0), 100, 100);
  stats.on_load(1, TimePs(0), 99.8, 100);
  stats.on_load(0, TimePs(10), 50, 100);
  stats.on_load(0, TimePs(20), 50, 50);
  stats.on_load(0, TimePs(30), 99.95, 100);
  EXPECT_EQ(stats.last_change(0), TimePs(30));
  EXPECT_EQ(stats.last_change(1), TimePs(0));
  r.makespan = TimePs(40);
  r.stats[0].carried_bits = 1;
  r.stats[1].carried_bits = 2;
  stats.add_saturated(r, r.makespan);
  EXPECT_EQ(r.stats[0].saturated, TimePs(30));
  EXPECT_EQ(r.stats[1].saturated, TimePs(0));

  stats.add_series(r, 1, 4);
  EXPECT_EQ(r.series_bin, TimePs(10));
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].resource, 0u);  // saturated longest, though it carried less
  ASSERT_EQ(r.series[0].utilization.size(), 4u);
  EXPECT_DOUBLE_EQ(r.series[0].utilization[0], 1.0);
  EXPECT_DOUBLE_EQ(r.series[0].utilization[1], 0.5);
  EXPECT_DOUBLE_EQ(r.series[0].utilization[2], 0.5);
  EXPECT_DOUBLE_EQ(r.series[0].utilization[3], 0.9995);
}

// The busiest resources (sim/simulation_result.h), by hand: six resources, saturated time then
// carried bits then index; resource 4 carried nothing and is left out, resource 5 is a barrier.
//   r0: 10 ps, 5 b   r1: 20 ps, 1 b   r2: 10 ps, 7 b   r3: 10 ps, 5 b   r4: 0 b   r5: barrier
// Full order: r1 (20 ps), r2 (10 ps, 7 b), r0 (10 ps, 5 b, index 0), r3. Ranked only as far as 2,
// the first two are the same, and every used resource is still there.
TEST(LinkStatistics, BusiestResourcesRankedAsFarAsAsked) {
  SimulationResult r;
  const std::pair<std::int64_t, double> stats[] = {{10, 5}, {20, 1}, {10, 7}, {10, 5}, {0, 0}, {30, 9}};
  for (std::size_t c = 0; c < 6; ++c) {
    ResourceInfo info;
    info.kind = c == 5 ? ResourceKind::kBarrier : ResourceKind::kLinkUp;
    r.resources.push_back(info);
    ResourceStats st;
    st.saturated = TimePs(stats[c].first);
    st.carried_bits = stats[c].second;
    r.stats.push_back(st);
  }
  EXPECT_EQ(busiest_resources(r), (std::vector<std::uint32_t>{1, 2, 0, 3}));
  const std::vector<std::uint32_t> two = busiest_resources(r, 2);
  ASSERT_EQ(two.size(), 4u);
  EXPECT_EQ(two[0], 1u);
  EXPECT_EQ(two[1], 2u);
  EXPECT_EQ(std::set<std::uint32_t>(two.begin() + 2, two.end()), (std::set<std::uint32_t>{0, 3}));
}

}  // namespace
}  // namespace ct
