// clustertwin-sweep-mpi SWEEP.yaml [the options of clustertwin sweep]: the sweep spread over MPI
// ranks; what `mpirun -np N clustertwin sweep SWEEP.yaml` runs (cli/sweep_command.h).
//
// Rank 0 coordinates: it resumes the journal (--checkpoint), hands out the unfinished points one at
// a time to whichever rank asks (dynamic: points differ in cost by orders of magnitude), computes
// points itself on a second thread meanwhile (only its main thread calls MPI: MPI_THREAD_FUNNELED),
// stores each result by point index, journals it, and writes the outputs through the same code as
// the threaded command. Each rank evaluates a point alone with the point's own seeds, so the bytes
// do not depend on N or on which rank ran what. A rank that dies takes the job down (Open MPI's
// default); the points already journaled are not computed again by the next run.
#include <mpi.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/progress.h"
#include "cli/sweep_command.h"
#include "io/loaders.h"

namespace ct::cli {
namespace {

constexpr int kTagResult = 1;  // worker -> 0: 8-byte point index (-1: none yet) + encoded result
constexpr int kTagWork = 2;    // 0 -> worker: 8-byte point index, -1: stop

void send_result(std::int64_t index, const std::string& text) {
  std::string message(sizeof index, '\0');
  std::memcpy(message.data(), &index, sizeof index);
  message += text;
  MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
}

void worker(const SweepFile& sweep, const Catalog& catalog) {
  const auto points = sweep_points(sweep);
  send_result(-1, "");
  while (true) {
    std::int64_t index = -1;
    MPI_Recv(&index, 1, MPI_INT64_T, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (index < 0) return;
    const auto i = static_cast<std::size_t>(index);
    send_result(index, encode_point(sweep, points[i], evaluate_point(sweep, catalog, points[i])));
  }
}

class Coordinator {
 public:
  Coordinator(const SweepFile& sweep, const Catalog& catalog, const SweepCommandOptions& o)
      : sweep_(sweep), catalog_(catalog), o_(o), reporter_("sweep", "points", o.progress) {}

  Result<SweepRun> run(int ranks) {
    auto pending = resume_sweep(sweep_, o_.checkpoint, run_);
    // Even when the journal cannot be used, the workers waiting for a point are told to stop.
    if (pending) todo_ = std::move(pending).value();
    if (!pending) errors_ = pending.errors();
    done_ = run_.points.size() - todo_.size();
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

 private:
  std::size_t take_next() { return next_++; }

  void compute_locally() {
    for (std::size_t t = take_next(); t < todo_.size(); t = take_next()) {
      PointResult r = evaluate_point(sweep_, catalog_, run_.points[todo_[t]]);
      std::lock_guard lock(mutex_);
      local_results_.emplace_back(todo_[t], std::move(r));
    }
    local_done_ = true;
  }

  void record(std::size_t i, PointResult r) {
    run_.results[i] = std::move(r);
    auto journaled = journal_point(sweep_, o_.checkpoint, run_, i);
    if (!journaled) errors_.push_back(journaled.errors().front());
    ++done_;
    reporter_.update(done_, run_.points.size());
  }

  bool take_local_results() {
    std::vector<std::pair<std::size_t, PointResult>> taken;
    {
      std::lock_guard lock(mutex_);
      taken.swap(local_results_);
    }
    for (auto& [i, r] : taken) record(i, std::move(r));
    return !taken.empty();
  }

  // One message from a worker, if any: its result recorded, its next point (or stop) sent.
  bool serve_one_rank(int& workers) {
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

  const SweepFile& sweep_;
  const Catalog& catalog_;
  const SweepCommandOptions& o_;
  ProgressReporter reporter_;
  SweepRun run_;
  std::vector<std::size_t> todo_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> local_done_{false};
  std::mutex mutex_;
  std::vector<std::pair<std::size_t, PointResult>> local_results_;
  std::size_t done_ = 0;
  Diagnostics errors_;
};

int run(int argc, char** argv, int rank, int ranks) {
  CLI::App app{"clustertwin sweep under MPI", "clustertwin-sweep-mpi"};
  SweepCommandOptions o;
  std::string catalog_dir = default_catalog_dir();
  add_sweep_options(app, o);
  app.add_option("--catalog", catalog_dir, "Hardware catalog folder");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rank == 0 ? app.exit(e) : kExitUsage;
  }
  // Every rank reads the same files, so all fail alike; rank 0 alone says why.
  auto catalog = load_catalog(catalog_dir);
  auto sweep = catalog ? load_sweep(o.sweep_path, catalog.value()) : Result<SweepFile>(catalog.errors());
  if (!sweep || !catalog) {
    if (rank == 0) report_errors(sweep.errors());
    return kExitInputError;
  }
  if (rank != 0) {
    worker(sweep.value(), catalog.value());
    return kExitOk;
  }
  if (!o.progress.quiet) std::cerr << "sweep: " << ranks << " MPI rank(s)\n";
  o.command_line = mpi_command_line(argc, argv, ranks);
  auto result = Coordinator(sweep.value(), catalog.value(), o).run(ranks);
  if (!result) return report_errors(result.errors());
  return write_sweep(o, sweep.value(), result.value());
}

}  // namespace
}  // namespace ct::cli

int main(int argc, char** argv) {
  // A rank outlives nothing that started it: when mpirun (or its daemon) is killed, the ranks are
  // too, instead of computing on as orphans whose results no one gathers (Linux's parent-death
  // signal; the journal keeps what rank 0 had finished).
  const pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) return 1;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int code = ct::cli::run(argc, argv, rank, ranks);
  // A rank that stops early (bad input, found alike by all) must not leave the others waiting.
  int worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return rank == 0 ? code : worst == 0 ? 0 : worst;
}
