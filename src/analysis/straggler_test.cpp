// The straggler story (analysis/straggler.h): "three identical transfers, one degraded path, and 32
// percent of the workers' time gone".
#include "analysis/straggler.h"

#include <gtest/gtest.h>

#include "support/fixture_fabric.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/faults.h"

namespace ct {
namespace {

// Three workers, hosts 0, 1, 2 on one leaf, each send 1 GiB to hosts 3, 4, 5 at t = 0 over
// 400 Gb/s links; host 0's NIC link runs at fraction x of its speed (f = 1/x). The phase lasts
// f T; hosts 1 and 2 send for T and wait (f - 1) T; the share of the workers' time lost is
// 2(f - 1)/(3f) = 2(1 - x)/3: 32 % at x = 0.52, and it approaches a third as x falls.
double lost_share(double fraction) {
  Topology t = fixtures::two_tier(1, 1, 6);
  t.gpus_per_host = 1;
  Scenario s;
  for (std::uint32_t i = 0; i < 3; ++i) {
    TransferSpec x;
    x.name = "t" + std::to_string(i);
    x.src.gpu = i;
    x.dst.gpu = i + 3;
    x.bytes = Bytes(1LL << 30);
    x.group = "story";
    s.transfers.push_back(x);
  }
  s.faults.push_back(testing_support::degrade(LinkId(0), fraction));
  const auto r = simulate(fixtures::fixture_fabric(t), s);
  EXPECT_TRUE(r.ok());
  const WorkerAccount account = account_workers(r.value());
  EXPECT_EQ(account.workers.size(), 3U);
  EXPECT_EQ(account.phases.size(), 1U);
  return account.waiting_share;
}

TEST(Straggler, ThreeTransfersOneAtHalfSpeedLoseAThirdOfTheWorkersTime) {
  EXPECT_NEAR(straggler_loss(3, 1 / 0.52), 0.32, 1e-12);
  EXPECT_NEAR(lost_share(0.52), 0.32, 1e-6);
  for (const double x : {0.9, 0.75, 0.5, 0.25, 0.1}) {
    EXPECT_NEAR(lost_share(x), straggler_loss(3, 1 / x), 1e-6) << x;
  }
  EXPECT_NEAR(lost_share(1.0), 0.0, 1e-9);
}

// The closed form by hand: n = 4, f = 2 gives 3 x 1 / (4 x 2) = 0.375; f = 1 loses nothing.
TEST(Straggler, ClosedFormByHand) {
  EXPECT_DOUBLE_EQ(straggler_loss(4, 2.0), 0.375);
  EXPECT_DOUBLE_EQ(straggler_loss(3, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(straggler_loss(1, 5.0), 0.0);
}

// Worker accounting by hand: phase [0, 10) with compute 4; flows of the worker in flight over
// [4, 6) and [5, 8): sending = 4 (the union [4, 8)), waiting = 10 - 4 - 4 = 2.
TEST(Straggler, SendingIsTheUnionOfTheWorkersFlows) {
  SimulationResult r;
  r.phases.push_back({"p", TimePs(0), TimePs(10), 0, 1});
  r.workers.push_back({"w", 0, TimePs(4)});
  FlowRecord a;
  a.worker = 0;
  a.start = TimePs(4);
  a.end = TimePs(6);
  FlowRecord b = a;
  b.start = TimePs(5);
  b.end = TimePs(8);
  r.flows = {a, b};
  const WorkerAccount account = account_workers(r);
  ASSERT_EQ(account.workers.size(), 1U);
  EXPECT_EQ(account.workers[0].sending, TimePs(4));
  EXPECT_EQ(account.workers[0].waiting, TimePs(2));
  EXPECT_DOUBLE_EQ(account.waiting_share, 0.2);
  EXPECT_DOUBLE_EQ(account.network_share, 0.6);
}

}  // namespace
}  // namespace ct
