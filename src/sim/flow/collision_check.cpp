#include "sim/flow/collision_check.h"

#include <algorithm>

namespace ct {

void mark_collisions(const Topology& topology, SimulationResult& result) {
  const std::size_t constraints = result.constraints.size();
  std::vector<std::uint32_t> count(constraints, 0);
  std::vector<std::uint8_t> collided(constraints, 0);
  std::vector<std::uint32_t> touched;
  auto is_link = [&](std::uint32_t c) {
    const ConstraintKind k = result.constraints[c].kind;
    return k == ConstraintKind::kLinkUp || k == ConstraintKind::kLinkDown;
  };
  auto is_nic = [&](std::uint32_t c) { return topology.tier[topology.link_a[result.constraints[c].link.value()].value()] == 0; };
  for (OperationResult& op : result.operations) {
    if (op.kind != OperationKind::kCollective || op.bound.value() <= 0) continue;
    TimePs slowest{0};
    for (const IterationSpan& span : op.iterations) {
      if (span.end.value() >= 0 && span.start.value() >= 0) slowest = std::max(slowest, span.end - span.start);
    }
    std::uint32_t links = 0;
    // One step of iteration 0 at a time: [begin, end) share a step (records are in step order).
    std::uint32_t begin = op.flows_begin;
    while (begin < op.flows_end && result.flows[begin].iteration == 0) {
      std::uint32_t end = begin;
      while (end < op.flows_end && result.flows[end].iteration == 0 && result.flows[end].step == result.flows[begin].step) {
        const FlowRecord& f = result.flows[end];
        for (std::uint32_t h = 0; h < f.path_size; ++h) {
          const std::uint32_t c = result.path_pool[f.path_begin + h];
          if (!is_link(c)) continue;
          if (count[c]++ == 0) touched.push_back(c);
        }
        ++end;
      }
      std::uint32_t busiest_nic = 0;
      for (const std::uint32_t c : touched) {
        if (is_nic(c)) busiest_nic = std::max(busiest_nic, count[c]);
      }
      for (const std::uint32_t c : touched) {
        if (!is_nic(c) && count[c] > busiest_nic && collided[c] == 0) {
          collided[c] = 1;
          ++links;
        }
        count[c] = 0;
      }
      touched.clear();
      begin = end;
    }
    std::fill(collided.begin(), collided.end(), 0);
    op.collided_links = links;
    op.collision_dominated =
        links > 0 && static_cast<double>(slowest.value()) > kCollisionFactor * static_cast<double>(op.bound.value());
  }
}

}  // namespace ct
