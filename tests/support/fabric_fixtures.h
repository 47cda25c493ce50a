// Tiny hand-built fabrics for the tests of routing/, traffic/ and analysis/ (header only, not part
// of the library). They follow the builder's numbering (topology/builder.h): ports first, ordered
// by (host, rail, plane), each port's NIC link with the port's id; then switches by (plane, tier,
// pod, index); one plane, one rail, every link 400G.
#pragma once

#include <cstdint>

#include "core/units.h"
#include "topology/topology.h"

namespace ct::fixtures {

inline constexpr BitsPerSecond kLinkSpeed = gbps(400);

// Two tiers: `leaves` leaves with `hosts_per_leaf` single-NIC hosts each, `spines` spines, and
// `parallel` cables between every leaf and every spine. A leaf's up group has spines x parallel
// members.
inline Topology two_tier(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts_per_leaf,
                         std::uint32_t parallel = 1) {
  Topology t;
  t.host_count = leaves * hosts_per_leaf;
  t.ports_per_host = 1;
  t.planes = 1;
  t.tiers = 2;
  for (std::uint32_t h = 0; h < t.host_count; ++h) t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, 0, 1);
  const std::uint32_t first_leaf = static_cast<std::uint32_t>(t.vertex_count());
  const int radix = static_cast<int>(hosts_per_leaf + spines * parallel);
  for (std::uint32_t l = 0; l < leaves; ++l) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, l, radix);
  const std::uint32_t first_spine = static_cast<std::uint32_t>(t.vertex_count());
  for (std::uint32_t s = 0; s < spines; ++s) {
    t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, 0, s, static_cast<int>(leaves * parallel));
  }
  for (std::uint32_t h = 0; h < t.host_count; ++h) {
    t.add_link(VertexId(h), VertexId(first_leaf + h / hosts_per_leaf), kLinkSpeed, TimePs(0), -1);
  }
  for (std::uint32_t l = 0; l < leaves; ++l) {
    for (std::uint32_t s = 0; s < spines; ++s) {
      for (std::uint32_t p = 0; p < parallel; ++p) {
        t.add_link(VertexId(first_leaf + l), VertexId(first_spine + s), kLinkSpeed, TimePs(0), -1);
      }
    }
  }
  t.finalize();
  return t;
}

// two_tier(2, 2, 4, 2) with 2 GPUs per host on the single rail: 16 GPUs, the scenario tests'
// fabric. Vertices: ports 0-7, leaves 8-9, spines 10-11. Links: NIC links 0-7, then leaf-spine by
// (leaf, spine, parallel): leaf 0 - spine 0 are links 8 and 9, leaf 0 - spine 1 are 10 and 11,
// leaf 1 - spine 0 are 12 and 13.
inline Topology two_tier_16_gpus() {
  Topology t = two_tier(2, 2, 4, 2);
  t.gpus_per_host = 2;
  return t;
}

// The 4-ary fat tree of Al-Fares et al. (SIGCOMM 2008): 4 pods of 2 edge (leaf) and 2 aggregation
// (spine) switches, complete within a pod; aggregation j of every pod to cores 2j and 2j+1;
// 16 single-NIC hosts, 2 per edge. Every switch has 2 up links: the smallest Clos in which two
// consecutive tiers make 2-way hash decisions.
inline Topology fat_tree_4() {
  Topology t;
  t.host_count = 16;
  t.ports_per_host = 1;
  t.planes = 1;
  t.tiers = 3;
  for (std::uint32_t h = 0; h < 16; ++h) t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, 0, 1);
  const std::uint32_t first_edge = 16;
  for (std::uint32_t pod = 0; pod < 4; ++pod) {
    for (std::uint32_t i = 0; i < 2; ++i) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, pod, i, 4);
  }
  const std::uint32_t first_agg = 24;
  for (std::uint32_t pod = 0; pod < 4; ++pod) {
    for (std::uint32_t j = 0; j < 2; ++j) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, pod, j, 4);
  }
  const std::uint32_t first_core = 32;
  for (std::uint32_t c = 0; c < 4; ++c) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 3, 0, c, 4);
  for (std::uint32_t h = 0; h < 16; ++h) t.add_link(VertexId(h), VertexId(first_edge + h / 2), kLinkSpeed, TimePs(0), -1);
  for (std::uint32_t pod = 0; pod < 4; ++pod) {
    for (std::uint32_t i = 0; i < 2; ++i) {
      for (std::uint32_t j = 0; j < 2; ++j) {
        t.add_link(VertexId(first_edge + 2 * pod + i), VertexId(first_agg + 2 * pod + j), kLinkSpeed, TimePs(0), -1);
      }
    }
  }
  for (std::uint32_t pod = 0; pod < 4; ++pod) {
    for (std::uint32_t j = 0; j < 2; ++j) {
      for (std::uint32_t c = 0; c < 2; ++c) {
        t.add_link(VertexId(first_agg + 2 * pod + j), VertexId(first_core + 2 * j + c), kLinkSpeed, TimePs(0), -1);
      }
    }
  }
  t.finalize();
  return t;
}

// Three tiers, two pods, one edge (leaf) per pod with 2 single-NIC hosts (hosts 0, 1 on edge 4;
// hosts 2, 3 on edge 5). Each edge is wired to its pod's `aggs` aggregation switches (ids 6 ..
// 6 + aggs - 1 for pod 0, then pod 1's); aggregation j of either pod has one link to each of the
// `cores_per_agg` cores j x cores_per_agg .. (j + 1) x cores_per_agg - 1. A flow between the pods
// makes an aggs-way choice at its edge, then a cores_per_agg-way choice at the aggregation switch;
// the core and the far aggregation switch have one way down.
inline Topology three_tier_two_pods(std::uint32_t aggs, std::uint32_t cores_per_agg) {
  Topology t;
  t.host_count = 4;
  t.ports_per_host = 1;
  t.planes = 1;
  t.tiers = 3;
  for (std::uint32_t h = 0; h < 4; ++h) t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, 0, 1);
  const int edge_radix = static_cast<int>(2 + aggs);
  for (std::uint32_t pod = 0; pod < 2; ++pod) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, pod, 0, edge_radix);
  const std::uint32_t first_agg = 6;
  for (std::uint32_t pod = 0; pod < 2; ++pod) {
    for (std::uint32_t j = 0; j < aggs; ++j) {
      t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, pod, j, static_cast<int>(1 + cores_per_agg));
    }
  }
  const std::uint32_t first_core = first_agg + 2 * aggs;
  for (std::uint32_t c = 0; c < aggs * cores_per_agg; ++c) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 3, 0, c, 2);
  for (std::uint32_t h = 0; h < 4; ++h) t.add_link(VertexId(h), VertexId(4 + h / 2), kLinkSpeed, TimePs(0), -1);
  for (std::uint32_t pod = 0; pod < 2; ++pod) {
    for (std::uint32_t j = 0; j < aggs; ++j) {
      t.add_link(VertexId(4 + pod), VertexId(first_agg + pod * aggs + j), kLinkSpeed, TimePs(0), -1);
    }
  }
  for (std::uint32_t pod = 0; pod < 2; ++pod) {
    for (std::uint32_t j = 0; j < aggs; ++j) {
      for (std::uint32_t c = 0; c < cores_per_agg; ++c) {
        t.add_link(VertexId(first_agg + pod * aggs + j), VertexId(first_core + j * cores_per_agg + c), kLinkSpeed,
                   TimePs(0), -1);
      }
    }
  }
  t.finalize();
  return t;
}

// Rail-optimized, two tiers: `hosts` hosts with `rails` NICs each (port 2h + r for rails = 2: ports
// by host, then rail), leaf r holding NIC r of every host, every leaf wired to each of `spines`
// spines once. Leaf ids follow the ports: hosts x rails + r.
inline Topology rail_two_tier(std::uint32_t hosts, std::uint32_t rails, std::uint32_t spines) {
  Topology t;
  t.host_count = hosts;
  t.ports_per_host = static_cast<int>(rails);
  t.planes = 1;
  t.tiers = 2;
  for (std::uint32_t h = 0; h < hosts; ++h) {
    for (std::uint32_t r = 0; r < rails; ++r) t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, r, 1);
  }
  const std::uint32_t first_leaf = hosts * rails;
  for (std::uint32_t r = 0; r < rails; ++r) {
    t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, r, static_cast<int>(hosts + spines));
  }
  const std::uint32_t first_spine = first_leaf + rails;
  for (std::uint32_t s = 0; s < spines; ++s) t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, 0, s, static_cast<int>(rails));
  for (std::uint32_t p = 0; p < hosts * rails; ++p) {
    t.add_link(VertexId(p), VertexId(first_leaf + p % rails), kLinkSpeed, TimePs(0), -1);
  }
  for (std::uint32_t r = 0; r < rails; ++r) {
    for (std::uint32_t s = 0; s < spines; ++s) t.add_link(VertexId(first_leaf + r), VertexId(first_spine + s), kLinkSpeed, TimePs(0), -1);
  }
  t.finalize();
  return t;
}

}  // namespace ct::fixtures
