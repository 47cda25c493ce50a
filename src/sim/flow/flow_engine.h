// Event-driven fluid (flow-level) simulation on top of the max-min solver.
//
// Model. Between two events every active flow sends at its weighted max-min fair rate
// (sim/maxmin/max_min_solver.h) over the constraints of its path; rates change only at events:
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
// Each active flow has at most one last-byte event pending: rescheduling moves it (an indexed heap,
// flow_event_queue.h), so re-solves leave no stale events to pop. A flow whose rate is unchanged
// keeps its scheduled event. A flow at rate 0 (all its paths
// failed) stalls: no event, until a capacity change gives it a rate again.
//
// Latency. Each constraint has a latency (propagation plus switching of that hop). A flow's
// completion is its last byte sent plus its path latency: the fluid model lets the first byte
// enter every hop at the start, so bandwidth is held from start to last byte and the tail of the
// flow arrives one path latency later. The path latency is the sum over the hops of fraction x
// latency. With all fractions 1 (one path) that is the path's latency; for a flow spread over
// several paths (spraying: path p carries a share w_p of the bytes, so hop h carries the fraction
// a_h = sum of w_p over the paths through h) it is sum_h a_h x latency_h = sum_p w_p x latency_p,
// the byte-weighted mean of the paths' latencies, exactly one path's latency when the paths are
// equally long (a fat tree), never the sum over the sprayed members. Flows that wait on others
// start at max(own start, max over dependencies of completion + delay).
//
// Failure. A constraint at capacity 0 gives rate 0 to its flows (stalled). If a reroute callback
// is set, each active flow crossing a constraint that fails (or starting on a failed one) is
// offered to it, in increasing FlowId; a callback that returns true with a non-empty path moves
// the flow's remaining bytes onto that path. A timer (schedule_timer) calls back at a given time, inside
// that instant's batch; the callback may move flows (move_flow), e.g. when routing has converged.
//
// Departures re-solve only what they can change. When the events of an instant are only last
// bytes, a flow frozen (max_min_solver.h) before the first departed flow of its part of the
// component keeps its rate bit for bit; the engine re-solves only the flows frozen at or after it
// that are connected to the departed flows through such flows, restarting progressive filling
// from the constraint states just before that event (StartFn). With equal sizes the fastest flows
// leave first and were frozen last, so a departure re-solves a few flows, not the component.
// Starts, capacity changes and moved flows re-solve the whole component, as before. Both give
// bit for bit the full re-solve's rates; the tests check it against Options{.incremental = false}.
// Each constraint keeps its active flows in decreasing freeze order (a solve's flows move to the
// heads of their lists), so finding the flows frozen at or after a departure looks at those flows
// only, not at every flow of the constraint: the cost of a departure is the flows it re-solves.
//
// Statistics per constraint: the load (sum over its flows of fraction x rate), its peak (after
// each instant's re-solve), the bits carried (the load integrated over time) and the time it was
// saturated (set_saturation: from each load change to the next, when the load was > 0 and at
// least that fraction of the capacity at the change); an optional observer sees every constraint
// whose load changed, once per instant, after the re-solve. Each is kept in the constraint's one
// record, so that a departure touches one line per hop for all of them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "core/ids.h"
#include "core/units.h"
#include "sim/flow/flow_event_queue.h"
#include "sim/maxmin/max_min_solver.h"
#include "sim/maxmin/max_min_system.h"

namespace ct {

enum class FlowState : std::uint8_t { kWaiting, kActive, kDone };

struct FlowRequest {
  std::span<const ConstraintId> path;  // non-empty, no constraint twice
  std::span<const double> fraction;    // per hop in (0, 1] (max_min_system.h); empty: all 1
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
  // Called when a timer fires, with its tag.
  using TimerFn = std::function<void(std::uint32_t tag)>;
  // Called once per instant for each constraint whose load changed, after the re-solve.
  using LoadFn = std::function<void(ConstraintId c, TimePs at, double load)>;

  FlowEngine() : FlowEngine(Options{}) {}
  explicit FlowEngine(Options options) : options_(options) {}

  // PRECONDITION: capacity >= 0, latency >= 0.
  ConstraintId add_constraint(BitsPerSecond capacity, TimePs latency = TimePs(0));
  // PRECONDITION: see FlowRequest; fewer than 2^30 flows and capacity changes.
  FlowId add_flow(const FlowRequest& request);
  // Room for `flows` more flows of `hops` hops in all (a hint): millions of flows added one by one
  // then grow no array by doubling and copying.
  void reserve_flows(std::size_t flows, std::size_t hops);
  // At time `at` (>= now()) constraint c's capacity becomes fraction x its nominal capacity.
  void schedule_capacity(ConstraintId c, TimePs at, double fraction);
  // At time `at` (>= now()) the timer callback is called with `tag` (< 2^30).
  void schedule_timer(TimePs at, std::uint32_t tag);
  // Gives a waiting or active flow a new path; an active one keeps its remaining bytes.
  // PRECONDITION: called from a callback during run() (timer, completion, reroute), so that the
  // instant's re-solve sees it; path as in FlowRequest; f is not done.
  void move_flow(FlowId f, std::span<const ConstraintId> path, std::span<const double> fraction = {});
  void set_reroute(RerouteFn fn) { reroute_ = std::move(fn); }
  void set_on_completion(CompletionFn fn) { on_completion_ = std::move(fn); }
  void set_on_timer(TimerFn fn) { on_timer_ = std::move(fn); }
  void set_on_load(LoadFn fn) { on_load_ = std::move(fn); }
  // A constraint counts as saturated while its load is > 0 and >= fraction x its capacity at the
  // load's last change (see "Statistics" above). PRECONDITION: before run().
  void set_saturation(double fraction) { saturation_ = fraction; }

  // Processes the events up to and including time `until`.
  void run(TimePs until = TimePs(std::numeric_limits<std::int64_t>::max()));
  // Processes the events of the next instant and re-solves; false when no event is left.
  bool step();
  [[nodiscard]] bool idle() const { return queue_.empty(); }
  [[nodiscard]] TimePs next_event_time() const { return queue_.top().time; }  // PRECONDITION: !idle()

  // ---- results ----
  [[nodiscard]] TimePs now() const { return now_; }
  [[nodiscard]] std::size_t flow_count() const { return flows_.size(); }
  [[nodiscard]] std::size_t constraint_count() const { return system_.constraint_count(); }
  [[nodiscard]] FlowState state(FlowId f) const { return flows_[f.value()].state; }
  [[nodiscard]] double rate(FlowId f) const { return flows_[f.value()].rate; }  // bits/s now
  [[nodiscard]] TimePs start_time(FlowId f) const { return start_[f.value()]; }  // valid once active
  [[nodiscard]] TimePs last_byte_time(FlowId f) const { return flows_[f.value()].last_byte; }  // valid once done
  [[nodiscard]] TimePs completion_time(FlowId f) const { return completion_of(flows_[f.value()]); }  // valid once done
  [[nodiscard]] TimePs path_latency(FlowId f) const { return flows_[f.value()].path_latency; }
  // Bits not yet sent at now(): the size for a waiting flow, 0 for a done one.
  [[nodiscard]] double remaining_bits(FlowId f) const {
    const FlowRecord& r = flows_[f.value()];
    if (r.state != FlowState::kActive) return r.state == FlowState::kDone ? 0.0 : r.remaining;
    return std::max(0.0, r.remaining - r.rate * static_cast<double>((now_ - r.last_update).value()) * 1e-12);
  }
  [[nodiscard]] std::span<const ConstraintId> path(FlowId f) const { return system_.path(f); }
  [[nodiscard]] double capacity(ConstraintId c) const { return cons_[c.value()].capacity; }  // bits/s now
  [[nodiscard]] double nominal_capacity(ConstraintId c) const { return nominal_[c.value()]; }
  [[nodiscard]] TimePs latency(ConstraintId c) const { return latency_[c.value()]; }
  // When c's load last changed (an instant whose re-solve changed it), 0 before the first.
  [[nodiscard]] TimePs last_load_change(ConstraintId c) const { return cons_[c.value()].since; }
  // The capacity when c's load last changed (bits/s), what its saturation is judged against.
  [[nodiscard]] double load_capacity(ConstraintId c) const {
    const ConstraintRecord& r = cons_[c.value()];
    return r.capacity_moved != 0 ? load_capacity_[c.value()] : r.capacity;
  }
  // Time c was saturated (set_saturation) up to last_load_change(c).
  [[nodiscard]] TimePs saturated_time(ConstraintId c) const { return cons_[c.value()].saturated; }
  [[nodiscard]] double load(ConstraintId c) const { return cons_[c.value()].load; }       // bits/s now
  [[nodiscard]] double peak_load(ConstraintId c) const { return cons_[c.value()].peak; }  // bits/s
  [[nodiscard]] double carried_bits(ConstraintId c) const;                                // up to now()
  // Empty while every hop of every flow has fraction 1 (max_min_system.h).
  [[nodiscard]] std::span<const double> fractions(FlowId f) const { return system_.fractions(f); }
  [[nodiscard]] const MaxMinSystem& system() const { return system_; }

  // ---- cost counters (for tests of incrementality and benchmarks) ----
  [[nodiscard]] std::uint64_t solve_count() const { return solve_count_; }
  [[nodiscard]] std::uint64_t solved_flows() const { return solved_flows_; }  // sum of flows per solve
  // Flows a departure-only instant looked at to find the ones to re-solve (sum over instants).
  [[nodiscard]] std::uint64_t tail_scanned() const { return tail_scanned_; }

 private:
  static constexpr std::uint32_t kNil = 0xFFFF'FFFFU;
  struct CapacityChange {
    ConstraintId constraint;
    double fraction;
  };

  void apply(const FlowEvent& e);
  void start_flow(FlowId f);
  // Sum over the hops of fraction x latency (see "Latency" above), rounded to the picosecond.
  [[nodiscard]] TimePs latency_of(std::span<const ConstraintId> path, std::span<const double> fraction) const;
  void set_path(FlowId f, std::span<const ConstraintId> path, std::span<const double> fraction);
  void finish_flow(FlowId f);
  void change_capacity(const CapacityChange& change);
  void offer_reroute(FlowId f, ConstraintId failed);
  void link_started();
  void link_path(FlowId f);
  void unlink_path(FlowId f);
  void prefetch_path(FlowId f) const;
  void mark_path_dirty(FlowId f);
  void mark_dirty(ConstraintId c);
  void advance(FlowId f);
  void resolve();
  void collect_tail();
  void relink_in_freeze_order(std::uint64_t first_seq, bool whole);
  void visit(ConstraintId c, std::uint64_t threshold);
  void restart_state(ConstraintId c, double& remaining, double& weight_sum);
  void add_load(FlowId f, double delta);
  void touch_load(std::uint32_t c);
  void settle_loads();
  void collect_component();
  void sort_component();
  void collect_all_active();
  void dependency_done(FlowId waiting, TimePs completion);

  Options options_;
  MaxMinSystem system_;  // capacities now, paths, weights, caps
  MaxMinSolver solver_;
  FlowEventQueue queue_;
  TimePs now_{0};

  // ---- constraints ----
  // What a departure touches of each constraint of its path (its list of active flows, the marks
  // of the instant's searches, the restart threshold, the load statistics), in one cache line:
  // at a million constraints each separate array would be a cache miss (and a page walk) of its
  // own per hop.
  struct alignas(64) ConstraintRecord {
    std::uint32_t head;            // first path-pool element of an active flow crossing c, kNil: none
    std::uint8_t dirty_mark;       // in dirty_
    std::uint8_t visit_mark;       // in visited_
    std::uint8_t load_mark;        // in load_touched_
    std::uint8_t capacity_moved;   // the capacity changed since the load did: load_capacity_ has the old one
    std::uint64_t threshold;       // restart threshold of a constraint visited by collect_tail
    double load;                   // bits/s
    double carried;                // bits, up to `since`
    TimePs since;                  // the load's last change
    double peak;                   // bits/s
    double capacity;               // bits/s now: the system's, read here by the load statistics
    TimePs saturated;              // up to `since`
  };
  static_assert(sizeof(ConstraintRecord) == 64, "one cache line per constraint");
  std::vector<ConstraintRecord> cons_;
  std::vector<double> nominal_;        // bits/s
  std::vector<TimePs> latency_;
  std::vector<double> load_capacity_;  // bits/s when the load last changed, where capacity_moved
  double saturation_ = 1.0;
  std::vector<ConstraintId> dirty_;
  std::vector<CapacityChange> changes_;
  std::vector<ConstraintId> visited_;
  std::vector<std::uint32_t> load_touched_;

  // ---- path-pool elements: per-constraint doubly linked lists of active flows, by index ----
  // An unlink reads its neighbours' links, a list walk the next link, the flow and its freeze
  // sequence: one record. The sequence is kept here (its low 32 bits, the whole of it while the
  // solver has used fewer than 2^32: seq_fits()) so that collect_tail, which stops at the first
  // flow frozen before its threshold, reads no flow record to stop: at a departure that is about
  // one flow record, a cache miss, per hop.
  struct Element {
    std::uint32_t next;
    std::uint32_t prev;
    FlowId flow;
    std::uint32_t seq;  // flow's freeze sequence (low 32 bits), set by link_path and relink
  };
  static_assert(sizeof(Element) == 16, "four elements per cache line");
  [[nodiscard]] bool seq_fits() const { return solver_.next_sequence() <= std::uint64_t{1} << 32; }
  std::vector<Element> elem_;

  // ---- flows ----
  // What a departure reads and writes of its flow, in one cache line: at millions of flows each
  // separate per-flow array was a cache miss and a page walk of its own, a dozen per departure.
  // The path's place in the system's pool is copied here for the same reason (set_path keeps the
  // copy); the completion is last_byte + path_latency.
  struct alignas(64) FlowRecord {
    double remaining;              // bits, at last_update
    double rate;                   // bits/s
    TimePs last_update;
    std::uint64_t freeze_seq;      // solver event that froze the flow at its last solve
    TimePs last_byte;              // -1 until done
    TimePs path_latency;
    std::uint32_t path_begin;      // = system_.path_begin
    std::uint32_t path_size;       // = system_.path_size
    std::uint32_t dependents_head;
    FlowState state;
  };
  static_assert(sizeof(FlowRecord) == 64, "one cache line per flow");
  [[nodiscard]] static TimePs completion_of(const FlowRecord& r) {
    return r.state == FlowState::kDone ? r.last_byte + r.path_latency : TimePs(-1);
  }
  [[nodiscard]] std::span<const ConstraintId> path_of(const FlowRecord& r) const {
    return {system_.path_pool.data() + r.path_begin, r.path_size};
  }
  [[nodiscard]] std::span<const double> fractions_of(const FlowRecord& r) const {
    if (system_.path_fraction.empty()) return {};
    return {system_.path_fraction.data() + r.path_begin, r.path_size};
  }
  std::vector<FlowRecord> flows_;
  std::vector<double> new_rate_;           // solver output
  std::vector<std::uint64_t> freeze_seq_;  // solver output, copied to the records after each solve
  std::vector<TimePs> start_;              // earliest start, then actual start
  std::vector<TimePs> delay_;
  std::vector<std::uint32_t> waiting_on_;       // dependencies not yet complete
  std::vector<std::uint32_t> dependents_next_;  // per dependency edge
  std::vector<FlowId> dependents_flow_;         // per dependency edge
  // Marks of the flows a search collected; apart from the records, since a large component's
  // marks are cleared by a pass over all of them.
  std::vector<std::uint8_t> in_component_;
  std::vector<FlowId> component_;
  std::vector<ConstraintId> reroute_path_;
  std::vector<FlowId> departed_;  // flows whose last byte left in this instant
  std::vector<FlowId> unlinked_;  // flows started in this instant, not yet in the lists (link_started)
  bool only_departures_ = true;   // this instant's events are last bytes only
  bool only_starts_ = true;       // this instant's events are starts only, no flow moved
  std::vector<FlowId> started_;    // flows this instant started that are active
  std::uint32_t active_ = 0;       // active flows
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order_scratch_;  // (seq, elem) / (flow, elem)
  std::vector<std::uint32_t> seq_count_;     // relink: flows per sequence of a solve, then offsets
  std::vector<std::uint32_t> freeze_order_;  // relink: the solve's flows in (sequence, FlowId) order
  std::vector<std::pair<std::uint32_t, TimePs>> schedule_;  // resolve: the last bytes it sets
  MaxMinSolver::StartFn restart_fn_;

  RerouteFn reroute_;
  CompletionFn on_completion_;
  TimerFn on_timer_;
  LoadFn on_load_;
  std::uint64_t solve_count_ = 0;
  std::uint64_t solved_flows_ = 0;
  std::uint64_t tail_scanned_ = 0;
};

}  // namespace ct
