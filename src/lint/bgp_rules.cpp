// Lint rules of the bgp family: a LoadBalancer Service with externalTrafficPolicy Local whose
// endpoints all run on one node (only nodes with a ready endpoint announce its VIP:
// frontend/bgp_vip.h), and a single BGP peer for every announced address.
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/pod_placement.h"
#include "lint/lint_checks.h"
#include "lint/lint_query.h"

namespace ct {

void check_etp_local_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const auto& s : m.services) {
    if (s.type != "LoadBalancer" || s.external_traffic_policy != "Local") continue;
    const auto endpoints = service_endpoints(m, c.model.placement, s);
    if (endpoints.empty()) continue;  // no endpoint at all: service-selects-nothing says so
    std::set<std::string> nodes;
    std::vector<std::string> pods;
    for (const PlacedPod* p : endpoints) {
      nodes.insert(p->node);
      pods.push_back(p->name);
    }
    if (nodes.size() > 1) continue;
    const KubeWorkload& w = m.workloads[endpoints.front()->workload];
    out.push_back(rule.finding(
        fmt::format("{} has externalTrafficPolicy Local and every endpoint ({}) on {}", object_label(s.meta), fmt::join(pods, ", "),
                    *nodes.begin()),
        {{object_label(s.meta), s.where_policy.line > 0 ? s.where_policy : s.meta.where}, {object_label(w.meta), w.where_placement.line > 0 ? w.where_placement : w.meta.where}},
        fmt::format("only {} announces the VIP: when it reboots or fails the address is withdrawn and unreachable until a pod is "
                    "ready on another node",
                    *nodes.begin()),
        fmt::format("spread {} over nodes (replicas: 2 and podAntiAffinity on kubernetes.io/hostname), or set "
                    "externalTrafficPolicy: Cluster",
                    object_label(w.meta))));
  }
}

void check_bgp_single_peer(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  if (m.bgp_peers.size() != 1 || m.bgp_advertisements.empty()) return;
  const BgpPeer& p = m.bgp_peers.front();
  out.push_back(rule.finding(
      fmt::format("{} ({}, AS {}) is the only BGP peer: every VIP is announced to one router", object_label(p.meta), p.peer_address,
                  p.peer_asn),
      {{object_label(p.meta), p.meta.where}},
      "when that router restarts, is upgraded or fails, every LoadBalancer address is unreachable",
      fmt::format("add a second BGPPeer for a second router (and the router's own redundancy), e.g. a copy of {} with the "
                  "second router's peerAddress",
                  object_label(p.meta))));
}

}  // namespace ct
