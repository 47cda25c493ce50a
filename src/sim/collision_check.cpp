#include "sim/collision_check.h"

#include <algorithm>

namespace ct {

void mark_collisions(const Topology& topology, SimulationResult& result) {
  const std::size_t constraints = result.resources.size();
  std::vector<std::uint32_t> count;
  std::vector<std::uint8_t> collided;
  std::vector<std::uint32_t> touched;
  // Per constraint: not a cable, a NIC cable (its a end a host port) or a fabric cable; filled, with
  // the counters, when the first collective with a bound needs them.
  enum : std::uint8_t { kNotLink, kNic, kFabric };
  std::vector<std::uint8_t> kind_of;
  auto classify = [&] {
    count.assign(constraints, 0);
    collided.assign(constraints, 0);
    kind_of.assign(constraints, kNotLink);
    for (std::size_t c = 0; c < constraints; ++c) {
      const ResourceInfo& info = result.resources[c];
      if (info.kind != ResourceKind::kLinkUp && info.kind != ResourceKind::kLinkDown) continue;
      kind_of[c] = topology.tier[topology.link_a[info.link.value()].value()] == 0 ? kNic : kFabric;
    }
  };
  for (OperationResult& op : result.operations) {
    if (op.kind != OperationKind::kCollective || op.bound.value() <= 0) continue;
    if (kind_of.empty()) classify();
    TimePs slowest{0};
    for (const IterationSpan& span : op.iterations) {
      if (span.end.value() >= 0 && span.start.value() >= 0) slowest = std::max(slowest, span.end - span.start);
    }
    std::uint32_t links = 0;
    // One step of iteration 0 at a time: records [begin, end) share a step, found by binary search
    // (records are in (iteration, step) order), and their paths are one range of path_pool.
    std::uint32_t begin = op.flows_begin;
    while (begin < op.flows_end && result.flows[begin].iteration == 0) {
      const std::uint32_t step = result.flows[begin].step;
      const auto first = result.flows.begin();
      const auto end = static_cast<std::uint32_t>(
          std::partition_point(first + begin, first + op.flows_end,
                               [&](const FlowRecord& f) { return f.iteration == 0 && f.step == step; }) -
          first);
      const FlowRecord& last = result.flows[end - 1];
      for (std::uint32_t h = result.flows[begin].path_begin; h < last.path_begin + last.path_size; ++h) {
        const std::uint32_t c = result.path_pool[h];
        if (kind_of[c] == kNotLink) continue;
        if (count[c]++ == 0) touched.push_back(c);
      }
      std::uint32_t busiest_nic = 0;
      for (const std::uint32_t c : touched) {
        if (kind_of[c] == kNic) busiest_nic = std::max(busiest_nic, count[c]);
      }
      for (const std::uint32_t c : touched) {
        if (kind_of[c] == kFabric && count[c] > busiest_nic && collided[c] == 0) {
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
