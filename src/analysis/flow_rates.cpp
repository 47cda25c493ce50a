#include "analysis/flow_rates.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace ct {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Progressive filling over the sub-flows `subs` (one epoch). The next link to saturate comes from
// a min-heap of (level, link) with lazy invalidation: freezing a sub-flow changes the level of
// the links it crosses only, so a solve costs O((links + entries) log links), not a scan of every
// link and every open sub-flow per saturation.
class EpochSolver {
 public:
  EpochSolver(const FlowRoutes& r, const Topology& t, std::vector<double>& rate) : r_(r), t_(t), rate_(rate) {}

  void solve(const std::vector<std::uint32_t>& subs) {
    index_links(subs);
    std::vector<std::uint8_t> frozen(r_.subflow_count(), 0);
    Heap heap;
    for (std::size_t i = 0; i < links_.size(); ++i) push(heap, i);
    while (!heap.empty()) {
      const Entry top = heap.top();
      heap.pop();
      if (top.version != version_[top.slot] || weight_[top.slot] <= 0.0) continue;
      const double level = top.level;
      for (std::uint32_t k = crossing_begin_[top.slot]; k < crossing_begin_[top.slot + 1]; ++k) {
        const std::uint32_t s = crossing_[k];
        if (frozen[s] != 0) continue;
        frozen[s] = 1;
        rate_[s] = level;
        for (std::uint32_t e = r_.begin[s]; e < r_.begin[s + 1]; ++e) {
          const std::size_t i = entry_slot_[e - r_.begin[s] + entry_base(s)];
          remaining_[i] = std::max(0.0, remaining_[i] - r_.fraction[e] * level);
          weight_[i] -= r_.fraction[e];
          if (weight_[i] < 1e-12) weight_[i] = 0.0;
          ++version_[i];
          push(heap, i);
        }
      }
    }
  }

 private:
  struct Entry {
    double level;
    std::size_t slot;  // ties: the lower slot, i.e. the lower directed link id
    std::uint32_t version;
    bool operator>(const Entry& o) const { return level != o.level ? level > o.level : slot > o.slot; }
  };
  using Heap = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>;

  void push(Heap& heap, std::size_t i) const {
    if (weight_[i] > 0.0) heap.push({remaining_[i] / weight_[i], i, version_[i]});
  }
  std::size_t entry_base(std::uint32_t s) const { return entry_base_[local_[s]]; }

  // Links of the epoch (sorted), their capacities and weights, and the sub-flows crossing each.
  void index_links(const std::vector<std::uint32_t>& subs) {
    links_.clear();
    for (std::uint32_t s : subs) {
      for (std::uint32_t l : r_.links(s)) links_.push_back(l);
    }
    std::sort(links_.begin(), links_.end());
    links_.erase(std::unique(links_.begin(), links_.end()), links_.end());
    remaining_.resize(links_.size());
    weight_.assign(links_.size(), 0.0);
    version_.assign(links_.size(), 0);
    for (std::size_t i = 0; i < links_.size(); ++i) {
      remaining_[i] = static_cast<double>(t_.capacity[links_[i] / 2].value());
    }
    local_.resize(r_.subflow_count());
    entry_base_.clear();
    entry_slot_.clear();
    crossing_begin_.assign(links_.size() + 1, 0);
    for (std::size_t k = 0; k < subs.size(); ++k) {
      const std::uint32_t s = subs[k];
      local_[s] = static_cast<std::uint32_t>(k);
      entry_base_.push_back(static_cast<std::uint32_t>(entry_slot_.size()));
      for (std::uint32_t e = r_.begin[s]; e < r_.begin[s + 1]; ++e) {
        const auto i = static_cast<std::uint32_t>(
            std::lower_bound(links_.begin(), links_.end(), r_.link[e]) - links_.begin());
        entry_slot_.push_back(i);
        weight_[i] += r_.fraction[e];
        ++crossing_begin_[i + 1];
      }
    }
    for (std::size_t i = 0; i < links_.size(); ++i) crossing_begin_[i + 1] += crossing_begin_[i];
    crossing_.assign(crossing_begin_.back(), 0);
    std::vector<std::uint32_t> fill(crossing_begin_.begin(), crossing_begin_.end() - 1);
    for (std::uint32_t s : subs) {  // ascending sub-flow order within each link
      for (std::uint32_t e = r_.begin[s]; e < r_.begin[s + 1]; ++e) {
        crossing_[fill[entry_slot_[e - r_.begin[s] + entry_base(s)]]++] = s;
      }
    }
  }

  const FlowRoutes& r_;
  const Topology& t_;
  std::vector<double>& rate_;
  std::vector<std::uint32_t> links_;
  std::vector<double> remaining_;
  std::vector<double> weight_;
  std::vector<std::uint32_t> version_;
  std::vector<std::uint32_t> local_;           // sub-flow -> position in `subs`
  std::vector<std::uint32_t> entry_base_;      // position -> first of its entry slots
  std::vector<std::uint32_t> entry_slot_;      // entry -> link slot
  std::vector<std::uint32_t> crossing_begin_;  // CSR: sub-flows crossing each link slot
  std::vector<std::uint32_t> crossing_;
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
