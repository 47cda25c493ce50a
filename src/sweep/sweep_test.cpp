// The sweep: its file's checks (located, with did-you-mean), the points (product, zip, exclude),
// the Pareto front worked by hand, bytes independent of the thread count, and the checkpoint
// journal (a resumed sweep computes only the unfinished points and writes the same bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

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
  auto s = read_sweep("sweep.yaml", text, real_catalog());
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : format_diagnostics(s.errors()));
  return s.ok() ? std::move(s).value() : SweepFile{};
}

std::string errors_of(const std::string& text) {
  auto s = read_sweep("sweep.yaml", text, real_catalog());
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

// By hand: 10 points, 2 from the journal, 2 workers. Two start; one finishes after 4 s: 3 done, 1
// running, time left = 4 s a point x 7 points / 2 workers = 14 s. A failed one after 2 s: 4 done,
// 1 failed, (4 + 2) / 2 x 6 / 2 = 9 s.
TEST(SweepProgress, TimeLeftFromTheFinishedPointsCosts) {
  SweepProgressTracker t(10, 2, 2);
  EXPECT_EQ(t.progress().eta_seconds, -1);
  t.started();
  EXPECT_EQ(t.started().running, 2U);
  const SweepProgress a = t.finished(PointStatus::kOk, 4);
  EXPECT_EQ(a.done, 3U);
  EXPECT_EQ(a.running, 1U);
  EXPECT_DOUBLE_EQ(a.eta_seconds, 14);
  const SweepProgress b = t.finished(PointStatus::kFailed, 2);
  EXPECT_EQ(b.done, 4U);
  EXPECT_EQ(b.failed, 1U);
  EXPECT_DOUBLE_EQ(b.eta_seconds, 9);
}

// By hand: axes a (x, y) and b (1, 2), switches 10 at (x, 1), 20 at (x, 2), 15 at (y, 1), (y, 2)
// infeasible. Axis a against x: x itself over its 2 points (mean 15); y matched once, (y, 1) with
// (x, 1): 15 against 10. Axis b against 1: 1 over its 2 points (12.5); 2 matched once, (x, 2) with
// (x, 1): 20 against 10 ((y, 2) is infeasible and left out).
TEST(SweepEffects, OneAxisAtATimeWorkedByHand) {
  SweepFile s;
  s.studies.plan = true;
  s.seeds = {1};
  s.axes = {{"a", {}, {{"x", {}, {}, {}}, {"y", {}, {}, {}}}, false}, {"b", {}, {{"1", {}, {}, {}}, {"2", {}, {}, {}}}, false}};
  SweepRun run;
  run.points = sweep_points(s);
  ASSERT_EQ(run.points.size(), 4U);
  const auto ok = [](double switches) { return PointResult{PointStatus::kOk, "", {{1, {switches, 1.0, std::nullopt, std::nullopt}}}}; };
  run.results = {ok(10), ok(20), ok(15), {PointStatus::kInfeasible, "no", {}}};
  const auto e = axis_effects(s, run, {0});
  ASSERT_EQ(e.size(), 2U);
  EXPECT_EQ(e[0].axis, "a");
  EXPECT_EQ(e[0].rows[0].pairs, 2U);
  EXPECT_EQ(*e[0].rows[0].at_value[0], 15);
  EXPECT_EQ(e[0].rows[1].pairs, 1U);
  EXPECT_EQ(*e[0].rows[1].at_value[0], 15);
  EXPECT_EQ(*e[0].rows[1].at_reference[0], 10);
  EXPECT_EQ(e[1].rows[0].pairs, 2U);
  EXPECT_EQ(*e[1].rows[0].at_value[0], 12.5);
  EXPECT_EQ(e[1].rows[1].pairs, 1U);
  EXPECT_EQ(*e[1].rows[1].at_value[0], 20);
  EXPECT_EQ(*e[1].rows[1].at_reference[0], 10);
  // Power has no figure anywhere: no mean at either end.
  EXPECT_FALSE(axis_effects(s, run, {2})[0].rows[1].at_value[0].has_value());
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

// A journal entry is read back as the study computes it (issue: an audit's entry with switches -5
// and bisection 9.9e307 became a row). Point 0 of the small sweep (plan and reliability: metrics
// switches, bisection_tbps, power_w, cost_usd, p_any_down, lost_hours_30d, interruptions_30d;
// seeds 1, 2, 3), tampered one field at a time: each is an error naming the entry and the field,
// and no run. What is no entry of this point (another point's, not JSON, an empty file) is
// computed again, as before.
TEST(SweepRun, AJournalEntryOutOfRangeIsAnErrorNamingItsFileAndField) {
  const SweepFile s = sweep_of(small_sweep());
  const fs::path dir = fs::path(testing_support::binary_dir()) / "sweep_test_journal_ranges";
  const testing_support::RemoveOnExit remove_dir(dir);
  fs::remove_all(dir);
  ASSERT_TRUE(run_sweep(s, real_catalog(), {.threads = 2, .checkpoint_dir = dir.string()}).ok());
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  ASSERT_EQ(entries.size(), 4U);
  const std::string path = entries[0].string();
  std::ifstream in(path);
  const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json good = nlohmann::json::parse(original);
  ASSERT_EQ(good["rows"][0]["metrics"].size(), 7U);
  const auto write = [&](const std::string& text) { std::ofstream(path, std::ios::trunc) << text; };
  struct Case {
    std::function<void(nlohmann::json&)> edit;
    std::string field, words;
  };
  const std::vector<Case> cases = {
      {[](nlohmann::json& j) { j["rows"][0]["metrics"][0] = -5.0; }, "rows[0].metrics[0]", "switches = -5.0: expected a count"},
      {[](nlohmann::json& j) { j["rows"][0]["metrics"][0] = 12.5; }, "rows[0].metrics[0]", "an integer"},
      {[](nlohmann::json& j) { j["rows"][0]["metrics"][1] = 9.9e307; }, "rows[0].metrics[1]", "bisection_tbps = 9.9e+307"},
      {[](nlohmann::json& j) { j["rows"][2]["metrics"][4] = 1.5; }, "rows[2].metrics[4]", "p_any_down = 1.5: expected a probability"},
      {[](nlohmann::json& j) { j["rows"][0]["metrics"][5] = "x"; }, "rows[0].metrics[5]", "lost_hours_30d"},
      {[](nlohmann::json& j) { j["rows"][0]["metrics"].erase(6); }, "rows[0].metrics", "the 7 metrics"},
      {[](nlohmann::json& j) { j["rows"][1]["seed"] = 99; }, "rows[1].seed", "expected 2 (the sweep's seed 1), got 99"},
      {[](nlohmann::json& j) { j["rows"].erase(2); }, "rows", "2 row(s), expected 3"},
      {[](nlohmann::json& j) { j["status"] = 7; }, "status", "expected 0 (ok), 1 (infeasible) or 2 (failed), got 7"},
      {[](nlohmann::json& j) { j["reason"] = 1; }, "reason", "not text"},
  };
  for (const Case& c : cases) {
    nlohmann::json j = good;
    c.edit(j);
    write(j.dump());
    auto run = run_sweep(s, real_catalog(), {.threads = 1, .checkpoint_dir = dir.string()});
    ASSERT_FALSE(run.ok()) << c.field;
    EXPECT_EQ(run.errors()[0].where.file, path);
    EXPECT_EQ(run.errors()[0].where.line, 1);
    EXPECT_EQ(run.errors()[0].field, c.field);
    EXPECT_NE(run.errors()[0].message.find(c.words), std::string::npos) << run.errors()[0].message;
  }
  nlohmann::json other = good;
  other["point"] = "9\n9\n";
  for (const std::string& text : {other.dump(), std::string("{\"point\""), std::string()}) {
    write(text);
    auto again = run_sweep(s, real_catalog(), {.threads = 1, .checkpoint_dir = dir.string()});
    ASSERT_TRUE(again.ok()) << format_diagnostics(again.errors());
    EXPECT_EQ(again->computed, 1U) << text;
  }
}

// ---- a point's Monte Carlos in trial slices ----

std::string sliced_sweep(const std::string& slice_trials) {
  return header() +
         "axes:\n  - path: backend.planes\n    values: [1, 2]\n  - path: nodes.count\n    values: [16, 32]\n"
         "seeds: [1, 2]\nstudies:\n  plan: {}\n  reliability: {trials: 90}\n"
         "  hash: {elephants: 8, trials: 70, compare: true}\n" + slice_trials +
         "objectives:\n  - {metric: switches}\n  - {metric: lost_hours_30d}\n";
}

TEST(SweepSlices, SlicesCoverTheLargerMonteCarlo) {
  SweepFile s = sweep_of(sliced_sweep("  slice_trials: 25\n"));
  const std::vector<TrialSlice> slices = point_slices(s);
  ASSERT_EQ(slices.size(), 4U);
  EXPECT_EQ(slices[0].first, 0U);
  EXPECT_EQ(slices[3].first, 75U);
  EXPECT_EQ(slices[3].count, 15U);
  s.studies.slice_trials = 90;
  ASSERT_EQ(point_slices(s).size(), 1U);
  EXPECT_EQ(point_slices(s)[0].count, 0U) << "at the threshold the point runs whole";
  EXPECT_EQ(sweep_of(sliced_sweep("")).studies.slice_trials, SweepStudies::kDefaultSliceTrials);
  EXPECT_NE(errors_of(sliced_sweep("  slice_trials: 0\n")).find("slice_trials"), std::string::npos);
}

// The slices arrive in any order; the point gets them in slice order, once, when the last is in.
TEST(SweepSlices, WorkGathersEachPointsSlicesInSliceOrder) {
  const SweepFile s = sweep_of(sliced_sweep("  slice_trials: 25\n"));
  SweepWork work(s, {1, 3});
  ASSERT_EQ(work.items().size(), 8U);
  EXPECT_EQ(work.split_points(), 2U);
  const std::vector<SweepItem>& items = work.items();
  EXPECT_FALSE(work.arrived(items[3], "d"));
  EXPECT_FALSE(work.arrived(items[4], "other point"));
  EXPECT_FALSE(work.arrived(items[0], "a"));
  EXPECT_FALSE(work.arrived(items[2], "c"));
  const auto slices = work.arrived(items[1], "b");
  ASSERT_TRUE(slices);
  EXPECT_EQ(*slices, (std::vector<std::string>{"a", "b", "c", "d"}));
}

// Reliability (90 trials), the hash Monte Carlo and the scheme comparison (70 each) in slices of
// 25 trials: the same bytes as the unsplit run, on 1 and 3 threads; an infeasible point among them.
TEST(SweepSlices, SplitPointsWriteTheUnsplitBytesOnAnyThreadCount) {
  const SweepFile whole = sweep_of(sliced_sweep(""));
  const SweepFile sliced = sweep_of(sliced_sweep("  slice_trials: 25\n"));
  auto expected = run_sweep(whole, real_catalog(), {.threads = 2, .checkpoint_dir = ""});
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(expected->results[2].status, PointStatus::kInfeasible);
  for (unsigned threads : {1U, 3U}) {
    auto run = run_sweep(sliced, real_catalog(), {.threads = threads, .checkpoint_dir = ""});
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(bytes_of(sliced, run.value()), bytes_of(whole, expected.value())) << threads << " threads";
  }
  // A finished point from slices handed over out of order to finish_point's gather: equal too.
  const SweepPoint& p = expected->points[3];
  std::vector<std::string> bytes;
  for (const TrialSlice& slice : point_slices(sliced)) bytes.push_back(evaluate_slice(sliced, real_catalog(), p, slice));
  const PointResult r = finish_point(sliced, real_catalog(), p, bytes);
  EXPECT_EQ(encode_point(sliced, p, r), encode_point(whole, p, expected->results[3]));
  // Bytes that do not read (cut short): the point fails with the reason, never a wrong figure.
  bytes[0].pop_back();
  const PointResult cut = finish_point(sliced, real_catalog(), p, bytes);
  EXPECT_EQ(cut.status, PointStatus::kFailed);
  EXPECT_NE(cut.reason.find("could not be read"), std::string::npos) << cut.reason;
}

std::string scenario_file(const std::string& name) { return source_dir() + "/examples/scenarios/" + name; }

// The simulate study on examples/scenarios/straggler-lab32.yaml, worked by hand: three 1 GiB
// transfers over 400 Gbit/s NICs (50 GB/s), one NIC at 52 % of its speed. The two others take
// 2^30 B / 50 GB/s = 21.47 ms at busbw 50 GB/s (a transfer's bus factor is 1), the slow one
// 1 / 0.52 of that; the share of the workers' time lost is 2(f - 1)/(3f) = 2 x 0.48 / 3 = 0.32
// (analysis/straggler.h). At 4 nodes the scenario's host4 does not exist: a failed row with the
// scenario's reason, and the sweep goes on.
TEST(SweepStudies, SimulateGivesTheStragglerShareAndFailsWhereTheScenarioCannotRun) {
  const SweepFile s = sweep_of(header() + "scenarios: [" + scenario_file("straggler-lab32.yaml") +
                               "]\naxes:\n  - path: nodes.count\n    values: [4, 16]\nstudies:\n  simulate: {engine: flow}\n");
  const auto names = sweep_metrics(s.studies);
  EXPECT_EQ(names, (std::vector<std::string>{"straggler.makespan_s", "straggler.workers_lost", "straggler.t0.time_s",
                                             "straggler.t0.busbw_GBps", "straggler.t1.time_s", "straggler.t1.busbw_GBps",
                                             "straggler.t2.time_s", "straggler.t2.busbw_GBps"}));
  auto run = run_sweep(s, real_catalog(), {.threads = 1, .checkpoint_dir = ""});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->results[0].status, PointStatus::kFailed);
  EXPECT_NE(run->results[0].reason.find("scenario straggler ("), std::string::npos) << run->results[0].reason;
  EXPECT_NE(run->results[0].reason.find("'host4/gpu0' names no GPU"), std::string::npos) << run->results[0].reason;
  ASSERT_EQ(run->results[1].status, PointStatus::kOk) << run->results[1].reason;
  const auto& m = run->results[1].rows[0].metrics;
  EXPECT_NEAR(*m[1], 0.32, 1e-9);
  EXPECT_NEAR(*m[4], 1073741824.0 / 50e9, 1e-9);
  EXPECT_NEAR(*m[5], 50.0, 1e-9);
  EXPECT_NEAR(*m[2], 1073741824.0 / 50e9 / 0.52, 1e-6);
  EXPECT_NEAR(*m[0], *m[2], 1e-12);  // the slow transfer ends the run
}

// The hash study, closed form by hand: 8 elephants leave lab-32's first leaf, whose up group has
// 32 uplinks; P(two share one) = 1 - prod_{i<8} (1 - i/32) (birthday). The Monte Carlo's
// first-tier estimate over 400 trials lies within 4 standard errors of it.
TEST(SweepStudies, HashGivesTheBirthdayCollisionProbability) {
  const SweepFile s = sweep_of(header() + "axes:\n  - path: nodes.count\n    values: [32]\n"
                               "studies:\n  hash: {elephants: 8, trials: 400, compare: true}\n");
  auto run = run_sweep(s, real_catalog(), {.threads = 1, .checkpoint_dir = ""});
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->results[0].status, PointStatus::kOk) << run->results[0].reason;
  const auto names = sweep_metrics(s.studies);
  ASSERT_EQ(names[2], "p_collision_closed_form");
  ASSERT_EQ(names[4], "spray.slowest_Gbps");
  double no_collision = 1;
  for (int i = 0; i < 8; ++i) no_collision *= 1 - i / 32.0;
  const auto& m = run->results[0].rows[0].metrics;
  EXPECT_NEAR(*m[2], 1 - no_collision, 1e-12);
  EXPECT_NEAR(*m[1], 1 - no_collision, 4 * std::sqrt(0.25 / 400));
  EXPECT_NEAR(*m[4], 400.0, 1e-9);  // spraying: every flow at its NIC's 400 Gbit/s
  EXPECT_FALSE(m.back().has_value());  // plane split: one plane, not applicable
}

TEST(SweepStudies, PacketEngineIsRefusedWithoutSwitchFiguresAndScenariosNeedSimulate) {
  std::string e = errors_of(header() + "axes:\n  - path: nodes.count\n    values: [16]\nstudies:\n  simulate: {engine: packet}\n");
  EXPECT_NE(e.find("sweep.yaml:6:22: error: studies.simulate.engine: the packet engine needs the switches' latency, buffer and forwarding mode"), std::string::npos) << e;
  e = errors_of(header() + "axes:\n  - path: nodes.count\n    values: [16]\nstudies:\n  simulate: {engine: flw}\n");
  EXPECT_NE(e.find("did you mean 'flow'?"), std::string::npos) << e;
  e = errors_of(header() + "scenarios: [x.yaml]\naxes:\n  - path: nodes.count\n    values: [16]\nstudies: {plan: {}}\n");
  EXPECT_NE(e.find("sweep.yaml:2:1: error: scenarios: only the simulate study reads scenarios"), std::string::npos) << e;
  e = errors_of(header() + "axes:\n  - path: nodes.count\n    values: [16]\nstudies:\n  simulate: {}\n");
  EXPECT_NE(e.find("nothing to simulate"), std::string::npos) << e;
}

// Variant files in a folder of the test's own, beside the sweep file that names them.
fs::path variant_dir() {
  const fs::path dir = fs::path(testing_support::binary_dir()) / "sweep_test_variants";
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

// Two variant files overlay lab-32: `three-tier` sets two fields under backend (merged with the
// base's backend, the other fields kept), `two-tier` one. 2 variants x 2 node counts = 4 points;
// the axis's column is its name, each value its file's stem; three tiers need more switches.
TEST(SweepVariants, FilesOverlayTheBaseAndNameTheirValues) {
  const fs::path dir = variant_dir();
  write(dir / "three-tier.yaml", "backend:\n  tiers: 3\n  oversubscription: [1, 1]\n");
  write(dir / "two-tier.yaml", "# the base's own shape\nbackend: {tiers: 2}\n");
  const std::string text = header() + "axes:\n  - name: shape\n    variants: [two-tier.yaml, three-tier.yaml]\n"
                                      "  - path: nodes.count\n    values: [16, 32]\nstudies: {plan: {}}\n";
  auto s = read_sweep((dir / "sweep.yaml").string(), text, real_catalog());
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  ASSERT_EQ(s->axes[0].values.size(), 2U);
  EXPECT_EQ(s->axes[0].values[1].yaml, "three-tier");
  ASSERT_EQ(s->axes[0].values[1].settings.size(), 2U);
  EXPECT_EQ(s->axes[0].values[1].settings[1].path, "backend.oversubscription");
  auto run = run_sweep(s.value(), real_catalog(), {.threads = 2, .checkpoint_dir = ""});
  ASSERT_TRUE(run.ok());
  const std::string csv = sweep_rows_csv(s.value(), run.value());
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "point,shape,nodes.count,seed,status,reason,switches,bisection_tbps,power_w,cost_usd");
  EXPECT_NE(csv.find("\n3,three-tier,32,1,ok,"), std::string::npos) << csv;
  ASSERT_EQ(run->results[3].status, PointStatus::kOk) << run->results[3].reason;
  EXPECT_GT(*run->results[3].rows[0].metrics[0], *run->results[1].rows[0].metrics[0]);
}

TEST(SweepVariants, ErrorsAtTheVariantFilesLineWithDidYouMean) {
  const fs::path dir = variant_dir();
  write(dir / "typo.yaml", "backend:\n  planez: 2\n");
  write(dir / "clash.yaml", "nodes:\n  count: 8\n");
  write(dir / "list.yaml", "- 1\n");
  const std::string d = dir.string();
  // Each field checked against the spec's reader, at the variant file's line.
  std::string text = header() + "axes:\n  - name: v\n    variants: [typo.yaml, clash.yaml]\n"
                                "  - path: nodes.count\n    values: [16]\nstudies: {plan: {}}\n";
  auto s = read_sweep((dir / "sweep.yaml").string(), text, real_catalog());
  ASSERT_FALSE(s.ok());
  std::string e = format_diagnostics(s.errors());
  EXPECT_NE(e.find(d + "/typo.yaml:2:3: error: backend.planez: unknown field (did you mean 'planes'?)"), std::string::npos) << e;
  EXPECT_NE(e.find(d + "/clash.yaml:2:3: error: nodes.count: 'nodes.count' is also an axis (line 5)"), std::string::npos) << e;
  // The files themselves: not a mapping, a name twice, missing.
  text = header() + "axes:\n  - name: v\n    variants: [list.yaml, typo.yaml, typo.yaml, none.yaml]\nstudies: {plan: {}}\n";
  s = read_sweep((dir / "sweep.yaml").string(), text, real_catalog());
  ASSERT_FALSE(s.ok());
  e = format_diagnostics(s.errors());
  EXPECT_NE(e.find(d + "/list.yaml:1:1: error: a variant file is a mapping of spec fields, got a list"), std::string::npos) << e;
  EXPECT_NE(e.find("sweep.yaml:4:38: error: axes[0].variants[2]: two variants named 'typo' (first at line 4)"), std::string::npos) << e;
  EXPECT_NE(e.find("sweep.yaml:4:49: error: axes[0].variants[3]: " + d + "/none.yaml: cannot open"), std::string::npos) << e;
  EXPECT_NE(errors_of(header() + "axes:\n  - name: v\n    values: [1]\nstudies: {plan: {}}\n").find("either a field (path, values) or variant files"),
            std::string::npos);
}

}  // namespace
}  // namespace ct
