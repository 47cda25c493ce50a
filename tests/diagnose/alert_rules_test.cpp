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
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "diagnose/alert_rules.h"
#include "diagnose/counter_rates.h"
#include "diagnose/port_map.h"
#include "lab/lab_plan.h"
#include "report/alert_rules_yaml.h"
#include "support/fixture_fabric.h"
#include "support/netns.h"

namespace ct {
namespace {

constexpr int kMinutes = 20;
constexpr const char* kSwitch = "p0/pod0/leaf/0";
const std::array<std::string, 2> kDevices = {"l8", "l9"};
const std::array<std::string, 2> kPeers = {"p0/pod0/spine/0", "p0/pod0/spine/1"};

struct Scenario {
  std::string name;
  std::array<double, 2> tx_mbps;
  std::array<double, 2> rx_mbps;
  std::set<std::string> fires;  // "<alert> <device>", or "<alert>" for the group rule
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
  };
}

// Bytes a counter grows per minute at `mbps`.
std::uint64_t bytes_per_minute(double mbps) { return static_cast<std::uint64_t>(std::llround(mbps * 1e6 / 8 * 60)); }

AlertPlan lab_plan() {
  const Fabric& fabric = fixtures::lab_fat_tree_4();
  const PortMap map =
      read_port_map_csv(lab_port_map(plan_lab(fabric, "ct").value(), fabric.topology()), "lab", fabric.names()).value();
  AlertOptions o;
  o.spec_path = "examples/lab/fat-tree-4.yaml";
  return plan_alerts(fabric, map, o);
}

const AlertGroup& leaf0_group(const AlertPlan& plan) {
  const auto it = std::find_if(plan.groups.begin(), plan.groups.end(), [](const AlertGroup& g) { return g.name == "p0/pod0/leaf/0 up"; });
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
std::string input_series(const Scenario& s) {
  std::string out = "    input_series:\n";
  for (int m = 0; m < 2; ++m) {
    for (const bool tx : {true, false}) {
      out += fmt::format("      - series: '{}{{instance=\"{}\",device=\"{}\"}}'\n        values: '0+{}x{}'\n",
                         tx ? "node_network_transmit_bytes_total" : "node_network_receive_bytes_total", kSwitch, kDevices[m],
                         bytes_per_minute(tx ? s.tx_mbps[m] : s.rx_mbps[m]), kMinutes);
    }
  }
  return out;
}

// The expected alerts of one rule in promtool's alert_rule_test format: labels and annotations.
std::string expected_alerts(const Scenario& s, AlertRule rule, const AlertGroup& g, const AlertOptions& o) {
  std::string out = fmt::format("      - eval_time: {}m\n        alertname: {}\n        exp_alerts:", kMinutes, alert_name(rule));
  std::string alerts;
  for (int m = -1; m < 2; ++m) {
    const std::string key = std::string(alert_name(rule)) + (m < 0 ? "" : " " + kDevices[m]);
    if (!s.fires.count(key)) continue;
    alerts += "\n          - exp_labels:\n";
    for (const auto& [k, v] : alert_labels(rule, g)) alerts += "              " + k + ": " + quoted(v) + "\n";
    if (m >= 0) {
      alerts += "              instance: " + quoted(kSwitch) + "\n              device: " + quoted(kDevices[m]) + "\n";
      alerts += "              member: " + quoted(kDevices[m]) + "\n              peer: " + quoted(kPeers[m]) + "\n";
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
  std::vector<Scrape> scrapes;
  for (int t = 0; t <= kMinutes; ++t) {
    Scrape sc;
    sc.file = fmt::format("t{}", t);
    for (int m = 0; m < 2; ++m) {
      for (const bool tx : {true, false}) {
        CounterSample c;
        c.instance = kSwitch;
        c.device = kDevices[m];
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
  const AlertPlan plan = lab_plan();
  const AlertGroup& g = leaf0_group(plan);
  ASSERT_EQ(g.members.size(), 2u);
  EXPECT_EQ(g.members[0].device, "l8");
  EXPECT_EQ(g.members[1].peer, "p0/pod0/spine/1");
  EXPECT_EQ(g.flows, 8u);
  EXPECT_EQ(g.max_load, 7u);
  EXPECT_NEAR(g.tail_probability, 2.0 / 256, 1e-12);
  EXPECT_DOUBLE_EQ(g.hot_share, 0.875);
  EXPECT_DOUBLE_EQ(g.jain_floor, 0.64);
}

TEST(AlertRules, CxxEvaluatorGivesTheHandWorkedAlerts) {
  const AlertPlan plan = lab_plan();
  for (const Scenario& s : scenarios()) {
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
  AlertPlan plan = lab_plan();
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
  const AlertPlan plan = lab_plan();
  const AlertGroup& g = leaf0_group(plan);
  const test::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  dir.write("rules.yaml", alert_rules_yaml(plan, "lab-fat-tree-4"));
  const CommandResult check = test::run("promtool check rules " + dir.path() + "/rules.yaml");
  EXPECT_EQ(check.status, 0) << check.out;
  std::string tests = "rule_files:\n  - rules.yaml\nevaluation_interval: 1m\ntests:\n";
  for (const Scenario& s : scenarios()) {
    tests += "  # " + s.name + "\n  - interval: 1m\n" + input_series(s) + "    alert_rule_test:\n";
    for (const AlertRule rule : kAlertRules) tests += expected_alerts(s, rule, g, plan.options);
  }
  dir.write("tests.yaml", tests);
  const CommandResult result = test::run("cd " + dir.path() + " && promtool test rules tests.yaml");
  EXPECT_EQ(result.status, 0) << result.out << "\n" << tests;
}

}  // namespace
}  // namespace ct
