// One draw of per-flow ECMP on a flow set: each flow's path hop by hop, the loads, the collisions
// and why each happened.
//
// A collision is a directed link that two or more flows chose at the same switch from a group of
// n >= 2 members. Its cause, in this order:
//   missing entropy  two of the flows present identical hash inputs at that switch: the fields
//                    that tell them apart are not hashed (or they are the same 5-tuple), so they
//                    take the same member at every switch whatever the seed; or the hash does not
//                    read the source port, the one field that varies from connection to
//                    connection (RoCE's entropy): the placement is then a fixed function of the
//                    endpoints' addresses, and the collision recurs for every source port, in
//                    every trial.
//   polarization     at least two of the flows arrived after an earlier hashed decision that
//                    fully determines this one (analysis/decision_coupling.h): given how they came,
//                    the switch could not spread them. Typically the same function and seed on
//                    consecutive tiers.
//   bad luck         otherwise: independent hashes put them on one member, which happens to k
//                    flows on n members with probability 1 - n!/((n-k)! n^k).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "analysis/decision_coupling.h"
#include "analysis/link_loads.h"
#include "routing/flow_routes.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"

namespace ct {

enum class CollisionCause : std::uint8_t { kBadLuck, kPolarization, kMissingEntropy };
inline constexpr int kCollisionCauses = 3;
std::string_view collision_cause_name(CollisionCause c);

struct FlowPath {
  std::vector<PathHop> hops;
  bool reached = false;
};

struct Collision {
  std::uint32_t directed_link = 0;
  VertexId at;                        // the deciding switch
  std::uint32_t group = 0;            // the group the first of the flows chose it from
  std::vector<std::uint32_t> flows;   // ascending
  std::uint32_t flows_in_group = 0;   // flows that entered that group
  CollisionCause cause = CollisionCause::kBadLuck;
  // missing entropy: the first pair with identical hash inputs (else the first two flows);
  // polarization: two forced flows.
  std::uint32_t witness_a = 0;
  std::uint32_t witness_b = 0;
  bool identical_inputs = false;  // missing entropy: the witnesses' hashed fields are equal
};

// Why a flow has no path: where its walk stopped and what is missing there.
enum class NoPathReason : std::uint8_t {
  kSourceNicDown,       // the source port's NIC link is failed
  kDestinationNicDown,  // the destination port's NIC link is failed
  kOtherPlane,          // source and destination are on different planes
  kAllUplinksDown,      // every up link of `culprit` is failed: the switch it stopped at, or the
                        // destination's leaf, which then cannot be reached from above
  kNoRoute,             // the switch it stopped at has no route toward the destination leaf
};

struct NoPath {
  std::uint32_t flow = 0;
  VertexId stopped_at;  // the vertex the walk ended at (the source port when it never left)
  NoPathReason reason = NoPathReason::kNoRoute;
  VertexId culprit;     // kAllUplinksDown: the switch cut off; else stopped_at
};

struct HashScenario {
  std::vector<FlowPath> paths;
  FlowRoutes routes;
  LoadSummary loads;
  std::vector<Collision> collisions;  // by directed link
  std::vector<NoPath> unreachable;    // by flow
  std::vector<std::uint32_t> stage_links_used;  // per DecisionCoupling stage: links chosen here
};

// The hash scheme's routes of walked paths (one sub-flow per flow, fraction 1 per hop).
FlowRoutes routes_of_paths(const std::vector<FlowPath>& paths, const ForwardingState& forwarding);
// The same into `out`, reusing its storage (no allocation once it has held as many flows and hops).
void routes_of_paths(const std::vector<FlowPath>& paths, const ForwardingState& forwarding, FlowRoutes& out);

// Walks every request, sums the loads and explains the collisions.
HashScenario analyze_hash_scenario(const PathWalker& walker, std::span<const RouteRequest> requests,
                                   const DecisionCoupling& coupling);

// Why flow i of walked paths did not arrive. PRECONDITION: !paths[i].reached.
NoPath explain_no_path(const ForwardingState& forwarding, const RouteRequest& request, const FlowPath& path,
                       std::uint32_t flow);

// Collisions of walked paths with their causes (the part of analyze_hash_scenario that Monte Carlo
// trials repeat).
std::vector<Collision> find_collisions(const PathWalker& walker, std::span<const RouteRequest> requests,
                                       const std::vector<FlowPath>& paths, const DecisionCoupling& coupling);

// Scratch space of find_collisions, kept between calls on one fabric (a Monte Carlo thread keeps
// one): per directed link and per group a slot that each call resets, so a call costs O(hops); the
// flow lists of the collisions left in `out` by the previous call are reused, so a call into the
// same `out` allocates nothing once warm.
class CollisionWorkspace {
 public:
  struct Choice {
    std::uint32_t flow;
    std::uint32_t hop;  // index in the flow's path
  };

 private:
  friend void find_collisions(const PathWalker&, std::span<const RouteRequest>, const std::vector<FlowPath>&,
                              const DecisionCoupling&, CollisionWorkspace&, std::vector<Collision>&);
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> link_slot_;      // per directed link: its slot, kNone when unused
  std::vector<std::uint32_t> group_flows_;    // per group: flows that entered it
  std::vector<std::uint32_t> group_last_;     // per group: 1 + the last flow counted in group_flows_
  std::vector<std::uint32_t> slot_link_;      // per slot (directed link chosen): the link
  std::vector<std::uint32_t> slot_begin_;     // per slot: where its choices start in choices_
  std::vector<Choice> decisions_;             // hashed decisions in (flow, hop) order
  std::vector<std::uint32_t> decision_slot_;  // parallel to decisions_
  std::vector<Choice> choices_;               // decisions_ grouped by slot, each in (flow, hop) order
  std::vector<std::uint32_t> entered_;        // groups entered, to reset
  std::vector<std::uint32_t> colliding_;      // directed links chosen twice or more, then sorted
  std::vector<std::uint32_t> forced_;         // a collision's flows forced by an earlier decision
  std::vector<std::vector<std::uint32_t>> spare_flows_;  // flow lists of `out`'s previous collisions, empty
};

// The same into `out` (cleared first), with scratch space from `workspace`.
void find_collisions(const PathWalker& walker, std::span<const RouteRequest> requests, const std::vector<FlowPath>& paths,
                     const DecisionCoupling& coupling, CollisionWorkspace& workspace, std::vector<Collision>& out);

}  // namespace ct
