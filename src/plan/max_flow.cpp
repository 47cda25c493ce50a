#include "plan/max_flow.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace ct {

MaxFlow::MaxFlow(std::uint32_t vertices) : vertices_(vertices) {}

void MaxFlow::add_edge(std::uint32_t u, std::uint32_t v, std::int64_t forward, std::int64_t backward) {
  assert(u < vertices_ && v < vertices_ && forward >= 0 && backward >= 0);
  from_.push_back(u);
  to_.push_back(v);
  residual_.push_back(forward);
  from_.push_back(v);
  to_.push_back(u);
  residual_.push_back(backward);
}

void MaxFlow::build_csr() {
  offset_.assign(vertices_ + 1, 0);
  for (const auto u : from_) ++offset_[u + 1];
  for (std::uint32_t v = 0; v < vertices_; ++v) offset_[v + 1] += offset_[v];
  arcs_.resize(from_.size());
  std::vector<std::uint32_t> cursor(offset_.begin(), offset_.end() - 1);
  for (std::uint32_t e = 0; e < from_.size(); ++e) arcs_[cursor[from_[e]]++] = e;
}

bool MaxFlow::build_levels(std::uint32_t source, std::uint32_t sink) {
  level_.assign(vertices_, -1);
  std::vector<std::uint32_t> queue{source};
  level_[source] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto u = queue[head];
    for (auto i = offset_[u]; i < offset_[u + 1]; ++i) {
      const auto e = arcs_[i];
      if (residual_[e] > 0 && level_[to_[e]] < 0) {
        level_[to_[e]] = level_[u] + 1;
        queue.push_back(to_[e]);
      }
    }
  }
  return level_[sink] >= 0;
}

// Advance along admissible arcs (residual > 0, one level down); augment on reaching the sink and
// resume from the tail of the first saturated arc; retreat from dead ends, marking them.
std::int64_t MaxFlow::blocking_flow(std::uint32_t source, std::uint32_t sink) {
  current_.assign(offset_.begin(), offset_.end() - 1);
  std::vector<std::uint32_t> path;
  std::int64_t total = 0;
  std::uint32_t u = source;
  while (true) {
    if (u == sink) {
      std::int64_t push = std::numeric_limits<std::int64_t>::max();
      for (const auto e : path) push = std::min(push, residual_[e]);
      std::size_t first_saturated = path.size();
      for (std::size_t i = 0; i < path.size(); ++i) {
        residual_[path[i]] -= push;
        residual_[path[i] ^ 1U] += push;
        if (residual_[path[i]] == 0 && first_saturated == path.size()) first_saturated = i;
      }
      total += push;
      path.resize(first_saturated);
      u = path.empty() ? source : to_[path.back()];
      continue;
    }
    bool advanced = false;
    for (; current_[u] < offset_[u + 1]; ++current_[u]) {
      const auto e = arcs_[current_[u]];
      if (residual_[e] > 0 && level_[to_[e]] == level_[u] + 1) {
        path.push_back(e);
        u = to_[e];
        advanced = true;
        break;
      }
    }
    if (advanced) continue;
    level_[u] = -1;  // dead end for the rest of the phase
    if (u == source) break;
    u = from_[path.back()];
    path.pop_back();
    ++current_[u];
  }
  return total;
}

std::int64_t MaxFlow::solve(std::uint32_t source, std::uint32_t sink) {
  assert(source != sink && source < vertices_ && sink < vertices_);
  build_csr();
  std::int64_t flow = 0;
  while (build_levels(source, sink)) flow += blocking_flow(source, sink);
  return flow;
}

}  // namespace ct
