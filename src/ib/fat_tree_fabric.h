// Generated fat trees (folded Clos) as IbFabrics, for tests and benchmarks that need a regular
// fabric without a cluster spec.
//
// Two levels (cores_per_spine = 0): `leaves_per_pod` leaves and `spines_per_pod` spines, every leaf
// cabled once to every spine. Three levels: `pods` such pods; spine j of every pod joins core group
// j, whose `cores_per_spine` cores each take one cable from it (the k-ary fat tree of Al-Fares et
// al., SIGCOMM 2008, with k/2 = leaves = spines = cores per group and k pods, when filled).
// Ports: leaf 1..H hosts then spines in order; spine 1..leaves then cores; core 1..pods.
// Node order: per pod its leaves then its spines, then the cores by group, then the CAs by
// (pod, leaf, host). GUIDs: switches 0x0003000000000000 + n, CAs 0x0004000000000000 + 2n (n = node
// index); descriptions "pod0/leaf3", "pod0/spine1", "core2/5", "pod0/leaf3/host7"; tiers 1-3.
#pragma once

#include "ib/ib_fabric.h"

namespace ct {

struct IbFatTreeShape {
  int pods = 1;
  int leaves_per_pod = 2;
  int spines_per_pod = 2;
  int hosts_per_leaf = 2;
  int cores_per_spine = 0;  // 0: two levels
};

// PRECONDITION: every count >= 1 (cores_per_spine >= 0, pods == 1 when it is 0) and no switch
// needs more than IbFabric::kMaxPorts ports.
IbFabric make_fat_tree_fabric(const IbFatTreeShape& shape);

}  // namespace ct
