#include "traffic/flow_generator.h"

#include <algorithm>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "routing/port_address.h"

namespace ct {
namespace {

Flow make_flow(const Topology& t, VertexId src, VertexId dst, Rng& rng) {
  Flow f;
  f.src = src;
  f.dst = dst;
  f.key.src_ip = port_address(t, src);
  f.key.dst_ip = port_address(t, dst);
  f.key.protocol = kIpProtoUdp;
  f.key.dst_port = kRoceV2UdpPort;
  f.key.src_port = draw_roce_source_port(rng);
  return f;
}

// The leaf a backend port's NIC link goes to.
VertexId leaf_of(const Topology& t, VertexId port) { return t.other_end(LinkId(port.value()), port); }

}  // namespace

Endpoints default_elephant_endpoints(const Topology& t, int count) {
  Endpoints e;
  if (t.backend_port_count() == 0) return e;
  const VertexId first_leaf = leaf_of(t, VertexId(0u));
  // The farthest leaf of plane 0: another pod beats another leaf; ties go to the lowest id.
  VertexId far = first_leaf;
  int best = 0;
  for (std::uint32_t p = 0; p < t.backend_port_count(); ++p) {
    const VertexId leaf = leaf_of(t, VertexId(p));
    if (t.plane[leaf.value()] != t.plane[first_leaf.value()]) continue;
    const int distance = leaf == first_leaf ? 0 : (t.group[leaf.value()] != t.group[first_leaf.value()] ? 2 : 1);
    if (distance > best || (distance == best && distance > 0 && leaf < far)) {
      best = distance;
      far = leaf;
    }
  }
  for (std::uint32_t p = 0; p < t.backend_port_count(); ++p) {
    if (leaf_of(t, VertexId(p)) == first_leaf && e.sources.size() < static_cast<std::size_t>(count)) {
      e.sources.push_back(VertexId(p));
    }
    if (leaf_of(t, VertexId(p)) == far) e.destinations.push_back(VertexId(p));
  }
  // Flow i goes to destinations[(i + shift) mod D]: the first shift, from the first port of a host
  // that sends nothing on, with which no flow goes to its own host (pairs repeat with period
  // lcm(S, D)); when there is none, the starting shift (the report says so).
  const std::size_t s_count = e.sources.size(), d_count = e.destinations.size();
  if (s_count == 0 || d_count == 0) return e;
  std::set<std::uint32_t> sending_hosts;
  for (VertexId p : e.sources) sending_hosts.insert(t.group[p.value()]);
  std::size_t start = 0;
  while (start < d_count && sending_hosts.count(t.group[e.destinations[start].value()]) > 0) ++start;
  start %= d_count;
  const std::size_t period = std::min<std::size_t>(static_cast<std::size_t>(count), std::lcm(s_count, d_count));
  auto own_host = [&](std::size_t shift) {
    for (std::size_t i = 0; i < period; ++i) {
      if (t.group[e.sources[i % s_count].value()] == t.group[e.destinations[(i + shift) % d_count].value()]) return true;
    }
    return false;
  };
  std::size_t shift = start;
  for (std::size_t k = 0; k < d_count; ++k) {
    if (!own_host((start + k) % d_count)) {
      shift = (start + k) % d_count;
      break;
    }
  }
  std::rotate(e.destinations.begin(), e.destinations.begin() + static_cast<std::ptrdiff_t>(shift), e.destinations.end());
  return e;
}

std::vector<Flow> elephant_flows(const Topology& t, const ElephantOptions& options, std::uint64_t seed) {
  Endpoints e{options.sources, options.destinations};
  if (e.sources.empty() || e.destinations.empty()) {
    const Endpoints d = default_elephant_endpoints(t, options.count);
    if (e.sources.empty()) e.sources = d.sources;
    if (e.destinations.empty()) e.destinations = d.destinations;
  }
  Rng rng(seed, 0, kPortStream);
  std::vector<Flow> flows;
  for (int i = 0; i < options.count; ++i) {
    Flow f = make_flow(t, e.sources[i % e.sources.size()], e.destinations[i % e.destinations.size()], rng);
    f.size = options.size;
    f.bursts = options.bursts;
    f.idle_us = options.idle_us;
    f.label = fmt::format("elephant {}", i);
    flows.push_back(f);
  }
  return flows;
}

std::vector<Flow> ring_flows(const Topology& t, const RingOptions& options, std::uint64_t seed) {
  Rng rng(seed, 0, kPortStream);
  std::vector<Flow> flows;
  const auto hosts = static_cast<std::uint32_t>(t.host_count);
  for (int rail = 0; rail < t.ports_per_host; ++rail) {
    for (int plane = 0; plane < t.planes; ++plane) {
      for (std::uint32_t h = 0; h < hosts; ++h) {
        const VertexId src = t.port_of(HostId(h), rail, plane);
        const VertexId dst = t.port_of(HostId((h + 1) % hosts), rail, plane);
        for (int c = 0; c < options.channels; ++c) {
          for (int q = 0; q < options.qps; ++q) {
            Flow f = make_flow(t, src, dst, rng);
            f.size = options.size;
            f.label = fmt::format("ring rail {} plane {} host {} ch {} qp {}", rail, plane, h, c, q);
            flows.push_back(f);
          }
        }
      }
    }
  }
  return flows;
}

}  // namespace ct
