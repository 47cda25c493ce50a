// A LoadBalancer VIP announced by MetalLB in BGP mode, and the upstream router's ECMP over it.
//
// MetalLB (metallb.io docs, "Configuration" and "Usage"): a Service of type LoadBalancer gets an
// address from an IPAddressPool (spec.loadBalancerIP / the metallb.universe.tf/loadBalancerIPs
// annotation, which must lie in a pool). A BGPAdvertisement announces the pools it names (none named:
// every pool) from the nodes its nodeSelectors pick (none: every node), to the BGPPeers whose own
// nodeSelectors include that node. Which of those nodes announce a given Service depends on its
// externalTrafficPolicy: "Cluster": every such node; "Local": only the nodes with a ready endpoint
// of the Service. Each speaker announces VIP/32 with next hop = its node address.
//
// The router (Linux, BIRD with `merge paths`) installs one multipath route with one next hop per
// announcing node, ordered by address, weights 1, and picks a next hop per flow with the kernel's
// multipath hash (routing/linux_multipath.h). A speaker that stops is withdrawn when the router's
// hold timer expires: the negotiated hold time is the smaller of the two sides' (RFC 4271 section
// 4.2), so the route loses that next hop at most hold_time seconds after the speaker's last
// KEEPALIVE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/exported_file.h"
#include "frontend/manifests.h"
#include "frontend/pod_placement.h"
#include "routing/linux_multipath.h"

namespace ct {

struct VipAnnouncement {
  std::uint32_t vip = 0;
  const Service* service = nullptr;
  bool via_public_address = false;  // the address was the Service's clustertwin.io/public-address (NAT at the border)
  const AddressPool* pool = nullptr;
  std::vector<const BgpAdvertisement*> advertisements;
  std::vector<const BgpPeer*> peers;
  std::vector<std::string> eligible_nodes;     // selected by an advertisement and a peer
  std::vector<std::string> announcing_nodes;   // after externalTrafficPolicy
  std::vector<std::uint32_t> next_hops;        // node addresses, ascending (the router's order)
  std::vector<std::string> next_hop_nodes;     // parallel to next_hops
  int hold_time_s = 90;                        // negotiated with the router (min of both sides)
  std::vector<std::string> reasons;
  std::vector<std::string> problems;           // why the VIP is not reachable, if it is not
};

// The router's hold time, when known (from its configuration); 0 = take the peer's.
std::optional<VipAnnouncement> find_vip(const Manifests& m, const Placement& placement, std::uint32_t address, int router_hold_s = 0);

struct EcmpChoice {
  std::uint32_t hash = 0;
  std::size_t index = 0;  // into next_hops
};
// PRECONDITION: !a.next_hops.empty().
EcmpChoice router_choice(const VipAnnouncement& a, const FlowKey& flow, const LinuxMultipathConfig& config);

// Configurations for real daemons: one gobgpd (TOML) per announcing node, peering with the
// router as the BGPPeer says (its ASNs, address and timers), with the `gobgp global rib add`
// command that announces the VIP as MetalLB's speaker would (announce-<node>.sh); and the router's
// BIRD 2 configuration: one eBGP session per node, and a kernel protocol with `merge paths` so
// that equal routes become one multipath route. `control_dir` is where BIRD's socket and the
// daemons' files live on the test machine.
std::vector<ExportedFile> export_bgp(const VipAnnouncement& a, const std::string& control_dir);

// Does the pool's address list contain `address`? ("a.b.c.d/n" or "a.b.c.d-e.f.g.h").
bool pool_contains(const AddressPool& pool, std::uint32_t address);

}  // namespace ct
