// The flow and the packet engine side by side (simulate_engines + compare_engines) on the shipped
// lab-32 fabric (400 Gb/s ports; switches given: 300 ns, cut-through, 64 KiB per port and VL).
//
// Long flows on a permutation (examples/scenarios/permutation-lab32.yaml): 8 x 32 MiB across the
// spines, ECMP puts 3 flows on one spine link, 2 on another, 3 alone. Max-min: 400/3, 200 and
// 400 Gb/s, so 32 MiB takes 2,013.27, 1,342.18 and 671.09 us (268,435,456 bits / rate) plus the
// path latency. The packet engine's long flows run at the same rates: every operation agrees
// within 2 %.
//
// An incast (examples/scenarios/incast-lab32.yaml): 6 x 8 MiB into host0/nic0, one from its own
// leaf, five across the spines, two of those on one spine. Max-min: 1/6 of 400 Gb/s each, all
// done at 6 x 67,108,864 bits / 400e9 = 1,006.63 us. Under credits the leaf shares the port among
// its 5 input ports: the 4 flows alone on theirs finish at 5 x 67,108,864 / 400e9 = 838.86 us
// (17 % sooner), the 2 that share one at the makespan, as in the flow run. The report says why:
// an incast of 6 flows on that port, and the credit stalls of its senders.
//
// PFC victims (examples/scenarios/pfc-victims-lab32roce.yaml, RoCE lab, 32 KiB per port and
// priority): an incast of 4 x 4 MiB into host0/nic0 across the spines beside 4 other flows into
// other hosts. PAUSE spreads from host0's leaf to the spine links and the leaf uplinks; two of the
// other flows share a paused link with the incast but no congestion point: they run at the
// incast's pace (about 337 us) where max-min gives them 300 Gb/s (111.85 us): victims.
#include "analysis/engine_comparison.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/simulation.h"
#include "support/fixture_fabric.h"
#include "support/test_paths.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

SimulationOptions options() {
  SimulationOptions o;
  o.packet.switch_latency = TimePs(300'000);
  o.packet.buffer_bytes = 64 * 1024;
  o.packet.cut_through = true;
  return o;
}

struct Compared {
  EngineRuns runs;
  EngineComparison comparison;
};

Compared compare(const Fabric& fabric, const std::string& scenario_file) {
  auto scenario = parse_scenario(scenario_file, fixtures::source_text(scenario_file), fabric);
  EXPECT_TRUE(scenario.ok()) << format_diagnostics(scenario.errors());
  auto runs = simulate_engines(fabric, scenario.value(), nullptr, options());
  EXPECT_TRUE(runs.ok()) << format_diagnostics(runs.errors());
  EngineComparison c = compare_engines(runs->flow, runs->packet);
  return {std::move(runs.value()), std::move(c)};
}

TEST(EngineComparison, LongFlowsOnAPermutationAgreeWithinTwoPercent) {
  const Fabric fabric = fixtures::example_fabric("examples/lab-32.yaml");
  const Compared c = compare(fabric, "examples/scenarios/permutation-lab32.yaml");
  ASSERT_EQ(c.comparison.operations.size(), 8U);
  EXPECT_EQ(c.comparison.agree, 8U);
  int third = 0, half = 0, alone = 0;
  for (const OperationComparison& op : c.comparison.operations) {
    EXPECT_TRUE(op.agree);
    EXPECT_LE(std::abs(op.difference), kAgreement);
    EXPECT_TRUE(op.reasons.empty());
    // The flow run's times: 671.09 us at the line rate, twice and three times that (plus at most
    // a microsecond of path latency).
    const double line = 268'435'456.0 / 400e9;
    if (std::abs(op.flow_s - 3 * line) < 1e-6) ++third;
    if (std::abs(op.flow_s - 2 * line) < 1e-6) ++half;
    if (std::abs(op.flow_s - line) < 1e-6) ++alone;
  }
  EXPECT_EQ(third, 3);
  EXPECT_EQ(half, 2);
  EXPECT_EQ(alone, 3);
  EXPECT_EQ(c.runs.packet.packet.drops, 0U);
  EXPECT_FALSE(c.comparison.deadlock);
}

TEST(EngineComparison, AnIncastDiffersAndSaysWhy) {
  const Fabric fabric = fixtures::example_fabric("examples/lab-32.yaml");
  const Compared c = compare(fabric, "examples/scenarios/incast-lab32.yaml");
  ASSERT_EQ(c.comparison.operations.size(), 6U);
  const double all = 6 * 67'108'864.0 / 400e9;   // 1,006.63 us
  const double alone = 5 * 67'108'864.0 / 400e9;  // 838.86 us
  int sooner = 0;
  for (const OperationComparison& op : c.comparison.operations) {
    EXPECT_NEAR(op.flow_s, all, 1e-6);
    EXPECT_EQ(op.incast_flows, 6U);
    ASSERT_NE(op.incast_port, kNoIndex);
    if (op.agree) {
      EXPECT_NEAR(op.packet_s, all, 0.005 * all);  // the two that share an input port
      continue;
    }
    ++sooner;
    EXPECT_NEAR(op.packet_s, alone, 0.005 * alone);
    EXPECT_LT(op.difference, -0.15);
    ASSERT_GE(op.reasons.size(), 2U);
    EXPECT_EQ(op.reasons[0], DifferenceReason::kIncast);
    EXPECT_EQ(op.reasons[1], DifferenceReason::kFlowControl);
  }
  EXPECT_EQ(sooner, 4);
  // The port all six end on: host0/nic0's downlink, the one congestion point; lossless.
  const OperationComparison& first = c.comparison.operations.front();
  EXPECT_EQ(c.runs.packet.resources[first.incast_port].kind, ResourceKind::kLinkDown);
  EXPECT_EQ(c.comparison.congestion_points, 1U);
  EXPECT_GT(c.comparison.stopped_ports, 0U);
  EXPECT_TRUE(c.comparison.victims.empty());
  EXPECT_EQ(c.runs.packet.packet.drops, 0U);
}

TEST(EngineComparison, PfcVictimsShareNoBottleneckYetWait) {
  const Fabric fabric = fixtures::example_fabric("examples/lab-32-roce.yaml");
  SimulationOptions o = options();
  o.packet.buffer_bytes = 32 * 1024;
  o.packet.dcqcn = false;  // PFC alone: the victims are PAUSE's (DCQCN would slow the incast first)
  auto scenario = parse_scenario("pfc-victims-lab32roce.yaml",
                                 fixtures::source_text("examples/scenarios/pfc-victims-lab32roce.yaml"), fabric);
  ASSERT_TRUE(scenario.ok()) << format_diagnostics(scenario.errors());
  auto runs = simulate_engines(fabric, scenario.value(), nullptr, o);
  ASSERT_TRUE(runs.ok()) << format_diagnostics(runs.errors());
  const EngineComparison c = compare_engines(runs->flow, runs->packet);
  ASSERT_EQ(c.victims.size(), 2U);
  for (const std::uint32_t v : c.victims) {
    const OperationComparison& op = c.operations[runs->packet.flows[v].operation];
    EXPECT_EQ(runs->packet.operations[op.operation].name.rfind("other-", 0), 0U);
    EXPECT_NEAR(op.flow_s, 33'554'432.0 / 300e9, 1e-6);  // 111.85 us at 300 Gb/s
    EXPECT_GT(op.difference, 1.9);                        // about three times longer
    EXPECT_EQ(op.victims, 1U);
    EXPECT_NE(std::find(op.reasons.begin(), op.reasons.end(), DifferenceReason::kVictims), op.reasons.end());
  }
  EXPECT_GT(c.stopped_ports, 10U);  // PAUSE spread over most of the ports the flows use
  EXPECT_EQ(runs->packet.packet.drops, 0U);
}

// A deadlock, on results made by hand: one operation of one flow over one port, done in the flow
// run at 10 us, stalled in the packet run that ended in a credit loop through that port. They
// differ, the first reason is the deadlock, and the port is a stopped one.
TEST(EngineComparison, ADeadlockIsTheFirstReason) {
  SimulationResult flow;
  flow.operations.resize(1);
  flow.operations[0].iterations = {{TimePs(0), TimePs(10'000'000)}};
  flow.operations[0].flows_end = 1;
  SimulationResult packet = flow;
  packet.operations[0].iterations = {{TimePs(0), TimePs(-1)}};
  packet.operations[0].complete = false;
  packet.flows.resize(1);
  packet.flows[0].path_size = 1;
  packet.path_pool = {0};
  packet.resources.resize(1);
  packet.stats.resize(1);
  packet.stats[0].carried_bits = 8;
  packet.stats[0].credit_stall = TimePs(5'000'000);
  packet.packet.ran = true;
  packet.packet.mtu = 4096;
  packet.packet.deadlock_cycles = {{0}};
  const EngineComparison c = compare_engines(flow, packet);
  ASSERT_EQ(c.operations.size(), 1U);
  EXPECT_TRUE(c.deadlock);
  EXPECT_FALSE(c.operations[0].agree);
  ASSERT_FALSE(c.operations[0].reasons.empty());
  EXPECT_EQ(c.operations[0].reasons[0], DifferenceReason::kDeadlock);
  EXPECT_EQ(c.stopped_ports, 1U);
  EXPECT_EQ(c.ports_used, 1U);
}

// The same deadlock with a second flow of the operation over port 1, stopped too but outside the
// loop. The first flow waits in the loop (port 0): the deadlock is its reason, it is no victim of
// head-of-line blocking; the second crossed a stopped port and no congestion point: a victim.
TEST(EngineComparison, AFlowInTheCreditLoopIsNoVictim) {
  SimulationResult flow;
  flow.operations.resize(1);
  flow.operations[0].iterations = {{TimePs(0), TimePs(10'000'000)}};
  flow.operations[0].flows_end = 2;
  SimulationResult packet = flow;
  packet.operations[0].iterations = {{TimePs(0), TimePs(-1)}};
  packet.operations[0].complete = false;
  packet.flows.resize(2);
  packet.flows[0].path_size = 1;
  packet.flows[1].path_begin = 1;
  packet.flows[1].path_size = 1;
  packet.path_pool = {0, 1};
  packet.resources.resize(2);
  packet.stats.resize(2);
  for (ResourceStats& s : packet.stats) {
    s.carried_bits = 8;
    s.credit_stall = TimePs(5'000'000);
  }
  packet.packet.ran = true;
  packet.packet.mtu = 4096;
  packet.packet.deadlock_cycles = {{0}};
  const EngineComparison c = compare_engines(flow, packet);
  EXPECT_EQ(c.victims, std::vector<std::uint32_t>{1});
  ASSERT_EQ(c.operations.size(), 1U);
  EXPECT_EQ(c.operations[0].victims, 1U);
  EXPECT_EQ(c.operations[0].reasons[0], DifferenceReason::kDeadlock);
}

}  // namespace
}  // namespace ct
