#include "analysis/ecmp_monte_carlo.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <thread>

#include "analysis/birthday.h"
#include "analysis/flow_rates.h"
#include "traffic/flow.h"
#include "core/threads.h"

namespace ct {
namespace {

constexpr std::uint32_t kMaxClosedFormFlows = 200;
constexpr std::uint32_t kMaxClosedFormMembers = 1024;

// The flow's first hashed decision when it is a leaf's up group, else nullptr.
const PathHop* first_tier_decision(const ForwardingState& f, const FlowPath& p) {
  for (const PathHop& h : p.hops) {
    if (h.group == kNoGroup || f.size(h.group) < 2) continue;
    const bool leaf_up = f.kind(h.group) == GroupKind::kUp && f.topology().tier[h.from.value()] == 1;
    return leaf_up ? &h : nullptr;
  }
  return nullptr;
}

// Mean and standard error of the mean.
std::pair<double, double> mean_and_se(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double sum = 0.0;
  for (double v : x) sum += v;
  const double mean = sum / n;
  double ss = 0.0;
  for (double v : x) ss += (v - mean) * (v - mean);
  const double se = x.size() > 1 ? std::sqrt(ss / (n - 1) / n) : 0.0;
  return {mean, se};
}

// Runs the trials of one thread.
class TrialRunner {
 public:
  TrialRunner(const PathWalker& w, std::span<const RouteRequest> requests, const DecisionCoupling& c,
              const MonteCarloOptions& o, std::vector<TrialOutcome>& outcomes)
      : w_(w), base_(requests.begin(), requests.end()), coupling_(c), o_(o), outcomes_(outcomes),
        stage_used_(c.stages().size(), std::vector<std::uint8_t>(w.forwarding().topology().link_count(), 0)),
        stage_(w.forwarding().group_count(), kStageUnknown),
        uplink_load_(2 * w.forwarding().topology().link_count(), 0),
        members_used_(w.forwarding().group_count(), 0),
        rate_solver_(w.forwarding().topology()) {}

  void run(unsigned thread) {
    std::vector<RouteRequest> requests = base_;
    std::vector<FlowPath> paths(requests.size());
    for (std::uint32_t slot = thread; slot < o_.trials; slot += o_.threads) {
      const std::uint32_t t = o_.first_trial + slot;
      draw_trial_ports(requests, o_.seed, t);
      w_.walk_all(std::span<const RouteRequest>(requests), [&](std::size_t i, bool reached, std::span<const PathHop> hops) {
        paths[i].reached = reached;
        paths[i].hops.assign(hops.begin(), hops.end());
      });
      lay_out_links(paths);
      outcomes_[slot] = measure(requests, paths);
      if (thread == 0 && o_.progress) o_.progress(slot + 1, o_.trials);
    }
  }

  // The directed links of each flow in a row, for the rate solve: the hash scheme's routes
  // (routes_of_paths) without building them.
  void lay_out_links(const std::vector<FlowPath>& paths) {
    std::size_t hops = 0;
    for (const FlowPath& p : paths) hops += p.hops.size();
    links_.resize(hops);
    link_begin_.resize(paths.size() + 1);
    reached_.resize(paths.size());
    std::uint32_t* const links = links_.data();
    std::uint32_t k = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      link_begin_[i] = k;
      reached_[i] = paths[i].reached ? 1 : 0;
      for (const PathHop& h : paths[i].hops) links[k++] = h.directed();
    }
    link_begin_[paths.size()] = k;
  }

  // Per DecisionCoupling stage, per link: 1 when a trial of this runner chose it at that stage.
  const std::vector<std::vector<std::uint8_t>>& stage_used() const { return stage_used_; }

 private:
  TrialOutcome measure(const std::vector<RouteRequest>& requests, const std::vector<FlowPath>& paths) {
    const ForwardingState& f = w_.forwarding();
    TrialOutcome out;
    // Flows per first-tier uplink, counted by directed link (groups of different destinations may
    // share members); the distinct members chosen in a group are the uplinks it used, the rest of
    // its members are idle. Counted in per-link, per-member and per-group slots that are reset
    // below, so a trial costs O(hops).
    for (const FlowPath& p : paths) {
      if (const PathHop* h = first_tier_decision(f, p)) {
        std::uint32_t& load = uplink_load_[h->directed()];
        if (load++ == 0) loaded_uplinks_.push_back(h->directed());
        out.busiest_first = std::max(out.busiest_first, load);
        const std::uint32_t entry = f.span(h->group).offset + h->member;
        if (entry >= member_chosen_.size()) member_chosen_.resize(std::size_t{entry} + 1, 0);
        if (member_chosen_[entry] == 0) {
          member_chosen_[entry] = 1;
          chosen_members_.push_back(entry);
          if (members_used_[h->group]++ == 0) entered_groups_.push_back(h->group);
        }
      }
      for (const PathHop& h : p.hops) {
        const int stage = h.group == kNoGroup ? -1 : stage_of(h.group);
        if (stage >= 0) stage_used_[static_cast<std::size_t>(stage)][h.link.value()] = 1;
      }
    }
    for (const std::uint32_t g : entered_groups_) {
      out.idle_first += f.size(g) - members_used_[g];
      members_used_[g] = 0;
    }
    for (const std::uint32_t l : loaded_uplinks_) uplink_load_[l] = 0;
    for (const std::uint32_t e : chosen_members_) member_chosen_[e] = 0;
    entered_groups_.clear();
    loaded_uplinks_.clear();
    chosen_members_.clear();
    out.first_collision = out.busiest_first >= 2;
    find_collisions(w_, requests, paths, coupling_, collision_workspace_, collisions_);
    out.any_collision = !collisions_.empty();
    for (const Collision& c : collisions_) ++out.causes[static_cast<std::size_t>(c.cause)];
    rate_solver_.solve_single_paths(link_begin_, links_, reached_, rates_);
    const std::vector<double>& thr = rates_.throughput;
    out.slowest = thr.empty() ? 0.0 : *std::min_element(thr.begin(), thr.end());
    return out;
  }

  const PathWalker& w_;
  std::vector<RouteRequest> base_;
  const DecisionCoupling& coupling_;
  const MonteCarloOptions& o_;
  std::vector<TrialOutcome>& outcomes_;
  std::vector<std::vector<std::uint8_t>> stage_used_;
  // The DecisionCoupling stage of group g, looked up once (kStageUnknown until then).
  int stage_of(std::uint32_t g) {
    if (stage_[g] == kStageUnknown) stage_[g] = coupling_.stage_of(g);
    return stage_[g];
  }

  static constexpr int kStageUnknown = -2;
  std::vector<int> stage_;  // per group
  // This trial's first-tier decisions, all zero between trials: flows per directed uplink, 1 per
  // chosen member entry (ForwardingState span offset + member), members chosen per group.
  std::vector<std::uint32_t> uplink_load_;
  std::vector<std::uint8_t> member_chosen_;
  std::vector<std::uint32_t> members_used_;
  std::vector<std::uint32_t> loaded_uplinks_;  // the non-zero entries above, to reset
  std::vector<std::uint32_t> chosen_members_;
  std::vector<std::uint32_t> entered_groups_;
  CollisionWorkspace collision_workspace_;
  std::vector<Collision> collisions_;
  // Reused from trial to trial: the routes and rates of a trial allocate nothing once warm.
  FlowRateSolver rate_solver_;
  std::vector<std::uint32_t> link_begin_;  // CSR: flow i's directed links are links_[link_begin_[i] ..)
  std::vector<std::uint32_t> links_;
  std::vector<std::uint8_t> reached_;
  FlowRates rates_;
};

}  // namespace

void draw_trial_ports(std::span<RouteRequest> requests, std::uint64_t seed, std::uint64_t trial) {
  Rng rng(seed, trial, kPortStream);
  for (RouteRequest& r : requests) r.key.src_port = draw_roce_source_port(rng);
}

EcmpClosedForms first_tier_closed_forms(const PathWalker& walker, const std::vector<FlowPath>& paths) {
  const ForwardingState& f = walker.forwarding();
  const Topology& t = f.topology();
  EcmpClosedForms c;
  std::map<std::uint32_t, std::uint32_t> flows_in;  // group -> k
  std::set<std::uint32_t> sources, destinations;
  std::set<std::int64_t> capacities;
  bool every_flow_decides = true;
  bool distinct_nics = true;
  for (const FlowPath& p : paths) {
    const PathHop* h = first_tier_decision(f, p);
    c.unreachable += p.reached ? 0 : 1;
    c.without_leaf_choice += p.reached && h == nullptr ? 1 : 0;
    if (h == nullptr || !p.reached) {
      every_flow_decides = false;
      continue;
    }
    ++flows_in[h->group];
    distinct_nics &= sources.insert(p.hops.front().link.value()).second;
    distinct_nics &= destinations.insert(p.hops.back().link.value()).second;
    for (const PathHop& x : p.hops) capacities.insert(t.capacity[x.link.value()].value());
  }
  c.shared_nics = !distinct_nics;
  c.mixed_capacities = capacities.size() > 1;
  if (flows_in.empty()) return c;
  double log_no_collision = 0.0;
  std::uint32_t largest_k = 0;
  c.busiest_known = true;
  for (const auto& [g, k] : flows_in) {
    const std::uint32_t n = f.size(g);
    c.groups.emplace_back(n, k);
    log_no_collision += std::log(p_no_collision(n, k));
    c.expected_idle += expected_idle_members(n, k);
    largest_k = std::max(largest_k, k);
    c.busiest_known = c.busiest_known && k <= kMaxClosedFormFlows && n <= kMaxClosedFormMembers;
  }
  c.p_collision = -std::expm1(log_no_collision);
  if (!c.busiest_known) return c;
  // P(busiest <= m) = prod_g P(max_g <= m).
  std::vector<double> cdf(largest_k + 1, 1.0);
  for (const auto& [n, k] : c.groups) {
    const std::vector<double> pmf = max_load_distribution(n, k);
    double below = 0.0;
    for (std::uint32_t m = 0; m <= largest_k; ++m) {
      below += m < pmf.size() ? pmf[m] : 0.0;
      cdf[m] *= std::min(1.0, below);
    }
  }
  c.busiest_pmf.assign(largest_k + 1, 0.0);
  for (std::uint32_t m = 0; m <= largest_k; ++m) {
    c.busiest_pmf[m] = std::max(0.0, cdf[m] - (m == 0 ? 0.0 : cdf[m - 1]));
    c.expected_busiest += m * c.busiest_pmf[m];
  }
  c.slowest_applicable = every_flow_decides && distinct_nics && capacities.size() == 1;
  if (c.slowest_applicable) {
    const double capacity = static_cast<double>(*capacities.begin());
    for (std::uint32_t m = 1; m <= largest_k; ++m) c.expected_slowest += capacity * c.busiest_pmf[m] / m;
  }
  return c;
}

MonteCarloResult run_ecmp_monte_carlo(const PathWalker& walker, std::span<const RouteRequest> requests,
                                      const DecisionCoupling& coupling, const MonteCarloOptions& options) {
  std::vector<TrialOutcome> outcomes(options.trials);
  const unsigned threads = std::max(1u, std::min<unsigned>(options.threads, options.trials));
  MonteCarloOptions o = options;
  o.threads = threads;
  std::vector<TrialRunner> runners;
  runners.reserve(threads);
  for (unsigned k = 0; k < threads; ++k) runners.emplace_back(walker, requests, coupling, o, outcomes);
  run_on_threads(threads, [&runners](unsigned k) { runners[k].run(k); });

  MonteCarloResult r = summarize_ecmp_trials(walker, requests, std::move(outcomes), options.seed);
  for (std::size_t s = 0; s < coupling.stages().size(); ++s) {
    std::uint32_t used = 0;
    for (std::size_t l = 0; l < walker.forwarding().topology().link_count(); ++l) {
      bool any = false;
      for (const TrialRunner& runner : runners) any = any || runner.stage_used()[s][l] != 0;
      used += any ? 1 : 0;
    }
    r.stage_links_used.push_back(used);
  }
  return r;
}

MonteCarloResult summarize_ecmp_trials(const PathWalker& walker, std::span<const RouteRequest> requests,
                                       std::vector<TrialOutcome> outcomes, std::uint64_t seed) {
  MonteCarloResult r;
  r.trials = static_cast<std::uint32_t>(outcomes.size());
  r.outcomes = std::move(outcomes);
  std::vector<double> busiest, idle, slowest;
  std::uint32_t first = 0, any = 0;
  for (const TrialOutcome& t : r.outcomes) {
    first += t.first_collision;
    any += t.any_collision;
    if (r.busiest_histogram.size() <= t.busiest_first) r.busiest_histogram.resize(t.busiest_first + 1, 0);
    ++r.busiest_histogram[t.busiest_first];
    busiest.push_back(t.busiest_first);
    idle.push_back(t.idle_first);
    slowest.push_back(t.slowest);
    for (int c = 0; c < kCollisionCauses; ++c) {
      r.collisions_by_cause[c] += t.causes[c];
      r.trials_with_cause[c] += t.causes[c] > 0 ? 1 : 0;
    }
  }
  r.p_first_collision = static_cast<double>(first) / r.trials;
  r.p_any_collision = static_cast<double>(any) / r.trials;
  std::tie(r.mean_busiest, r.se_busiest) = mean_and_se(busiest);
  std::tie(r.mean_idle, r.se_idle) = mean_and_se(idle);
  std::tie(r.mean_slowest, r.se_slowest) = mean_and_se(slowest);
  std::vector<RouteRequest> first_trial(requests.begin(), requests.end());
  draw_trial_ports(first_trial, seed, 0);
  std::vector<FlowPath> paths(first_trial.size());
  for (std::uint32_t i = 0; i < first_trial.size(); ++i) {
    paths[i].reached = walker.walk(first_trial[i].src, first_trial[i].dst, first_trial[i].key, paths[i].hops);
  }
  r.closed = first_tier_closed_forms(walker, paths);
  return r;
}

}  // namespace ct
