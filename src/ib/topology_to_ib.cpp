#include "ib/topology_to_ib.h"

#include <algorithm>

#include <fmt/format.h>

namespace ct {

Result<IbFabric> fabric_from_topology(const Topology& topology, int plane, const std::string& spec_path) {
  if (plane < 0 || plane >= topology.planes) {
    return Diagnostic{{"command line", 0, 0}, "--plane",
                      fmt::format("plane {} does not exist: the backend has {} plane(s)", plane, topology.planes)};
  }
  IbFabric fabric;
  fabric.source = spec_path;
  fabric.source_context = fmt::format("plane {}", plane);
  const std::size_t n = topology.vertex_count();
  std::vector<IbNodeId> node_of(n);
  std::vector<int> next_port(n, 1);
  auto in_plane = [&](std::size_t v) {
    return topology.network[v] == Network::kBackend && topology.plane[v] == plane;
  };
  for (std::size_t v = 0; v < n; ++v) {
    if (!in_plane(v)) continue;
    const VertexId vid(v);
    if (topology.kind[v] == VertexKind::kPort) {
      const std::uint64_t guid = kTopologyCaGuidBase + 2 * static_cast<std::uint64_t>(v);
      node_of[v] = fabric.add_node(IbNodeType::kCa, guid, fmt::format("H-{:016x}", guid), topology.vertex_name(vid), 1);
      continue;
    }
    const int cables = static_cast<int>(topology.neighbors(vid).size());
    const int ports = std::max<int>(cables, topology.ports[v]);
    if (ports > IbFabric::kMaxPorts) {
      return Diagnostic{{spec_path, 0, 0}, "backend.switch",
                        fmt::format("switch {} needs {} ports; an InfiniBand switch has at most {}",
                                    topology.vertex_name(vid), ports, IbFabric::kMaxPorts)};
    }
    const std::uint64_t guid = kTopologySwitchGuidBase + static_cast<std::uint64_t>(v);
    node_of[v] = fabric.add_node(IbNodeType::kSwitch, guid, fmt::format("S-{:016x}", guid), topology.vertex_name(vid),
                                 std::max(ports, 1));
    fabric.tier[node_of[v].value()] = topology.tier[v];
  }
  for (std::size_t l = 0; l < topology.link_count(); ++l) {
    const auto a = topology.link_a[l].value();
    const auto b = topology.link_b[l].value();
    if (!in_plane(a) || !in_plane(b)) continue;
    // Ports follow neighbors() order, which is link-id order: number them as links come.
    if (next_port[a] > fabric.ports(node_of[a]) || next_port[b] > fabric.ports(node_of[b])) {
      return Diagnostic{{spec_path, 0, 0}, "backend", fmt::format("link {} exceeds the ports of an end", topology.link_name(LinkId(l)))};
    }
    fabric.connect(node_of[a], next_port[a]++, node_of[b], next_port[b]++);
  }
  return fabric;
}

int ib_port_of(const Topology& topology, VertexId v, LinkId l) {
  if (topology.kind[v.value()] == VertexKind::kPort) return 1;
  int port = 1;
  for (const Adjacency& adj : topology.neighbors(v)) {
    if (adj.link < l) ++port;
  }
  return port;
}

}  // namespace ct
