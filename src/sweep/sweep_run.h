// Running a sweep: the points of a sweep file, each validated before any work, then evaluated on
// threads with dynamic assignment (a worker takes the next unfinished point), each point's rows
// stored by point index so that the output does not depend on the thread count or on which worker
// ran what. With a checkpoint folder, each finished point is journaled atomically and a later run
// computes only the points with no journal entry (docs/models/sweep.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "core/result.h"
#include "sweep/sweep_file.h"

namespace ct {

// One point: the value index chosen on each axis.
struct SweepPoint {
  std::vector<std::size_t> value;  // by axis
};

// The axes as groups that advance together: each zip group where its first axis stands, each axis
// zipped with none alone; in file order.
std::vector<std::vector<std::size_t>> sweep_axis_groups(const SweepFile& sweep);

// The product of the axes (zipped axes advancing together; the first axis varies slowest) less the
// excluded points.
std::vector<SweepPoint> sweep_points(const SweepFile& sweep);

// One row: a point x seed.
struct SweepRow {
  std::uint64_t seed = 0;
  std::vector<std::optional<double>> metrics;  // by sweep_metrics(); nullopt: the catalog lacks a figure
};

enum class PointStatus { kOk, kInfeasible, kFailed };

struct PointResult {
  PointStatus status = PointStatus::kOk;
  std::string reason;            // infeasible or failed: the planner's or the study's words
  std::vector<SweepRow> rows;    // by seed; empty unless kOk
};

struct SweepProgress {
  std::size_t done = 0, running = 0, failed = 0, total = 0;
  double eta_seconds = -1;  // from the finished points' costs; -1 before the first
};

// The counts a runner reports as points start and finish (run_sweep and the MPI runner alike): the
// time left is the mean cost of the points finished by this run x the points left / the workers.
// Not thread-safe: the runner serializes the calls.
class SweepProgressTracker {
 public:
  // `resumed`: points taken from the journal, done before the run starts.
  SweepProgressTracker(std::size_t total, std::size_t resumed, unsigned workers);
  const SweepProgress& started();
  const SweepProgress& finished(PointStatus status, double seconds);
  [[nodiscard]] const SweepProgress& progress() const { return progress_; }

 private:
  SweepProgress progress_;
  std::size_t resumed_ = 0;
  unsigned workers_ = 1;
  double cost_seconds_ = 0;
};

struct SweepOptions {
  unsigned threads = 1;          // 0: all cores
  std::string checkpoint_dir;    // "": none
  std::function<void(const SweepProgress&)> progress{};  // serialized: one call at a time
};

struct SweepRun {
  std::vector<SweepPoint> points;
  std::vector<PointResult> results;  // by point
  std::size_t computed = 0;          // points evaluated by this run (the others came from the journal)
};

// The spec of one point, as YAML text for read_spec.
std::string point_spec_text(const SweepFile& sweep, const SweepPoint& point);
// The whole study at one point (plan and reliability per seed), or why it is infeasible or failed.
PointResult evaluate_point(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point);

// Errors only for an unusable checkpoint folder; a failing point is a kFailed result.
Result<SweepRun> run_sweep(const SweepFile& sweep, const Catalog& catalog, const SweepOptions& options);

// ---- a point's Monte Carlos split into trial slices (docs/models/sweep.md) ----
// Trials first .. first + count - 1 of each Monte Carlo at a point (each clipped to its own trial
// count), for every seed; count 0: the whole point, unsplit.
struct TrialSlice {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};
// A point's work items: {whole} when neither Monte Carlo has more than studies.slice_trials trials,
// else consecutive slices of slice_trials trials covering the larger one.
std::vector<TrialSlice> point_slices(const SweepFile& sweep);
// One slice's per-trial outcomes at a point (every seed, both Monte Carlos), as bytes: what a rank
// sends to rank 0 (the ranks run one binary, so the bytes are the outcomes' own). An infeasible
// point or a failed study gives none; finish_point then says why.
std::string evaluate_slice(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point, TrialSlice slice);
// The point's result from its slices' bytes, in slice order: every trial's outcomes gathered in
// trial order and summarized by the Monte Carlos' own code, so the same as evaluate_point's.
PointResult finish_point(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point,
                         const std::vector<std::string>& slices);

// The work of a run as (point, slice) items in point order, and the slices gathered per point:
// what run_sweep and the MPI runner share. Not thread-safe: the runner serializes the calls.
struct SweepItem {
  std::size_t point = 0;
  std::size_t slice = 0;  // index into the point's slices
  TrialSlice trials;      // count 0: the whole point
};
class SweepWork {
 public:
  SweepWork(const SweepFile& sweep, const std::vector<std::size_t>& todo);
  [[nodiscard]] const std::vector<SweepItem>& items() const { return items_; }
  // Stores a slice's bytes; the point's slices, in slice order, when this was its last one, else nullopt.
  std::optional<std::vector<std::string>> arrived(const SweepItem& item, std::string bytes);
  [[nodiscard]] std::size_t split_points() const { return split_points_; }

 private:
  std::size_t slices_ = 1;
  std::size_t split_points_ = 0;
  std::vector<SweepItem> items_;
  std::vector<std::vector<std::string>> bytes_;  // by point, by slice
  std::vector<std::size_t> arrived_;             // by point
};

// ---- the pieces of run_sweep, for a runner that spreads the points over processes ----
// The points, with every journaled result loaded (the folder made when missing); the indices of
// the points still to compute, ascending. An entry of a point that holds a value out of its range
// is an error naming its file and field (decode_point).
Result<std::vector<std::size_t>> resume_sweep(const SweepFile& sweep, const std::string& checkpoint_dir, SweepRun& run);
// Journals point i's result atomically; nothing without a checkpoint folder.
Result<Unit> journal_point(const SweepFile& sweep, const std::string& checkpoint_dir, const SweepRun& run, std::size_t i);
// A point's result as one line of JSON (the journal's form, and what a rank sends to rank 0), and
// back: nullopt when the text is no point's result (not a JSON object naming a point) or another
// point's; errors naming `file` (line 1) and the field when a value is not what the study computes: a status other
// than 0..2, rows other than one per seed with the sweep's seeds in order, metrics other than
// sweep_metrics()'s count, a metric not finite, negative, past 1e15, a count not integral, a
// probability or share past 1.
std::string encode_point(const SweepFile& sweep, const SweepPoint& point, const PointResult& result);
Result<std::optional<PointResult>> decode_point(const SweepFile& sweep, const SweepPoint& point, const std::string& text,
                                                const std::string& file);

}  // namespace ct
