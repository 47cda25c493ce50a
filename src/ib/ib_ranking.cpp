#include "ib/ib_ranking.h"

#include <algorithm>

namespace ct {
namespace {

// Multi-source BFS distances over switch links; kUnranked where unreachable.
std::vector<int> bfs(const SwitchGraph& graph, const std::vector<std::uint32_t>& sources) {
  std::vector<int> dist(graph.size(), IbRanks::kUnranked);
  std::vector<std::uint32_t> frontier;
  for (const auto s : sources) {
    if (dist[s] != 0) frontier.push_back(s);
    dist[s] = 0;
  }
  for (std::size_t head = 0; head < frontier.size(); ++head) {
    const auto s = frontier[head];
    for (const auto& link : graph.links(s)) {
      if (dist[link.peer] != IbRanks::kUnranked) continue;
      dist[link.peer] = dist[s] + 1;
      frontier.push_back(link.peer);
    }
  }
  return dist;
}

}  // namespace

std::vector<std::uint32_t> detect_roots(const IbFabric& fabric, const SwitchGraph& graph) {
  std::vector<std::uint32_t> roots;
  int top_tier = 0;
  for (std::uint32_t s = 0; s < graph.size(); ++s) top_tier = std::max<int>(top_tier, fabric.tier[graph.node(s).value()]);
  if (top_tier > 0) {
    for (std::uint32_t s = 0; s < graph.size(); ++s) {
      if (fabric.tier[graph.node(s).value()] == top_tier) roots.push_back(s);
    }
    return roots;
  }
  std::vector<std::uint32_t> leaves;
  for (std::uint32_t s = 0; s < graph.size(); ++s) {
    if (!graph.cas(s).empty()) leaves.push_back(s);
  }
  if (leaves.empty()) return roots;
  const auto height = bfs(graph, leaves);
  int max_height = 0;
  for (const int h : height) {
    if (h != IbRanks::kUnranked) max_height = std::max(max_height, h);
  }
  for (std::uint32_t s = 0; s < graph.size(); ++s) {
    if (height[s] == max_height) roots.push_back(s);
  }
  return roots;
}

IbRanks rank_from_roots(const SwitchGraph& graph, std::vector<std::uint32_t> roots) {
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  IbRanks ranks;
  ranks.rank = bfs(graph, roots);
  ranks.roots = std::move(roots);
  for (const int r : ranks.rank) {
    if (r != IbRanks::kUnranked) ranks.max_rank = std::max(ranks.max_rank, r);
  }
  return ranks;
}

IbRanks rank_switches(const IbFabric& fabric, const SwitchGraph& graph, const std::vector<IbNodeId>& roots) {
  if (roots.empty()) return rank_from_roots(graph, detect_roots(fabric, graph));
  std::vector<std::uint32_t> indices;
  for (const IbNodeId n : roots) {
    if (graph.index_of(n) != SwitchGraph::kNone) indices.push_back(graph.index_of(n));
  }
  return rank_from_roots(graph, std::move(indices));
}

}  // namespace ct
