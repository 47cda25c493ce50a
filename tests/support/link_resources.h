// A result and its link statistics with `n` resources of one capacity, as an engine's set-up makes
// them: the fixture of the link-statistics and load-log tests.
#pragma once

#include "sim/link_statistics.h"
#include "sim/simulation_result.h"

namespace ct::testing_support {

inline void add_link_resources(SimulationResult& result, LinkStatistics& stats, int n, BitsPerSecond capacity) {
  for (int i = 0; i < n; ++i) {
    ResourceInfo info;
    info.capacity = capacity;
    result.resources.push_back(info);
    result.stats.emplace_back();
    stats.add_resource();
  }
}

}  // namespace ct::testing_support
