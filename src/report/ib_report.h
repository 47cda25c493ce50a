// The text reports of `clustertwin ib route` and `ib trace` (ib/ib_study.h). Pure functions of
// the study: the same study gives the same bytes. When the degraded fabric could not be routed,
// the report holds everything up to that point; the caller prints the study's degraded_errors.
#pragma once

#include <string>

#include "ib/ib_study.h"

namespace ct {

// "InfiniBand subnet (plane 0 of lab.yaml): 12 switches, 256 CAs, 512 cables"
std::string ib_subnet_line(const IbFabric& fabric, const std::string& origin);

std::string ib_route_report(const IbRouteStudy& study);
std::string ib_trace_report(const IbTraceStudy& study);

}  // namespace ct
