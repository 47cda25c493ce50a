// `clustertwin ib route|trace|export --json`: the studies of ib/ib_study.h as JSON, the same
// quantities as the text (report/ib_report.h, format_trace, write_ibnetdiscover) in stable key
// order. Pure functions: same study, same bytes.
#pragma once

#include <string>

#include "ib/ib_study.h"

namespace ct {

std::string ib_route_json(const IbRouteStudy& study);
std::string ib_trace_json(const IbTraceStudy& study);
// The exported fabric: its counts, each node's LIDs when assigned (`lids` may be null), and the
// ibnetdiscover text itself.
std::string ib_export_json(const IbFabric& fabric, const LidAssignment* lids, const std::string& net);

}  // namespace ct
