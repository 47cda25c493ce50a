#include "frontend/bgp_vip.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "routing/port_address.h"

namespace ct {

bool pool_contains(const AddressPool& pool, std::uint32_t address) {
  for (const auto& a : pool.addresses) {
    if (const auto dash = a.find('-'); dash != std::string::npos) {
      const auto lo = parse_ipv4(a.substr(0, dash)), hi = parse_ipv4(a.substr(dash + 1));
      if (lo && hi && address >= *lo && address <= *hi) return true;
      continue;
    }
    const auto slash = a.find('/');
    const auto base = parse_ipv4(a.substr(0, slash));
    int len = 32;
    if (slash != std::string::npos) std::from_chars(a.data() + slash + 1, a.data() + a.size(), len);
    if (!base || len < 0 || len > 32) continue;
    const std::uint32_t mask = len == 0 ? 0 : ~std::uint32_t{0} << (32 - len);
    if ((address & mask) == (*base & mask)) return true;
  }
  return false;
}

std::optional<VipAnnouncement> find_vip(const Manifests& m, const Placement& placement, std::uint32_t address, int router_hold_s) {
  VipAnnouncement a;
  for (const auto& s : m.services) {
    if (s.type != "LoadBalancer") continue;
    const auto lb = parse_ipv4(s.load_balancer_ip);
    auto pub = s.meta.annotations.find("clustertwin.io/public-address");
    if (lb && *lb == address) {
      a.service = &s;
    } else if (lb && pub != s.meta.annotations.end() && parse_ipv4(pub->second) == address) {
      a.service = &s;
      a.via_public_address = true;
    }
    if (a.service) {
      a.vip = *lb;
      break;
    }
  }
  if (a.service == nullptr) return std::nullopt;
  const Service& s = *a.service;
  if (a.via_public_address) {
    a.reasons.push_back(fmt::format("{} is the public address of {} ({}): the border NATs it to the VIP {}", format_ipv4(address),
                                    object_label(s.meta), where_text(s.meta.where), format_ipv4(a.vip)));
  }
  for (const auto& p : m.pools) {
    if ((s.address_pool.empty() || s.address_pool == p.meta.name) && pool_contains(p, a.vip)) {
      a.pool = &p;
      break;
    }
  }
  if (a.pool == nullptr) {
    a.problems.push_back(fmt::format("no IPAddressPool{} contains {}: MetalLB does not assign it",
                                     s.address_pool.empty() ? "" : " named " + s.address_pool, format_ipv4(a.vip)));
    return a;
  }
  a.reasons.push_back(fmt::format("{} gets {} from {} ({})", object_label(s.meta), format_ipv4(a.vip), object_label(a.pool->meta),
                                  where_text(a.pool->meta.where)));
  std::set<std::string> eligible;
  for (const auto& adv : m.bgp_advertisements) {
    if (!adv.pools.empty() && std::find(adv.pools.begin(), adv.pools.end(), a.pool->meta.name) == adv.pools.end()) continue;
    a.advertisements.push_back(&adv);
    for (const auto& peer : m.bgp_peers) {
      if (!adv.peers.empty() && std::find(adv.peers.begin(), adv.peers.end(), peer.meta.name) == adv.peers.end()) continue;
      if (std::find(a.peers.begin(), a.peers.end(), &peer) == a.peers.end()) a.peers.push_back(&peer);
      for (const auto& n : m.nodes) {
        const auto picked = [&](const std::vector<LabelSelector>& sels) {
          return sels.empty() || std::any_of(sels.begin(), sels.end(), [&](const LabelSelector& x) { return x.matches(n.meta.labels); });
        };
        if (picked(adv.node_selectors) && picked(peer.node_selectors)) eligible.insert(n.meta.name);
      }
    }
  }
  if (a.advertisements.empty()) {
    a.problems.push_back(fmt::format("no BGPAdvertisement announces pool {}", a.pool->meta.name));
    return a;
  }
  if (a.peers.empty()) {
    a.problems.push_back("no BGPPeer: nothing to announce to");
    return a;
  }
  a.eligible_nodes.assign(eligible.begin(), eligible.end());
  a.reasons.push_back(fmt::format("{} ({}) announces pool {} from {} node(s): {}", object_label(a.advertisements[0]->meta),
                                  where_text(a.advertisements[0]->meta.where), a.pool->meta.name, a.eligible_nodes.size(),
                                  fmt::join(a.eligible_nodes, ", ")));
  if (s.external_traffic_policy == "Local") {
    std::set<std::string> with_endpoint;
    for (const PlacedPod* p : service_endpoints(m, placement, s)) with_endpoint.insert(p->node);
    for (const auto& n : a.eligible_nodes) {
      if (with_endpoint.contains(n)) a.announcing_nodes.push_back(n);
    }
    a.reasons.push_back(fmt::format("externalTrafficPolicy Local ({}): only nodes with a ready endpoint announce: {}",
                                    where_text(s.where_policy), a.announcing_nodes.empty() ? "none" : fmt::format("{}", fmt::join(a.announcing_nodes, ", "))));
  } else {
    a.announcing_nodes = a.eligible_nodes;
    a.reasons.push_back(fmt::format("externalTrafficPolicy Cluster ({}): every eligible node announces", where_text(s.where_policy)));
  }
  std::vector<std::pair<std::uint32_t, std::string>> hops;
  for (const auto& n : a.announcing_nodes) {
    const Node* node = m.find_node(n);
    const auto ip = node ? parse_ipv4(node->internal_ip) : std::nullopt;
    if (!ip) {
      a.problems.push_back("node " + n + " has no InternalIP address: its next hop is unknown");
      continue;
    }
    hops.emplace_back(*ip, n);
  }
  std::sort(hops.begin(), hops.end());
  for (const auto& [ip, n] : hops) {
    a.next_hops.push_back(ip);
    a.next_hop_nodes.push_back(n);
  }
  if (a.next_hops.empty()) a.problems.push_back("no node announces the VIP: the router has no route to it");
  a.hold_time_s = a.peers[0]->hold_time_s;
  if (router_hold_s > 0) a.hold_time_s = std::min(a.hold_time_s, router_hold_s);
  return a;
}

EcmpChoice router_choice(const VipAnnouncement& a, const FlowKey& flow, const LinuxMultipathConfig& config) {
  EcmpChoice c;
  c.hash = linux_multipath_hash(flow, config);
  const std::vector<std::uint32_t> weights(a.next_hops.size(), 1);
  const auto bounds = linux_nexthop_upper_bounds(weights);
  c.index = linux_select_nexthop(c.hash, bounds);
  return c;
}

}  // namespace ct

namespace ct {

std::vector<ExportedFile> export_bgp(const VipAnnouncement& a, const std::string& dir) {
  std::vector<ExportedFile> out;
  const BgpPeer& peer = *a.peers.front();
  const int keepalive = peer.keepalive_s > 0 ? peer.keepalive_s : std::max(1, a.hold_time_s / 3);
  std::string bird = fmt::format(
      "# Written by clustertwin export bgp: the upstream router of {} ({}), peering with the nodes that announce {}.\n"
      "router id {};\n"
      "log \"{}/bird.log\" all;\n"
      "protocol device {{ }}\n"
      "protocol kernel {{\n"
      "  ipv4 {{ export all; }};\n"
      "  merge paths on;\n"
      "}}\n",
      object_label(peer.meta), where_text(peer.meta.where), format_ipv4(a.vip), peer.peer_address, dir);
  for (std::size_t i = 0; i < a.next_hops.size(); ++i) {
    const std::string& node = a.next_hop_nodes[i];
    const std::string ip = format_ipv4(a.next_hops[i]);
    bird += fmt::format(
        "protocol bgp {} {{\n"
        "  local {} as {};\n"
        "  neighbor {} as {};\n"
        "  hold time {};\n"
        "  keepalive time {};\n"
        "  connect retry time 1;\n"
        "  ipv4 {{ import all; export none; }};\n"
        "}}\n",
        "node_" + std::to_string(i), peer.peer_address, peer.peer_asn, ip, peer.my_asn, a.hold_time_s, keepalive);
    out.push_back({node + ".gobgpd.toml",
                   fmt::format("# Written by clustertwin export bgp: the MetalLB speaker of {} as gobgpd.\n"
                               "[global.config]\n  as = {}\n  router-id = \"{}\"\n  local-address-list = [\"{}\"]\n\n"
                               "[[neighbors]]\n  [neighbors.config]\n    neighbor-address = \"{}\"\n    peer-as = {}\n"
                               "  [neighbors.timers.config]\n    hold-time = {}\n    keepalive-interval = {}\n    connect-retry = 1\n"
                               "  [neighbors.transport.config]\n    local-address = \"{}\"\n",
                               node, peer.my_asn, ip, ip, peer.peer_address, peer.peer_asn, a.hold_time_s, keepalive, ip)});
    out.push_back({"announce-" + node + ".sh",
                   fmt::format("#!/bin/sh\n# Announce the VIP from {} (run where its gobgpd runs).\nexec gobgp global rib add -a ipv4 {}/32 nexthop {}\n",
                               node, format_ipv4(a.vip), ip)});
  }
  out.insert(out.begin(), ExportedFile{"router.bird.conf", bird});
  return out;
}

}  // namespace ct
