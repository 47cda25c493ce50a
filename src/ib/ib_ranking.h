// Ranks of switches, for up/down routing, fat-tree routing and the uplink balance check.
//
// rank(s) = hop distance from s to the nearest root switch (roots rank 0), by BFS over
// switch-to-switch cables (OpenSM updn_subn_rank and ftree's ranking from roots). A port of s is an
// uplink when its neighbour has a lower rank.
//
// Root detection when none are given:
//   * a fabric built from a clustertwin Topology knows its tiers: the roots are the top-tier
//     switches (spines of 2 tiers, cores of 3);
//   * otherwise (imported from ibnetdiscover): h(s) = hop distance to the nearest switch with a CA
//     (leaves have h = 0, by multi-source BFS); the roots are the switches of maximal h, as OpenSM's
//     ftree ranks from the leaves. OpenSM's updn uses another rule (a switch whose min-hop histogram
//     to the CAs has one bar over 90 % and none other over 5 %), which also elects leaves holding
//     under 5 % of the CAs; we do not copy it, and pass OpenSM explicit roots when comparing.
#pragma once

#include <cstdint>
#include <vector>

#include "ib/ib_fabric.h"
#include "ib/switch_graph.h"

namespace ct {

struct IbRanks {
  static constexpr int kUnranked = 1 << 30;  // not connected to any root
  std::vector<int> rank;                     // per switch index
  std::vector<std::uint32_t> roots;          // switch indices, ascending
  int max_rank = 0;                          // over ranked switches
};

// Switch indices of the detected roots (rules above), ascending. Empty when there is no switch.
std::vector<std::uint32_t> detect_roots(const IbFabric& fabric, const SwitchGraph& graph);

// BFS ranks from the given roots (switch indices).
IbRanks rank_from_roots(const SwitchGraph& graph, std::vector<std::uint32_t> roots);

// detect_roots + rank_from_roots, or the given root nodes (non-switch nodes ignored).
IbRanks rank_switches(const IbFabric& fabric, const SwitchGraph& graph, const std::vector<IbNodeId>& roots);

}  // namespace ct
