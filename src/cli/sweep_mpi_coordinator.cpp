#include "cli/sweep_mpi_coordinator.h"

#include <mpi.h>

#include <cstring>
#include <thread>

namespace ct::cli {

Coordinator::Coordinator(const SweepFile& sweep, const Catalog& catalog, const SweepCommandOptions& o)
    : sweep_(sweep), catalog_(catalog), o_(o), reporter_("sweep", "points", o.progress) {}

Result<SweepRun> Coordinator::run(int ranks) {
  auto pending = resume_sweep(sweep_, o_.checkpoint, run_);
  // Even when the journal cannot be used, the workers waiting for a point are told to stop.
  if (pending) todo_ = std::move(pending).value();
  if (!pending) errors_ = pending.errors();
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
  if (!errors_.empty()) return errors_;
  run_.computed = todo_.size();
  return std::move(run_);
}

// The next point to hand out (an index into todo_), marked started.
std::size_t Coordinator::take_next() {
  const std::size_t t = next_++;
  if (t >= todo_.size()) return t;
  std::lock_guard lock(mutex_);
  started_[todo_[t]] = std::chrono::steady_clock::now();
  tracker_.started();
  return t;
}

void Coordinator::compute_locally() {
  for (std::size_t t = take_next(); t < todo_.size(); t = take_next()) {
    PointResult r = evaluate_point(sweep_, catalog_, run_.points[todo_[t]]);
    std::lock_guard lock(mutex_);
    local_results_.emplace_back(todo_[t], std::move(r));
  }
  local_done_ = true;
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
    const auto i = static_cast<std::size_t>(index);
    auto r = decode_point(sweep_, run_.points[i], message.substr(sizeof index));
    record(i, r ? std::move(*r) : PointResult{PointStatus::kFailed, "the rank's result could not be read", {}});
  }
  const std::size_t t = take_next();
  const std::int64_t work = t < todo_.size() ? static_cast<std::int64_t>(todo_[t]) : -1;
  MPI_Send(&work, 1, MPI_INT64_T, status.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
  if (work < 0) --workers;
  return true;
}

}  // namespace ct::cli
