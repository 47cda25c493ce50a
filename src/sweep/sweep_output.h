// What a sweep writes: the rows (one per point x seed) as CSV and as JSON lines, and the report:
// a summary per point over its seeds and the Pareto front over the sweep's objectives.
//
// Summary of a metric over a point's n seeds: the mean, the spread as the sample standard deviation
// (n - 1 in the denominator) and a 95% confidence interval for the mean, mean +- t(0.975, n - 1) *
// sd / sqrt(n), Student's t (exact quantiles up to 30 degrees of freedom, 1.96 beyond); with one
// seed there is no interval. The front is taken over the points' means (sweep/pareto.h); points that
// are infeasible, failed, or lack an objective's figure are not on it.
// Every number is printed in its shortest form that reads back exactly, so the bytes depend only on
// the values, never on the thread count or the rank count that computed them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sweep/sweep_run.h"

namespace ct {

struct MetricSummary {
  std::optional<double> mean, sd, ci95;  // ci95: the half-width; nullopt with one seed
};

// By metric; empty for a point that is not kOk.
std::vector<MetricSummary> summarize(const PointResult& result, std::size_t metrics);

// The 0.975 quantile of Student's t with `df` degrees of freedom.
double student_t_975(std::size_t df);

// Points on the front, by index into run.points.
std::vector<std::size_t> sweep_front(const SweepFile& sweep, const SweepRun& run);

// What changing one axis alone does (one axis group: zipped axes move together). The group's first
// value is the reference; for each other value, the matched pairs are the feasible points that
// differ from a feasible reference point in that group only, and each metric's mean over seeds is
// averaged over those pairs at the value and at the reference. A metric missing at either end of
// a pair leaves that pair out of its figures.
struct AxisChange {
  std::string value;            // the group's values joined by " + "
  std::size_t pairs = 0;        // matched with a reference point (the reference row: its points)
  std::vector<std::optional<double>> at_value, at_reference;  // by metric
};
struct AxisEffect {
  std::string axis;             // the group's axis names joined by " + "
  std::vector<AxisChange> rows;  // by value of the group; rows[0] is the reference
};
// Over `metrics` (indices into sweep_metrics()).
std::vector<AxisEffect> axis_effects(const SweepFile& sweep, const SweepRun& run, const std::vector<std::size_t>& metrics);

std::string sweep_rows_csv(const SweepFile& sweep, const SweepRun& run);
std::string sweep_rows_jsonl(const SweepFile& sweep, const SweepRun& run);
std::string sweep_report_text(const SweepFile& sweep, const SweepRun& run);
std::string sweep_report_json(const SweepFile& sweep, const SweepRun& run);

}  // namespace ct
