#include "analysis/flow_rates.h"

#include <algorithm>
#include <limits>
#include <span>

namespace ct {
namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

FlowRateSolver::FlowRateSolver(const Topology& topology) {
  system_.capacity.reserve(2 * topology.link_count());
  for (std::size_t l = 0; l < topology.link_count(); ++l) {
    const auto c = static_cast<double>(topology.capacity[l].value());
    system_.add_constraint(c);  // up: directed link 2 l
    system_.add_constraint(c);  // down: 2 l + 1
  }
}

void FlowRateSolver::solve(const FlowRoutes& routes, FlowRates& out) {
  const std::size_t subflows = routes.subflow_count();
  // Variable s is sub-flow s; sub-flows of unreached flows (and any without a link) are not solved.
  system_.clear_flows();
  epoch_begin_.assign(std::size_t{routes.epochs} + 1, 0);
  for (std::uint32_t s = 0; s < subflows; ++s) {
    system_.begin_flow();
    const auto links = routes.links(s);
    const auto fractions = routes.fractions(s);
    for (std::size_t h = 0; h < links.size(); ++h) system_.add_hop(ConstraintId(links[h]), fractions[h]);
    if (routes.reached[routes.owner[s]] != 0 && !links.empty()) ++epoch_begin_[routes.epoch[s] + 1];
  }
  for (std::uint32_t e = 0; e < routes.epochs; ++e) epoch_begin_[e + 1] += epoch_begin_[e];
  by_epoch_.resize(epoch_begin_.back());
  for (std::uint32_t s = 0; s < subflows; ++s) {
    if (routes.reached[routes.owner[s]] == 0 || routes.links(s).empty()) continue;
    by_epoch_[epoch_begin_[routes.epoch[s]]++] = FlowId(s);  // ascending within each epoch, as solve requires
  }
  for (std::uint32_t e = routes.epochs; e > 0; --e) epoch_begin_[e] = epoch_begin_[e - 1];
  epoch_begin_[0] = 0;

  // A sub-flow that shares no directed link with another of its epoch is its own component: its
  // rate is MaxMinSolver::alone_rate, bit for bit what the solve would give it; the rest are solved.
  out.subflow_rate.assign(subflows, 0.0);
  if (crossings_.size() < system_.constraint_count()) crossings_.resize(system_.constraint_count(), 0);
  for (std::uint32_t e = 0; e < routes.epochs; ++e) {
    const std::span<const FlowId> flows(by_epoch_.data() + epoch_begin_[e], epoch_begin_[e + 1] - epoch_begin_[e]);
    for (const FlowId s : flows) {
      for (const ConstraintId c : system_.path(s)) ++crossings_[c.value()];
    }
    shared_.clear();
    for (const FlowId s : flows) {
      const auto path = system_.path(s);
      const bool alone = std::all_of(path.begin(), path.end(), [&](ConstraintId c) { return crossings_[c.value()] == 1; });
      if (alone) {
        out.subflow_rate[s.value()] = MaxMinSolver::alone_rate(system_, s);
      } else {
        shared_.push_back(s);
      }
    }
    for (const FlowId s : flows) {
      for (const ConstraintId c : system_.path(s)) crossings_[c.value()] = 0;
    }
    if (!shared_.empty()) solver_.solve(system_, shared_, out.subflow_rate);
  }

  // thr_e = min over the epoch's sub-flows of rate / share; throughput = E / sum_e 1 / thr_e.
  epoch_throughput_.assign(std::size_t{routes.flow_count} * routes.epochs, kInfinity);
  for (std::uint32_t s = 0; s < subflows; ++s) {
    double& thr = epoch_throughput_[std::size_t{routes.owner[s]} * routes.epochs + routes.epoch[s]];
    thr = std::min(thr, out.subflow_rate[s] / routes.share[s]);
  }
  out.throughput.assign(routes.flow_count, 0.0);
  for (std::uint32_t f = 0; f < routes.flow_count; ++f) {
    if (!routes.reached[f]) continue;
    double inverse = 0.0;
    for (std::uint32_t e = 0; e < routes.epochs; ++e) {
      const double thr = epoch_throughput_[std::size_t{f} * routes.epochs + e];
      inverse = thr > 0.0 ? inverse + 1.0 / thr : kInfinity;
    }
    out.throughput[f] = inverse > 0.0 && inverse < kInfinity ? routes.epochs / inverse : 0.0;
  }
}

FlowRates solve_flow_rates(const FlowRoutes& routes, const Topology& topology) {
  FlowRateSolver solver(topology);
  FlowRates out;
  solver.solve(routes, out);
  return out;
}

}  // namespace ct
