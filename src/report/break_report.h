// `clustertwin break`: the timeline of a failure set (survival/failure_timeline.h) as text, JSON and
// one self-contained HTML page.
//   text  the failures and timers, the timeline of events from t = 0 to the steady state, the apps'
//         downtime, the pods, the volumes, the totals
//   json  the same fields; times in seconds, null where the text says "never"
//   html  swim lanes (report/html/svg_chart.h render_timeline): one row per app that fails (its
//         outages) and one per volume that changes (degraded, unavailable, lost, rebuilding), the
//         tables of the text report and the text report itself. Numbers by page_numbers.h.
// Test hooks: plots "apps" and "volumes"; tables "summary", "apps", "pods", "volumes", "events".
#pragma once

#include <string>

#include "survival/failure_timeline.h"

namespace ct {

std::string break_text(const FailureTimeline& t);
std::string break_json(const FailureTimeline& t);
std::string break_html(const FailureTimeline& t, const std::string& command_line);

// "40 s", "730 s (12 min 10 s)", "never" (the text's one time format, shared by spof).
std::string duration_text(double seconds);

}  // namespace ct
