// `clustertwin hash --json`: the study of analysis/hash_study.h as JSON, the same quantities as the
// text report (report/hash_report.h) in stable key order, unrounded (throughputs in bit/s,
// probabilities as fractions), and every path, link, group and collision listed (the text's
// --max-listed limit does not apply). Each flow's "no_path" says why it has no path, as the text
// does ({"reason", "stopped_at", "culprit", "message": "no path: all uplinks of X are down"}), and
// is null when the flow is routed. Pure function of the study: same study, same bytes.
#pragma once

#include <string>

#include "analysis/hash_study.h"
#include "report/hash_report.h"

namespace ct {

std::string hash_json(const HashStudy& study);

}  // namespace ct
