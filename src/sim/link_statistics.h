// Link statistics and time series, for every engine: per resource (simulation_result.h) the time
// it was saturated, and the load over time of the busiest ones, from the loads the engine reports
// as they change.
//
// Model. An engine reports each resource's load (bits/s) whenever it changes, with the resource's
// capacity at that time; between two reports the load is constant. A resource is saturated while
// its load is positive and at least 99.9 % of the capacity it had at the last report (a degraded
// link at its reduced capacity is the bottleneck it is; an idle failed link is not); the saturated
// time is summed up to the makespan. Time series: the makespan cut into `bins` equal bins (the last
// may reach past it), the busiest resources' loads integrated over each bin, divided by their
// nominal capacity. The load changes are kept for that (at most kSeriesLogLimit of them; past that
// the series are dropped with a note): reported one by one (on_load), or, by an engine that keeps
// its own, handed over once as a segmented log (sim/load_log.h, set_log) that is read in place.
// Carried bits and peak loads are the engine's own figures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "sim/load_log.h"
#include "sim/simulation_result.h"

namespace ct {

class LinkStatistics {
 public:
  static constexpr double kSaturated = 0.999;  // a resource this full counts as saturated
  static constexpr std::size_t kSeriesLogLimit = 16'000'000;  // load changes kept for time series

  // `series`: keep the load changes for time series.
  explicit LinkStatistics(bool series) : series_(series) {}

  // A new resource (the next index), idle.
  void add_resource() {
    last_.push_back(Last{TimePs(0), 0.0, 0.0, TimePs(0)});
  }

  // Resource r's load became `load` at `at`, when its capacity was `capacity` (bits/s).
  void on_load(std::uint32_t r, TimePs at, double load, double capacity) {
    Last& l = last_[r];
    if (was_saturated(l)) l.saturated += at - l.change;
    l.change = at;
    l.load = load;
    l.capacity = capacity;
    if (series_ && log_resource_.size() < kSeriesLogLimit) {
      log_resource_.push_back(r);
      log_time_.push_back(at);
      log_load_.push_back(load);
    }
  }

  // An engine that keeps its own load clocks reports the outcome once, after the run: resource r
  // was saturated for `saturated` up to its last load change at `last_change`, when its load
  // became `load` at capacity `capacity`; the changes it kept for the time series (limited to kSeriesLogLimit: full when reached), in the order they happened.
  // It replaces what on_load() added up for r: the flow engine feeds on_load() only for the time
  // series' log, and its own clocks give the totals.
  void set_resource(std::uint32_t r, TimePs saturated, TimePs last_change, double load, double capacity) {
    last_[r] = Last{last_change, load, capacity, saturated};
  }
  void set_log(LoadLog log) {
    if (!series_) return;
    log_resource_.clear();
    log_time_.clear();
    log_load_.clear();
    load_log_ = std::move(log);
  }

  // When resource r's load last changed.
  [[nodiscard]] TimePs last_change(std::uint32_t r) const { return last_[r].change; }

  // Adds each resource's saturated time up to `makespan` to result.stats (one per resource).
  void add_saturated(SimulationResult& result, TimePs makespan) const;

  // The time series of the `links` busiest resources (busiest_resources) in `bins` bins over
  // [0, result.makespan); none when links is 0 or the makespan 0. PRECONDITION: result.stats is
  // final (add_saturated done, carried bits set).
  void add_series(SimulationResult& result, std::uint32_t links, std::uint32_t bins) const;

 private:
  // What a load change reads and writes of a resource, together (one cache miss, not four, at a
  // million resources).
  struct Last {
    TimePs change;    // when the load last changed
    double load;      // bits/s since then
    double capacity;  // bits/s at the last load change
    TimePs saturated;  // saturated time up to `change`
  };
  [[nodiscard]] static bool was_saturated(const Last& l) {
    return l.load > 0.0 && l.load >= kSaturated * l.capacity;
  }

  bool series_;
  std::vector<Last> last_;
  std::vector<std::uint32_t> log_resource_;
  std::vector<TimePs> log_time_;
  std::vector<double> log_load_;
  LoadLog load_log_;  // set_log's, instead of the three above
};

}  // namespace ct
