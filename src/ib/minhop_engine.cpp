// Min-hop routing (OpenSM's default engine, osm_ucast_mgr.c).
//
// Hop table: for every destination switch d, BFS over switch-to-switch cables gives dist(s, d) for
// every switch s (OpenSM's LID matrix, relaxed neighbour by neighbour until stable, gives the same
// numbers). A CA is one hop past the switch it hangs off. At switch s the candidate ports toward
// d are those to a neighbour r with dist(r, d) = dist(s, d) - 1: every route is a shortest path,
// so no forwarding loop can form. Among candidates the LFT fill balances by path count per port
// (lft_builder.h). Min-hop routes are not deadlock-free in general (a ring closes a credit loop);
// the credit-loop check (ib_checks.h) says whether they are on a given fabric.
#include <limits>

#include "ib/routing_engines.h"

namespace ct {

Diagnostics route_minhop(const SwitchGraph& graph, const IbRoutingOptions& options, IbRouting& routing) {
  const std::uint32_t n = graph.size();
  constexpr std::uint8_t kFar = std::numeric_limits<std::uint8_t>::max();
  // dist[d * n + s]: hops from s to d (kFar: unreachable or farther than 254 hops).
  std::vector<std::uint8_t> dist(static_cast<std::size_t>(n) * n, kFar);
  parallel_for_switches(n, options.threads, [&](std::uint32_t d) {
    std::uint8_t* row = dist.data() + static_cast<std::size_t>(d) * n;
    std::vector<std::uint32_t> frontier{d};
    row[d] = 0;
    for (std::size_t head = 0; head < frontier.size(); ++head) {
      const auto s = frontier[head];
      if (row[s] + 1 >= kFar) break;
      for (const auto& link : graph.links(s)) {
        if (row[link.peer] != kFar) continue;
        row[link.peer] = static_cast<std::uint8_t>(row[s] + 1);
        frontier.push_back(link.peer);
      }
    }
  });
  const auto candidates = [&](std::uint32_t s, std::uint32_t d, std::vector<std::uint8_t>& out) {
    const std::uint8_t* row = dist.data() + static_cast<std::size_t>(d) * n;
    if (row[s] == kFar) return;
    for (const auto& link : graph.links(s)) {
      if (row[link.peer] + 1 == row[s]) out.push_back(link.port);
    }
  };
  fill_balanced(graph, make_targets(graph, routing.lids), candidates, options.threads, routing);
  return {};
}

}  // namespace ct
