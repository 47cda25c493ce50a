#include "survival/failure_set.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "core/suggest.h"
#include "fabric/name_directory.h"
#include "survival/cert_renewal.h"
#include "survival/volume_layout.h"

namespace ct {

std::string to_string(FailureKind k) {
  switch (k) {
    case FailureKind::kNode: return "node";
    case FailureKind::kSwitch: return "switch";
    case FailureKind::kLink: return "link";
    case FailureKind::kBgpPeer: return "bgp-peer";
    case FailureKind::kDnsServer: return "dns-server";
    case FailureKind::kDisk: return "disk";
    case FailureKind::kIssuer: return "issuer";
    case FailureKind::kAddressPool: return "address-pool";
  }
  return "?";
}

std::string layer_of(FailureKind k) {
  switch (k) {
    case FailureKind::kNode: return "node";
    case FailureKind::kSwitch: return "frontend switch";
    case FailureKind::kLink: return "node uplink";
    case FailureKind::kBgpPeer: return "BGP peer";
    case FailureKind::kDnsServer: return "DNS server";
    case FailureKind::kDisk: return "disk";
    case FailureKind::kIssuer: return "issuer";
    case FailureKind::kAddressPool: return "address pool";
  }
  return "?";
}

std::string failure_label(const Failure& f) {
  return f.at_s > 0 ? fmt::format("{} {} at {:g} s", to_string(f.kind), f.name, f.at_s) : to_string(f.kind) + " " + f.name;
}

std::vector<std::string> zone_name_servers(const Zone& zone) {
  std::vector<std::string> out;
  for (const auto& r : zone.records) {
    if (r.type == "NS" && r.name == zone.origin && std::find(out.begin(), out.end(), r.data) == out.end()) out.push_back(r.data);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

bool frontend_link(const Topology& t, std::size_t l) { return t.network[t.link_a[l].value()] == Network::kFrontend; }

// The frontend links' names by link id ("" for a backend link): the names every output gives a
// cable (fabric/name_directory.h cable_name: "A -- B", with " #k" after a cable that has parallel
// twins, k its place among them in link-id order, from 0), so a name from spof reads back anywhere.
std::vector<std::string> link_names(const Topology& t) {
  const NameDirectory names(t);
  std::vector<std::string> out(t.link_count());
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    if (frontend_link(t, l)) out[l] = names.cable_name(LinkId(l));
  }
  return out;
}

std::vector<std::string> topology_names(const FrontendModel& m, FailureKind kind) {
  std::vector<std::string> out;
  if (!m.topology) return out;
  const Topology& t = *m.topology;
  if (kind == FailureKind::kSwitch) {
    for (std::size_t v = 0; v < t.vertex_count(); ++v) {
      if (t.network[v] == Network::kFrontend && t.kind[v] == VertexKind::kSwitch) out.push_back(t.vertex_name(VertexId(v)));
    }
  } else {
    for (auto& n : link_names(t)) {
      if (!n.empty()) out.push_back(std::move(n));
    }
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// Does one frontend port still reach the network: its link to the leaf, the leaf, and (when the leaf
// has spines above it) one working uplink to a working spine?
bool port_reaches(const Topology& t, VertexId port, const std::vector<std::string>& names, const std::vector<std::string>& switches,
                  const std::vector<std::string>& links) {
  const auto up = t.neighbors(port);
  if (up.empty()) return false;
  const VertexId leaf = up[0].neighbor;
  if (has(links, names[up[0].link.value()]) || has(switches, t.vertex_name(leaf))) return false;
  bool any_spine = false;
  for (const auto& adj : t.neighbors(leaf)) {
    if (t.tier[adj.neighbor.value()] != 2) continue;
    any_spine = true;
    if (!has(links, names[adj.link.value()]) && !has(switches, t.vertex_name(adj.neighbor))) return true;
  }
  return !any_spine;
}

// Is the node cut off the frontend network by the failed switches and links (header)? Only when
// every one of its cabled frontend ports is (a bond or several uplinks: one port left is enough).
// `names`: link_names of the model's topology.
bool cut_off(const FrontendModel& m, const Node& node, const std::vector<std::string>& names,
             const std::vector<std::string>& switches, const std::vector<std::string>& links) {
  if (!m.topology || m.topology->frontend_ports_per_host == 0 || (switches.empty() && links.empty())) return false;
  const Topology& t = *m.topology;
  const auto host = spec_host_of(node.host.empty() ? node.meta.name : node.host);
  if (!host || *host >= t.host_count) return false;
  bool cabled = false;
  for (int p = 0; p < t.frontend_ports_per_host; ++p) {
    const VertexId port = t.frontend_port_of(HostId(*host), p);
    if (t.neighbors(port).empty()) continue;
    cabled = true;
    if (port_reaches(t, port, names, switches, links)) return false;
  }
  return cabled;
}

}  // namespace

std::vector<std::string> element_names(const FrontendModel& m, FailureKind kind) {
  std::vector<std::string> out;
  switch (kind) {
    case FailureKind::kNode: out = m.manifests.node_names(); break;
    case FailureKind::kSwitch:
    case FailureKind::kLink: out = topology_names(m, kind); break;
    case FailureKind::kBgpPeer:
      for (const auto& p : m.manifests.bgp_peers) out.push_back(p.meta.name);
      break;
    case FailureKind::kDnsServer:
      if (m.dns) {
        for (const auto& view : m.dns->zones) {
          for (const auto& z : view) {
            for (auto& s : zone_name_servers(z)) out.push_back(std::move(s));
          }
        }
      }
      break;
    case FailureKind::kDisk:
      for (const auto& v : volume_layouts(m)) out.insert(out.end(), v.candidate_nodes.begin(), v.candidate_nodes.end());
      break;
    case FailureKind::kIssuer:
      for (const auto& i : m.manifests.issuers) out.push_back(i.meta.ns.empty() ? i.meta.name : i.meta.ns + "/" + i.meta.name);
      break;
    case FailureKind::kAddressPool:
      for (const auto& p : m.manifests.pools) out.push_back(p.meta.name);
      break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Diagnostics check_failures(const FrontendModel& m, const std::vector<Failure>& failures) {
  Diagnostics errors;
  const SourceLocation where{"command line", 0, 0};
  for (const auto& f : failures) {
    const std::string flag = "--" + to_string(f.kind);
    if (!std::isfinite(f.at_s) || f.at_s < 0) {
      errors.push_back({where, "--at", fmt::format("{} is no time for {}: seconds, 0 or more", f.at_s, failure_label(f))});
    }
    const auto names = element_names(m, f.kind);
    if (has(names, f.name)) continue;
    std::string message = fmt::format("no {} '{}'", layer_of(f.kind), f.name);
    if (names.empty()) {
      message += f.kind == FailureKind::kSwitch || f.kind == FailureKind::kLink ? " (give --spec with a frontend network)"
                 : f.kind == FailureKind::kDnsServer                             ? " (give --dns; its zones name none)"
                                                                                 : " (the inputs have none)";
    } else {
      message += did_you_mean(f.name, names);
    }
    errors.push_back({where, flag, message});
  }
  return errors;
}

std::vector<std::string> FailedState::gone_nodes() const {
  std::vector<std::string> out = dead_nodes;
  out.insert(out.end(), cut_nodes.begin(), cut_nodes.end());
  std::sort(out.begin(), out.end());
  return out;
}

bool FailedState::disk_lost(const std::string& node) const { return has(dead_nodes, node) || has(dead_disks, node); }

FailedState failed_at(const FrontendModel& m, const std::vector<Failure>& failures, double t) {
  FailedState s;
  std::vector<std::string> switches, links;
  for (const auto& f : failures) {
    if (f.at_s > t) continue;
    std::vector<std::string>* into = nullptr;
    switch (f.kind) {
      case FailureKind::kNode: into = &s.dead_nodes; break;
      case FailureKind::kSwitch: into = &switches; break;
      case FailureKind::kLink: into = &links; break;
      case FailureKind::kBgpPeer: into = &s.bgp_peers; break;
      case FailureKind::kDnsServer: into = &s.dns_servers; break;
      case FailureKind::kDisk: into = &s.dead_disks; break;
      case FailureKind::kIssuer: into = &s.issuers; break;
      case FailureKind::kAddressPool: into = &s.pools; break;
    }
    if (!has(*into, f.name)) into->push_back(f.name);
  }
  const bool cuts = m.topology && (!switches.empty() || !links.empty());
  const std::vector<std::string> names = cuts ? link_names(*m.topology) : std::vector<std::string>();
  for (const auto& n : m.manifests.nodes) {
    if (!has(s.dead_nodes, n.meta.name) && cut_off(m, n, names, switches, links)) s.cut_nodes.push_back(n.meta.name);
  }
  if (!s.issuers.empty()) {
    for (const auto& c : certificate_renewals(m.manifests, m.now_ms)) {
      if (!c.dated) continue;
      for (const auto& f : failures) {
        if (f.kind == FailureKind::kIssuer && f.name == c.issuer && f.at_s <= t && renewal_in_outage(c, f.at_s).expires_s <= t) {
          s.expired_certificates.push_back(c.certificate);
          break;
        }
      }
    }
  }
  for (auto* v : {&s.dead_nodes, &s.cut_nodes, &s.dead_disks, &s.dns_servers, &s.bgp_peers, &s.issuers, &s.pools}) std::sort(v->begin(), v->end());
  return s;
}

FrontendModel fork_model(const FrontendModel& healthy, const FailedState& s) {
  FrontendModel f = healthy;
  std::erase_if(f.manifests.bgp_peers, [&](const BgpPeer& p) { return has(s.bgp_peers, p.meta.name); });
  std::erase_if(f.manifests.pools, [&](const AddressPool& p) { return has(s.pools, p.meta.name); });
  if (f.dns && !s.dns_servers.empty()) {
    for (std::size_t v = 0; v < f.dns->zones.size(); ++v) {
      auto& zones = f.dns->zones[v];
      auto& refs = f.dns->conf.views[v].zones;
      for (std::size_t z = zones.size(); z-- > 0;) {
        const auto servers = zone_name_servers(zones[z]);
        const bool all_dead = !servers.empty() && std::all_of(servers.begin(), servers.end(), [&](const std::string& n) { return has(s.dns_servers, n); });
        if (!all_dead) continue;
        zones.erase(zones.begin() + static_cast<std::ptrdiff_t>(z));
        refs.erase(refs.begin() + static_cast<std::ptrdiff_t>(z));
      }
    }
  }
  for (auto& c : f.manifests.certificates) {
    if (has(s.expired_certificates, c.meta.ns + "/" + c.meta.name)) c.expired = true;
  }
  const auto gone = s.gone_nodes();
  if (gone.empty()) return f;
  kill_nodes(f, gone);
  for (auto& pod : f.placement.pods) {
    for (const auto& n : gone) {
      if (pod.node.empty() && pod.why.find("node " + n + " is dead") == 0) pod.why = "node " + n + " is gone: the pod is Terminating there, its replacement is not Ready yet";
    }
  }
  return f;
}

}  // namespace ct
