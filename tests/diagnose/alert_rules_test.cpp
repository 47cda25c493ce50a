// The generated alert rules (diagnose/alert_rules.h), worked by hand, evaluated twice on the same
// hand-built series: by Prometheus (`promtool test rules` on the rule file `clustertwin alerts`
// writes) and by the C++ evaluator `diagnose` uses. Both must give the expected alerts.
//
// Fixture: examples/lab/fat-tree-4.yaml, its members named as the lab names them. The group is
// p0/pod0/leaf/0's uplinks: l8 to p0/pod0/spine/0 and l9 to p0/pod0/spine/1 (n = 2). Thresholds:
// f = 0.05 (idle), floor 1 Mb/s, d = 0.6 (degraded); k = 4 x 2 = 8 flows on 2 members: the busiest
// carries all 8 with P = 2 / 2^8 = 0.0078 <= 1 % and 7 or more with P = 2 (1 + 8) / 256 = 0.07, so
// m* = 7, s* = 7/8 = 0.875, J* = 8^2 / (2 (7^2 + 1^2)) = 0.64.
// Series: counters at 0, 1, ..., 20 min growing at constant rates (Mb/s given per member, transmit
// and receive at the switch); every rule `for: 10m`, rate window 5m, evaluated at 20 min.
//   polarized  tx 100/0, rx 10/10: l9 idle (0 < 5) and up (receives 10 >= 5): Idle l9; l8's share
//              1 > 0.875: Hot l8; J = 0.5 < 0.64: Unfair.
//   balanced   tx 50/50: nothing (J = 1, shares 0.5, nothing under 5).
//   down       tx 100/0, rx 10/0: l9 idle both ways while l8 receives 10 >= 5: Down l9, not Idle.
//   degraded   tx 100/30: median 65, 30 < 39 and 30 >= 5: Degraded l9; share 100/130 = 0.77,
//              J = 130^2 / (2 (100^2 + 30^2)) = 0.775: neither.
// Edges, each on both sides, within 1 % of the threshold (a threshold printed 1 % off fails):
//   idle 4.95 / 5.05 (f X = 5)  4.95: Idle l9 (+ Hot l8: 100/104.95 > 0.875; Unfair: J = 0.5236);
//                               5.05: Degraded l9 (5.05 < 0.6 x 52.525, >= 5) (+ Hot, J = 0.5505);
//   floor 0.995 / 1.005 Mb/s    polarized at X = 0.995: nothing; at 1.005: Idle, Hot, Unfair;
//   share and Jain 14.1 / 14.5  for n = 2 J = 1 / (2 (s^2 + (1 - s)^2)), so J* = 0.64 is s* = 0.875:
//                               100/114.1 = 0.8764 > 0.875: Hot, J = 0.63824 < 0.64: Unfair;
//                               100/114.5 = 0.8734: neither (J = 0.64201); both Degraded l9;
//   degraded 42.5 / 43          42.5 < 0.6 x 71.25 = 42.75: Degraded; 43 >= 0.6 x 71.5 = 42.9: nothing;
//   down (receive) 4.95 / 5.05  tx 100/0, rx 10/4.95: Down l9; rx 10/5.05: Idle l9;
//   down (the others' receive)  tx 100/0, rx 4.95/0: R < 5: Idle l9; rx 5.05/0: Down l9.
// A 4-way group, examples/lab/leaf-spine-4.yaml's p0/leaf/0 (l8 .. l11 to p0/spine/0 .. 3): k = 16
// flows on 4 members; counting the 4^16 assignments with every load <= m (a sum over binomials)
// gives P(max > 8) = 0.0299 and P(max > 9) = 0.006578, so m* = 9, s* = 9/16 = 0.5625 and
// J* = 256 / (4 (81 + 3 (7/3)^2)) = 0.657534. Prometheus' median of 4 is the mean of the middle two.
//   tx 40/40/40/20    median 40, 20 < 24 and >= 2: Degraded l11 (share 0.29, J = 0.942: neither);
//   tx .. 23.9 / 24.1 the edge of 0.6 x 40 = 24: Degraded l11 / nothing;
//   tx 40/40/0/40     Idle l10 only (share 1/3 < 0.5625, J = 0.75 > 0.6575; 0 is under 2: not degraded).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "diagnose/alert_rules.h"
#include "diagnose/counter_rates.h"
#include "diagnose/port_map.h"
#include "lab/lab_plan.h"
#include "report/alert_rules_yaml.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/fixture_fabric.h"
#include "support/netns.h"

namespace ct {
namespace {

constexpr int kMinutes = 20;
const std::string kTwoWay = "p0/pod0/leaf/0 up";  // fat-tree-4: l8, l9
const std::string kFourWay = "p0/leaf/0 up";      // leaf-spine-4: l8 .. l11

struct Scenario {
  std::string name;
  std::vector<double> tx_mbps;  // per member of the group
  std::vector<double> rx_mbps;
  std::set<std::string> fires;  // "<alert> <device>", or "<alert>" for the group rule
  std::string group = kTwoWay;
};

std::vector<Scenario> scenarios() {
  const std::string idle = "ClustertwinEcmpMemberIdle l9", down = "ClustertwinEcmpMemberDown l9";
  const std::string hot = "ClustertwinEcmpMemberHot l8", unfair = "ClustertwinEcmpGroupUnfair";
  const std::string degraded = "ClustertwinEcmpMemberDegraded l9";
  return {
      {"polarized", {100, 0}, {10, 10}, {idle, hot, unfair}},
      {"balanced", {50, 50}, {10, 10}, {}},
      {"down", {100, 0}, {10, 0}, {down, hot, unfair}},
      {"degraded", {100, 30}, {10, 10}, {degraded}},
      {"idle just below", {100, 4.95}, {10, 10}, {idle, hot, unfair}},
      {"idle just above", {100, 5.05}, {10, 10}, {degraded, hot, unfair}},
      {"floor just below", {0.995, 0}, {10, 10}, {}},
      {"floor just above", {1.005, 0}, {10, 10}, {idle, hot, unfair}},
      {"share and Jain just beyond", {100, 14.1}, {10, 10}, {hot, unfair, degraded}},
      {"share and Jain just within", {100, 14.5}, {10, 10}, {degraded}},
      {"degraded just below", {100, 42.5}, {10, 10}, {degraded}},
      {"degraded just above", {100, 43}, {10, 10}, {}},
      {"down receive just below", {100, 0}, {10, 4.95}, {down, hot, unfair}},
      {"down receive just above", {100, 0}, {10, 5.05}, {idle, hot, unfair}},
      {"down others just below", {100, 0}, {4.95, 0}, {idle, hot, unfair}},
      {"down others just above", {100, 0}, {5.05, 0}, {down, hot, unfair}},
      {"4-way degraded", {40, 40, 40, 20}, {10, 10, 10, 10}, {"ClustertwinEcmpMemberDegraded l11"}, kFourWay},
      {"4-way degraded just below", {40, 40, 40, 23.9}, {10, 10, 10, 10}, {"ClustertwinEcmpMemberDegraded l11"}, kFourWay},
      {"4-way degraded just above", {40, 40, 40, 24.1}, {10, 10, 10, 10}, {}, kFourWay},
      {"4-way idle", {40, 40, 0, 40}, {10, 10, 10, 10}, {"ClustertwinEcmpMemberIdle l10"}, kFourWay},
  };
}

// Bytes a counter grows per minute at `mbps`.
std::uint64_t bytes_per_minute(double mbps) { return static_cast<std::uint64_t>(std::llround(mbps * 1e6 / 8 * 60)); }

Fabric fabric_of(const std::string& relative) { return fixtures::example_fabric(relative); }

// The rules of a lab fabric, its members named as the lab names them.
AlertPlan lab_plan(const Fabric& fabric, const std::string& spec) {
  const PortMap map =
      read_port_map_csv(lab_port_map(plan_lab(fabric, "ct").value(), fabric.topology()), "lab", fabric.names()).value();
  AlertOptions o;
  o.spec_path = spec;
  return plan_alerts(fabric, map, o);
}

const AlertPlan& two_way_plan() {
  static const AlertPlan plan = lab_plan(fixtures::lab_fat_tree_4(), "examples/lab/fat-tree-4.yaml");
  return plan;
}

const AlertPlan& four_way_plan() {
  static const Fabric fabric = fabric_of("examples/lab/leaf-spine-4.yaml");
  static const AlertPlan plan = lab_plan(fabric, "examples/lab/leaf-spine-4.yaml");
  return plan;
}

const AlertPlan& plan_of(const Scenario& s) { return s.group == kTwoWay ? two_way_plan() : four_way_plan(); }

const AlertGroup& group_of(const AlertPlan& plan, const std::string& name) {
  const auto it = std::find_if(plan.groups.begin(), plan.groups.end(), [&](const AlertGroup& g) { return g.name == name; });
  EXPECT_NE(it, plan.groups.end());
  return *it;
}

// A single-quoted YAML scalar.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// The scenario's four series in promtool's input_series format.
std::string input_series(const Scenario& s, const AlertGroup& g) {
  std::string out = "    input_series:\n";
  for (std::size_t m = 0; m < s.tx_mbps.size(); ++m) {
    for (const bool tx : {true, false}) {
      out += fmt::format("      - series: '{}{{instance=\"{}\",device=\"{}\"}}'\n        values: '0+{}x{}'\n",
                         tx ? "node_network_transmit_bytes_total" : "node_network_receive_bytes_total", g.members[m].instance,
                         g.members[m].device, bytes_per_minute(tx ? s.tx_mbps[m] : s.rx_mbps[m]), kMinutes);
    }
  }
  return out;
}

// The expected alerts of one rule in promtool's alert_rule_test format: labels and annotations.
std::string expected_alerts(const Scenario& s, AlertRule rule, const AlertGroup& g, const AlertOptions& o) {
  std::string out = fmt::format("      - eval_time: {}m\n        alertname: {}\n        exp_alerts:", kMinutes, alert_name(rule));
  std::string alerts;
  for (int m = -1; m < static_cast<int>(g.members.size()); ++m) {
    const AlertMember* member = m < 0 ? nullptr : &g.members[static_cast<std::size_t>(m)];
    const std::string key = std::string(alert_name(rule)) + (member ? " " + member->device : "");
    if (!s.fires.count(key)) continue;
    alerts += "\n          - exp_labels:\n";
    for (const auto& [k, v] : alert_labels(rule, g)) alerts += "              " + k + ": " + quoted(v) + "\n";
    if (member) {
      alerts += "              instance: " + quoted(member->instance) + "\n              device: " + quoted(member->device) + "\n";
      alerts += "              member: " + quoted(member->device) + "\n              peer: " + quoted(member->peer) + "\n";
    }
    alerts += "            exp_annotations:\n";
    alerts += "              summary: " + quoted(alert_summary(rule, g)) + "\n";
    alerts += "              threshold: " + quoted(threshold_source(rule, g, o)) + "\n";
    alerts += "              runbook: " + quoted(runbook_command(g, o)) + "\n";
  }
  out += alerts.empty() ? " []\n" : alerts;
  return out;
}

// The scenario's counters as scrapes, one a minute, for the C++ evaluator.
std::vector<AlertFiring> cxx_alerts(const Scenario& s, const AlertPlan& plan) {
  const AlertGroup& g = group_of(plan, s.group);
  std::vector<Scrape> scrapes;
  for (int t = 0; t <= kMinutes; ++t) {
    Scrape sc;
    sc.file = fmt::format("t{}", t);
    for (std::size_t m = 0; m < s.tx_mbps.size(); ++m) {
      for (const bool tx : {true, false}) {
        CounterSample c;
        c.instance = g.members[m].instance;
        c.device = g.members[m].device;
        c.transmit = tx;
        c.count = bytes_per_minute(tx ? s.tx_mbps[m] : s.rx_mbps[m]) * static_cast<std::uint64_t>(t);
        c.time_ms = std::int64_t{t} * 60'000;
        sc.samples.push_back(c);
      }
    }
    scrapes.push_back(std::move(sc));
  }
  return evaluate_alerts(plan, compute_rates(scrapes, {}).value());
}

std::set<std::string> fired_names(const std::vector<AlertFiring>& alerts, const AlertPlan& plan) {
  std::set<std::string> out;
  for (const AlertFiring& a : alerts) {
    EXPECT_TRUE(a.fired) << alert_name(a.rule) << " pending from " << a.pending_ms;
    const AlertGroup& g = plan.groups[a.group];
    out.insert(std::string(alert_name(a.rule)) + (a.member < 0 ? "" : " " + g.members[static_cast<std::size_t>(a.member)].device));
  }
  return out;
}

TEST(AlertRules, ThresholdsFromBallsIntoBins) {
  const AlertPlan& plan = two_way_plan();
  const AlertGroup& g = group_of(plan, kTwoWay);
  ASSERT_EQ(g.members.size(), 2u);
  EXPECT_EQ(g.members[0].device, "l8");
  EXPECT_EQ(g.members[1].peer, "p0/pod0/spine/1");
  EXPECT_EQ(g.flows, 8u);
  EXPECT_EQ(g.max_load, 7u);
  EXPECT_NEAR(g.tail_probability, 2.0 / 256, 1e-12);
  EXPECT_DOUBLE_EQ(g.hot_share, 0.875);
  EXPECT_DOUBLE_EQ(g.jain_floor, 0.64);
  const AlertGroup& four = group_of(four_way_plan(), kFourWay);
  ASSERT_EQ(four.members.size(), 4u);
  EXPECT_EQ(four.flows, 16u);
  EXPECT_EQ(four.max_load, 9u);
  EXPECT_NEAR(four.tail_probability, 0.006578, 1e-6);
  EXPECT_DOUBLE_EQ(four.hot_share, 0.5625);
  EXPECT_DOUBLE_EQ(four.jain_floor, 0.657534);
}

TEST(AlertRules, CxxEvaluatorGivesTheHandWorkedAlerts) {
  for (const Scenario& s : scenarios()) {
    const AlertPlan& plan = plan_of(s);
    const std::vector<AlertFiring> alerts = cxx_alerts(s, plan);
    EXPECT_EQ(fired_names(alerts, plan), s.fires) << s.name;
    for (const AlertFiring& a : alerts) {
      EXPECT_EQ(a.pending_ms, 60'000) << s.name << ": true from the first rate, at 1 min";
      EXPECT_EQ(a.fires_ms, 660'000) << s.name << ": fires 10 min later";
    }
  }
}

// A condition that stops holding before `for` has passed never fires: pending, then cleared.
TEST(AlertRules, ForNeedsTheConditionThroughout) {
  AlertPlan plan = two_way_plan();
  plan.options.for_s = 30 * 60;  // longer than the 20 min of samples
  const std::vector<AlertFiring> alerts = cxx_alerts(scenarios()[0], plan);
  ASSERT_EQ(alerts.size(), 3u);
  for (const AlertFiring& a : alerts) {
    EXPECT_FALSE(a.fired);
    EXPECT_EQ(a.fires_ms, 60'000 + 30 * 60'000);
    EXPECT_EQ(a.last_ms, kMinutes * 60'000);
  }
}

TEST(AlertRules, PromtoolChecksAndTestsEveryRule) {
  if (!test::have_binary("promtool")) GTEST_SKIP() << "promtool not installed (Debian prometheus)";
  const test::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  dir.write("two-way.yaml", alert_rules_yaml(two_way_plan(), "lab-fat-tree-4"));
  dir.write("four-way.yaml", alert_rules_yaml(four_way_plan(), "leaf-spine-4"));
  const CommandResult check = test::run("cd " + dir.path() + " && promtool check rules two-way.yaml four-way.yaml");
  EXPECT_EQ(check.status, 0) << check.out;
  std::string tests = "rule_files:\n  - two-way.yaml\n  - four-way.yaml\nevaluation_interval: 1m\ntests:\n";
  for (const Scenario& s : scenarios()) {
    const AlertPlan& plan = plan_of(s);
    const AlertGroup& g = group_of(plan, s.group);
    tests += "  # " + s.name + "\n  - interval: 1m\n" + input_series(s, g) + "    alert_rule_test:\n";
    for (const AlertRule rule : kAlertRules) tests += expected_alerts(s, rule, g, plan.options);
  }
  dir.write("tests.yaml", tests);
  const CommandResult result = test::run("cd " + dir.path() + " && promtool test rules tests.yaml");
  EXPECT_EQ(result.status, 0) << result.out << "\n" << tests;
}

// Twin cables (examples/twin-uplinks.yaml: each rail leaf has two cables to the one spine): a map
// naming only p0/leaf/0's first cable (cable column 0) leaves that group out and names the member it
// lacks as every output names a cable, "p0/leaf/0 -- p0/spine/0 #1" (the second of the two, from 0,
// what the map's cable column 1 would name); the bare name it gave before named both twins.
TEST(AlertRules, AMemberTheMapLacksIsNamedByItsCable) {
  const Fabric fabric = fabric_of("examples/twin-uplinks.yaml");
  const PortMap map = read_port_map_csv("leaf0,swp1,p0/leaf/0,p0/spine/0,0\n", "map.csv", fabric.names()).value();
  const AlertPlan plan = plan_alerts(fabric, map, AlertOptions{});
  const auto listed = [&](const std::string& name) {
    return std::find(plan.unnamed.begin(), plan.unnamed.end(), name) != plan.unnamed.end();
  };
  EXPECT_TRUE(listed("p0/leaf/0 -- p0/spine/0 #1")) << ::testing::PrintToString(plan.unnamed);
  EXPECT_FALSE(listed("p0/leaf/0 -- p0/spine/0 #0"));
  EXPECT_TRUE(listed("p0/leaf/1 -- p0/spine/0 #0"));
  EXPECT_TRUE(listed("p0/leaf/1 -- p0/spine/0 #1"));
}

}  // namespace
}  // namespace ct
