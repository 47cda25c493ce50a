#include "workload/workload_compiler.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "core/rng.h"
#include "routing/path_walker.h"
#include "traffic/collective.h"
#include "traffic/flow.h"

namespace ct {
namespace {

// Tags of the tuples streams and connection keys are derived from (core/rng.h stream_of).
constexpr std::uint64_t kMiceTag = 0x4D49'4345;  // "MICE": endpoints and arrivals of a mice set

std::string gpu_name(const Topology& t, std::uint32_t gpu) {
  const auto g = static_cast<std::uint32_t>(t.gpus_per_host);
  return fmt::format("host{}/gpu{}", gpu / g, gpu % g);
}

// Workload flows [first, first + count): the flows of one plan transfer, or a barrier.
struct Span {
  std::uint32_t first = kNoIndex;
  std::uint32_t count = 0;
};

class WorkloadCompiler {
 public:
  WorkloadCompiler(const Fabric& fabric, const Scenario& scenario, const CompileOptions& options,
                   std::vector<double>* weights)
      : fabric_(fabric), t_(fabric.topology()), s_(scenario), o_(options), weights_(weights),
        nvlink_(fabric.spec().node.nvlink_bytes_per_s.has_value()) {
    gpus_ = static_cast<std::uint32_t>(t_.host_count) * static_cast<std::uint32_t>(std::max(t_.gpus_per_host, 1));
  }

  Result<Workload> compile() {
    if (auto problem = check(); !problem.empty()) return Diagnostic{{s_.file, 0, 0}, "scenario", problem};
    // Room for the flows check() counted (SHARP's aside, a loose bound) and two fixed hops each.
    w_.flows.reserve(expected_flows_);
    w_.hops.reserve(2 * expected_flows_);
    if (weights_ != nullptr) {
      weights_->clear();
      weights_->reserve(expected_flows_);
    }
    for (std::size_t i = 0; i < s_.collectives.size(); ++i) add_collective(i);
    add_transfers();
    for (std::size_t i = 0; i < s_.mice.size(); ++i) add_mice(i);
    return std::move(w_);
  }

 private:
  // ---- checks before building anything ----
  std::string check() {
    std::uint64_t flows = 0;
    std::uint64_t sharp = 0;  // of which SHARP's (a loose upper bound)
    const std::uint64_t qps_default = std::max(1, fabric_.ecmp().qps_per_connection);
    // The QPs between two endpoints get distinct source ports: at most kRoceSourcePorts of them.
    auto too_many_qps = [&](const std::string& what, std::uint64_t channels, std::uint32_t qps) {
      const std::uint64_t n = channels * (qps == 0 ? qps_default : qps);
      if (n <= kRoceSourcePorts) return std::string();
      return fmt::format("{}: {} channel(s) x {} queue pair(s) = {} QPs between one pair of GPUs, more than the {} "
                         "RoCEv2 source ports (0xC000..0xFFFF), so some would share a 5-tuple; lower {}",
                         what, channels, qps == 0 ? qps_default : qps, n, kRoceSourcePorts,
                         qps == 0 ? "routing.qps_per_connection" : "qps or channels");
    };
    for (const CollectiveSpec& c : s_.collectives) {
      for (const auto& group : c.groups) {
        const CollectiveShape shape = shape_of(c, group);
        if (shape.algorithm != CollectiveAlgorithm::kSharp) {
          if (auto problem = too_many_qps(fmt::format("collective '{}'", c.name), shape.channels, c.qps); !problem.empty()) {
            return problem;
          }
        }
        const std::uint64_t qps = c.qps == 0 ? qps_default : c.qps;
        const std::uint64_t n = c.iterations * (shape.algorithm == CollectiveAlgorithm::kSharp
                                                    ? 4 * group.size() * shape.channels
                                                    : planned_transfers(shape) * qps);
        flows += n;
        if (shape.algorithm == CollectiveAlgorithm::kSharp) sharp += n;
      }
      if (needs_nvlink(c) && !nvlink_) {
        return fmt::format("collective '{}' moves data between GPUs of one host, but the catalog gives no NVLink "
                           "bandwidth for this node model",
                           c.name);
      }
    }
    for (const TransferSpec& t : s_.transfers) {
      const std::uint64_t channels = t.src.is_port ? 1 : (t.channels == 0 ? std::max(t_.planes, 1) : t.channels);
      if (auto problem = too_many_qps(fmt::format("transfer '{}'", t.name), channels, t.qps); !problem.empty()) {
        return problem;
      }
      flows += std::uint64_t{std::max<std::uint32_t>(t.channels, 1)} * (t.qps == 0 ? qps_default : t.qps) *
               (t.src.is_port ? 1 : std::max(t_.planes, 1));
      if (!t.src.is_port && host_of(t.src.gpu) == host_of(t.dst.gpu) && !nvlink_) {
        return fmt::format("transfer '{}' is between GPUs of one host, but the catalog gives no NVLink bandwidth", t.name);
      }
    }
    for (const MiceSpec& m : s_.mice) flows += m.count;
    expected_flows_ = std::min<std::uint64_t>(flows - sharp, o_.max_flows);
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

  // ---- geometry ----
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

  // One channel per NIC port the group's GPUs own: planes x distinct rails. Halving-doubling and
  // hierarchical send every rank's inter-node data through its own rail's NIC (their partners
  // have its local index), so one channel per plane already uses every port.
  [[nodiscard]] std::uint32_t default_channels(const std::vector<std::uint32_t>& group, CollectiveAlgorithm a) const {
    if (a == CollectiveAlgorithm::kHalvingDoubling || a == CollectiveAlgorithm::kHierarchical) {
      return static_cast<std::uint32_t>(std::max(t_.planes, 1));
    }
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
  void network_ends(WorkloadFlow& f, std::uint32_t src, std::uint32_t dst, int plane) const {
    f.src_port = t_.port_of(HostId(host_of(src)), rail_of(dst), plane);
    f.dst_port = port_of(dst, plane);
    f.via_gpu = proxy_of(src, dst);
  }

  CollectiveShape shape_of(const CollectiveSpec& c, const std::vector<std::uint32_t>& group) const {
    CollectiveShape shape;
    shape.kind = c.kind;
    shape.algorithm = c.algorithm;
    shape.model = c.model;
    shape.bytes = c.bytes;
    shape.channels = c.channels == 0 ? default_channels(group, c.algorithm) : c.channels;
    shape.steps_limit = c.steps;
    for (const std::uint32_t g : group) shape.node_of_rank.push_back(host_of(g));
    return shape;
  }

  // ---- flows ----
  // Appends a flow of the max-min weight weight_ (a join: 1); its hops and dependencies follow with
  // hop() and wait_for() until the next add().
  WorkloadFlow& add(const WorkloadFlow& flow) {
    if (weights_ != nullptr) weights_->push_back(flow.join ? 1.0 : weight_);
    WorkloadFlow& f = w_.flows.emplace_back(flow);
    f.hops_begin = static_cast<std::uint32_t>(w_.hops.size());
    f.hops_size = 0;
    f.after_begin = static_cast<std::uint32_t>(w_.after.size());
    f.after_size = 0;
    if (!f.join) ++records_;
    return f;
  }
  void hop(HopKind kind, std::uint32_t index) {
    w_.hops.push_back({kind, index});
    ++w_.flows.back().hops_size;
  }
  void link_hop(LinkId l, bool up) { hop(up ? HopKind::kLinkUp : HopKind::kLinkDown, l.value()); }
  void wait_for(Span span) {
    for (std::uint32_t k = 0; k < span.count; ++k) w_.after.push_back(span.first + k);
    w_.flows.back().after_size += span.count;
  }
  // A network flow: routed by the fabric, after its PXN NVLink hop when there is one.
  void add_network(const WorkloadFlow& flow) {
    WorkloadFlow& f = add(flow);
    f.routed = true;
    if (f.via_gpu == kNoGpu) return;
    if (!nvlink_) {
      if (!pxn_noted_) {
        pxn_noted_ = true;
        w_.notes.push_back("PXN hops (NVLink to the GPU on the destination's rail) are left out: the catalog "
                           "gives no NVLink bandwidth for this node model");
      }
      return;
    }
    const std::uint32_t src = f.src_gpu;
    const std::uint32_t via = f.via_gpu;
    hop(HopKind::kNvlinkOut, src);
    hop(HopKind::kNvlinkIn, via);
  }
  // Ends the current route batch (flows routed together).
  void end_batch() {
    if (w_.batch_begin.back() != w_.flows.size()) w_.batch_begin.push_back(static_cast<std::uint32_t>(w_.flows.size()));
  }
  [[nodiscard]] std::uint32_t next_flow() const { return static_cast<std::uint32_t>(w_.flows.size()); }

  // A join (no bytes, no hops) that completes when flows [first, end) have.
  Span add_barrier(std::uint32_t first, std::uint32_t end) {
    WorkloadFlow b;
    b.join = true;
    add(b);
    wait_for({first, end - first});
    end_batch();
    return {end, 1};
  }

  // The UDP source port of QP `qp` of channel `channel` between two ends (GPUs or ports): fixed
  // for the run, as an established QP's is, and a function of the connection alone (not of the
  // operation or its place in the scenario: traffic/flow.h connection_source_port). The QPs of
  // all channels between the two ends are numbered channel x qps + qp and drawn without
  // replacement, so no two of them share a 5-tuple; check() has made sure they fit in the range.
  [[nodiscard]] std::uint16_t connection_port(ConnectionEnd src, ConnectionEnd dst, std::uint32_t channel,
                                              std::uint32_t qp, std::uint32_t qps) const {
    return connection_source_port(s_.seed, src, dst, std::uint64_t{channel} * qps + qp);
  }
  [[nodiscard]] static ConnectionEnd gpu_end(std::uint32_t gpu) { return {true, gpu}; }
  [[nodiscard]] static ConnectionEnd port_end(VertexId port) { return {false, port.value()}; }

  // ---- collectives ----
  void add_collective(std::size_t ci) {
    const CollectiveSpec& c = s_.collectives[ci];
    const auto op = static_cast<std::uint32_t>(w_.operations.size());
    WorkloadOperation o;
    o.name = c.name;
    o.kind = OperationKind::kCollective;
    o.what = fmt::format("{} {}{}", collective_kind_name(c.kind), algorithm_name(c.algorithm),
                         c.model == CollectiveModel::kStepwise ? " (stepwise)" : "");
    o.instances = static_cast<std::uint32_t>(c.groups.size());
    o.ranks = static_cast<std::uint32_t>(c.groups.front().size());
    o.bus_factor = bus_factor(c.kind, o.ranks);
    o.bytes = c.bytes;
    o.compute = c.compute;
    o.iterations = c.iterations;
    o.records_begin = records_;
    // One worker per GPU, in group order.
    WorkloadPhase phase;
    phase.name = c.name;
    phase.start = c.start;
    phase.workers_begin = static_cast<std::uint32_t>(w_.workers.size());
    std::vector<std::uint32_t> worker_of(gpus_, kNoIndex);
    for (const auto& group : c.groups) {
      for (const std::uint32_t g : group) {
        worker_of[g] = static_cast<std::uint32_t>(w_.workers.size());
        w_.workers.push_back({gpu_name(t_, g), static_cast<std::uint32_t>(w_.phases.size()),
                              TimePs(c.compute.value() * c.iterations)});
      }
    }
    phase.workers_end = static_cast<std::uint32_t>(w_.workers.size());
    o.phase = static_cast<std::uint32_t>(w_.phases.size());
    w_.phases.push_back(phase);

    std::vector<CollectivePlan> plans;
    std::vector<CollectiveShape> shapes;
    per_node_.clear();
    for (const auto& group : c.groups) {
      std::map<std::uint32_t, std::uint32_t> count;
      std::uint32_t most = 1;
      for (const std::uint32_t gpu : group) most = std::max(most, ++count[host_of(gpu)]);
      // Ring, tree, SHARP: channels cycle through a host's GPUs (rails) before the next plane.
      // Halving-doubling, hierarchical: one channel per plane (default_channels), channel c on plane c.
      const bool per_plane = c.algorithm == CollectiveAlgorithm::kHalvingDoubling ||
                             c.algorithm == CollectiveAlgorithm::kHierarchical;
      per_node_.push_back(per_plane ? 1 : most);
      shapes.push_back(shape_of(c, group));
      plans.push_back(plan_collective(shapes.back()));
    }
    const std::uint32_t qps = c.qps == 0 ? static_cast<std::uint32_t>(std::max(1, fabric_.ecmp().qps_per_connection)) : c.qps;
    std::vector<std::vector<Span>> previous(c.groups.size());
    Span barrier_span;
    for (std::uint32_t it = 0; it < c.iterations; ++it) {
      const std::uint32_t iteration_first = next_flow();
      // Each plan transfer's flows, for the transfers that wait for it in this iteration and the
      // next; none kept when nothing waits (one step, one iteration: a pipelined collective).
      const bool waited_for = c.iterations > 1 || std::any_of(plans.begin(), plans.end(), [](const CollectivePlan& p) {
                                return p.steps > 1;
                              });
      current_.assign(c.groups.size(), {});
      for (std::size_t g = 0; g < c.groups.size() && waited_for; ++g) current_[g].assign(plans[g].transfers.size(), Span{});
      if (plans.front().in_network) {
        Span stage_barrier = barrier_span;
        const std::uint32_t stages = c.model == CollectiveModel::kStepwise ? 3 : 1;
        for (std::uint32_t stage = 0; stage < stages; ++stage) {
          const std::uint32_t stage_first = next_flow();
          // The iteration's first flows (an empty stage has none) wait for the previous iteration.
          const bool first_flows = it > 0 && stage_first == iteration_first;
          for (std::size_t g = 0; g < c.groups.size(); ++g) {
            add_sharp(c, op, it, g, shapes[g], stage_barrier, first_flows, worker_of,
                      c.model == CollectiveModel::kStepwise ? static_cast<int>(stage) : -1);
          }
          end_batch();
          if (it == 0 && stage + 1 == stages) o.bound = bound_of(iteration_first, next_flow());
          if (next_flow() != stage_first) stage_barrier = add_barrier(stage_first, next_flow());
        }
        barrier_span = stage_barrier;
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
        end_batch();
      }
      if (it == 0) o.bound = bound_of(iteration_first, next_flow());
      previous = std::move(current_);
    }
    o.records_end = records_;
    o.total_steps = total_steps(shapes.front());
    o.steps = plans.front().steps;
    w_.operations.push_back(o);
    if (c.steps != 0 && c.steps < o.total_steps) {
      w_.notes.push_back(fmt::format("{}: only the first {} of {} steps simulated (steps: {}); its time is "
                                     "that of those steps, not of the whole collective",
                                     c.name, c.steps, o.total_steps, c.steps));
    }
  }

  void add_transfer_flows(const CollectiveSpec& c, std::uint32_t op, std::uint32_t it, std::size_t g,
                          const CollectivePlan& plan, std::uint32_t t, std::uint32_t qps,
                          const std::vector<Span>& previous, const std::vector<std::uint32_t>& worker_of) {
    const CollectiveTransfer& x = plan.transfers[t];
    const std::uint32_t src = c.groups[g][x.src];
    const std::uint32_t dst = c.groups[g][x.dst];
    WorkloadFlow f;
    f.operation = op;
    weight_ = c.weight * x.share;
    f.instance = static_cast<std::uint32_t>(g);
    f.iteration = it;
    f.step = x.step;
    f.channel = x.channel;
    f.worker = worker_of[src];
    f.src_gpu = src;
    f.dst_gpu = dst;
    const bool first_of_iteration = plan.after(t).empty();
    f.start = it == 0 && first_of_iteration ? c.start + c.compute : c.start;
    if (it > 0 && first_of_iteration) f.delay = c.compute;
    auto wire = [&] {
      if (current_[g].empty()) return;  // nothing waits for this collective's transfers
      Span& mine = current_[g][t];
      if (mine.first == kNoIndex) mine.first = next_flow() - 1;
      ++mine.count;
      for (const std::uint32_t d : plan.after(t)) wait_for(current_[g][d]);
      if (it > 0 && first_of_iteration) {
        for (const std::uint32_t rank : {x.src, x.dst}) {
          for (const std::uint32_t d : plan.final_transfers(rank)) wait_for(previous[d]);
        }
      }
    };
    if (host_of(src) == host_of(dst)) {
      f.bytes = x.bytes;
      add(f);
      hop(HopKind::kNvlinkOut, src);
      hop(HopKind::kNvlinkIn, dst);
      wire();
      return;
    }
    network_ends(f, src, dst, plane_of_channel(x.channel, per_node_[g]));
    for (std::uint32_t q = 0; q < qps; ++q) {
      f.qp = q;
      f.bytes = split_part(x.bytes, qps, q);
      f.src_udp_port = connection_port(gpu_end(src), gpu_end(dst), x.channel, q, qps);
      add_network(f);
      wire();
    }
  }

  // The (k mod u)-th of a switch's u up-links (by LinkId), or invalid.
  [[nodiscard]] LinkId kth_up(VertexId v, std::uint32_t k) const {
    std::vector<LinkId> ups;
    for (const Adjacency& a : t_.neighbors(v)) {
      if (t_.tier[a.neighbor.value()] > t_.tier[v.value()]) ups.push_back(a.link);
    }
    if (ups.empty()) return LinkId::invalid();
    std::sort(ups.begin(), ups.end());
    return ups[k % ups.size()];
  }

  // SHARP as NCCL runs it over NVLink SHARP and the switches (CollNet / NVLS): see the header.
  // `stage`: -1 pipelined (everything at once); stepwise 0 the NVLink reduction, 1 the switch tree,
  // 2 the NVLink broadcast. The flows of the stage wait for `wait` when `after_barrier`, or for the
  // previous stage's barrier (stepwise stages 1 and 2).
  void add_sharp(const CollectiveSpec& c, std::uint32_t op, std::uint32_t it, std::size_t g, const CollectiveShape& shape,
                 Span wait, bool first_stage_of_later_iteration, const std::vector<std::uint32_t>& worker_of, int stage) {
    const std::vector<std::uint32_t>& group = c.groups[g];
    // The group's members on each host, in group order; channel ch's owner on a host is its
    // (ch mod k)-th member (k members there): the GPU whose NIC carries the host's share.
    std::map<std::uint32_t, std::vector<std::uint32_t>> members;
    for (const std::uint32_t gpu : group) members[host_of(gpu)].push_back(gpu);
    WorkloadFlow f;
    f.operation = op;
    weight_ = c.weight;
    f.instance = static_cast<std::uint32_t>(g);
    f.iteration = it;
    f.step = stage < 0 ? 0 : static_cast<std::uint32_t>(stage);
    f.start = it == 0 ? c.start + c.compute : c.start;
    const bool waits = first_stage_of_later_iteration || (stage > 0 && wait.count > 0);
    if (first_stage_of_later_iteration) f.delay = c.compute;
    auto fixed_flow = [&](std::uint32_t worker, std::uint32_t src, std::uint32_t dst) -> WorkloadFlow& {
      f.worker = worker;
      f.src_gpu = src;
      f.dst_gpu = dst;
      WorkloadFlow& added = add(f);
      return added;
    };
    auto finish_flow = [&] {
      if (waits) wait_for(wait);
    };
    // NVLink (a host with more than one member): member a's egress carries its contributions to
    // the shares it does not own (NVSwitch reads and reduces them) and the broadcast of the shares
    // it owns; its ingress the reduced shares it owns and the broadcasts of the others.
    if (stage != 1) {
      for (const auto& [host, gpus] : members) {
        if (gpus.size() < 2) continue;
        for (std::size_t m = 0; m < gpus.size(); ++m) {
          std::int64_t owned = 0;
          for (std::uint32_t ch = 0; ch < shape.channels; ++ch) {
            if (ch % gpus.size() == m) owned += split_part(c.bytes, shape.channels, ch).value();
          }
          const std::int64_t others = c.bytes.value() - owned;
          const std::int64_t out = stage < 0 ? c.bytes.value() : (stage == 0 ? others : owned);
          const std::int64_t in = stage < 0 ? c.bytes.value() : (stage == 0 ? owned : others);
          if (out > 0) {
            f.bytes = Bytes(out);
            fixed_flow(worker_of[gpus[m]], gpus[m], kNoGpu);
            hop(HopKind::kNvlinkOut, gpus[m]);
            finish_flow();
          }
          if (in > 0) {
            f.bytes = Bytes(in);
            fixed_flow(kNoIndex, kNoGpu, gpus[m]);
            hop(HopKind::kNvlinkIn, gpus[m]);
            finish_flow();
          }
        }
      }
    }
    if (stage == 0 || stage == 2) return;
    for (std::uint32_t ch = 0; ch < shape.channels; ++ch) {
      const int plane = plane_of_channel(ch, per_node_[g]);
      const Bytes bytes = split_part(c.bytes, shape.channels, ch);
      std::vector<std::uint32_t> owners;
      for (const auto& [host, gpus] : members) owners.push_back(gpus[ch % gpus.size()]);
      // Climb from every owner's leaf by the (ch mod u)-th up-link of each switch until the climbs
      // meet: the channels' trees spread over the spines and cores, as the SHARP Aggregation
      // Manager spreads a job's trees.
      std::vector<std::vector<LinkId>> climbs;
      std::set<std::uint32_t> leaves;
      for (const std::uint32_t gpu : owners) leaves.insert(fabric_.forwarding().leaf_of(port_of(gpu, plane)).value());
      for (const std::uint32_t leaf : leaves) {
        std::vector<LinkId> climb;
        for (VertexId v(leaf); true;) {
          const LinkId up = kth_up(v, ch);
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
      f.channel = ch;
      f.bytes = bytes;
      auto tree_flow = [&](LinkId link, bool up, std::uint32_t worker, std::uint32_t gpu) {
        fixed_flow(worker, gpu, kNoGpu);
        link_hop(link, up);
        finish_flow();
      };
      for (const std::uint32_t gpu : owners) {
        const LinkId nic(port_of(gpu, plane).value());
        tree_flow(nic, true, worker_of[gpu], gpu);
        tree_flow(nic, false, kNoIndex, kNoGpu);
      }
      for (const std::uint32_t l : edges) {
        tree_flow(LinkId(l), true, kNoIndex, kNoGpu);
        tree_flow(LinkId(l), false, kNoIndex, kNoGpu);
      }
    }
    f.channel = 0;
  }

  // The least time of flows [first, end) (one iteration of one operation) on a fabric without
  // collisions: per step, the largest bytes x 8 / capacity over the constraints the flows cannot
  // avoid (their fixed hops: NVLink, PXN, switch-tree edges; and the NIC links of network flows at
  // both ends), added over the steps (each waits for the previous). Bandwidth terms only. The flows
  // are taken step by step (a counting sort by step, flow order within a step) and a step's bits
  // summed per constraint in a dense array kept between calls (zero between them).
  [[nodiscard]] TimePs bound_of(std::uint32_t first, std::uint32_t end) {
    const double nvlink_bps = fabric_.spec().node.nvlink_bytes_per_s.value_or(0) / 2 * 8;
    // Dense constraint slots: directed links (2 per link), then NVLink egress and ingress per GPU.
    const auto links = static_cast<std::uint32_t>(t_.link_count());
    auto slot_of = [&](HopKind k, std::uint32_t index) -> std::uint32_t {
      switch (k) {
        case HopKind::kLinkUp: return 2 * index;
        case HopKind::kLinkDown: return 2 * index + 1;
        case HopKind::kNvlinkOut: return 2 * links + 2 * index;
        case HopKind::kNvlinkIn: return 2 * links + 2 * index + 1;
      }
      return kNoIndex;
    };
    auto capacity_of = [&](std::uint32_t slot) {
      return slot < 2 * links ? static_cast<double>(t_.capacity[slot / 2].value()) : nvlink_bps;
    };
    // The flows of each step, in flow order (a counting sort by step).
    std::vector<std::uint32_t> step_begin;
    for (std::uint32_t i = first; i < end; ++i) {
      if (w_.flows[i].join) continue;
      const std::uint32_t step = w_.flows[i].step;
      if (step + 2 > step_begin.size()) step_begin.resize(step + 2, 0);
      ++step_begin[step + 1];
    }
    if (step_begin.empty()) return TimePs(0);
    for (std::size_t k = 1; k < step_begin.size(); ++k) step_begin[k] += step_begin[k - 1];
    std::vector<std::uint32_t> by_step(step_begin.back());
    {
      std::vector<std::uint32_t> cursor(step_begin.begin(), step_begin.end() - 1);
      for (std::uint32_t i = first; i < end; ++i) {
        if (!w_.flows[i].join) by_step[cursor[w_.flows[i].step]++] = i;
      }
    }
    // Per step: bits per constraint (added in flow order), the busiest constraint's time; steps added.
    std::vector<double>& bits = bound_bits_;
    if (bits.empty()) bits.assign(2 * static_cast<std::size_t>(links) + 2 * static_cast<std::size_t>(gpus_), 0.0);
    std::vector<std::uint32_t> touched;
    double total = 0;
    for (std::size_t step = 0; step + 1 < step_begin.size(); ++step) {
      auto charge = [&](std::uint32_t slot, double b) {
        if (slot == kNoIndex) return;
        if (bits[slot] == 0.0) touched.push_back(slot);
        bits[slot] += b;
      };
      for (std::uint32_t k = step_begin[step]; k < step_begin[step + 1]; ++k) {
        const std::uint32_t i = by_step[k];
        const WorkloadFlow& fl = w_.flows[i];
        const double b = static_cast<double>(fl.bytes.value()) * 8;
        for (const Hop& h : w_.hops_of(i)) charge(slot_of(h.kind, h.index), b);
        if (fl.routed) {
          charge(slot_of(HopKind::kLinkUp, fl.src_port.value()), b);
          charge(slot_of(HopKind::kLinkDown, fl.dst_port.value()), b);
        }
      }
      double worst = 0;
      for (const std::uint32_t slot : touched) {
        const double capacity = capacity_of(slot);
        if (capacity > 0) worst = std::max(worst, bits[slot] / capacity);
        bits[slot] = 0.0;
      }
      touched.clear();
      total += worst;
    }
    return TimePs(std::llround(total * 1e12));
  }

  // ---- point-to-point transfers ----
  // A phase per group (in order of first appearance), each with its workers: the distinct senders
  // of its transfers, in order of first appearance. Returns each transfer's worker. A sender is
  // known by its port vertex or its GPU, and named once, when it first sends in a phase.
  std::vector<std::uint32_t> transfer_workers(std::uint32_t first_phase) {
    std::vector<std::uint32_t> group_of(s_.transfers.size());
    std::vector<const std::string*> groups;
    {
      std::map<std::string_view, std::uint32_t> index_of;
      for (std::size_t i = 0; i < s_.transfers.size(); ++i) {
        const auto [it, added] = index_of.emplace(s_.transfers[i].group, static_cast<std::uint32_t>(groups.size()));
        if (added) groups.push_back(&s_.transfers[i].group);
        group_of[i] = it->second;
      }
    }
    // The transfers of each group, in order (a counting sort by group).
    std::vector<std::uint32_t> begin(groups.size() + 1, 0);
    for (const std::uint32_t g : group_of) ++begin[g + 1];
    for (std::size_t g = 1; g < begin.size(); ++g) begin[g] += begin[g - 1];
    std::vector<std::uint32_t> by_group(s_.transfers.size());
    {
      std::vector<std::uint32_t> cursor(begin.begin(), begin.end() - 1);
      for (std::uint32_t i = 0; i < group_of.size(); ++i) by_group[cursor[group_of[i]]++] = i;
    }
    // Per sender (port vertices, then GPUs): the phase it last sent in and its worker there.
    const std::size_t vertices = t_.vertex_count();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sender(vertices + gpus_, {kNoIndex, kNoIndex});
    std::vector<std::uint32_t> worker_of(s_.transfers.size());
    for (std::uint32_t g = 0; g < groups.size(); ++g) {
      const auto phase = first_phase + g;
      w_.phases.push_back({});
      WorkloadPhase& p = w_.phases.back();
      p.name = *groups[g];
      p.workers_begin = static_cast<std::uint32_t>(w_.workers.size());
      for (std::uint32_t k = begin[g]; k < begin[g + 1]; ++k) {
        const TransferSpec& t = s_.transfers[by_group[k]];
        const std::size_t slot = t.src.is_port ? t.src.port.value() : vertices + t.src.gpu;
        if (slot >= sender.size()) sender.resize(slot + 1, {kNoIndex, kNoIndex});
        auto& [last_phase, worker] = sender[slot];
        if (last_phase != phase) {
          last_phase = phase;
          worker = static_cast<std::uint32_t>(w_.workers.size());
          w_.workers.push_back({t.src.is_port ? t_.vertex_name(t.src.port) : gpu_name(t_, t.src.gpu), phase, TimePs(0)});
        }
        worker_of[by_group[k]] = worker;
      }
      p.workers_end = static_cast<std::uint32_t>(w_.workers.size());
    }
    return worker_of;
  }

  void add_transfers() {
    if (s_.transfers.empty()) return;
    const std::uint32_t qps_default = static_cast<std::uint32_t>(std::max(1, fabric_.ecmp().qps_per_connection));
    const auto planes = static_cast<std::uint32_t>(std::max(t_.planes, 1));
    const auto first_phase = static_cast<std::uint32_t>(w_.phases.size());
    const std::vector<std::uint32_t> worker_of = transfer_workers(first_phase);
    std::string what;
    for (std::uint32_t i = 0; i < s_.transfers.size(); ++i) {
      const TransferSpec& t = s_.transfers[i];
      const auto op = static_cast<std::uint32_t>(w_.operations.size());
      WorkloadOperation o;
      o.name = t.name;
      o.kind = OperationKind::kTransfer;
      what.assign("transfer ").append(t.src.name).append(" -> ").append(t.dst.name);
      o.what = what;
      o.phase = w_.workers[worker_of[i]].phase;
      o.ranks = 2;
      o.bytes = t.bytes;
      o.records_begin = records_;
      WorkloadFlow f;
      f.operation = op;
      weight_ = t.weight;
      f.start = t.start;
      f.worker = worker_of[i];
      const std::uint32_t qps = t.qps == 0 ? qps_default : t.qps;
      if (t.src.is_port) {
        f.src_port = t.src.port;
        f.dst_port = t.dst.port;
        for (std::uint32_t q = 0; q < qps; ++q) {
          f.qp = q;
          f.bytes = split_part(t.bytes, qps, q);
          f.src_udp_port = connection_port(port_end(t.src.port), port_end(t.dst.port), 0, q, qps);
          add_network(f);
        }
      } else if (host_of(t.src.gpu) == host_of(t.dst.gpu)) {
        f.src_gpu = t.src.gpu;
        f.dst_gpu = t.dst.gpu;
        f.bytes = t.bytes;
        add(f);
        hop(HopKind::kNvlinkOut, t.src.gpu);
        hop(HopKind::kNvlinkIn, t.dst.gpu);
      } else {
        f.src_gpu = t.src.gpu;
        f.dst_gpu = t.dst.gpu;
        const std::uint32_t channels = t.channels == 0 ? planes : t.channels;
        for (std::uint32_t ch = 0; ch < channels; ++ch) {
          f.channel = ch;
          network_ends(f, t.src.gpu, t.dst.gpu, static_cast<int>(ch % planes));
          const Bytes part = split_part(t.bytes, channels, ch);
          for (std::uint32_t q = 0; q < qps; ++q) {
            f.qp = q;
            f.bytes = split_part(part, qps, q);
            f.src_udp_port = connection_port(gpu_end(t.src.gpu), gpu_end(t.dst.gpu), ch, q, qps);
            add_network(f);
          }
        }
      }
      o.records_end = records_;
      w_.operations.push_back(o);
    }
    end_batch();
  }

  // ---- mice ----
  void add_mice(std::size_t mi) {
    const MiceSpec& m = s_.mice[mi];
    Rng rng(s_.seed, 0, stream_of({kMiceTag, mi}));
    const auto op = static_cast<std::uint32_t>(w_.operations.size());
    WorkloadOperation o;
    o.name = m.name;
    o.kind = OperationKind::kMice;
    o.what = fmt::format("mice {} x {} B", m.count, m.bytes.value());
    o.bytes = m.bytes;
    o.records_begin = records_;
    const auto rails = static_cast<std::uint64_t>(t_.ports_per_host);
    const auto planes = static_cast<std::uint64_t>(std::max(t_.planes, 1));
    double at = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> mice_between;  // (src port, dst port) -> mice so far
    for (std::uint32_t i = 0; i < m.count; ++i) {
      const std::uint32_t src = m.hosts[rng.uniform(m.hosts.size())];
      std::uint32_t dst = src;
      while (dst == src) dst = m.hosts[rng.uniform(m.hosts.size())];
      const auto plane = static_cast<int>(rng.uniform(planes));
      WorkloadFlow f;
      f.operation = op;
      weight_ = m.weight;
      f.instance = i;
      f.src_port = t_.port_of(HostId(src), static_cast<int>(rng.uniform(rails)), plane);
      f.dst_port = t_.port_of(HostId(dst), static_cast<int>(rng.uniform(rails)), plane);
      // Each mouse is a connection of its own: the k-th of the set between these two ports is QP k.
      f.qp = mice_between[(std::uint64_t{f.src_port.value()} << 32) | f.dst_port.value()]++;
      f.src_udp_port = connection_port(port_end(f.src_port), port_end(f.dst_port), 0, f.qp, 0);
      f.bytes = m.bytes;
      if (m.arrivals_per_s > 0 && i > 0) at += rng.exponential(m.arrivals_per_s);
      f.start = m.start + TimePs(std::llround(std::min(at, to_seconds(kMaxDuration)) * 1e12));  // inside TimePs
      add_network(f);
    }
    o.records_end = records_;
    w_.operations.push_back(o);
    end_batch();
  }

  const Fabric& fabric_;
  const Topology& t_;
  const Scenario& s_;
  CompileOptions o_;
  std::vector<double>* weights_;  // the flow engine's max-min weights, when asked for
  double weight_ = 1.0;           // of the flows added from now on
  bool nvlink_ = false;
  std::uint32_t gpus_ = 0;
  Workload w_;
  std::uint32_t records_ = 0;  // reported flows (not joins) so far
  std::uint64_t expected_flows_ = 0;  // check()'s count of the flows but SHARP's, at most max_flows
  bool pxn_noted_ = false;
  std::vector<std::vector<Span>> current_;  // per group, per plan transfer: its flows
  std::vector<std::uint32_t> per_node_;     // per group of the collective being built: most GPUs on a host
  std::vector<double> bound_bits_;          // bound_of: bits per dense constraint slot, zero between calls
};

}  // namespace

Result<Workload> compile_workload(const Fabric& fabric, const Scenario& scenario, const CompileOptions& options,
                                  std::vector<double>* max_min_weights) {
  return WorkloadCompiler(fabric, scenario, options, max_min_weights).compile();
}

}  // namespace ct
