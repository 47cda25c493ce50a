// Prometheus alerting rules for the fabric's ECMP uplink groups, and the same rules evaluated on
// saved counters: one definition of each rule's condition (RuleCondition) that is both rendered
// as PromQL (promql()) and evaluated in C++ (condition_holds()), so the rules `alerts` writes and
// the "alert that would have fired" of `diagnose` cannot drift apart.
//
// Groups: every backend switch's up groups of >= 2 members (routing/forwarding_state.h), the
// uplink groups diagnose judges. A member is the interface at the switch end of its cable, named
// as the port map names it (instance, device: diagnose/port_map.h).
//
// Per member, from its interface's byte counters (the only counters every exporter has):
//   x_i  bits/s transmitted (leaving the switch), r_i bits/s received, over the rate window W.
// Per group, over the members that have the series: X = max x_i, R = max r_i, S = sum x_i,
// med = median x_i (Prometheus' quantile(0.5): the mean of the two middle values for an even
// count), J = S^2 / (n sum x_i^2) (Jain's fairness; Jain, Chiu and Hawe, DEC-TR-301, 1984).
// Rules, each gated by X >= noise_floor (the group carries traffic):
//   MemberDown       x_i < f X, r_i < f X, R >= f X  idle both ways while another member carries
//                                                  traffic back: the link is down (its peer sends
//                                                  nothing either; diagnose's failed member without
//                                                  flows);
//   MemberIdle       x_i < f X, unless MemberDown   idle out, yet its peer still sends to it;
//   MemberHot        x_i > s* S                     share above s* (below);
//   GroupUnfair      J < J*                         (below);
//   MemberDegraded   f X <= x_i < d med             busy but slow against its twins.
// f = idle_fraction and d = degraded_fraction, diagnose's own (diagnosis.h). Interface counters
// carry no flow count, so the per-flow rate of diagnose's degraded member cannot be written in
// PromQL: MemberDegraded compares member rates, which is the per-flow comparison when every member
// carries the same number of flows.
// s* and J* from balls into bins (analysis/birthday.h): k = flows_per_member x n flows hashed
// uniformly onto n members; m* = the least m with P(max load > m) <= tail; s* = m*/k, the busiest
// member's share that bad luck exceeds with probability at most `tail`; J* = the fairness of that
// pattern (one member at m*, the others even): k^2 / (n (m*^2 + (k - m*)^2 / (n - 1))).
//
// Evaluation (evaluate_alerts): at each sample time t of a group's member series, each rate over
// the samples in [t - W, t] (the last two before t when the window holds fewer: saved scrapes are
// sparser than Prometheus' own), no extrapolation to the window's edges (Prometheus' rate()
// extrapolates; a ratio test is unchanged by it, the noise floor is not). A condition true at t
// makes the alert pending from t; it fires at the first evaluation at least `for` later with the
// condition true at every evaluation between, as Prometheus' rule manager does.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "diagnose/counter_rates.h"
#include "diagnose/port_map.h"
#include "fabric/fabric.h"

namespace ct {

// The metric and label names of an exporter's interface byte counters.
enum class AlertSource : std::uint8_t { kNodeExporter, kSnmp, kGnmic };
inline constexpr AlertSource kAllAlertSources[] = {AlertSource::kNodeExporter, AlertSource::kSnmp, AlertSource::kGnmic};

struct SourceConvention {
  std::string_view name;
  std::string_view transmit_metric;
  std::string_view receive_metric;
  std::string_view instance_label;
  std::string_view interface_label;
};

const SourceConvention& source_convention(AlertSource source);
std::optional<AlertSource> parse_alert_source(std::string_view name);
// "node_exporter", "snmp", "gnmic": the names parse_alert_source takes.
std::vector<std::string> alert_source_names();

// A Prometheus duration in whole seconds: "90s", "10m", "1h" (written in the largest whole unit);
// parsing takes one number and one unit of s, m, h or d, and nothing else.
std::string prometheus_duration(std::int64_t seconds);
std::optional<std::int64_t> parse_prometheus_duration(std::string_view text);

struct AlertOptions {
  AlertSource source = AlertSource::kNodeExporter;
  std::int64_t for_s = 600;     // the rules' `for:`
  std::int64_t window_s = 300;  // rate()'s range
  double idle_fraction = 0.05;
  double noise_floor_bps = 1e6;
  double degraded_fraction = 0.6;
  std::uint32_t flows_per_member = 4;  // k / n for s* and J*
  double tail = 0.01;                  // P(bad luck beyond s*)
  std::string spec_path = "SPEC";      // for the runbook command
  std::string map_path;                // "" when the members are named as `lab` names them
};

enum class AlertRule : std::uint8_t { kMemberDown, kMemberIdle, kMemberDegraded, kMemberHot, kGroupUnfair };
inline constexpr std::array kAlertRules = {AlertRule::kMemberDown, AlertRule::kMemberIdle, AlertRule::kMemberDegraded,
                                           AlertRule::kMemberHot, AlertRule::kGroupUnfair};
std::string_view alert_name(AlertRule rule);

// The quantities of the header, per member (x_i, r_i) or per group.
enum class AlertQuantity : std::uint8_t {
  kMemberTransmit,
  kMemberReceive,
  kGroupTransmitMax,
  kGroupReceiveMax,
  kGroupTransmitSum,
  kGroupTransmitMedian,
  kGroupJain,
  kConstant
};
enum class Compare : std::uint8_t { kLess, kGreater, kAtLeast };

// lhs OP factor x rhs (rhs kConstant: lhs OP factor).
struct Comparison {
  AlertQuantity lhs;
  Compare op;
  double factor;
  AlertQuantity rhs;
};

// Every comparison holds, and (per member) `unless` does not hold for the same member.
struct RuleCondition {
  AlertRule rule;
  bool per_member = true;
  std::vector<Comparison> all;
  std::optional<AlertRule> unless;
};

struct AlertMember {
  LinkId link;
  std::string peer;  // topology name of the far end
  std::string instance;
  std::string device;
};

struct AlertGroup {
  VertexId sw;
  std::uint32_t group = 0;
  std::string name;  // "<switch> up" (with "#<k>" from the second up group of a switch)
  std::vector<AlertMember> members;
  std::uint32_t flows = 0;     // k
  std::uint32_t max_load = 0;  // m*
  double tail_probability = 0; // P(max load > m*)
  double hot_share = 1;        // s*
  double jain_floor = 0;       // J*
};

struct AlertPlan {
  AlertOptions options;
  std::vector<AlertGroup> groups;
  std::vector<std::string> unnamed;  // members the map does not name (their groups are left out), by cable_name
};

// The groups of the header with their members named through `map` and their thresholds.
AlertPlan plan_alerts(const Fabric& fabric, const PortMap& map, const AlertOptions& options);

// The one definition of each rule.
RuleCondition rule_condition(AlertRule rule, const AlertGroup& group, const AlertOptions& options);

// Recording rules: per member its transmit and receive rates (labels group, member: the map's
// interface name, peer: the far end's topology name), per group (label group) the
// quantities of the header; the alerts' expressions read only these.
struct RecordingRule {
  std::string record;
  std::string expr;
  std::vector<std::pair<std::string, std::string>> labels;
};
std::string recorded_name(AlertQuantity q, const AlertOptions& options);
std::vector<RecordingRule> recording_rules(const AlertGroup& group, const AlertOptions& options);
// The alert expression of `rule` for `group`, over the recorded series.
std::string promql(AlertRule rule, const AlertGroup& group, const AlertOptions& options);
// Where each threshold of `rule` comes from (the rule's `threshold` annotation).
std::string threshold_source(AlertRule rule, const AlertGroup& group, const AlertOptions& options);
// The `clustertwin diagnose` command that explains an alert of `group`.
std::string runbook_command(const AlertGroup& group, const AlertOptions& options);

// A member's rates at one evaluation; NaN where the series is absent.
struct MemberRates {
  double transmit_bps;
  double receive_bps;
};

// Per member (per_member rules) or one entry (group rules): whether the condition holds.
std::vector<bool> condition_holds(const RuleCondition& condition, std::span<const MemberRates> members,
                                  const AlertGroup& group, const AlertOptions& options);

// One alert the rules would have raised on saved counters.
struct AlertFiring {
  AlertRule rule;
  std::size_t group = 0;    // index into AlertPlan::groups
  int member = -1;          // -1: a group rule
  std::int64_t pending_ms = 0;  // first evaluation of the episode with the condition true
  std::int64_t fires_ms = 0;    // pending_ms + for
  bool fired = false;           // fires_ms within the samples (else: pending at their end)
  std::int64_t last_ms = 0;     // the last evaluation
};

// The rules of `plan` over the counters' sample timelines (counter_rates.h): per (rule, member),
// the first episode that fires, else the one pending at the end. Sorted by (fires_ms, group, rule,
// member).
std::vector<AlertFiring> evaluate_alerts(const AlertPlan& plan, const CounterRates& rates);

}  // namespace ct
