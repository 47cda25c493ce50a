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
#include "sim/result_closing.h"

namespace ct::flow_engine {
namespace {

// The barrier constraint's capacity: any positive figure, it carries zero-byte flows only.
constexpr BitsPerSecond kBarrierCapacity{1'000'000'000'000};

class Driver {
 public:
  Driver(const Fabric& fabric, const Scenario& scenario, const Workload& workload, const SimulationOptions& options)
      : t_(fabric.topology()),
        s_(scenario),
        w_(workload),
        o_(options),
        router_(fabric, scenario, workload, options.flow.max_min_weights),
        faults_(scenario, fabric.topology().link_count()),
        link_stats_(options.series_links > 0) {
    directed_.assign(2 * t_.link_count(), kNoIndex);
    const auto gpus = static_cast<std::size_t>(t_.host_count) * static_cast<std::size_t>(std::max(t_.gpus_per_host, 1));
    nvlink_out_.assign(gpus, kNoIndex);
    nvlink_in_.assign(gpus, kNoIndex);
    if (const auto& nvlink = fabric.spec().node.nvlink_bytes_per_s) {
      // The catalog's figure (bytes/s, both directions added) made a typed rate once, per direction.
      nvlink_direction_ = BitsPerSecond(std::llround(*nvlink / 2 * 8));
    }
  }

  Result<SimulationResult> run() {
    open_result(result_, w_);
    schedule_faults();
    record_of_flow_.assign(w_.flows.size(), kNoIndex);
    result_.flows.reserve(w_.flows.size());
    flow_of_record_.reserve(w_.flows.size());
    for (std::uint32_t b = 0; b < w_.batch_count(); ++b) add_batch(w_.batch_begin[b], w_.batch_begin[b + 1]);
    if (!error_.empty()) return Diagnostic{{s_.file, 0, 0}, "scenario", error_};
    observe();
    engine_.set_on_completion([this](FlowId) { ++done_; });
    engine_.set_on_timer([this](std::uint32_t fault) { converge(fault); });
    std::uint64_t instants = 0;
    while (engine_.step()) {
      if (++instants % 4096 == 0 && o_.progress != nullptr) {
        o_.progress->update(done_, result_.flows.size(), engine_.now());
      }
    }
    result_.instants = instants;
    collect();
    return std::move(result_);
  }

 private:
  // ---- constraints, created on first use ----
  std::uint32_t add_constraint(const ResourceInfo& info, TimePs latency) {
    engine_.add_constraint(info.capacity, latency);
    result_.resources.push_back(info);
    result_.stats.emplace_back();
    link_stats_.add_resource();
    return static_cast<std::uint32_t>(result_.resources.size() - 1);
  }

  std::uint32_t directed(std::uint32_t directed_link) {
    std::uint32_t& slot = directed_[directed_link];
    if (slot == kNoIndex) {
      const LinkId l(directed_link / 2);
      ResourceInfo info;
      info.kind = directed_link % 2 == 0 ? ResourceKind::kLinkUp : ResourceKind::kLinkDown;
      info.link = l;
      info.capacity = t_.capacity[l.value()];
      slot = add_constraint(info, t_.latency[l.value()]);
    }
    return slot;
  }

  std::uint32_t nvlink(std::uint32_t gpu, bool out) {
    std::uint32_t& slot = (out ? nvlink_out_ : nvlink_in_)[gpu];
    if (slot == kNoIndex) {
      ResourceInfo info;
      info.kind = out ? ResourceKind::kNvlinkOut : ResourceKind::kNvlinkIn;
      info.gpu = gpu;
      info.capacity = nvlink_direction_;
      slot = add_constraint(info, TimePs(0));
    }
    return slot;
  }

  std::uint32_t barrier() {
    if (barrier_ == kNoIndex) {
      ResourceInfo info;
      info.kind = ResourceKind::kBarrier;
      info.capacity = kBarrierCapacity;
      barrier_ = add_constraint(info, TimePs(0));
    }
    return barrier_;
  }

  std::uint32_t constraint(const Hop& h) {
    switch (h.kind) {
      case HopKind::kLinkUp: return directed(directed_link(LinkId(h.index), true));
      case HopKind::kLinkDown: return directed(directed_link(LinkId(h.index), false));
      case HopKind::kNvlinkOut: return nvlink(h.index, true);
      case HopKind::kNvlinkIn: return nvlink(h.index, false);
    }
    return barrier();
  }

  // ---- faults ----
  void schedule_faults() {
    for (const FaultEvent& e : faults_.events()) {
      if (e.kind == FaultEvent::Kind::kReconverge) {
        engine_.schedule_timer(e.at, e.fault);
        continue;
      }
      for (const std::uint32_t d : {directed_link(e.link, true), directed_link(e.link, false)}) {
        engine_.schedule_capacity(ConstraintId(directed(d)), e.at, e.fraction);
      }
    }
  }

  // Routing has converged after fault `i`: new forwarding state, every unfinished flow walked again.
  void converge(std::uint32_t i) {
    router_.converge(faults_.reconverge(i));
    std::vector<std::uint32_t> moving;
    std::vector<std::uint32_t> moving_flows;
    for (std::uint32_t r = 0; r < result_.flows.size(); ++r) {
      if (!w_.flows[flow_of_record_[r]].routed || engine_.state(FlowId(flow_of_record_[r])) == FlowState::kDone) continue;
      moving.push_back(r);
      moving_flows.push_back(flow_of_record_[r]);
    }
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = router_.route(moving_flows, position);
    std::vector<ConstraintId> path;
    std::vector<double> fractions;
    for (std::uint32_t k = 0; k < moving.size(); ++k) {
      if (routes.reached[position[k]] == 0) continue;
      const std::uint32_t workload_flow = moving_flows[k];
      routed_path(routes, position[k], workload_flow, path, fractions);
      const FlowId flow(workload_flow);
      const auto now_path = engine_.path(flow);
      const auto now_fractions = engine_.fractions(flow);
      if (std::equal(path.begin(), path.end(), now_path.begin(), now_path.end()) &&
          std::equal(fractions.begin(), fractions.end(), now_fractions.begin(), now_fractions.end())) {
        continue;
      }
      engine_.move_flow(flow, path, fractions);
      if (result_.flows[moving[k]].reroutes++ == 0) ++result_.rerouted_flows;
      ++result_.reroutes;
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
      path.push_back(ConstraintId(constraint(h)));
      fractions.push_back(1.0);
    }
    const auto links = routes.links(sub);
    const auto fraction = routes.fractions(sub);
    for (std::size_t h = 0; h < links.size(); ++h) {
      path.push_back(ConstraintId(directed(links[h])));
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
      if (wf.join) fixed.push_back(ConstraintId(barrier()));
      for (const Hop& h : w_.hops_of(f)) fixed.push_back(ConstraintId(constraint(h)));
    }
    std::size_t fixed_at = 0;
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = router_.route(routed_flows, position);
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
        if (path.empty()) path.push_back(ConstraintId(directed(directed_link(LinkId(wf.src_port.value()), true))));
        fractions.resize(path.size(), 1.0);
        request.path = path;
        request.fraction = fractions;
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
      const FlowId id = engine_.add_flow(request);
      if (wf.join) continue;
      record_of_flow_[f] = static_cast<std::uint32_t>(result_.flows.size());
      flow_of_record_.push_back(id.value());
      FlowRecord& r = result_.flows.emplace_back();
      static_cast<FlowIdentity&>(r) = wf;
      r.delay = wf.delay;
      r.pinned = !wf.routed && wf.src_port.valid();
      r.after_begin = static_cast<std::uint32_t>(result_.after_pool.size());
      for (const std::uint32_t a : w_.after_of(f)) {
        if (record_of_flow_[a] != kNoIndex) result_.after_pool.push_back(record_of_flow_[a]);
      }
      r.after_size = static_cast<std::uint32_t>(result_.after_pool.size() - r.after_begin);
    }
  }

  // ---- statistics ----
  void observe() {
    engine_.set_on_load([this](ConstraintId c, TimePs at, double load) {
      link_stats_.on_load(c.value(), at, load, engine_.capacity(c));
    });
  }

  // When an unfinished flow stopped: the earliest time one of its constraints reached capacity 0
  // for good (its load changed then, as its flows stalled); -1 when none did.
  [[nodiscard]] TimePs stalled_since(FlowId f) const {
    TimePs since{-1};
    for (const ConstraintId c : engine_.path(f)) {
      if (engine_.capacity(c) > 0) continue;
      const TimePs at = link_stats_.last_change(c.value());
      if (since.value() < 0 || at < since) since = at;
    }
    return since;
  }

  void collect() {
    std::size_t hops = 0;
    for (const std::uint32_t f : flow_of_record_) hops += engine_.path(FlowId(f)).size();
    result_.path_pool.reserve(hops);
    result_.fraction_pool.reserve(hops);
    for (std::uint32_t r = 0; r < result_.flows.size(); ++r) {
      FlowRecord& rec = result_.flows[r];
      const FlowId f(flow_of_record_[r]);
      if (engine_.state(f) != FlowState::kWaiting) rec.start = engine_.start_time(f);
      if (engine_.state(f) == FlowState::kDone) {
        rec.end = engine_.completion_time(f);
      } else {
        rec.bits_left = engine_.remaining_bits(f);
        if (engine_.state(f) == FlowState::kWaiting) {
          rec.unfinished = Unfinished::kWaiting;
        } else {
          rec.unfinished = Unfinished::kStalled;
          rec.stalled = std::max(stalled_since(f), rec.start);
        }
      }
      rec.path_begin = static_cast<std::uint32_t>(result_.path_pool.size());
      const auto fractions = engine_.fractions(f);
      std::size_t hop = 0;
      for (const ConstraintId c : engine_.path(f)) {
        result_.path_pool.push_back(c.value());
        result_.fraction_pool.push_back(hop < fractions.size() ? fractions[hop] : 1.0);
        ++hop;
        ++result_.stats[c.value()].flows;
      }
      rec.path_size = static_cast<std::uint32_t>(engine_.path(f).size());
    }
    close_result(result_, faults_.last_event());
    const TimePs makespan = result_.makespan;
    for (std::uint32_t c = 0; c < result_.resources.size(); ++c) {
      const ConstraintId id(c);
      result_.stats[c].carried_bits = engine_.carried_bits(id);
      result_.stats[c].peak_bps = engine_.peak_load(id);
    }
    link_stats_.add_saturated(result_, makespan);
    result_.solves = engine_.solve_count();
    result_.solved_flows = engine_.solved_flows();
    link_stats_.add_series(result_, o_.series_links, o_.series_bins);
  }

  const Topology& t_;
  const Scenario& s_;
  const Workload& w_;
  SimulationOptions o_;
  FlowRouter router_;
  FaultTimeline faults_;
  LinkStatistics link_stats_;
  BitsPerSecond nvlink_direction_{0};
  FlowEngine engine_;
  SimulationResult result_;
  std::string error_;

  std::vector<std::uint32_t> directed_;  // directed link -> constraint
  std::vector<std::uint32_t> nvlink_out_;
  std::vector<std::uint32_t> nvlink_in_;
  std::uint32_t barrier_ = kNoIndex;

  std::vector<std::uint32_t> flow_of_record_;
  std::vector<std::uint32_t> record_of_flow_;  // workload flow -> record, kNoIndex for internal flows
  std::uint64_t done_ = 0;
};

}  // namespace

Result<SimulationResult> run(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                             const SimulationOptions& options) {
  assert(options.flow.max_min_weights.empty() || options.flow.max_min_weights.size() == workload.flows.size());
  return Driver(fabric, scenario, workload, options).run();
}

}  // namespace ct::flow_engine
