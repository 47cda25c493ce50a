// Runs a FluidScenario in SimGrid 3.32 configured as a pure max-min fluid model, the reference the
// flow engine is validated against:
//   network/model:CM02        the max-min model without LV08's bandwidth/latency factors;
//   network/crosstraffic:0    no reverse-direction ACK traffic on the return route;
//   network/TCP-gamma:1e30    no TCP window bound (in 3.32, 0 does not mean "off");
//   network/optim:Full        full re-solve; the default Lazy update can over-allocate a link when
//                             several flows start together from one host (measured: up to 69 %).
//                             SimGridMode::kLazy selects it anyway (network/optim:Lazy): here every
//                             flow has its own hosts, and the comparisons check that it stays exact.
// Each flow gets its own source and destination host in a star zone whose only route from the
// source is exactly the flow's list of links, so every flow's path is the one clustertwin uses;
// each constraint is one SimGrid link (shared policy, latency 0). Capacity changes are applied by
// an actor calling Link::set_bandwidth at the given time. A rate cap becomes a private link of
// the flow's (same constraint in max-min; host-to-host comms ignore Comm::set_rate).
#pragma once

#include <cstdint>
#include <vector>

#include "fluid_scenario.h"

namespace ct {

enum class SimGridMode : std::uint8_t { kFull, kLazy };

// Each flow's completion time in seconds, in flow order.
struct SimGridRun {
  std::vector<double> completion_seconds;
};

// PRECONDITION: called at most once per process (SimGrid's engine is a process-wide singleton).
SimGridRun run_simgrid(const FluidScenario& scenario, SimGridMode mode = SimGridMode::kFull);

// run_simgrid in a forked child, so that a process (a benchmark) can run SimGrid many times: the
// child sends back its wall time (seconds, of run_simgrid alone) and the completion times through
// a pipe. Returns that wall time and fills `completion` (one per flow), or returns -1 when the
// child failed (then `completion` holds -1 where nothing arrived).
// `cpu_seconds`, when given, receives the child process's CPU time (user + system, wait4), a figure
// a busy machine disturbs less than wall time.
double run_simgrid_in_child(const FluidScenario& scenario, std::vector<double>& completion,
                            SimGridMode mode = SimGridMode::kFull, double* cpu_seconds = nullptr);

}  // namespace ct
