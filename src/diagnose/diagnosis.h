// Diagnosing a running fabric from its counters, against the model.
//
// Rates. Every mapped counter (port_map.h) becomes the rate of one direction of one link: a
// transmit counter at the end that owns the interface gives the direction leaving that end, a
// receive counter the direction arriving there (used only where no transmit counter covers it).
// Switch counters describe switch links; a NIC port's netdev and RDMA counters are kept apart,
// because RoCE traffic is sent by the NIC without the kernel and never reaches the netdev
// counters (/proc/net/dev) that node_exporter reads.
//
// Groups. For every backend switch, every ECMP group of >= 2 members (routing/forwarding_state.h)
// whose members have counters: per member the rate leaving the switch; max, mean, Jain's fairness
//   J = (sum x_i)^2 / (n sum x_i^2)   (1: even; 1/n: one member carries everything; Jain, Chiu and
//                                      Hawe, DEC-TR-301, 1984)
// and idle members (below idle_fraction x the group's busiest member). A group is imbalanced when
// its busiest member is above the noise floor and some member is idle.
//
// The four witnesses of an imbalanced group:
//   1 switch port counters   the group's member rates (above);
//   2 host NIC counters      what the hosts below the switch sent (netdev and RDMA), and whether
//                            the two agree (RoCE makes netdev blind);
//   3 path oracle            the model's walk of every known flow (fabric.walker(): the spec's
//                            routing block) gives the member each should take; agrees when the
//                            members it loads are exactly the busy ones;
//   4 throughput             the known flows' achieved rates: flows that share a member get less
//                            than those alone, or the shared member is saturated.
// Each is "agrees", "disagrees" or "missing" (no such input).
//
// Cause, first that holds:
//   failed member      the oracle loads a member the counters show idle (its flows went elsewhere),
//                      or, without flows, a member idle in both directions while the others carry
//                      traffic both ways;
//   degraded member    a member that is busy (so up, its peer answering) and that the oracle loads
//                      with k >= 1 flows, but whose rate per flow, x / k, is below degraded_fraction
//                      of the median rate per flow of the group's other loaded members: a link
//                      negotiated at a lower speed, or losing packets to errors. A degraded member
//                      makes a group imbalanced even with no idle member. Only where the oracle's
//                      placement matches the busy members (else the group is "unexplained", naming
//                      the members that carry traffic of no known flow), and judged over all groups
//                      at once, slowest first: a slow member whose flows cross a member already
//                      found degraded, and whose rate that member explains (each such flow expected
//                      at the degraded member's rate per flow), is not degraded itself: the healthy
//                      member downstream of a rate-limited one;
//   polarization       the switch hashes like a lower-tier switch that feeds it (same function,
//                      fields and seed: SwitchHashes::identical) so, having come through a given
//                      member there, a flow can reach only the members of this group whose hash
//                      interval overlaps that member's (hash-threshold: the same interval; modulo:
//                      the same residue when the sizes are equal), and the busy members are among
//                      those reachable;
//   missing entropy    two or more known flows through the group hash the same key under the
//                      fields the switches use (e.g. L3-only hashing, one source port per QP);
//   bad luck           k independent flows on n members collided (the oracle, matching the busy
//                      members, puts two or more on one member); P(any collision) =
//                      1 - n!/((n-k)! n^k) (analysis/birthday.h), reported with the observed pattern;
//   fewer flows than   the oracle matches the busy members and no two flows share one: the idle
//   members            members are those no flow needs (2 flows on 3 members leave one idle), which
//                      is no collision and nothing broken;
//   unexplained        none of these: without flows, or with the oracle's placement not matching
//                      the busy members (traffic of no known flow), with what is missing.
// Failures first: the known flows are walked on the built fabric; on each flow's path the first
// member the walk loads but the counters show idle is failed; the kernel has rerouted the flows
// that used it, so the flows are walked again on the fabric without the failed members
// (ForwardingState's failed links) and every group judged again against that walk, until no new
// failure appears (at most 4 rounds). A group holding a failed member keeps the verdict that found
// it; every other verdict, rate per flow included, uses the flows where they really went.
// A verdict agrees with its witnesses or says which it overrules and why (in its explanation).
// Why dashboards stayed green: the group's mean utilization (what a per-group or per-host panel
// averages) under the alarm threshold while a member is at or near line rate; hosts' average
// utilization under it; netdev counters blind to RDMA; no alarm on a link at zero.
// The alert that would have fired: the alert rules of the groups the port map names (alert_rules.h,
// with the idle, noise and degraded thresholds above), evaluated at every sample time.
// Fix and predicted effect, from the model: polarization -> per-switch seeds (the known flows
// re-walked with seed_mode per-switch); missing entropy -> hash the ports / more QPs; bad luck ->
// more QPs or spraying (expected max member load of k q subflows); failure -> repair the member.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "diagnose/alert_rules.h"
#include "diagnose/counter_rates.h"
#include "diagnose/flow_results.h"
#include "diagnose/port_map.h"
#include "fabric/fabric.h"

namespace ct {

struct Counters {
  CounterRates rates;
  PortMap map;
  std::vector<FlowResult> flows;
};

struct DiagnoseOptions {
  double idle_fraction = 0.05;       // idle: below this share of the group's busiest member
  double noise_floor_bps = 1e6;      // a group whose busiest member is below this is not judged
  double alarm_threshold = 0.8;      // the dashboards' utilization alarm
  double degraded_fraction = 0.6;    // degraded: below this share of the others' median rate per flow
  int qps_for_fix = 4;               // QPs per connection proposed by the "more QPs" fix
  AlertOptions alerts;               // the generated rules evaluated on the counters (alert_rules.h)
};

struct DirectedRate {
  LinkId link;
  bool up = true;
  double bits_per_second = 0;
  double utilization = 0;
  CounterKind source = CounterKind::kSwitch;
};

struct HostPortRate {
  VertexId port;
  double netdev_bps = -1;  // -1: no counter
  double rdma_bps = -1;
};

struct MemberStats {
  LinkId link;
  bool up = true;
  bool counted = false;  // has a counter
  double bits_per_second = 0;
  double reverse_bps = 0;  // the other direction, when counted
  double utilization = 0;
  bool idle = false;
  bool degraded = false;
  double per_flow_bps = 0;   // bits_per_second / predicted_flows, when the model loads it
  int predicted_flows = -1;  // -1: no flows known
  bool reachable = true;     // under polarization
};

enum class Cause : std::uint8_t {
  kNone,
  kFailedMember,
  kDegradedMember,
  kPolarization,
  kMissingEntropy,
  kBadLuck,
  kFewFlows,
  kUnexplained
};
enum class WitnessState : std::uint8_t { kAgrees, kDisagrees, kMissing };

struct Witness {
  std::string name;
  WitnessState state = WitnessState::kMissing;
  std::string evidence;
};

struct GroupDiagnosis {
  VertexId sw;
  std::uint32_t group = 0;
  bool up = true;
  std::vector<MemberStats> members;
  double max_bps = 0;
  double mean_bps = 0;
  double jain = 1;
  std::uint32_t idle = 0;
  std::uint32_t degraded = 0;
  double degraded_reference_bps = 0;  // the other loaded members' median rate per flow
  bool imbalanced = false;
  std::uint32_t flows = 0;  // known flows through the group
  Cause cause = Cause::kNone;
  std::string explanation;
  double probability = -1;  // bad luck: P(any collision); -1 n/a
  std::vector<Witness> witnesses;
  std::vector<std::string> green;  // why the dashboards stayed green
  std::string fix;
  std::string predicted;
};

struct Diagnosis {
  std::vector<DirectedRate> links;  // by directed link
  std::vector<HostPortRate> hosts;  // by port
  std::vector<GroupDiagnosis> groups;  // every judged group, switch then group order
  std::vector<std::string> unmapped;   // series not in the map: "instance device"
  std::size_t flows = 0;
  std::size_t scrapes = 0;
  // The alert that would have fired: the rules `clustertwin alerts` writes for the groups the port
  // map names, evaluated on the counters' samples (alert_rules.h), and the first sample's time.
  AlertPlan alert_plan;
  std::vector<AlertFiring> alerts;
  // False when no series has two samples (diagnose --prometheus without --prometheus-raw: one rate
  // per series over the window, computed by the server), so no rule could be evaluated.
  bool alerts_evaluated = false;
  std::int64_t first_sample_ms = 0;
  Diagnostics warnings;
  [[nodiscard]] std::size_t imbalanced() const;
};

std::string_view cause_name(Cause c);
std::string_view witness_state_name(WitnessState s);

Result<Diagnosis> diagnose(const Fabric& fabric, const Counters& counters, const DiagnoseOptions& options);

}  // namespace ct
