// ValidSpec -> Topology.
//
// Rail-optimized (2 tiers): a scalable unit (SU) is down[0] hosts; leaf r of an SU in plane p takes
// NIC r of every host of the SU (plane p's logical port). Each leaf spreads its up[0] uplinks over
// the plane's S spines, up[0]/S parallel cables per leaf-spine pair, with S the smallest divisor of
// up[0] whose ports (S x radix) hold every leaf uplink.
// 3 tiers: a pod is down[1] leaves (whole SUs); each pod has up[0] spines, leaf-spine one cable
// per pair; spine j of every pod goes to core group j of C cores, C the smallest divisor of up[1]
// with C x radix >= pods x up[1].
// Leaf-spine: as rail-optimized but hosts are packed into leaves in order (all NICs of a host on
// the same leaf, "top of rack"). Fat-tree: the k-ary fat tree of Al-Fares et al. (SIGCOMM 2008):
// k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k^3/4 endpoint ports, hosts
// packed in order; switches that no host needs are still built.
// Planes are built identically and share nothing: there is no link between two planes.
#pragma once

#include "catalog/catalog.h"
#include "spec/valid_spec.h"
#include "topology/topology.h"

namespace ct {

// The catalog supplies the optics/cables chosen per link by speed and reach.
Topology build_topology(const ValidSpec& spec, const Catalog& catalog);

}  // namespace ct
