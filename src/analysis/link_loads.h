// Loads of a routed flow set (routing/flow_routes.h), per directed link and per ECMP group, and
// the throughput of every flow (analysis/flow_rates.h).
//
// "Links in play" are the members of the multi-member groups that traffic entered, each counted
// once in the direction of its group (up groups: upward; down groups: downward): the links a
// scheme could have used for this traffic. Their busiest load and how many of them stayed idle are
// what a dashboard of those links would show. "Uplinks" are the members of the up groups among
// them; "first-tier uplinks" those of up groups owned by leaves (the source leaves' choice).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/flow_rates.h"
#include "routing/flow_routes.h"
#include "routing/forwarding_state.h"

namespace ct {

struct GroupLoad {
  std::uint32_t group = 0;
  std::uint32_t members = 0;
  double max_load = 0.0;   // flows on its busiest member
  double mean_load = 0.0;  // flows per member
  std::uint32_t idle = 0;  // members without traffic
};

struct LinkSet {
  std::uint32_t links = 0;
  std::uint32_t idle = 0;
  double busiest = 0.0;
};

struct LoadSummary {
  std::vector<double> load;        // per directed link, in flows
  std::vector<GroupLoad> groups;   // entered groups, by id
  LinkSet in_play;
  LinkSet uplinks;
  LinkSet first_tier_uplinks;
  std::vector<double> throughput;  // per flow, bits per second
  double slowest = 0.0;            // lowest throughput among flows (0 when one is unreachable)
  double mean_throughput = 0.0;
  std::uint32_t unreached = 0;
};

LoadSummary summarize_loads(const FlowRoutes& routes, const ForwardingState& forwarding);
// The same with a caller's rate solver (reused over many calls on one topology).
// PRECONDITION: `rates` was made for forwarding.topology().
LoadSummary summarize_loads(const FlowRoutes& routes, const ForwardingState& forwarding, FlowRateSolver& rates);

}  // namespace ct
