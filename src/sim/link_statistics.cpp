#include "sim/link_statistics.h"

#include <algorithm>

namespace ct {

void LinkStatistics::add_saturated(SimulationResult& result, TimePs makespan) const {
  for (std::uint32_t r = 0; r < last_.size(); ++r) {
    result.stats[r].saturated += last_[r].saturated;
    if (was_saturated(last_[r])) result.stats[r].saturated += makespan - last_[r].change;
  }
}

void LinkStatistics::add_series(SimulationResult& result, std::uint32_t links, std::uint32_t bins_wanted) const {
  if (links == 0 || result.makespan.value() <= 0) return;
  if (log_resource_.size() >= kSeriesLogLimit || load_log_.full()) {
    result.notes.push_back("load time series dropped: more than 16 million load changes");
    return;
  }
  std::vector<std::uint32_t> order = busiest_resources(result, links);
  order.resize(std::min<std::size_t>(order.size(), links));
  const std::int64_t bins = std::max<std::uint32_t>(bins_wanted, 1);
  const std::int64_t width = (result.makespan.value() + bins - 1) / bins;
  result.series_bin = TimePs(width);
  std::vector<std::uint32_t> slot(result.resources.size(), kNoIndex);
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    slot[order[k]] = k;
    result.series.push_back({order[k], std::vector<double>(static_cast<std::size_t>(bins), 0.0)});
  }
  std::vector<TimePs> since(order.size(), TimePs(0));
  std::vector<double> load(order.size(), 0.0);
  // Integrates a piecewise-constant load over [from, to) into the bins.
  auto integrate = [&](std::uint32_t k, TimePs from, TimePs to) {
    if (load[k] == 0) return;
    const auto cap = static_cast<double>(result.resources[result.series[k].resource].capacity.value());
    for (std::int64_t t = from.value(); t < to.value();) {
      const std::int64_t bin = t / width;
      const std::int64_t end = std::min(to.value(), (bin + 1) * width);
      result.series[k].utilization[static_cast<std::size_t>(bin)] +=
          load[k] / cap * static_cast<double>(end - t) / static_cast<double>(width);
      t = end;
    }
  };
  auto change = [&](std::uint32_t r, TimePs at, double to) {
    const std::uint32_t k = slot[r];
    if (k == kNoIndex) return;
    integrate(k, since[k], at);
    since[k] = at;
    load[k] = to;
  };
  for (std::size_t e = 0; e < log_resource_.size(); ++e) change(log_resource_[e], log_time_[e], log_load_[e]);
  load_log_.for_each(change);
  for (std::uint32_t k = 0; k < order.size(); ++k) integrate(k, since[k], result.makespan);
}

}  // namespace ct
