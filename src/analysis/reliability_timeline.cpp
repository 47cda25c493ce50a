#include "analysis/reliability_timeline.h"

#include <algorithm>
#include <cassert>

namespace ct {

JobTimeline::JobTimeline(const ReliabilityModel& model)
    : m_(model),
      rails_(static_cast<std::uint32_t>(std::max(1, model.rails))),
      planes_down_(model.slot_count(), 0),
      nic_down_(model.slot_count(), 0) {}

bool JobTimeline::ignored(std::uint32_t e, std::uint32_t host) const {
  return std::any_of(ignored_.begin(), ignored_.end(),
                     [&](const Ignored& i) { return i.element == e && i.host == host; });
}

void JobTimeline::apply(std::uint32_t e, int sign) {
  const Impact impact = m_.impact[e];
  if (impact == Impact::kPartition) partitions_ += sign;
  if (impact != Impact::kGpu && impact != Impact::kPlane) return;
  for (std::uint32_t i = m_.slot_begin[e]; i < m_.slot_begin[e + 1]; ++i) {
    const std::uint32_t s = m_.slots[i];
    if (ignored(e, s / rails_)) continue;
    const bool was = nic_down_[s] > 0 || planes_down_[s] >= m_.planes;
    auto& counter = impact == Impact::kGpu ? nic_down_[s] : planes_down_[s];
    counter = static_cast<std::uint8_t>(counter + sign);
    const bool is = nic_down_[s] > 0 || planes_down_[s] >= m_.planes;
    isolated_ += static_cast<long long>(is) - static_cast<long long>(was);
    if (sign > 0) dirty_.push_back(s);
  }
}

double JobTimeline::straggler_factor() const {
  double x = 1.0;
  for (std::uint32_t e : active_) {
    if (m_.impact[e] == Impact::kSlowdown) x = std::max(x, m_.classes[m_.element_class[e]].slowdown);
    if (m_.impact[e] != Impact::kPlane) continue;
    for (std::uint32_t i = m_.slot_begin[e]; i < m_.slot_begin[e + 1]; ++i) {
      const std::uint32_t s = m_.slots[i];
      const int k = planes_down_[s];
      if (nic_down_[s] == 0 && k > 0 && k < m_.planes) {
        x = std::max(x, static_cast<double>(m_.planes) / (m_.planes - k));
      }
    }
  }
  return x;
}

std::vector<std::uint32_t> JobTimeline::hosts_with(bool degraded) const {
  std::vector<std::uint32_t> hosts;
  for (std::uint32_t e : active_) {
    for (std::uint32_t i = m_.slot_begin[e]; i < m_.slot_begin[e + 1]; ++i) {
      const std::uint32_t s = m_.slots[i];
      const bool isolated = nic_down_[s] > 0 || planes_down_[s] >= m_.planes;
      if (degraded ? !isolated && planes_down_[s] > 0 : isolated) hosts.push_back(s / rails_);
    }
  }
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  return hosts;
}

bool JobTimeline::swap_out_isolated_hosts() { return partitions_ == 0 && swap_out(hosts_with(false)); }

// The hosts move to spares if enough are free: every down element's impact on them is ignored
// until that element is repaired, which returns the spare.
bool JobTimeline::swap_out(const std::vector<std::uint32_t>& hosts) {
  if (spares_used_ + static_cast<long long>(hosts.size()) > m_.spare_hosts) return false;
  for (std::uint32_t h : hosts) {
    const auto swap = static_cast<std::uint32_t>(swaps_.size());
    swaps_.push_back(0);
    for (std::uint32_t e : active_) {
      bool touches = false;
      for (std::uint32_t i = m_.slot_begin[e]; i < m_.slot_begin[e + 1] && !touches; ++i) touches = m_.slots[i] / rails_ == h;
      if (!touches || ignored(e, h)) continue;
      ignored_.push_back({e, h, swap});
      ++swaps_[swap];
    }
    for (std::uint32_t s = h * rails_; s < (h + 1) * rails_; ++s) {
      if (nic_down_[s] > 0 || planes_down_[s] >= m_.planes) --isolated_;
      nic_down_[s] = 0;
      planes_down_[s] = 0;
    }
  }
  spares_used_ += static_cast<long long>(hosts.size());
  return true;
}

void JobTimeline::fail(std::uint32_t e) {
  assert(m_.impact[e] != Impact::kNone);
  active_.push_back(e);
  apply(e, +1);
}

void JobTimeline::repair(std::uint32_t e) {
  const auto it = std::find(active_.begin(), active_.end(), e);
  if (it == active_.end()) return;
  apply(e, -1);
  active_.erase(it);
  for (const Ignored& i : ignored_) {
    if (i.element == e && --swaps_[i.swap] == 0) --spares_used_;
  }
  std::erase_if(ignored_, [&](const Ignored& i) { return i.element == e; });
}

void JobTimeline::start_restart() {
  mode_ = Mode::kRestarting;
  ready_at_ = now_ + m_.job.restart_hours;
}

void JobTimeline::after_event(bool at_start) {
  switch (mode_) {
    case Mode::kRunning:
      if (!stopped()) {
        rate_ = m_.rate_at(straggler_factor());
        return;
      }
      if (at_start) {
        if (!swap_out_isolated_hosts()) mode_ = Mode::kBlocked;
        rate_ = m_.rate_at(straggler_factor());
        return;
      }
      ++out_.interruptions;
      out_.rework_hours += unsaved_;
      unsaved_ = 0;
      if (swap_out_isolated_hosts()) start_restart();
      else mode_ = Mode::kBlocked;
      return;
    case Mode::kRestarting:
      if (stopped() && !swap_out_isolated_hosts()) mode_ = Mode::kBlocked;
      return;
    case Mode::kBlocked:
      if (!stopped() || swap_out_isolated_hosts()) start_restart();
      return;
  }
}

void JobTimeline::run_until(double to) {
  const auto accrue = [&](double dt) {
    unsaved_ += rate_ * dt;
    if (rate_ < 1.0) {
      out_.degraded_hours += dt;
      out_.degraded_loss_hours += (1.0 - rate_) * dt;
    }
  };
  while (next_checkpoint_ <= to) {
    accrue(next_checkpoint_ - now_);
    out_.work_hours += unsaved_;
    unsaved_ = 0;
    now_ = next_checkpoint_;
    next_checkpoint_ += m_.job.checkpoint_hours;
    if (m_.job.degraded == DegradedPolicy::kDrainAtCheckpoint) {
      const std::vector<std::uint32_t> degraded = hosts_with(true);
      if (!degraded.empty() && swap_out(degraded)) {
        ++out_.drains;
        start_restart();
        return;
      }
    }
  }
  accrue(to - now_);
  now_ = to;
}

void JobTimeline::advance(double to) {
  while (now_ < to) {
    if (mode_ == Mode::kBlocked) {
      out_.blocked_hours += to - now_;
      now_ = to;
    } else if (mode_ == Mode::kRestarting) {
      const double end = std::min(to, ready_at_);
      out_.restart_hours += end - now_;
      now_ = end;
      if (now_ >= ready_at_) {
        mode_ = Mode::kRunning;
        next_checkpoint_ = now_ + m_.job.checkpoint_hours;
        rate_ = m_.rate_at(straggler_factor());
      }
    } else {
      run_until(to);
    }
  }
  // A restart that ends exactly now.
  if (mode_ == Mode::kRestarting && now_ >= ready_at_) {
    mode_ = Mode::kRunning;
    next_checkpoint_ = now_ + m_.job.checkpoint_hours;
    rate_ = m_.rate_at(straggler_factor());
  }
}

void JobTimeline::reset() {
  for (std::uint32_t s : dirty_) {
    planes_down_[s] = 0;
    nic_down_[s] = 0;
  }
  dirty_.clear();
  active_.clear();
  ignored_.clear();
  swaps_.clear();
  isolated_ = partitions_ = spares_used_ = 0;
  mode_ = Mode::kRunning;
  now_ = 0;
  ready_at_ = 0;
  next_checkpoint_ = m_.job.checkpoint_hours;
  unsaved_ = 0;
  rate_ = 1;
  out_ = {};
}

JobOutcome JobTimeline::run(std::span<const std::uint32_t> down_at_start, std::span<const ElementEvent> events) {
  reset();
  for (std::uint32_t e : down_at_start) fail(e);
  after_event(true);
  const double horizon = m_.job.horizon_hours;
  for (const ElementEvent& ev : events) {
    if (ev.time >= horizon) break;
    advance(ev.time);
    if (ev.failure) fail(ev.element);
    else repair(ev.element);
    after_event(false);
  }
  advance(horizon);
  out_.work_hours += unsaved_;
  JobOutcome out = out_;
  reset();
  return out;
}

}  // namespace ct
