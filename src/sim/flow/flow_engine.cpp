#include "sim/flow/flow_engine.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ct {
namespace {
constexpr double kPsPerSecond = 1e12;

[[maybe_unused]] bool valid_path(std::span<const ConstraintId> path, std::size_t constraints) {
  if (path.empty()) return false;
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
  nominal_.push_back(bps);
  latency_.push_back(latency);
  head_.push_back(kNil);
  dirty_mark_.push_back(0);
  return system_.add_constraint(bps);
}

FlowId FlowEngine::add_flow(const FlowRequest& request) {
  assert(valid_path(request.path, system_.constraint_count()));
  assert(request.weight > 0 && request.size.value() >= 0 && request.rate_cap.value() >= 0);
  assert(request.start >= now_);
  const double cap = request.rate_cap.value() > 0 ? static_cast<double>(request.rate_cap.value()) : kNoRateCap;
  const FlowId f = system_.add_flow(request.path, request.weight, cap);
  elem_next_.resize(system_.path_pool.size(), kNil);
  elem_prev_.resize(system_.path_pool.size(), kNil);
  elem_flow_.resize(system_.path_pool.size(), f);
  TimePs latency{0};
  for (const ConstraintId c : request.path) latency += latency_[c.value()];

  state_.push_back(FlowState::kWaiting);
  remaining_.push_back(static_cast<double>(request.size.value()) * 8.0);
  rate_.push_back(0.0);
  last_update_.push_back(request.start);
  start_.push_back(request.start);
  delay_.push_back(request.delay);
  last_byte_.push_back(TimePs(-1));
  completion_.push_back(TimePs(-1));
  path_latency_.push_back(latency);
  generation_.push_back(0);
  waiting_on_.push_back(0);
  dependents_head_.push_back(kNil);
  in_component_.push_back(0);

  for (const FlowId d : request.after) {
    assert(d < f);
    if (state_[d.value()] == FlowState::kDone) {
      start_[f.value()] = std::max(start_[f.value()], completion_[d.value()] + request.delay);
      continue;
    }
    ++waiting_on_[f.value()];
    dependents_flow_.push_back(f);
    dependents_next_.push_back(dependents_head_[d.value()]);
    dependents_head_[d.value()] = static_cast<std::uint32_t>(dependents_flow_.size() - 1);
  }
  if (waiting_on_[f.value()] == 0) queue_.push(start_[f.value()], FlowEventKind::kStart, f.value());
  return f;
}

void FlowEngine::schedule_capacity(ConstraintId c, TimePs at, double fraction) {
  assert(c.value() < system_.constraint_count() && at >= now_ && fraction >= 0);
  changes_.push_back({c, fraction});
  queue_.push(at, FlowEventKind::kCapacity, static_cast<std::uint32_t>(changes_.size() - 1));
}

void FlowEngine::run(TimePs until) {
  while (!queue_.empty() && queue_.top().time <= until) {
    now_ = queue_.top().time;
    while (!queue_.empty() && queue_.top().time == now_) apply(queue_.pop());
    resolve();
  }
}

void FlowEngine::apply(const FlowEvent& e) {
  switch (e.kind) {
    case FlowEventKind::kStart:
      start_flow(FlowId(e.subject));
      break;
    case FlowEventKind::kLastByte:
      if (e.generation == generation_[e.subject] && state_[e.subject] == FlowState::kActive) {
        finish_flow(FlowId(e.subject));
      }
      break;
    case FlowEventKind::kCapacity:
      change_capacity(changes_[e.subject]);
      break;
  }
}

void FlowEngine::start_flow(FlowId f) {
  const std::uint32_t i = f.value();
  state_[i] = FlowState::kActive;
  start_[i] = now_;
  last_update_[i] = now_;
  link_path(f);
  if (remaining_[i] <= 0) {
    finish_flow(f);
    return;
  }
  if (!reroute_) return;
  for (const ConstraintId c : system_.path(f)) {
    if (system_.capacity[c.value()] == 0) {
      offer_reroute(f, c);
      return;
    }
  }
}

void FlowEngine::finish_flow(FlowId f) {
  const std::uint32_t i = f.value();
  unlink_path(f);
  state_[i] = FlowState::kDone;
  remaining_[i] = 0;
  rate_[i] = 0;
  last_update_[i] = now_;
  ++generation_[i];
  last_byte_[i] = now_;
  completion_[i] = now_ + path_latency_[i];
  for (std::uint32_t e = dependents_head_[i]; e != kNil; e = dependents_next_[e]) {
    dependency_done(dependents_flow_[e], completion_[i]);
  }
  if (on_completion_) on_completion_(f);
}

void FlowEngine::dependency_done(FlowId waiting, TimePs completion) {
  const std::uint32_t w = waiting.value();
  start_[w] = std::max(start_[w], completion + delay_[w]);
  if (--waiting_on_[w] == 0) queue_.push(start_[w], FlowEventKind::kStart, w);
}

void FlowEngine::change_capacity(const CapacityChange& change) {
  const std::uint32_t c = change.constraint.value();
  system_.capacity[c] = nominal_[c] * change.fraction;
  mark_dirty(change.constraint);
  if (system_.capacity[c] != 0 || !reroute_) return;
  std::vector<FlowId> crossing;
  for (std::uint32_t e = head_[c]; e != kNil; e = elem_next_[e]) crossing.push_back(elem_flow_[e]);
  std::sort(crossing.begin(), crossing.end());
  for (const FlowId f : crossing) offer_reroute(f, change.constraint);
}

void FlowEngine::offer_reroute(FlowId f, ConstraintId failed) {
  reroute_path_.clear();
  if (!reroute_(f, failed, reroute_path_) || reroute_path_.empty()) return;
  assert(valid_path(reroute_path_, system_.constraint_count()));
  advance(f);
  unlink_path(f);
  system_.set_path(f, reroute_path_);
  elem_next_.resize(system_.path_pool.size(), kNil);
  elem_prev_.resize(system_.path_pool.size(), kNil);
  elem_flow_.resize(system_.path_pool.size(), f);
  TimePs latency{0};
  for (const ConstraintId c : reroute_path_) latency += latency_[c.value()];
  path_latency_[f.value()] = latency;
  link_path(f);
}

void FlowEngine::link_path(FlowId f) {
  const std::uint32_t begin = system_.path_begin[f.value()];
  const std::uint32_t end = begin + system_.path_size[f.value()];
  for (std::uint32_t e = begin; e < end; ++e) {
    const std::uint32_t c = system_.path_pool[e].value();
    elem_flow_[e] = f;
    elem_prev_[e] = kNil;
    elem_next_[e] = head_[c];
    if (head_[c] != kNil) elem_prev_[head_[c]] = e;
    head_[c] = e;
    mark_dirty(system_.path_pool[e]);
  }
}

void FlowEngine::unlink_path(FlowId f) {
  const std::uint32_t begin = system_.path_begin[f.value()];
  const std::uint32_t end = begin + system_.path_size[f.value()];
  for (std::uint32_t e = begin; e < end; ++e) {
    const std::uint32_t c = system_.path_pool[e].value();
    if (elem_prev_[e] != kNil) {
      elem_next_[elem_prev_[e]] = elem_next_[e];
    } else {
      head_[c] = elem_next_[e];
    }
    if (elem_next_[e] != kNil) elem_prev_[elem_next_[e]] = elem_prev_[e];
    elem_next_[e] = kNil;
    elem_prev_[e] = kNil;
    mark_dirty(system_.path_pool[e]);
  }
}

void FlowEngine::mark_dirty(ConstraintId c) {
  if (dirty_mark_[c.value()] != 0) return;
  dirty_mark_[c.value()] = 1;
  dirty_.push_back(c);
}

void FlowEngine::advance(FlowId f) {
  const std::uint32_t i = f.value();
  const std::int64_t dt = (now_ - last_update_[i]).value();
  if (dt > 0) remaining_[i] = std::max(0.0, remaining_[i] - rate_[i] * static_cast<double>(dt) / kPsPerSecond);
  last_update_[i] = now_;
}

// Breadth-first search from the dirty constraints through the active flows crossing them: the
// connected component(s) whose rates the events may have changed. dirty_ grows as the frontier.
void FlowEngine::collect_component() {
  component_.clear();
  for (std::size_t k = 0; k < dirty_.size(); ++k) {
    for (std::uint32_t e = head_[dirty_[k].value()]; e != kNil; e = elem_next_[e]) {
      const FlowId f = elem_flow_[e];
      if (in_component_[f.value()] != 0) continue;
      in_component_[f.value()] = 1;
      component_.push_back(f);
      for (const ConstraintId c : system_.path(f)) mark_dirty(c);
    }
  }
  for (const FlowId f : component_) in_component_[f.value()] = 0;
  std::sort(component_.begin(), component_.end());
}

void FlowEngine::collect_all_active() {
  component_.clear();
  for (std::uint32_t i = 0; i < state_.size(); ++i) {
    if (state_[i] == FlowState::kActive) component_.push_back(FlowId(i));
  }
}

void FlowEngine::resolve() {
  if (dirty_.empty()) return;
  if (options_.incremental) {
    collect_component();
  } else {
    collect_all_active();
  }
  for (const ConstraintId c : dirty_) dirty_mark_[c.value()] = 0;
  dirty_.clear();
  if (component_.empty()) return;
  new_rate_.resize(state_.size());
  solver_.solve(system_, component_, new_rate_);
  ++solve_count_;
  solved_flows_ += component_.size();
  const auto horizon = static_cast<double>(std::numeric_limits<std::int64_t>::max() - now_.value());
  for (const FlowId f : component_) {
    const std::uint32_t i = f.value();
    if (new_rate_[i] == rate_[i]) continue;
    advance(f);
    rate_[i] = new_rate_[i];
    ++generation_[i];
    if (rate_[i] <= 0) continue;
    const double delta = remaining_[i] * kPsPerSecond / rate_[i];
    if (delta >= horizon) continue;  // beyond the clock's range: treated as stalled
    queue_.push(now_ + TimePs(std::llround(delta)), FlowEventKind::kLastByte, i, generation_[i]);
  }
}

}  // namespace ct
