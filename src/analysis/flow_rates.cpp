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
    if (!shared_.empty()) solve_components(out.subflow_rate);
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

void FlowRateSolver::solve_components(std::span<double> rate) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  const auto n = static_cast<std::uint32_t>(shared_.size());
  auto find = [this](std::uint32_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  };
  parent_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) parent_[i] = i;
  if (link_first_.size() < system_.constraint_count()) link_first_.resize(system_.constraint_count(), kNone);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (const ConstraintId c : system_.path(shared_[i])) {
      std::uint32_t& first = link_first_[c.value()];
      if (first == kNone) {
        first = i;
        continue;
      }
      const std::uint32_t a = find(i);
      const std::uint32_t b = find(first);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // the root is the component's first position
    }
  }
  for (const FlowId s : shared_) {
    for (const ConstraintId c : system_.path(s)) link_first_[c.value()] = kNone;
  }
  // Components numbered by their first position; positions ascending within each.
  component_of_.assign(n, kNone);
  component_begin_.reserve(std::size_t{n} + 1);  // up to one component per position: no growth once warm
  component_begin_.assign(1, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t root = find(i);
    if (root == i) {
      component_of_[i] = static_cast<std::uint32_t>(component_begin_.size() - 1);
      component_begin_.push_back(0);
    }
    ++component_begin_[component_of_[root] + 1];
  }
  for (std::size_t k = 1; k < component_begin_.size(); ++k) component_begin_[k] += component_begin_[k - 1];
  by_component_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) by_component_[component_begin_[component_of_[find(i)]]++] = shared_[i];
  std::uint32_t begin = 0;
  for (std::size_t k = 0; k + 1 < component_begin_.size(); ++k) {
    const std::uint32_t end = component_begin_[k];
    solver_.solve(system_, std::span<const FlowId>(by_component_.data() + begin, end - begin), rate);
    begin = end;
  }
}

FlowRates solve_flow_rates(const FlowRoutes& routes, const Topology& topology) {
  FlowRateSolver solver(topology);
  FlowRates out;
  solver.solve(routes, out);
  return out;
}

}  // namespace ct
