// One backend plane of a clustertwin Topology as an InfiniBand subnet (an IB subnet is one plane:
// planes share no cable). Each NIC port vertex becomes a one-port CA; each switch vertex a switch.
//
// Port numbering: a switch's cables take ports 1, 2, ... in the order of Topology::neighbors()
// (link-id order: its NIC or lower-tier cables first, then its uplinks, each in builder order); a
// switch has max(radix, cables) ports, so unused ports stay unconnected. CA port 1 is its cable.
// Deterministic identities from the vertex id v:
//   switch  node GUID 0x0002000000000000 + v, node id "S-<GUID in 16 hex digits>"
//   CA      node GUID 0x0001000000000000 + 2v, port GUID node GUID + 1, node id "H-<GUID>"
//   node description = Topology::vertex_name(v) ("p0/leaf/3", "host7/nic2"); tier kept for root
//   detection (ib_ranking.h).
// These GUID ranges are ours, not a vendor's OUI.
#pragma once

#include "core/result.h"
#include "ib/ib_fabric.h"
#include "topology/topology.h"

namespace ct {

inline constexpr std::uint64_t kTopologySwitchGuidBase = 0x0002000000000000ULL;
inline constexpr std::uint64_t kTopologyCaGuidBase = 0x0001000000000000ULL;

// `spec_path` names the spec the topology was built from: the fabric's source for diagnostics,
// with "plane N" as its context. Errors: plane out of range (--plane), a switch with more than
// 254 cables.
Result<IbFabric> fabric_from_topology(const Topology& topology, int plane, const std::string& spec_path = {});

// The IB port number at end `v` of link `l` under the numbering above: 1 at a CA; at a switch, 1 +
// the number of its cables with a smaller link id.
// PRECONDITION: v is an end of l.
int ib_port_of(const Topology& topology, VertexId v, LinkId l);

}  // namespace ct
