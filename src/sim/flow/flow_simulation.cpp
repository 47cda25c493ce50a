#include "sim/flow/flow_simulation.h"

#include <algorithm>
#include <cassert>
#include <cmath>
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
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = router_.route(moving_flows, position);
    std::vector<ConstraintId> path;
    std::vector<double> fractions;
    for (std::uint32_t k = 0; k < moving_flows.size(); ++k) {
      if (routes.reached[position[k]] == 0) continue;
      const std::uint32_t workload_flow = moving_flows[k];
      routed_path(routes, position[k], workload_flow, path, fractions);
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
  // The engine path of a routed flow: its fixed hops (the PXN NVLink hop, if any), then its
  // network hops from `routes`.
  void routed_path(const FlowRoutes& routes, std::size_t sub, std::uint32_t flow, std::vector<ConstraintId>& path,
                   std::vector<double>& fractions) {
    path.clear();
    fractions.clear();
    for (const Hop& h : w_.hops_of(flow)) {
      path.push_back(ConstraintId(rec_.resource(h)));
      fractions.push_back(1.0);
    }
    const auto links = routes.links(sub);
    const auto fraction = routes.fractions(sub);
    for (std::size_t h = 0; h < links.size(); ++h) {
      path.push_back(directed(links[h]));
      fractions.push_back(std::min(1.0, fraction[h]));
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
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = router_.route(routed_flows, position);
    std::size_t hop_count = fixed.size() + routes.link.size();
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
        if (routes.reached[position[routed]] == 0 && error_.empty()) {
          error_ = fmt::format("no path from {} to {} on the healthy fabric", t_.vertex_name(wf.src_port),
                               t_.vertex_name(wf.dst_port));
        }
        routed_path(routes, position[routed++], f, path, fractions);
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

  void collect() {
    for (std::uint32_t c = 0; c < engine_.constraint_count(); ++c) {
      const ConstraintId id(c);
      rec_.link_stats().set_resource(c, engine_.saturated_time(id), engine_.last_load_change(id), engine_.load(id),
                                     engine_.load_capacity(id));
    }
    SimulationResult& result = rec_.result();
    std::size_t hops = 0;
    for (std::uint32_t r = 0; r < rec_.record_count(); ++r) hops += engine_.path(FlowId(rec_.flow_of(r))).size();
    result.path_pool.reserve(hops);
    result.fraction_pool.reserve(hops);
    std::vector<std::uint32_t> path;
    const auto is_down = [this](std::uint32_t c) { return engine_.capacity(ConstraintId(c)) <= 0; };
    for (std::uint32_t r = 0; r < rec_.record_count(); ++r) {
      const FlowId f(rec_.flow_of(r));
      FlowOutcome outcome;
      outcome.started = engine_.state(f) != FlowState::kWaiting;
      outcome.done = engine_.state(f) == FlowState::kDone;
      if (outcome.started) outcome.start = engine_.start_time(f);
      if (outcome.done) {
        outcome.end = engine_.completion_time(f);
      } else {
        outcome.bits_left = engine_.remaining_bits(f);
      }
      path.clear();
      for (const ConstraintId c : engine_.path(f)) path.push_back(c.value());
      rec_.finish_record(r, outcome, path, engine_.fractions(f), is_down);
    }
    rec_.close(faults_.last_event());
    for (std::uint32_t c = 0; c < result.resources.size(); ++c) {
      const ConstraintId id(c);
      result.stats[c].carried_bits = engine_.carried_bits(id);
      result.stats[c].peak_bps = engine_.peak_load(id);
    }
    result.solves = engine_.solve_count();
    result.solved_flows = engine_.solved_flows();
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
};

}  // namespace

Result<SimulationResult> run(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                             const SimulationOptions& options) {
  assert(options.flow.max_min_weights.empty() || options.flow.max_min_weights.size() == workload.flows.size());
  return Driver(fabric, scenario, workload, options).run();
}

}  // namespace ct::flow_engine
