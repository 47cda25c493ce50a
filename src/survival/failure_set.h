// The elements a failure study can take away, named as the inputs name them, and what a set of
// them has taken away at a time t (survival's fork of the model, Batfish's "fork the snapshot with
// the element removed"):
//   node          a Node of the manifests: it stops (its pods, its BGP session, its Longhorn disk)
//   switch        a frontend switch of the cluster spec ("fe/leaf/0", "fe/spine/0")
//   link          a frontend link of the cluster spec ("host3/fe0 -- fe/leaf/0")
//   bgp-peer      a MetalLB BGPPeer (by name): the router it names stops peering
//   dns-server    a name server of the zones (an NS record's target, "ns1.example.com")
//   disk          the Longhorn disk of a node (by the node's name): its replicas are gone, the node runs
//   issuer        a cert-manager Issuer ("ns/name") or ClusterIssuer ("name")
//   address-pool  a MetalLB IPAddressPool (by name)
// A node that a switch or link failure cuts off the frontend network is CUT: the model takes the
// Kubernetes control plane to reach the nodes over the frontend network (the spec's backend network
// carries the GPUs' traffic only), so the node goes NotReady and its pods are evicted as for a dead
// node, but its disk keeps its data (its replicas are unavailable, not lost). A node reaches the
// network while one of its frontend ports does (every port of the spec's frontend NICs: a bond or
// several uplinks, its address moving to a live member): the port's link to its leaf, the leaf, and
// one working uplink from the leaf to a working spine (the router above the spines is outside the
// spec).
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "frontend/request_trace.h"

namespace ct {

enum class FailureKind { kNode, kSwitch, kLink, kBgpPeer, kDnsServer, kDisk, kIssuer, kAddressPool };
inline constexpr FailureKind kFailureKinds[] = {FailureKind::kNode,      FailureKind::kSwitch, FailureKind::kLink,   FailureKind::kBgpPeer,
                                                FailureKind::kDnsServer, FailureKind::kDisk,   FailureKind::kIssuer, FailureKind::kAddressPool};

// "node", "switch", ... (the flag without its dashes).
std::string to_string(FailureKind k);
// The layer a kind belongs to, in words: "node", "frontend switch", "node uplink", "BGP peer", ...
std::string layer_of(FailureKind k);

struct Failure {
  FailureKind kind = FailureKind::kNode;
  std::string name;
  double at_s = 0;  // seconds after the first failure's t = 0
};
// "node node-3", "switch fe/leaf/0", with " at 120 s" when at_s > 0.
std::string failure_label(const Failure& f);

// Every element of a kind in the model, sorted (what spof takes away, what did-you-mean offers).
std::vector<std::string> element_names(const FrontendModel& model, FailureKind kind);

// An error per failure that names no element of its kind, located at the command line and its flag
// ("--node"), with a did-you-mean; a negative or non-finite time likewise at "--at".
Diagnostics check_failures(const FrontendModel& model, const std::vector<Failure>& failures);

// What the failures with at_s <= t have taken away. PRECONDITION: check_failures passed.
struct FailedState {
  std::vector<std::string> dead_nodes;  // failed themselves: their disks with them
  std::vector<std::string> cut_nodes;   // cut off the frontend network, not dead
  std::vector<std::string> dead_disks;  // nodes whose Longhorn disk failed
  std::vector<std::string> dns_servers, bgp_peers, issuers, pools;
  // Certificates ("ns/name") whose issuer failed, whose renewal in the outage failed and whose
  // notAfter has passed (survival/cert_renewal.h): their listeners fail the TLS handshake.
  std::vector<std::string> expired_certificates;
  // Dead or cut: gone for Kubernetes and the front door.
  [[nodiscard]] std::vector<std::string> gone_nodes() const;
  // Dead node or dead disk: replicas there are lost.
  [[nodiscard]] bool disk_lost(const std::string& node) const;
};
FailedState failed_at(const FrontendModel& model, const std::vector<Failure>& failures, double t);

// The model as it is once `state` has happened and nothing has been rescheduled yet: the gone nodes
// killed (request_trace.h kill_nodes), the failed BGP peers and address pools removed, in each DNS
// view every zone whose name servers all failed removed (its names no longer resolve), and the
// expired certificates marked so (the trace's TLS check fails on them).
FrontendModel fork_model(const FrontendModel& healthy, const FailedState& state);

// The name servers of each view's zones: the targets of the zone apex's NS records.
std::vector<std::string> zone_name_servers(const Zone& zone);

}  // namespace ct
