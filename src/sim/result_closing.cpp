#include "sim/result_closing.h"

#include <algorithm>

#include <fmt/format.h>

namespace ct {

void open_result(SimulationResult& result, const Workload& w) {
  result.operations.reserve(w.operations.size());
  for (const WorkloadOperation& op : w.operations) {
    OperationResult o;
    static_cast<OperationIdentity&>(o) = op;
    o.iterations.resize(op.iterations);
    o.flows_begin = op.records_begin;
    o.flows_end = op.records_end;
    result.operations.push_back(std::move(o));
  }
  for (const WorkloadPhase& p : w.phases) result.phases.push_back({p.name, p.start, TimePs(-1), p.workers_begin, p.workers_end});
  result.workers = w.workers;
  result.notes = w.notes;
}

void close_result(SimulationResult& result, TimePs last_event, const char* stalled_because) {
  TimePs makespan{0};
  std::uint64_t stalled = 0;
  std::uint64_t waiting = 0;
  for (const FlowRecord& rec : result.flows) {
    if (rec.start.value() >= 0) last_event = std::max(last_event, rec.start);
    if (rec.end.value() >= 0) makespan = std::max(makespan, rec.end);
    if (rec.unfinished == Unfinished::kStalled) ++stalled;
    if (rec.unfinished == Unfinished::kWaiting) ++waiting;
    if (rec.operation >= result.operations.size()) continue;
    OperationResult& op = result.operations[rec.operation];
    IterationSpan& span = op.iterations[rec.iteration];
    if (rec.start.value() >= 0 && (span.start.value() < 0 || rec.start < span.start)) span.start = rec.start;
    if (rec.end.value() < 0) op.complete = false;
    span.end = std::max(span.end, rec.end);
  }
  if (stalled + waiting > 0) {
    // Nothing happens after the last event: the run is unbounded, not as long as an engine's clock
    // (which may have passed stale completion times of stalled flows).
    makespan = std::max(makespan, last_event);
    result.unbounded = true;
    if (stalled > 0) {
      result.notes.push_back(
          fmt::format("{} flow(s) never finish: {}; they stalled with bytes left (see the flows CSV)", stalled, stalled_because));
    }
    if (waiting > 0) {
      result.notes.push_back(fmt::format("{} flow(s) never started: they wait for flows that never finish", waiting));
    }
  }
  result.makespan = makespan;
  for (PhaseResult& phase : result.phases) phase.end = TimePs(-1);
  for (const OperationResult& op : result.operations) {
    if (op.kind == OperationKind::kMice) continue;
    PhaseResult& phase = result.phases[op.phase];
    for (const IterationSpan& span : op.iterations) phase.end = std::max(phase.end, span.end);
    if (op.kind == OperationKind::kTransfer) {
      const TimePs first = op.iterations.front().start;
      if (phase.start.value() < 0 || (first.value() >= 0 && first < phase.start)) phase.start = first;
    }
    if (!op.complete) phase.end = makespan;
  }
}

}  // namespace ct
