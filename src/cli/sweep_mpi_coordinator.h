// Rank 0 of clustertwin-sweep-mpi (sweep_mpi_main.cpp): it resumes the journal (--checkpoint), hands
// out the unfinished work one item at a time to whichever rank asks (dynamic: points differ in cost
// by orders of magnitude): a whole point, or a trial slice of a point whose Monte Carlos are larger
// than the sweep's slice_trials (sweep/sweep_run.h SweepWork). It computes items itself on a second
// thread meanwhile (only its main thread calls MPI: MPI_THREAD_FUNNELED); that thread also finishes
// each split point once its last slice is in (the trials gathered in trial order). It stores each
// result by point index, journals it (per point, never per slice), and reports
// progress as the threaded command does (points done, running, failed, time left from the finished
// points' costs: sweep/sweep_run.h SweepProgressTracker). Built only into the MPI runner.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cli/progress.h"
#include "cli/sweep_command.h"

namespace ct::cli {

inline constexpr int kTagResult = 1;  // worker -> 0: 8-byte item index (-1: none yet) + its result's bytes
inline constexpr int kTagWork = 2;    // 0 -> worker: 4 x 8 bytes: item index (-1: stop), point, first trial, trials (0: whole)

class Coordinator {
 public:
  Coordinator(const SweepFile& sweep, const Catalog& catalog, const SweepCommandOptions& o);
  // Every point computed or journaled; the worker ranks told to stop.
  Result<SweepRun> run(int ranks);

 private:
  std::size_t take_next();
  void compute_locally();
  void compute_item(std::size_t t);
  void slice_arrived(const SweepItem& item, std::string bytes, int rank);
  void record(std::size_t i, PointResult r);
  bool take_local_results();
  bool serve_one_rank(int& workers);

  const SweepFile& sweep_;
  const Catalog& catalog_;
  const SweepCommandOptions& o_;
  ProgressReporter reporter_;
  SweepRun run_;
  std::vector<std::size_t> todo_;
  std::vector<SweepItem> items_;
  std::size_t split_points_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> local_done_{false};
  std::mutex mutex_;  // guards local_results_, work_, finishing_, by_rank_, tracker_ and started_
  std::vector<std::pair<std::size_t, PointResult>> local_results_;
  SweepWork work_;
  std::vector<std::pair<std::size_t, std::vector<std::string>>> finishing_;  // split points whose slices are all in
  std::vector<std::size_t> by_rank_;  // items computed by each rank
  SweepProgressTracker tracker_{0, 0, 1};
  std::vector<std::chrono::steady_clock::time_point> started_;  // by point
  Diagnostics errors_;
};

}  // namespace ct::cli
