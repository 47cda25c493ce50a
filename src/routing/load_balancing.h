// Load-balancing schemes over the same forwarding state, for comparing them on the same flows.
//
//   hash        per-flow ECMP: every packet of a flow takes the path its hashes pick
//               (path_walker.h). One sub-flow per flow.
//   spray       per-packet spraying: every switch spreads a flow's packets evenly over all
//               members of its group, so each member of a k-way group gets 1/k of what arrived
//               (the fluid limit of round-robin or random packet spraying; reordering ignored).
//   flowlet     flowlet switching: a flow's bursts separated by an idle gap of at least the
//               threshold are flowlets (Kandula et al., "Dynamic load balancing without packet
//               reordering", CCR 2007); each flowlet after the first takes a uniformly random member
//               at every multi-member group (LetFlow, Vanini et al., NSDI 2017), the first takes the
//               hashed path. E = the largest flowlet count of the set; in epoch e flow i is in its
//               flowlet floor(e F_i / E): flows move in lockstep (a model simplification).
//   adaptive    adaptive routing: flows are placed in order; at every multi-member group the flow
//               takes the member whose link carries the fewest flows so far (ties: the hashed member
//               when it is among them, else the lowest member), as a switch choosing the least-loaded
//               egress port at decision time would. Decisions are per flow, not per packet.
//   more-qps    each connection uses Q queue pairs: Q sub-flows with 1/Q of the bytes each, the first
//               on the flow's own source port, the others on fresh RoCE source ports, each hashed.
//   plane-split each flow is split evenly over the P planes: sub-flow p runs between the same host
//               and rail's ports of plane p, on the same source port, hashed in that plane.
// Random draws (fresh QP ports, flowlet members) come from Rng(seed, trial, stream) with a stream
// per (scheme, flow, sub-flow), so results do not depend on thread count or order of calls.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "routing/flow_key.h"
#include "routing/flow_routes.h"
#include "routing/path_walker.h"

namespace ct {

enum class Scheme : std::uint8_t { kHash, kSpray, kFlowlet, kAdaptive, kMoreQps, kPlaneSplit };
inline constexpr Scheme kAllSchemes[] = {Scheme::kHash,     Scheme::kSpray,   Scheme::kFlowlet,
                                         Scheme::kAdaptive, Scheme::kMoreQps, Scheme::kPlaneSplit};

std::string_view scheme_name(Scheme s);
std::optional<Scheme> parse_scheme(std::string_view name);

// What the router needs of a flow.
struct RouteRequest {
  VertexId src;
  VertexId dst;
  FlowKey key;
  std::uint32_t flowlets = 1;  // flowlet scheme: number of flowlets (>= 1)
};

struct SchemeOptions {
  std::uint32_t qps = 4;  // more-qps: queue pairs per connection
  std::uint64_t seed = 0;
  std::uint64_t trial = 0;
  // Fill FlowRoutes::entered_groups (the hash study's); a simulation that only needs the paths
  // leaves it empty (it was a sort of every decision of millions of flows).
  bool entered_groups = true;
};

// Routes every request under `scheme`. A flow whose destination cannot be reached keeps the hops
// up to where it stops and has reached[i] = 0.
FlowRoutes route_flows(Scheme scheme, const PathWalker& walker, std::span<const RouteRequest> requests,
                       const SchemeOptions& options);

// Per-packet spraying, packet by packet (the packet engine; docs/models/packet-engine.md,
// "Spraying"): packet n of a flow takes, at the multi-member groups it meets in turn, member
// n mod k1 at the first (k1 its size), (n / k1) mod k2 at the next, and so on. Where the groups one
// tier down are the same size on every way (a fat tree), this is every switch taking its group's
// members round robin for the flow's packets that came in on one port, in the order they came
// (the j-th packet through a member link is packet m + j k1): each member gets 1/k of what
// reached its group through each port, exactly up to the remainder. `links`: the directed links
// of packet n's path; false when it does not reach dst.
bool sprayed_path(const PathWalker& walker, VertexId src, VertexId dst, std::uint64_t packet,
                  std::vector<std::uint32_t>& links);
// The packets after which sprayed_path() repeats: the lcm over the ways src -> dst of the product
// of the group sizes met (at most 2^20). 1 when nothing is reached.
std::uint64_t spray_period(const PathWalker& walker, VertexId src, VertexId dst);

}  // namespace ct
