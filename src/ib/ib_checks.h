// The checks a fabric engineer runs on a routed InfiniBand subnet, on any IbRouting (ours, or
// OpenSM's read back from an LFT dump).
//
// Traffic model: every CA port cabled to a switch is a source; the destinations are every LID of
// every such CA port (all 2^LMC of them). Switch LIDs (management traffic to port 0) are left out
// unless asked for. A packet follows the LFTs hop by hop from the source's switch; it is delivered
// when a switch forwards it on the cable to the port owning the DLID.
//
// Reachability: every (source, destination LID) pair is delivered, with no forwarding loop; the
// delivered pairs are counted by the switches their packets cross (1: source and destination on
// one leaf).
// Credit loops (Dally & Seitz, IEEE ToC C-36(5), 1987; Duato 1993): the channels are the directed
// switch-to-switch cables; a route that takes channel c1 then c2 adds the dependency c1 -> c2. The
// lossless, credit-based fabric cannot deadlock (on one VL) iff this channel dependency graph is
// acyclic. Only dependencies that some source actually exercises are added (per destination, the
// switches its packets can reach), so a switch route that no CA traffic uses cannot make a loop.
// Uplink balance: for each switch and each uplink port (to a switch of lower rank), the number of
// CA destination LIDs its LFT sends through that port; reported per rank as min/max/mean, the
// fabric-wide spread max - min, and the worst per-switch spread.
// Permutation load: for a permutation of the CA ports (in port GUID order, so the input file's
// order does not change it) each source sends one flow
// to its image; the load of a channel is the number of flows crossing it, and a pattern's figure
// is its maximum channel load (1 = contention-free). Shift k sends port i to port (i + k) mod N;
// random permutations are drawn with ct::Rng(seed, run = pattern, stream = 0).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ib/ib_fabric.h"
#include "ib/ib_ranking.h"
#include "ib/ib_routing.h"

namespace ct {

struct ReachabilityReport {
  std::size_t pairs = 0;        // (source port, destination LID) pairs checked
  std::size_t unreachable = 0;  // of which not delivered (no route, dead end or loop)
  std::size_t loops = 0;        // destinations whose LFTs contain a forwarding loop
  std::vector<std::string> examples;  // first few failures, readable
  std::vector<std::size_t> switch_hops;  // delivered pairs by the switches their packets cross (index)
  [[nodiscard]] bool ok() const { return unreachable == 0 && loops == 0; }
};

struct CreditLoopReport {
  std::size_t channels = 0;      // directed switch-to-switch cables
  std::size_t dependencies = 0;  // distinct c1 -> c2 edges
  std::vector<std::string> cycle;  // one cycle ("switch[port]" per channel), empty when none
  [[nodiscard]] bool ok() const { return cycle.empty(); }
};

struct RankBalance {
  int rank = 0;
  std::size_t uplinks = 0;
  std::uint32_t min = 0;
  std::uint32_t max = 0;
  double mean = 0;
  std::uint32_t worst_switch_spread = 0;  // max over switches of (max - min) among its uplinks
  std::string worst_switch;
  std::vector<std::uint32_t> destinations;  // per uplink of the rank: CA destination LIDs routed over it
                                            // (switches in GUID order, each one's uplinks in link order)
  [[nodiscard]] std::uint32_t spread() const { return max - min; }
};

struct PermutationReport {
  std::size_t patterns = 0;
  std::uint32_t worst_max_load = 0;   // over patterns
  double mean_max_load = 0;           // mean over patterns of each pattern's max load
  std::size_t undelivered_flows = 0;  // flows with no route (not counted in loads)
};

struct CheckOptions {
  bool include_switch_lids = false;
};

ReachabilityReport check_reachability(const IbFabric& fabric, const IbRouting& routing,
                                      const CheckOptions& options = {});
CreditLoopReport check_credit_loops(const IbFabric& fabric, const IbRouting& routing,
                                    const CheckOptions& options = {});
// Ranks give the uplinks (ib_ranking.h); ranks without uplinks (the roots) are left out.
std::vector<RankBalance> uplink_balance(const IbFabric& fabric, const IbRouting& routing, const IbRanks& ranks);

// `count` shifts spread evenly over 1..N-1 (all of them when N - 1 <= count).
PermutationReport shift_permutation_load(const IbFabric& fabric, const IbRouting& routing, std::size_t count);
PermutationReport random_permutation_load(const IbFabric& fabric, const IbRouting& routing, std::size_t count,
                                          std::uint64_t seed);

// One hop of a traced path: the packet leaves `node` through `out_port` (entered on `in_port`,
// 0 at the source).
struct TraceHop {
  IbNodeId node;
  int in_port = 0;
  int out_port = 0;
};
struct Trace {
  std::vector<TraceHop> hops;  // source CA first, then each switch
  bool delivered = false;
  std::string problem;  // why not delivered
};
// Path of a packet from CA port (src, src_port) to destination LID `dlid`, like ibtracert.
Trace trace_route(const IbFabric& fabric, const IbRouting& routing, IbNodeId src, int src_port, std::uint32_t dlid);
// ibtracert-style text of a trace.
std::string format_trace(const IbFabric& fabric, const IbRouting& routing, const Trace& trace, std::uint32_t dlid);

}  // namespace ct
