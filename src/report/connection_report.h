// Views of a TrafficSummary for `clustertwin traffic`: text and JSON (fixed key order). Pure.
#pragma once

#include <string>

#include "diagnose/connection_table.h"

namespace ct {

std::string to_text(const TrafficSummary& summary, const TrafficOptions& options);
std::string to_json(const TrafficSummary& summary, const TrafficOptions& options);

}  // namespace ct
