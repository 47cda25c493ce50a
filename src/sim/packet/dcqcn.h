// DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015, sec. 3):
// the rate control of a RoCE v2 sender. The switch marks (red_marking.h, the congestion point);
// the receiver (notification point) answers a marked packet with a CNP, at most one per flow per
// `cnp_interval`; the sender (reaction point) keeps a current rate Rc, a target rate Rt and alpha:
//
//   on a CNP:      Rt = Rc;  Rc = Rc (1 - alpha / 2);  alpha = (1 - g) alpha + g;
//                  the alpha timer, the increase timer and the byte counter restart
//   every K without a CNP (alpha timer):  alpha = (1 - g) alpha
//   increase events: every T of the increase timer (i counts them) and every B bytes sent
//                  (j counts them), both since the last CNP:
//                    max(i, j) <= F fast recovery (the first F events):   Rc = (Rt + Rc) / 2
//                    min(i, j) > F  hyper increase:  Rt = Rt + R_HAI;  Rc = (Rt + Rc) / 2
//                    otherwise      additive:        Rt = Rt + R_AI;   Rc = (Rt + Rc) / 2
//                  Rt and Rc never exceed the line rate, Rc never falls below min_rate.
//
// The timers are evaluated lazily (exactly: nothing but the rate they produce is observable, and
// the rate is read only when the sender starts a packet; alpha runs from the flow's first CNP): advance(now) applies the alpha periods
// and the increase timer's ticks due by `now` in time order; on_sent() counts the bytes.
// Defaults: docs/models/packet-engine.md ("DCQCN") cites each one.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace ct {

struct DcqcnParams {
  double g = 1.0 / 256;                            // alpha's gain (paper, sec. 5: g = 1/256)
  TimePs alpha_timer{55'000'000};                  // K = 55 us (paper)
  TimePs increase_timer{55'000'000};               // T = 55 us (paper, sec. 5)
  std::int64_t byte_counter = 10'000'000;          // B = 10 MB (paper, sec. 5)
  std::uint32_t fast_recovery_steps = 5;           // F = 5 (paper, from QCN, IEEE 802.1Qau)
  BitsPerSecond additive{40'000'000};              // R_AI = 40 Mb/s (paper)
  BitsPerSecond hyper{400'000'000};                // R_HAI = 10 R_AI (QCN's ratio; see the doc)
  BitsPerSecond min_rate{1'000'000};               // 1 Mb/s (ConnectX rpg_min_rate default)
  TimePs cnp_interval{50'000'000};                 // N = 50 us (paper)
};

class DcqcnRate {
 public:
  DcqcnRate() = default;
  explicit DcqcnRate(BitsPerSecond line) : line_(static_cast<double>(line.value())), rc_(line_), rt_(line_) {}

  // Applies the timers due by `now`.
  void advance(const DcqcnParams& p, TimePs now);
  // A CNP arrives at `now` (advance(now) first).
  void on_cnp(const DcqcnParams& p, TimePs now);
  // A packet of `bytes` starts at the current rate.
  void on_sent(const DcqcnParams& p, std::int64_t bytes);

  [[nodiscard]] double rate() const { return rc_; }
  [[nodiscard]] double target() const { return rt_; }
  [[nodiscard]] double alpha() const { return alpha_; }
  [[nodiscard]] bool limited() const { return rc_ < line_; }

 private:
  void increase(const DcqcnParams& p);

  double line_ = 0;
  double rc_ = 0;
  double rt_ = 0;
  double alpha_ = 1.0;  // the paper's initial alpha (ConnectX: initial_alpha_value 1023/1024)
  bool notified_ = false;  // a CNP has arrived: the alpha timer runs from the first one
  bool cut_ = false;       // below the line rate: the increase timer runs
  TimePs alpha_since_{0};
  TimePs timer_since_{0};
  std::uint32_t timer_events_ = 0;  // i
  std::uint32_t byte_events_ = 0;   // j
  std::int64_t bytes_ = 0;          // since the last byte-counter event
};

}  // namespace ct
