// Closed forms of the failure model (reliability_model.h), for the steady-state table and as the
// reference the Monte Carlo is checked against.
//
// One element, failure rate lambda = 1 / MTBF, exponential repair of mean MTTR (alternating
// renewal; the stationary fraction of time down holds for any repair distribution):
//   p = MTTR / (MTBF + MTTR) = lambda MTTR / (1 + lambda MTTR).
// n independent elements of a class:
//   number down at a moment ~ Binomial(n, p):  E = n p,  P(>= 1) = 1 - (1 - p)^n,
//   P(k) = C(n, k) p^k (1 - p)^(n - k)          (for small p and large n close to Poisson(n p));
//   failures in a horizon H (stationary start): E = n lambda (1 - p) H, each element failing at
//   rate lambda while up.
// The whole fabric (every modelled element, classes independent):
//   P(at least one element down) = 1 - prod_k (1 - p_k)^(n_k),   E[elements down] = sum_k n_k p_k.
// A job: Lambda_touch = sum of lambda over the elements that reach it; mean time between failures
// touching it = 1 / Lambda_touch. Lambda_stop = the part whose failure alone stops it (a NIC; a
// NIC-leaf link or leaf with one plane; a partitioning element).
// Expected goodput lost in H to first order (failures that overlap in time neglected, which the
// Monte Carlo does not neglect):
//   stops:    each costs the restart, the work since the last checkpoint and, when the spares
//             cannot replace the isolated hosts (or the fabric is partitioned), the remaining
//             repair time (mean MTTR, memoryless). The running time X between stops is
//             ~ Exp(Lambda_stop) and the checkpoint clock restarts with the job, so the lost work
//             is E[X mod T] = 1 / Lambda - T / (e^(Lambda T) - 1)   (-> T / 2 for Lambda T << 1).
//   degradations, policy continue: the job runs at r(x) with x the largest factor among the down
//             elements; with independent elements grouped by factor, P(largest = x_k) =
//             (prod over larger factors of P(none down)) x P(some of x_k down), and the loss is
//             H sum_k P(largest = x_k) (1 - r(x_k)): exact in steady state (a GPU that loses two
//             planes at once is neglected).
//   degradations, policy drain (GPUs short of planes): each failure (or one already down at the
//             start) lasts until its repair D ~ Exp(MTTR) or the next checkpoint U ~ Uniform(0, T),
//             whichever is first; at U the job restarts on spares. Loss per event
//             (1 - r) E[min(D, U)] + restart P(D > U). Upper-tier slowdowns are not drainable.
#pragma once

#include <vector>

#include "analysis/reliability_model.h"

namespace ct {

struct ClassSteadyState {
  double p_down = 0;
  double expected_down = 0;
  double p_any_down = 0;
  std::vector<double> p_k_down;      // P(0), P(1), P(2), P(>= 3) elements down
  double expected_failures = 0;      // in the horizon
};

// PRECONDITION: c.modelled().
ClassSteadyState steady_state(const ElementClass& c, double horizon_hours);

// The total row of the steady-state table: the fabric's modelled elements together.
struct FabricSteadyState {
  long long elements = 0;          // modelled elements (unmodelled classes are not in the total)
  double p_any_down = 0;           // P(at least one of them is down at a given moment)
  double expected_down = 0;        // E[number down at a given moment]
  double expected_failures = 0;    // failures in the horizon, all classes
};
FabricSteadyState fabric_steady_state(const ReliabilityModel& model);

// P(Binomial(n, p) = k), evaluated with logarithms (n in the millions is fine).
double binomial_pmf(long long n, double p, long long k);
// E[X mod T] for X ~ Exp(rate).
double expected_time_since_checkpoint(double rate, double interval);

struct JobClosedForm {
  double touch_per_hour = 0;
  double stop_per_hour = 0;
  double degrade_per_hour = 0;
  double expected_interruptions = 0;  // in the horizon
  double expected_degradations = 0;
  double expected_drains = 0;
  double expected_lost_hours = 0;     // goodput lost in the horizon, first order
  double stop_lost_hours = 0;         // of which: stops
  double degrade_lost_hours = 0;      // of which: degradations
  [[nodiscard]] double mean_hours_between_touches() const { return 1.0 / touch_per_hour; }
};

JobClosedForm job_closed_form(const ReliabilityModel& model);

}  // namespace ct
