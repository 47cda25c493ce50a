// A spec's fabric as Linux network namespaces: the plan (pure; what `clustertwin lab up` creates).
//
// What maps to what:
//   every backend switch   a network namespace "<prefix>s<vertex>", IPv4 forwarding on, rp_filter
//                          off, IPv6 off (no neighbour discovery noise in the counters), and the
//                          spec's ECMP settings as the kernel's: net.ipv4.fib_multipath_hash_policy
//                          = routing.ecmp.linux_policy, fib_multipath_hash_fields (policy 3),
//                          fib_multipath_hash_seed = the switch's seed from the seed policy
//                          (SwitchHashes::seed: the same value the twin hashes with);
//   every backend NIC port a namespace "<prefix>h<vertex>" holding the port's address
//                          (routing/port_address.h, /32) and a default route to its leaf;
//   every link             a veth pair "l<link id>" (the same name at both ends, each end in its
//                          namespace) with a /31 from 172.16.0.0/12: 172.16.0.0 + 2 x link id at the
//                          lower end, + 1 at the upper end;
//   every ECMP group       a multipath route per destination port address (/32): the members of
//                          the switch's group toward the destination's leaf (forwarding_state.h),
//                          as next hops in member order, weight 1, so the kernel's hash-threshold
//                          (fib_select_multipath) splits the hash range exactly as the twin's
//                          member selection does (routing/linux_multipath.h).
// Only `hash: linux` can be built: a Linux router cannot compute a switch ASIC's CRC. A seed of 0
// is refused too: the kernel reads 0 as "draw a random seed", which the twin cannot know.
// Size: at most kMaxNamespaces namespaces (a lab, not a cluster).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/fabric.h"

namespace ct {

inline constexpr std::size_t kMaxNamespaces = 256;

struct LabNamespace {
  std::string name;
  VertexId vertex;
  bool is_switch = false;
  std::vector<std::string> sysctls;   // "key=value", set before any interface exists
  std::vector<std::string> commands;  // `ip -n <name> -batch` lines: addresses, links up, routes
};

struct LabLink {
  LinkId link;
  std::string device;  // the interface name at both ends
  std::size_t lower = 0;  // namespace indices
  std::size_t upper = 0;
  std::uint32_t lower_address = 0;
  std::uint32_t upper_address = 0;
};

struct LabPlan {
  std::string prefix;
  std::vector<LabNamespace> namespaces;  // switches then ports, in vertex order
  std::vector<LabLink> links;
  std::vector<std::int32_t> namespace_of_vertex;  // -1: none
};

// PRECONDITION: prefix is at most 16 characters of [a-z0-9-].
Result<LabPlan> plan_lab(const Fabric& fabric, const std::string& prefix);

// The port map CSV (diagnose/port_map.h) for the lab's counters: every interface of every
// namespace, instance = the vertex's topology name.
std::string lab_port_map(const LabPlan& plan, const Topology& topology);

}  // namespace ct
