#include "analysis/straggler.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace ct {

double straggler_loss(std::uint32_t workers, double slowdown) {
  assert(workers >= 1 && slowdown >= 1);
  const double n = workers;
  return (n - 1) * (slowdown - 1) / (n * slowdown);
}

namespace {

// Length of the union of [begin, end) intervals, clipped to the phase.
TimePs union_length(std::vector<std::pair<TimePs, TimePs>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  TimePs total{0};
  TimePs covered_to{-1};
  for (const auto& [begin, end] : intervals) {
    const TimePs from = std::max(begin, covered_to);
    if (end > from) {
      total += end - from;
      covered_to = end;
    }
  }
  return total;
}

double share(double part, double whole) { return whole > 0 ? part / whole : 0.0; }

}  // namespace

WorkerAccount account_workers(const SimulationResult& result) {
  WorkerAccount account;
  std::vector<std::vector<std::pair<TimePs, TimePs>>> busy(result.workers.size());
  for (const FlowRecord& f : result.flows) {
    if (f.worker >= result.workers.size() || f.start.value() < 0) continue;
    const PhaseResult& phase = result.phases[result.workers[f.worker].phase];
    // A flow that never finished sent until it stalled (its path failed), not to the phase's end.
    const TimePs end = f.end.value() >= 0 ? f.end : f.stalled.value() >= 0 ? f.stalled : phase.end;
    busy[f.worker].emplace_back(std::max(f.start, phase.start), std::min(end, phase.end));
  }
  double waiting = 0;
  double network = 0;
  double spans = 0;
  for (const PhaseResult& p : result.phases) {
    PhaseTime phase;
    phase.name = p.name;
    phase.span = p.end.value() >= p.start.value() ? p.end - p.start : TimePs(0);
    double phase_waiting = 0;
    double phase_network = 0;
    double phase_spans = 0;
    for (std::uint32_t w = p.workers_begin; w < p.workers_end; ++w) {
      WorkerTime t;
      t.name = result.workers[w].name;
      t.phase = result.workers[w].phase;
      t.span = phase.span;
      t.compute = std::min(result.workers[w].compute, t.span);
      t.sending = std::min(union_length(busy[w]), t.span - t.compute);
      t.waiting = t.span - t.compute - t.sending;
      phase_waiting += static_cast<double>(t.waiting.value());
      phase_network += static_cast<double>((t.span - t.compute).value());
      phase_spans += static_cast<double>(t.span.value());
      account.workers.push_back(std::move(t));
    }
    phase.workers = p.workers_end - p.workers_begin;
    phase.waiting_share = share(phase_waiting, phase_spans);
    phase.network_share = share(phase_network, phase_spans);
    waiting += phase_waiting;
    network += phase_network;
    spans += phase_spans;
    account.phases.push_back(std::move(phase));
  }
  account.waiting_share = share(waiting, spans);
  account.network_share = share(network, spans);
  return account;
}

}  // namespace ct
