#include "sim/flow/flow_simulation.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/fault_timeline.h"
#include "sim/flow/flow_engine.h"
#include "sim/flow_router.h"
#include "sim/link_statistics.h"
#include "sim/result_recorder.h"

namespace ct::flow_engine {
namespace {

// The barrier constraint's capacity: any positive figure, it carries zero-byte flows only.
constexpr BitsPerSecond kBarrierCapacity{1'000'000'000'000};
// Flows routed at once where each flow's path is its own: what routing makes of them (about 100
// bytes a flow) stays in the caches.
constexpr std::size_t kRouteChunk = 16'384;

bool all_ones(std::span<const double> fractions) {
  return std::all_of(fractions.begin(), fractions.end(), [](double a) { return a == 1.0; });
}

class Driver {
 public:
  Driver(const Fabric& fabric, const Scenario& scenario, const Workload& workload, const SimulationOptions& options)
      : t_(fabric.topology()),
        s_(scenario),
        w_(workload),
        o_(options),
        router_(fabric, scenario, workload, options.flow.max_min_weights),
        faults_(scenario, fabric.topology().link_count()),
        rec_(fabric, workload, options.series_links > 0, [this](std::uint32_t, const ResourceInfo& info) {
          // A link's constraint has its latency; NVLink and the barrier none.
          const bool link = info.kind == ResourceKind::kLinkUp || info.kind == ResourceKind::kLinkDown;
          engine_.add_constraint(info.capacity, link ? t_.latency[info.link.value()] : TimePs(0));
        }) {}

  Result<SimulationResult> run() {
    schedule_faults();
    for (std::uint32_t b = 0; b < w_.batch_count(); ++b) add_batch(w_.batch_begin[b], w_.batch_begin[b + 1]);
    routed_ = RoutedHops();  // not kept through the run (a reconvergence routes anew)
    if (!error_.empty()) return Diagnostic{{s_.file, 0, 0}, "scenario", error_};
    observe();
    engine_.set_on_completion([this](FlowId) { ++done_; });
    engine_.set_on_timer([this](std::uint32_t fault) { converge(fault); });
    std::uint64_t instants = 0;
    while (engine_.step()) {
      if (++instants % 4096 == 0 && o_.progress != nullptr) {
        o_.progress->update(done_, rec_.record_count(), engine_.now());
      }
    }
    rec_.result().instants = instants;
    collect();
    return std::move(rec_.result());
  }

 private:
  ConstraintId directed(std::uint32_t directed_link) { return ConstraintId(rec_.directed(directed_link)); }

  // ---- faults ----
  void schedule_faults() {
    faults_.schedule([this](TimePs at, std::uint32_t fault) { engine_.schedule_timer(at, fault); },
                     [this](std::uint32_t d, TimePs at, double fraction) { engine_.schedule_capacity(directed(d), at, fraction); });
  }

  // Routing has converged after fault `i`: new forwarding state, every unfinished flow walked again.
  void converge(std::uint32_t i) {
    router_.converge(faults_.reconverge(i));
    std::vector<std::uint32_t> moving_flows;
    for (std::uint32_t r = 0; r < rec_.record_count(); ++r) {
      const std::uint32_t f = rec_.flow_of(r);
      if (!w_.flows[f].routed || engine_.state(FlowId(f)) == FlowState::kDone) continue;
      moving_flows.push_back(f);
    }
    route(moving_flows);
    std::vector<ConstraintId> path;
    std::vector<double> fractions;
    for (std::uint32_t k = 0; k < moving_flows.size(); ++k) {
      if (routed_.reached[k] == 0) continue;
      const std::uint32_t workload_flow = moving_flows[k];
      routed_path(k, workload_flow, path, fractions);
      const FlowId flow(workload_flow);
      const auto now_path = engine_.path(flow);
      const auto now_fractions = engine_.fractions(flow);  // empty: every hop 1
      const bool same_fractions =
          now_fractions.empty() ? all_ones(fractions)
                                : std::equal(fractions.begin(), fractions.end(), now_fractions.begin(), now_fractions.end());
      if (std::equal(path.begin(), path.end(), now_path.begin(), now_path.end()) && same_fractions) continue;
      engine_.move_flow(flow, path, fractions);
      rec_.rerouted(workload_flow);
    }
  }

  // ---- flows ----
  // Routes the network flows `flows` (workload indices) into routed_, in their order: in parts of
  // kRouteChunk flows where each flow's path is its own (FlowRouter::routes_each_alone), so that
  // what routing makes of millions of flows (requests, sub-flows, a fraction per hop) stays a few
  // MiB, reused, instead of a batch-sized copy of every path; whole otherwise (adaptive).
  void route(std::span<const std::uint32_t> flows) {
    routed_.clear();
    routed_.begin.reserve(flows.size() + 1);
    routed_.reached.reserve(flows.size());
    const std::size_t chunk = router_.routes_each_alone() ? kRouteChunk : std::max<std::size_t>(flows.size(), 1);
    for (std::size_t at = 0; at < flows.size(); at += chunk) {
      const auto part = flows.subspan(at, std::min(chunk, flows.size() - at));
      const FlowRoutes routes = router_.route(part, position_);
      if (routed_.unit && !all_ones(routes.fraction)) {
        routed_.unit = false;
        routed_.fraction.assign(routed_.link.size(), 1.0);
      }
      for (std::size_t k = 0; k < part.size(); ++k) {
        const std::uint32_t sub = position_[k];
        const auto links = routes.links(sub);
        routed_.link.insert(routed_.link.end(), links.begin(), links.end());
        if (!routed_.unit) {
          const auto fraction = routes.fractions(sub);
          routed_.fraction.insert(routed_.fraction.end(), fraction.begin(), fraction.end());
        }
        routed_.begin.push_back(static_cast<std::uint32_t>(routed_.link.size()));
        routed_.reached.push_back(routes.reached[sub]);
      }
    }
  }

  // The engine path of the k-th flow routed last (route()), workload flow `flow`: its fixed hops
  // (the PXN NVLink hop, if any), then its network hops.
  void routed_path(std::size_t k, std::uint32_t flow, std::vector<ConstraintId>& path, std::vector<double>& fractions) {
    path.clear();
    fractions.clear();
    for (const Hop& h : w_.hops_of(flow)) {
      path.push_back(ConstraintId(rec_.resource(h)));
      fractions.push_back(1.0);
    }
    for (std::uint32_t h = routed_.begin[k]; h < routed_.begin[k + 1]; ++h) {
      path.push_back(directed(routed_.link[h]));
      fractions.push_back(routed_.unit ? 1.0 : std::min(1.0, routed_.fraction[h]));
    }
  }

  // Creates the flows [first, end) of one route batch: the fixed paths first (in flow order), then
  // the network flows routed together.
  void add_batch(std::uint32_t first, std::uint32_t end) {
    // The fixed paths of the batch's unrouted flows, one after the other in flow order (a join's:
    // the barrier constraint alone).
    std::vector<ConstraintId> fixed;
    std::vector<std::uint32_t> routed_flows;
    for (std::uint32_t f = first; f < end; ++f) {
      const WorkloadFlow& wf = w_.flows[f];
      if (wf.routed) {
        routed_flows.push_back(f);
        continue;
      }
      if (wf.join) fixed.push_back(ConstraintId(rec_.barrier(kBarrierCapacity)));
      for (const Hop& h : w_.hops_of(f)) fixed.push_back(ConstraintId(rec_.resource(h)));
    }
    std::size_t fixed_at = 0;
    route(routed_flows);
    std::size_t hop_count = fixed.size() + routed_.link.size();
    for (const std::uint32_t f : routed_flows) hop_count += w_.hops_of(f).size();
    engine_.reserve_flows(end - first, hop_count);
    std::vector<ConstraintId> path;
    std::vector<double> fractions;
    std::vector<FlowId> after;
    std::size_t routed = 0;
    for (std::uint32_t f = first; f < end; ++f) {
      const WorkloadFlow& wf = w_.flows[f];
      FlowRequest request;
      if (wf.routed) {
        if (routed_.reached[routed] == 0 && error_.empty()) {
          error_ = fmt::format("no path from {} to {} on the healthy fabric", t_.vertex_name(wf.src_port),
                               t_.vertex_name(wf.dst_port));
        }
        routed_path(routed++, f, path, fractions);
        if (path.empty()) path.push_back(directed(directed_link(LinkId(wf.src_port.value()), true)));
        fractions.resize(path.size(), 1.0);
        request.path = path;
        if (!all_ones(fractions)) request.fraction = fractions;  // empty: every hop 1
      } else {
        const std::size_t hops = wf.hops_size + (wf.join ? 1 : 0);
        request.path = std::span<const ConstraintId>(fixed.data() + fixed_at, hops);
        fixed_at += hops;
      }
      after.clear();
      for (const std::uint32_t a : w_.after_of(f)) after.push_back(FlowId(a));
      request.size = wf.bytes;
      request.weight = o_.flow.max_min_weights.empty() ? 1.0 : o_.flow.max_min_weights[f];
      request.start = wf.start;
      request.after = after;
      request.delay = wf.delay;
      engine_.add_flow(request);
      rec_.add_record(f);
    }
  }

  // ---- statistics ----
  // The engine keeps each link's saturated time in its own record (handed over in collect());
  // the observer only feeds the time series' log.
  void observe() {
    engine_.set_saturation(LinkStatistics::kSaturated);
    if (o_.series_links == 0) return;
    engine_.set_on_load([this](ConstraintId c, TimePs at, double load) {
      rec_.link_stats().on_load(c.value(), at, load, engine_.capacity(c));
    });
  }

  // The run's outcome is read out of the engine (each record's times, its final path straight into
  // the result's pool, the constraints' figures), the engine's memory is released, and only then
  // are the records written: a run never holds its records and its engine at once (at 131,072
  // GPUs about 750 MB of records against 2.6 GB of engine).
  void collect() {
    for (std::uint32_t c = 0; c < engine_.constraint_count(); ++c) {
      const ConstraintId id(c);
      rec_.link_stats().set_resource(c, engine_.saturated_time(id), engine_.last_load_change(id), engine_.load(id),
                                     engine_.load_capacity(id));
    }
    SimulationResult& result = rec_.result();
    const std::uint32_t records = rec_.record_count();
    std::size_t hops = 0;
    for (std::uint32_t r = 0; r < records; ++r) hops += engine_.path(FlowId(rec_.flow_of(r))).size();
    result.path_pool.reserve(hops);
    std::vector<std::pair<TimePs, TimePs>> times(records);  // start, end; -1: not started, not done
    std::vector<std::pair<std::uint32_t, double>> left;     // records not done: bits not delivered
    std::vector<std::uint32_t> path_size(records);
    for (std::uint32_t r = 0; r < records; ++r) {
      const FlowId f(rec_.flow_of(r));
      const FlowState state = engine_.state(f);
      times[r] = {state != FlowState::kWaiting ? engine_.start_time(f) : TimePs(-1),
                  state == FlowState::kDone ? engine_.completion_time(f) : TimePs(-1)};
      if (state != FlowState::kDone) left.emplace_back(r, engine_.remaining_bits(f));
      const auto path = engine_.path(f);
      const auto fractions = engine_.fractions(f);  // empty while every hop of every flow is 1
      if (!fractions.empty()) {
        result.fraction_pool.resize(result.path_pool.size(), 1.0);
        result.fraction_pool.insert(result.fraction_pool.end(), fractions.begin(), fractions.end());
      }
      for (const ConstraintId c : path) result.path_pool.push_back(c.value());
      path_size[r] = static_cast<std::uint32_t>(path.size());
    }
    std::vector<std::uint8_t> down(result.resources.size());
    for (std::uint32_t c = 0; c < result.resources.size(); ++c) {
      const ConstraintId id(c);
      result.stats[c].carried_bits = engine_.carried_bits(id);
      result.stats[c].peak_bps = engine_.peak_load(id);
      down[c] = engine_.capacity(id) <= 0 ? 1 : 0;
    }
    result.solves = engine_.solve_count();
    result.solved_flows = engine_.solved_flows();
    engine_ = FlowEngine();  // nothing reads or adds to the engine after this (rec_.resource() would)

    result.fraction_pool.resize(result.path_pool.size(), 1.0);
    const std::function<bool(std::uint32_t)> is_down = [&down](std::uint32_t c) { return down[c] != 0; };
    std::size_t next_left = 0;
    for (std::uint32_t r = 0; r < records; ++r) {
      FlowOutcome outcome;
      outcome.start = times[r].first;
      outcome.end = times[r].second;
      outcome.started = outcome.start.value() >= 0;
      outcome.done = outcome.end.value() >= 0;
      if (!outcome.done) outcome.bits_left = left[next_left++].second;
      rec_.finish_record(r, outcome, path_size[r], is_down);
    }
    rec_.close(faults_.last_event());
    rec_.add_statistics(o_.series_links, o_.series_bins);
  }

  const Topology& t_;
  const Scenario& s_;
  const Workload& w_;
  SimulationOptions o_;
  FlowRouter router_;
  FaultTimeline faults_;
  FlowEngine engine_;
  ResultRecorder rec_;  // after engine_: it makes the engine's constraints
  std::string error_;
  std::uint64_t done_ = 0;
  // The flows route() took last, in its order: their network hops (directed links, CSR), each
  // hop's fraction (none kept while every one is 1: `unit`), and whether each reached its
  // destination.
  struct RoutedHops {
    std::vector<std::uint32_t> begin{0};
    std::vector<std::uint32_t> link;
    bool unit = true;
    std::vector<double> fraction;  // parallel to `link` unless `unit`
    std::vector<std::uint8_t> reached;
    void clear() {
      begin.assign(1, 0);
      link.clear();
      unit = true;
      fraction.clear();
      reached.clear();
    }
  };
  RoutedHops routed_;
  std::vector<std::uint32_t> position_;  // route(): a part's flows' places in its FlowRoutes
};

}  // namespace

Result<SimulationResult> run(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                             const SimulationOptions& options) {
  assert(options.flow.max_min_weights.empty() || options.flow.max_min_weights.size() == workload.flows.size());
  return Driver(fabric, scenario, workload, options).run();
}

}  // namespace ct::flow_engine
