#include "lab/lab_plan.h"

#include <fmt/format.h>

#include "core/csv_cursor.h"
#include "routing/port_address.h"

namespace ct {
namespace {

constexpr std::uint32_t kLinkBase = (172u << 24) | (16u << 16);  // 172.16.0.0/12
constexpr std::uint32_t kLinkSpace = 1u << 20;

}  // namespace

Result<LabPlan> plan_lab(const Fabric& fabric, const std::string& prefix) {
  const Topology& t = fabric.topology();
  const EcmpConfig& ecmp = fabric.ecmp();
  const SourceLocation at = fabric.spec().routing_where.file.empty() ? SourceLocation{fabric.spec().file, 0, 0}
                                                                    : fabric.spec().routing_where;
  if (!ecmp.linux_kernel) {
    return Diagnostic{at, "routing.ecmp.hash",
                      "the lab's switches are Linux routers: set routing.ecmp.hash to linux (the spec hashes with " +
                          ecmp.function_name() + ", which the kernel cannot compute)"};
  }
  if (!addressable(t)) return Diagnostic{at, "nodes.count", "the fabric is too large for the port address plan"};
  if (2 * t.link_count() > kLinkSpace) return Diagnostic{at, "backend", "too many links for the lab's 172.16.0.0/12 plan"};
  LabPlan plan;
  plan.prefix = prefix;
  plan.namespace_of_vertex.assign(t.vertex_count(), -1);
  std::size_t count = 0;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) count += t.network[v] == Network::kBackend ? 1 : 0;
  if (count > kMaxNamespaces) {
    return Diagnostic{at, "nodes.count", fmt::format("the lab would need {} namespaces; it builds at most {}", count, kMaxNamespaces)};
  }
  auto add = [&](std::uint32_t v, bool is_switch) {
    LabNamespace ns;
    ns.name = fmt::format("{}{}{}", prefix, is_switch ? 's' : 'h', v);
    ns.vertex = VertexId(v);
    ns.is_switch = is_switch;
    ns.sysctls = {"net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1",
                  "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0"};
    if (is_switch) {
      const std::uint32_t seed = fabric.hashes().seed(VertexId(v));
      ns.sysctls.push_back("net.ipv4.ip_forward=1");
      ns.sysctls.push_back(fmt::format("net.ipv4.fib_multipath_hash_policy={}", ecmp.linux_policy));
      ns.sysctls.push_back(fmt::format("net.ipv4.fib_multipath_hash_fields={}", ecmp.linux_hash_fields));
      ns.sysctls.push_back(fmt::format("net.ipv4.fib_multipath_hash_seed={}", seed));
    }
    ns.commands.push_back("link set lo up");
    plan.namespace_of_vertex[v] = static_cast<std::int32_t>(plan.namespaces.size());
    plan.namespaces.push_back(std::move(ns));
  };
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] == Network::kBackend && t.kind[v] == VertexKind::kSwitch) {
      if (fabric.hashes().seed(VertexId(v)) == 0) {
        return Diagnostic{at, "routing.ecmp.seed",
                          t.vertex_name(VertexId(v)) + " has seed 0, which the kernel replaces by a random seed: give a non-zero seed"};
      }
      add(v, true);
    }
  }
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] == Network::kBackend && t.kind[v] == VertexKind::kPort) add(v, false);
  }
  // Links and their addresses.
  std::vector<std::uint32_t> address_at_lower(t.link_count(), 0);
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    const std::int32_t a = plan.namespace_of_vertex[t.link_a[l].value()];
    const std::int32_t b = plan.namespace_of_vertex[t.link_b[l].value()];
    if (a < 0 || b < 0) continue;
    LabLink link{LinkId(l), fmt::format("l{}", l), static_cast<std::size_t>(a), static_cast<std::size_t>(b),
                 kLinkBase + 2 * l, kLinkBase + 2 * l + 1};
    for (const auto& [ns, addr] : {std::pair{link.lower, link.lower_address}, std::pair{link.upper, link.upper_address}}) {
      plan.namespaces[ns].commands.push_back(fmt::format("addr add {}/31 dev {}", format_ipv4(addr), link.device));
      plan.namespaces[ns].commands.push_back(fmt::format("link set {} up", link.device));
    }
    plan.links.push_back(link);
  }
  // Ports: their address and a default route to the leaf.
  const ForwardingState& f = fabric.forwarding();
  for (LabNamespace& ns : plan.namespaces) {
    if (ns.is_switch) continue;
    const std::uint32_t l = ns.vertex.value();  // the NIC link of port v has LinkId v
    const std::string own = format_ipv4(port_address(t, ns.vertex));
    ns.commands.push_back(fmt::format("addr add {}/32 dev lo", own));
    ns.commands.push_back(
        fmt::format("route add default via {} dev l{} src {}", format_ipv4(kLinkBase + 2 * l + 1), l, own));
  }
  // Switches: one route per destination port.
  for (LabNamespace& ns : plan.namespaces) {
    if (!ns.is_switch) continue;
    for (std::uint32_t p = 0; p < t.vertex_count(); ++p) {
      if (t.network[p] != Network::kBackend || t.kind[p] != VertexKind::kPort || t.plane[p] != t.plane[ns.vertex.value()]) continue;
      const std::string dst = format_ipv4(port_address(t, VertexId(p)));
      const std::uint32_t g = f.group(ns.vertex, f.destination_of(VertexId(p)));
      if (g == ForwardingState::kNoRouteGroup) continue;
      if (g == ForwardingState::kLocalGroup) {
        ns.commands.push_back(fmt::format("route add {}/32 via {} dev l{}", dst, format_ipv4(kLinkBase + 2 * p), p));
        continue;
      }
      std::string route = fmt::format("route add {}/32", dst);
      const auto members = f.members(g);
      for (const LinkId l : members) {
        const bool lower_is_me = t.link_a[l.value()] == ns.vertex;
        const std::uint32_t peer = kLinkBase + 2 * l.value() + (lower_is_me ? 1 : 0);
        if (members.size() == 1) {
          route += fmt::format(" via {} dev l{}", format_ipv4(peer), l.value());
        } else {
          route += fmt::format(" nexthop via {} dev l{} weight 1", format_ipv4(peer), l.value());
        }
      }
      ns.commands.push_back(route);
    }
  }
  return plan;
}

std::string lab_port_map(const LabPlan& plan, const Topology& t) {
  std::string out = "instance,device,vertex,peer,cable\n";
  for (const LabLink& l : plan.links) {
    const VertexId a = t.link_a[l.link.value()], b = t.link_b[l.link.value()];
    // The cable index among the parallel cables between a and b, in link id order.
    std::size_t cable = 0;
    for (const Adjacency& adj : t.neighbors(a)) {
      if (adj.neighbor == b && adj.link < l.link) ++cable;
    }
    const std::string na = csv_cell(t.vertex_name(a)), nb = csv_cell(t.vertex_name(b)), device = csv_cell(l.device);
    out += fmt::format("{0},{1},{0},{2},{3}\n", na, device, nb, cable);
    out += fmt::format("{0},{1},{0},{2},{3}\n", nb, device, na, cable);
  }
  return out;
}

}  // namespace ct
