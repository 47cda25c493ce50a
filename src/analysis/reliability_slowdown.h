// How much slower a collective runs when one element above the leaves fails: the fluid flow engine
// (sim/flow/flow_engine.h) runs the same traffic on one plane with and without the element.
//
// Traffic (the stress pattern of the element's tier): every leaf of the plane that has endpoint
// ports sends the same amount per port to one other leaf, a shift permutation that crosses the
// tier of the failed element:
//   tier 2 (a spine, or a leaf-spine cable)  2 tiers: leaf i -> leaf (i + L/2) mod L over the L
//                                            leaves; 3 tiers: the same within the element's pod;
//   tier 3 (a core, or a spine-core cable)   leaf i of pod q -> leaf i of pod (q + Q/2) mod Q.
// Each leaf pair's traffic is split over every live shortest switch path between the two leaves:
//   kEcmp      equal byte shares per path, whatever the state of the cables on it: the static
//              hashing of ECMP, whose groups shrink to the live paths when a switch or a path's
//              last cable fails ("ECMP groups shrink"), but which cannot steer around a bundle of
//              parallel cables that lost some of them (a switch downstream sends into it blind);
//   kAdaptive  byte shares proportional to the path's worst remaining bundle capacity (live /
//              healthy): ideal adaptive routing or spraying that sees the loss. Parallel cables between two switches form one constraint per direction with
// their summed capacity; each source leaf has an injection constraint and each destination leaf an
// ejection constraint equal to the capacity of its endpoint ports. A pair's traffic is aggregated
// over its ports (exact under equal splitting: every port of a leaf pair sees the same paths).
//
// Result: slowdown = T_failed / T_healthy, T the completion of the last flow. In a non-blocking
// two-tier plane with S spines, one spine down gives S / (S - 1) (each leaf's traffic shares S - 1
// uplinks); the tests check this and the cable case by hand. Infinity when the failure leaves a leaf
// pair of the pattern without a path.
//
// Paths per leaf pair are enumerated in link order and capped at kMaxPathsPerPair (a k = 128
// three-tier fat tree would have 4,096); the designs of examples/ have at most 128.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ids.h"
#include "topology/topology.h"

namespace ct {

inline constexpr std::size_t kMaxPathsPerPair = 4096;

enum class PathSplit : std::uint8_t { kEcmp, kAdaptive };

struct FailedElement {
  VertexId vertex = VertexId::invalid();  // a switch, or
  LinkId link = LinkId::invalid();        // one cable between two switches
};

// The collective-time factor (>= 1, or +infinity) when `failed` is down, for the pattern of `tier`
// (2 or 3) on backend plane `plane`. 1 when the pattern is empty (a single leaf, a single pod).
// PRECONDITION: failed names a backend switch of tier >= 2 or a backend switch-switch link.
double fabric_slowdown(const Topology& topology, int plane, int tier, const FailedElement& failed,
                       PathSplit split = PathSplit::kEcmp);

}  // namespace ct
