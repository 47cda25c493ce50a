#include "ib/simulation_fabric.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "spec/valid_spec.h"

namespace ct {
namespace {

// What the subnet becomes: its hosts (cabled CA ports), switches and cables, in topology order.
struct Layout {
  std::vector<IbPortRef> hosts;
  std::vector<IbNodeId> switches;
  std::map<std::pair<std::uint32_t, int>, LinkId> link_of;  // (node, port) -> link, both ends
  std::vector<std::uint32_t> vertex_of;                     // switches: node -> vertex
};

// Unique names: the label, or the node id where another node has the same label.
std::vector<std::string> node_names(const IbFabric& f) {
  std::unordered_map<std::string, int> uses;
  for (std::uint32_t n = 0; n < f.node_count(); ++n) ++uses[f.label(IbNodeId(n))];
  std::vector<std::string> names;
  for (std::uint32_t n = 0; n < f.node_count(); ++n) {
    const std::string& label = f.label(IbNodeId(n));
    names.push_back(uses[label] > 1 ? f.name[n] : label);
  }
  return names;
}

// The cable's rate from what its ends state; 0 when neither does.
BitsPerSecond cable_rate(const IbFabric& f, IbNodeId n, int p) {
  const IbLinkRate near = f.link_rate(n, p);
  const IbPortRef far = f.remote(n, p);
  const IbLinkRate other = f.link_rate(far.node, far.port);
  if (near.known() && other.known()) return std::min(near.rate(), other.rate());
  return near.known() ? near.rate() : other.known() ? other.rate() : BitsPerSecond(0);
}

Result<Topology> build_topology(const IbFabric& f, Layout& layout) {
  Diagnostics errors;
  const std::vector<std::string> names = node_names(f);
  Topology t;
  for (std::uint32_t n = 0; n < f.node_count(); ++n) {
    const IbNodeId node(n);
    if (f.is_switch(node)) {
      layout.switches.push_back(node);
      continue;
    }
    int cabled = 0;
    for (int p = 1; p <= f.ports(node); ++p) cabled += f.remote(node, p).connected() ? 1 : 0;
    for (int p = 1; p <= f.ports(node); ++p) {
      const IbPortRef far = f.remote(node, p);
      if (!far.connected()) continue;
      if (!f.is_switch(far.node)) {
        errors.push_back(fabric_diagnostic(f, node, "port.remote_node",
                                           fmt::format("\"{}\"[{}] is cabled to another CA (\"{}\"): simulate needs a "
                                                       "switch between hosts", f.label(node), p, f.label(far.node))));
      }
      const auto h = static_cast<std::uint32_t>(layout.hosts.size());
      t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, 0, 1);
      t.label.push_back(cabled > 1 ? fmt::format("{}:{}", names[n], p) : names[n]);
      layout.hosts.push_back({node, p});
    }
  }
  if (layout.hosts.empty()) errors.push_back(fabric_diagnostic(f, IbNodeId::invalid(), "file", "no CA is cabled: no host to simulate"));
  if (!errors.empty()) return errors;
  layout.vertex_of.assign(f.node_count(), 0);
  for (std::uint32_t s = 0; s < layout.switches.size(); ++s) {
    const IbNodeId node = layout.switches[s];
    layout.vertex_of[node.value()] =
        t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, s, f.ports(node)).value();
    t.label.push_back(names[node.value()]);
  }
  const auto add = [&](IbNodeId a, int pa, VertexId va, VertexId vb) {
    const BitsPerSecond rate = cable_rate(f, a, pa);
    const IbPortRef far = f.remote(a, pa);
    if (rate.value() <= 0) {
      errors.push_back(fabric_diagnostic(
          f, a, "port.rate",
          fmt::format("the cable \"{}\"[{}] -- \"{}\"[{}] states no width and speed (e.g. 4xNDR at the end of its "
                      "port line): simulate needs every cable's rate",
                      f.label(a), pa, f.label(far.node), far.port)));
      return;
    }
    const LinkId l = t.add_link(va, vb, rate, TimePs(0), -1);
    layout.link_of[{a.value(), pa}] = l;
    layout.link_of[{far.node.value(), far.port}] = l;
  };
  for (std::uint32_t h = 0; h < layout.hosts.size(); ++h) {
    const IbPortRef host = layout.hosts[h];
    add(host.node, host.port, VertexId(h), VertexId(layout.vertex_of[f.remote(host.node, host.port).node.value()]));
  }
  for (const IbNodeId s : layout.switches) {
    for (int p = 1; p <= f.ports(s); ++p) {
      const IbPortRef far = f.remote(s, p);
      if (!far.connected() || !f.is_switch(far.node) || std::pair(far.node.value(), far.port) < std::pair(s.value(), p)) continue;
      add(s, p, VertexId(layout.vertex_of[s.value()]), VertexId(layout.vertex_of[far.node.value()]));
    }
  }
  if (!errors.empty()) return errors;
  t.host_count = static_cast<long long>(layout.hosts.size());
  t.ports_per_host = 1;
  t.planes = 1;
  t.tiers = 2;
  t.gpus_per_host = 1;
  t.finalize();
  return t;
}

LftForwarding tables(const Topology& t, const IbFabric& f, const IbRouting& r, const Layout& layout) {
  LftForwarding lfts(t);
  for (const IbNodeId s : layout.switches) {
    const std::uint32_t row = r.switch_index(s);
    for (std::uint32_t h = 0; h < layout.hosts.size(); ++h) {
      const std::uint16_t lid = r.lids.base_lid(layout.hosts[h].node, layout.hosts[h].port);
      const std::uint8_t out = lid < r.stride() ? r.port(row, lid) : IbRouting::kNoPath;
      if (out == IbRouting::kNoPath || out == 0 || out > f.ports(s)) continue;
      if (const auto it = layout.link_of.find({s.value(), out}); it != layout.link_of.end()) {
        lfts.set(VertexId(layout.vertex_of[s.value()]), VertexId(h), it->second);
      }
    }
  }
  return lfts;
}

}  // namespace

Result<Fabric> simulation_fabric(const IbFabric& subnet, const IbRouting& routing, const Catalog& catalog,
                                 const std::string& name) {
  Layout layout;
  auto topology = build_topology(subnet, layout);
  if (!topology) return topology.errors();
  SwitchModel sw;
  sw.id = fmt::format("the switches of {}", subnet.source);
  sw.name = sw.id;
  sw.protocols = {Protocol::kInfiniband};
  sw.where = SourceLocation{subnet.source, 0, 0};
  int radix = 0;
  for (const IbNodeId s : layout.switches) radix = std::max(radix, subnet.ports(s));
  sw.ports = radix;
  NicModel nic;
  nic.id = fmt::format("the CAs of {}", subnet.source);
  nic.name = nic.id;
  nic.protocols = {Protocol::kInfiniband};
  BitsPerSecond fastest(0);
  for (const BitsPerSecond c : topology->capacity) fastest = std::max(fastest, c);
  nic.port_speed = fastest;
  sw.port_speed = fastest;
  const ValidSpec spec = imported_spec(subnet.source, name, topology->host_count, std::move(sw), std::move(nic));
  return fabric_with_lfts(spec, catalog, std::move(topology).value(),
                          [&](const Topology& t) { return tables(t, subnet, routing, layout); });
}

}  // namespace ct
