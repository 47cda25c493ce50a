#include "sim/packet/packet_simulation.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "sim/fault_timeline.h"
#include "sim/flow_router.h"
#include "sim/packet/packet_engine.h"
#include "sim/packet/sharp_aggregation.h"
#include "sim/queue_statistics.h"
#include "sim/resource_name.h"
#include "sim/result_recorder.h"

namespace ct::packet_engine {
namespace {

struct SwitchFigures {
  TimePs latency{0};
  std::int64_t buffer_bytes = 0;
  bool cut_through = false;
  bool pfc = false;  // Ethernet (RoCE v2): PFC per priority instead of credits
  bool dcqcn = false;  // RoCE v2: ECN marking at the switches, DCQCN at the senders
};

// PFC thresholds of a channel's far end (packet_simulation.h): the headroom holds what can still
// arrive after the XOFF left, R (2 d + L) / 8 + 2 MTU; XOFF the buffer less the headroom; XON two
// MTUs lower.
void set_pfc(PacketChannelSpec& spec, std::int64_t buffer_bytes, std::int64_t mtu) {
  const auto in_flight = static_cast<double>(spec.rate.value()) *
                         to_seconds(spec.propagation * 2 + spec.forward_latency) / 8;
  spec.pfc = true;
  spec.headroom_bytes = static_cast<std::int64_t>(std::ceil(in_flight)) + 2 * mtu;
  spec.xoff_bytes = std::max<std::int64_t>(mtu, buffer_bytes - spec.headroom_bytes);
  spec.xon_bytes = std::max<std::int64_t>(0, spec.xoff_bytes - 2 * mtu);
}

// The switch figures of a run: the options', else the catalog's; a diagnostic naming what is missing.
Result<SwitchFigures> switch_figures(const Fabric& fabric, const Scenario& scenario, const PacketOptions& o) {
  const SwitchModel& model = fabric.spec().backend.switch_model;
  const auto missing = [&](const char* what, const char* flag) {
    return Diagnostic{{scenario.file, 0, 0}, "engine",
                      fmt::format("the packet engine needs the switches' {}: the catalog gives none for {} (not "
                                  "published); give it with {}",
                                  what, model.id, flag)};
  };
  SwitchFigures f;
  if (o.switch_latency) {
    f.latency = *o.switch_latency;
  } else if (model.latency_ns) {
    f.latency = TimePs(std::llround(*model.latency_ns * 1000));
  } else {
    return missing("port-to-port latency", "--switch-latency");
  }
  if (o.buffer_bytes) {
    f.buffer_bytes = *o.buffer_bytes;
  } else if (model.buffer_bytes_per_vl) {
    f.buffer_bytes = std::llround(*model.buffer_bytes_per_vl);
  } else {
    return missing("buffer per port and VL", "--switch-buffer");
  }
  if (o.cut_through) {
    f.cut_through = *o.cut_through;
  } else if (model.forwarding) {
    f.cut_through = *model.forwarding == Forwarding::kCutThrough;
  } else {
    return missing("forwarding (cut-through or store-and-forward)", "--forwarding");
  }
  f.pfc = fabric.protocol() == Protocol::kEthernet;
  if (o.dcqcn.value_or(false) && !f.pfc) {
    return Diagnostic{{scenario.file, 0, 0}, "engine",
                      fmt::format("--dcqcn on: DCQCN is RoCE v2's congestion control, and {} runs InfiniBand's credits; "
                                  "leave --dcqcn out",
                                  fabric.spec().name)};
  }
  f.dcqcn = f.pfc && o.dcqcn.value_or(true);
  if (f.buffer_bytes < o.mtu) {
    return Diagnostic{{scenario.file, 0, 0}, "engine",
                      fmt::format("a buffer of {} B per port and VL holds no packet of {} B (the MTU): nothing could "
                                  "be sent",
                                  f.buffer_bytes, o.mtu)};
  }
  return f;
}

// A flow of a SHARP aggregation tree (workload/workload_compiler.h): one switch-tree hop, neither
// routed nor between ports, of an all-reduce run with algorithm sharp.
bool is_sharp_tree_flow(const Workload& w, std::uint32_t f) {
  const WorkloadFlow& wf = w.flows[f];
  if (wf.routed || wf.join || wf.hops_size != 1 || wf.src_port.valid() || wf.operation >= w.operations.size()) return false;
  const HopKind kind = w.hops[wf.hops_begin].kind;
  const WorkloadOperation& op = w.operations[wf.operation];
  return (kind == HopKind::kLinkUp || kind == HopKind::kLinkDown) && op.kind == OperationKind::kCollective &&
         op.what.starts_with("all-reduce sharp");
}

// SHARP's figures (a run with aggregation trees): the options', else the catalog's, else an error
// naming the flag.
Result<SharpFigures> sharp_figures(const Fabric& fabric, const Scenario& scenario, const PacketOptions& o,
                                   TimePs switch_latency) {
  const SwitchModel& model = fabric.spec().backend.switch_model;
  const auto missing = [&](const char* what, const char* flag) {
    return Diagnostic{{scenario.file, 0, 0}, "engine",
                      fmt::format("the packet engine runs SHARP all-reduce in the switches and needs their {}: the "
                                  "catalog gives none for {} (not published); give it with {}",
                                  what, model.id, flag)};
  };
  SharpFigures f;
  f.switch_latency = switch_latency;
  if (o.sharp_latency) {
    f.reduction_latency = *o.sharp_latency;
  } else if (model.sharp_latency_ns) {
    f.reduction_latency = TimePs(std::llround(*model.sharp_latency_ns * 1000));
  } else {
    return missing("reduction latency", "--sharp-latency");
  }
  if (o.sharp_trees) {
    f.trees = *o.sharp_trees;
  } else if (model.sharp_trees) {
    f.trees = static_cast<std::uint32_t>(*model.sharp_trees);
  } else {
    return missing("aggregation trees per switch", "--sharp-trees");
  }
  return f;
}

class Driver {
 public:
  Driver(const Fabric& fabric, const Scenario& scenario, const Workload& workload, const SimulationOptions& options,
         const SwitchFigures& figures, const std::optional<SharpFigures>& sharp)
      : t_(fabric.topology()),
        names_(fabric.names()),
        s_(scenario),
        w_(workload),
        o_(options),
        figures_(figures),
        router_(fabric, scenario, workload),
        faults_(scenario, fabric.topology().link_count()),
        engine_(options.packet.mtu, options.packet.vls),
        rec_(fabric, workload, options.series_links > 0,
             [this](std::uint32_t, const ResourceInfo& info) { engine_.add_channel(channel_spec(info)); }),
        result_(rec_.result()) {
    if (sharp) {
      sharp_.emplace(engine_, options.packet.mtu, *sharp);
      sharp_figures_ = *sharp;
    }
  }

  Result<SimulationResult> run() {
    start_result();
    schedule_faults();
    for (std::uint32_t b = 0; b < w_.batch_count(); ++b) add_batch(w_.batch_begin[b], w_.batch_begin[b + 1]);
    add_sharp_trees();
    if (!error_.empty()) return Diagnostic{{s_.file, 0, 0}, "scenario", error_};
    if (o_.series_links > 0) engine_.keep_load_log(LinkStatistics::kSeriesLogLimit);
    engine_.set_on_timer([this](std::uint32_t fault) { converge(fault); });
    if (o_.queue_series > 0) {
      engine_.set_on_queue([this](std::uint32_t c, TimePs at, std::int64_t bytes) { queues_.on_queue(c, at, bytes); });
    }
    std::uint64_t events = 0;
    while (engine_.step()) {
      if (++events % 65536 == 0 && o_.progress != nullptr) o_.progress->update(done(), w_.flows.size(), engine_.now());
    }
    // Sprayed paths of unequal length first met at a reroute (converge): no result for a run whose
    // flows could not take their new paths.
    if (!error_.empty()) return Diagnostic{{s_.file, 0, 0}, "scenario", error_};
    collect();
    return std::move(result_);
  }

 private:
  void start_result() {
    PacketRunInfo& info = result_.packet;
    info.ran = true;
    info.mtu = o_.packet.mtu;
    info.vls = o_.packet.vls;
    info.switch_latency = figures_.latency;
    info.buffer_bytes = figures_.buffer_bytes;
    info.cut_through = figures_.cut_through;
    info.pfc = figures_.pfc;
    info.dcqcn = figures_.dcqcn;
    if (figures_.dcqcn) {
      info.ecn_kmin = o_.packet.ecn.kmin_bytes;
      info.ecn_kmax = o_.packet.ecn.kmax_bytes;
      info.ecn_pmax = o_.packet.ecn.pmax;
      engine_.enable_dcqcn(o_.packet.dcqcn_params);
    }
    engine_.set_seed(s_.seed);
  }

  [[nodiscard]] std::uint64_t done() const {
    std::uint64_t n = 0;
    for (std::uint32_t f = 0; f < engine_.flow_count(); ++f) n += engine_.state(f) == PacketFlowState::kDone ? 1 : 0;
    return n;
  }

  // ---- channels, created on first use (by the recorder) ----
  // A resource's channel: a link's direction forwards at its far end's switch; an NVLink direction
  // is cut-through with unlimited credits.
  PacketChannelSpec channel_spec(const ResourceInfo& info) {
    PacketChannelSpec spec;
    spec.rate = info.capacity;
    if (info.kind != ResourceKind::kLinkUp && info.kind != ResourceKind::kLinkDown) {
      spec.cut_through = true;
      return spec;
    }
    const LinkId l = info.link;
    const VertexId far = info.kind == ResourceKind::kLinkUp ? t_.link_b[l.value()] : t_.link_a[l.value()];
    const bool to_switch = t_.kind[far.value()] == VertexKind::kSwitch;
    spec.propagation = t_.latency[l.value()];
    spec.forward_latency = to_switch ? figures_.latency : TimePs(0);
    spec.cut_through = to_switch && figures_.cut_through;
    spec.credit_blocks = figures_.buffer_bytes / kCreditBlockBytes;
    const VertexId near = info.kind == ResourceKind::kLinkUp ? t_.link_a[l.value()] : t_.link_b[l.value()];
    if (figures_.dcqcn && t_.kind[near.value()] == VertexKind::kSwitch) {  // a switch's egress port marks
      spec.ecn = o_.packet.ecn;
      spec.ecn.enabled = true;
    }
    if (figures_.pfc) {
      set_pfc(spec, figures_.buffer_bytes, o_.packet.mtu);
      if (spec.xoff_bytes + spec.headroom_bytes > figures_.buffer_bytes && error_.empty()) {
        error_ = fmt::format("a buffer of {} B per port and priority leaves no room for PFC on {}: the headroom is {} "
                             "B and XOFF needs one packet of {} B; give a larger --switch-buffer",
                             figures_.buffer_bytes, resource_name(names_, info), spec.headroom_bytes, o_.packet.mtu);
      }
    }
    return spec;
  }

  std::uint32_t directed(std::uint32_t directed_link) { return rec_.directed(directed_link); }
  std::uint32_t channel(const Hop& h) { return rec_.resource(h); }

  // ---- faults ----
  void schedule_faults() {
    faults_.schedule([this](TimePs at, std::uint32_t fault) { engine_.schedule_timer(at, fault); },
                     [this](std::uint32_t d, TimePs at, double fraction) { engine_.schedule_rate(directed(d), at, fraction); });
  }

  void converge(std::uint32_t i) {
    router_.converge(faults_.reconverge(i));
    rerouting_after_ = fmt::format(" after fault {} ('{}', routing reconverged at {:.3f} us)", i, s_.faults[i].what,
                                   to_seconds(engine_.now()) * 1e6);
    std::vector<std::uint32_t> moving;
    for (std::uint32_t f = 0; f < w_.flows.size(); ++f) {
      if (w_.flows[f].routed && engine_.state(f) != PacketFlowState::kDone) moving.push_back(f);
    }
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = router_.route(moving, position);
    std::vector<std::uint32_t> path;
    for (std::uint32_t k = 0; k < moving.size(); ++k) {
      if (routes.reached[position[k]] == 0) continue;
      const std::uint32_t paths = routed_path(routes, position[k], moving[k], path);
      // Unequal sprayed paths (error_, reported when the run ends): the flow keeps its paths.
      if (paths == 0 || same_paths(moving[k], path, paths)) continue;
      engine_.move_flow(moving[k], path, paths);
      rec_.rerouted(moving[k]);
    }
    rerouting_after_.clear();  // the flows routed from here on are no longer this fault's rerouting
  }

  // ---- flows ----
  // A routed flow's channels: its fixed hops (the PXN NVLink hop, if any), then its network hops.
  // A sprayed flow's paths, one after the other: packet n's (routing/load_balancing.h
  // sprayed_path) for n below the spray period and the flow's packet count, so that packet n takes
  // path n mod paths. Returns the number of paths; 0, with error_ set, when sprayed paths differ
  // in length (the engine keeps a flow's paths as equal runs of the pool).
  std::uint32_t routed_path(const FlowRoutes& routes, std::size_t sub, std::uint32_t flow,
                            std::vector<std::uint32_t>& path) {
    path.clear();
    const auto fixed = w_.hops_of(flow);
    if (!router_.spraying()) {
      for (const Hop& h : fixed) path.push_back(channel(h));
      for (const std::uint32_t l : routes.links(sub)) path.push_back(directed(l));
      return 1;
    }
    const WorkloadFlow& wf = w_.flows[flow];
    const std::int64_t mtu = o_.packet.mtu;
    const auto packets = static_cast<std::uint64_t>(std::max<std::int64_t>(1, (wf.bytes.value() + mtu - 1) / mtu));
    const std::uint64_t period = spray_period(router_.walker(), wf.src_port, wf.dst_port);
    const auto paths = static_cast<std::uint32_t>(std::min(packets, period));
    std::vector<std::uint32_t> links;
    std::size_t length = 0;
    for (std::uint32_t n = 0; n < paths; ++n) {
      sprayed_path(router_.walker(), wf.src_port, wf.dst_port, n, links);
      if (n == 0) length = fixed.size() + links.size();
      if (fixed.size() + links.size() != length) {
        if (error_.empty()) {
          error_ = fmt::format("flow {} (operation '{}'): the paths sprayed from {} to {} differ in length{}: the "
                               "packet engine sprays over equal-cost paths only",
                               flow, w_.operations[wf.operation].name, t_.vertex_name(wf.src_port),
                               t_.vertex_name(wf.dst_port), rerouting_after_);
        }
        return 0;
      }
      for (const Hop& h : fixed) path.push_back(channel(h));
      for (const std::uint32_t l : links) path.push_back(directed(l));
    }
    return paths;
  }

  // Whether the flow's paths are `paths` paths, one after the other in `path`.
  bool same_paths(std::uint32_t f, std::span<const std::uint32_t> path, std::uint32_t paths) const {
    if (paths != engine_.paths(f) || path.size() != std::size_t{paths} * engine_.path(f).size()) return false;
    for (std::uint32_t i = 0; i < paths; ++i) {
      const auto now = engine_.path(f, i);
      if (!std::equal(now.begin(), now.end(), path.begin() + static_cast<std::ptrdiff_t>(i * now.size()))) return false;
    }
    return true;
  }

  void add_batch(std::uint32_t first, std::uint32_t end) {
    std::vector<std::uint32_t> routed_flows;
    for (std::uint32_t f = first; f < end; ++f) {
      if (w_.flows[f].routed) routed_flows.push_back(f);
    }
    std::vector<std::uint32_t> position;
    const FlowRoutes routes = router_.route(routed_flows, position);
    std::vector<std::uint32_t> path;
    std::size_t routed = 0;
    for (std::uint32_t f = first; f < end; ++f) {
      const WorkloadFlow& wf = w_.flows[f];
      path.clear();
      std::uint32_t paths = 1;
      if (wf.routed) {
        if (routes.reached[position[routed]] == 0 && error_.empty()) {
          error_ = fmt::format("no path from {} to {} on the healthy fabric", t_.vertex_name(wf.src_port),
                               t_.vertex_name(wf.dst_port));
        }
        // 0: unequal sprayed paths, error_ set and the run refused before it starts.
        paths = std::max(1u, routed_path(routes, position[routed++], f, path));
      } else {
        for (const Hop& h : w_.hops_of(f)) path.push_back(channel(h));
      }
      PacketFlowRequest request;
      request.path = path;
      request.paths = paths;
      request.size = wf.bytes;
      request.start = wf.start;
      request.after = w_.after_of(f);
      request.delay = wf.delay;
      request.vl = static_cast<std::uint8_t>(wf.channel % o_.packet.vls);
      request.gated = sharp_.has_value() && is_sharp_tree_flow(w_, f);
      engine_.add_flow(request);
      rec_.add_record(f);
    }
  }

  // ---- SHARP ----
  // The aggregation trees: the tree flows of one operation, instance, iteration, stage and channel.
  void add_sharp_trees() {
    if (!sharp_) return;
    std::map<std::array<std::uint32_t, 5>, std::vector<SharpTreeFlow>> trees;
    for (std::uint32_t f = 0; f < w_.flows.size(); ++f) {
      if (!is_sharp_tree_flow(w_, f)) continue;
      const WorkloadFlow& wf = w_.flows[f];
      const Hop& h = w_.hops[wf.hops_begin];
      const std::uint32_t l = h.index;
      const bool a_to_b = h.kind == HopKind::kLinkUp;
      SharpTreeFlow tf;
      tf.flow = f;
      tf.channel = engine_.path(f).front();
      tf.from = (a_to_b ? t_.link_a : t_.link_b)[l].value();
      tf.to = (a_to_b ? t_.link_b : t_.link_a)[l].value();
      tf.from_switch = t_.kind[tf.from] == VertexKind::kSwitch;
      tf.to_switch = t_.kind[tf.to] == VertexKind::kSwitch;
      tf.up = !tf.from_switch || (tf.to_switch && t_.tier[tf.to] > t_.tier[tf.from]);
      trees[{wf.operation, wf.instance, wf.iteration, wf.step, wf.channel}].push_back(tf);
    }
    for (const auto& [key, flows] : trees) {
      if (const std::string error = sharp_->add_tree(flows); !error.empty() && error_.empty()) {
        error_ = fmt::format("{} (operation '{}')", error, w_.operations[key[0]].name);
      }
    }
    engine_.set_aggregator(&*sharp_);
  }

  void collect_sharp() {
    if (!sharp_) return;
    const SharpStats& s = sharp_->stats();
    PacketRunInfo& info = result_.packet;
    info.sharp_trees = s.trees;
    info.sharp_waited = s.waited;
    info.sharp_wait = s.wait;
    result_.notes.push_back(fmt::format(
        "SHARP: {} aggregation tree(s) reduced in the switches (reduction latency {:.0f} ns, at most {} tree(s) per "
        "switch, at most {} at once on one switch here); {} tree(s) waited for a free tree, {:.3f} us in all",
        s.trees, to_seconds(sharp_figures_.reduction_latency) * 1e9, sharp_figures_.trees, s.peak_trees, s.waited,
        to_seconds(s.wait) * 1e6));
  }

  // ---- results ----
  // A sprayed flow's record: every channel of its paths, hop by hop (then by channel), each with
  // the share of its paths that cross it (the share of its packets, up to the remainder).
  void sprayed_record(std::uint32_t f, std::vector<std::uint32_t>& channels, std::vector<double>& fractions) const {
    channels.clear();
    fractions.clear();
    const std::uint32_t paths = engine_.paths(f);
    const std::size_t length = engine_.path(f).size();
    std::map<std::uint32_t, std::uint32_t> at_hop;  // channel -> paths crossing it
    for (std::size_t h = 0; h < length; ++h) {
      at_hop.clear();
      for (std::uint32_t i = 0; i < paths; ++i) ++at_hop[engine_.path(f, i)[h]];
      for (const auto& [c, n] : at_hop) {
        channels.push_back(c);
        fractions.push_back(static_cast<double>(n) / paths);
      }
    }
  }

  void collect_flows() {
    const auto is_down = [this](std::uint32_t c) { return engine_.rate(c).value() <= 0; };
    std::vector<std::uint32_t> channels;
    std::vector<double> fractions;
    for (std::uint32_t r = 0; r < rec_.record_count(); ++r) {
      const std::uint32_t f = rec_.flow_of(r);
      const PacketFlowState state = engine_.state(f);
      FlowOutcome outcome;
      outcome.started = state != PacketFlowState::kWaiting;
      outcome.done = state == PacketFlowState::kDone;
      if (outcome.started) outcome.start = engine_.start_time(f);
      if (outcome.done) {
        outcome.end = engine_.completion_time(f);
      } else {
        outcome.bits_left = static_cast<double>(w_.flows[f].bytes.value() - engine_.delivered_bytes(f)) * 8;
      }
      if (engine_.paths(f) == 1) {
        rec_.finish_record(r, outcome, engine_.path(f), {}, is_down);
      } else {
        sprayed_record(f, channels, fractions);
        rec_.finish_record(r, outcome, channels, fractions, is_down);
      }
      result_.flows[r].cnps = engine_.cnps(f);
      result_.flows[r].ecn_marks = engine_.marked_received(f);
      result_.packet.cnps += result_.flows[r].cnps;
      // The receiver's reordering (spraying, a reroute). A flow's packets are MTU-sized but its last,
      // so its bytes delivered count its packets delivered exactly.
      result_.flows[r].out_of_order = engine_.out_of_order(f);
      result_.packet.out_of_order += engine_.out_of_order(f);
      result_.packet.packets_delivered += (engine_.delivered_bytes(f) + o_.packet.mtu - 1) / o_.packet.mtu;
    }
    result_.packet.spraying = router_.spraying();
  }

  // The loops (resource i is channel i), the records whose packets hold their buffers, the other
  // stalled records that a failed path stopped, and a note per loop.
  void collect_deadlock() {
    PacketRunInfo& info = result_.packet;
    const PacketDeadlock dead = engine_.deadlock();
    if (dead.empty()) return;
    info.deadlock_cycles = dead.cycles;
    std::vector<std::uint32_t> record_of(engine_.flow_count(), kNoIndex);
    for (std::uint32_t r = 0; r < rec_.record_count(); ++r) record_of[rec_.flow_of(r)] = r;
    for (const std::uint32_t f : engine_.flows_holding(dead.channels)) {
      assert(record_of[f] != kNoIndex && "a flow holding a loop's buffers has a record");
      info.deadlock_flows.push_back(record_of[f]);
    }
    std::sort(info.deadlock_flows.begin(), info.deadlock_flows.end());
    for (std::uint32_t r = 0; r < rec_.record_count(); ++r) {
      if (result_.flows[r].unfinished != Unfinished::kStalled || in_credit_loop(result_, r)) continue;
      if (path_failed(rec_.flow_of(r))) info.fault_stalled_flows.push_back(r);
    }
    for (const std::vector<std::uint32_t>& loop : dead.cycles) {
      std::string cycle;
      for (const std::uint32_t c : loop) cycle += resource_name(names_, result_.resources[c]) + " -> ";
      cycle += resource_name(names_, result_.resources[loop.front()]);
      result_.notes.push_back(fmt::format("deadlock: a credit loop of {} channels stopped the run at {:.3f} us with "
                                          "packets waiting for credits that never come: {}",
                                          loop.size(), to_seconds(engine_.now()) * 1e6, cycle));
    }
  }

  // Whether one of flow f's paths crosses a channel that is down (a fault, for good).
  [[nodiscard]] bool path_failed(std::uint32_t f) const {
    for (std::uint32_t i = 0; i < engine_.paths(f); ++i) {
      for (const std::uint32_t c : engine_.path(f, i)) {
        if (engine_.rate(c).value() <= 0) return true;
      }
    }
    return false;
  }

  // Why the stalled flows of a deadlocked run never finish, as the closing note says it: those in
  // a loop, those blocked behind one, and those a failed path stopped.
  [[nodiscard]] std::string stalled_by_deadlock() const {
    std::size_t stalled = 0;
    for (const FlowRecord& f : result_.flows) stalled += f.unfinished == Unfinished::kStalled ? 1 : 0;
    const std::size_t holding = result_.packet.deadlock_flows.size();
    const std::size_t faulted = result_.packet.fault_stalled_flows.size();
    const std::size_t behind = stalled - std::min(stalled, holding + faulted);
    const std::size_t loops = result_.packet.deadlock_cycles.size();
    std::string why = fmt::format("{} hold buffers of {} with their packets and {} {} blocked behind {} (deadlock)",
                                  holding, loops == 1 ? "a credit loop" : fmt::format("{} credit loops", loops), behind,
                                  behind == 1 ? "is" : "are", loops == 1 ? "it" : "them");
    if (faulted > 0) why += fmt::format("; {} {}", faulted, kStalledByFaults);
    return why;
  }

  // The links' load statistics from the engine's clocks, and its load changes for the time series.
  void collect_loads() {
    LinkStatistics& stats = rec_.link_stats();
    for (std::uint32_t c = 0; c < result_.resources.size(); ++c) {
      const PacketChannelStats s = engine_.channel_stats(c);
      stats.set_resource(c, s.saturated, s.load_changed, static_cast<double>(s.load.value()),
                         static_cast<double>(s.load_rate.value()));
      result_.stats[c].peak_bps = std::max(result_.stats[c].peak_bps, static_cast<double>(s.peak_load.value()));
    }
    stats.set_log(engine_.take_load_log());
  }

  void collect() {
    collect_loads();
    collect_flows();
    collect_deadlock();
    collect_sharp();
    const std::string deadlocked = result_.packet.deadlock_cycles.empty() ? "" : stalled_by_deadlock();
    rec_.close(std::max(faults_.last_event(), engine_.now()), deadlocked.empty() ? kStalledByFaults : deadlocked.c_str());
    // A deadlocked or stalled run's last event is the engine's clock: nothing happens after it.
    const TimePs makespan = result_.makespan;
    const double span = static_cast<double>(std::max<std::int64_t>(makespan.value(), 1));
    for (std::uint32_t c = 0; c < result_.resources.size(); ++c) {
      const PacketChannelStats s = engine_.channel_stats(c);
      ResourceStats& r = result_.stats[c];
      r.carried_bits = static_cast<double>(s.carried_bytes) * 8;
      r.peak_queue_bytes = s.peak_queue_bytes;
      r.mean_queue_bytes = s.queue_byte_ps / span;
      r.credit_stall = s.credit_stall;
      r.pause_time = s.pause_time;
      r.pause_frames = s.pause_frames;
      r.ecn_marks = s.ecn_marks;
    }
    if (result_.packet.dcqcn) {
      const std::uint32_t vls = result_.packet.vls;
      std::vector<std::int64_t>& marks = result_.packet.ecn_marks_by_class;
      marks.assign(result_.resources.size() * vls, 0);
      for (std::uint32_t c = 0; c < result_.resources.size(); ++c) {
        for (std::uint32_t k = 0; k < vls; ++k) marks[c * vls + k] = engine_.ecn_marks(c, static_cast<std::uint8_t>(k));
      }
    }
    result_.instants = engine_.events();
    result_.packet.events = engine_.events();
    result_.packet.drops = engine_.drops();
    result_.packet.peak_packets = engine_.peak_packets();
    if (engine_.drops() != 0) result_.notes.push_back(fmt::format("{} packet(s) dropped on the lossless class: a model error", engine_.drops()));
    rec_.add_statistics(o_.series_links, o_.series_bins);
    queues_.add_series(result_, o_.queue_series);
  }

  const Topology& t_;
  const NameDirectory& names_;
  const Scenario& s_;
  const Workload& w_;
  SimulationOptions o_;
  SwitchFigures figures_;
  FlowRouter router_;
  FaultTimeline faults_;
  PacketEngine engine_;
  std::optional<SharpAggregation> sharp_;
  SharpFigures sharp_figures_;
  ResultRecorder rec_;  // after engine_: it makes the engine's channels
  SimulationResult& result_;
  QueueStatistics queues_;
  std::string error_;
  std::string rerouting_after_;  // while converge() reroutes: the fault it reroutes after, for error_
};

}  // namespace

Result<SimulationResult> run(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                             const SimulationOptions& options) {
  auto figures = switch_figures(fabric, scenario, options.packet);
  if (!figures) return figures.errors();
  std::optional<SharpFigures> sharp;
  for (std::uint32_t f = 0; f < workload.flows.size() && !sharp; ++f) {
    if (!is_sharp_tree_flow(workload, f)) continue;
    auto s = sharp_figures(fabric, scenario, options.packet, figures->latency);
    if (!s) return s.errors();
    sharp = s.value();
  }
  return Driver(fabric, scenario, workload, options, figures.value(), sharp).run();
}

}  // namespace ct::packet_engine
