// Maximum flow by Dinic's algorithm (E. A. Dinic, "Algorithm for solution of a problem of maximum
// flow in networks with power estimation", Soviet Math. Doklady 11, 1970; S. Even and R. E. Tarjan,
// SIAM J. Comput. 4(4), 1975). Each phase builds the level graph of the residual network by
// breadth-first search from the source, then saturates it with a blocking flow found by
// depth-first search with a current-arc pointer per vertex, so a dead end is never entered twice
// in a phase. The flow value equals the capacity of a minimum source-sink cut (max-flow/min-cut
// theorem, Ford and Fulkerson 1956). O(V^2 E) in general; on unit-capacity networks
// O(E min(V^(2/3), E^(1/2))), which is the case of a fabric whose links all run at one speed.
#pragma once

#include <cstdint>
#include <vector>

namespace ct {

class MaxFlow {
 public:
  explicit MaxFlow(std::uint32_t vertices);

  // Adds the arc u->v with capacity `forward` and v->u with capacity `backward` as one residual
  // pair: a full-duplex link is add_edge(u, v, c, c).
  void add_edge(std::uint32_t u, std::uint32_t v, std::int64_t forward, std::int64_t backward);

  // The maximum flow from source to sink. PRECONDITION: source != sink; called once.
  std::int64_t solve(std::uint32_t source, std::uint32_t sink);

 private:
  bool build_levels(std::uint32_t source, std::uint32_t sink);
  std::int64_t blocking_flow(std::uint32_t source, std::uint32_t sink);
  void build_csr();

  std::uint32_t vertices_;
  std::vector<std::uint32_t> from_;  // arc e and e^1 are a residual pair
  std::vector<std::uint32_t> to_;
  std::vector<std::int64_t> residual_;
  std::vector<std::uint32_t> offset_;  // CSR of arc ids by tail
  std::vector<std::uint32_t> arcs_;
  std::vector<std::uint32_t> current_;
  std::vector<std::int32_t> level_;
};

}  // namespace ct
