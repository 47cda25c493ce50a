#include "cli/sweep_mpi_coordinator.h"

#include <mpi.h>

#include <cstring>
#include <iostream>
#include <string>
#include <thread>

namespace ct::cli {

Coordinator::Coordinator(const SweepFile& sweep, const Catalog& catalog, const SweepCommandOptions& o)
    : sweep_(sweep), catalog_(catalog), o_(o), reporter_("sweep", "points", o.progress), work_(sweep, {}) {}

Result<SweepRun> Coordinator::run(int ranks) {
  auto pending = resume_sweep(sweep_, o_.checkpoint, run_);
  // Even when the journal cannot be used, the workers waiting for a point are told to stop.
  if (pending) todo_ = std::move(pending).value();
  if (!pending) errors_ = pending.errors();
  work_ = SweepWork(sweep_, todo_);
  items_ = work_.items();
  split_points_ = work_.split_points();
  by_rank_.assign(static_cast<std::size_t>(ranks), 0);
  tracker_ = SweepProgressTracker(run_.points.size(), run_.points.size() - todo_.size(), static_cast<unsigned>(ranks));
  started_.assign(run_.points.size(), {});
  std::thread local([this] { compute_locally(); });
  int workers = ranks - 1;
  while (workers > 0 || !local_done_ || !local_results_.empty()) {
    if (serve_one_rank(workers)) continue;
    if (!take_local_results()) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  local.join();
  take_local_results();
  reporter_.finish();
  if (split_points_ > 0 && !o_.progress.quiet) {
    std::string counts;
    for (std::size_t n : by_rank_) counts += " " + std::to_string(n);
    std::cerr << "sweep: " << items_.size() << " trial slices of " << split_points_ << " point(s); items by rank:" << counts << "\n";
  }
  if (!errors_.empty()) return errors_;
  run_.computed = todo_.size();
  return std::move(run_);
}

// The next item to hand out (an index into items_), its point marked started at its first slice.
std::size_t Coordinator::take_next() {
  const std::size_t t = next_++;
  if (t >= items_.size() || items_[t].slice != 0) return t;
  std::lock_guard lock(mutex_);
  started_[items_[t].point] = std::chrono::steady_clock::now();
  tracker_.started();
  return t;
}

// Items, and the finishing of split points (first, so that finished points are journaled early),
// until every item is taken and every split point finished.
void Coordinator::compute_locally() {
  std::size_t unfinished = split_points_;
  while (true) {
    std::vector<std::pair<std::size_t, std::vector<std::string>>> ready;
    {
      std::lock_guard lock(mutex_);
      ready.swap(finishing_);
    }
    for (auto& [i, slices] : ready) {
      PointResult r = finish_point(sweep_, catalog_, run_.points[i], slices);
      std::lock_guard lock(mutex_);
      local_results_.emplace_back(i, std::move(r));
      --unfinished;
    }
    if (!ready.empty()) continue;
    const std::size_t t = take_next();
    if (t < items_.size()) {
      compute_item(t);
    } else if (unfinished == 0) {
      break;
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  local_done_ = true;
}

void Coordinator::compute_item(std::size_t t) {
  const SweepItem& item = items_[t];
  if (item.trials.count > 0) {
    slice_arrived(item, evaluate_slice(sweep_, catalog_, run_.points[item.point], item.trials), 0);
    return;
  }
  PointResult r = evaluate_point(sweep_, catalog_, run_.points[item.point]);
  std::lock_guard lock(mutex_);
  ++by_rank_[0];
  local_results_.emplace_back(item.point, std::move(r));
}

void Coordinator::slice_arrived(const SweepItem& item, std::string bytes, int rank) {
  std::lock_guard lock(mutex_);
  ++by_rank_[static_cast<std::size_t>(rank)];
  if (auto slices = work_.arrived(item, std::move(bytes))) finishing_.emplace_back(item.point, std::move(*slices));
}

void Coordinator::record(std::size_t i, PointResult r) {
  run_.results[i] = std::move(r);
  auto journaled = journal_point(sweep_, o_.checkpoint, run_, i);
  if (!journaled) errors_.push_back(journaled.errors().front());
  std::lock_guard lock(mutex_);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_[i]).count();
  const SweepProgress& p = tracker_.finished(run_.results[i].status, seconds);
  reporter_.update(p.done, p.total, sweep_progress_detail(p));
}

bool Coordinator::take_local_results() {
  std::vector<std::pair<std::size_t, PointResult>> taken;
  {
    std::lock_guard lock(mutex_);
    taken.swap(local_results_);
  }
  for (auto& [i, r] : taken) record(i, std::move(r));
  return !taken.empty();
}

// One message from a worker, if any: its result recorded, its next point (or stop) sent.
bool Coordinator::serve_one_rank(int& workers) {
  int flag = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &flag, &status);
  if (flag == 0) return false;
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string message(static_cast<std::size_t>(count), '\0');
  MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::int64_t index = -1;
  std::memcpy(&index, message.data(), sizeof index);
  if (index >= 0) {
    const SweepItem& item = items_[static_cast<std::size_t>(index)];
    if (item.trials.count > 0) {
      slice_arrived(item, message.substr(sizeof index), status.MPI_SOURCE);
    } else {
      auto r = decode_point(sweep_, run_.points[item.point], message.substr(sizeof index),
                            "rank " + std::to_string(status.MPI_SOURCE) + "'s result");
      {
        std::lock_guard lock(mutex_);
        ++by_rank_[static_cast<std::size_t>(status.MPI_SOURCE)];
      }
      record(item.point, r && r.value() ? std::move(*r.value())
                                        : PointResult{PointStatus::kFailed, "the rank's result could not be read", {}});
    }
  }
  const std::size_t t = take_next();
  std::int64_t work[4] = {-1, 0, 0, 0};
  if (t < items_.size()) {
    const SweepItem& item = items_[t];
    work[0] = static_cast<std::int64_t>(t);
    work[1] = static_cast<std::int64_t>(item.point);
    work[2] = item.trials.first;
    work[3] = item.trials.count;
  }
  MPI_Send(work, 4, MPI_INT64_T, status.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
  if (work[0] < 0) --workers;
  return true;
}

}  // namespace ct::cli
