#include "topology/cable_index.h"

#include <algorithm>

namespace ct {

CableIndex::CableIndex(const Topology& t) {
  // Each vertex's list is its adjacency (in link-id order, Topology::finalize) ordered by
  // neighbour, ties kept in link-id order. Built fabrics add a vertex's cables neighbour by
  // neighbour, so the topology's adjacency (one array in vertex order) is usually in that order
  // already and is searched where it is; otherwise a copy is, its out-of-order lists sorted.
  const std::size_t n = t.vertex_count();
  bounds_.assign(n + 1, Bounds{});
  if (n == 0) return;
  const auto by_vertex = [](const Adjacency& x, const Adjacency& y) { return x.neighbor.value() < y.neighbor.value(); };
  const Adjacency* const adjacency = t.neighbors(VertexId(0)).data();
  const std::size_t entries = static_cast<std::size_t>(t.neighbors(VertexId(n - 1)).data() + t.neighbors(VertexId(n - 1)).size() - adjacency);
  base_ = adjacency;
  for (std::size_t v = 0; v < n; ++v) {
    const std::span<const Adjacency> list = t.neighbors(VertexId(v));
    const auto first = static_cast<std::size_t>(list.data() - adjacency);
    bounds_[v] = {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(summary_.size())};
    if (!std::is_sorted(list.begin(), list.end(), by_vertex)) {
      if (own_.empty()) {
        own_.assign(adjacency, adjacency + entries);
        base_ = own_.data();
      }
      std::stable_sort(own_.begin() + static_cast<std::ptrdiff_t>(first),
                       own_.begin() + static_cast<std::ptrdiff_t>(first + list.size()), by_vertex);
    }
    if (list.size() <= kBlock) continue;
    for (std::size_t i = 0; i < list.size(); i += kBlock) summary_.push_back(base_[first + i].neighbor.value());
  }
  bounds_[n] = {static_cast<std::uint32_t>(entries), static_cast<std::uint32_t>(summary_.size())};
}

[[gnu::always_inline]] inline CableIndex::Search CableIndex::block_of(VertexId a, VertexId b) const {
  const Bounds* const ia = bounds_.data() + a.value();
  const Bounds* const ib = bounds_.data() + b.value();
  const bool a_smaller = ia[1].first - ia[0].first <= ib[1].first - ib[0].first;
  const Bounds* const is = a_smaller ? ia : ib;
  Search s;
  s.other = a_smaller ? b : a;
  s.first = base_ + is[0].first;
  s.last = base_ + is[1].first;
  s.n = static_cast<std::size_t>(s.last - s.first);
  if (s.n > kBlock) {
    // The blocks after the first whose first neighbour is below `other`: the lower bound is in the
    // last of them (or at the next block's start), so only that block is searched.
    const std::uint32_t* const summary = summary_.data() + is[0].summary;
    const std::size_t blocks = (s.n + kBlock - 1) / kBlock;
    std::size_t below = 0;
    for (std::size_t j = 1; j < blocks; ++j) below += static_cast<std::size_t>(summary[j] < s.other.value());
    s.first += below * kBlock;
    s.n = std::min<std::size_t>(kBlock, static_cast<std::size_t>(s.last - s.first));
  }
  return s;
}

[[gnu::always_inline]] inline const Adjacency* CableIndex::lower_bound(const Search& s) {
  // The first entry whose neighbour is not below `other`: the comparison's 0 or 1 scales the step.
  const Adjacency* first = s.first;
  for (std::size_t n = s.n; n > 1;) {
    const std::size_t half = n / 2;
    first += static_cast<std::size_t>(first[half - 1].neighbor.value() < s.other.value()) * half;
    n -= half;
  }
  if (first != s.last) first += static_cast<std::size_t>(first->neighbor.value() < s.other.value());
  return first;
}

std::span<const Adjacency> CableIndex::cables(VertexId a, VertexId b) const {
  const Search s = block_of(a, b);
  const Adjacency* const first = lower_bound(s);
  const Adjacency* end = first;
  while (end != s.last && end->neighbor == s.other) ++end;
  return {first, end};
}

LinkId CableIndex::cable(VertexId a, VertexId b, std::size_t k) const {
  const Search s = block_of(a, b);
  const Adjacency* const first = lower_bound(s);
  if (static_cast<std::size_t>(s.last - first) <= k || first[k].neighbor != s.other) return LinkId::invalid();
  return first[k].link;
}

}  // namespace ct
