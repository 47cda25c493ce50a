#include "sim/maxmin/max_min_solver.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ct {
namespace {
constexpr std::uint64_t kCapOrder = std::uint64_t{1} << 32;

// The level at which a constraint saturates: R / W, with R clamped at 0 (rounding) and no flow
// left meaning never.
double saturation_level(double remaining, double weight_sum) {
  if (weight_sum <= 0) return std::numeric_limits<double>::infinity();
  return std::max(remaining, 0.0) / weight_sum;
}
}  // namespace

// Numbers the constraints the flows cross (order of first appearance) and sums a x w over their
// flows in increasing flow order.
void MaxMinSolver::gather(const MaxMinSystem& system, std::span<const FlowId> flows) {
  if (local_of_.size() < system.constraint_count()) local_of_.resize(system.constraint_count(), kNone);
  touched_.clear();
  local_.clear();
  local_hops_.clear();
  hop_offset_.resize(flows.size() + 1);
  hop_offset_[0] = 0;
  for (std::size_t pos = 0; pos < flows.size(); ++pos) {
    const FlowId f = flows[pos];
    const double w = system.weight[f.value()];
    assert(w > 0);
    const auto path = system.path(f);
    const auto fraction = system.fractions(f);
    for (std::size_t h = 0; h < path.size(); ++h) {
      std::uint32_t& local = local_of_[path[h].value()];
      if (local == kNone) {
        local = static_cast<std::uint32_t>(touched_.size());
        touched_.push_back(path[h]);
        local_.push_back(Local{system.capacity[path[h].value()], 0.0, 0, 0, 0});
      }
      local_[local].weight_sum += fraction.empty() ? w : fraction[h] * w;
      ++local_[local].unfrozen;
      local_hops_.push_back(local);
    }
    hop_offset_[pos + 1] = static_cast<std::uint32_t>(local_hops_.size());
  }
}

// The constraint -> flows lists of the gathered constraints, each in increasing flow order.
void MaxMinSolver::gather_members(std::span<const FlowId> flows) {
  const std::size_t n = touched_.size();
  cursor_.assign(n, 0);
  member_offset_.assign(n + 1, 0);
  for (std::size_t l = 0; l < n; ++l) member_offset_[l + 1] = member_offset_[l] + local_[l].unfrozen;
  members_.resize(member_offset_[n]);
  for (std::uint32_t pos = 0; pos < flows.size(); ++pos) {
    for (std::uint32_t k = hop_offset_[pos]; k < hop_offset_[pos + 1]; ++k) {
      const std::uint32_t l = local_hops_[k];
      members_[member_offset_[l] + cursor_[l]++] = pos;
    }
  }
}

// What a freeze reads and writes of each flow, by position: one record instead of five arrays.
void MaxMinSolver::gather_positions(const MaxMinSystem& system, std::span<const FlowId> flows) {
  position_.resize(flows.size() + 1);
  for (std::uint32_t pos = 0; pos < flows.size(); ++pos) {
    const std::uint32_t f = flows[pos].value();
    position_[pos] = Position{system.weight[f], 0.0, kUnfrozen, hop_offset_[pos], system.path_begin[f]};
  }
  position_[flows.size()] = Position{0.0, 0.0, kUnfrozen, hop_offset_[flows.size()], 0};
}

void MaxMinSolver::build_heap(const MaxMinSystem& system, std::span<const FlowId> flows) {
  const auto n = static_cast<std::uint32_t>(touched_.size());
  key_level_.resize(n);
  key_order_.resize(n);
  cap_position_.clear();
  for (std::uint32_t l = 0; l < n; ++l) {
    key_level_[l] = saturation_level(local_[l].remaining, local_[l].weight_sum);
    key_order_[l] = touched_[l].value();
  }
  for (std::uint32_t pos = 0; pos < flows.size(); ++pos) {
    const FlowId f = flows[pos];
    const double cap = system.rate_cap[f.value()];
    if (cap >= kNoRateCap) continue;
    cap_position_.push_back(pos);
    key_level_.push_back(cap / system.weight[f.value()]);
    key_order_.push_back(kCapOrder | f.value());
  }
  // A constraint crossed by one flow only keeps its level until that flow freezes, and then leaves
  // the heap; so of a flow's such constraints only the least in heap order can ever be the next
  // event, and only it enters the heap (the others stay out, as if already gone). The events and
  // their order are those of the full heap; each freeze re-keys fewer constraints.
  least_private_.assign(flows.size(), kNone);
  for (std::uint32_t l = 0; l < n; ++l) {
    if (local_[l].unfrozen != 1) continue;
    std::uint32_t& least = least_private_[members_[member_offset_[l]]];
    if (least == kNone || before(l, least)) least = l;
  }
  const auto items = static_cast<std::uint32_t>(key_level_.size());
  constraints_ = n;
  stale_.clear();
  // The children of node i are entries kArity i + 1 to kArity i + kArity: with the root placed
  // kArity - 1 entries past a 64-byte boundary, each node's children are one cache line, and a
  // sift through a heap too large for the caches misses once per level instead of twice.
  heap_store_.resize(items + kArity);
  const auto slot = reinterpret_cast<std::uintptr_t>(heap_store_.data()) / sizeof(HeapEntry);
  heap_ = heap_store_.data() + (2 * kArity - 1 - slot % kArity) % kArity;
  heap_size_ = 0;
  where_.assign(items, kNone);
  for (std::uint32_t i = 0; i < items; ++i) {
    if (i < n && local_[i].unfrozen == 1 && least_private_[members_[member_offset_[i]]] != i) continue;
    where_[i] = heap_size_;
    if (i < n) local_[i].in_heap = 1;
    heap_[heap_size_++] = HeapEntry{key_level_[i], static_cast<std::uint32_t>(key_order_[i]), i};
  }
  for (auto i = heap_size_ / kArity + 1; i-- > 0;) {
    if (i < heap_size_) sift_down(i);
  }
}

void MaxMinSolver::sift_up(std::uint32_t i) {
  const HeapEntry entry = heap_[i];
  while (i > 0) {
    const std::uint32_t parent = (i - 1) / kArity;
    if (!earlier(entry, heap_[parent])) break;
    place(i, heap_[parent]);
    i = parent;
  }
  place(i, entry);
}

void MaxMinSolver::sift_down(std::uint32_t i) {
  const HeapEntry entry = heap_[i];
  const std::uint32_t size = heap_size_;
  while (true) {
    const std::uint32_t first = kArity * i + 1;
    if (first >= size) break;
    const std::uint32_t end = std::min(first + kArity, size);
    std::uint32_t child = first;
    for (std::uint32_t c = first + 1; c < end; ++c) {
      if (earlier(heap_[c], heap_[child])) child = c;
    }
    if (!earlier(heap_[child], entry)) break;
    place(i, heap_[child]);
    i = child;
  }
  place(i, entry);
}

void MaxMinSolver::erase(std::uint32_t item) {
  const std::uint32_t i = where_[item];
  where_[item] = kNone;
  if (item < constraints_) local_[item].in_heap = 0;
  const HeapEntry last = heap_[--heap_size_];
  if (last.item == item) return;
  place(i, last);
  sift_down(i);
  sift_up(where_[last.item]);
}

// Constraint `local`'s R or W changed: its key follows (up or down: rounding may lower it). A key
// that fell can only move up and one that grew only down, so only that side is read: a fall reads
// the parent, not the children's line (a random one in a heap too large for the caches), and a key
// that did not change reads neither. The entry ends where sift down then up would leave it.
void MaxMinSolver::rekey(std::uint32_t local) {
  const std::uint32_t i = where_[local];
  if (i == kNone) return;
  if (local_[local].unfrozen == 0) {
    erase(local);
    return;
  }
  const double level = saturation_level(local_[local].remaining, local_[local].weight_sum);
  const double old = heap_[i].level;
  heap_[i].level = level;
  if (level < old) {
    sift_up(i);
  } else if (level > old) {
    sift_down(i);
  }
}

void MaxMinSolver::freeze(const MaxMinSystem& system, std::uint32_t position, double value) {
  Position& p = position_[position];
  const double w = p.weight;
  p.rate = value;
  p.seq = next_seq_;
  // No fractions: every one is 1, and 1 x v is v (max_min_system.h).
  const double* fraction = system.path_fraction.empty() ? nullptr : system.path_fraction.data() + p.path_begin;
  const std::uint32_t end = position_[position + 1].hop_begin;
  for (std::uint32_t k = p.hop_begin; k < end; ++k) {
    const std::uint32_t l = local_hops_[k];
    Local& c = local_[l];
    if (fraction == nullptr) {
      c.remaining -= value;
      c.weight_sum -= w;
    } else {
      c.remaining -= *fraction * value;
      c.weight_sum -= *fraction * w;
      ++fraction;
    }
    --c.unfrozen;
    if (c.stale == 0 && c.in_heap != 0) {
      c.stale = 1;
      stale_.push_back(l);
    }
  }
}

// After an event's freezes, each constraint they changed takes its key once, from its final R and
// W (the heap orders items by key alone, so the next pop is the same as with a re-key per freeze).
void MaxMinSolver::rekey_stale() {
  for (const std::uint32_t l : stale_) {
    local_[l].stale = 0;
    rekey(l);
  }
  stale_.clear();
}

// Constraint `local` is the tightest at `level`: its unfrozen flows are frozen at w_f x level.
void MaxMinSolver::saturate(const MaxMinSystem& system, std::uint32_t local, double level) {
  for (std::uint32_t i = member_offset_[local]; i < member_offset_[local + 1]; ++i) {
    const std::uint32_t pos = members_[i];
    if (position_[pos].seq != kUnfrozen) continue;
    freeze(system, pos, position_[pos].weight * level);
  }
  assert(local_[local].unfrozen == 0);
}

void MaxMinSolver::solve(const MaxMinSystem& system, std::span<const FlowId> flows, std::span<double> rate,
                         std::span<std::uint64_t> freeze_seq, const StartFn* start) {
  assert(std::is_sorted(flows.begin(), flows.end()));
  assert(rate.size() >= system.flow_count());
  assert(freeze_seq.empty() || freeze_seq.size() >= system.flow_count());
  gather(system, flows);
  if (start != nullptr) {
    for (std::uint32_t l = 0; l < touched_.size(); ++l) (*start)(touched_[l], local_[l].remaining, local_[l].weight_sum);
  }
  if (solve_in_one_event(system, flows, rate, freeze_seq)) {
    for (const ConstraintId c : touched_) local_of_[c.value()] = kNone;
    return;
  }
  gather_members(flows);
  gather_positions(system, flows);
  build_heap(system, flows);
  const auto n = static_cast<std::uint32_t>(touched_.size());
  while (heap_size_ != 0) {
    const std::uint32_t item = heap_[0].item;
    const double level = heap_[0].level;
    erase(item);
    if (item >= n) {
      const std::uint32_t pos = cap_position_[item - n];
      if (position_[pos].seq != kUnfrozen) continue;
      freeze(system, pos, system.rate_cap[flows[pos].value()]);
    } else {
      saturate(system, item, level);
    }
    rekey_stale();
    ++next_seq_;
  }
  // The rates and sequences out, in flow order (the freezes came in event order).
  for (std::uint32_t pos = 0; pos < flows.size(); ++pos) {
    if (position_[pos].seq == kUnfrozen) continue;
    rate[flows[pos].value()] = position_[pos].rate;
    if (!freeze_seq.empty()) freeze_seq[flows[pos].value()] = position_[pos].seq;
  }
  for (const ConstraintId c : touched_) local_of_[c.value()] = kNone;
  if (flows.size() >= kKeepWorkspace) release_workspace();
}

// The per-flow and per-hop arrays of a solve are given back, not kept for the next one: after the
// one solve of millions of flows that starts a large collective, the solves that follow are small.
void MaxMinSolver::release_workspace() {
  const auto release = [](auto& v) { std::remove_reference_t<decltype(v)>().swap(v); };
  release(touched_);
  release(local_);
  release(hop_offset_);
  release(local_hops_);
  release(cursor_);
  release(member_offset_);
  release(members_);
  release(position_);
  release(key_level_);
  release(key_order_);
  release(where_);
  release(cap_position_);
  release(heap_store_);
  heap_ = nullptr;
  release(least_private_);
}

// The heap's first item is the least (level, order) key of all: of the constraints (a private one
// left out of the heap is never less than its flow's least private one) and of the caps (a cap's
// order is above every constraint's, so it comes first only at a strictly lower level). When that
// item is a constraint every flow of the solve crosses, its saturate() freezes them all at
// w_f x level, one event, and every later item leaves the heap without an event (constraints are
// erased when their last flow freezes; a cap item of a frozen flow is skipped without a sequence
// number). The same rates, sequence numbers and next_seq_ are set here without the heap.
bool MaxMinSolver::solve_in_one_event(const MaxMinSystem& system, std::span<const FlowId> flows,
                                      std::span<double> rate, std::span<std::uint64_t> freeze_seq) {
  const auto n = static_cast<std::uint32_t>(touched_.size());
  if (n == 0) return false;
  std::uint32_t least = 0;
  double least_level = saturation_level(local_[0].remaining, local_[0].weight_sum);
  for (std::uint32_t l = 1; l < n; ++l) {
    const double level = saturation_level(local_[l].remaining, local_[l].weight_sum);
    if (level < least_level || (level == least_level && touched_[l].value() < touched_[least].value())) {
      least = l;
      least_level = level;
    }
  }
  if (local_[least].unfrozen != flows.size()) return false;
  for (const FlowId f : flows) {
    const double cap = system.rate_cap[f.value()];
    if (cap < kNoRateCap && cap / system.weight[f.value()] < least_level) return false;
  }
  for (const FlowId f : flows) {
    rate[f.value()] = system.weight[f.value()] * least_level;
    if (!freeze_seq.empty()) freeze_seq[f.value()] = next_seq_;
  }
  ++next_seq_;
  return true;
}

double MaxMinSolver::alone_rate(const MaxMinSystem& system, FlowId f) {
  const double w = system.weight[f.value()];
  const auto path = system.path(f);
  const auto fraction = system.fractions(f);
  // The least (level, constraint id) key, as the heap orders them.
  double level = std::numeric_limits<double>::infinity();
  std::uint32_t order = kNone;
  for (std::size_t h = 0; h < path.size(); ++h) {
    const double l = saturation_level(system.capacity[path[h].value()], 0.0 + (fraction.empty() ? w : fraction[h] * w));
    if (l < level || (l == level && path[h].value() < order)) {
      level = l;
      order = path[h].value();
    }
  }
  const double cap = system.rate_cap[f.value()];
  if (cap < kNoRateCap && cap / w < level) return cap;
  return w * level;
}

void MaxMinSolver::solve_all(const MaxMinSystem& system, std::span<double> rate) {
  std::vector<FlowId> all(system.flow_count());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = FlowId(i);
  solve(system, all, rate);
}

}  // namespace ct
