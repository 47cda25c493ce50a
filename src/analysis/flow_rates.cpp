#include "analysis/flow_rates.h"

#include <algorithm>
#include <limits>
#include <span>

namespace ct {
namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The first n elements of v, which grows to hold them (and never shrinks: no allocation once warm).
template <typename T>
T* grow(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}
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

  out.subflow_rate.assign(subflows, 0.0);
  const bool plain = std::all_of(routes.fraction.begin(), routes.fraction.end(), [](double a) { return a == 1.0; });
  for (std::uint32_t e = 0; e < routes.epochs; ++e) {
    const std::span<const FlowId> flows(by_epoch_.data() + epoch_begin_[e], epoch_begin_[e + 1] - epoch_begin_[e]);
    solve_epoch(flows, plain, out.subflow_rate);
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

void FlowRateSolver::solve_single_paths(std::span<const std::uint32_t> begin, std::span<const std::uint32_t> links,
                                        std::span<const std::uint8_t> reached, FlowRates& out) {
  const std::size_t flows = reached.size();
  // Variable i is flow i's one sub-flow, of weight 1, no cap and fraction 1 on each hop, as solve()
  // makes it of routes_of_paths's routes.
  system_.path_begin.assign(begin.begin(), begin.begin() + static_cast<std::ptrdiff_t>(flows));
  system_.path_size.resize(flows);
  for (std::size_t i = 0; i < flows; ++i) system_.path_size[i] = begin[i + 1] - begin[i];
  system_.weight.assign(flows, 1.0);
  system_.rate_cap.assign(flows, kNoRateCap);
  system_.path_pool.resize(links.size());
  for (std::size_t h = 0; h < links.size(); ++h) system_.path_pool[h] = ConstraintId(links[h]);
  system_.path_fraction.clear();  // every fraction 1 (max_min_system.h)
  by_epoch_.clear();
  for (std::uint32_t i = 0; i < flows; ++i) {
    if (reached[i] != 0 && begin[i + 1] != begin[i]) by_epoch_.push_back(FlowId(i));
  }
  out.subflow_rate.assign(flows, 0.0);
  solve_epoch(by_epoch_, true, out.subflow_rate);
  // solve()'s throughput with one epoch and share 1: thr = min(inf, rate / 1), E / (0 + 1 / thr).
  out.throughput.resize(flows);
  for (std::size_t i = 0; i < flows; ++i) {
    const double thr = std::min(kInfinity, out.subflow_rate[i] / 1.0);
    const double inverse = thr > 0.0 ? 0.0 + 1.0 / thr : kInfinity;
    out.throughput[i] = reached[i] != 0 && inverse > 0.0 && inverse < kInfinity ? 1.0 / inverse : 0.0;
  }
}

// The epoch's sub-flows split into connected components (linked by a common directed link), each
// solved alone: the solver's rates of a component do not depend on what else is in the solve
// (max_min_solver.h, "Determinism"). A sub-flow alone in its component gets
// MaxMinSolver::alone_rate, bit for bit what the solve would give it; on plain paths, a component
// whose first event freezes all its sub-flows (one alone included) is settled from the epoch's
// crossings per link by MaxMinSolver::solve_unit_in_one_event, the others by solve_unit.
void FlowRateSolver::solve_epoch(std::span<const FlowId> flows, bool plain, std::span<double> rate) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  const auto n = static_cast<std::uint32_t>(flows.size());
  std::uint32_t* const parent = grow(parent_, n);
  auto find = [parent](std::uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (std::uint32_t i = 0; i < n; ++i) parent[i] = i;
  if (link_first_.size() < system_.constraint_count()) link_first_.resize(system_.constraint_count(), kNone);
  std::uint32_t* const link_first = link_first_.data();
  if (crossings_.size() < system_.constraint_count()) crossings_.resize(system_.constraint_count(), 0);
  std::uint32_t* const crossings = crossings_.data();
  for (std::uint32_t i = 0; i < n; ++i) {
    for (const ConstraintId c : system_.path(flows[i])) {
      ++crossings[c.value()];
      std::uint32_t& first = link_first[c.value()];
      if (first == kNone) {
        first = i;
        continue;
      }
      const std::uint32_t a = find(i);
      const std::uint32_t b = find(first);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the component's first position
    }
  }
  // Components numbered by their first position; positions ascending within each.
  std::uint32_t* const component_of = grow(component_of_, n);
  std::uint32_t* const component_begin = grow(component_begin_, n + 1);
  std::uint32_t components = 0;
  component_begin[0] = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t root = find(i);
    if (root == i) {
      component_of[i] = components++;
      component_begin[components] = 0;
    }
    component_of[i] = component_of[root];
    ++component_begin[component_of[i] + 1];
  }
  for (std::uint32_t k = 1; k <= components; ++k) component_begin[k] += component_begin[k - 1];
  FlowId* const by_component = grow(by_component_, n);
  for (std::uint32_t i = 0; i < n; ++i) by_component[component_begin[component_of[i]]++] = flows[i];
  // component_begin[k] now ends component k, which begins where component k - 1 ends.
  std::uint32_t begin = 0;
  for (std::uint32_t k = 0; k < components; ++k) {
    const std::uint32_t end = component_begin[k];
    const std::span<const FlowId> component(by_component + begin, end - begin);
    if (plain && solver_.solve_unit_in_one_event(system_, component, crossings_, rate)) {
      // One event (one sub-flow alone included): done.
    } else if (component.size() == 1) {
      rate[component[0].value()] = MaxMinSolver::alone_rate(system_, component[0]);
    } else if (plain && component.size() <= kScanFlows) {
      solver_.solve_unit(system_, component, rate);
    } else {
      solver_.solve(system_, component, rate);
    }
    begin = end;
  }
  for (const FlowId s : flows) {
    for (const ConstraintId c : system_.path(s)) {
      link_first[c.value()] = kNone;
      crossings[c.value()] = 0;
    }
  }
}

FlowRates solve_flow_rates(const FlowRoutes& routes, const Topology& topology) {
  FlowRateSolver solver(topology);
  FlowRates out;
  solver.solve(routes, out);
  return out;
}

}  // namespace ct
