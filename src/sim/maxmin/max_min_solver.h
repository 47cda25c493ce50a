// Weighted max-min fair rate allocation by progressive filling (water-filling).
//
// Model. Constraints c have capacities C_c; flow f crosses the constraints of its path, using a
// fraction a_fc in (0, 1] of its rate on each (1 on a plain path; 1/k per member of a k-way spray),
// has a weight w_f > 0 and an optional rate cap K_f. An allocation r is feasible when
//   sum_{f crosses c} a_fc r_f <= C_c  for every c,   and   0 <= r_f <= K_f.
// It is weighted max-min fair when no normalised rate r_f / w_f can be raised without lowering
// some r_g / w_g that is already <= r_f / w_f. Equivalently (the optimality condition checked by
// the tests): every flow is at its cap, or crosses a saturated constraint on which its r_f / w_f
// is the largest.
//
// Algorithm: progressive filling (Bertsekas & Gallager, "Data Networks", 2nd ed., Prentice Hall
// 1992, section 6.5.2, max-min flow control; the weighted form replaces "equal increments" by
// increments proportional to w_f). A level L rises from 0; every unfrozen flow has rate w_f L.
// For constraint c let R_c = C_c - (sum of a_fc x frozen rates on c) and W_c = (sum of a_fc w_f over
// unfrozen flows on c); c saturates at level L_c = R_c / W_c, and flow f reaches its cap at
// K_f / w_f. The smallest of these levels is the next event: the flows of that constraint (or that
// capped flow) are frozen at w_f L, and R, W of the other constraints they cross are updated.
// Because a flow is frozen only at a level L* <= L_c of every constraint it crosses, and
// (R - a w L*) / (W - a w) >= R / W exactly when L* <= R / W, the level of a constraint never
// falls (in exact arithmetic). The next event is found with an indexed 4-ary heap whose keys are
// always the current levels (after each event, every constraint its freezes changed is re-keyed
// once): cost
// O((C + P) log C) for C constraints and P hops. Keeping every key current, rather than keeping
// stale entries and re-pushing them, makes the order of events a function of the (R, W) state
// alone, never of the history of pushes: a solve restarted from a state gives bit for bit what the
// full solve gives from that state on (see "Restarts" below).
// This is the allocation SimGrid computes in its lmm solver (kernel/lmm/maxmin.cpp) for the CM02
// network model (Casanova & Marchal, "A network model for simulation of grid application",
// INRIA RR-2002-40), where a variable's "sharing penalty" is 1 / w_f and a_fc its consumption
// weight; see docs/models/flow-engine.md for the configuration under which the two agree.
//
// Determinism and incremental solving. Heap keys are (level, constraint-before-cap, id), a strict
// total order, and each constraint's flows are visited in increasing FlowId. A constraint's
// arithmetic therefore depends only on the flows and constraints connected to it, so solving one
// connected component of the flow/constraint graph alone yields bit-for-bit the rates a solve of
// the whole system gives to that component. The engine relies on this to re-solve only what an
// event touched; the tests check it.
//
// Freeze order and restarts. Every event that freezes flows gets a sequence number, increasing
// across calls; solve() records it per flow (freeze_seq). The sequence of events is the same as
// long as the state is: when a set D of flows leaves a system, every event before the first that
// froze a flow of D happens identically without D (D's constraints only rise without D's weight,
// so they are not the minimum earlier), so every flow frozen before it keeps its rate bit for bit.
// The others are re-solved from the state just before that event: for each constraint crossed by
// a re-solved flow, W_c = (sum of a w over the flows crossing it, in increasing FlowId, as gather
// adds them) minus, and R_c = C_c minus, the terms of the flows frozen before, in freeze order
// (sequence, then FlowId): the same floating-point operations in the same order as the full solve.
// solve() takes that state through `start` (StartFn); the engine computes it (flow_engine.h).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/ids.h"
#include "sim/maxmin/max_min_system.h"

namespace ct {

class MaxMinSolver {
 public:
  // Sets (remaining, weight_sum) of constraint c to its state just before the first event of a
  // restarted solve; called once per constraint the solved flows cross.
  using StartFn = std::function<void(ConstraintId c, double& remaining, double& weight_sum)>;

  // Computes the weighted max-min fair rates of `flows` (the other flows of the system are
  // ignored, as if absent) and writes rate[f] for each f in `flows`; when freeze_seq is not empty,
  // also freeze_seq[f], the sequence number of the event that froze f. With `start`, constraint
  // states come from it instead of (capacity, sum of the flows' a w).
  // PRECONDITION: flows is sorted ascending without duplicates; rate.size() >= system.flow_count();
  // freeze_seq is empty or as large.
  // POSTCONDITION: 0 <= rate[f] <= rate_cap[f]; capacities hold within floating-point rounding.
  void solve(const MaxMinSystem& system, std::span<const FlowId> flows, std::span<double> rate,
             std::span<std::uint64_t> freeze_seq = {}, const StartFn* start = nullptr);

  // Solves every flow of the system (the reference the incremental solves are checked against).
  void solve_all(const MaxMinSystem& system, std::span<double> rate);

  // The rate solve() (without `start`) gives flow f when no other flow of the solve crosses any of
  // its constraints: one event freezes it, at w_f times the least level C_c / (a_fc w_f) of its
  // constraints, or at its cap when K_f / w_f is lower. The same operations as solve(), so the
  // same bits: a caller may leave such flows out of the solve (see "Determinism") and use this.
  [[nodiscard]] static double alone_rate(const MaxMinSystem& system, FlowId f);

  // solve() without `start` for flows of weight 1, without a cap and with fraction 1 on every hop
  // (hashed paths, analysis/flow_rates.h), for small solves: the next event is found by a scan of
  // the solve's constraints instead of the heap, O(events x constraints), less than the heap's
  // set-up when a solve has a few flows (a Monte Carlo trial's components of two or three). The
  // same progressive filling: W_c is the count of unfrozen flows on c (sums and differences of
  // 1 x 1, exact in doubles), the next event is the least (max(R_c, 0) / W_c, constraint id) over
  // the constraints with unfrozen flows, its flows freeze in increasing FlowId at that level, and
  // each frozen flow subtracts 1 x level from R of its hops in path order: the same events, the
  // same floating-point operations in the same order, so the same rates and sequence numbers bit
  // for bit (max_min_unit_solve.cpp says why the constraints the heap leaves out change nothing).
  // PRECONDITION: as solve(); every flow of `flows` has weight 1, no cap, fraction 1 on each hop.
  // A caller that keeps counts per constraint tries solve_unit_in_one_event first (the common
  // case); solve_unit does not try it again.
  void solve_unit(const MaxMinSystem& system, std::span<const FlowId> flows, std::span<double> rate,
                  std::span<std::uint64_t> freeze_seq = {});

  // solve_unit's first event from counts the caller keeps, count[c] = the flows of `flows` that
  // cross constraint c: when every flow crosses the least (C_c / count[c], id) of their
  // constraints, the solve is that one event; writes every flow's rate (and freeze_seq) as
  // solve_unit would and returns true. Else changes nothing and returns false. For one flow it is
  // alone_rate's value. PRECONDITION: as solve_unit; count is right for every constraint crossed.
  bool solve_unit_in_one_event(const MaxMinSystem& system, std::span<const FlowId> flows,
                               std::span<const std::uint32_t> count, std::span<double> rate,
                               std::span<std::uint64_t> freeze_seq = {});

  // Sequence numbers used so far (the next event gets this one).
  [[nodiscard]] std::uint64_t next_sequence() const { return next_seq_; }

 private:
  static constexpr std::uint32_t kNone = 0xFFFF'FFFFU;
  // Solves of at least this many flows give their working arrays back (release_workspace).
  static constexpr std::size_t kKeepWorkspace = std::size_t{1} << 20;
  void release_workspace();

  // Workspace of solve_unit (max_min_unit_solve.cpp), apart from the heap solve's.
  struct UnitConstraint {
    double remaining;        // R_c
    std::uint32_t unfrozen;  // W_c, flows not yet frozen on c
    std::uint32_t id;        // the ConstraintId, the tie-break
  };
  std::vector<std::uint32_t> unit_local_of_;      // per ConstraintId: local index, kNone between solves
  std::vector<UnitConstraint> unit_constraints_;  // by local index, in order of first appearance
  std::vector<std::uint32_t> unit_hops_;          // local index of each hop, the flows' in order
  std::vector<std::uint32_t> unit_hop_end_;       // per position in `flows`: end of its hops
  std::vector<std::uint8_t> unit_frozen_;         // per position in `flows`
  // The events of solve_unit over the n gathered constraints.
  void solve_unit_events(std::span<const FlowId> flows, std::uint32_t n, std::span<double> rate,
                         std::span<std::uint64_t> freeze_seq);

  void gather(const MaxMinSystem& system, std::span<const FlowId> flows);
  void gather_members(std::span<const FlowId> flows);
  // When the first event freezes every flow (the least key is a constraint all of them cross),
  // writes what the heap would and returns true; else changes nothing and returns false.
  bool solve_in_one_event(const MaxMinSystem& system, std::span<const FlowId> flows, std::span<double> rate,
                          std::span<std::uint64_t> freeze_seq);
  void build_heap(const MaxMinSystem& system, std::span<const FlowId> flows);
  void gather_positions(const MaxMinSystem& system, std::span<const FlowId> flows);
  void saturate(const MaxMinSystem& system, std::uint32_t local, double level);
  void freeze(const MaxMinSystem& system, std::uint32_t position, double value);
  void rekey(std::uint32_t local);
  void rekey_stale();

  // ---- indexed heap over items: local constraints [0, n), then capped flows [n, n + caps) ----
  // Items' keys as built (level, order): constraints' order is their id, caps' 2^32 + flow id.
  [[nodiscard]] bool before(std::uint32_t a, std::uint32_t b) const {
    if (key_level_[a] != key_level_[b]) return key_level_[a] < key_level_[b];
    return key_order_[a] < key_order_[b];
  }
  // The heap holds each item's current key with it, so that a comparison reads the heap alone
  // (at a million constraints every key looked up elsewhere is a cache miss); 4-ary, so that a
  // sift visits half the levels. The same total order as before(): level, then constraints before
  // caps, then id.
  struct HeapEntry {
    double level;
    std::uint32_t order;  // the low 32 bits of the item's key order
    std::uint32_t item;
  };
  static constexpr std::uint32_t kArity = 4;
  [[nodiscard]] bool earlier(const HeapEntry& a, const HeapEntry& b) const {
    if (a.level != b.level) return a.level < b.level;
    const bool a_cap = a.item >= constraints_;
    const bool b_cap = b.item >= constraints_;
    if (a_cap != b_cap) return b_cap;
    return a.order < b.order;
  }
  void sift_up(std::uint32_t i);
  void sift_down(std::uint32_t i);
  void place(std::uint32_t i, const HeapEntry& entry) {
    heap_[i] = entry;
    where_[entry.item] = i;
  }
  void erase(std::uint32_t item);

  // Workspace, indexed by ConstraintId (sized to the system, reset through touched_).
  std::vector<std::uint32_t> local_of_;  // kNone when the constraint is not in the solve
  // Indexed by local constraint index (order of first appearance).
  std::vector<ConstraintId> touched_;
  // What a freeze changes on each constraint of the flow's path, together (24 bytes).
  struct Local {
    double remaining;        // R_c
    double weight_sum;       // W_c
    std::uint32_t unfrozen;  // flows not yet frozen on c
    std::uint8_t stale;      // 1: an event's freezes changed it, re-keyed after the event
    std::uint8_t in_heap;    // 1: in the heap (where_ is not kNone), read here by a freeze
  };
  std::vector<Local> local_;
  // Indexed by position in `flows` (CSR): the local indices of the flow's hops, so that a freeze
  // reads them in sequence instead of looking each constraint up in local_of_.
  std::vector<std::uint32_t> hop_offset_;
  std::vector<std::uint32_t> local_hops_;
  std::vector<std::uint32_t> cursor_;
  std::vector<std::uint32_t> member_offset_;  // CSR: constraint -> positions in `flows`
  std::vector<std::uint32_t> members_;
  // What a freeze reads and writes of a flow together, so that freezing the members of a constraint
  // (flows at scattered positions) misses the caches once per flow, not once per array; the rates
  // and sequences go out in flow order after the last event. One more at the end (hop_begin of the
  // last flow's end).
  // seq is kUnfrozen until the flow freezes.
  static constexpr std::uint64_t kUnfrozen = ~std::uint64_t{0};
  struct Position {
    double weight;
    double rate;
    std::uint64_t seq;
    std::uint32_t hop_begin;   // into local_hops_
    std::uint32_t path_begin;  // into the system's path_fraction
  };
  std::vector<Position> position_;
  // Indexed by heap item.
  std::vector<double> key_level_;
  std::vector<std::uint64_t> key_order_;
  std::vector<std::uint32_t> where_;     // position in heap_, kNone when out
  std::vector<std::uint32_t> cap_position_;  // item n + i -> position in `flows`
  static_assert(sizeof(HeapEntry) == 16, "four children per 64-byte line");
  std::vector<HeapEntry> heap_store_;
  HeapEntry* heap_ = nullptr;  // into heap_store_, aligned (build_heap)
  std::uint32_t heap_size_ = 0;
  std::uint32_t constraints_ = 0;  // items below are constraints, the others caps
  // Indexed by position in `flows`: the least (in heap order) constraint only that flow crosses.
  std::vector<std::uint32_t> least_private_;
  std::vector<std::uint32_t> stale_;  // constraints an event's freezes changed, re-keyed after it
  std::uint64_t next_seq_ = 0;
};

}  // namespace ct
