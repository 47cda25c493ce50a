// `clustertwin reliability --html FILE`: the study of analysis/reliability_study.h as one
// self-contained page (report/html/html_document.h). Figures, all read from the study:
//   P(k down)     per element class of the spec's design, the binomial probabilities of 0, 1, 2 and
//                 3 or more elements down at a given moment (closed form), log scale;
//   planes        goodput hours lost over the horizon with 1, 2 and 4 planes: the closed form beside
//                 the Monte Carlo mean (its 95% interval in the facts table);
//   spread        the Monte Carlo distribution: share of trials by interruptions (histogram, one
//                 series per plane count) and the hours-lost percentiles p50 / p90 / p99 / max;
// then the text report itself (to_text), so the page holds every figure the text does.
// Test hooks: plots "p-k-down", "planes-lost-hours", "interruptions", "lost-hours-spread"; facts
// "design" and "planes". Pure function of the study: same study, same bytes.
#pragma once

#include <string>

#include "analysis/reliability_study.h"

namespace ct {

std::string reliability_html(const ReliabilityStudy& study, const std::string& command_line);

}  // namespace ct
