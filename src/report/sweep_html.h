// `clustertwin sweep --html FILE`: a sweep's outcome as one self-contained page
// (report/html/html_document.h), every figure read from the run and the summary of
// sweep/sweep_output.h:
//   summary      points, seeds, how many feasible, infeasible, failed, on the front;
//   front        a scatter plot per pair of objectives (each point's means over seeds): the points on
//                the Pareto front over all objectives drawn full, the dominated ones faded (with more
//                than two objectives a point may look dominated in one plane and still be on the
//                front); one objective: the objective against the point's index; then the front's
//                points as a table, each objective's mean and its 95% interval;
//   one axis     per axis group (zipped axes move together), what changing it alone does
//                (sweep_output.h axis_effects): per value, the matched points and each objective's
//                mean there beside the reference value's over the same points, and the change;
//                with no objectives, over every metric;
//   not run      the infeasible and failed points with their reasons.
// Test hooks: plots "front-M-N" (objective indices M < N) or "front-0"; tables "summary", "front",
// "axis-K" (K the group's index), "not-run". Pure function of its inputs: same run, same bytes.
#pragma once

#include <string>

#include "sweep/sweep_output.h"

namespace ct {

std::string sweep_html(const SweepFile& sweep, const SweepRun& run, const std::string& command_line);

}  // namespace ct
