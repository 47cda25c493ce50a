// Where the workers' time goes: computing, sending, or waiting for the others.
//
// Model. A phase (a collective, or a group of transfers) spans from its start to its last
// completion; every worker of the phase (a GPU of the collective, the sender of a transfer) is
// held for the whole span, since the next piece of work needs everyone's result. Within it a
// worker computes (iterations x compute), sends (the union over its flows of [start, completion):
// any of its flows in flight), or waits: waiting = span - compute - sending. The share of the
// workers' time lost to the slowest path is sum(waiting) / sum(span); the share spent on the
// network is sum(span - compute) / sum(span).
//
// Closed form (the straggler story). n workers each send S at the same instant over their own
// path of bandwidth B; one path is slowed by a factor f >= 1 (it runs at B / f). The phase spans
// f S / B; the n - 1 others send for S / B and wait (f - 1) S / B. The share lost is
//     (n - 1)(f - 1) / (n f),
// for n = 3: 2(f - 1) / (3f); a path at 52 % of its speed (f = 1 / 0.52) loses 31.96 % of the
// workers' time, a third of it as f grows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "sim/simulation_result.h"

namespace ct {

// (n - 1)(f - 1) / (n f). PRECONDITION: workers >= 1, slowdown >= 1.
double straggler_loss(std::uint32_t workers, double slowdown);

struct WorkerTime {
  std::string name;
  std::uint32_t phase = 0;
  TimePs span{0};
  TimePs compute{0};
  TimePs sending{0};
  TimePs waiting{0};
};

struct PhaseTime {
  std::string name;
  TimePs span{0};
  std::uint32_t workers = 0;
  double waiting_share = 0;  // sum(waiting) / sum(span): lost to the slowest path
  double network_share = 0;  // sum(span - compute) / sum(span): waiting on the network at all
};

struct WorkerAccount {
  std::vector<WorkerTime> workers;
  std::vector<PhaseTime> phases;
  double waiting_share = 0;  // over every worker of every phase
  double network_share = 0;
};

WorkerAccount account_workers(const SimulationResult& result);

}  // namespace ct
