// The cables joining two vertices, found without hashing or allocation: each vertex's neighbours
// kept sorted by (neighbour, link), so the cables between a and b are one contiguous run in link-id
// order, and "A -- B #k" (the k-th of parallel cables, as routes are printed) is the k-th of it.
//
// A search reads the list of the end with fewer neighbours: its bounds, a summary of every 16th
// entry (short, so it stays in cache), and then one block of 16 (a branch-free lower bound), since
// the lookups of a route walk are unpredictable and a long list probed directly does not stay in
// cache. Built once from a finalized topology (its adjacency, searched in place when each list is
// in neighbour order already, as built fabrics' are); the topology must outlive the index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "topology/topology.h"

namespace ct {

class CableIndex {
 public:
  // PRECONDITION: topology.finalize() was called.
  explicit CableIndex(const Topology& topology);

  // The cables joining a and b, in link-id order (empty when none).
  [[nodiscard]] std::span<const Adjacency> cables(VertexId a, VertexId b) const;
  // cables(a, b)[k], or LinkId::invalid() when fewer join them (no scan of the others).
  [[nodiscard]] LinkId cable(VertexId a, VertexId b, std::size_t k) const;

 private:
  // The list of the end with fewer neighbours (first .. last), narrowed to the n entries from
  // `first` that hold the lower bound of the other end. block_of reads only the list's bounds and
  // summary; lower_bound reads the block.
  struct Search {
    const Adjacency* first = nullptr;
    const Adjacency* last = nullptr;
    std::size_t n = 0;
    VertexId other;
  };
  [[nodiscard]] Search block_of(VertexId a, VertexId b) const;
  [[nodiscard]] static const Adjacency* lower_bound(const Search& s);

  static constexpr std::uint32_t kBlock = 16;
  struct Bounds {
    std::uint32_t first = 0;    // into base_
    std::uint32_t summary = 0;  // into summary_
  };
  // Vertex v's neighbours, sorted by (neighbour, link), are base_[bounds_[v].first ..
  // bounds_[v + 1].first): the topology's adjacency where every list is in that order, else own_;
  // for a list longer than kBlock, the neighbour of every block's first entry is in summary_ from
  // bounds_[v].summary.
  std::vector<Bounds> bounds_;
  const Adjacency* base_ = nullptr;
  std::vector<Adjacency> own_;
  std::vector<std::uint32_t> summary_;
};

}  // namespace ct
