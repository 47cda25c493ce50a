// Scenario weights reach the engine: the scenario's `weight:` of a transfer is the max-min weight
// of its flows (sim/flow/flow_simulation.h, traffic/scenario.h), through simulate() (sim/simulation.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "support/fixture_fabric.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "workload/workload_compiler.h"

namespace ct {
namespace {

constexpr std::int64_t kGiB = 1LL << 30;

TransferSpec transfer(const char* name, std::uint32_t src, std::uint32_t dst, double weight) {
  TransferSpec x;
  x.name = name;
  x.src.gpu = src;
  x.dst.gpu = dst;
  x.bytes = Bytes(kGiB);
  x.weight = weight;
  return x;
}

// Two transfers of 1 GiB = 2^33 bits from GPU 0 (host 0) to hosts 1 and 2 of the same leaf share
// host 0's 400 Gb/s NIC link, weights 3 and 1 (one plane, one QP each). Three times
// the weight, three times the share: 300 and 100 Gb/s. The heavy one ends at 2^33 / 300e9 s =
// 28,633,115,306.67 ps (rounded to the engine's integer picoseconds); by then the light one has
// sent a third of its bits, and the remaining 2/3 x 2^33 bits at the full 400 Gb/s take
// 14,316,557,653.3 ps more: 42,949,672,960 ps in all, the same as both at 200 Gb/s would end
// (the link is busy throughout). Unweighted, both end together at 42,949,672,960 ps.
TEST(FlowWeights, ThreeTimesTheWeightThreeTimesTheShare) {
  Topology t = fixtures::two_tier(1, 1, 3);
  t.gpus_per_host = 1;
  Scenario s;
  s.transfers.push_back(transfer("heavy", 0, 1, 3.0));
  s.transfers.push_back(transfer("light", 0, 2, 1.0));
  const Fabric fabric = fixtures::fixture_fabric(t);
  auto r = simulate(fabric, s);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const double heavy = to_seconds(r->operations[0].iterations[0].end);
  const double light = to_seconds(r->operations[1].iterations[0].end);
  EXPECT_NEAR(heavy, 8.0 * kGiB / 300e9, 1e-12);
  EXPECT_NEAR(light, 8.0 * kGiB / 400e9 * 2, 1e-12);
  EXPECT_DOUBLE_EQ(r->flows[0].weight, 3.0);

  s.transfers[0].weight = 1.0;
  auto even = simulate(fabric, s);
  ASSERT_TRUE(even.ok());
  EXPECT_EQ(even->operations[0].iterations[0].end, even->operations[1].iterations[0].end);
  EXPECT_NEAR(to_seconds(even->operations[0].iterations[0].end), 8.0 * kGiB / 400e9 * 2, 1e-12);
}

template <typename F>
constexpr bool kHasWeight = requires(const F& f) { f.weight; };

// The weights are the flow engine's alone (issue 26: the workload keeps no fluid-only field): a
// workload flow has no weight; compile_workload hands them apart, one per flow. The scenario of
// the test above plus a pipelined halving-doubling all-reduce of weight 2 over GPUs 0..3 (one per
// host; traffic/collective.h: rank r streams S/2 to r xor 2 at share 1 and S/4 to r xor 1 at share
// 1/2): flows in order, the collective's first (8 flows: per rank its two rounds), so weights 2 and
// 1, four of each, then the transfers' 3 and 1. Both engines report the weights (the flows CSV
// reads them back), only the flow engine shares by them: the two transfers alone, 1 MiB each,
// end under it at 2^23 / 300e9 s (heavy) and 2 x 2^23 / 400e9 s (light); the packet engine sends
// their 256 packets of 4 KiB each in turn from the one NIC port, weights or not: the heavy one,
// started first and alone for its first packet, sends packets 0 and 1 in slots 0 and 1, then
// they alternate (heavy's packet k in slot 2k - 1, light's j in 2j + 2); heavy's last leaves in
// slot 509, light's two slots later, in 511: the light one ends 2 x 4096 x 8 / 400e9 s =
// 163.84 ns after the heavy one (the same path lengths), not the fluid 13.98 us.
TEST(FlowWeights, TheWorkloadCarriesNoneTheCompilerHandsThemApart) {
  static_assert(!kHasWeight<WorkloadFlow>, "the workload carries no max-min weight");
  Topology t = fixtures::two_tier(1, 1, 4);
  t.gpus_per_host = 1;
  Scenario s;
  CollectiveSpec c;
  c.name = "hd";
  c.algorithm = CollectiveAlgorithm::kHalvingDoubling;
  c.model = CollectiveModel::kPipelined;
  c.bytes = Bytes(1 << 20);
  c.groups = {{0, 1, 2, 3}};
  c.weight = 2.0;
  s.collectives.push_back(c);
  s.transfers.push_back(transfer("heavy", 0, 1, 3.0));
  s.transfers.push_back(transfer("light", 0, 2, 1.0));
  const Fabric fabric = fixtures::fixture_fabric(t);
  std::vector<double> weights;
  auto w = compile_workload(fabric, s, {}, &weights);
  ASSERT_TRUE(w.ok()) << format_diagnostics(w.errors());
  ASSERT_EQ(weights.size(), w->flows.size());
  ASSERT_EQ(weights.size(), 10u);
  EXPECT_EQ(std::count(weights.begin(), weights.begin() + 8, 2.0), 4);
  EXPECT_EQ(std::count(weights.begin(), weights.begin() + 8, 1.0), 4);
  EXPECT_EQ(weights[8], 3.0);
  EXPECT_EQ(weights[9], 1.0);

  s.collectives.clear();
  s.transfers[0].bytes = s.transfers[1].bytes = Bytes(1 << 20);
  auto flow = simulate(fabric, s);
  ASSERT_TRUE(flow.ok()) << format_diagnostics(flow.errors());
  EXPECT_EQ(flow->flows[0].weight, 3.0);
  EXPECT_EQ(flow->flows[1].weight, 1.0);
  const TimePs latency = flow->flows[0].end - TimePs(std::llround(8.0 * (1 << 20) / 300e9 * 1e12));
  EXPECT_LT(std::abs(latency.value()), 100'000);  // path latency, well under 0.1 us
  EXPECT_NEAR(to_seconds(flow->flows[1].end - flow->flows[0].end), 8.0 * (1 << 20) * (2 / 400e9 - 1 / 300e9), 1e-11);
  SimulationOptions packet;
  packet.engine = EngineKind::kPacket;
  packet.packet.switch_latency = TimePs(0);
  packet.packet.buffer_bytes = 1 << 20;
  packet.packet.cut_through = false;
  auto packets = simulate(fabric, s, packet);
  ASSERT_TRUE(packets.ok()) << format_diagnostics(packets.errors());
  EXPECT_EQ(packets->flows[0].weight, 3.0);
  EXPECT_EQ(packets->flows[1].end - packets->flows[0].end, TimePs(163'840));
}

}  // namespace
}  // namespace ct
