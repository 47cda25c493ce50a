#include "sim/packet/dcqcn.h"

#include <algorithm>
#include <cmath>

namespace ct {

void DcqcnRate::advance(const DcqcnParams& p, TimePs now) {
  if (!notified_) return;
  const std::int64_t k = p.alpha_timer.value();
  if (k > 0 && now - alpha_since_ >= p.alpha_timer) {
    const std::int64_t periods = (now - alpha_since_).value() / k;
    alpha_ *= std::pow(1.0 - p.g, static_cast<double>(periods));
    alpha_since_ += TimePs(periods * k);
  }
  if (!cut_ || p.increase_timer.value() <= 0) return;
  while (now - timer_since_ >= p.increase_timer && (rc_ < line_ || rt_ < line_)) {
    timer_since_ += p.increase_timer;
    ++timer_events_;
    increase(p);
  }
  if (rc_ >= line_ && rt_ >= line_) cut_ = false;  // back at line rate: nothing left to recover
}

void DcqcnRate::on_cnp(const DcqcnParams& p, TimePs now) {
  notified_ = true;
  cut_ = true;
  rt_ = rc_;
  rc_ = std::max(rc_ * (1 - alpha_ / 2), static_cast<double>(p.min_rate.value()));
  alpha_ = (1 - p.g) * alpha_ + p.g;
  alpha_since_ = now;
  timer_since_ = now;
  timer_events_ = 0;
  byte_events_ = 0;
  bytes_ = 0;
}

void DcqcnRate::on_sent(const DcqcnParams& p, std::int64_t bytes) {
  if (!cut_ || p.byte_counter <= 0) return;
  bytes_ += bytes;
  while (bytes_ >= p.byte_counter) {
    bytes_ -= p.byte_counter;
    ++byte_events_;
    increase(p);
  }
}

void DcqcnRate::increase(const DcqcnParams& p) {
  const std::uint32_t f = p.fast_recovery_steps;
  if (std::min(timer_events_, byte_events_) > f) {
    rt_ += static_cast<double>(p.hyper.value());
  } else if (std::max(timer_events_, byte_events_) > f) {
    rt_ += static_cast<double>(p.additive.value());
  }
  rt_ = std::min(rt_, line_);
  rc_ = std::min((rt_ + rc_) / 2, line_);
}

}  // namespace ct
