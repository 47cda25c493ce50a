// Pipelined against stepwise collectives, and both against the closed forms, worked by hand
// (traffic/collective.h "Models", workload/workload_compiler.h). Links are 400 Gb/s (B), S = 1 GiB.
//
// Fixture A: 8 hosts with one GPU each, 4 on each of 2 leaves. S/B = 2^33 bits / 4e11
// = 21,474,836,480 ps.
//
// Ring all-reduce, n = 8, 2 spines, 500 ns per link, ECMP: every ring edge has its own NIC links and
// the two leaf-crossing edges (3 -> 4, 7 -> 0) leave from different leaves, so no two edges share a
// link. A path inside a leaf has 2 links (1 us), across 4 (2 us). Shards S/8 = 2^27 B.
//   stepwise: 2(n-1) = 14 steps of S/8 each at B, every step waiting for the previous one's last
//   byte and latency; rank 3 crosses leaves at every step: 14 x (S/8B + 2 us)
//     = 14 x (2,684,354,560 + 2,000,000) = 37,608,963,840 ps.
//   pipelined: every edge streams 2(n-1)/n x S = 1.75 GiB at once, each on its own NIC links:
//     1.75 S/B + 2 us = 37,580,963,840 + 2,000,000 = 37,582,963,840 ps.
//   Both are the closed form 2(n-1)/n x S/B = 37,580,963,840 ps plus latency: busbw = S/t x 2(n-1)/n
//   = B = 50 GB/s within the latency terms (13 x 2 us apart).
// Halving-doubling, n = 8, 4 spines (non-blocking), no latency, paths sprayed (each crossing flow
// puts 1/4 of its rate on each spine: no collisions). Partners at distance 4 (across the leaves),
// 2, 1.
//   stepwise: reduce-scatter S/2, S/4, S/8, all-gather S/8, S/4, S/2, each step alone at B:
//     1.75 S/B = 37,580,963,840 ps.
//   pipelined: rank r streams S to r^4, S/2 to r^2, S/4 to r^1 at once, weighted 4:2:1 by their
//     bytes (chunks cross every round at one pace), so its NIC stays busy and all three finish when
//     its 1.75 S are out: 1.75 S/B = 37,580,963,840 ps, the same.
//
// Fixture B: examples/lab-32.yaml, 32 HGX H100 (256 GPUs, 8 rails, one 400G NIC per GPU, one leaf
// per rail, NVLink 900 GB/s per GPU = 450 GB/s each way), 8 channels (one per rail), S_c = S/8.
//   ring (pipelined): each NIC port carries one channel's ring edge, 2(n-1)/n x S_c
//     = 2 x 255/256 x 2^27 B at B: 5,347,737,600 ps (t_ring); each GPU's NVLink egress carries
//     2(n-1)/n x S at 450 GB/s = 4.754 ms, not the bottleneck. busbw = S/t x 2(n-1)/n = 8 x B / 8 bits
//     = 400 GB/s.
//   sharp (pipelined, NCCL's NVLS + switch SHARP): each NIC port carries S_c = 2^27 B up and down:
//     2^30 bits / 4e11 = 2,684,354,560 ps; NVLink S each way per GPU at 450 GB/s = 2,386,092,942 ps;
//     the owners of a channel sit on one leaf (its rail), so the tree is that leaf and adds no edge.
//     t_sharp = 2,684,354,560 ps + one link's latency; busbw = S/t x 2(n-1)/n = 400 GB/s x 510/256
//     = 796.875 GB/s: about twice the ring's, because each byte crosses a NIC link once each way
//     instead of 2(n-1)/n times.
//   sharp (stepwise): NVLink reduction (egress 7/8 S = 2,087,831,324 ps), the tree
//     (2,684,354,560 ps), NVLink broadcast (2,087,831,324 ps) one after the other: 6,860,017,208 ps.
//
// Fixture C: 2 hosts x G = 4 GPUs (N = 2 nodes, n = 8 ranks), one 400G NIC per GPU on its own rail
// (rail r: leaf r, holding NIC r of both hosts; one spine), 500 ns per link, NVLink 900 GB/s per
// GPU = 450 GB/s = 3.6e12 b/s each way (B_nvl), no NVLink latency. Hierarchical all-reduce, one
// channel, S = 1 GiB. The closed form of the 2D (hierarchical) all-reduce, bandwidth terms:
//   T_intra = 2(G-1)/G x S / B_nvl  (reduce-scatter then all-gather around each node's ring of G)
//           = 1.5 x 2^33 / 3.6e12 s = 3,579,139,413.3 ps,
//   T_inter = 2(N-1)/N x (S/G) / B  (a ring all-reduce of each rank's shard S/G across the N nodes,
//             on the rank's own rail: the partner has the same local index, so no PXN hop)
//           = 2^31 / 4e11 s = 5,368,709,120 ps.
//   stepwise: the phases one after the other, each step alone on its constraints: G-1 NVLink
//     steps of S/G (596,523,235.6 ps each), 2(N-1) = 2 network steps of S/(GN) (2,684,354,560 ps
//     each, plus the path host -> leaf -> host, 2 x 500 ns = 1 us), G-1 NVLink steps:
//     T_intra + T_inter + 2 us = 8,949,848,533.3 ps.
//   pipelined: the intra-node ring edges (2(G-1)/G x S on NVLink) and the inter-node ring edges
//     (2(N-1)/N x S/G on the NIC) stream at once on different constraints, so the slower phase
//     sets the time: max(T_intra, T_inter) + 1 us = 5,369,709,120 ps.
//   Both are the closed form within their latency terms; pipelined overlaps the phases (NVLink
//   and network work at once, as NCCL's channels do), stepwise adds them.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/simulation.h"
#include "traffic/scenario_parser.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"

namespace ct {
namespace {

constexpr std::int64_t kGiB = 1LL << 30;

Topology fixture_a(std::uint32_t spines, TimePs latency) {
  Topology t = fixtures::two_tier(2, spines, 4);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = latency;
  return t;
}

Scenario all_reduce(CollectiveAlgorithm a, CollectiveModel m, std::uint32_t gpus, PathModel paths) {
  CollectiveSpec c;
  c.name = "c";
  c.algorithm = a;
  c.model = m;
  c.bytes = Bytes(kGiB);
  c.groups.emplace_back();
  for (std::uint32_t g = 0; g < gpus; ++g) c.groups.back().push_back(g);
  Scenario s;
  s.paths = paths;
  s.collectives.push_back(c);
  return s;
}

SimulationResult run(const Fabric& fabric, const Scenario& s) {
  auto r = simulate(fabric, s);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  return r.ok() ? std::move(r).value() : SimulationResult{};
}

std::int64_t took(const SimulationResult& r) {
  const IterationSpan& it = r.operations.at(0).iterations.at(0);
  return (it.end - it.start).value();
}

TEST(CollectiveModel, RingPipelinedAndStepwiseMatchTheClosedForm) {
  const Fabric fabric = fixtures::fixture_fabric(fixture_a(2, nanoseconds(500)));
  const SimulationResult stepwise =
      run(fabric, all_reduce(CollectiveAlgorithm::kRing, CollectiveModel::kStepwise, 8, PathModel::kEcmp));
  const SimulationResult pipelined =
      run(fabric, all_reduce(CollectiveAlgorithm::kRing, CollectiveModel::kPipelined, 8, PathModel::kEcmp));
  EXPECT_NEAR(static_cast<double>(took(stepwise)), 37'608'963'840.0, 14.0);
  EXPECT_NEAR(static_cast<double>(took(pipelined)), 37'582'963'840.0, 2.0);
  EXPECT_EQ(stepwise.flows.size(), 14U * 8U);
  EXPECT_EQ(pipelined.flows.size(), 8U);  // one per ring edge
  // The bound is the closed form's bandwidth term for both: 1.75 S/B.
  EXPECT_NEAR(static_cast<double>(pipelined.operations[0].bound.value()), 37'580'963'840.0, 2.0);
  EXPECT_NEAR(static_cast<double>(stepwise.operations[0].bound.value()), 37'580'963'840.0, 14.0);
  EXPECT_FALSE(pipelined.operations[0].collision_dominated);
}

TEST(CollectiveModel, HalvingDoublingPipelinedAndStepwiseMatchTheClosedForm) {
  const Fabric fabric = fixtures::fixture_fabric(fixture_a(4, TimePs(0)));
  const SimulationResult stepwise =
      run(fabric, all_reduce(CollectiveAlgorithm::kHalvingDoubling, CollectiveModel::kStepwise, 8, PathModel::kSpray));
  const SimulationResult pipelined =
      run(fabric, all_reduce(CollectiveAlgorithm::kHalvingDoubling, CollectiveModel::kPipelined, 8, PathModel::kSpray));
  EXPECT_NEAR(static_cast<double>(took(stepwise)), 37'580'963'840.0, 6.0);
  EXPECT_NEAR(static_cast<double>(took(pipelined)), 37'580'963'840.0, 3.0);
  EXPECT_NEAR(static_cast<double>(pipelined.operations[0].bound.value()), 37'580'963'840.0, 3.0);
  EXPECT_EQ(pipelined.flows.size(), 3U * 8U);  // one per (rank, round)
}

TEST(CollectiveModel, HierarchicalPipelinedAndStepwiseMatchTheClosedForm) {
  Topology t = fixtures::rail_two_tier(2, 4, 1);
  t.gpus_per_host = 4;
  for (auto& l : t.latency) l = nanoseconds(500);
  const Fabric fabric = fixtures::fixture_fabric(t, 900e9);
  const SimulationResult stepwise = run(
      fabric, all_reduce(CollectiveAlgorithm::kHierarchical, CollectiveModel::kStepwise, 8, PathModel::kEcmp));
  const SimulationResult pipelined = run(
      fabric, all_reduce(CollectiveAlgorithm::kHierarchical, CollectiveModel::kPipelined, 8, PathModel::kEcmp));
  const double t_intra = 1.5 * 8589934592.0 / 3.6e12 * 1e12;  // 3,579,139,413.3 ps
  const double t_inter = 5'368'709'120.0;
  EXPECT_NEAR(static_cast<double>(took(stepwise)), 8'949'848'533.3, 8.0);
  EXPECT_NEAR(static_cast<double>(took(stepwise)), t_intra + t_inter + 2e6, 8.0);
  EXPECT_NEAR(static_cast<double>(took(pipelined)), 5'369'709'120.0, 2.0);
  EXPECT_NEAR(static_cast<double>(took(pipelined)), std::max(t_intra, t_inter) + 1e6, 2.0);
  // The bound is the bandwidth terms: added stepwise, the largest pipelined.
  EXPECT_NEAR(static_cast<double>(stepwise.operations[0].bound.value()), t_intra + t_inter, 8.0);
  EXPECT_NEAR(static_cast<double>(pipelined.operations[0].bound.value()), t_inter, 2.0);
  EXPECT_EQ(pipelined.flows.size(), 16U);  // 8 intra-node ring edges, 8 inter-node ring edges
  EXPECT_EQ(stepwise.flows.size(), 8U * (2 * 3 + 2));
}

// Fixture B (lab-32): SHARP as NCCL runs it beats the ring by about 2x and matches its closed form.
TEST(CollectiveModel, SharpBeatsTheRingOnLab32AndMatchesItsClosedForm) {
  auto built = build_fabric(fixtures::lab_spec(), fixtures::test_catalog());
  ASSERT_TRUE(built.ok());
  const Fabric& fabric = built.value();
  const SimulationResult ring = run(fabric, all_reduce(CollectiveAlgorithm::kRing, CollectiveModel::kPipelined, 256,
                                                       PathModel::kEcmp));
  const SimulationResult sharp = run(fabric, all_reduce(CollectiveAlgorithm::kSharp, CollectiveModel::kPipelined, 256,
                                                        PathModel::kEcmp));
  const SimulationResult staged = run(fabric, all_reduce(CollectiveAlgorithm::kSharp, CollectiveModel::kStepwise, 256,
                                                         PathModel::kEcmp));
  const double t_ring = static_cast<double>(took(ring));
  const double t_sharp = static_cast<double>(took(sharp));
  // Latencies of lab-32's cables are well under 1 us per path.
  EXPECT_NEAR(t_ring, 2.0 * 255 / 256 * (1LL << 27) * 8 / 400e9 * 1e12, 1e6);
  EXPECT_NEAR(t_sharp, 2'684'354'560.0, 1e6);
  EXPECT_NEAR(static_cast<double>(took(staged)), 6'860'017'208.0, 3e6);
  const double factor = 2.0 * 255 / 256;
  const double busbw_ring = static_cast<double>(kGiB) / (t_ring * 1e-12) * factor;
  const double busbw_sharp = static_cast<double>(kGiB) / (t_sharp * 1e-12) * factor;
  EXPECT_NEAR(busbw_ring / 1e9, 400.0, 0.1);
  EXPECT_NEAR(busbw_sharp / 1e9, 796.875, 0.3);
  EXPECT_GT(busbw_sharp, 1.9 * busbw_ring);
  EXPECT_NEAR(static_cast<double>(sharp.operations[0].bound.value()), 2'684'354'560.0, 1.0);
}

// The scenario field: `model:` read as written; `steps` without a model means stepwise (steps are
// the stepwise model's); `steps` with `model: pipelined` is an error at the collective's line;
// an unknown model names the field and suggests the closest.
TEST(CollectiveModel, ScenarioFieldSelectsTheModel) {
  auto built = build_fabric(fixtures::lab_spec(), fixtures::test_catalog());
  ASSERT_TRUE(built.ok());
  auto parse = [&](const std::string& fields) {
    return parse_scenario("m.yaml", "scenario:\n  collectives:\n    - {bytes: 1MiB" + fields + "}\n", built.value());
  };
  auto plain = parse("");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain.value().collectives[0].model, CollectiveModel::kPipelined);
  auto stepped = parse(", steps: 2");
  ASSERT_TRUE(stepped.ok());
  EXPECT_EQ(stepped.value().collectives[0].model, CollectiveModel::kStepwise);
  auto written = parse(", model: stepwise");
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(written.value().collectives[0].model, CollectiveModel::kStepwise);
  auto clash = parse(", model: pipelined, steps: 2");
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(format_diagnostics(clash.errors()).find("m.yaml:3"), std::string::npos) << format_diagnostics(clash.errors());
  EXPECT_NE(format_diagnostics(clash.errors()).find("stepwise"), std::string::npos);
  auto typo = parse(", model: stepwize");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(format_diagnostics(typo.errors()).find("scenario.collectives[0].model"), std::string::npos)
      << format_diagnostics(typo.errors());
  EXPECT_NE(format_diagnostics(typo.errors()).find("did you mean 'stepwise'"), std::string::npos);
}

}  // namespace
}  // namespace ct
