// One job's timeline over a horizon, given when the elements that reach it fail and are repaired:
// deterministic, so a hand-written event list gives a hand-computed outcome.
//
// States: running (at rate r = model.rate_at(x), x the straggler factor of reliability_model.h),
// restarting, blocked. Rules:
//   - running, a failure isolates a slot (a NIC; the last live plane of a GPU; a leaf or NIC-leaf
//     link with one plane) or partitions the fabric: the job stops. The work since the last
//     checkpoint is lost. If the hosts with isolated slots fit in the free spares, they are swapped
//     out (their down elements no longer reach the job; the spare comes back when those elements
//     are repaired) and the job restarts: restarting for restart_hours, then running. Otherwise
//     (or on a partition) it is blocked until the isolation ends, then restarts.
//   - a failure that only degrades (one plane of a GPU with planes left, an upper-tier element)
//     changes r; the job runs on at the straggler's pace until the repair, or, with the policy
//     kDrainAtCheckpoint, until the next checkpoint: there, if spares are free for every host with
//     a GPU short of planes, those hosts are swapped out and the job restarts (a drain: no work
//     lost, restart time paid, not an interruption).
//   - checkpoints every checkpoint_hours of running time since the last (re)start; a checkpoint
//     saves the work done so far. Checkpoint writing costs nothing here (the same in every design).
//   - at the start (a stationary start: elements already down), elements that would isolate the
//     job count as swapped out already, as if the job had been placed on healthy hosts.
// Goodput lost = horizon - work done = restarting + blocked time + rework (lost work) + the loss
// while degraded, integral of (1 - r) dt.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/reliability_model.h"

namespace ct {

struct ElementEvent {
  double time = 0;          // hours from the start of the horizon
  std::uint32_t element = 0;
  bool failure = true;      // false: repair
};

struct JobOutcome {
  int interruptions = 0;
  int drains = 0;
  double restart_hours = 0;     // restarting
  double blocked_hours = 0;     // waiting for a repair
  double rework_hours = 0;      // work lost since the last checkpoint
  double degraded_hours = 0;    // running at r < 1
  double degraded_loss_hours = 0;
  double work_hours = 0;        // useful work done
  [[nodiscard]] double lost_hours() const { return restart_hours + blocked_hours + rework_hours + degraded_loss_hours; }
};

class JobTimeline {
 public:
  explicit JobTimeline(const ReliabilityModel& model);

  // PRECONDITION: events sorted by time, each element alternating failure/repair, starting with a
  // repair for the elements in `down_at_start` and with a failure for the others; every element
  // reaches the job (impact != kNone).
  JobOutcome run(std::span<const std::uint32_t> down_at_start, std::span<const ElementEvent> events);

 private:
  enum class Mode { kRunning, kRestarting, kBlocked };
  // A down element whose impact on a swapped-out host no longer counts; `swap` names the swap.
  struct Ignored {
    std::uint32_t element;
    std::uint32_t host;
    std::uint32_t swap;
  };

  void reset();
  void advance(double to);
  void run_until(double to);
  void fail(std::uint32_t e);
  void repair(std::uint32_t e);
  void apply(std::uint32_t e, int sign);
  void after_event(bool at_start);
  void start_restart();
  bool swap_out_isolated_hosts();
  bool swap_out(const std::vector<std::uint32_t>& hosts);
  // Sorted hosts with a slot isolated (or, degraded = true, short of some planes but not isolated).
  [[nodiscard]] std::vector<std::uint32_t> hosts_with(bool degraded) const;
  [[nodiscard]] bool stopped() const { return isolated_ > 0 || partitions_ > 0; }
  [[nodiscard]] bool ignored(std::uint32_t e, std::uint32_t host) const;
  [[nodiscard]] double straggler_factor() const;

  const ReliabilityModel& m_;
  std::uint32_t rails_;
  // Per slot (all zero between runs).
  std::vector<std::uint8_t> planes_down_;
  std::vector<std::uint8_t> nic_down_;
  std::vector<std::uint32_t> dirty_;    // slots changed in this run
  // Small per-run state.
  std::vector<std::uint32_t> active_;   // down elements that reach the job
  std::vector<Ignored> ignored_;
  std::vector<std::uint32_t> swaps_;    // per swap: its elements not yet repaired (0: spare back)
  long long isolated_ = 0;
  long long partitions_ = 0;
  long long spares_used_ = 0;
  Mode mode_ = Mode::kRunning;
  double now_ = 0;
  double ready_at_ = 0;         // end of the restart
  double next_checkpoint_ = 0;
  double unsaved_ = 0;
  double rate_ = 1;
  JobOutcome out_;
};

}  // namespace ct
