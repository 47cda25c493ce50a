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
  if (unit_local_of_.size() < system.constraint_count()) unit_local_of_.resize(system.constraint_count(), kNone);
  unit_constraints_.clear();
  unit_hops_.clear();
  unit_hop_end_.resize(flows.size());
  unit_frozen_.assign(flows.size(), 0);
  for (std::size_t pos = 0; pos < flows.size(); ++pos) {
    assert(system.weight[flows[pos].value()] == 1.0 && system.rate_cap[flows[pos].value()] >= kNoRateCap);
    for (const ConstraintId c : system.path(flows[pos])) {
      std::uint32_t& local = unit_local_of_[c.value()];
      if (local == kNone) {
        local = static_cast<std::uint32_t>(unit_constraints_.size());
        unit_constraints_.push_back(UnitConstraint{system.capacity[c.value()], 0, c.value()});
      }
      ++unit_constraints_[local].unfrozen;
      unit_hops_.push_back(local);
    }
    assert(std::all_of(system.fractions(flows[pos]).begin(), system.fractions(flows[pos]).end(),
                       [](double a) { return a == 1.0; }));
    unit_hop_end_[pos] = static_cast<std::uint32_t>(unit_hops_.size());
  }
  auto freeze = [&](std::size_t pos, double level) {
    unit_frozen_[pos] = 1;
    rate[flows[pos].value()] = level;
    if (!freeze_seq.empty()) freeze_seq[flows[pos].value()] = next_seq_;
  };
  std::size_t left = flows.size();
  while (left != 0) {
    // The least (level, id) of the constraints with unfrozen flows.
    std::uint32_t least = kNone;
    double least_level = 0.0;
    for (std::uint32_t l = 0; l < unit_constraints_.size(); ++l) {
      const UnitConstraint& c = unit_constraints_[l];
      if (c.unfrozen == 0) continue;
      const double level = std::max(c.remaining, 0.0) / static_cast<double>(c.unfrozen);
      if (least == kNone || level < least_level || (level == least_level && c.id < unit_constraints_[least].id)) {
        least = l;
        least_level = level;
      }
    }
    assert(least != kNone);
    if (unit_constraints_[least].unfrozen == left) {
      // Every flow left freezes in this event, the last: R and W are not read again.
      for (std::size_t pos = 0; pos < flows.size(); ++pos) {
        if (unit_frozen_[pos] == 0) freeze(pos, least_level);
      }
      ++next_seq_;
      break;
    }
    for (std::size_t pos = 0; pos < flows.size(); ++pos) {
      if (unit_frozen_[pos] != 0) continue;
      const std::uint32_t* begin = unit_hops_.data() + (pos == 0 ? 0 : unit_hop_end_[pos - 1]);
      const std::uint32_t* end = unit_hops_.data() + unit_hop_end_[pos];
      if (std::find(begin, end, least) == end) continue;
      freeze(pos, least_level);
      --left;
      for (const std::uint32_t* h = begin; h != end; ++h) {
        unit_constraints_[*h].remaining -= least_level;
        --unit_constraints_[*h].unfrozen;
      }
    }
    ++next_seq_;
  }
  for (const UnitConstraint& c : unit_constraints_) unit_local_of_[c.id] = kNone;
}

}  // namespace ct
