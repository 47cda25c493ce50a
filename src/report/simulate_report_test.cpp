// The simulate report's figures on a hand-computed run (report/simulate_report.h).
#include "report/simulate_report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "support/fixture_fabric.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"

namespace ct {
namespace {

// Ring all-reduce of S = 64 MiB over n = 4 GPUs on one leaf (400 Gb/s, no latency): 2 (n - 1) = 6
// steps of S / n = 16 MiB = 2^27 bits, 2^27 / 4e11 s = 335,544,320 ps each, so
//   t = 2 (n - 1) / n x S x 8 / 400 Gb/s = 1.5 x 2^26 B x 8 / 4e11 b/s = 2.01326592e-3 s (exact).
// algbw = S / t = 2^26 B / 2.01326592 ms = 33.333 GB/s; busbw = algbw x 2(n-1)/n = 1.5 x that =
// 50 GB/s, the NIC's 400 Gb/s: a ring on a non-blocking fabric runs at the links' speed, as
// nccl-tests' busbw is meant to show. Each step sends one 16 MiB flow per GPU: 6 x 4 = 24 flows,
// over the 4 NIC links in both directions: 8 directed links.
constexpr double kRingSeconds = 1.5 * (64.0 * 1024 * 1024) * 8 / 400e9;  // 2.01326592e-3
class SimulateReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    topology_ = fixtures::two_tier(1, 1, 4);
    topology_.gpus_per_host = 1;
    CollectiveSpec c;
    c.name = "ar";
    c.model = CollectiveModel::kStepwise;  // the 6 steps worked out above
    c.bytes = Bytes(64LL << 20);
    c.groups = {{0, 1, 2, 3}};
    scenario_.collectives.push_back(c);
    auto r = simulate(fixtures::fixture_fabric(topology_), scenario_);
    ASSERT_TRUE(r.ok());
    result_ = std::move(r).value();
    workers_ = account_workers(result_);
    names_.emplace(topology_);
    in_.emplace(SimulateReportInput{topology_, *names_, result_, workers_, "test"});
  }
  Topology topology_;
  Scenario scenario_;
  SimulationResult result_;
  WorkerAccount workers_;
  std::optional<NameDirectory> names_;
  std::optional<SimulateReportInput> in_;
};

TEST_F(SimulateReportTest, JsonCarriesNcclTestsBandwidths) {
  const auto j = nlohmann::json::parse(simulate_json(*in_));
  const auto& op = j["operations"][0];
  EXPECT_NEAR(op["time_s"].get<double>(), kRingSeconds, 1e-15);
  EXPECT_NEAR(op["algbw_GBps"].get<double>(), 100.0 / 3, 1e-9);
  EXPECT_NEAR(op["busbw_GBps"].get<double>(), 50.0, 1e-9);
  EXPECT_EQ(op["gpus"].get<int>(), 4);
  // Each of the 8 directed NIC links carries one ring edge at full speed for the whole run.
  ASSERT_FALSE(j["bottlenecks"].empty());
  EXPECT_NEAR(j["bottlenecks"][0]["mean_utilization"].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(j["bottlenecks"][0]["saturated_s"].get<double>(), kRingSeconds, 1e-15);
  // A healthy ring keeps every GPU sending: nothing is lost to a slow path.
  EXPECT_NEAR(j["waiting_share"].get<double>(), 0.0, 1e-9);
}

TEST_F(SimulateReportTest, CsvHasOneRowPerFlowAndPerUsedLink) {
  const std::string flows = simulate_flows_csv(*in_);
  EXPECT_EQ(std::count(flows.begin(), flows.end(), '\n'), 1 + 24);  // header + 6 steps x 4 GPUs
  const std::string links = simulate_links_csv(*in_);
  EXPECT_EQ(std::count(links.begin(), links.end(), '\n'), 1 + 8);  // header + 4 NIC links x 2 directions
  EXPECT_NE(links.find("host0/nic0 -- p0/leaf/0 up,400000000000,"), std::string::npos);
}

// A deadlocked packet run in which one stalled flow's path failed (issue 26 review, item 4): that
// flow gets the fault-stall reason, not "behind the loop"; the others keep theirs.
TEST_F(SimulateReportTest, AFlowStoppedByAFaultInADeadlockedRunSaysSo) {
  SimulationResult r = result_;
  ASSERT_GE(r.flows.size(), 3U);
  for (std::uint32_t f = 0; f < 3; ++f) {
    r.flows[f].unfinished = Unfinished::kStalled;
    r.flows[f].end = TimePs(-1);
    r.flows[f].bits_left = 8;
    r.flows[f].stalled = TimePs(1'000'000);
  }
  r.packet.ran = true;
  r.packet.deadlock_cycles = {{0, 1}};
  r.packet.deadlock_flows = {0};
  r.packet.fault_stalled_flows = {2};
  const DeadlockFlows d = deadlock_flows(r);
  EXPECT_EQ(d.in_loop, std::vector<std::uint32_t>{0});
  EXPECT_EQ(d.behind, std::vector<std::uint32_t>{1});
  EXPECT_EQ(d.faulted, std::vector<std::uint32_t>{2});
  const SimulateReportInput in{topology_, *names_, r, workers_, "dead"};
  const auto j = nlohmann::json::parse(simulate_json(in));
  std::vector<std::string> why(3);
  for (const auto& u : j.at("unfinished")) {
    const auto f = u.at("flow").get<std::size_t>();
    if (f < 3) why[f] = u.at("why").get<std::string>();
  }
  EXPECT_TRUE(why[0].starts_with("in the credit loop")) << why[0];
  EXPECT_TRUE(why[1].starts_with("blocked behind the credit loop")) << why[1];
  EXPECT_TRUE(why[2].starts_with("stalled at 1.000 us: its path failed")) << why[2];
  EXPECT_EQ(j.at("packet").at("deadlock_flows").at("fault"), nlohmann::json::array({2}));
  EXPECT_NE(simulate_text(in).find("stopped by a fault (their path failed): 1 flow(s): 2\n"), std::string::npos);
}

TEST_F(SimulateReportTest, TextNamesTheOperationAndTheBottlenecks) {
  const std::string text = simulate_text(*in_);
  EXPECT_NE(text.find("all-reduce ring"), std::string::npos);
  EXPECT_NE(text.find("50.00"), std::string::npos);  // busbw
  EXPECT_NE(text.find("Top bottleneck links"), std::string::npos);
}

TEST(SimulateReport, ConstraintNames) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 8;
  ResourceInfo nv;
  nv.kind = ResourceKind::kNvlinkIn;
  nv.gpu = 11;
  const NameDirectory names(t);
  EXPECT_EQ(resource_name(names, nv), "host1/gpu3 nvlink in");
  ResourceInfo down;
  down.kind = ResourceKind::kLinkDown;
  down.link = LinkId(2);
  EXPECT_EQ(resource_name(names, down), "p0/leaf/0 -- p0/spine/0 down");
}

// Parallel cables are told apart by one name everywhere (item 3 of issue 26's review): two_tier(1, 2, 1, 3) has
// host link 0, then leaf 0 - spine 0 over links 1, 2, 3 and leaf 0 - spine 1 over 4, 5, 6; link 5
// is the second cable to spine 1: "#1". A single cable (the NIC's) has no suffix. The name is read
// back by the directory to the same cable.
TEST(SimulateReport, ParallelCablesNamedApart) {
  const Topology t = fixtures::two_tier(1, 2, 1, 3);
  const NameDirectory names(t);
  ResourceInfo up;
  up.kind = ResourceKind::kLinkUp;
  up.link = LinkId(5);
  EXPECT_EQ(resource_name(names, up), "p0/leaf/0 -- p0/spine/1 #1 up");
  up.link = LinkId(1);
  EXPECT_EQ(resource_name(names, up), "p0/leaf/0 -- p0/spine/0 #0 up");
  up.link = LinkId(0);
  EXPECT_EQ(resource_name(names, up), "host0/nic0 -- p0/leaf/0 up");
  // Every printed name, pasted back whole, is that one cable.
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    const std::string name = names.cable_name(LinkId(l));
    const auto joined = names.links(name, {"test", 0, 0}, "link");
    ASSERT_TRUE(joined.ok()) << name;
    EXPECT_EQ(joined.value(), std::vector<LinkId>{LinkId(l)}) << name;
  }
  // Without '#k' the name is the whole bundle, as before; past the bundle is an error with its size.
  const auto bundle = names.links("p0/leaf/0 -- p0/spine/1", {"test", 0, 0}, "link");
  ASSERT_TRUE(bundle.ok());
  EXPECT_EQ(bundle->size(), 3U);
  const auto past = names.links("p0/leaf/0 -- p0/spine/1 #3", {"test", 0, 0}, "link");
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.errors().front().message.find("cable #3 does not exist (3 cable(s) join them, #0..#2)"),
            std::string::npos)
      << past.errors().front().message;
  EXPECT_FALSE(names.links("p0/leaf/0 -- p0/spine/1 #x", {"test", 0, 0}, "link").ok());
}

}  // namespace
}  // namespace ct
