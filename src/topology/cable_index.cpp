#include "topology/cable_index.h"

#include <algorithm>

namespace ct {

CableIndex::CableIndex(const Topology& t) {
  // The adjacency transposed: walking the vertices u in order, each (u, link) in u's link-id order
  // is appended to its neighbour's list, so every list comes out sorted by (u, link) without a
  // comparison sort.
  const std::size_t n = t.vertex_count();
  std::vector<std::uint32_t> offset(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    offset[v + 1] = offset[v] + static_cast<std::uint32_t>(t.neighbors(VertexId(v)).size());
  }
  by_neighbor_.resize(offset[n]);
  std::vector<std::uint32_t> cursor(offset.begin(), offset.end() - 1);
  for (std::size_t u = 0; u < n; ++u) {
    for (const Adjacency& adj : t.neighbors(VertexId(u))) {
      by_neighbor_[cursor[adj.neighbor.value()]++] = {VertexId(u), adj.link};
    }
  }
  bounds_.assign(n + 1, Bounds{});
  for (std::size_t v = 0; v < n; ++v) {
    bounds_[v] = {offset[v], static_cast<std::uint32_t>(summary_.size())};
    const std::uint32_t size = offset[v + 1] - offset[v];
    if (size <= kBlock) continue;
    for (std::uint32_t i = 0; i < size; i += kBlock) summary_.push_back(by_neighbor_[offset[v] + i].neighbor.value());
  }
  bounds_[n] = {offset[n], static_cast<std::uint32_t>(summary_.size())};
}

[[gnu::always_inline]] inline CableIndex::Search CableIndex::block_of(VertexId a, VertexId b) const {
  const Bounds* const ia = bounds_.data() + a.value();
  const Bounds* const ib = bounds_.data() + b.value();
  const bool a_smaller = ia[1].first - ia[0].first <= ib[1].first - ib[0].first;
  const Bounds* const is = a_smaller ? ia : ib;
  Search s;
  s.other = a_smaller ? b : a;
  s.first = by_neighbor_.data() + is[0].first;
  s.last = by_neighbor_.data() + is[1].first;
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
