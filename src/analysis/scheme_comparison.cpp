#include "analysis/scheme_comparison.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "analysis/ecmp_monte_carlo.h"
#include "analysis/link_loads.h"
#include "core/threads.h"

namespace ct {
namespace {

constexpr std::size_t kSchemes = std::size(kAllSchemes);

SchemeMeasure measure(Scheme s, const PathWalker& w, std::span<const RouteRequest> requests, const ComparisonOptions& o,
                std::uint64_t trial, FlowRateSolver& rates) {
  SchemeOptions so;
  so.qps = o.qps;
  so.seed = o.seed;
  so.trial = trial;
  const FlowRoutes routes = route_flows(s, w, requests, so);
  const LoadSummary l = summarize_loads(routes, w.forwarding(), rates);
  return {l.in_play.busiest, static_cast<double>(l.in_play.idle), static_cast<double>(l.in_play.links), l.slowest,
          l.mean_throughput};
}

// Each request's flowlets (a flow whose bursts are separated by idle gaps of at least the
// threshold has one per burst, else one).
std::vector<RouteRequest> with_flowlets(std::span<const RouteRequest> requests, std::span<const BurstPattern> bursts,
                                        const ComparisonOptions& options) {
  std::vector<RouteRequest> base(requests.begin(), requests.end());
  for (std::size_t i = 0; i < base.size(); ++i) {
    const BurstPattern b = i < bursts.size() ? bursts[i] : BurstPattern{};
    base[i].flowlets = b.bursts > 1 && b.idle_us >= options.flowlet_gap_us ? static_cast<std::uint32_t>(b.bursts) : 1u;
  }
  return base;
}

}  // namespace

std::vector<SchemeMeasure> scheme_trials(const PathWalker& walker, std::span<const RouteRequest> requests,
                                         std::span<const BurstPattern> bursts, const ComparisonOptions& options) {
  const std::vector<RouteRequest> base = with_flowlets(requests, bursts, options);
  const std::uint32_t trials = std::max(1u, options.trials);
  std::vector<SchemeMeasure> per_trial(std::size_t{trials} * kSchemes);
  const unsigned threads = std::max(1u, std::min<unsigned>(options.threads, trials));
  auto work = [&](unsigned k) {
    std::vector<RouteRequest> requests_t = base;
    FlowRateSolver rates(walker.forwarding().topology());
    for (std::uint32_t i = k; i < trials; i += threads) {
      const std::uint64_t t = std::uint64_t{options.first_trial} + i;
      draw_trial_ports(requests_t, options.seed, t);
      for (std::size_t s = 0; s < kSchemes; ++s) {
        per_trial[i * kSchemes + s] = measure(kAllSchemes[s], walker, requests_t, options, t, rates);
      }
      if (k == 0 && options.progress) options.progress(i + 1, trials);
    }
  };
  run_on_threads(threads, work);
  return per_trial;
}

std::vector<SchemeRow> compare_schemes(const PathWalker& walker, std::span<const RouteRequest> requests,
                                       std::span<const BurstPattern> bursts, const ComparisonOptions& options) {
  ComparisonOptions whole = options;
  whole.first_trial = 0;
  return scheme_rows(walker, requests, bursts, options, scheme_trials(walker, requests, bursts, whole));
}

std::vector<SchemeRow> scheme_rows(const PathWalker& walker, std::span<const RouteRequest> requests,
                                   std::span<const BurstPattern> bursts, const ComparisonOptions& options,
                                   const std::vector<SchemeMeasure>& per_trial) {
  std::uint32_t most_flowlets = 1;
  for (const RouteRequest& r : with_flowlets(requests, bursts, options)) most_flowlets = std::max(most_flowlets, r.flowlets);
  const auto trials = static_cast<std::uint32_t>(per_trial.size() / kSchemes);
  std::vector<SchemeRow> rows;
  for (std::size_t s = 0; s < kSchemes; ++s) {
    SchemeRow row;
    row.scheme = kAllSchemes[s];
    for (std::uint32_t t = 0; t < trials; ++t) {
      const SchemeMeasure& m = per_trial[t * kSchemes + s];
      row.busiest += m.busiest / trials;
      row.idle += m.idle / trials;
      row.links += m.links / trials;
      row.slowest += m.slowest / trials;
      row.mean_throughput += m.mean / trials;
    }
    switch (row.scheme) {
      case Scheme::kHash: row.note = "per-flow ECMP"; break;
      case Scheme::kSpray: row.note = "every packet spread over all members"; break;
      case Scheme::kFlowlet:
        row.note = most_flowlets > 1 ? fmt::format("gap {:g} us: up to {} flowlets per flow", options.flowlet_gap_us, most_flowlets)
                                     : fmt::format("gap {:g} us: no idle gap that long, 1 flowlet per flow", options.flowlet_gap_us);
        break;
      case Scheme::kAdaptive: row.note = "least-loaded member at each decision"; break;
      case Scheme::kMoreQps: row.note = fmt::format("{} QPs per connection", options.qps); break;
      case Scheme::kPlaneSplit:
        row.applicable = walker.forwarding().topology().planes > 1;
        row.note = row.applicable ? fmt::format("split over {} planes", walker.forwarding().topology().planes)
                                  : "one plane: nothing to split over";
        break;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace ct
