// Throughput of every flow of a FlowRoutes (routing/flow_routes.h) when flows share links fairly.
//
// Model: max-min fairness among sub-flows (each QP, plane share or flowlet is a rate that
// congestion control treats as one flow), solved per epoch. Sub-flow s at rate r puts a_sl x r on
// directed link l (a_sl = 1 on a hashed path, 1/k per member when sprayed). This is exactly the
// system of sim/maxmin/max_min_solver.h: one constraint per directed link (2 x LinkId + down, of
// capacity Topology::capacity in that direction), one variable of weight 1 and no cap per
// sub-flow, a_sl its path_fraction. The solve is that solver's progressive filling (Bertsekas &
// Gallager, "Data Networks", 2nd ed., 1992, sec. 6.5.2), ties going to the lower directed link id,
// the solver checked against SimGrid (tests/simgrid). Only sub-flows of flows that reached their
// destination are solved; the others get rate 0.
//
// A flow's throughput: within an epoch its sub-flow s carries share_s of the epoch's bytes at rate
// r_s, so the epoch lasts as long as the slowest share: thr_e = min_s r_s / share_s. Epochs carry
// equal bytes, so the flow's throughput is E / sum_e (1 / thr_e). A flow that does not reach its
// destination has throughput 0.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "routing/flow_routes.h"
#include "sim/maxmin/max_min_solver.h"
#include "sim/maxmin/max_min_system.h"
#include "topology/topology.h"

namespace ct {

struct FlowRates {
  std::vector<double> subflow_rate;  // bits per second
  std::vector<double> throughput;    // per flow, bits per second
};

// A reusable workspace for many solves on one topology (a Monte Carlo solves once per trial).
// The solve is split by connected component of the sub-flow/link graph: a sub-flow alone on its
// links gets MaxMinSolver::alone_rate, every other component is solved on its own. The solver's
// rates of a component do not depend on what else is in the solve (max_min_solver.h,
// "Determinism"), so the split gives bit for bit the rates of one solve of all sub-flows; it only
// keeps the heaps small (a trial's collisions make many components of two or three flows).
// After a solve of some size, a solve of no more flows, sub-flows, epochs and entries allocates
// nothing: the system, the solver and `out` keep their storage.
class FlowRateSolver {
 public:
  // PRECONDITION: `topology` outlives the solver.
  explicit FlowRateSolver(const Topology& topology);

  // PRECONDITION: every directed link of `routes` is < 2 x topology.link_count().
  void solve(const FlowRoutes& routes, FlowRates& out);

  // solve() for the routes the hash scheme gives (routes_of_paths: one sub-flow per flow, one
  // epoch, share 1, fraction 1 on every hop), read from the paths' directed links without building
  // the routes: flow i crosses links[begin[i] .. begin[i + 1]) and reached[i] != 0 when it
  // arrived. The same doubles as solve(routes_of_paths(...)) (a Monte Carlo trial calls this).
  // PRECONDITION: begin.size() == reached.size() + 1, begin ascending from 0 to links.size(); each
  // link < 2 x topology.link_count(), none twice in one flow.
  void solve_single_paths(std::span<const std::uint32_t> begin, std::span<const std::uint32_t> links,
                          std::span<const std::uint8_t> reached, FlowRates& out);

 private:
  // Components of at most this many sub-flows, when all of them are plain paths, are solved by
  // MaxMinSolver::solve_unit's scan rather than the heap (the same bits; cheaper when small).
  static constexpr std::size_t kScanFlows = 16;
  // The sub-flows of one epoch (ascending), component by component.
  void solve_epoch(std::span<const FlowId> flows, bool plain, std::span<double> rate);
  MaxMinSystem system_;  // constraints: the directed links; variables: the sub-flows, in order
  MaxMinSolver solver_;
  std::vector<std::uint32_t> epoch_begin_;  // CSR: solved sub-flows of epoch e in by_epoch_
  std::vector<FlowId> by_epoch_;
  std::vector<double> epoch_throughput_;  // flow x epochs
  // Connected components of an epoch's sub-flows (solve_epoch), by position in the epoch.
  std::vector<std::uint32_t> link_first_;  // per directed link: first position crossing it (kNone between solves)
  std::vector<std::uint32_t> crossings_;   // per directed link: the epoch's sub-flows on it (0 between solves)
  std::vector<std::uint32_t> parent_;      // union-find over positions
  std::vector<std::uint32_t> component_of_;
  std::vector<std::uint32_t> component_begin_;
  std::vector<FlowId> by_component_;       // the sub-flows grouped by component, each ascending
};

FlowRates solve_flow_rates(const FlowRoutes& routes, const Topology& topology);

}  // namespace ct
