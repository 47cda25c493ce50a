// Views of a TrafficSummary for `clustertwin traffic`: text and JSON (fixed key order). Pure.
#pragma once

#include <string>

#include "diagnose/connection_table.h"
#include "report/table.h"

namespace ct {

std::string to_text(const TrafficSummary& summary, const TrafficOptions& options);
std::string to_json(const TrafficSummary& summary, const TrafficOptions& options);

// "2.41 GB", "493.29 kB", "12 B": a byte count as the text report prints it.
std::string bytes_text(double bytes);
// The text report's table of the largest connections (report/traffic_html.h shows it too).
TextTable traffic_top_table(const TrafficSummary& summary, const TrafficOptions& options);

}  // namespace ct
