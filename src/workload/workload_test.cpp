// Snapshots of compiled workloads (workload/workload_compiler.h) on the tiniest fabrics, every
// flow, byte count, hop and dependency worked out by hand.
#include "workload/workload_compiler.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "traffic/flow.h"

namespace ct {
namespace {

Fabric one_gpu_hosts(std::uint32_t leaves, std::uint32_t hosts_per_leaf) {
  Topology t = fixtures::two_tier(leaves, 1, hosts_per_leaf);
  t.gpus_per_host = 1;
  return fixtures::fixture_fabric(std::move(t));
}

CollectiveSpec collective(CollectiveAlgorithm algorithm, std::uint32_t iterations = 1, TimePs compute = TimePs(0)) {
  CollectiveSpec c;
  c.name = "ar";
  c.algorithm = algorithm;
  c.model = CollectiveModel::kStepwise;  // step by step: the plans of traffic/collective.h as they are
  c.bytes = Bytes(1000);
  c.groups = {{0, 1}};
  c.iterations = iterations;
  c.compute = compute;
  return c;
}

std::vector<std::uint32_t> after(const Workload& w, std::uint32_t f) {
  const auto a = w.after_of(f);
  return {a.begin(), a.end()};
}

// Ring all-reduce of S = 1000 B over 2 GPUs, one per host, both hosts on one leaf (ports 0 and 1,
// NIC links 0 and 1): one channel (1 plane x 1 rail), one QP (routing.qps_per_connection 1).
// The ring has 2(n-1) = 2 steps of S/n = 500 B each way:
//   step 0 (reduce-scatter)  f0: gpu0 -> gpu1, f1: gpu1 -> gpu0, waiting for nothing;
//   step 1 (all-gather)      f2: gpu0 -> gpu1, f3: gpu1 -> gpu0, each waiting for its ranks'
//                            step-0 transfers in and out: f0 and f1.
// Every flow is a network flow from port src to port dst (no PXN: one rail), routed with its
// step (batches [0, 2) and [2, 4)). Iteration 1 (compute 5 us): f4, f5 wait for the final
// transfers of both their ranks (f2, f3 for rank 0, then f2, f3 for rank 1) plus 5 us; iteration 0
// starts at 5 us.
TEST(Workload, RingAllReduceOnTwoHosts) {
  const Fabric fabric = one_gpu_hosts(1, 2);
  Scenario s;
  s.collectives.push_back(collective(CollectiveAlgorithm::kRing, 2, TimePs(5'000'000)));
  auto compiled = compile_workload(fabric, s);
  ASSERT_TRUE(compiled.ok()) << format_diagnostics(compiled.errors());
  const Workload& w = compiled.value();
  ASSERT_EQ(w.flows.size(), 8u);
  EXPECT_EQ(w.batch_begin, (std::vector<std::uint32_t>{0, 2, 4, 6, 8}));
  EXPECT_TRUE(w.hops.empty());
  const std::uint32_t src[] = {0, 1, 0, 1, 0, 1, 0, 1};
  for (std::uint32_t f = 0; f < 8; ++f) {
    const WorkloadFlow& x = w.flows[f];
    EXPECT_EQ(x.bytes, Bytes(500)) << f;
    EXPECT_EQ(x.src_gpu, src[f]) << f;
    EXPECT_EQ(x.dst_gpu, 1 - src[f]) << f;
    EXPECT_EQ(x.src_port, VertexId(src[f])) << f;
    EXPECT_EQ(x.dst_port, VertexId(1 - src[f])) << f;
    EXPECT_EQ(x.via_gpu, kNoGpu) << f;
    EXPECT_TRUE(x.routed) << f;
    EXPECT_FALSE(x.join) << f;
    EXPECT_EQ(x.step, (f / 2) % 2) << f;
    EXPECT_EQ(x.iteration, f / 4) << f;
    EXPECT_EQ(x.worker, src[f]) << f;
    EXPECT_GE(x.src_udp_port, kRoceSourcePortMin) << f;
    // One connection per direction: every step and iteration of it hashes alike.
    EXPECT_EQ(x.src_udp_port, w.flows[src[f]].src_udp_port) << f;
  }
  EXPECT_EQ(w.flows[0].start, TimePs(5'000'000));
  EXPECT_EQ(w.flows[0].delay, TimePs(0));
  EXPECT_EQ(w.flows[4].start, TimePs(0));
  EXPECT_EQ(w.flows[4].delay, TimePs(5'000'000));
  EXPECT_TRUE(after(w, 0).empty());
  EXPECT_TRUE(after(w, 1).empty());
  EXPECT_EQ(after(w, 2), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(after(w, 3), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(after(w, 4), (std::vector<std::uint32_t>{2, 3, 2, 3}));
  EXPECT_EQ(after(w, 6), (std::vector<std::uint32_t>{4, 5}));
  ASSERT_EQ(w.operations.size(), 1u);
  const WorkloadOperation& op = w.operations[0];
  EXPECT_EQ(op.what, "all-reduce ring (stepwise)");
  EXPECT_EQ(op.ranks, 2u);
  EXPECT_DOUBLE_EQ(op.bus_factor, 1.0);  // 2(n-1)/n
  EXPECT_EQ(op.steps, 2u);
  EXPECT_EQ(op.total_steps, 2u);
  EXPECT_EQ(op.records_begin, 0u);
  EXPECT_EQ(op.records_end, 8u);
  ASSERT_EQ(w.workers.size(), 2u);
  EXPECT_EQ(w.workers[1].name, "host1/gpu0");
  EXPECT_EQ(w.workers[1].compute, TimePs(10'000'000));  // 2 iterations x 5 us
  EXPECT_TRUE(w.notes.empty());
}

// SHARP all-reduce of S = 1000 B over 2 GPUs on two leaves under one spine: ports 0, 1; leaves
// 2, 3; spine 4; links 0 (port 0 - leaf 2), 1 (port 1 - leaf 3), 2 (leaf 2 - spine), 3 (leaf 3 -
// spine). The climbs from leaf 2 (link 2) and leaf 3 (link 3) meet at the spine, so the tree is
// links 2 and 3. Flows, each S: NIC 0 up (gpu0 sends), NIC 0 down, NIC 1 up, NIC 1 down, link 2
// up and down, link 3 up and down, all at once (one batch); then the iteration's barrier, a join
// (no bytes, no hops) that waits for all 8 (its own batch).
TEST(Workload, SharpTreeOnTwoLeaves) {
  const Fabric fabric = one_gpu_hosts(2, 1);
  Scenario s;
  s.collectives.push_back(collective(CollectiveAlgorithm::kSharp));
  auto compiled = compile_workload(fabric, s);
  ASSERT_TRUE(compiled.ok()) << format_diagnostics(compiled.errors());
  const Workload& w = compiled.value();
  ASSERT_EQ(w.flows.size(), 9u);
  EXPECT_EQ(w.batch_begin, (std::vector<std::uint32_t>{0, 8, 9}));
  using K = HopKind;
  const Hop hops[] = {{K::kLinkUp, 0}, {K::kLinkDown, 0}, {K::kLinkUp, 1}, {K::kLinkDown, 1},
                      {K::kLinkUp, 2}, {K::kLinkDown, 2}, {K::kLinkUp, 3}, {K::kLinkDown, 3}};
  for (std::uint32_t f = 0; f < 8; ++f) {
    ASSERT_EQ(w.hops_of(f).size(), 1u) << f;
    EXPECT_EQ(w.hops_of(f)[0], hops[f]) << f;
    EXPECT_EQ(w.flows[f].bytes, Bytes(1000)) << f;
    EXPECT_FALSE(w.flows[f].routed) << f;
    EXPECT_TRUE(after(w, f).empty()) << f;
  }
  EXPECT_EQ(w.flows[0].src_gpu, 0u);
  EXPECT_EQ(w.flows[2].src_gpu, 1u);
  EXPECT_EQ(w.flows[1].src_gpu, kNoGpu);
  const WorkloadFlow& barrier = w.flows[8];
  EXPECT_TRUE(barrier.join);
  EXPECT_EQ(barrier.bytes, Bytes(0));
  EXPECT_TRUE(w.hops_of(8).empty());  // a join crosses nothing: no engine's barrier in the workload
  EXPECT_EQ(after(w, 8), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(w.operations[0].records_end, 8u);  // the barrier is not reported
  // Bound: every constraint carries S = 8,000 bits at 400 Gb/s: 20 ns.
  EXPECT_EQ(w.operations[0].bound, TimePs(20'000));
}

// Two GPUs of one host: the transfer is one NVLink flow (egress of gpu0, ingress of gpu1); without
// an NVLink figure in the catalog the compiler refuses it, naming the transfer.
TEST(Workload, TransferInsideAHostIsOneNvlinkFlow) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 2;
  Scenario s;
  TransferSpec x;
  x.name = "local";
  x.src.gpu = 0;
  x.dst.gpu = 1;
  x.bytes = Bytes(4096);
  s.transfers.push_back(x);
  auto with = compile_workload(fixtures::fixture_fabric(t, 900e9), s);
  ASSERT_TRUE(with.ok()) << format_diagnostics(with.errors());
  ASSERT_EQ(with->flows.size(), 1u);
  EXPECT_EQ(with->hops, (std::vector<Hop>{{HopKind::kNvlinkOut, 0}, {HopKind::kNvlinkIn, 1}}));
  EXPECT_EQ(with->flows[0].bytes, Bytes(4096));
  auto without = compile_workload(fixtures::fixture_fabric(t), s);
  ASSERT_FALSE(without.ok());
  EXPECT_NE(without.errors()[0].message.find("transfer 'local'"), std::string::npos);
}

// Transfers in two groups, interleaved, senders repeated. Phases come in the order their groups
// first appear ("b" then "a"); a phase's workers are its distinct senders in the order they first
// send in it:
//   t0 b: gpu0 -> gpu1   phase 0, worker 0 (host0/gpu0)
//   t1 a: gpu2 -> gpu3   phase 1, worker 2 (host2/gpu0)
//   t2 b: gpu1 -> gpu0   phase 0, worker 1 (host1/gpu0)
//   t3 b: gpu0 -> gpu2   phase 0, worker 0 again
//   t4 a: gpu2 -> gpu0   phase 1, worker 2 again
//   t5 a: gpu3 -> gpu1   phase 1, worker 3 (host3/gpu0)
// One plane, one QP: flow i is transfer i's only flow.
TEST(Workload, TransferGroupsArePhasesAndTheirSendersWorkers) {
  Topology t = fixtures::two_tier(1, 1, 4);
  t.gpus_per_host = 1;
  Scenario s;
  const std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t>> transfers = {
      {"b", 0, 1}, {"a", 2, 3}, {"b", 1, 0}, {"b", 0, 2}, {"a", 2, 0}, {"a", 3, 1}};
  for (const auto& [group, src, dst] : transfers) {
    TransferSpec x;
    x.name = "t" + std::to_string(s.transfers.size());
    x.src.gpu = src;
    x.dst.gpu = dst;
    x.bytes = Bytes(1000);
    x.group = group;
    s.transfers.push_back(x);
  }
  auto compiled = compile_workload(fixtures::fixture_fabric(t), s);
  ASSERT_TRUE(compiled.ok()) << format_diagnostics(compiled.errors());
  const Workload& w = compiled.value();
  ASSERT_EQ(w.phases.size(), 2u);
  EXPECT_EQ(w.phases[0].name, "b");
  EXPECT_EQ(w.phases[1].name, "a");
  EXPECT_EQ(std::make_pair(w.phases[0].workers_begin, w.phases[0].workers_end), std::make_pair(0u, 2u));
  EXPECT_EQ(std::make_pair(w.phases[1].workers_begin, w.phases[1].workers_end), std::make_pair(2u, 4u));
  ASSERT_EQ(w.workers.size(), 4u);
  const std::vector<std::pair<std::string, std::uint32_t>> workers = {
      {"host0/gpu0", 0}, {"host1/gpu0", 0}, {"host2/gpu0", 1}, {"host3/gpu0", 1}};
  for (std::size_t k = 0; k < workers.size(); ++k) {
    EXPECT_EQ(w.workers[k].name, workers[k].first) << k;
    EXPECT_EQ(w.workers[k].phase, workers[k].second) << k;
  }
  ASSERT_EQ(w.flows.size(), 6u);
  ASSERT_EQ(w.operations.size(), 6u);
  const std::uint32_t worker[] = {0, 2, 1, 0, 2, 3};
  const std::uint32_t phase[] = {0, 1, 0, 0, 1, 1};
  for (std::uint32_t i = 0; i < 6; ++i) {
    EXPECT_EQ(w.flows[i].operation, i);
    EXPECT_EQ(w.flows[i].worker, worker[i]) << "flow " << i;
    EXPECT_EQ(w.operations[i].phase, phase[i]) << "operation " << i;
  }
}

Scenario one_transfer(std::uint32_t channels) {
  Scenario s;
  TransferSpec x;
  x.name = "x";
  x.src.gpu = 0;
  x.dst.gpu = 1;
  x.bytes = Bytes(1LL << 30);
  x.channels = channels;
  s.transfers.push_back(x);
  return s;
}

std::set<std::uint16_t> ports_of(const Workload& w) {
  std::set<std::uint16_t> ports;
  for (const WorkloadFlow& f : w.flows) ports.insert(f.src_udp_port);
  return ports;
}

// Issue 9's case: routing.qps_per_connection 128 and one two-channel transfer on one plane. Both
// channels leave and arrive on the same ports, so the 256 QPs differ only by source port; packed
// stream ids made ch0/qp108 and ch1/qp44 the same stream, hence the same port, for 64 pairs. Drawn
// without replacement they are 256 distinct ports.
TEST(Workload, QpsOfOneConnectionNeverShareAFiveTuple) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 1;
  EcmpConfig ecmp;
  ecmp.qps_per_connection = 128;
  auto compiled = compile_workload(fixtures::fixture_fabric(t, std::nullopt, ecmp), one_transfer(2));
  ASSERT_TRUE(compiled.ok()) << format_diagnostics(compiled.errors());
  const Workload& w = compiled.value();
  ASSERT_EQ(w.flows.size(), 256u);
  for (const WorkloadFlow& f : w.flows) {
    EXPECT_EQ(f.src_port, VertexId(0u));
    EXPECT_EQ(f.dst_port, VertexId(1u));
  }
  EXPECT_EQ(ports_of(w).size(), 256u);
  EXPECT_NE(w.flows[108].src_udp_port, w.flows[128 + 44].src_udp_port);
}

// The most QPs one connection can have with distinct 5-tuples is the number of RoCEv2 source
// ports, 16,384: there every port of 0xC000..0xFFFF is used exactly once. One more is refused,
// naming the setting to lower.
TEST(Workload, QpsUpToThePortRangeAreAllDistinctBeyondAreRefused) {
  Topology t = fixtures::two_tier(1, 1, 2);
  t.gpus_per_host = 1;
  EcmpConfig ecmp;
  ecmp.qps_per_connection = static_cast<int>(kRoceSourcePorts);
  auto full = compile_workload(fixtures::fixture_fabric(t, std::nullopt, ecmp), one_transfer(1));
  ASSERT_TRUE(full.ok()) << format_diagnostics(full.errors());
  const std::set<std::uint16_t> ports = ports_of(full.value());
  EXPECT_EQ(ports.size(), kRoceSourcePorts);
  EXPECT_EQ(*ports.begin(), kRoceSourcePortMin);
  EXPECT_EQ(*ports.rbegin(), 0xFFFF);
  ecmp.qps_per_connection = static_cast<int>(kRoceSourcePorts) + 1;
  auto over = compile_workload(fixtures::fixture_fabric(t, std::nullopt, ecmp), one_transfer(1));
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.errors()[0].message.find("routing.qps_per_connection"), std::string::npos);
  ecmp.qps_per_connection = 64;  // 64 channels x 64 QPs = 4,096 (the scenario limits) fit
  auto most = compile_workload(fixtures::fixture_fabric(t, std::nullopt, ecmp), one_transfer(64));
  ASSERT_TRUE(most.ok());
  EXPECT_EQ(ports_of(most.value()).size(), 4096u);
}

}  // namespace
}  // namespace ct
