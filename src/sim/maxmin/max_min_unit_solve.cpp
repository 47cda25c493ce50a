// MaxMinSolver::solve_unit: the progressive filling of max_min_solver.h for flows of weight 1
// without caps and with fraction 1 on every hop, each event found by a scan instead of the heap.
//
// Why the same bits as solve(). With w = a = 1, solve()'s W_c starts at 0.0 + 1 x 1 + ... (one term
// per flow on c) and loses 1 x 1 per freeze: small integers, exact, so W_c is the count of c's
// unfrozen flows as a double. A freeze at level L writes the rate 1 x L = L and subtracts
// 1 x L = L from R of each hop in path order; an event freezes its constraint's unfrozen flows in
// increasing position (= FlowId, `flows` is sorted). solve()'s heap holds every constraint with
// unfrozen flows under its current key (max(R, 0) / W, id), except a flow's private constraints
// (crossed by it alone) other than the least of them; those keep their key until that flow
// freezes, so they are never less than the flow's least private one, which is in the heap until
// then, and are never the least key: the least key over all constraints with unfrozen flows, which
// the scan takes, is the heap's first. Without caps there are no other items. Each popped
// constraint is one event and one sequence number, here as there.
#include <algorithm>
#include <cassert>

#include "sim/maxmin/max_min_solver.h"

namespace ct {

void MaxMinSolver::solve_unit(const MaxMinSystem& system, std::span<const FlowId> flows, std::span<double> rate,
                              std::span<std::uint64_t> freeze_seq) {
  assert(std::is_sorted(flows.begin(), flows.end()));
  assert(rate.size() >= system.flow_count());
  assert(freeze_seq.empty() || freeze_seq.size() >= system.flow_count());
  // The workspace only grows (at most one constraint per hop), so a solve no larger than an
  // earlier one allocates nothing.
  if (flows.empty()) return;
  if (unit_local_of_.size() < system.constraint_count()) unit_local_of_.resize(system.constraint_count(), kNone);
  std::size_t hops = 0;
  for (const FlowId f : flows) hops += system.path_size[f.value()];
  if (unit_hops_.size() < hops) {
    unit_hops_.resize(hops);
    unit_constraints_.resize(hops);
  }
  if (unit_hop_end_.size() < flows.size()) {
    unit_hop_end_.resize(flows.size());
    unit_frozen_.resize(flows.size());
  }
  UnitConstraint* const constraints = unit_constraints_.data();
  std::uint32_t* const local_hops = unit_hops_.data();
  std::uint32_t* const hop_end = unit_hop_end_.data();
  std::uint32_t* const local_of = unit_local_of_.data();
  std::uint32_t n = 0, k = 0;
  for (std::size_t pos = 0; pos < flows.size(); ++pos) {
    assert(system.weight[flows[pos].value()] == 1.0 && system.rate_cap[flows[pos].value()] >= kNoRateCap);
    assert(std::all_of(system.fractions(flows[pos]).begin(), system.fractions(flows[pos]).end(),
                       [](double a) { return a == 1.0; }));
    for (const ConstraintId c : system.path(flows[pos])) {
      std::uint32_t& local = local_of[c.value()];
      if (local == kNone) {
        local = n;
        constraints[n++] = UnitConstraint{system.capacity[c.value()], 0, c.value()};
      }
      ++constraints[local].unfrozen;
      local_hops[k++] = local;
    }
    hop_end[pos] = k;
  }
  for (std::uint32_t l = 0; l < n; ++l) local_of[constraints[l].id] = kNone;
  solve_unit_events(flows, n, rate, freeze_seq);
}

// The first event's constraint is the least (C_c / n_c, id) over the constraints the flows cross
// (a constraint crossed twice is compared twice, with the same key). When all the flows cross it,
// that event freezes them all at its level and is the only one (solve()'s solve_in_one_event,
// without caps).
bool MaxMinSolver::solve_unit_in_one_event(const MaxMinSystem& system, std::span<const FlowId> flows,
                                           std::span<const std::uint32_t> count, std::span<double> rate,
                                           std::span<std::uint64_t> freeze_seq) {
  if (flows.empty()) return false;
  const ConstraintId* const pool = system.path_pool.data();
  const double* const capacity = system.capacity.data();
  std::uint32_t least = kNone;
  double least_level = 0.0;
  for (const FlowId f : flows) {
    const std::uint32_t begin = system.path_begin[f.value()];
    const std::uint32_t end = begin + system.path_size[f.value()];
    for (std::uint32_t h = begin; h < end; ++h) {
      const std::uint32_t c = pool[h].value();
      const double level = std::max(capacity[c], 0.0) / static_cast<double>(count[c]);
      if (least == kNone || level < least_level || (level == least_level && c < least)) {
        least = c;
        least_level = level;
      }
    }
  }
  if (count[least] != flows.size()) return false;
  for (const FlowId f : flows) {
    rate[f.value()] = least_level;
    if (!freeze_seq.empty()) freeze_seq[f.value()] = next_seq_;
  }
  ++next_seq_;
  return true;
}

void MaxMinSolver::solve_unit_events(std::span<const FlowId> flows, std::uint32_t n, std::span<double> rate,
                                     std::span<std::uint64_t> freeze_seq) {
  UnitConstraint* const constraints = unit_constraints_.data();
  const std::uint32_t* const local_hops = unit_hops_.data();
  const std::uint32_t* const hop_end = unit_hop_end_.data();
  std::uint8_t* const frozen = unit_frozen_.data();
  auto freeze = [&](std::size_t pos, double level) {
    rate[flows[pos].value()] = level;
    if (!freeze_seq.empty()) freeze_seq[flows[pos].value()] = next_seq_;
  };
  std::fill(frozen, frozen + flows.size(), std::uint8_t{0});
  std::size_t left = flows.size();
  while (left != 0) {
    // The least (level, id) of the constraints with unfrozen flows.
    std::uint32_t least = kNone;
    double least_level = 0.0;
    for (std::uint32_t l = 0; l < n; ++l) {
      const UnitConstraint& c = constraints[l];
      if (c.unfrozen == 0) continue;
      const double level = std::max(c.remaining, 0.0) / static_cast<double>(c.unfrozen);
      if (least == kNone || level < least_level || (level == least_level && c.id < constraints[least].id)) {
        least = l;
        least_level = level;
      }
    }
    assert(least != kNone);
    if (constraints[least].unfrozen == left) {
      // Every flow left freezes in this event, the last: R and W are not read again.
      for (std::size_t pos = 0; pos < flows.size(); ++pos) {
        if (frozen[pos] == 0) freeze(pos, least_level);
      }
      ++next_seq_;
      return;
    }
    for (std::size_t pos = 0; pos < flows.size(); ++pos) {
      if (frozen[pos] != 0) continue;
      const std::uint32_t* begin = local_hops + (pos == 0 ? 0 : hop_end[pos - 1]);
      const std::uint32_t* end = local_hops + hop_end[pos];
      if (std::find(begin, end, least) == end) continue;
      frozen[pos] = 1;
      freeze(pos, least_level);
      --left;
      for (const std::uint32_t* h = begin; h != end; ++h) {
        constraints[*h].remaining -= least_level;
        --constraints[*h].unfrozen;
      }
    }
    ++next_seq_;
  }
}

}  // namespace ct
