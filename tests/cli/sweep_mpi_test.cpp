// `mpirun --oversubscribe -np N clustertwin sweep` against the threaded run, as processes: the same
// bytes for N = 1, 2, 3 (plan, reliability, simulate and hash studies, a failed point among them);
// mpirun, or one rank, killed (SIGKILL) mid-way and the sweep resumed from its checkpoint with equal
// output and no journaled point computed again. A point whose Monte Carlos are split into trial
// slices: the unsplit bytes for N = 1, 2, 3, the slices run on more than one rank, and a kill and
// resume exact too. Skipped, with the reason, where mpirun or the MPI runner is absent. Open MPI
// refuses root unless told (its two documented variables).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>
#include <string>
#include <thread>

#include "support/test_paths.h"

namespace {

namespace fs = std::filesystem;
using ct::testing_support::binary_dir;
using ct::testing_support::clustertwin_binary;
using ct::testing_support::source_dir;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What the sweep says on stderr with a checkpoint (cli/sweep_command.cpp write_sweep).
std::string fmt_count(std::size_t computed, std::size_t journaled) {
  return "sweep: " + std::to_string(computed) + " of " + std::to_string(computed + journaled) + " points computed, " +
         std::to_string(journaled) + " from the checkpoint";
}

class SweepMpi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "mpirun is not installed (openmpi-bin)";
    if (!fs::exists(fs::path(clustertwin_binary()).parent_path() / "clustertwin-sweep-mpi")) {
      GTEST_SKIP() << "clustertwin-sweep-mpi was not built (libopenmpi-dev missing at configure time)";
    }
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("CLUSTERTWIN_CATALOG", (source_dir() + "/catalog").c_str(), 1);
    dir_ = fs::path(binary_dir()) / "sweep_mpi_test" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // At 4 nodes the straggler scenario's host4 does not exist: a failed row.
    std::ofstream(dir_ / "sweep.yaml") << "base: " << source_dir() << "/examples/lab-32.yaml\n"
                                       << "scenarios: [" << source_dir() << "/examples/scenarios/straggler-lab32.yaml]\n"
                                       << "axes:\n  - path: backend.planes\n    values: [1, 2]\n"
                                       << "  - path: nodes.count\n    values: [4, 8, 12, 16, 20, 24, 28, 32]\n"
                                       << "seeds: [1, 2]\nstudies:\n  plan: {}\n  reliability: {trials: 400}\n"
                                       << "  simulate: {engine: flow}\n  hash: {elephants: 4, trials: 50, compare: true}\n"
                                       << "objectives:\n  - {metric: switches}\n  - {metric: lost_hours_30d}\n";
  }
  void TearDown() override {
    if (!HasFailure() && !dir_.empty()) fs::remove_all(dir_);
  }

  // The sweep's command line writing into out/ (and err for stderr), after `prefix`.
  std::string command(const std::string& prefix, const std::string& out, const std::string& extra = "") const {
    fs::create_directories(dir_ / out);
    const std::string o = (dir_ / out).string();
    return prefix + " " + clustertwin_binary() + " sweep " + (dir_ / sweep_).string() + " --csv " + o +
           "/rows.csv --jsonl " + o + "/rows.jsonl -o " + o + "/report.txt " + extra + " 2>" + o + "/err";
  }
  std::string outputs(const std::string& out) const {
    return slurp(dir_ / out / "rows.csv") + slurp(dir_ / out / "rows.jsonl") + slurp(dir_ / out / "report.txt");
  }
  std::string err(const std::string& out) const { return slurp(dir_ / out / "err"); }

  // A sweep of `points` points (nodes.count 32, 24, ...) whose reliability (2,400 trials), hash
  // Monte Carlo and scheme comparison (600 trials) run in slices of `slice_trials`.
  void write_split_sweep(const std::string& file, int points, int slice_trials) const {
    std::string counts;
    for (int i = 0; i < points; ++i) counts += (i > 0 ? ", " : "") + std::to_string(32 - 8 * i);
    std::ofstream(dir_ / file) << "base: " << source_dir() << "/examples/lab-32.yaml\n"
                               << "axes:\n  - path: nodes.count\n    values: [" << counts << "]\n"
                               << "seeds: [1, 2]\nstudies:\n  plan: {}\n  reliability: {trials: 2400}\n"
                               << "  hash: {elephants: 8, trials: 600, compare: true}\n"
                               << "  slice_trials: " << slice_trials << "\n"
                               << "objectives:\n  - {metric: switches}\n  - {metric: lost_hours_30d}\n";
  }

  void kill_and_resume(const std::function<void(pid_t)>& stop, std::size_t points = 16, std::size_t wait_for = 3);

  fs::path dir_;
  std::string sweep_ = "sweep.yaml";
};

TEST_F(SweepMpi, OneTwoThreeRanksWriteTheThreadedBytes) {
  ASSERT_EQ(std::system(command("", "threads", "--threads 2").c_str()), 0) << err("threads");
  const std::string expected = outputs("threads");
  ASSERT_NE(expected.find("backend.planes"), std::string::npos);
  ASSERT_NE(expected.find("straggler.workers_lost"), std::string::npos);
  ASSERT_NE(expected.find(",failed,"), std::string::npos);
  for (int n : {1, 2, 3}) {
    const std::string out = "np" + std::to_string(n);
    ASSERT_EQ(std::system(command("mpirun --oversubscribe -np " + std::to_string(n), out).c_str()), 0) << err(out);
    EXPECT_NE(err(out).find("sweep: " + std::to_string(n) + " MPI rank(s)"), std::string::npos) << err(out);
    EXPECT_EQ(outputs(out), expected) << "-np " << n;
  }
}

// Progress under MPI says what the threaded command says: points done, running, failed and the time
// left from the finished points' costs; the last line has every point done and none running.
TEST_F(SweepMpi, ProgressSaysRunningFailedAndTimeLeft) {
  ASSERT_EQ(std::system(command("mpirun --oversubscribe -np 2", "progress", "--progress").c_str()), 0) << err("progress");
  EXPECT_NE(err("progress").find("sweep: 16 of 16 points (100%), 0 running, 1 failed, about 0 s left, "), std::string::npos)
      << err("progress");
}

// The pid of the rank `rank` of a clustertwin-sweep-mpi started on `sweep_file`, or 0; -1 for any
// rank. A rank that has exited (a zombie has no command line) is not found.
pid_t rank_pid(const std::string& sweep_file, int rank) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmdline = slurp(e.path() / "cmdline");
    if (cmdline.find("clustertwin-sweep-mpi") == std::string::npos || cmdline.find(sweep_file) == std::string::npos) continue;
    const std::string env = slurp(e.path() / "environ");
    if (rank < 0 || env.find("OMPI_COMM_WORLD_RANK=" + std::to_string(rank) + '\0') != std::string::npos) return std::stoi(name);
  }
  return 0;
}

// Polls `done` until it holds or `seconds` pass; the waits below end on their event, and the limit
// is only how long a broken run takes to fail, so it is generous for a loaded machine.
bool wait_for_event(const std::function<bool()>& done, int seconds = 120) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

// The journaled points: the whole entries (regular files) of the folder; the gate below is a FIFO.
std::size_t journaled(const fs::path& journal) {
  std::size_t n = 0;
  if (fs::exists(journal)) {
    for (const auto& e : fs::directory_iterator(journal)) n += e.is_regular_file() && e.path().extension() == ".json" ? 1 : 0;
  }
  return n;
}

// `sh -c "exec COMMAND"` (an mpirun) as a child; killed (SIGKILL) and reaped on destruction unless it
// has ended, and killed too if this test process dies first (Linux's parent-death signal).
// Kills, when the test leaves its scope, any rank of the sweep on `sweep_file` still alive: a
// rank that outlived a failed test (a launcher whose ranks are not mpirun's children) would
// otherwise wait on the gate below for ever.
class RanksKilledOnExit {
 public:
  explicit RanksKilledOnExit(std::string sweep_file) : sweep_file_(std::move(sweep_file)) {}
  RanksKilledOnExit(const RanksKilledOnExit&) = delete;
  RanksKilledOnExit& operator=(const RanksKilledOnExit&) = delete;
  ~RanksKilledOnExit() {
    for (int tries = 0; tries < 100; ++tries) {
      const pid_t rank = rank_pid(sweep_file_, -1);
      if (rank == 0) return;
      kill(rank, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

 private:
  std::string sweep_file_;
};

class MpirunJob {
 public:
  explicit MpirunJob(const std::string& command) {
    const std::string line = "exec " + command;
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~MpirunJob() {
    if (pid_ > 0 && !ended()) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  MpirunJob(const MpirunJob&) = delete;
  MpirunJob& operator=(const MpirunJob&) = delete;
  [[nodiscard]] pid_t pid() const { return pid_; }
  // Whether it has ended (reaped here); never blocks.
  bool ended() {
    if (!reaped_) reaped_ = waitpid(pid_, nullptr, WNOHANG) == pid_;
    return reaped_;
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

// Starts `mpirun -np 2` with a checkpoint, calls `stop` once `wait_for` points are journaled, waits
// until mpirun and every rank are gone, then resumes: the output equals the threaded run's and the
// resumed run computes exactly the points that were not journaled.
//
// The sweep must still be running when `stop` lands, whatever the load: the whole sweep takes about
// a tenth of a second after its third point, and a loaded machine can keep this process off the CPU
// for longer (then all 16 points were journaled before the kill, and the test failed). So the last
// point's journal entry is a FIFO that no one reads. Rank 0 journals through io/output_set.h, which
// writes into a pipe in place: it blocks opening the FIFO, never records that point, and the sweep
// cannot end. That point's item is the last handed out and the other worker (rank 1, or rank 0's
// computing thread) holds at most one other item, so every point but these two is journaled by then
// (a split point whose slices are all in is finished before the gate): `wait_for` may be at most
// points - 2. At the start rank 0 reads the FIFO as a journal entry; this process opens it for
// writing and closes it, so rank 0 reads an empty entry, which it computes again.
void SweepMpi::kill_and_resume(const std::function<void(pid_t)>& stop, std::size_t points, std::size_t wait_for) {
  ASSERT_LE(wait_for + 2, points);
  const fs::path journal = dir_ / "journal";
  const fs::path named = dir_ / "threads_journal";  // the threaded run's journal: the entries' names
  ASSERT_EQ(std::system(command("", "threads", "--threads 2 --checkpoint " + named.string()).c_str()), 0) << err("threads");
  std::string index = std::to_string(points - 1);
  index.insert(0, 6 - std::min<std::size_t>(6, index.size()), '0');
  fs::path gate;
  for (const auto& e : fs::directory_iterator(named)) {
    if (e.path().filename().string().ends_with("-" + index + ".json")) gate = journal / e.path().filename();
  }
  ASSERT_FALSE(gate.empty()) << "no journal entry of point " << points - 1 << " in " << named;
  fs::create_directories(journal);
  ASSERT_EQ(mkfifo(gate.c_str(), 0644), 0) << gate;
  const std::string sweep_file = (dir_ / sweep_).string();
  const RanksKilledOnExit ranks_killed(sweep_file);  // destroyed after `job`: mpirun goes first
  MpirunJob job(command("mpirun --oversubscribe -np 2", "killed", "--checkpoint " + journal.string()));
  ASSERT_GT(job.pid(), 0);
  int writer = -1;
  ASSERT_TRUE(wait_for_event([&] { return (writer = open(gate.c_str(), O_WRONLY | O_NONBLOCK)) >= 0 || job.ended(); }))
      << "rank 0 did not read its journal";
  ASSERT_GE(writer, 0) << "the sweep ended before it read the gate: " << err("killed");
  close(writer);
  ASSERT_TRUE(wait_for_event([&] { return journaled(journal) >= wait_for || job.ended(); })) << "no point journaled";
  ASSERT_FALSE(job.ended()) << "the sweep ended before it was killed: " << err("killed");
  stop(job.pid());
  if (HasFatalFailure()) return;
  ASSERT_TRUE(wait_for_event([&] { return job.ended(); })) << "mpirun did not end";
  // Rank 0 journals; once no rank is left, no entry can appear.
  ASSERT_TRUE(wait_for_event([&] { return rank_pid(sweep_file, -1) == 0; })) << "a rank outlived mpirun";
  const std::size_t finished = journaled(journal);
  ASSERT_TRUE(fs::is_fifo(gate)) << "rank 0 replaced the gate: the kill may have come after the sweep's end";
  ASSERT_GE(finished, wait_for);
  EXPECT_LT(finished, points);
  fs::remove(gate);
  ASSERT_EQ(std::system(command("mpirun --oversubscribe -np 2", "resumed", "--checkpoint " + journal.string()).c_str()), 0)
      << err("resumed");
  EXPECT_NE(err("resumed").find(fmt_count(points - finished, finished)), std::string::npos) << err("resumed");
  EXPECT_EQ(outputs("resumed"), outputs("threads"));
}

TEST_F(SweepMpi, KilledMpirunResumesWithoutRecomputingFinishedPoints) {
  kill_and_resume([](pid_t mpirun) { kill(mpirun, SIGKILL); });
}

TEST_F(SweepMpi, KilledRankResumesWithoutRecomputingFinishedPoints) {
  const std::string sweep_file = (dir_ / "sweep.yaml").string();
  kill_and_resume([&](pid_t) {
    const pid_t rank1 = rank_pid(sweep_file, 1);
    ASSERT_NE(rank1, 0) << "rank 1 not found";
    kill(rank1, SIGKILL);
  });
}

// The items each rank computed, from rank 0's "items by rank:" line; empty when it is absent.
std::vector<int> items_by_rank(const std::string& err) {
  std::vector<int> counts;
  const std::size_t at = err.find("items by rank:");
  if (at == std::string::npos) return counts;
  std::istringstream line(err.substr(at + 14, err.find('\n', at) - at - 14));
  for (int n = 0; line >> n;) counts.push_back(n);
  return counts;
}

// One point of 2,400 reliability and 600 hash trials per seed in slices of 300: 8 slices.
TEST_F(SweepMpi, SplitPointOverRanksWritesTheUnsplitBytes) {
  // One file name for both, as the report names it: the unsplit sweep first, then the split one.
  sweep_ = "split.yaml";
  write_split_sweep(sweep_, 1, 100000);
  ASSERT_EQ(std::system(command("", "whole", "--threads 2").c_str()), 0) << err("whole");
  const std::string expected = outputs("whole");
  ASSERT_NE(expected.find("more-qps.slowest_Gbps"), std::string::npos);
  EXPECT_EQ(items_by_rank(err("whole")).size(), 0U);
  write_split_sweep(sweep_, 1, 300);
  ASSERT_EQ(std::system(command("", "threads", "--threads 2").c_str()), 0) << err("threads");
  EXPECT_EQ(outputs("threads"), expected) << "--threads 2, split";
  for (int n : {1, 2, 3}) {
    const std::string out = "np" + std::to_string(n);
    ASSERT_EQ(std::system(command("mpirun --oversubscribe -np " + std::to_string(n), out).c_str()), 0) << err(out);
    EXPECT_EQ(outputs(out), expected) << "-np " << n;
    const std::vector<int> counts = items_by_rank(err(out));
    ASSERT_EQ(counts.size(), static_cast<std::size_t>(n)) << err(out);
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), 0), 8) << err(out);
    if (n > 1) {
      EXPECT_GE(std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; }), 2)
          << "the slices ran on one rank: " << err(out);
    }
  }
}

// Four split points, mpirun killed once one is journaled: the resumed run computes the others
// (whole points: the journal holds points, never slices) and writes the unsplit bytes.
TEST_F(SweepMpi, KilledSplitSweepResumesExactly) {
  write_split_sweep("split.yaml", 4, 300);
  sweep_ = "split.yaml";
  kill_and_resume([](pid_t mpirun) { kill(mpirun, SIGKILL); }, 4, 1);
}

}  // namespace
