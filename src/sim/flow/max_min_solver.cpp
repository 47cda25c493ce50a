#include "sim/flow/max_min_solver.h"

#include <algorithm>
#include <cassert>

namespace ct {
namespace {
constexpr std::uint32_t kNone = 0xFFFF'FFFFU;
constexpr std::uint64_t kCapOrder = std::uint64_t{1} << 32;
}  // namespace

void MaxMinSolver::push(HeapEntry entry) {
  heap_.push_back(entry);
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

// Numbers the constraints the flows cross (order of first appearance), sums their weights and
// builds the constraint -> flows lists, each in increasing flow order.
void MaxMinSolver::gather(const MaxMinSystem& system, std::span<const FlowId> flows) {
  if (local_of_.size() < system.constraint_count()) local_of_.resize(system.constraint_count(), kNone);
  touched_.clear();
  remaining_.clear();
  weight_sum_.clear();
  unfrozen_.clear();
  for (const FlowId f : flows) {
    const double w = system.weight[f.value()];
    assert(w > 0);
    for (const ConstraintId c : system.path(f)) {
      std::uint32_t& local = local_of_[c.value()];
      if (local == kNone) {
        local = static_cast<std::uint32_t>(touched_.size());
        touched_.push_back(c);
        remaining_.push_back(system.capacity[c.value()]);
        weight_sum_.push_back(0.0);
        unfrozen_.push_back(0);
      }
      weight_sum_[local] += w;
      ++unfrozen_[local];
    }
  }
  const std::size_t n = touched_.size();
  cursor_.assign(n, 0);
  member_offset_.assign(n + 1, 0);
  for (std::size_t l = 0; l < n; ++l) member_offset_[l + 1] = member_offset_[l] + unfrozen_[l];
  members_.resize(member_offset_[n]);
  for (std::uint32_t pos = 0; pos < flows.size(); ++pos) {
    for (const ConstraintId c : system.path(flows[pos])) {
      const std::uint32_t l = local_of_[c.value()];
      members_[member_offset_[l] + cursor_[l]++] = pos;
    }
  }
  frozen_.assign(flows.size(), 0);
}

void MaxMinSolver::freeze(const MaxMinSystem& system, std::span<const FlowId> flows, std::uint32_t position,
                          double value, std::span<double> rate) {
  const FlowId f = flows[position];
  const double w = system.weight[f.value()];
  frozen_[position] = 1;
  rate[f.value()] = value;
  for (const ConstraintId c : system.path(f)) {
    const std::uint32_t l = local_of_[c.value()];
    remaining_[l] -= value;
    weight_sum_[l] -= w;
    --unfrozen_[l];
  }
}

// Constraint `local` is the tightest at `level`: its unfrozen flows are frozen at w_f x level.
void MaxMinSolver::saturate(const MaxMinSystem& system, std::span<const FlowId> flows, std::uint32_t local,
                            double level, std::span<double> rate) {
  for (std::uint32_t i = member_offset_[local]; i < member_offset_[local + 1]; ++i) {
    const std::uint32_t pos = members_[i];
    if (frozen_[pos] != 0) continue;
    freeze(system, flows, pos, system.weight[flows[pos].value()] * level, rate);
  }
  assert(unfrozen_[local] == 0);
}

void MaxMinSolver::solve(const MaxMinSystem& system, std::span<const FlowId> flows, std::span<double> rate) {
  assert(std::is_sorted(flows.begin(), flows.end()));
  assert(rate.size() >= system.flow_count());
  gather(system, flows);
  heap_.clear();
  for (std::uint32_t l = 0; l < touched_.size(); ++l) {
    heap_.push_back({std::max(remaining_[l], 0.0) / weight_sum_[l], touched_[l].value(), l});
  }
  for (std::uint32_t pos = 0; pos < flows.size(); ++pos) {
    const FlowId f = flows[pos];
    const double cap = system.rate_cap[f.value()];
    if (cap < kNoRateCap) heap_.push_back({cap / system.weight[f.value()], kCapOrder | f.value(), pos});
  }
  std::make_heap(heap_.begin(), heap_.end(), Later{});
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const HeapEntry e = heap_.back();
    heap_.pop_back();
    if ((e.order & kCapOrder) != 0) {
      if (frozen_[e.local] == 0) freeze(system, flows, e.local, system.rate_cap[flows[e.local].value()], rate);
      continue;
    }
    if (unfrozen_[e.local] == 0) continue;
    // Levels only rise: an entry whose constraint has risen since it was pushed goes back with
    // its current level; one that has not is the true minimum. (A current level below the
    // entry's can only be rounding; the entry's level is used.)
    const double current = std::max(remaining_[e.local], 0.0) / weight_sum_[e.local];
    if (current > e.level) {
      push({current, e.order, e.local});
    } else {
      saturate(system, flows, e.local, e.level, rate);
    }
  }
  for (const ConstraintId c : touched_) local_of_[c.value()] = kNone;
}

void MaxMinSolver::solve_all(const MaxMinSystem& system, std::span<double> rate) {
  std::vector<FlowId> all(system.flow_count());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = FlowId(i);
  solve(system, all, rate);
}

}  // namespace ct
