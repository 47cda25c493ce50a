// Throughput of every flow of a FlowRoutes (routing/flow_routes.h) when flows share links fairly.
//
// Model: max-min fairness among sub-flows (each QP, plane share or flowlet is a rate that
// congestion control treats as one flow), solved per epoch by progressive filling (Bertsekas &
// Gallager, "Data Networks", 2nd ed., 1992, sec. 6.5.2) generalised to fractional crossings: sub-flow
// s at rate r puts a_sl x r on directed link l (a_sl = 1 on a hashed path, 1/k per member when
// sprayed). All unfrozen sub-flows rise together at level L; link l saturates at
//   L_l = (C_l - frozen load on l) / (sum of a_sl over unfrozen s on l);
// the smallest L_l freezes the sub-flows crossing l (ties: the lower directed link id), and so on.
// sim/flow's solver has the same algorithm for 0/1 crossings; spraying needs the fractions.
//
// A flow's throughput: within an epoch its sub-flow s carries share_s of the epoch's bytes at rate
// r_s, so the epoch lasts as long as the slowest share: thr_e = min_s r_s / share_s. Epochs carry
// equal bytes, so the flow's throughput is E / sum_e (1 / thr_e). A flow that does not reach its
// destination has throughput 0. Capacities: Topology::capacity per direction.
#pragma once

#include <vector>

#include "routing/flow_routes.h"
#include "topology/topology.h"

namespace ct {

struct FlowRates {
  std::vector<double> subflow_rate;  // bits per second
  std::vector<double> throughput;    // per flow, bits per second
};

FlowRates solve_flow_rates(const FlowRoutes& routes, const Topology& topology);

}  // namespace ct
