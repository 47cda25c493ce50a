// Event-driven fluid (flow-level) simulation on top of the max-min solver.
//
// Model. Between two events every active flow sends at its weighted max-min fair rate
// (sim/flow/max_min_solver.h) over the constraints of its path; rates change only at events:
//   start       a flow becomes active (at its start time, or when the flows it waits for are done);
//   last byte   a flow has sent all its bytes and releases its share;
//   capacity    a constraint's capacity becomes a fraction of its nominal value (degradation,
//               0 = failure, 1 = repair).
// All events at one picosecond are applied first (in insertion order), then the rates are
// re-solved once. Only the connected component of the flow/constraint graph that contains the
// constraints the events touched is re-solved (Options::incremental); the solver gives bit-for-bit
// the rates of a full solve there (see max_min_solver.h), and Options{.incremental = false}
// re-solves everything as the reference the tests compare against.
//
// Time and rounding. Time is integer picoseconds (ct::TimePs; range in core/units.h). A flow's
// remaining amount is a double in bits. When a re-solve changes flow f's rate at time t, its
// remaining amount R is advanced with the old rate (R -= r_old x (t - t_last) x 1e-12) and its last
// byte is scheduled at
//   t + llround(R x 1e12 / r_new)  picoseconds
// (round half away from zero), a deterministic function of IEEE doubles: at most 0.5 ps early or
// late per rate change, under one bit at 1.6 Tb/s. The residual is dropped when the event fires.
// A flow whose rate is unchanged keeps its scheduled event. A flow at rate 0 (all its paths
// failed) stalls: no event, until a capacity change gives it a rate again.
//
// Latency. Each constraint has a latency (propagation plus switching of that hop). A flow's
// completion is its last byte sent plus its path latency (the sum over its hops): the fluid model
// lets the first byte enter every hop at the start, so bandwidth is held from start to last byte
// and the tail of the flow arrives one path latency later. Flows that wait on others start at
// max(own start, max over dependencies of completion + delay).
//
// Failure. A constraint at capacity 0 gives rate 0 to its flows (stalled). If a reroute callback
// is set, each active flow crossing a constraint that fails (or starting on a failed one) is
// offered to it, in increasing FlowId; a callback that returns true with a non-empty path moves
// the flow's remaining bytes onto that path.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "core/ids.h"
#include "core/units.h"
#include "sim/flow/flow_event_queue.h"
#include "sim/flow/max_min_solver.h"
#include "sim/flow/max_min_system.h"

namespace ct {

enum class FlowState : std::uint8_t { kWaiting, kActive, kDone };

struct FlowRequest {
  std::span<const ConstraintId> path;  // non-empty, no constraint twice
  Bytes size{0};
  TimePs start{0};                 // earliest start; >= the engine's now()
  std::span<const FlowId> after;   // flows that must complete first (already added)
  TimePs delay{0};                 // added to the last dependency's completion
  double weight = 1.0;             // > 0
  BitsPerSecond rate_cap{0};       // 0 = none (e.g. a NIC or host limit below the path's links)
};

class FlowEngine {
 public:
  struct Options {
    bool incremental = true;
  };
  // Offered a flow crossing a failed constraint; fills new_path and returns true to move the flow.
  using RerouteFn = std::function<bool(FlowId flow, ConstraintId failed, std::vector<ConstraintId>& new_path)>;
  // Called after each flow completes (it may add flows starting at or after now()).
  using CompletionFn = std::function<void(FlowId flow)>;

  FlowEngine() : FlowEngine(Options{}) {}
  explicit FlowEngine(Options options) : options_(options) {}

  // PRECONDITION: capacity >= 0, latency >= 0.
  ConstraintId add_constraint(BitsPerSecond capacity, TimePs latency = TimePs(0));
  // PRECONDITION: see FlowRequest.
  FlowId add_flow(const FlowRequest& request);
  // At time `at` (>= now()) constraint c's capacity becomes fraction x its nominal capacity.
  void schedule_capacity(ConstraintId c, TimePs at, double fraction);
  void set_reroute(RerouteFn fn) { reroute_ = std::move(fn); }
  void set_on_completion(CompletionFn fn) { on_completion_ = std::move(fn); }

  // Processes the events up to and including time `until`.
  void run(TimePs until = TimePs(std::numeric_limits<std::int64_t>::max()));

  // ---- results ----
  [[nodiscard]] TimePs now() const { return now_; }
  [[nodiscard]] std::size_t flow_count() const { return state_.size(); }
  [[nodiscard]] std::size_t constraint_count() const { return system_.constraint_count(); }
  [[nodiscard]] FlowState state(FlowId f) const { return state_[f.value()]; }
  [[nodiscard]] double rate(FlowId f) const { return rate_[f.value()]; }  // bits/s now
  [[nodiscard]] TimePs start_time(FlowId f) const { return start_[f.value()]; }  // valid once active
  [[nodiscard]] TimePs last_byte_time(FlowId f) const { return last_byte_[f.value()]; }  // valid once done
  [[nodiscard]] TimePs completion_time(FlowId f) const { return completion_[f.value()]; }  // valid once done
  [[nodiscard]] TimePs path_latency(FlowId f) const { return path_latency_[f.value()]; }
  [[nodiscard]] std::span<const ConstraintId> path(FlowId f) const { return system_.path(f); }
  [[nodiscard]] double capacity(ConstraintId c) const { return system_.capacity[c.value()]; }  // bits/s now
  [[nodiscard]] const MaxMinSystem& system() const { return system_; }

  // ---- cost counters (for tests of incrementality and benchmarks) ----
  [[nodiscard]] std::uint64_t solve_count() const { return solve_count_; }
  [[nodiscard]] std::uint64_t solved_flows() const { return solved_flows_; }  // sum of flows per solve

 private:
  static constexpr std::uint32_t kNil = 0xFFFF'FFFFU;
  struct CapacityChange {
    ConstraintId constraint;
    double fraction;
  };

  void apply(const FlowEvent& e);
  void start_flow(FlowId f);
  void finish_flow(FlowId f);
  void change_capacity(const CapacityChange& change);
  void offer_reroute(FlowId f, ConstraintId failed);
  void link_path(FlowId f);
  void unlink_path(FlowId f);
  void mark_path_dirty(FlowId f);
  void mark_dirty(ConstraintId c);
  void advance(FlowId f);
  void resolve();
  void collect_component();
  void collect_all_active();
  void dependency_done(FlowId waiting, TimePs completion);

  Options options_;
  MaxMinSystem system_;  // capacities now, paths, weights, caps
  MaxMinSolver solver_;
  FlowEventQueue queue_;
  TimePs now_{0};

  // ---- constraints ----
  std::vector<double> nominal_;
  std::vector<TimePs> latency_;
  std::vector<std::uint32_t> head_;  // first path-pool element of an active flow crossing c
  std::vector<std::uint8_t> dirty_mark_;
  std::vector<ConstraintId> dirty_;
  std::vector<CapacityChange> changes_;

  // ---- path-pool elements: per-constraint doubly linked lists of active flows, by index ----
  std::vector<std::uint32_t> elem_next_;
  std::vector<std::uint32_t> elem_prev_;
  std::vector<FlowId> elem_flow_;

  // ---- flows ----
  std::vector<FlowState> state_;
  std::vector<double> remaining_;  // bits
  std::vector<double> rate_;       // bits/s
  std::vector<double> new_rate_;   // solver output
  std::vector<TimePs> last_update_;
  std::vector<TimePs> start_;      // earliest start, then actual start
  std::vector<TimePs> delay_;
  std::vector<TimePs> last_byte_;
  std::vector<TimePs> completion_;
  std::vector<TimePs> path_latency_;
  std::vector<std::uint32_t> generation_;
  std::vector<std::uint32_t> waiting_on_;  // dependencies not yet complete
  std::vector<std::uint32_t> dependents_head_;
  std::vector<std::uint32_t> dependents_next_;  // per dependency edge
  std::vector<FlowId> dependents_flow_;         // per dependency edge
  std::vector<std::uint8_t> in_component_;
  std::vector<FlowId> component_;
  std::vector<ConstraintId> reroute_path_;

  RerouteFn reroute_;
  CompletionFn on_completion_;
  std::uint64_t solve_count_ = 0;
  std::uint64_t solved_flows_ = 0;
};

}  // namespace ct
