// One hop of a route pinned by the user rather than chosen by the fabric's ECMP: a direction of a
// cable, or a GPU's NVLink egress or ingress. The flow table's `path` column is read into these
// (fabric/route_pins.h) and the flow engine follows them instead of walking the forwarding state.
#pragma once

#include <cstdint>

namespace ct {

enum class RouteHopKind : std::uint8_t { kLinkUp, kLinkDown, kNvlinkOut, kNvlinkIn };

// One hop of a pinned route: a direction of a cable (index = LinkId; up = from link_a to link_b)
// or a GPU's NVLink egress or ingress (index = global GPU id).
struct RouteHop {
  RouteHopKind kind = RouteHopKind::kLinkUp;
  std::uint32_t index = 0;
  friend bool operator==(const RouteHop&, const RouteHop&) = default;
};

}  // namespace ct
