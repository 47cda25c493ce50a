// Views of a ReliabilityStudy for `clustertwin reliability`: text (the job and its inputs, the
// steady-state table per element class, failures touching jobs of growing size, the job over the
// horizon in closed form beside the Monte Carlo with 95% intervals, and the 1 / 2 / 4-plane
// comparison) and JSON with a fixed key order. Pure functions of the study: no I/O.
#pragma once

#include <string>

#include "analysis/reliability_study.h"

namespace ct {

std::string to_text(const ReliabilityStudy& study);
std::string to_json(const ReliabilityStudy& study);

}  // namespace ct
