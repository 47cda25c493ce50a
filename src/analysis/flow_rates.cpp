#include "analysis/flow_rates.h"

#include <algorithm>
#include <limits>

namespace ct {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Progressive filling over the sub-flows `subs` (one epoch).
class EpochSolver {
 public:
  EpochSolver(const FlowRoutes& r, const Topology& t, std::vector<double>& rate) : r_(r), t_(t), rate_(rate) {}

  void solve(const std::vector<std::uint32_t>& subs) {
    links_.clear();
    for (std::uint32_t s : subs) {
      for (std::uint32_t l : r_.links(s)) links_.push_back(l);
    }
    std::sort(links_.begin(), links_.end());
    links_.erase(std::unique(links_.begin(), links_.end()), links_.end());
    remaining_.resize(links_.size());
    weight_.assign(links_.size(), 0.0);
    for (std::size_t i = 0; i < links_.size(); ++i) {
      remaining_[i] = static_cast<double>(t_.capacity[links_[i] / 2].value());
    }
    for (std::uint32_t s : subs) {
      for (std::uint32_t e = r_.begin[s]; e < r_.begin[s + 1]; ++e) weight_[slot(r_.link[e])] += r_.fraction[e];
    }
    std::vector<std::uint32_t> open = subs;
    while (!open.empty()) {
      const std::size_t tight = tightest();
      if (tight == links_.size()) break;
      const double level = remaining_[tight] / weight_[tight];
      std::vector<std::uint32_t> still;
      for (std::uint32_t s : open) {
        if (!crosses(s, links_[tight])) {
          still.push_back(s);
          continue;
        }
        rate_[s] = level;
        for (std::uint32_t e = r_.begin[s]; e < r_.begin[s + 1]; ++e) {
          const std::size_t i = slot(r_.link[e]);
          remaining_[i] = std::max(0.0, remaining_[i] - r_.fraction[e] * level);
          weight_[i] -= r_.fraction[e];
          if (weight_[i] < 1e-12) weight_[i] = 0.0;
        }
      }
      open.swap(still);
    }
  }

 private:
  std::size_t slot(std::uint32_t link) const {
    return static_cast<std::size_t>(std::lower_bound(links_.begin(), links_.end(), link) - links_.begin());
  }
  bool crosses(std::uint32_t s, std::uint32_t link) const {
    const auto ls = r_.links(s);
    return std::find(ls.begin(), ls.end(), link) != ls.end();
  }
  // The link that saturates first (the lowest level; ties: the lower link id).
  std::size_t tightest() const {
    std::size_t best = links_.size();
    double level = kInfinity;
    for (std::size_t i = 0; i < links_.size(); ++i) {
      if (weight_[i] <= 0.0) continue;
      const double l = remaining_[i] / weight_[i];
      if (l < level) {
        level = l;
        best = i;
      }
    }
    return best;
  }

  const FlowRoutes& r_;
  const Topology& t_;
  std::vector<double>& rate_;
  std::vector<std::uint32_t> links_;
  std::vector<double> remaining_;
  std::vector<double> weight_;
};

}  // namespace

FlowRates solve_flow_rates(const FlowRoutes& routes, const Topology& topology) {
  FlowRates out;
  out.subflow_rate.assign(routes.subflow_count(), 0.0);
  std::vector<std::vector<std::uint32_t>> by_epoch(routes.epochs);
  for (std::uint32_t s = 0; s < routes.subflow_count(); ++s) {
    if (routes.reached[routes.owner[s]]) by_epoch[routes.epoch[s]].push_back(s);
  }
  EpochSolver solver(routes, topology, out.subflow_rate);
  for (const auto& subs : by_epoch) solver.solve(subs);
  // thr_e = min over the epoch's sub-flows of rate / share; throughput = E / sum_e 1 / thr_e.
  std::vector<double> epoch_throughput(std::size_t{routes.flow_count} * routes.epochs, kInfinity);
  for (std::uint32_t s = 0; s < routes.subflow_count(); ++s) {
    double& thr = epoch_throughput[std::size_t{routes.owner[s]} * routes.epochs + routes.epoch[s]];
    thr = std::min(thr, out.subflow_rate[s] / routes.share[s]);
  }
  out.throughput.assign(routes.flow_count, 0.0);
  for (std::uint32_t f = 0; f < routes.flow_count; ++f) {
    if (!routes.reached[f]) continue;
    double inverse = 0.0;
    for (std::uint32_t e = 0; e < routes.epochs; ++e) {
      const double thr = epoch_throughput[std::size_t{f} * routes.epochs + e];
      inverse = thr > 0.0 ? inverse + 1.0 / thr : kInfinity;
    }
    out.throughput[f] = inverse > 0.0 && inverse < kInfinity ? routes.epochs / inverse : 0.0;
  }
  return out;
}

}  // namespace ct
