#include "sim/flow_router.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "routing/port_address.h"

namespace ct {
namespace {

Scheme scheme_of(PathModel p) {
  switch (p) {
    case PathModel::kEcmp: return Scheme::kHash;
    case PathModel::kSpray: return Scheme::kSpray;
    case PathModel::kAdaptive: return Scheme::kAdaptive;
  }
  return Scheme::kHash;
}

}  // namespace

FlowRouter::FlowRouter(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                       std::span<const double> max_min_weights)
    : fabric_(fabric),
      t_(fabric.topology()),
      w_(workload),
      weights_(max_min_weights),
      scheme_(scheme_of(scenario.paths)),
      seed_(scenario.seed),
      addressable_(addressable(t_)),
      walker_(&fabric.walker()) {}

FlowRoutes FlowRouter::route(std::span<const std::uint32_t> flows, std::vector<std::uint32_t>& position) const {
  std::vector<std::uint32_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0U);
  if (scheme_ == Scheme::kAdaptive) {
    const auto identity = [&](std::uint32_t k) {
      const WorkloadFlow& f = w_.flows[flows[k]];
      const double weight = weights_.empty() ? 1.0 : weights_[flows[k]];
      return std::tuple(f.src_port.value(), f.dst_port.value(), f.src_udp_port, f.bytes.value(), f.start.value(), weight);
    };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return identity(a) < identity(b); });
  }
  if (const LftForwarding* lfts = fabric_.lfts()) return route_by_lfts(*lfts, flows, order, position);
  std::vector<RouteRequest> requests;
  requests.reserve(flows.size());
  position.assign(flows.size(), 0);
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const WorkloadFlow& f = w_.flows[flows[order[i]]];
    requests.push_back({f.src_port, f.dst_port, key_of(f.src_port, f.dst_port, f.src_udp_port), 1});
    position[order[i]] = i;
  }
  return route_flows(scheme_, *walker_, requests, {.qps = 1, .seed = seed_, .trial = 0, .entered_groups = false});
}

FlowRoutes FlowRouter::route_by_lfts(const LftForwarding& lfts, std::span<const std::uint32_t> flows,
                                     const std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& position) const {
  FlowRoutes r;
  r.flow_count = static_cast<std::uint32_t>(flows.size());
  r.reached.assign(flows.size(), 1);
  position.assign(flows.size(), 0);
  std::vector<std::uint32_t> hops;
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const WorkloadFlow& f = w_.flows[flows[order[i]]];
    position[order[i]] = i;
    r.start_subflow(i, 0, 1.0);
    if (!lfts.walk(t_, f.src_port, f.dst_port, hops)) r.reached[i] = 0;
    for (const std::uint32_t d : hops) r.add(d, 1.0);
  }
  return r;
}

void FlowRouter::converge(const std::vector<LinkId>& down) {
  converged_walker_.reset();
  converged_forwarding_ = std::make_unique<ForwardingState>(t_, down);
  converged_walker_ = std::make_unique<PathWalker>(*converged_forwarding_, fabric_.hashes());
  walker_ = converged_walker_.get();
}

FlowKey FlowRouter::key_of(VertexId src, VertexId dst, std::uint16_t src_udp_port) const {
  FlowKey k;
  k.src_ip = addressable_ ? port_address(t_, src) : src.value();
  k.dst_ip = addressable_ ? port_address(t_, dst) : dst.value();
  k.src_port = src_udp_port;
  return k;
}

}  // namespace ct
