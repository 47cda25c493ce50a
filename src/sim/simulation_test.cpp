// simulate() chooses the engine (sim/engine.h): the flow engine by default and by name; the packet
// engine by name, refused (naming the figure) when neither the options nor the catalog give its
// switch figures. The same scenario through simulate() and
// through the stages it chains (check, compile, the flow engine's run, the collision check) gives
// the same result.
#include "sim/simulation.h"

#include <gtest/gtest.h>

#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "workload/workload_compiler.h"

namespace ct {
namespace {

Scenario one_transfer() {
  Scenario s;
  TransferSpec x;
  x.name = "x";
  x.src.gpu = 0;
  x.dst.gpu = 1;
  x.bytes = Bytes(1 << 20);
  s.transfers.push_back(x);
  return s;
}

TEST(Engines, NamesAndWhatIsBuilt) {
  EXPECT_EQ(parse_engine("flow"), EngineKind::kFlow);
  EXPECT_EQ(parse_engine("packet"), EngineKind::kPacket);
  EXPECT_FALSE(parse_engine("fluid").has_value());
  EXPECT_EQ(engine_name(EngineKind::kPacket), "packet");
  EXPECT_TRUE(engine_built(EngineKind::kFlow));
  EXPECT_TRUE(engine_built(EngineKind::kPacket));
}

TEST(Engines, PacketNeedsSwitchFiguresFlowRunsTheStages) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 1;
  const Fabric fabric = fixtures::fixture_fabric(t);
  const Scenario s = one_transfer();
  SimulationOptions packet;
  packet.engine = EngineKind::kPacket;
  auto refused = simulate(fabric, s, packet);
  ASSERT_FALSE(refused.ok());
  ASSERT_EQ(refused.errors().size(), 1u);
  EXPECT_EQ(refused.errors()[0].field, "engine");
  EXPECT_NE(refused.errors()[0].message.find("packet engine needs the switches' port-to-port latency"), std::string::npos);

  auto whole = simulate(fabric, s);
  ASSERT_TRUE(whole.ok()) << format_diagnostics(whole.errors());
  auto workload = compile_workload(fabric, s);
  ASSERT_TRUE(workload.ok());
  EXPECT_FALSE(run_engine(fabric, s, workload.value(), packet).ok());
  auto staged = run_engine(fabric, s, workload.value());
  ASSERT_TRUE(staged.ok());
  EXPECT_EQ(staged->makespan, whole->makespan);
  EXPECT_GT(whole->makespan, TimePs(0));
  ASSERT_EQ(staged->flows.size(), 1u);
  EXPECT_EQ(staged->flows[0].end, whole->flows[0].end);
}

}  // namespace
}  // namespace ct
