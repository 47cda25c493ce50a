// Output queues over time, for an engine that has queues (the packet engine): per resource, the
// bytes in its output queue as the engine reports each change, kept in time bins of bounded number
// so that memory does not grow with the run's length.
//
// Model. Between two reports a queue holds a constant number of bytes. Time from 0 is cut into
// kBins bins of `width`, first kFirstWidth; when a report comes at or past kBins x width, the width
// doubles and each pair of bins merges (their byte-time added, their peaks the larger). Per bin and
// queue: the bytes integrated over time (byte x ps) and the most bytes at any instant in it, a
// report's instant included (a queue that rises and falls at one instant peaks there for no time,
// as the engine's own peak counts it). At the end the makespan M spans ceil(M / width) bins (between
// kBins / 2 + 1 and kBins once M > kBins x kFirstWidth); a bin's mean is its byte-time over the part
// of it before M.
//
// The hottest queues: those with a positive time-weighted mean over the run (the result's
// ResourceStats::mean_queue_bytes), by that mean, then peak bytes, then index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "sim/simulation_result.h"

namespace ct {

// How many of the hottest queues `simulate --csv-queues` and `--html` keep.
inline constexpr std::uint32_t kHottestQueues = 8;

class QueueStatistics {
 public:
  static constexpr std::int64_t kBins = 64;
  static constexpr TimePs kFirstWidth{1000};  // 1 ns

  // Resource r's output queue holds `bytes` from `at` on. PRECONDITION: `at` does not decrease.
  void on_queue(std::uint32_t r, TimePs at, std::int64_t bytes);

  // The series of the `queues` hottest queues up to result.makespan into result.queue_series and
  // queue_bin. PRECONDITION: result.stats final (mean and peak queue bytes), makespan set, every
  // report at or before it.
  void add_series(SimulationResult& result, std::uint32_t queues);

  [[nodiscard]] TimePs width() const { return width_; }

 private:
  struct Track {
    std::int64_t bytes = 0;
    TimePs since{0};
    std::vector<double> byte_ps;
    std::vector<std::int64_t> peak;
  };
  void widen(TimePs at);
  void advance(Track& t, TimePs to) const;

  TimePs width_ = kFirstWidth;
  std::vector<std::uint32_t> slot_;  // resource -> track, kNoTrack when never reported
  std::vector<Track> tracks_;
};

}  // namespace ct
