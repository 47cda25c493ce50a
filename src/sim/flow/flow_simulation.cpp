#include "sim/flow/flow_simulation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "routing/forwarding_state.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "routing/port_address.h"
#include "sim/collision_check.h"
#include "sim/flow/flow_engine.h"
#include "traffic/scenario_checks.h"
#include "workload/flow_table_workload.h"
#include "workload/workload_compiler.h"

namespace ct {
namespace {

constexpr double kSaturated = 0.999;  // a constraint this full counts as saturated
constexpr std::size_t kSeriesLogLimit = 16'000'000;  // load changes kept for time series
// The barrier constraint's capacity: any positive figure, it carries zero-byte flows only.
constexpr BitsPerSecond kBarrierCapacity{1'000'000'000'000};

Scheme scheme_of(PathModel p) {
  switch (p) {
    case PathModel::kEcmp: return Scheme::kHash;
    case PathModel::kSpray: return Scheme::kSpray;
    case PathModel::kAdaptive: return Scheme::kAdaptive;
  }
  return Scheme::kHash;
}

class Driver {
 public:
  Driver(const Fabric& fabric, const Scenario& scenario, const Workload& workload, const SimulationOptions& options)
      : fabric_(fabric),
        t_(fabric.topology()),
        s_(scenario),
        w_(workload),
        o_(options),
        scheme_(scheme_of(scenario.paths)),
        walker_(&fabric.walker()),
        addressable_(addressable(t_)) {
    directed_.assign(2 * t_.link_count(), kNoIndex);
    routing_down_.assign(t_.link_count(), 0);
    const auto gpus = static_cast<std::size_t>(t_.host_count) * static_cast<std::size_t>(std::max(t_.gpus_per_host, 1));
    nvlink_out_.assign(gpus, kNoIndex);
    nvlink_in_.assign(gpus, kNoIndex);
    if (const auto& nvlink = fabric.spec().node.nvlink_bytes_per_s) {
      // The catalog's figure (bytes/s, both directions added) made a typed rate once, per direction.
      nvlink_direction_ = BitsPerSecond(std::llround(*nvlink / 2 * 8));
    }
  }

  Result<SimulationResult> run() {
    result_.operations.reserve(w_.operations.size());
    for (const WorkloadOperation& op : w_.operations) {
      OperationResult o;
      static_cast<OperationIdentity&>(o) = op;
      o.iterations.resize(op.iterations);
      o.flows_begin = op.records_begin;
      o.flows_end = op.records_end;
      result_.operations.push_back(std::move(o));
    }
    for (const WorkloadPhase& p : w_.phases) result_.phases.push_back({p.name, p.start, TimePs(-1), p.workers_begin, p.workers_end});
    result_.workers = w_.workers;
    result_.notes = w_.notes;
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
  std::uint32_t add_constraint(const ConstraintInfo& info, TimePs latency) {
    engine_.add_constraint(info.capacity, latency);
    result_.constraints.push_back(info);
    result_.stats.emplace_back();
    last_change_.push_back(TimePs(0));
    last_load_.push_back(0.0);
    last_capacity_.push_back(0.0);
    return static_cast<std::uint32_t>(result_.constraints.size() - 1);
  }

  std::uint32_t directed(std::uint32_t directed_link) {
    std::uint32_t& slot = directed_[directed_link];
    if (slot == kNoIndex) {
      const LinkId l(directed_link / 2);
      ConstraintInfo info;
      info.kind = directed_link % 2 == 0 ? ConstraintKind::kLinkUp : ConstraintKind::kLinkDown;
      info.link = l;
      info.capacity = t_.capacity[l.value()];
      slot = add_constraint(info, t_.latency[l.value()]);
    }
    return slot;
  }

  std::uint32_t nvlink(std::uint32_t gpu, bool out) {
    std::uint32_t& slot = (out ? nvlink_out_ : nvlink_in_)[gpu];
    if (slot == kNoIndex) {
      ConstraintInfo info;
      info.kind = out ? ConstraintKind::kNvlinkOut : ConstraintKind::kNvlinkIn;
      info.gpu = gpu;
      info.capacity = nvlink_direction_;
      slot = add_constraint(info, TimePs(0));
    }
    return slot;
  }

  std::uint32_t barrier() {
    if (barrier_ == kNoIndex) {
      ConstraintInfo info;
      info.kind = ConstraintKind::kBarrier;
      info.capacity = kBarrierCapacity;
      barrier_ = add_constraint(info, TimePs(0));
    }
    return barrier_;
  }

  std::uint32_t constraint(const Hop& h) {
    switch (h.kind) {
      case ConstraintKind::kLinkUp: return directed(directed_link(LinkId(h.index), true));
      case ConstraintKind::kLinkDown: return directed(directed_link(LinkId(h.index), false));
      case ConstraintKind::kNvlinkOut: return nvlink(h.index, true);
      case ConstraintKind::kNvlinkIn: return nvlink(h.index, false);
      case ConstraintKind::kBarrier: return barrier();
    }
    return barrier();
  }

  // ---- faults ----
  void schedule_faults() {
    for (std::uint32_t i = 0; i < s_.faults.size(); ++i) {
      const FaultSpec& f = s_.faults[i];
      for (const LinkId l : f.links) {
        for (const std::uint32_t d : {directed_link(l, true), directed_link(l, false)}) {
          engine_.schedule_capacity(ConstraintId(directed(d)), f.at, f.fraction);
        }
      }
      if (f.kind != FaultKind::kDegrade) engine_.schedule_timer(f.at + f.convergence, i);
    }
  }

  // Routing has converged after fault `i`: new forwarding state, every unfinished flow walked again.
  void converge(std::uint32_t i) {
    const FaultSpec& f = s_.faults[i];
    for (const LinkId l : f.links) routing_down_[l.value()] = f.kind == FaultKind::kDown ? 1 : 0;
    std::vector<LinkId> down;
    for (std::uint32_t l = 0; l < routing_down_.size(); ++l) {
      if (routing_down_[l] != 0) down.push_back(LinkId(l));
    }
    converged_walker_.reset();
    converged_forwarding_ = std::make_unique<ForwardingState>(t_, down);
    converged_walker_ = std::make_unique<PathWalker>(*converged_forwarding_, fabric_.hashes());
    walker_ = converged_walker_.get();
    std::vector<std::uint32_t> moving;
    std::vector<std::uint32_t> moving_flows;
    for (std::uint32_t r = 0; r < result_.flows.size(); ++r) {
      if (!w_.flows[flow_of_record_[r]].routed || engine_.state(FlowId(flow_of_record_[r])) == FlowState::kDone) continue;
      moving.push_back(r);
      moving_flows.push_back(flow_of_record_[r]);
    }
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = route(moving_flows, position);
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
  // Routes the network flows `flows` (workload indices) together; `position[k]`: flows[k]'s index
  // in the result. Adaptive routing places flows one after the other, each on the least-loaded
  // members, so it takes them in an order of what they are (ends, source port, bytes, start,
  // weight; then their order), never of the order the input listed them in: a shuffled flow
  // table routes as the original (docs/models/ecmp.md, "Source ports of simulated flows"). Hashing
  // and spraying route each flow alone, in flow order.
  FlowRoutes route(const std::vector<std::uint32_t>& flows, std::vector<std::uint32_t>& position) const {
    std::vector<std::uint32_t> order(flows.size());
    std::iota(order.begin(), order.end(), 0U);
    if (scheme_ == Scheme::kAdaptive) {
      const auto identity = [&](std::uint32_t k) {
        const WorkloadFlow& f = w_.flows[flows[k]];
        return std::tuple(f.src_port.value(), f.dst_port.value(), f.src_udp_port, f.bytes.value(), f.start.value(), f.weight);
      };
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return identity(a) < identity(b); });
    }
    std::vector<RouteRequest> requests;
    requests.reserve(flows.size());
    position.assign(flows.size(), 0);
    for (std::uint32_t i = 0; i < order.size(); ++i) {
      const WorkloadFlow& f = w_.flows[flows[order[i]]];
      requests.push_back({f.src_port, f.dst_port, key_of(f.src_port, f.dst_port, f.src_udp_port), 1});
      position[order[i]] = i;
    }
    return route_flows(scheme_, *walker_, requests, {1, s_.seed, 0});
  }

  [[nodiscard]] FlowKey key_of(VertexId src, VertexId dst, std::uint16_t src_udp_port) const {
    FlowKey k;
    k.src_ip = addressable_ ? port_address(t_, src) : src.value();
    k.dst_ip = addressable_ ? port_address(t_, dst) : dst.value();
    k.src_port = src_udp_port;
    return k;
  }

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
    // The fixed paths of the batch's unrouted flows, one after the other in flow order.
    std::vector<ConstraintId> fixed;
    std::vector<std::uint32_t> routed_flows;
    for (std::uint32_t f = first; f < end; ++f) {
      const WorkloadFlow& wf = w_.flows[f];
      if (wf.routed) {
        routed_flows.push_back(f);
        continue;
      }
      for (const Hop& h : w_.hops_of(f)) fixed.push_back(ConstraintId(constraint(h)));
    }
    std::size_t fixed_at = 0;
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = route(routed_flows, position);
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
        request.path = std::span<const ConstraintId>(fixed.data() + fixed_at, wf.hops_size);
        fixed_at += wf.hops_size;
      }
      after.clear();
      for (const std::uint32_t a : w_.after_of(f)) after.push_back(FlowId(a));
      request.size = wf.bytes;
      request.weight = wf.weight;
      request.start = wf.start;
      request.after = after;
      request.delay = wf.delay;
      const FlowId id = engine_.add_flow(request);
      if (wf.internal) continue;
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
    const bool series = o_.series_links > 0;
    engine_.set_on_load([this, series](ConstraintId c, TimePs at, double load) {
      const std::uint32_t i = c.value();
      if (was_saturated(i)) result_.stats[i].saturated += at - last_change_[i];
      last_change_[i] = at;
      last_load_[i] = load;
      last_capacity_[i] = engine_.capacity(c);
      if (series && log_constraint_.size() < kSeriesLogLimit) {
        log_constraint_.push_back(i);
        log_time_.push_back(at);
        log_load_.push_back(load);
      }
    });
  }

  // Saturated since the last load change: at >= 99.9 % of the capacity it had then (a degraded link
  // at its reduced capacity is the bottleneck it is; an idle failed link is not).
  [[nodiscard]] bool was_saturated(std::uint32_t c) const {
    return last_load_[c] > 0.0 && last_load_[c] >= kSaturated * last_capacity_[c];
  }

  // When an unfinished flow stopped: the earliest time one of its constraints reached capacity 0
  // for good (its load changed then, as its flows stalled); -1 when none did.
  [[nodiscard]] TimePs stalled_since(FlowId f) const {
    TimePs since{-1};
    for (const ConstraintId c : engine_.path(f)) {
      if (engine_.capacity(c) > 0) continue;
      const TimePs at = last_change_[c.value()];
      if (since.value() < 0 || at < since) since = at;
    }
    return since;
  }

  void collect() {
    TimePs makespan{0};
    TimePs last_event{0};  // the last instant at which anything happened (a start, a completion, a fault)
    std::uint64_t stalled = 0;
    std::uint64_t waiting = 0;
    for (const FaultSpec& fault : s_.faults) {
      last_event = std::max(last_event, fault.kind == FaultKind::kDegrade ? fault.at : fault.at + fault.convergence);
    }
    std::size_t hops = 0;
    for (const std::uint32_t f : flow_of_record_) hops += engine_.path(FlowId(f)).size();
    result_.path_pool.reserve(hops);
    result_.fraction_pool.reserve(hops);
    for (std::uint32_t r = 0; r < result_.flows.size(); ++r) {
      FlowRecord& rec = result_.flows[r];
      const FlowId f(flow_of_record_[r]);
      if (engine_.state(f) != FlowState::kWaiting) {
        rec.start = engine_.start_time(f);
        last_event = std::max(last_event, rec.start);
      }
      if (engine_.state(f) == FlowState::kDone) {
        rec.end = engine_.completion_time(f);
        makespan = std::max(makespan, rec.end);
      } else {
        rec.bits_left = engine_.remaining_bits(f);
        if (engine_.state(f) == FlowState::kWaiting) {
          rec.unfinished = Unfinished::kWaiting;
          ++waiting;
        } else {
          rec.unfinished = Unfinished::kStalled;
          rec.stalled = std::max(stalled_since(f), rec.start);
          ++stalled;
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
      if (rec.operation >= result_.operations.size()) continue;
      OperationResult& op = result_.operations[rec.operation];
      IterationSpan& span = op.iterations[rec.iteration];
      if (rec.start.value() >= 0 && (span.start.value() < 0 || rec.start < span.start)) span.start = rec.start;
      if (rec.end.value() < 0) op.complete = false;
      span.end = std::max(span.end, rec.end);
    }
    if (stalled + waiting > 0) {
      // Nothing happens after the last event: the run is unbounded, not as long as the engine's
      // clock (which may have passed stale completion times of stalled flows).
      makespan = std::max(makespan, last_event);
      result_.unbounded = true;
      if (stalled > 0) {
        result_.notes.push_back(fmt::format("{} flow(s) never finish: every path they had failed and routing found "
                                            "no other; they stalled with bytes left (see the flows CSV)",
                                            stalled));
      }
      if (waiting > 0) {
        result_.notes.push_back(fmt::format("{} flow(s) never started: they wait for flows that never finish", waiting));
      }
    }
    result_.makespan = makespan;
    for (PhaseResult& phase : result_.phases) phase.end = TimePs(-1);
    for (const OperationResult& op : result_.operations) {
      if (op.kind == OperationKind::kMice) continue;
      PhaseResult& phase = result_.phases[op.phase];
      for (const IterationSpan& span : op.iterations) phase.end = std::max(phase.end, span.end);
      if (op.kind == OperationKind::kTransfer) {
        const TimePs first = op.iterations.front().start;
        if (phase.start.value() < 0 || (first.value() >= 0 && first < phase.start)) phase.start = first;
      }
      if (!op.complete) phase.end = makespan;
    }
    for (std::uint32_t c = 0; c < result_.constraints.size(); ++c) {
      const ConstraintId id(c);
      result_.stats[c].carried_bits = engine_.carried_bits(id);
      result_.stats[c].peak_bps = engine_.peak_load(id);
      if (was_saturated(c)) result_.stats[c].saturated += makespan - last_change_[c];
    }
    result_.solves = engine_.solve_count();
    result_.solved_flows = engine_.solved_flows();
    build_series();
  }

  void build_series() {
    if (o_.series_links == 0 || result_.makespan.value() <= 0) return;
    if (log_constraint_.size() >= kSeriesLogLimit) {
      result_.notes.push_back("load time series dropped: more than 16 million load changes");
      return;
    }
    std::vector<std::uint32_t> order = busiest_constraints(result_);
    order.resize(std::min<std::size_t>(order.size(), o_.series_links));
    const std::int64_t bins = std::max<std::uint32_t>(o_.series_bins, 1);
    const std::int64_t width = (result_.makespan.value() + bins - 1) / bins;
    result_.series_bin = TimePs(width);
    std::vector<std::uint32_t> slot(result_.constraints.size(), kNoIndex);
    for (std::uint32_t k = 0; k < order.size(); ++k) {
      slot[order[k]] = k;
      result_.series.push_back({order[k], std::vector<double>(static_cast<std::size_t>(bins), 0.0)});
    }
    std::vector<TimePs> since(order.size(), TimePs(0));
    std::vector<double> load(order.size(), 0.0);
    // Integrates a piecewise-constant load over [from, to) into the bins.
    auto integrate = [&](std::uint32_t k, TimePs from, TimePs to) {
      if (load[k] == 0) return;
      const auto cap = static_cast<double>(result_.constraints[result_.series[k].constraint].capacity.value());
      for (std::int64_t t = from.value(); t < to.value();) {
        const std::int64_t bin = t / width;
        const std::int64_t end = std::min(to.value(), (bin + 1) * width);
        result_.series[k].utilization[static_cast<std::size_t>(bin)] +=
            load[k] / cap * static_cast<double>(end - t) / static_cast<double>(width);
        t = end;
      }
    };
    for (std::size_t e = 0; e < log_constraint_.size(); ++e) {
      const std::uint32_t k = slot[log_constraint_[e]];
      if (k == kNoIndex) continue;
      integrate(k, since[k], log_time_[e]);
      since[k] = log_time_[e];
      load[k] = log_load_[e];
    }
    for (std::uint32_t k = 0; k < order.size(); ++k) integrate(k, since[k], result_.makespan);
  }

  const Fabric& fabric_;
  const Topology& t_;
  const Scenario& s_;
  const Workload& w_;
  SimulationOptions o_;
  Scheme scheme_;
  const PathWalker* walker_;  // the fabric's, until routing converges after a fault
  std::unique_ptr<ForwardingState> converged_forwarding_;
  std::unique_ptr<PathWalker> converged_walker_;
  bool addressable_ = false;
  BitsPerSecond nvlink_direction_{0};
  FlowEngine engine_;
  SimulationResult result_;
  std::string error_;

  std::vector<std::uint32_t> directed_;  // directed link -> constraint
  std::vector<std::uint32_t> nvlink_out_;
  std::vector<std::uint32_t> nvlink_in_;
  std::uint32_t barrier_ = kNoIndex;
  std::vector<std::uint8_t> routing_down_;  // links routing has converged around

  std::vector<std::uint32_t> flow_of_record_;
  std::vector<std::uint32_t> record_of_flow_;  // workload flow -> record, kNoIndex for internal flows
  std::uint64_t done_ = 0;

  std::vector<TimePs> last_change_;
  std::vector<double> last_load_;
  std::vector<double> last_capacity_;  // bits/s at the last load change
  std::vector<std::uint32_t> log_constraint_;
  std::vector<TimePs> log_time_;
  std::vector<double> log_load_;
};

}  // namespace

Result<SimulationResult> run_workload(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                                      const SimulationOptions& options) {
  auto result = Driver(fabric, scenario, workload, options).run();
  if (result) mark_collisions(fabric.topology(), result.value());
  return result;
}

Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const SimulationOptions& options) {
  return simulate(fabric, scenario, nullptr, options);
}

Result<SimulationResult> simulate(const Fabric& fabric, const Scenario& scenario, const FlowTable* flows,
                                  const SimulationOptions& options) {
  if (Diagnostics problems = scenario_diagnostics(scenario, fabric.topology()); !problems.empty()) return problems;
  auto workload = compile_workload(fabric, scenario, {options.max_flows});
  if (!workload) return workload.errors();
  if (flows != nullptr) {
    if (workload->flows.size() + flows->flows.size() > options.max_flows) {
      return Diagnostic{{flows->file, 0, 0}, "flows",
                        fmt::format("{} flows with the scenario's, more than the limit of {}",
                                    workload->flows.size() + flows->flows.size(), options.max_flows)};
    }
    if (auto appended = append_flow_table(fabric, scenario, *flows, workload.value()); !appended) return appended.errors();
  }
  return run_workload(fabric, scenario, workload.value(), options);
}

}  // namespace ct
