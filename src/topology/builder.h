// ValidSpec -> Topology: the physical cabling of the backend (every plane) and of the frontend.
//
// Notation (per plane): H hosts, R = ports_per_host (backend NICs, "rails"), k = radix (logical
// switch ports at port_speed), d0:u0 the leaf's down:up split, d1:u1 the spine's (3 tiers).
//
// Leaf assignment (which leaf takes NIC port (h, r) of a plane):
//   rail-optimized  a scalable unit (SU) is d0 hosts; leaf s*R + r takes NIC r of every host of
//                   SU s = h / d0, so every leaf holds one rail and R leaves make an SU.
//   leaf-spine      "top of rack": hosts packed in order, floor(d0 / R) whole hosts per leaf
//                   (all NICs of a host on the same leaf); when R > d0, ports packed in order.
//   fat-tree        endpoint ports h*R + r packed in order, k/2 per edge (leaf) switch.
// Upper tiers:
//   2 tiers   every leaf spreads its u0 uplinks over all S spines of the plane, u0/S parallel
//             cables per leaf-spine pair, S the smallest divisor of u0 with S*k >= L*u0 (L leaves).
//   3 tiers   a pod is P_L leaves: rail-optimized floor(d1/R) whole SUs (d1 leaves when R > d1),
//             otherwise d1 leaves. Each pod has u0 spines; each leaf has one cable to each spine
//             of its pod. Spine j of every pod goes to core group j of C cores, u1/C parallel
//             cables per spine-core pair, C the smallest divisor of u1 with C*k >= pods*u1.
//   fat-tree  the k-ary fat tree of Al-Fares, Loukissas and Vahdat (SIGCOMM 2008), whatever d/u
//             the spec states: 3 tiers = k pods of k/2 edge and k/2 aggregation switches, edge-
//             aggregation complete within a pod, aggregation j of each pod to the k/2 cores of
//             group j, (k/2)^2 cores, k^3/4 endpoint ports. 2 tiers = k leaves and k/2 spines,
//             one cable per pair, k^2/2 endpoint ports. Switches no host needs are still built.
// A partly filled SU, leaf or pod still gets all its uplinks (the design, not the load, fixes the
// cabling).
//
// Planes: each of the `planes` logical ports of a NIC goes to its own plane; planes are built
// identically and share nothing (count_cross_plane_links() == 0).
// Extra links (spec backend.links) are added after the fabric between the named switches; their
// index counts the switches of that (plane, tier) in vertex order, across pods.
// Frontend (spec.frontend present): a separate 2-tier leaf-spine (Network::kFrontend) with
// F = node.frontend_nics (at least 1) x nic.ports x (nic port speed / frontend speed: the ways
// each cage is split) ports per host, packed top-of-rack; radix
// k_f = switch.ports_at(speed); leaf up u_f = max(1, floor(k_f / (1 + oversubscription))),
// down d_f = k_f - u_f; spines as the 2-tier backend. No link joins it to the backend.
//
// Per-link attributes: capacity = port_speed (frontend: its speed); latency = backend.link_latency
// (frontend too); media = the catalog optic or cable that runs the link's speed, either split
// (speed / links == link speed: the module carries `links` links) or whole (speed == link speed:
// one link, e.g. an 800G twin-port module run as one 800G port), with reach >= cable_length_m[t]
// of the link's tier (0 NIC-leaf, 1 leaf-spine, 2 spine-core; an extra link uses its upper end's
// tier), choosing the lowest power per link carried (unknown power last), then the shortest
// reach, then the id; -1 when none fits. One media kind per link: both ends are assumed to use
// the same family (the NIC end's single-port module is not modelled separately).
// Switch `ports` = the radix in logical ports.
//
// Vertex numbering (topology.h): backend ports by (host, rail, plane); then per plane: leaves by
// (pod, index), spines by (pod, index), cores by (group j, index c) with index j*C + c; then
// frontend ports by (host, port), frontend leaves, frontend spines.
// Link numbering: (1) the NIC-leaf link of backend port v has LinkId v; (2) leaf-spine links by
// (plane, leaf, spine, parallel); (3) spine-core by (plane, pod, spine, core, parallel); (4) extra
// links in spec order; (5) frontend NIC-leaf links in frontend port order, then leaf-spine links.
#pragma once

#include <cstdint>

#include "catalog/catalog.h"
#include "core/diagnostic.h"
#include "spec/valid_spec.h"
#include "topology/topology.h"

namespace ct {

// What validate() cannot see without the builder's arithmetic: a spine or core tier whose switch
// count no divisor rule can fit into the radix, a fat tree smaller than the endpoints, extra links
// naming a switch index that does not exist, an infeasible frontend. Empty when buildable.
Diagnostics check_buildable(const ValidSpec& spec);

// PRECONDITION: check_buildable(spec) is empty. Otherwise the result is still a well-formed graph
// (out-of-range extra links are left out, over-full upper tiers use one cable per pair) but some
// switches have more links than ports.
// POSTCONDITION: finalize() has been called.
Topology build_topology(const ValidSpec& spec, const Catalog& catalog);

// The catalog optic/cable (index into catalog.optics) for one link of `speed` and `length_m`,
// by the rule above, or -1.
std::int32_t choose_media(const Catalog& catalog, BitsPerSecond speed, double length_m);
// Links of `speed` one module (or cable) of `optic` carries: optic.links when split, 1 when run
// whole, 0 when it cannot run that speed.
int links_per_module(const OpticModel& optic, BitsPerSecond speed);

}  // namespace ct
