// `clustertwin hash --json`: the study of analysis/hash_study.h as JSON, the same quantities as the
// text report (report/hash_report.h) in stable key order, unrounded (throughputs in bit/s,
// probabilities as fractions), and every path, link, group and collision listed (the text's
// --max-listed limit does not apply). Pure function of the study: same study, same bytes.
#pragma once

#include <string>

#include "analysis/hash_study.h"
#include "report/hash_report.h"

namespace ct {

std::string hash_json(const HashStudy& study);

}  // namespace ct
