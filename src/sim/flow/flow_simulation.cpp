#include "sim/flow/flow_simulation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "core/rng.h"
#include "routing/forwarding_state.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "routing/port_address.h"
#include "routing/switch_hashes.h"
#include "sim/flow/flow_engine.h"
#include "traffic/collective.h"
#include "traffic/flow.h"

namespace ct {
namespace {

constexpr std::uint32_t kNone = 0xFFFF'FFFFU;
constexpr double kSaturated = 0.999;  // a constraint this full counts as saturated
constexpr std::uint64_t kMiceStream = 0x4D49'4345'0000;  // "MICE"
constexpr std::size_t kSeriesLogLimit = 16'000'000;    // load changes kept for time series

Scheme scheme_of(PathModel p) {
  switch (p) {
    case PathModel::kEcmp: return Scheme::kHash;
    case PathModel::kSpray: return Scheme::kSpray;
    case PathModel::kAdaptive: return Scheme::kAdaptive;
  }
  return Scheme::kHash;
}

std::string gpu_name(const Topology& t, std::uint32_t gpu) {
  const auto g = static_cast<std::uint32_t>(t.gpus_per_host);
  return fmt::format("host{}/gpu{}", gpu / g, gpu % g);
}

// A flow waiting to be created: its record, its path when it is not routed by the fabric (NVLink,
// switch tree), and what it waits for.
struct Pending {
  FlowRecord record;
  bool routed = true;  // network flow: path from the path model
  std::uint32_t path_begin = 0;
  std::uint32_t path_size = 0;
  std::uint32_t after_begin = 0;
  std::uint32_t after_size = 0;
  TimePs start{0};
  TimePs delay{0};
  std::uint32_t group = kNone;     // collective group and transfer whose flows this is one of
  std::uint32_t transfer = kNone;
};

struct Span {
  std::uint32_t first = kNone;  // first engine flow
  std::uint32_t count = 0;
};

class Simulator {
 public:
  Simulator(const SimulationFabric& fabric, const Scenario& scenario, const SimulationOptions& options)
      : t_(*fabric.topology),
        fabric_(fabric),
        s_(scenario),
        o_(options),
        hashes_(t_, fabric.ecmp),
        scheme_(scheme_of(scenario.paths)) {
    forwarding_ = std::make_unique<ForwardingState>(t_);
    walker_ = std::make_unique<PathWalker>(*forwarding_, hashes_);
    directed_.assign(2 * t_.link_count(), kNone);
    routing_down_.assign(t_.link_count(), 0);
    addressable_ = addressable(t_);
    gpus_ = static_cast<std::uint32_t>(t_.host_count) * static_cast<std::uint32_t>(std::max(t_.gpus_per_host, 1));
  }

  Result<SimulationResult> run() {
    if (auto problem = check(); !problem.empty()) return Diagnostic{{s_.file, 0, 0}, "scenario", problem};
    schedule_faults();
    for (std::size_t i = 0; i < s_.collectives.size(); ++i) add_collective(i);
    add_transfers();
    for (std::size_t i = 0; i < s_.mice.size(); ++i) add_mice(i);
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
  // ---- checks before building anything ----
  std::string check() {
    std::uint64_t flows = 0;
    const std::uint64_t qps_default = std::max(1, fabric_.ecmp.qps_per_connection);
    for (const CollectiveSpec& c : s_.collectives) {
      for (const auto& group : c.groups) {
        const CollectiveShape shape = shape_of(c, group);
        const std::uint64_t qps = c.qps == 0 ? qps_default : c.qps;
        flows += c.iterations * (shape.algorithm == CollectiveAlgorithm::kSharp
                                     ? 4 * group.size() * shape.channels
                                     : planned_transfers(shape) * qps);
      }
      if (needs_nvlink(c) && !fabric_.nvlink_bytes_per_s) {
        return fmt::format("collective '{}' moves data between GPUs of one host, but the catalog gives no NVLink "
                           "bandwidth for this node model",
                           c.name);
      }
    }
    for (const TransferSpec& t : s_.transfers) {
      flows += std::uint64_t{std::max<std::uint32_t>(t.channels, 1)} * (t.qps == 0 ? qps_default : t.qps) *
               (t.src.is_port ? 1 : std::max(t_.planes, 1));
      if (!t.src.is_port && host_of(t.src.gpu) == host_of(t.dst.gpu) && !fabric_.nvlink_bytes_per_s) {
        return fmt::format("transfer '{}' is between GPUs of one host, but the catalog gives no NVLink bandwidth", t.name);
      }
    }
    for (const MiceSpec& m : s_.mice) flows += m.count;
    if (flows > o_.max_flows) {
      return fmt::format("the scenario needs about {} flows, more than the limit of {}; simulate fewer steps "
                         "(collectives[].steps), fewer iterations or fewer GPUs",
                         flows, o_.max_flows);
    }
    return {};
  }

  bool needs_nvlink(const CollectiveSpec& c) const {
    if (c.algorithm == CollectiveAlgorithm::kSharp) return false;
    for (const auto& group : c.groups) {
      std::set<std::uint32_t> hosts;
      for (const std::uint32_t g : group) {
        if (!hosts.insert(host_of(g)).second) return true;
      }
    }
    return false;
  }

  [[nodiscard]] std::uint32_t host_of(std::uint32_t gpu) const { return gpu / static_cast<std::uint32_t>(t_.gpus_per_host); }
  [[nodiscard]] int rail_of(std::uint32_t gpu) const {
    return static_cast<int>(gpu % static_cast<std::uint32_t>(t_.gpus_per_host)) * t_.ports_per_host / t_.gpus_per_host;
  }
  [[nodiscard]] VertexId port_of(std::uint32_t gpu, int plane) const {
    return t_.port_of(HostId(host_of(gpu)), rail_of(gpu), plane);
  }

  // The plane of channel c: channels cycle through a node's GPUs (and so its rails) first, then
  // move to the next plane, so that planes x rails channels use every NIC port once. `period`:
  // the most GPUs of the group on one host (the ring's rotation period).
  [[nodiscard]] int plane_of_channel(std::uint32_t c, std::uint32_t period) const {
    return static_cast<int>((c / std::max<std::uint32_t>(period, 1)) % static_cast<std::uint32_t>(std::max(t_.planes, 1)));
  }

  // One channel per NIC port the group's GPUs own: planes x distinct rails.
  [[nodiscard]] std::uint32_t default_channels(const std::vector<std::uint32_t>& group) const {
    std::set<int> rails;
    for (const std::uint32_t g : group) rails.insert(rail_of(g));
    return static_cast<std::uint32_t>(std::max(t_.planes, 1)) * static_cast<std::uint32_t>(std::max<std::size_t>(rails.size(), 1));
  }

  // PXN: a GPU sends to another host through the NIC on the destination's rail; when that is not
  // its own, the data first crosses NVLink to the GPU that owns it (NCCL's PXN, NCCL_PXN_DISABLE=0).
  // Returns that GPU, or kNoGpu when the source's own rail is the destination's.
  [[nodiscard]] std::uint32_t proxy_of(std::uint32_t src, std::uint32_t dst) const {
    const int rail = rail_of(dst);
    if (rail_of(src) == rail) return kNoGpu;
    const auto g = static_cast<std::uint32_t>(t_.gpus_per_host);
    const auto r = static_cast<std::uint32_t>(t_.ports_per_host);
    const std::uint32_t local = (static_cast<std::uint32_t>(rail) * g + r - 1) / r;
    return host_of(src) * g + local;
  }

  // The network part of a GPU-to-GPU flow between hosts: ports, proxy, on `plane`.
  void network_ends(FlowRecord& r, std::uint32_t src, std::uint32_t dst, int plane) const {
    r.src_port = t_.port_of(HostId(host_of(src)), rail_of(dst), plane);
    r.dst_port = port_of(dst, plane);
    r.via_gpu = proxy_of(src, dst);
  }

  CollectiveShape shape_of(const CollectiveSpec& c, const std::vector<std::uint32_t>& group) const {
    CollectiveShape shape;
    shape.kind = c.kind;
    shape.algorithm = c.algorithm;
    shape.bytes = c.bytes;
    shape.channels = c.channels == 0 ? default_channels(group) : c.channels;
    shape.steps_limit = c.steps;
    for (const std::uint32_t g : group) shape.node_of_rank.push_back(host_of(g));
    return shape;
  }

  // ---- constraints ----
  std::uint32_t add_constraint(const ConstraintInfo& info, TimePs latency) {
    engine_.add_constraint(BitsPerSecond(std::llround(info.capacity_bps)), latency);
    result_.constraints.push_back(info);
    result_.stats.emplace_back();
    last_change_.push_back(TimePs(0));
    last_load_.push_back(0.0);
    last_capacity_.push_back(0.0);
    return static_cast<std::uint32_t>(result_.constraints.size() - 1);
  }

  std::uint32_t directed(std::uint32_t directed_link) {
    std::uint32_t& slot = directed_[directed_link];
    if (slot == kNone) {
      const LinkId l(directed_link / 2);
      ConstraintInfo info;
      info.kind = directed_link % 2 == 0 ? ConstraintKind::kLinkUp : ConstraintKind::kLinkDown;
      info.link = l;
      info.capacity_bps = static_cast<double>(t_.capacity[l.value()].value());
      slot = add_constraint(info, t_.latency[l.value()]);
    }
    return slot;
  }

  std::uint32_t nvlink(std::uint32_t gpu, bool out) {
    auto& table = out ? nvlink_out_ : nvlink_in_;
    if (table.empty()) table.assign(gpus_, kNone);
    if (table[gpu] == kNone) {
      ConstraintInfo info;
      info.kind = out ? ConstraintKind::kNvlinkOut : ConstraintKind::kNvlinkIn;
      info.gpu = gpu;
      info.capacity_bps = *fabric_.nvlink_bytes_per_s / 2 * 8;
      table[gpu] = add_constraint(info, TimePs(0));
    }
    return table[gpu];
  }

  std::uint32_t barrier() {
    if (barrier_ == kNone) {
      ConstraintInfo info;
      info.kind = ConstraintKind::kBarrier;
      info.capacity_bps = 1e12;
      barrier_ = add_constraint(info, TimePs(0));
    }
    return barrier_;
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
    walker_.reset();
    forwarding_ = std::make_unique<ForwardingState>(t_, down);
    walker_ = std::make_unique<PathWalker>(*forwarding_, hashes_);
    std::vector<std::uint32_t> moving;
    std::vector<RouteRequest> requests;
    for (std::uint32_t r = 0; r < result_.flows.size(); ++r) {
      const FlowRecord& rec = result_.flows[r];
      if (!rec.src_port.valid() || engine_.state(FlowId(flow_of_record_[r])) == FlowState::kDone) continue;
      moving.push_back(r);
      requests.push_back({rec.src_port, rec.dst_port, key_of(rec), 1});
    }
    const FlowRoutes routes = route_flows(scheme_, *walker_, requests, {1, s_.seed, 0});
    std::vector<ConstraintId> path;
    std::vector<double> fractions;
    for (std::uint32_t k = 0; k < moving.size(); ++k) {
      if (routes.reached[k] == 0) continue;
      constraints_of(routes, k, path, fractions, result_.flows[moving[k]]);
      const FlowId flow(flow_of_record_[moving[k]]);
      const auto now_path = engine_.path(flow);
      const auto now_fractions = engine_.fractions(flow);
      if (std::equal(path.begin(), path.end(), now_path.begin(), now_path.end()) &&
          std::equal(fractions.begin(), fractions.end(), now_fractions.begin(), now_fractions.end())) {
        continue;
      }
      engine_.move_flow(flow, path, fractions);
      ++result_.flows[moving[k]].reroutes;
      ++result_.reroutes;
    }
  }

  // ---- flows ----
  [[nodiscard]] FlowKey key_of(const FlowRecord& r) const {
    FlowKey k;
    k.src_ip = addressable_ ? port_address(t_, r.src_port) : r.src_port.value();
    k.dst_ip = addressable_ ? port_address(t_, r.dst_port) : r.dst_port.value();
    k.src_port = r.src_udp_port;
    return k;
  }

  // The engine path of a routed flow: its PXN NVLink hop (if any), then its network hops.
  void constraints_of(const FlowRoutes& routes, std::size_t sub, std::vector<ConstraintId>& path,
                      std::vector<double>& fractions, const FlowRecord& r) {
    path.clear();
    fractions.clear();
    if (r.via_gpu != kNoGpu && !fabric_.nvlink_bytes_per_s && !pxn_noted_) {
      pxn_noted_ = true;
      result_.notes.push_back("PXN hops (NVLink to the GPU on the destination's rail) are left out: the catalog "
                              "gives no NVLink bandwidth for this node model");
    }
    if (r.via_gpu != kNoGpu && fabric_.nvlink_bytes_per_s) {
      path.push_back(ConstraintId(nvlink(r.src_gpu, true)));
      path.push_back(ConstraintId(nvlink(r.via_gpu, false)));
      fractions.assign(2, 1.0);
    }
    const auto links = routes.links(sub);
    const auto fraction = routes.fractions(sub);
    for (std::size_t h = 0; h < links.size(); ++h) {
      path.push_back(ConstraintId(directed(links[h])));
      fractions.push_back(std::min(1.0, fraction[h]));
    }
  }

  Pending& pend(FlowRecord record, TimePs start) {
    Pending p;
    p.record = record;
    p.start = start;
    p.after_begin = static_cast<std::uint32_t>(after_pool_.size());
    p.path_begin = static_cast<std::uint32_t>(path_pool_.size());
    pending_.push_back(p);
    return pending_.back();
  }
  void pend_after(Pending& p, Span span) {
    for (std::uint32_t k = 0; k < span.count; ++k) after_pool_.push_back(FlowId(span.first + k));
    p.after_size += span.count;
  }
  void pend_path(Pending& p, std::uint32_t constraint) {
    p.routed = false;
    path_pool_.push_back(ConstraintId(constraint));
    ++p.path_size;
  }

  // Routes the pending network flows as one batch and creates every pending flow, in order.
  void flush() {
    std::vector<RouteRequest> requests;
    for (const Pending& p : pending_) {
      if (p.routed) requests.push_back({p.record.src_port, p.record.dst_port, key_of(p.record), 1});
    }
    const FlowRoutes routes = route_flows(scheme_, *walker_, requests, {1, s_.seed, 0});
    std::vector<ConstraintId> path;
    std::vector<double> fractions;
    std::size_t routed = 0;
    for (Pending& p : pending_) {
      FlowRequest request;
      if (p.routed) {
        if (routes.reached[routed] == 0 && error_.empty()) {
          error_ = fmt::format("no path from {} to {} on the healthy fabric", t_.vertex_name(p.record.src_port),
                               t_.vertex_name(p.record.dst_port));
        }
        constraints_of(routes, routed++, path, fractions, p.record);
        if (path.empty()) path.push_back(ConstraintId(directed(directed_link(LinkId(p.record.src_port.value()), true))));
        fractions.resize(path.size(), 1.0);
        request.path = path;
        request.fraction = fractions;
      } else {
        request.path = std::span<const ConstraintId>(path_pool_.data() + p.path_begin, p.path_size);
      }
      request.size = p.record.bytes;
      request.weight = p.record.weight;
      request.start = p.start;
      request.after = std::span<const FlowId>(after_pool_.data() + p.after_begin, p.after_size);
      request.delay = p.delay;
      const FlowId f = engine_.add_flow(request);
      flow_of_record_.push_back(f.value());
      result_.flows.push_back(p.record);
      if (p.group != kNone) {
        Span& span = current_[p.group][p.transfer];
        if (span.first == kNone) span.first = f.value();
        ++span.count;
      }
    }
    pending_.clear();
    path_pool_.clear();
    after_pool_.clear();
  }

  // A zero-byte flow on the barrier constraint that completes when all of `flows` have.
  Span add_barrier(std::uint32_t first, std::uint32_t end) {
    std::vector<FlowId> after;
    for (std::uint32_t f = first; f < end; ++f) after.push_back(FlowId(f));
    const ConstraintId path[] = {ConstraintId(barrier())};
    FlowRequest request;
    request.path = path;
    request.after = after;
    const FlowId f = engine_.add_flow(request);
    return {f.value(), 1};
  }

  std::uint32_t next_flow_id() const { return static_cast<std::uint32_t>(engine_.flow_count()); }

  // ---- collectives ----
  void add_collective(std::size_t ci) {
    const CollectiveSpec& c = s_.collectives[ci];
    const auto op = static_cast<std::uint32_t>(result_.operations.size());
    OperationResult o;
    o.name = c.name;
    o.kind = OperationKind::kCollective;
    o.what = fmt::format("{} {}", collective_kind_name(c.kind), algorithm_name(c.algorithm));
    o.instances = static_cast<std::uint32_t>(c.groups.size());
    o.ranks = static_cast<std::uint32_t>(c.groups.front().size());
    o.bus_factor = bus_factor(c.kind, o.ranks);
    o.bytes = c.bytes;
    o.compute = c.compute;
    o.iterations.resize(c.iterations);
    o.flows_begin = static_cast<std::uint32_t>(result_.flows.size());
    // One worker per GPU, in group order.
    PhaseResult phase;
    phase.name = c.name;
    phase.start = c.start;
    phase.workers_begin = static_cast<std::uint32_t>(result_.workers.size());
    std::vector<std::uint32_t> worker_of(gpus_, kNone);
    for (const auto& group : c.groups) {
      for (const std::uint32_t g : group) {
        worker_of[g] = static_cast<std::uint32_t>(result_.workers.size());
        result_.workers.push_back({gpu_name(t_, g), static_cast<std::uint32_t>(result_.phases.size()),
                                   TimePs(c.compute.value() * c.iterations)});
      }
    }
    phase.workers_end = static_cast<std::uint32_t>(result_.workers.size());
    o.phase = static_cast<std::uint32_t>(result_.phases.size());
    result_.phases.push_back(phase);
    result_.operations.push_back(o);

    std::vector<CollectivePlan> plans;
    std::vector<CollectiveShape> shapes;
    per_node_.clear();
    for (const auto& group : c.groups) {
      std::map<std::uint32_t, std::uint32_t> count;
      std::uint32_t most = 1;
      for (const std::uint32_t gpu : group) most = std::max(most, ++count[host_of(gpu)]);
      per_node_.push_back(most);
      shapes.push_back(shape_of(c, group));
      plans.push_back(plan_collective(shapes.back()));
    }
    const std::uint32_t qps = c.qps == 0 ? static_cast<std::uint32_t>(std::max(1, fabric_.ecmp.qps_per_connection)) : c.qps;
    std::vector<std::vector<Span>> previous(c.groups.size());
    Span barrier_span;
    for (std::uint32_t it = 0; it < c.iterations; ++it) {
      const std::uint32_t iteration_first = next_flow_id();
      current_.assign(c.groups.size(), {});
      for (std::size_t g = 0; g < c.groups.size(); ++g) current_[g].assign(plans[g].transfers.size(), Span{});
      if (plans.front().in_network) {
        for (std::size_t g = 0; g < c.groups.size(); ++g) add_sharp(c, op, it, g, shapes[g], barrier_span, worker_of);
        flush();
        barrier_span = add_barrier(iteration_first, next_flow_id());
        continue;
      }
      std::vector<std::size_t> cursor(c.groups.size(), 0);
      const std::uint32_t steps = plans.front().steps;
      for (std::uint32_t step = 0; step < steps; ++step) {
        for (std::size_t g = 0; g < c.groups.size(); ++g) {
          const CollectivePlan& plan = plans[g];
          for (; cursor[g] < plan.transfers.size() && plan.transfers[cursor[g]].step == step; ++cursor[g]) {
            add_transfer_flows(c, op, it, g, plan, static_cast<std::uint32_t>(cursor[g]), qps, previous[g], worker_of);
          }
        }
        flush();
      }
      previous = std::move(current_);
    }
    result_.operations[op].flows_end = static_cast<std::uint32_t>(result_.flows.size());
    result_.operations[op].total_steps = total_steps(shapes.front());
    result_.operations[op].steps = plans.front().steps;
    if (c.steps != 0 && c.steps < total_steps(shapes.front())) {
      result_.notes.push_back(fmt::format("{}: only the first {} of {} steps simulated (steps: {}); its time is "
                                          "that of those steps, not of the whole collective",
                                          c.name, c.steps, total_steps(shapes.front()), c.steps));
    }
  }

  void add_transfer_flows(const CollectiveSpec& c, std::uint32_t op, std::uint32_t it, std::size_t g,
                          const CollectivePlan& plan, std::uint32_t t, std::uint32_t qps,
                          const std::vector<Span>& previous, const std::vector<std::uint32_t>& worker_of) {
    const CollectiveTransfer& x = plan.transfers[t];
    const std::uint32_t src = c.groups[g][x.src];
    const std::uint32_t dst = c.groups[g][x.dst];
    FlowRecord r;
    r.operation = op;
    r.weight = c.weight;
    r.instance = static_cast<std::uint32_t>(g);
    r.iteration = it;
    r.step = x.step;
    r.channel = x.channel;
    r.worker = worker_of[src];
    r.src_gpu = src;
    r.dst_gpu = dst;
    const bool first_of_iteration = plan.after(t).empty();
    const TimePs start = it == 0 && first_of_iteration ? c.start + c.compute : c.start;
    auto wire = [&](Pending& p) {
      p.group = static_cast<std::uint32_t>(g);
      p.transfer = t;
      for (const std::uint32_t d : plan.after(t)) pend_after(p, current_[g][d]);
      if (it > 0 && first_of_iteration) {
        for (const std::uint32_t rank : {x.src, x.dst}) {
          for (const std::uint32_t d : plan.final_transfers(rank)) pend_after(p, previous[d]);
        }
        p.delay = c.compute;
      }
    };
    if (host_of(src) == host_of(dst)) {
      r.bytes = x.bytes;
      Pending& p = pend(r, start);
      pend_path(p, nvlink(src, true));
      pend_path(p, nvlink(dst, false));
      wire(p);
      return;
    }
    network_ends(r, src, dst, plane_of_channel(x.channel, per_node_[g]));
    for (std::uint32_t q = 0; q < qps; ++q) {
      r.qp = q;
      r.bytes = split_part(x.bytes, qps, q);
      r.src_udp_port = connection_port(op, src, dst, x.channel, q);
      wire(pend(r, start));
    }
  }

  // The UDP source port of one connection's QP: fixed for the run, as an established QP's is.
  [[nodiscard]] std::uint16_t connection_port(std::uint32_t op, std::uint64_t src, std::uint64_t dst,
                                              std::uint32_t channel, std::uint32_t qp) const {
    Rng rng(s_.seed, op, ((src * gpus_ + dst) * 64 + channel) * 64 + qp);
    return draw_roce_source_port(rng);
  }

  // The first live up-link of a switch (lowest LinkId), or invalid.
  [[nodiscard]] LinkId first_up(VertexId v) const {
    for (const Adjacency& a : t_.neighbors(v)) {
      if (t_.tier[a.neighbor.value()] > t_.tier[v.value()] && routing_down_[a.link.value()] == 0) return a.link;
    }
    return LinkId::invalid();
  }

  void add_sharp(const CollectiveSpec& c, std::uint32_t op, std::uint32_t it, std::size_t g, const CollectiveShape& shape,
                 Span barrier_span, const std::vector<std::uint32_t>& worker_of) {
    const TimePs start = it == 0 ? c.start + c.compute : c.start;
    for (std::uint32_t ch = 0; ch < shape.channels; ++ch) {
      const int plane = plane_of_channel(ch, per_node_[g]);
      const Bytes bytes = split_part(c.bytes, shape.channels, ch);
      // Climb from every member's leaf by first up-links until the climbs meet.
      std::vector<std::vector<LinkId>> climbs;
      std::set<std::uint32_t> leaves;
      for (const std::uint32_t gpu : c.groups[g]) leaves.insert(forwarding_->leaf_of(port_of(gpu, plane)).value());
      for (const std::uint32_t leaf : leaves) {
        std::vector<LinkId> climb;
        for (VertexId v(leaf); true;) {
          const LinkId up = first_up(v);
          if (!up.valid()) break;
          climb.push_back(up);
          v = t_.other_end(up, v);
        }
        climbs.push_back(std::move(climb));
      }
      std::set<std::uint32_t> edges;
      if (leaves.size() > 1) {
        std::size_t meet = 0;  // climbs meet above `meet` links
        auto top = [&](const std::vector<LinkId>& climb, std::size_t k) {
          return k == 0 ? VertexId::invalid() : t_.link_b[climb[k - 1].value()];
        };
        for (meet = 1; meet <= climbs.front().size(); ++meet) {
          bool same = true;
          for (const auto& climb : climbs) same = same && climb.size() >= meet && top(climb, meet) == top(climbs.front(), meet);
          if (same) break;
        }
        for (const auto& climb : climbs) {
          for (std::size_t k = 0; k < meet && k < climb.size(); ++k) edges.insert(climb[k].value());
        }
      }
      FlowRecord r;
      r.operation = op;
      r.weight = c.weight;
      r.instance = static_cast<std::uint32_t>(g);
      r.iteration = it;
      r.channel = ch;
      r.bytes = bytes;
      auto add = [&](std::uint32_t constraint, std::uint32_t worker, std::uint32_t gpu) {
        r.worker = worker;
        r.src_gpu = gpu;
        Pending& p = pend(r, start);
        pend_path(p, constraint);
        if (it > 0) {
          pend_after(p, barrier_span);
          p.delay = c.compute;
        }
      };
      for (const std::uint32_t gpu : c.groups[g]) {
        const LinkId nic(port_of(gpu, plane).value());
        add(directed(directed_link(nic, true)), worker_of[gpu], gpu);
        add(directed(directed_link(nic, false)), kNone, kNoGpu);
      }
      for (const std::uint32_t l : edges) {
        add(directed(directed_link(LinkId(l), true)), kNone, kNoGpu);
        add(directed(directed_link(LinkId(l), false)), kNone, kNoGpu);
      }
    }
  }

  // ---- point-to-point transfers ----
  void add_transfers() {
    if (s_.transfers.empty()) return;
    const std::uint32_t qps_default = static_cast<std::uint32_t>(std::max(1, fabric_.ecmp.qps_per_connection));
    const auto planes = static_cast<std::uint32_t>(std::max(t_.planes, 1));
    std::map<std::string, std::uint32_t> phase_of_group;
    std::vector<std::map<std::string, std::uint32_t>> worker_in_phase;
    // Phases first (groups in order of first appearance) with their workers (distinct senders).
    std::vector<std::string> groups;
    const auto first_phase = static_cast<std::uint32_t>(result_.phases.size());
    for (const TransferSpec& t : s_.transfers) {
      if (phase_of_group.emplace(t.group, 0).second) groups.push_back(t.group);
    }
    for (const std::string& name : groups) {
      PhaseResult phase;
      phase.name = name;
      phase.workers_begin = static_cast<std::uint32_t>(result_.workers.size());
      const auto index = static_cast<std::uint32_t>(result_.phases.size());
      std::map<std::string, std::uint32_t> workers;
      for (const TransferSpec& t : s_.transfers) {
        const std::string worker = t.src.is_port ? t_.vertex_name(t.src.port) : gpu_name(t_, t.src.gpu);
        if (t.group != name || workers.count(worker) != 0) continue;
        workers.emplace(worker, static_cast<std::uint32_t>(result_.workers.size()));
        result_.workers.push_back({worker, index, TimePs(0)});
      }
      phase.workers_end = static_cast<std::uint32_t>(result_.workers.size());
      phase_of_group[name] = index;
      worker_in_phase.push_back(std::move(workers));
      result_.phases.push_back(phase);
    }
    for (std::uint32_t i = 0; i < s_.transfers.size(); ++i) {
      const TransferSpec& t = s_.transfers[i];
      const std::uint32_t phase = phase_of_group[t.group];
      const auto op = static_cast<std::uint32_t>(result_.operations.size());
      OperationResult o;
      o.name = t.name;
      o.kind = OperationKind::kTransfer;
      o.what = fmt::format("transfer {} -> {}", t.src.name, t.dst.name);
      o.phase = phase;
      o.ranks = 2;
      o.bytes = t.bytes;
      o.iterations.resize(1);
      o.flows_begin = static_cast<std::uint32_t>(result_.flows.size()) + static_cast<std::uint32_t>(pending_.size());
      FlowRecord r;
      r.operation = op;
      r.weight = t.weight;
      r.worker = worker_in_phase[phase - first_phase].at(t.src.is_port ? t_.vertex_name(t.src.port)
                                                                         : gpu_name(t_, t.src.gpu));
      const std::uint32_t qps = t.qps == 0 ? qps_default : t.qps;
      if (t.src.is_port) {
        r.src_port = t.src.port;
        r.dst_port = t.dst.port;
        for (std::uint32_t q = 0; q < qps; ++q) {
          r.qp = q;
          r.bytes = split_part(t.bytes, qps, q);
          r.src_udp_port = connection_port(op, t.src.port.value(), t.dst.port.value(), 0, q);
          pend(r, t.start);
        }
      } else if (host_of(t.src.gpu) == host_of(t.dst.gpu)) {
        r.src_gpu = t.src.gpu;
        r.dst_gpu = t.dst.gpu;
        r.bytes = t.bytes;
        Pending& p = pend(r, t.start);
        pend_path(p, nvlink(t.src.gpu, true));
        pend_path(p, nvlink(t.dst.gpu, false));
      } else {
        r.src_gpu = t.src.gpu;
        r.dst_gpu = t.dst.gpu;
        const std::uint32_t channels = t.channels == 0 ? planes : t.channels;
        for (std::uint32_t ch = 0; ch < channels; ++ch) {
          r.channel = ch;
          network_ends(r, t.src.gpu, t.dst.gpu, static_cast<int>(ch % planes));
          const Bytes part = split_part(t.bytes, channels, ch);
          for (std::uint32_t q = 0; q < qps; ++q) {
            r.qp = q;
            r.bytes = split_part(part, qps, q);
            r.src_udp_port = connection_port(op, t.src.gpu, t.dst.gpu, ch, q);
            pend(r, t.start);
          }
        }
      }
      o.flows_end = static_cast<std::uint32_t>(result_.flows.size()) + static_cast<std::uint32_t>(pending_.size());
      result_.operations.push_back(o);
    }
    flush();
  }

  // ---- mice ----
  void add_mice(std::size_t mi) {
    const MiceSpec& m = s_.mice[mi];
    Rng rng(s_.seed, 0, kMiceStream + mi);
    const auto op = static_cast<std::uint32_t>(result_.operations.size());
    OperationResult o;
    o.name = m.name;
    o.kind = OperationKind::kMice;
    o.what = fmt::format("mice {} x {} B", m.count, m.bytes.value());
    o.phase = kNone;
    o.bytes = m.bytes;
    o.iterations.resize(1);
    o.flows_begin = static_cast<std::uint32_t>(result_.flows.size());
    const auto rails = static_cast<std::uint64_t>(t_.ports_per_host);
    const auto planes = static_cast<std::uint64_t>(std::max(t_.planes, 1));
    double at = 0;
    for (std::uint32_t i = 0; i < m.count; ++i) {
      const std::uint32_t src = m.hosts[rng.uniform(m.hosts.size())];
      std::uint32_t dst = src;
      while (dst == src) dst = m.hosts[rng.uniform(m.hosts.size())];
      const auto plane = static_cast<int>(rng.uniform(planes));
      FlowRecord r;
      r.operation = op;
      r.weight = m.weight;
      r.instance = i;
      r.worker = kNone;
      r.src_port = t_.port_of(HostId(src), static_cast<int>(rng.uniform(rails)), plane);
      r.dst_port = t_.port_of(HostId(dst), static_cast<int>(rng.uniform(rails)), plane);
      r.src_udp_port = draw_roce_source_port(rng);
      r.bytes = m.bytes;
      if (m.arrivals_per_s > 0 && i > 0) at += rng.exponential(m.arrivals_per_s);
      pend(r, m.start + TimePs(std::llround(at * 1e12)));
    }
    result_.operations.push_back(o);
    flush();
    result_.operations[op].flows_end = static_cast<std::uint32_t>(result_.flows.size());
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

  void collect() {
    TimePs makespan{0};
    bool incomplete = false;
    std::uint64_t never = 0;
    for (std::uint32_t r = 0; r < result_.flows.size(); ++r) {
      FlowRecord& rec = result_.flows[r];
      const FlowId f(flow_of_record_[r]);
      if (engine_.state(f) != FlowState::kWaiting) rec.start = engine_.start_time(f);
      if (engine_.state(f) == FlowState::kDone) {
        rec.end = engine_.completion_time(f);
        makespan = std::max(makespan, rec.end);
      } else {
        incomplete = true;
        ++never;
      }
      rec.path_begin = static_cast<std::uint32_t>(result_.path_pool.size());
      for (const ConstraintId c : engine_.path(f)) {
        result_.path_pool.push_back(c.value());
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
    if (incomplete) {
      makespan = std::max(makespan, engine_.now());
      result_.notes.push_back(fmt::format("{} flow(s) never completed: a failed link with no other path, or "
                                          "waiting on one that did not",
                                          never));
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
    std::vector<std::uint32_t> order;
    for (std::uint32_t c = 0; c < result_.constraints.size(); ++c) {
      if (result_.constraints[c].kind != ConstraintKind::kBarrier && result_.stats[c].carried_bits > 0) order.push_back(c);
    }
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const ConstraintStats& x = result_.stats[a];
      const ConstraintStats& y = result_.stats[b];
      if (x.saturated != y.saturated) return x.saturated > y.saturated;
      if (x.carried_bits != y.carried_bits) return x.carried_bits > y.carried_bits;
      return a < b;
    });
    order.resize(std::min<std::size_t>(order.size(), o_.series_links));
    const std::int64_t bins = std::max<std::uint32_t>(o_.series_bins, 1);
    const std::int64_t width = (result_.makespan.value() + bins - 1) / bins;
    result_.series_bin = TimePs(width);
    std::vector<std::uint32_t> slot(result_.constraints.size(), kNone);
    for (std::uint32_t k = 0; k < order.size(); ++k) {
      slot[order[k]] = k;
      result_.series.push_back({order[k], std::vector<double>(static_cast<std::size_t>(bins), 0.0)});
    }
    std::vector<TimePs> since(order.size(), TimePs(0));
    std::vector<double> load(order.size(), 0.0);
    // Integrates a piecewise-constant load over [from, to) into the bins.
    auto integrate = [&](std::uint32_t k, TimePs from, TimePs to) {
      if (load[k] == 0) return;
      const double cap = result_.constraints[result_.series[k].constraint].capacity_bps;
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
      if (k == kNone) continue;
      integrate(k, since[k], log_time_[e]);
      since[k] = log_time_[e];
      load[k] = log_load_[e];
    }
    for (std::uint32_t k = 0; k < order.size(); ++k) integrate(k, since[k], result_.makespan);
  }

  const Topology& t_;
  const SimulationFabric& fabric_;
  const Scenario& s_;
  SimulationOptions o_;
  SwitchHashes hashes_;
  Scheme scheme_;
  std::unique_ptr<ForwardingState> forwarding_;
  std::unique_ptr<PathWalker> walker_;
  bool addressable_ = false;
  std::uint32_t gpus_ = 0;
  FlowEngine engine_;
  SimulationResult result_;
  std::string error_;

  std::vector<std::uint32_t> directed_;  // directed link -> constraint
  std::vector<std::uint32_t> nvlink_out_;
  std::vector<std::uint32_t> nvlink_in_;
  std::uint32_t barrier_ = kNone;
  bool pxn_noted_ = false;
  std::vector<std::uint8_t> routing_down_;  // links routing has converged around

  std::vector<Pending> pending_;
  std::vector<ConstraintId> path_pool_;
  std::vector<FlowId> after_pool_;
  std::vector<std::vector<Span>> current_;  // per group, per plan transfer: its engine flows
  std::vector<std::uint32_t> per_node_;     // per group of the collective being built: most GPUs on a host
  std::vector<std::uint32_t> flow_of_record_;
  std::uint64_t done_ = 0;

  std::vector<TimePs> last_change_;
  std::vector<double> last_load_;
  std::vector<double> last_capacity_;  // bits/s at the last load change
  std::vector<std::uint32_t> log_constraint_;
  std::vector<TimePs> log_time_;
  std::vector<double> log_load_;
};

}  // namespace

Result<SimulationResult> simulate_flows(const SimulationFabric& fabric, const Scenario& scenario,
                                        const SimulationOptions& options) {
  Simulator simulator(fabric, scenario, options);
  return simulator.run();
}

}  // namespace ct
