// The segmented load log (sim/load_log.h), on small cases with segments of 2 and 3 entries: what
// goes in comes out in order, across segment boundaries, a gap too long for an entry and changes
// too wide for one; the limit makes it full and empty; the time series from it equal those from
// the changes reported one by one.
#include "sim/load_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/link_statistics.h"
#include "support/link_resources.h"

namespace ct {
namespace {

using Change = std::tuple<std::uint32_t, TimePs, double>;

std::vector<Change> read(const LoadLog& log) {
  std::vector<Change> out;
  log.for_each([&](std::uint32_t r, TimePs at, double load) { out.emplace_back(r, at, load); });
  return out;
}

// Eight changes in segments of 3: boundaries after the 3rd and 6th; the 5th comes 2^32 ps after
// the 4th (more than an entry's gap holds), which opens a segment of its own early: segments
// {1,2,3} {4} {5,6,7} {8}. Loads repeat (0, 400e9) and differ by sign only (0.0, -0.0 kept apart).
TEST(LoadLog, KeepsChangesAcrossSegmentsInOrder) {
  const std::int64_t far = std::int64_t{1} << 32;
  const std::vector<Change> in = {
      {0, TimePs(0), 400e9},           {1, TimePs(0), 200e9},          {0, TimePs(7), 0.0},
      {2, TimePs(9), 400e9},           {2, TimePs(9 + far), -0.0},     {1, TimePs(9 + far), 0.0},
      {0, TimePs(10 + far), 123.25},   {5, TimePs(3 * far), 400e9},
  };
  LoadLog log(3);
  log.set_limit(100);
  for (const auto& [r, at, load] : in) log.add(r, at, load);
  EXPECT_FALSE(log.full());
  EXPECT_EQ(log.size(), in.size());
  const std::vector<Change> out = read(log);
  ASSERT_EQ(out, in);
  EXPECT_TRUE(std::signbit(std::get<2>(out[4])));
  EXPECT_FALSE(std::signbit(std::get<2>(out[5])));
}

// Wide changes (a resource of 2^24 or more, a load index of 255 or more: two entries each) in
// segments of 3: 300 distinct loads on resources 0, 2^24 + 5 and 2^32 - 1 alternating, a wide
// change never split across two segments; all come back in order.
TEST(LoadLog, KeepsWideChangesWhole) {
  std::vector<Change> in;
  const std::uint32_t resources[] = {0, (1U << 24) + 5, 0xFFFFFFFFU};
  for (std::uint32_t i = 0; i < 300; ++i) in.emplace_back(resources[i % 3], TimePs(i / 2), 1e9 + i);
  in.emplace_back(7, TimePs(400), 1e9);  // a known load, index 0 again: narrow
  LoadLog log(3);
  log.set_limit(1000);
  for (const auto& [r, at, load] : in) log.add(r, at, load);
  EXPECT_EQ(read(log), in);
}

// Below the limit the changes are kept; reaching it (the series would be dropped) keeps nothing.
TEST(LoadLog, ReachingTheLimitKeepsNothing) {
  for (const std::size_t limit : {std::size_t{0}, std::size_t{4}, std::size_t{5}}) {
    LoadLog log(2);
    log.set_limit(limit);
    for (std::uint32_t i = 0; i < 4; ++i) log.add(i, TimePs(i), 1.0);
    EXPECT_EQ(log.full(), limit == 4) << limit;
    EXPECT_EQ(log.size(), limit == 5 ? 4u : 0u) << limit;
    EXPECT_EQ(read(log).size(), log.size()) << limit;
  }
}

// link_statistics_test's hand-worked resource (loads 100, 50, 50 at half capacity, 99.95 over four
// bins of 10 ps: utilization 1, 0.5, 0.5, 0.9995) and a second one at 99.8 %, with two changes a
// segment: the same series as the changes reported one by one.
TEST(LoadLog, LinkStatisticsSeriesSameAsChangesOneByOne) {
  const std::vector<std::tuple<std::uint32_t, TimePs, double, double>> changes = {
      {0, TimePs(0), 100, 100}, {1, TimePs(0), 99.8, 100}, {0, TimePs(10), 50, 100},
      {0, TimePs(20), 50, 50},  {0, TimePs(30), 99.95, 100},
  };
  auto run = [&](bool segmented) {
    SimulationResult r;
    LinkStatistics stats(true);
    testing_support::add_link_resources(r, stats, 2, BitsPerSecond(100));
    LoadLog log(2);
    log.set_limit(LinkStatistics::kSeriesLogLimit);
    for (const auto& [res, at, load, capacity] : changes) {
      stats.on_load(res, at, load, capacity);
      if (segmented) log.add(res, at, load);
    }
    if (segmented) stats.set_log(std::move(log));
    r.makespan = TimePs(40);
    r.stats[0].carried_bits = 1;
    r.stats[1].carried_bits = 2;
    stats.add_saturated(r, r.makespan);
    stats.add_series(r, 2, 4);
    return r;
  };
  const SimulationResult one_by_one = run(false);
  const SimulationResult segmented = run(true);
  ASSERT_EQ(one_by_one.series.size(), 2u);
  ASSERT_EQ(segmented.series.size(), 2u);
  EXPECT_EQ(segmented.series_bin, TimePs(10));
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(segmented.series[k].resource, one_by_one.series[k].resource);
    EXPECT_EQ(segmented.series[k].utilization, one_by_one.series[k].utilization);
  }
  EXPECT_EQ(segmented.series[0].resource, 0u);
  EXPECT_DOUBLE_EQ(segmented.series[0].utilization[3], 0.9995);
  EXPECT_DOUBLE_EQ(segmented.series[1].utilization[0], 0.998);
}

// A full log (the limit reached): the series are dropped with the same note as past the limit of
// changes reported one by one.
TEST(LoadLog, FullLogDropsTheSeriesWithANote) {
  SimulationResult r;
  LinkStatistics stats(true);
  testing_support::add_link_resources(r, stats, 1, BitsPerSecond(100));
  LoadLog log(2);
  log.set_limit(3);
  for (std::int64_t t = 0; t < 5; ++t) {
    stats.on_load(0, TimePs(t), 100, 100);
    log.add(0, TimePs(t), 100);
  }
  ASSERT_TRUE(log.full());
  stats.set_log(std::move(log));
  r.makespan = TimePs(40);
  r.stats[0].carried_bits = 1;
  stats.add_saturated(r, r.makespan);
  stats.add_series(r, 1, 4);
  EXPECT_TRUE(r.series.empty());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "load time series dropped: more than 16 million load changes");
}

}  // namespace
}  // namespace ct
