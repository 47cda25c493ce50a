#include "routing/path_walker.h"

#include <algorithm>
#include <cassert>

namespace ct {

PathWalker::PathWalker(const ForwardingState& forwarding, const SwitchHashes& hashes)
    : forwarding_(forwarding),
      hashes_(hashes),
      selection_{hashes.config().effective_selection(), hashes.bits(), (std::uint64_t{1} << hashes.bits()) - 1} {
  const Topology& t = forwarding.topology();
  std::uint32_t top = 1;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) top = std::max<std::uint32_t>(top, t.tier[v]);
  max_hops_ = 2 * top;
  assert(1 + max_hops_ < kMaxPathHops);
}

bool PathWalker::walk(VertexId src, VertexId dst, const FlowKey& key, std::vector<PathHop>& out) const {
  const ForwardingState& f = forwarding_;
  const ForwardingState::PortEntry& from = f.port(src);
  const ForwardingState::PortEntry& to = f.port(dst);
  out.clear();
  if (from.plane != to.plane || src == dst || from.nic_failed != 0) return false;
  // A backend port's NIC link has the port's id (builder.h).
  VertexId at = from.attached;
  out.push_back(PathHop{LinkId(src.value()), src, kNoGroup, 0, true});
  const std::uint32_t destination = to.destination;
  // Arrival (path_walker.h): at the destination's leaf the group is the local one.
  const VertexId dst_leaf = destination != ForwardingState::kNoDestination ? to.attached : VertexId::invalid();
  const std::uint32_t base = hashes_.base(key);
  for (std::uint32_t hop = 0; hop < max_hops_; ++hop) {
    const std::uint32_t g = at == dst_leaf ? ForwardingState::kLocalGroup : f.group(at, destination);
    if (g == ForwardingState::kLocalGroup) {
      if (to.nic_failed != 0) return false;
      out.push_back(PathHop{LinkId(dst.value()), at, kNoGroup, 0, false});
      return true;
    }
    if (g == ForwardingState::kNoRouteGroup) return false;
    const GroupSpan span = f.span(g);
    if (span.size == 1) {
      out.push_back(PathHop{span.first_link, at, g, 0, span.kind == GroupKind::kUp});
      at = span.first_next;
      continue;
    }
    const std::uint32_t m = select(span.size, hashes_.from_base(at, base, key));
    out.push_back(PathHop{f.member_link(span.offset + m), at, g, m, span.kind == GroupKind::kUp});
    at = f.member_next(span.offset + m);
  }
  return false;
}

}  // namespace ct
