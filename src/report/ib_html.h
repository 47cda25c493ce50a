// `clustertwin ib route --html FILE`: the study of ib/ib_study.h as one self-contained page
// (report/html/html_document.h). Figures, all read from the study's checks (ib/ib_checks.h):
//   uplink balance  per switch rank, a histogram of the CA destinations each uplink carries (one
//                   series per rank, and per rank after the failures when cables were removed); a
//                   perfectly balanced rank is one bar;
//   hops            the delivered (source port, destination LID) pairs by the switches they cross,
//                   healthy and after the failures;
// then the text report itself (ib_route_report), so the page holds every figure the text does.
// Test hooks: plots "uplink-balance", "switch-hops"; facts "routing" (and "degraded").
// Pure function of the study: same study, same bytes.
#pragma once

#include <cstdint>
#include <string>

#include "ib/ib_study.h"

namespace ct {

// Bins of the uplink-balance histogram at most (integer-wide bins when the counts span fewer).
inline constexpr std::uint32_t kBalanceBins = 40;

std::string ib_route_html(const IbRouteStudy& study, const std::string& command_line);

}  // namespace ct
