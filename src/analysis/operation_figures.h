// An operation's figures as nccl-tests states them, from a simulation's result (whichever engine):
//   time   an iteration's span, first flow start to last completion (the compute phase before it
//          not counted); the mean over the completed iterations.
//   algbw  S / time, S the bytes of one instance (nccl-tests' "size").
//   busbw  algbw x bus factor (2(n-1)/n for all-reduce, (n-1)/n for the other collectives, 1 for a
//          transfer): comparable to the link speed whatever the rank count.
// The reports (report/simulate_report.h) and the sweep's simulate study (sweep/) read these.
#pragma once

#include <optional>

#include "sim/simulation_result.h"

namespace ct {

// The mean over completed iterations, in seconds; -1 when no iteration completed.
double mean_iteration_seconds(const OperationResult& op);

// busbw in bytes per second; nullopt for a partial run (fewer steps than the collective has), an
// operation that did not complete, or one with no time.
std::optional<double> busbw_bytes_per_second(const OperationResult& op);

}  // namespace ct
