// Up*/down* routing (Schroeder et al., "Autonet", IEEE JSAC 9(8), 1991; OpenSM osm_ucast_updn.c).
//
// Ranks: BFS distance from the root switches (ib_ranking.h). Switches are totally ordered by
// key(s) = (rank, GUID); moving from s to a neighbour n is UP when key(n) < key(s), DOWN otherwise
// (OpenSM: lower rank is up, equal ranks are split by GUID, larger GUID below). A legal route is
// up* down*: it never takes an up step after a down step. Because every cable has one up and one
// down direction under a total order, the channel dependencies of legal routes are acyclic, so
// up/down routing is free of credit loops on any topology.
//
// Tables for every destination switch d (two BFS passes, O(S + E) each):
//   down(s) = length of the shortest all-down path s -> d (BFS from d over reversed down steps);
//   L(s)    = down(s) when finite, else 1 + min L(n) over up-neighbours n (in increasing key
//             order, so up-neighbours are final first).
// At switch s the candidates toward d are: when down(s) is finite, down-neighbours n with
// down(n) = down(s) - 1; otherwise up-neighbours n with L(n) = L(s) - 1. A switch below d thus
// always routes down, and a packet that has gone down only meets switches that keep going down:
// LFT routes (which cannot see where a packet came from) stay legal. OpenSM's BFS keeps one
// direction per switch instead; on fat trees both give the min-hop up/down paths.
// The LFT fill balances among candidates as minhop does (lft_builder.h). A destination with no
// legal path stays unrouted; the reachability check reports it.
#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "ib/routing_engines.h"

namespace ct {
namespace {

constexpr std::uint8_t kFar = std::numeric_limits<std::uint8_t>::max();

struct UpDownTables {
  std::uint32_t n = 0;
  std::vector<std::uint32_t> pos;    // position of each switch in key order
  std::vector<std::uint32_t> order;  // switches in key order
  std::vector<std::uint8_t> down;    // [d * n + s]
  std::vector<std::uint8_t> legal;   // L, [d * n + s]
};

UpDownTables build_tables(const IbFabric& fabric, const SwitchGraph& graph, const IbRanks& ranks, int threads) {
  UpDownTables t;
  t.n = graph.size();
  t.order.resize(t.n);
  std::iota(t.order.begin(), t.order.end(), 0U);
  std::sort(t.order.begin(), t.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (ranks.rank[a] != ranks.rank[b]) return ranks.rank[a] < ranks.rank[b];
    return fabric.guid[graph.node(a).value()] < fabric.guid[graph.node(b).value()];
  });
  t.pos.resize(t.n);
  for (std::uint32_t i = 0; i < t.n; ++i) t.pos[t.order[i]] = i;
  t.down.assign(static_cast<std::size_t>(t.n) * t.n, kFar);
  t.legal.assign(static_cast<std::size_t>(t.n) * t.n, kFar);
  parallel_for_switches(t.n, threads, [&](std::uint32_t d) {
    std::uint8_t* down = t.down.data() + static_cast<std::size_t>(d) * t.n;
    std::uint8_t* legal = t.legal.data() + static_cast<std::size_t>(d) * t.n;
    std::vector<std::uint32_t> frontier{d};
    down[d] = 0;
    for (std::size_t head = 0; head < frontier.size(); ++head) {
      const auto x = frontier[head];
      if (down[x] + 1 >= kFar) break;
      for (const auto& link : graph.links(x)) {
        // s = link.peer steps DOWN to x when x comes after s in key order.
        if (t.pos[link.peer] >= t.pos[x] || down[link.peer] != kFar) continue;
        down[link.peer] = static_cast<std::uint8_t>(down[x] + 1);
        frontier.push_back(link.peer);
      }
    }
    for (const std::uint32_t s : t.order) {
      if (down[s] != kFar) {
        legal[s] = down[s];
        continue;
      }
      std::uint8_t best = kFar;
      for (const auto& link : graph.links(s)) {
        if (t.pos[link.peer] < t.pos[s] && legal[link.peer] + 1 < best) best = static_cast<std::uint8_t>(legal[link.peer] + 1);
      }
      legal[s] = best;
    }
  });
  return t;
}

}  // namespace

void fill_updn(const IbFabric& fabric, const SwitchGraph& graph, const IbRanks& ranks,
               const std::vector<LftTarget>& targets, int threads, IbRouting& routing) {
  const UpDownTables t = build_tables(fabric, graph, ranks, threads);
  const auto candidates = [&](std::uint32_t s, std::uint32_t d, std::vector<std::uint8_t>& out) {
    const std::uint8_t* down = t.down.data() + static_cast<std::size_t>(d) * t.n;
    const std::uint8_t* legal = t.legal.data() + static_cast<std::size_t>(d) * t.n;
    if (legal[s] == kFar) return;
    const bool going_down = down[s] != kFar;
    for (const auto& link : graph.links(s)) {
      const bool is_up = t.pos[link.peer] < t.pos[s];
      if (going_down && !is_up && down[link.peer] + 1 == down[s]) out.push_back(link.port);
      if (!going_down && is_up && legal[link.peer] + 1 == legal[s]) out.push_back(link.port);
    }
  };
  fill_balanced(graph, targets, candidates, threads, routing);
}

Diagnostics route_updn(const IbFabric& fabric, const SwitchGraph& graph, const IbRoutingOptions& options,
                       IbRouting& routing) {
  const IbRanks ranks = rank_switches(fabric, graph, options.roots);
  if (ranks.roots.empty()) {
    return {fabric_diagnostic(fabric, IbNodeId::invalid(), "roots",
                              "updn: no root switch detected (the fabric has no switch with a CA); name the roots "
                              "(--roots FILE; OpenSM would fall back to minhop)")};
  }
  fill_updn(fabric, graph, ranks, make_targets(graph, routing.lids), options.threads, routing);
  return {};
}

}  // namespace ct
