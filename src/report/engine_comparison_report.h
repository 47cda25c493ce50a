// `simulate --compare-engines`: the flow and the packet engine on one scenario side by side
// (analysis/engine_comparison.h), as text and as JSON with a fixed key order. Per operation: each
// engine's mean iteration time and busbw, the difference, whether they agree within 2 %, and
// where they differ the reasons the packet run shows; then what only the packet engine sees:
// how far PAUSE or credit stalls spread (ports stopped of ports used), victim flows, deadlock.
// Each engine's makespan as simulate gives it: "unbounded (nothing happens after T)" when some flow
// never completed (the JSON's makespan_s null, unbounded true, last_event_s T).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "analysis/engine_comparison.h"
#include "fabric/name_directory.h"
#include "sim/simulation.h"
#include "topology/topology.h"

namespace ct {

struct EngineComparisonInput {
  const Topology& topology;
  // The directory that names its ports as simulate's reports do (report/simulate_report.h
  // resource_name): the fabric's own, not owned.
  const NameDirectory& names;
  const EngineRuns& runs;
  const EngineComparison& comparison;
  std::string title;
  std::size_t top = 10;  // rows of reasons and victims in the text
};

std::string engine_comparison_text(const EngineComparisonInput& in);
std::string engine_comparison_json(const EngineComparisonInput& in);

}  // namespace ct
