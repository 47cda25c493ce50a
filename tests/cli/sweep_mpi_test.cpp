// `mpirun --oversubscribe -np N clustertwin sweep` against the threaded run, as processes: the same
// bytes for N = 1, 2, 3 (plan, reliability, simulate and hash studies, a failed point among them);
// mpirun, or one rank, killed (SIGKILL) mid-way and the sweep resumed from its checkpoint with equal
// output and no journaled point computed again. A point whose Monte Carlos are split into trial
// slices: the unsplit bytes for N = 1, 2, 3, the slices run on more than one rank, and a kill and
// resume exact too. Skipped, with the reason, where mpirun or the MPI runner is absent. Open MPI
// refuses root unless told (its two documented variables).
#include <gtest/gtest.h>

#include <signal.h>
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

// The pid of the rank `rank` of a clustertwin-sweep-mpi started on `sweep_file`, or 0.
pid_t rank_pid(const std::string& sweep_file, int rank) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cmdline = slurp(e.path() / "cmdline");
    if (cmdline.find("clustertwin-sweep-mpi") == std::string::npos || cmdline.find(sweep_file) == std::string::npos) continue;
    const std::string env = slurp(e.path() / "environ");
    if (env.find("OMPI_COMM_WORLD_RANK=" + std::to_string(rank) + '\0') != std::string::npos) return std::stoi(name);
  }
  return 0;
}

// Starts `mpirun -np 2` with a checkpoint, calls `stop` once three points are journaled, waits for
// mpirun to end, then resumes: the output equals the threaded run's and the resumed run computes
// exactly the points that were not journaled.
void SweepMpi::kill_and_resume(const std::function<void(pid_t)>& stop, std::size_t points, std::size_t wait_for) {
  ASSERT_EQ(std::system(command("", "threads", "--threads 2").c_str()), 0) << err("threads");
  const fs::path journal = dir_ / "journal";
  const std::string killed = "exec " + command("mpirun --oversubscribe -np 2", "killed", "--checkpoint " + journal.string());
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", killed.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  auto journaled = [&] {
    std::size_t n = 0;
    if (fs::exists(journal)) {
      for (const auto& e : fs::directory_iterator(journal)) n += e.path().extension() == ".json" ? 1 : 0;
    }
    return n;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (journaled() < wait_for && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  stop(pid);
  int status = 0;
  waitpid(pid, &status, 0);
  // Every rank is gone once mpirun is (they die with it); the count is taken after that.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const std::size_t finished = journaled();
  ASSERT_GE(finished, wait_for);
  EXPECT_LT(finished, points) << "the sweep ended before it was killed";
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
