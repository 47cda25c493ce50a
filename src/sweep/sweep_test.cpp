// The sweep: its file's checks (located, with did-you-mean), the points (product, zip, exclude),
// the Pareto front worked by hand, bytes independent of the thread count, and the checkpoint
// journal (a resumed sweep computes only the unfinished points and writes the same bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/diagnostic.h"
#include "support/shipped_catalog.h"
#include "support/test_paths.h"
#include "sweep/pareto.h"
#include "sweep/sweep_output.h"

namespace ct {
namespace {

namespace fs = std::filesystem;
using testing_support::real_catalog;
using testing_support::source_dir;

std::string lab32() { return source_dir() + "/examples/lab-32.yaml"; }

SweepFile sweep_of(const std::string& text) {
  auto s = read_sweep("sweep.yaml", text);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : format_diagnostics(s.errors()));
  return s.ok() ? std::move(s).value() : SweepFile{};
}

std::string errors_of(const std::string& text) {
  auto s = read_sweep("sweep.yaml", text);
  EXPECT_FALSE(s.ok());
  return s.ok() ? "" : format_diagnostics(s.errors());
}

// Worked by hand: minimize both objectives.
//   0 (1, 9)  front        4 (3, 3)  front         8 (2, 6)  dominated by 1 (2, 5)
//   1 (2, 5)  front        5 (3, 3)  front (dup)   9 (9, 9)  dominated by all but 10
//   2 (4, 4)  dominated by 4 (3, 3)                10 (1, 9) front (duplicate of 0)
//   3 (5, 1)  front        6 (6, 1)  dominated by 3 (5, 1)  11 (NaN, 0) not measured: off
//                          7 (2, 5)  front (tie with 1)
TEST(Pareto, DozenPointsWorkedByHand) {
  const std::vector<std::vector<double>> p = {{1, 9}, {2, 5}, {4, 4}, {5, 1}, {3, 3}, {3, 3},
                                              {6, 1}, {2, 5}, {2, 6}, {9, 9}, {1, 9}, {NAN, 0}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{0, 1, 3, 4, 5, 7, 10}));
  EXPECT_TRUE(dominates({3, 3}, {4, 4}));
  EXPECT_FALSE(dominates({3, 3}, {3, 3}));
  EXPECT_FALSE(dominates({1, 9}, {2, 5}));
  EXPECT_TRUE(pareto_front({}).empty());
}

TEST(Pareto, ObjectiveToMaximizeEntersNegated) {
  // Minimize x, maximize y: (1, 1) and (2, 5) are both on the front, (2, 4) is not.
  EXPECT_EQ(pareto_front({{1, -1}, {2, -5}, {2, -4}}), (std::vector<std::size_t>{0, 1}));
}

TEST(SweepSummary, StudentIntervalAndExactSpreadOfEqualValues) {
  PointResult r;
  for (double v : {1.0, 2.0, 3.0}) r.rows.push_back({1, {v, 0.1}});
  const auto s = summarize(r, 2);
  EXPECT_DOUBLE_EQ(*s[0].mean, 2.0);
  EXPECT_DOUBLE_EQ(*s[0].sd, 1.0);
  EXPECT_DOUBLE_EQ(*s[0].ci95, 4.303 / std::sqrt(3.0));
  EXPECT_EQ(*s[1].sd, 0.0);  // three times 0.1: no rounding residue
  EXPECT_EQ(*s[1].mean, 0.1);
}

std::string header() { return "base: " + lab32() + "\n"; }

TEST(SweepFile, WrongPathIsLocatedWithDidYouMean) {
  const std::string e = errors_of(header() + "axes:\n  - path: backend.planez\n    values: [1]\nstudies: {plan: {}}\n");
  EXPECT_NE(e.find("sweep.yaml:4:14: error: axes[0].values: backend.planez: unknown field (did you mean 'planes'?)"),
            std::string::npos) << e;
}

TEST(SweepFile, ValueOutOfRangeIsRefusedAtItsLine) {
  const std::string e = errors_of(header() + "axes:\n  - path: nodes.count\n    values: [16,\n      99999999999]\nstudies: {plan: {}}\n");
  EXPECT_NE(e.find("sweep.yaml:5:7: error: axes[0].values: nodes.count"), std::string::npos) << e;
}

TEST(SweepFile, DuplicateAxisNamesTheFirst) {
  const std::string e = errors_of(header() + "axes:\n  - path: backend.tiers\n    values: [2]\n  - path: backend.tiers\n    values: [3]\nstudies: {plan: {}}\n");
  EXPECT_NE(e.find("sweep.yaml:5:11: error: axes[1].path: duplicate axis 'backend.tiers' (first at line 3)"), std::string::npos) << e;
}

TEST(SweepFile, PathThroughAScalarAndUnknownMetricAndZipLengths) {
  const std::string e = errors_of(header() +
                                  "axes:\n  - path: name.x\n    values: [1]\n  - path: backend.tiers\n    values: [2, 3]\n"
                                  "  - path: backend.planes\n    values: [1]\nzip: [[backend.tiers, backend.planes]]\n"
                                  "studies: {plan: {}}\nobjectives:\n  - {metric: switchs}\n");
  EXPECT_NE(e.find("sweep.yaml:3:11: error: axes.path: 'name' is"), std::string::npos) << e;
  EXPECT_NE(e.find("'switchs' is not a metric of the sweep's studies (did you mean 'switches'?)"), std::string::npos) << e;
}

TEST(SweepFile, ZipAndExcludeShapeThePoints) {
  const SweepFile s = sweep_of(header() +
                               "axes:\n  - path: backend.tiers\n    values: [2, 3]\n"
                               "  - path: backend.oversubscription\n    values: [[1], [1, 1]]\n"
                               "  - path: nodes.count\n    values: [8, 16, 32]\n"
                               "zip: [[backend.tiers, backend.oversubscription]]\n"
                               "exclude:\n  - {backend.tiers: 3, nodes.count: 8}\nstudies: {plan: {}}\n");
  const auto points = sweep_points(s);
  ASSERT_EQ(points.size(), 5U);  // 2 zipped x 3, less one
  EXPECT_EQ(points[0].value, (std::vector<std::size_t>{0, 0, 0}));
  EXPECT_EQ(points[3].value, (std::vector<std::size_t>{1, 1, 1}));
}

// A small sweep on lab-32: 2 x 2 points (one infeasible: ConnectX-7 cannot be split), 3 seeds.
std::string small_sweep() {
  return header() +
         "axes:\n  - path: backend.planes\n    values: [1, 2]\n  - path: nodes.count\n    values: [16, 32]\n"
         "seeds: [1, 2, 3]\nstudies:\n  plan: {}\n  reliability: {trials: 40}\n"
         "objectives:\n  - {metric: switches}\n  - {metric: lost_hours_30d}\n";
}

struct Bytes {
  std::string csv, jsonl, text, json;
  bool operator==(const Bytes&) const = default;
};

Bytes bytes_of(const SweepFile& s, const SweepRun& run) {
  return {sweep_rows_csv(s, run), sweep_rows_jsonl(s, run), sweep_report_text(s, run), sweep_report_json(s, run)};
}

TEST(SweepRun, InfeasiblePointIsListedAndBytesDoNotDependOnThreads) {
  const SweepFile s = sweep_of(small_sweep());
  auto one = run_sweep(s, real_catalog(), {.threads = 1, .checkpoint_dir = ""});
  auto three = run_sweep(s, real_catalog(), {.threads = 3, .checkpoint_dir = ""});
  ASSERT_TRUE(one.ok() && three.ok());
  ASSERT_EQ(one->results.size(), 4U);
  EXPECT_EQ(one->results[2].status, PointStatus::kInfeasible);
  EXPECT_NE(one->results[2].reason.find("backend.planes"), std::string::npos) << one->results[2].reason;
  EXPECT_EQ(one->results[0].status, PointStatus::kOk);
  EXPECT_EQ(bytes_of(s, one.value()), bytes_of(s, three.value()));
  const std::string csv = sweep_rows_csv(s, one.value());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4 * 3);
}

TEST(SweepRun, CheckpointResumesOnlyUnfinishedPointsWithEqualOutput) {
  const SweepFile s = sweep_of(small_sweep());
  const fs::path dir = fs::path(testing_support::binary_dir()) / "sweep_test_checkpoint";
  fs::remove_all(dir);
  auto whole = run_sweep(s, real_catalog(), {.threads = 2, .checkpoint_dir = dir.string()});
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->computed, 4U);
  auto again = run_sweep(s, real_catalog(), {.threads = 2, .checkpoint_dir = dir.string()});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->computed, 0U);
  // Two points lost (as if the run had been killed before finishing them).
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  ASSERT_EQ(entries.size(), 4U);
  fs::remove(entries[1]);
  fs::remove(entries[3]);
  auto resumed = run_sweep(s, real_catalog(), {.threads = 1, .checkpoint_dir = dir.string()});
  ASSERT_TRUE(resumed.ok());
  EXPECT_EQ(resumed->computed, 2U);
  EXPECT_EQ(bytes_of(s, whole.value()), bytes_of(s, resumed.value()));
  EXPECT_EQ(bytes_of(s, whole.value()), bytes_of(s, again.value()));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ct
