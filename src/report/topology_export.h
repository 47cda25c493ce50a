// Exports of a built Topology, as pure functions of it (same topology, same bytes).
//
// JSON: one object with the fabric's dimensions, then "vertices" and "links" in id order, one
// element per line:
//   {"id":0,"name":"host0/nic0","kind":"port","network":"backend","plane":0,"tier":0,"host":0,"rail":0}
//   {"id":256,"name":"p0/leaf/0","kind":"switch","network":"backend","plane":0,"tier":1,"pod":0,"index":0,"ports":64}
//   {"id":0,"a":0,"b":256,"capacity_bps":400000000000,"latency_ps":100000,"media":"osfp-..."}
// (frontend ports carry "host" and "port"; "media" is the catalog optic id, null when none fits).
//
// DOT (Graphviz, undirected, drawn bottom-up): one cluster per backend plane and one for the
// frontend; inside each, one cluster per host holding that host's ports, and switches ranked by
// tier. Parallel cables between the same two vertices are drawn as one edge labelled "xN"; links
// between switches of one tier (extra links) do not constrain the ranking.
//
// Aggregated DOT (to_dot_aggregate): one node per group of vertices, a group being the NIC ports of
// one backend plane (or of the frontend), or the switches of one (network, plane, tier, pod); one
// edge per pair of groups with links between them, labelled with the link count, the speed and the
// summed capacity in one direction ("8,192 x 400G = 3276.8T"). Its size depends on the planes, tiers
// and pods, not on the host count, so Graphviz renders a 17,000-vertex fabric at once; the full
// view of such a fabric (megabytes of DOT) does not render in minutes.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "core/threads.h"
#include "topology/topology.h"

namespace ct {

// PRECONDITION: every media index of `topology` is -1 or an index into catalog.optics.
// `progress`, when set, is told (elements written, vertices + links) as the text grows, from the
// caller's thread (core/threads.h); the text does not depend on it.
std::string to_json(const Topology& topology, const Catalog& catalog, const ProgressCallback& progress = {});
// PRECONDITION: topology.finalize() was called.
std::string to_dot(const Topology& topology);

// Above this many vertices `clustertwin topology --format dot` writes the aggregated view unless
// asked for the full one (--view full).
inline constexpr std::size_t kDotFullViewMaxVertices = 2000;
// `comment`, when not empty, is written as a DOT comment line after the header (why this view).
std::string to_dot_aggregate(const Topology& topology, const std::string& comment = {});

}  // namespace ct
