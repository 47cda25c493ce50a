#include "analysis/engine_comparison.h"

#include <algorithm>
#include <cmath>

#include "analysis/operation_figures.h"

namespace ct {
namespace {

constexpr double kLatencyShare = 0.25;  // per-packet latency worth naming: a quarter of the gap

bool is_link(const ResourceInfo& r) { return r.kind == ResourceKind::kLinkUp || r.kind == ResourceKind::kLinkDown; }

std::span<const std::uint32_t> path_of(const SimulationResult& r, const FlowRecord& f) {
  return {r.path_pool.data() + f.path_begin, f.path_size};
}

// The packet run's view of its ports: which were stopped, which were congestion points, which
// are channels of its credit loop (a deadlock), how many flows end on each.
struct PortFacts {
  std::vector<std::uint8_t> stopped;
  std::vector<std::uint8_t> congested;
  std::vector<std::uint32_t> ending;  // flows whose last link hop it is
  std::vector<std::uint8_t> in_loop;
};

PortFacts port_facts(const SimulationResult& p, EngineComparison& out) {
  const std::size_t n = p.resources.size();
  PortFacts facts{std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0), std::vector<std::uint32_t>(n, 0),
                  std::vector<std::uint8_t>(n, 0)};
  for (const std::vector<std::uint32_t>& loop : p.packet.deadlock_cycles) {
    for (const std::uint32_t c : loop) facts.in_loop[c] = 1;
  }
  const std::int64_t two_packets = 2 * p.packet.mtu;
  for (std::uint32_t c = 0; c < n; ++c) {
    const ResourceStats& s = p.stats[c];
    if (!is_link(p.resources[c]) || s.carried_bits <= 0) continue;
    ++out.ports_used;
    const TimePs stopped = s.pause_time + s.credit_stall;
    if (stopped.value() > 0) {
      facts.stopped[c] = 1;
      ++out.stopped_ports;
      out.stopped += stopped;
    } else if (s.peak_queue_bytes >= two_packets) {
      facts.congested[c] = 1;
      ++out.congestion_points;
    }
  }
  for (const FlowRecord& f : p.flows) {
    const auto path = path_of(p, f);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (!is_link(p.resources[*it])) continue;
      ++facts.ending[*it];
      break;
    }
  }
  return facts;
}

bool victim(const SimulationResult& p, const PortFacts& facts, const FlowRecord& f) {
  bool stopped = false;
  for (const std::uint32_t c : path_of(p, f)) {
    if (facts.congested[c] != 0 || facts.in_loop[c] != 0) return false;
    stopped = stopped || facts.stopped[c] != 0;
  }
  return stopped;
}

// The per-packet latency a flow of the packet run has and the flow engine does not model: at each
// switch on its path, the switch's latency and (store-and-forward) one packet's serialization on
// the link into it.
TimePs packet_latency(const SimulationResult& p, const FlowRecord& f) {
  std::vector<std::uint32_t> links;
  for (const std::uint32_t c : path_of(p, f)) {
    if (is_link(p.resources[c])) links.push_back(c);
  }
  TimePs total{0};
  for (std::size_t h = 0; h + 1 < links.size(); ++h) {
    total += p.packet.switch_latency;
    const auto rate = static_cast<double>(p.resources[links[h]].capacity.value());
    if (!p.packet.cut_through && rate > 0) {
      total += TimePs(std::llround(static_cast<double>(p.packet.mtu) * 8 / rate * 1e12));
    }
  }
  return total;
}

void compare_operation(const SimulationResult& flow, const SimulationResult& p, const PortFacts& facts,
                       const std::vector<std::uint8_t>& is_victim, OperationComparison& c) {
  const OperationResult& fo = flow.operations[c.operation];
  const OperationResult& po = p.operations[c.operation];
  c.flow_complete = fo.complete;
  c.packet_complete = po.complete;
  c.flow_s = std::max(0.0, mean_iteration_seconds(fo));
  c.packet_s = std::max(0.0, mean_iteration_seconds(po));
  c.difference = c.flow_s > 0 && c.packet_s > 0 ? c.packet_s / c.flow_s - 1 : 0;
  c.agree = c.flow_complete && c.packet_complete && c.flow_s > 0 && std::abs(c.difference) <= kAgreement;
  std::vector<std::uint8_t> seen(p.resources.size(), 0);
  for (std::uint32_t r = po.flows_begin; r < po.flows_end; ++r) {
    const FlowRecord& f = p.flows[r];
    c.victims += is_victim[r];
    c.latency = std::max(c.latency, packet_latency(p, f));
    const auto path = path_of(p, f);
    for (const std::uint32_t port : path) {
      if (seen[port] != 0 || facts.stopped[port] == 0) continue;
      seen[port] = 1;
      ++c.stopped_ports;
      c.stopped += p.stats[port].pause_time + p.stats[port].credit_stall;
    }
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (!is_link(p.resources[*it])) continue;
      const bool queued = p.stats[*it].peak_queue_bytes >= 2 * p.packet.mtu;
      if (queued && facts.ending[*it] >= 2 && facts.ending[*it] > c.incast_flows) {
        c.incast_flows = facts.ending[*it];
        c.incast_port = *it;
      }
      break;
    }
  }
  if (c.agree) return;
  if (c.flow_complete && !c.packet_complete && !p.packet.deadlock_cycles.empty()) {
    c.reasons.push_back(DifferenceReason::kDeadlock);
  }
  if (c.incast_flows >= 2) c.reasons.push_back(DifferenceReason::kIncast);
  if (c.stopped.value() > 0) c.reasons.push_back(DifferenceReason::kFlowControl);
  if (c.victims > 0) c.reasons.push_back(DifferenceReason::kVictims);
  const double gap = std::abs(c.packet_s - c.flow_s);
  if (c.flow_s > 0 && to_seconds(c.latency) >= kLatencyShare * gap) c.reasons.push_back(DifferenceReason::kLatency);
  if (c.reasons.empty()) c.reasons.push_back(DifferenceReason::kSharing);
}

}  // namespace

EngineComparison compare_engines(const SimulationResult& flow, const SimulationResult& packet) {
  EngineComparison out;
  out.deadlock = !packet.packet.deadlock_cycles.empty();
  const PortFacts facts = port_facts(packet, out);
  std::vector<std::uint8_t> is_victim(packet.flows.size(), 0);
  for (std::uint32_t r = 0; r < packet.flows.size(); ++r) {
    if (!victim(packet, facts, packet.flows[r])) continue;
    is_victim[r] = 1;
    out.victims.push_back(r);
  }
  for (std::uint32_t o = 0; o < packet.operations.size() && o < flow.operations.size(); ++o) {
    OperationComparison& c = out.operations.emplace_back();
    c.operation = o;
    compare_operation(flow, packet, facts, is_victim, c);
    out.agree += c.agree ? 1 : 0;
  }
  return out;
}

}  // namespace ct
