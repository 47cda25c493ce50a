#include "sim/flow/flow_engine.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ct {
namespace {
constexpr double kPsPerSecond = 1e12;

[[maybe_unused]] bool valid_path(std::span<const ConstraintId> path, std::span<const double> fraction,
                                 std::size_t constraints) {
  if (path.empty()) return false;
  if (!fraction.empty() && fraction.size() != path.size()) return false;
  for (const double a : fraction) {
    if (!(a > 0 && a <= 1)) return false;
  }
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!path[i].valid() || path[i].value() >= constraints) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (path[j] == path[i]) return false;
    }
  }
  return true;
}
}  // namespace

ConstraintId FlowEngine::add_constraint(BitsPerSecond capacity, TimePs latency) {
  assert(capacity.value() >= 0 && latency.value() >= 0);
  const auto bps = static_cast<double>(capacity.value());
  cons_.push_back(ConstraintRecord{kNil, 0, 0, 0, 0, 0, 0.0, 0.0, now_, 0.0, bps, TimePs(0)});
  nominal_.push_back(bps);
  latency_.push_back(latency);
  return system_.add_constraint(bps);
}

FlowId FlowEngine::add_flow(const FlowRequest& request) {
  assert(valid_path(request.path, request.fraction, system_.constraint_count()));
  assert(request.weight > 0 && request.size.value() >= 0 && request.rate_cap.value() >= 0);
  assert(request.start >= now_);
  const double cap = request.rate_cap.value() > 0 ? static_cast<double>(request.rate_cap.value()) : kNoRateCap;
  const FlowId f = system_.add_flow(request.path, request.weight, cap, request.fraction);
  elem_.resize(system_.path_pool.size(), Element{kNil, kNil, f, 0});
  const TimePs latency = latency_of(request.path, request.fraction);

  flows_.push_back(FlowRecord{static_cast<double>(request.size.value()) * 8.0, 0.0, request.start, 0, TimePs(-1),
                              latency, system_.path_begin[f.value()], system_.path_size[f.value()], kNil,
                              FlowState::kWaiting});
  freeze_seq_.push_back(0);
  start_.push_back(request.start);
  delay_.push_back(request.delay);
  waiting_on_.push_back(0);
  in_component_.push_back(0);

  for (const FlowId d : request.after) {
    assert(d < f);
    FlowRecord& dep = flows_[d.value()];
    if (dep.state == FlowState::kDone) {
      start_[f.value()] = std::max(start_[f.value()], completion_of(dep) + request.delay);
      continue;
    }
    ++waiting_on_[f.value()];
    dependents_flow_.push_back(f);
    dependents_next_.push_back(dep.dependents_head);
    dep.dependents_head = static_cast<std::uint32_t>(dependents_flow_.size() - 1);
  }
  if (waiting_on_[f.value()] == 0) queue_.push(start_[f.value()], FlowEventKind::kStart, f.value());
  return f;
}

void FlowEngine::reserve_flows(std::size_t flows, std::size_t hops) {
  system_.reserve_more(flows, hops);
  MaxMinSystem::reserve_more(elem_, system_.path_pool.capacity() - elem_.size());
  MaxMinSystem::reserve_more(flows_, flows);
  MaxMinSystem::reserve_more(freeze_seq_, flows);
  for (auto* v : {&start_, &delay_}) MaxMinSystem::reserve_more(*v, flows);
  MaxMinSystem::reserve_more(waiting_on_, flows);
  MaxMinSystem::reserve_more(in_component_, flows);
  queue_.reserve_ordered(flows);
}

void FlowEngine::schedule_capacity(ConstraintId c, TimePs at, double fraction) {
  assert(c.value() < system_.constraint_count() && at >= now_ && fraction >= 0);
  changes_.push_back({c, fraction});
  queue_.push(at, FlowEventKind::kCapacity, static_cast<std::uint32_t>(changes_.size() - 1));
}

void FlowEngine::schedule_timer(TimePs at, std::uint32_t tag) {
  assert(at >= now_);
  queue_.push(at, FlowEventKind::kTimer, tag);
}

void FlowEngine::run(TimePs until) {
  while (!queue_.empty() && queue_.top().time <= until) step();
}

bool FlowEngine::step() {
  if (queue_.empty()) return false;
  now_ = queue_.top().time;
  only_departures_ = true;
  only_starts_ = true;
  started_.clear();
  departed_.clear();
  while (!queue_.empty() && queue_.top().time == now_) apply(queue_.pop());
  resolve();
  settle_loads();
  return true;
}

void FlowEngine::apply(const FlowEvent& e) {
  const std::uint32_t subject = e.subject();
  switch (e.kind()) {
    case FlowEventKind::kStart:
      only_departures_ = false;
      start_flow(FlowId(subject));
      break;
    case FlowEventKind::kLastByte:
      assert(flows_[subject].state == FlowState::kActive);
      only_starts_ = false;
      departed_.push_back(FlowId(subject));
      finish_flow(FlowId(subject));
      break;
    case FlowEventKind::kCapacity:
      only_departures_ = false;
      only_starts_ = false;
      change_capacity(changes_[subject]);
      break;
    case FlowEventKind::kTimer:
      only_starts_ = false;
      if (on_timer_) on_timer_(subject);
      break;
  }
}

void FlowEngine::start_flow(FlowId f) {
  const std::uint32_t i = f.value();
  FlowRecord& r = flows_[i];
  r.state = FlowState::kActive;
  start_[i] = now_;
  r.last_update = now_;
  ++active_;
  unlinked_.push_back(f);
  if (r.remaining <= 0) {
    finish_flow(f);
    return;
  }
  started_.push_back(f);
  if (!reroute_) return;
  for (const ConstraintId c : path_of(r)) {
    if (system_.capacity[c.value()] == 0) {
      offer_reroute(f, c);
      return;
    }
  }
}

void FlowEngine::finish_flow(FlowId f) {
  const std::uint32_t i = f.value();
  FlowRecord& r = flows_[i];
  link_started();
  prefetch_path(f);
  add_load(f, -r.rate);
  unlink_path(f);
  --active_;
  r.state = FlowState::kDone;
  r.remaining = 0;
  r.rate = 0;
  r.last_update = now_;
  queue_.cancel_last_byte(i);
  r.last_byte = now_;
  const TimePs completion = completion_of(r);
  for (std::uint32_t e = r.dependents_head; e != kNil; e = dependents_next_[e]) {
    dependency_done(dependents_flow_[e], completion);
  }
  if (on_completion_) on_completion_(f);
}

void FlowEngine::dependency_done(FlowId waiting, TimePs completion) {
  const std::uint32_t w = waiting.value();
  start_[w] = std::max(start_[w], completion + delay_[w]);
  if (--waiting_on_[w] == 0) queue_.push(start_[w], FlowEventKind::kStart, w);
}

void FlowEngine::change_capacity(const CapacityChange& change) {
  link_started();
  const std::uint32_t c = change.constraint.value();
  ConstraintRecord& r = cons_[c];
  if (r.capacity_moved == 0) {
    if (load_capacity_.size() <= c) load_capacity_.resize(cons_.size());
    load_capacity_[c] = r.capacity;
    r.capacity_moved = 1;
  }
  system_.capacity[c] = nominal_[c] * change.fraction;
  r.capacity = system_.capacity[c];
  mark_dirty(change.constraint);
  if (system_.capacity[c] != 0 || !reroute_) return;
  std::vector<FlowId> crossing;
  for (std::uint32_t e = cons_[c].head; e != kNil; e = elem_[e].next) crossing.push_back(elem_[e].flow);
  std::sort(crossing.begin(), crossing.end());
  for (const FlowId f : crossing) offer_reroute(f, change.constraint);
}

void FlowEngine::offer_reroute(FlowId f, ConstraintId failed) {
  reroute_path_.clear();
  if (!reroute_(f, failed, reroute_path_) || reroute_path_.empty()) return;
  move_flow(f, reroute_path_);
}

void FlowEngine::move_flow(FlowId f, std::span<const ConstraintId> path, std::span<const double> fraction) {
  assert(valid_path(path, fraction, system_.constraint_count()));
  link_started();
  const FlowRecord& r = flows_[f.value()];
  assert(r.state != FlowState::kDone);
  if (r.state == FlowState::kWaiting) {
    set_path(f, path, fraction);
    return;
  }
  only_departures_ = false;
  only_starts_ = false;
  advance(f);
  add_load(f, -r.rate);
  unlink_path(f);
  set_path(f, path, fraction);
  link_path(f);
  add_load(f, r.rate);
}

TimePs FlowEngine::latency_of(std::span<const ConstraintId> path, std::span<const double> fraction) const {
  if (fraction.empty()) {
    TimePs latency{0};
    for (const ConstraintId c : path) latency += latency_[c.value()];
    return latency;
  }
  double ps = 0;
  for (std::size_t h = 0; h < path.size(); ++h) {
    ps += fraction[h] * static_cast<double>(latency_[path[h].value()].value());
  }
  return TimePs(std::llround(ps));
}

void FlowEngine::set_path(FlowId f, std::span<const ConstraintId> path, std::span<const double> fraction) {
  system_.set_path(f, path, fraction);
  elem_.resize(system_.path_pool.size(), Element{kNil, kNil, f, 0});
  FlowRecord& r = flows_[f.value()];
  r.path_begin = system_.path_begin[f.value()];
  r.path_size = system_.path_size[f.value()];
  r.path_latency = latency_of(path, fraction);
}

// Flows started in this instant enter their constraints' lists here, in the order they started,
// before anything reads or changes a list (a departure, a move, a capacity change, the re-solve):
// the lists are what they would be had each been linked as it started. When the instant only
// started flows and no other is active (a collective's millions of flows at t = 0), the re-solve's
// whole relink builds every list from nothing, and they are not linked first (resolve).
void FlowEngine::link_started() {
  for (const FlowId f : unlinked_) link_path(f);
  unlinked_.clear();
}

void FlowEngine::link_path(FlowId f) {
  const std::uint32_t begin = flows_[f.value()].path_begin;
  const std::uint32_t end = begin + flows_[f.value()].path_size;
  for (std::uint32_t e = begin; e < end; ++e) {
    const std::uint32_t c = system_.path_pool[e].value();
    std::uint32_t& head = cons_[c].head;
    elem_[e] = Element{head, kNil, f, static_cast<std::uint32_t>(flows_[f.value()].freeze_seq)};
    if (head != kNil) elem_[head].prev = e;
    head = e;
    mark_dirty(system_.path_pool[e]);
  }
}

void FlowEngine::unlink_path(FlowId f) {
  const std::uint32_t begin = flows_[f.value()].path_begin;
  const std::uint32_t end = begin + flows_[f.value()].path_size;
  for (std::uint32_t e = begin; e < end; ++e) {
    const std::uint32_t c = system_.path_pool[e].value();
    Element& el = elem_[e];
    if (el.prev != kNil) {
      elem_[el.prev].next = el.next;
    } else {
      cons_[c].head = el.next;
    }
    if (el.next != kNil) elem_[el.next].prev = el.prev;
    el.next = kNil;
    el.prev = kNil;
    mark_dirty(system_.path_pool[e]);
  }
}

// A departure's hops are scattered over a million constraints and their lists' neighbours over
// tens of millions of elements: asking for all of them before touching any lets their cache misses
// overlap instead of following one another.
void FlowEngine::prefetch_path(FlowId f) const {
  const std::uint32_t begin = flows_[f.value()].path_begin;
  const std::uint32_t end = begin + flows_[f.value()].path_size;
  for (std::uint32_t e = begin; e < end; ++e) __builtin_prefetch(&cons_[system_.path_pool[e].value()], 1);
  for (std::uint32_t e = begin; e < end; ++e) {
    const Element& el = elem_[e];
    if (el.prev != kNil) __builtin_prefetch(&elem_[el.prev], 1);
    if (el.next != kNil) __builtin_prefetch(&elem_[el.next], 1);
  }
}

void FlowEngine::mark_dirty(ConstraintId c) {
  if (cons_[c.value()].dirty_mark != 0) return;
  cons_[c.value()].dirty_mark = 1;
  dirty_.push_back(c);
}

void FlowEngine::advance(FlowId f) {
  FlowRecord& r = flows_[f.value()];
  const std::int64_t dt = (now_ - r.last_update).value();
  if (dt > 0) r.remaining = std::max(0.0, r.remaining - r.rate * static_cast<double>(dt) / kPsPerSecond);
  r.last_update = now_;
}

// ---- load statistics ----

void FlowEngine::touch_load(std::uint32_t c) {
  ConstraintRecord& l = cons_[c];
  if (l.load_mark != 0) return;
  l.load_mark = 1;
  load_touched_.push_back(c);
  const double capacity = l.capacity_moved != 0 ? load_capacity_[c] : l.capacity;
  if (l.load > 0.0 && l.load >= saturation_ * capacity) l.saturated += now_ - l.since;
  l.carried += l.load * static_cast<double>((now_ - l.since).value()) / kPsPerSecond;
  l.since = now_;
}

// Flow f's rate changes by `delta` on every hop of its path.
void FlowEngine::add_load(FlowId f, double delta) {
  if (delta == 0) return;
  const FlowRecord& r = flows_[f.value()];
  const auto path = path_of(r);
  const auto fraction = fractions_of(r);
  for (std::size_t h = 0; h < path.size(); ++h) {
    touch_load(path[h].value());
    cons_[path[h].value()].load += fraction.empty() ? delta : fraction[h] * delta;
  }
}

// After an instant's re-solve: a constraint with no flow left is exactly idle (no rounding
// residue), peaks are taken, the observer is told.
void FlowEngine::settle_loads() {
  for (const std::uint32_t c : load_touched_) {
    ConstraintRecord& l = cons_[c];
    if (l.head == kNil) l.load = 0.0;
    l.peak = std::max(l.peak, l.load);
    l.load_mark = 0;
    l.capacity_moved = 0;
    if (on_load_) on_load_(ConstraintId(c), now_, l.load);
  }
  load_touched_.clear();
}

double FlowEngine::carried_bits(ConstraintId c) const {
  const std::uint32_t i = c.value();
  const ConstraintRecord& l = cons_[i];
  return l.carried + l.load * static_cast<double>((now_ - l.since).value()) / kPsPerSecond;
}

// ---- re-solving ----

// Breadth-first search from the dirty constraints through the active flows crossing them: the
// connected component(s) whose rates the events may have changed. dirty_ grows as the frontier.
// When the instant only started flows and no other flow is active (a collective's millions of
// flows at t = 0, each step of a stepwise one), the search from their paths would find every
// active flow, the ones started: they are taken in FlowId order without it (and without linking
// them first: resolve).
void FlowEngine::collect_component() {
  if (only_starts_ && started_.size() == active_) {
    component_.swap(started_);  // started_ is not read again in this instant
    started_.clear();
    if (!std::is_sorted(component_.begin(), component_.end())) std::sort(component_.begin(), component_.end());
    return;
  }
  component_.clear();
  for (std::size_t k = 0; k < dirty_.size(); ++k) {
    for (std::uint32_t e = cons_[dirty_[k].value()].head; e != kNil; e = elem_[e].next) {
      const FlowId f = elem_[e].flow;
      if (in_component_[f.value()] != 0) continue;
      in_component_[f.value()] = 1;
      component_.push_back(f);
      for (const ConstraintId c : path_of(flows_[f.value()])) mark_dirty(c);
    }
  }
  sort_component();
}

// Puts component_ in increasing FlowId order and clears its marks: a sort when it is a small part
// of the flows, one pass over the marks when it is a large one (the first solve of a collective
// that starts every flow at once: millions of flows).
void FlowEngine::sort_component() {
  if (component_.size() * 32 < flows_.size()) {
    for (const FlowId f : component_) in_component_[f.value()] = 0;
    std::sort(component_.begin(), component_.end());
    return;
  }
  component_.clear();
  for (std::uint32_t i = 0; i < in_component_.size(); ++i) {
    if (in_component_[i] == 0) continue;
    in_component_[i] = 0;
    component_.push_back(FlowId(i));
  }
}

void FlowEngine::visit(ConstraintId c, std::uint64_t threshold) {
  ConstraintRecord& r = cons_[c.value()];
  if (r.visit_mark != 0) return;
  r.visit_mark = 1;
  r.threshold = threshold;
  visited_.push_back(c);
}

// The flows a departure-only instant can change (see the header): from each departed flow, in
// increasing freeze order, a search through the active flows frozen at or after it. A constraint
// reached first from an earlier departed flow keeps that flow's (lower) threshold; every flow it
// would add from a later one is already in.
void FlowEngine::collect_tail() {
  component_.clear();
  std::sort(departed_.begin(), departed_.end(), [&](FlowId a, FlowId b) {
    const std::uint64_t sa = flows_[a.value()].freeze_seq;
    const std::uint64_t sb = flows_[b.value()].freeze_seq;
    return sa != sb ? sa < sb : a < b;
  });
  const bool fits = seq_fits();
  for (const FlowId d : departed_) {
    const std::size_t first = visited_.size();
    const FlowRecord& departed = flows_[d.value()];
    for (const ConstraintId c : path_of(departed)) visit(c, departed.freeze_seq);
    for (std::size_t k = first; k < visited_.size(); ++k) {
      const std::uint32_t c = visited_[k].value();
      const std::uint64_t threshold = cons_[c].threshold;
      for (std::uint32_t e = cons_[c].head; e != kNil; e = elem_[e].next) {
        const FlowId f = elem_[e].flow;
        ++tail_scanned_;
        // The list is in decreasing freeze order.
        if ((fits ? elem_[e].seq : flows_[f.value()].freeze_seq) < threshold) break;
        if (in_component_[f.value()] != 0) continue;
        in_component_[f.value()] = 1;
        const FlowRecord& r = flows_[f.value()];
        component_.push_back(f);
        for (const ConstraintId next : path_of(r)) visit(next, threshold);
      }
    }
  }
  sort_component();
}

// After a solve every flow of component_ has a sequence above every other flow's (sequences
// increase across solves, from `first_seq` in this one): moved to the heads of its constraints'
// lists in increasing (sequence, FlowId), it keeps each list in decreasing (sequence, FlowId)
// order, so that collect_tail stops at the first flow frozen before the threshold instead of
// walking every flow of the constraint. The order is a counting sort of the solve's sequences
// (component_ is in FlowId order). When the component is whole (`whole`: every flow of every
// constraint in dirty_), its lists are rebuilt rather than unlinked and relinked.
void FlowEngine::relink_in_freeze_order(std::uint64_t first_seq, bool whole) {
  const std::uint64_t range = solver_.next_sequence() - first_seq;
  seq_count_.assign(range + 1, 0);
  for (const FlowId f : component_) ++seq_count_[freeze_seq_[f.value()] - first_seq + 1];
  for (std::uint64_t k = 1; k <= range; ++k) seq_count_[k] += seq_count_[k - 1];
  freeze_order_.resize(component_.size());
  for (const FlowId f : component_) freeze_order_[seq_count_[freeze_seq_[f.value()] - first_seq]++] = f.value();
  if (whole) {
    for (const ConstraintId c : dirty_) cons_[c.value()].head = kNil;
  }
  // Sequence first_seq + k's flows are freeze_order_[seq_count_[k - 1], seq_count_[k]) now (the
  // placement moved each offset to its bucket's end): the walk takes each flow's sequence from its
  // bucket instead of reading it from the flow (a random line per flow).
  std::uint32_t bucket = 0;
  for (std::uint32_t o = 0; o < freeze_order_.size(); ++o) {
    while (seq_count_[bucket] <= o) ++bucket;
    const std::uint32_t f = freeze_order_[o];
    const std::uint32_t begin = flows_[f].path_begin;
    const std::uint32_t end = begin + flows_[f].path_size;
    const auto seq = static_cast<std::uint32_t>(first_seq + bucket);
    for (std::uint32_t e = begin; e < end; ++e) {
      std::uint32_t& head = cons_[system_.path_pool[e].value()].head;
      Element& el = elem_[e];
      el.seq = seq;
      if (!whole) {
        if (head == e) continue;
        elem_[el.prev].next = el.next;  // not the head: it has a predecessor
        if (el.next != kNil) elem_[el.next].prev = el.prev;
      }
      el.prev = kNil;
      el.next = head;
      if (head != kNil) elem_[head].prev = e;
      head = e;
    }
  }
}

// The state of constraint c just before the event with its restart threshold, as the full solve
// computes it: W = sum of a w over c's flows in increasing FlowId; then, for the flows frozen
// before, in (sequence, FlowId) order, R -= a x rate and W -= a w.
void FlowEngine::restart_state(ConstraintId c, double& remaining, double& weight_sum) {
  const std::uint32_t ci = c.value();
  order_scratch_.clear();
  for (std::uint32_t e = cons_[ci].head; e != kNil; e = elem_[e].next) order_scratch_.emplace_back(elem_[e].flow.value(), e);
  std::sort(order_scratch_.begin(), order_scratch_.end());
  double w_sum = 0.0;
  for (const auto& [flow, e] : order_scratch_) w_sum += system_.fraction_at(e) * system_.weight[flow];
  const std::uint64_t threshold = cons_[ci].threshold;
  std::erase_if(order_scratch_, [&](const auto& entry) { return flows_[entry.first].freeze_seq >= threshold; });
  std::sort(order_scratch_.begin(), order_scratch_.end(), [&](const auto& a, const auto& b) {
    const std::uint64_t sa = flows_[a.first].freeze_seq;
    const std::uint64_t sb = flows_[b.first].freeze_seq;
    return sa != sb ? sa < sb : a.first < b.first;
  });
  double r = system_.capacity[ci];
  for (const auto& [flow, e] : order_scratch_) {
    const double a = system_.fraction_at(e);
    r -= a * flows_[flow].rate;
    w_sum -= a * system_.weight[flow];
  }
  remaining = r;
  weight_sum = w_sum;
}

void FlowEngine::collect_all_active() {
  component_.clear();
  for (std::uint32_t i = 0; i < flows_.size(); ++i) {
    if (flows_[i].state == FlowState::kActive) component_.push_back(FlowId(i));
  }
}

void FlowEngine::resolve() {
  if (dirty_.empty() && unlinked_.empty()) return;
  const bool tail = options_.incremental && only_departures_ && !departed_.empty();
  // Every active flow started now, and the whole relink after the solve builds their lists (the
  // ones linked in this instant are on dirty constraints, whose lists it empties first): linking
  // the others first would build them twice.
  const bool lists_from_relink = options_.incremental && !tail && only_starts_ && started_.size() == active_;
  if (lists_from_relink) {
    unlinked_.clear();
  } else {
    link_started();
  }
  if (tail) {
    collect_tail();
  } else if (options_.incremental) {
    collect_component();
  } else {
    collect_all_active();
  }
  if (!component_.empty()) {
    const std::uint64_t first_seq = solver_.next_sequence();
    new_rate_.resize(flows_.size());
    if (tail) {
      if (!restart_fn_) restart_fn_ = [this](ConstraintId c, double& r, double& w) { restart_state(c, r, w); };
      solver_.solve(system_, component_, new_rate_, freeze_seq_, &restart_fn_);
    } else {
      solver_.solve(system_, component_, new_rate_, freeze_seq_);
    }
    ++solve_count_;
    solved_flows_ += component_.size();
    if (options_.incremental) relink_in_freeze_order(first_seq, !tail);
  }
  for (const ConstraintId c : dirty_) cons_[c.value()].dirty_mark = 0;
  dirty_.clear();
  for (const ConstraintId c : visited_) cons_[c.value()].visit_mark = 0;
  visited_.clear();
  const auto horizon = static_cast<double>(std::numeric_limits<std::int64_t>::max() - now_.value());
  schedule_.clear();
  for (const FlowId f : component_) {
    const std::uint32_t i = f.value();
    FlowRecord& r = flows_[i];
    r.freeze_seq = freeze_seq_[i];  // the solve's, for collect_tail and restart_state
    if (new_rate_[i] == r.rate) continue;
    advance(f);
    add_load(f, new_rate_[i] - r.rate);
    r.rate = new_rate_[i];
    const double delta = r.rate > 0 ? r.remaining * kPsPerSecond / r.rate : horizon;
    if (delta >= horizon) {  // stalled, or beyond the clock's range (treated as stalled)
      queue_.cancel_last_byte(i);
      continue;
    }
    schedule_.emplace_back(i, now_ + TimePs(std::llround(delta)));
  }
  queue_.set_last_bytes(schedule_);
  if (schedule_.size() >= FlowEventQueue::kKeepScratch) std::vector<std::pair<std::uint32_t, TimePs>>().swap(schedule_);
}

}  // namespace ct
