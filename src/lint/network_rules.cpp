// Lint rules of the network family, read from the cluster spec (`lint --spec`): a frontend switch
// that every node's frontend ports go through. The frontend network is the one topology/builder.h
// builds from the spec's `frontend:` block (nodes map to spec hosts by their clustertwin.io/host
// annotation, as `trace`'s hop 3 maps them); the upstream router sits above the spines, outside
// the spec, so a single spine carries every node's traffic to it.
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/lint_checks.h"

namespace ct {

namespace {

// The frontend leaves of each Kubernetes node that maps to a host of the spec.
std::map<std::string, std::set<std::uint32_t>> node_leaves(const FrontendModel& f) {
  std::map<std::string, std::set<std::uint32_t>> out;
  const Topology& t = *f.topology;
  for (const Node& n : f.manifests.nodes) {
    const auto host = spec_host_of(n.host.empty() ? n.meta.name : n.host);
    if (!host || *host >= t.host_count) continue;
    auto& leaves = out[n.meta.name];
    for (int p = 0; p < t.frontend_ports_per_host; ++p) {
      for (const Adjacency& a : t.neighbors(t.frontend_port_of(HostId(*host), p))) {
        if (t.tier[a.neighbor.value()] == 1) leaves.insert(a.neighbor.value());
      }
    }
  }
  return out;
}

}  // namespace

void check_frontend_one_switch(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const FrontendModel& f = c.model;
  if (!f.topology || f.topology->frontend_ports_per_host == 0) return;
  const Topology& t = *f.topology;
  const auto leaves = node_leaves(f);
  if (leaves.size() < 2) return;  // one node (or none mapped): nothing to share
  std::map<std::uint32_t, int> carried;  // leaf -> nodes whose every frontend port is on it
  for (const auto& [node, set] : leaves) {
    if (set.size() == 1) ++carried[*set.begin()];
  }
  const int nodes = static_cast<int>(leaves.size());
  for (const auto& [leaf, count] : carried) {
    if (count != nodes) continue;
    const std::string name = t.vertex_name(VertexId(leaf));
    out.push_back(rule.finding(
        fmt::format("frontend switch {} carries every node's frontend ports ({} node(s))", name, nodes),
        {{"frontend switch " + name, f.frontend_where}},
        fmt::format("when {} fails or reboots for an upgrade, every node is cut from the router: every published app and every "
                    "Longhorn rebuild stops until it is back",
                    name),
        "cable each node's second frontend port to a second leaf (bonded, or MLAG), or spread the nodes over two leaves; the "
        "spec's frontend block packs hosts top-of-rack, so lower the hosts per leaf (frontend.oversubscription) to get two"));
  }
  std::vector<std::uint32_t> spines;
  for (std::size_t v = t.frontend_begin; v < t.vertex_count(); ++v) {
    if (t.kind[v] == VertexKind::kSwitch && t.tier[v] == 2) spines.push_back(static_cast<std::uint32_t>(v));
  }
  if (spines.size() != 1) return;
  const std::string name = t.vertex_name(VertexId(spines.front()));
  out.push_back(rule.finding(
      fmt::format("frontend switch {} is the only spine: every node's traffic to the router crosses it ({} node(s))", name, nodes),
      {{"frontend switch " + name, f.frontend_where}},
      fmt::format("when {} fails or reboots, the VIPs are unreachable from outside and traffic between leaves stops", name),
      "add a second frontend spine (and a router link to it)"));
}

}  // namespace ct
