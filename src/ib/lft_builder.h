// The LFT fill shared by the minhop and updn engines, after OpenSM's ucast manager
// (osm_ucast_mgr.c, osm_switch_recommend_path in osm_switch.c):
//
//   destinations in OpenSM's order (osm_ucast_mgr.c: sort_ports_by_switch_load, then
//   add_port_to_order_list over the port GUID table): the CA ports of each switch, switches taken
//   by decreasing number of CA ports (ties: ascending node GUID, the order of OpenSM's switch
//   table, which its stable sort keeps), ports in port order; then the switches' own LIDs in GUID
//   order. Nothing depends on the order of the input file.
//   for every switch s independently, port counters c[p] = 0;
//     for LID offset i = 0 .. 2^LMC - 1, for every destination t in that order:
//       LFT_s[base(t) + i] = 0 if t is s; the CA's port if t hangs off s; otherwise the candidate
//       port (engine-specific: a neighbour one hop closer) with the least c[p], ties to the lowest
//       port (i > 0: first a port to a neighbour not yet used by t's lower LIDs, then least c[p],
//       ties scanning from the port after LID base+i-1's, as OpenSM's LMC-aware routing);
//       c[p] += 1 when t is a CA (OpenSM does not count switch LIDs: port_profile_switch_nodes off).
// Switches are independent, so the loop runs on several threads with identical results.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ib/ib_routing.h"
#include "ib/switch_graph.h"

namespace ct {

struct LftTarget {
  IbNodeId node;
  int port = 0;                   // CA port, 0 for a switch
  std::uint32_t dest_switch = 0;  // switch the target hangs off (itself for a switch)
  std::uint8_t switch_port = 0;   // port of dest_switch cabled to the CA (0 for a switch)
  std::uint16_t base_lid = 0;
  bool is_switch = false;
};

// Targets with a LID and a switch to reach them through, in OpenSM's order (above).
std::vector<LftTarget> make_targets(const SwitchGraph& graph, const LidAssignment& lids);

// Candidate output ports of switch s toward destination switch d (d != s), in port order.
using CandidatePorts = std::function<void(std::uint32_t s, std::uint32_t d, std::vector<std::uint8_t>& out)>;

void fill_balanced(const SwitchGraph& graph, const std::vector<LftTarget>& targets, const CandidatePorts& candidates,
                   int threads, IbRouting& routing);

// Runs body(s) for s in [0, n) on up to `threads` threads (0: hardware concurrency).
void parallel_for_switches(std::uint32_t n, int threads, const std::function<void(std::uint32_t)>& body);

}  // namespace ct
