// Hand-computed tests of the collective decompositions (traffic/collective.h).
#include "traffic/collective.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <vector>

namespace ct {
namespace {

CollectiveShape shape(CollectiveKind kind, CollectiveAlgorithm algorithm, std::int64_t bytes,
                      std::vector<std::uint32_t> nodes, std::uint32_t channels = 1) {
  CollectiveShape s;
  s.kind = kind;
  s.algorithm = algorithm;
  s.model = CollectiveModel::kStepwise;  // the step-by-step plans; pipelined ones below
  s.bytes = Bytes(bytes);
  s.channels = channels;
  s.node_of_rank = std::move(nodes);
  return s;
}

std::vector<std::uint32_t> one_per_node(std::uint32_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0U);
  return v;
}

// Bytes each rank sends in total.
std::vector<std::int64_t> sent_per_rank(const CollectivePlan& p) {
  std::vector<std::int64_t> sent(p.ranks, 0);
  for (const CollectiveTransfer& t : p.transfers) sent[t.src] += t.bytes.value();
  return sent;
}

// Ring all-reduce of S = 4,000 B over n = 4 ranks: 2(n-1) = 6 steps of n = 4 transfers, each a
// shard of S/n = 1,000 B, rank i to i+1 mod 4; every rank sends 2(n-1)/n x S = 6,000 B. At step 2
// rank 1 sends shard (1 - 2) mod 4 = 3 after both transfers of its step 1: 0 -> 1 and 1 -> 2.
TEST(Collective, RingAllReduceHas2NMinus1StepsOfOneShard) {
  const CollectivePlan p = plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4000, one_per_node(4)));
  EXPECT_EQ(p.steps, 6U);
  ASSERT_EQ(p.transfers.size(), 24U);
  for (const CollectiveTransfer& t : p.transfers) {
    EXPECT_EQ(t.dst, (t.src + 1) % 4);
    EXPECT_EQ(t.bytes, Bytes(1000));
  }
  for (const std::int64_t s : sent_per_rank(p)) EXPECT_EQ(s, 6000);
  // Transfers are in (step, channel, src) order: step 2, rank 1 is index 2 * 4 + 1.
  const std::uint32_t t = 2 * 4 + 1;
  ASSERT_EQ(p.transfers[t].step, 2U);
  ASSERT_EQ(p.transfers[t].src, 1U);
  const auto after = p.after(t);
  ASSERT_EQ(after.size(), 2U);
  EXPECT_EQ(p.transfers[after[0]].src, 0U);  // 0 -> 1 at step 1
  EXPECT_EQ(p.transfers[after[0]].step, 1U);
  EXPECT_EQ(p.transfers[after[1]].src, 1U);  // 1 -> 2 at step 1
  EXPECT_EQ(p.transfers[after[1]].step, 1U);
  // Step 0 waits for nothing; rank 3 is done after its step-5 send (3 -> 0) and receive (2 -> 3).
  EXPECT_TRUE(p.after(0).empty());
  ASSERT_EQ(p.final_transfers(3).size(), 2U);
  for (const std::uint32_t f : p.final_transfers(3)) EXPECT_EQ(p.transfers[f].step, 5U);
}

// Two channels halve every transfer and run independently: 2 x 24 transfers of 500 B, and a
// channel-1 transfer never waits for a channel-0 one.
TEST(Collective, ChannelsSplitTheDataAndRunIndependently) {
  const CollectivePlan p =
      plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4000, one_per_node(4), 2));
  ASSERT_EQ(p.transfers.size(), 48U);
  for (std::uint32_t t = 0; t < p.transfers.size(); ++t) {
    EXPECT_EQ(p.transfers[t].bytes, Bytes(500));
    for (const std::uint32_t d : p.after(t)) EXPECT_EQ(p.transfers[d].channel, p.transfers[t].channel);
  }
}

// Uneven sizes: 10 B over 4 ranks gives shards of 3, 3, 2, 2 B; each of the 2 x 3 steps moves one
// shard of each size, so every step carries all 10 B and every rank sends 2 x (10 - shard(i+1)).
TEST(Collective, UnevenShardsAddUpToTheBuffer) {
  const CollectivePlan p = plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 10, one_per_node(4)));
  std::map<std::uint32_t, std::int64_t> per_step;
  for (const CollectiveTransfer& t : p.transfers) per_step[t.step] += t.bytes.value();
  for (const auto& [step, bytes] : per_step) EXPECT_EQ(bytes, 10) << step;
}

// All-gather and reduce-scatter of S = 3,000 B over 3 ranks: n-1 = 2 ring steps of S/n = 1,000 B.
TEST(Collective, AllGatherAndReduceScatterAreOneHalfOfTheRing) {
  for (const CollectiveKind k : {CollectiveKind::kAllGather, CollectiveKind::kReduceScatter}) {
    const CollectivePlan p = plan_collective(shape(k, CollectiveAlgorithm::kRing, 3000, one_per_node(3)));
    EXPECT_EQ(p.steps, 2U);
    EXPECT_EQ(p.transfers.size(), 6U);
    for (const std::int64_t s : sent_per_rank(p)) EXPECT_EQ(s, 2000);
  }
}

// All-to-all of S = 3,000 B per rank over 3 ranks: 3 x 2 concurrent transfers of S/3 = 1,000 B.
TEST(Collective, AllToAllSendsAShardToEveryOtherRankAtOnce) {
  const CollectivePlan p = plan_collective(shape(CollectiveKind::kAllToAll, CollectiveAlgorithm::kDirect, 3000, one_per_node(3)));
  EXPECT_EQ(p.steps, 1U);
  ASSERT_EQ(p.transfers.size(), 6U);
  for (std::uint32_t t = 0; t < 6; ++t) {
    EXPECT_NE(p.transfers[t].src, p.transfers[t].dst);
    EXPECT_EQ(p.transfers[t].bytes, Bytes(1000));
    EXPECT_TRUE(p.after(t).empty());
  }
}

// Halving-doubling over 4 ranks, S = 1,000 B: step 0 exchanges 500 B with rank r xor 2, step 1
// 250 B with r xor 1, then the all-gather: 250 B with r xor 1, 500 B with r xor 2. Every rank
// sends 1,500 B = 2(n-1)/n x S, as in the ring, in 2 log2 n = 4 steps instead of 6.
TEST(Collective, HalvingDoublingExchangesHalvesWithXorPartners) {
  const CollectivePlan p =
      plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 1000, one_per_node(4)));
  EXPECT_EQ(p.steps, 4U);
  const std::uint32_t partner_xor[] = {2, 1, 1, 2};
  const std::int64_t amount[] = {500, 250, 250, 500};
  for (const CollectiveTransfer& t : p.transfers) {
    EXPECT_EQ(t.dst, t.src ^ partner_xor[t.step]);
    EXPECT_EQ(t.bytes.value(), amount[t.step]);
  }
  for (const std::int64_t s : sent_per_rank(p)) EXPECT_EQ(s, 1500);
  EXPECT_TRUE(check_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 1000,
                                     one_per_node(6)))
                  .has_value());
}

// NCCL's binary tree over 14 ranks (the illustration in NCCL's trees.cc): 0 is the root above 8;
// 8 above 4 and 12; 4 above 2 and 6; 12 above 10 and 13 (13 = 1101: 1110 = 14 is out of range, so
// its parent is 1100 = 12); odd ranks are leaves.
TEST(Collective, BinaryTreeParentsFollowTheLowestSetBit) {
  const std::vector<std::int64_t> p = binary_tree_parents(14);
  const std::vector<std::int64_t> expected = {-1, 2, 4, 2, 8, 6, 4, 6, 0, 10, 12, 10, 8, 12};
  EXPECT_EQ(p, expected);
}

// Double binary tree all-reduce of S = 4,000 B over 4 ranks: tree 1 edges 1-2, 2-0, 3-2 (parents
// 2, 0, 2); tree 2 mirrors them (r -> 3 - r): 2-1, 1-3, 0-1. Each edge streams S/2 = 2,000 B both
// ways at once: 2 trees x 3 edges x 2 directions = 12 transfers, all in step 0. Rank 2 sends up to
// 0 and down to 1 and 3 in tree 1 (3 x 2,000) and up to 1 in tree 2 (2,000): 8,000 B = 2S.
TEST(Collective, DoubleBinaryTreeStreamsHalfOverEveryEdge) {
  const CollectivePlan p = plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kTree, 4000, one_per_node(4)));
  EXPECT_EQ(p.steps, 1U);
  ASSERT_EQ(p.transfers.size(), 12U);
  for (const CollectiveTransfer& t : p.transfers) EXPECT_EQ(t.bytes, Bytes(2000));
  EXPECT_EQ(sent_per_rank(p)[2], 8000);
}

// Node-aware double binary tree, S = 4,000 B over 2 nodes x 2 GPUs (ranks 0,1 on node 0; 2,3 on
// node 1), 2 channels of 2,000 B, each tree carrying 1,000 B. The tree over N = 2 nodes has one
// edge (node 1 -> node 0); tree 2 mirrors it (node 0 -> node 1). Channel 0 joins the nodes at
// their 0th GPU (heads 0 and 2): chains 1-0 and 3-2, inter-node edge 0-2; channel 1 at their 1st
// (heads 1 and 3): chains 0-1 and 2-3, inter-node edge 1-3. Both trees run the same chain, so a
// chain edge is one transfer per direction carrying both trees' halves (2,000 B at weight 2); the
// inter-node edge is one per tree and direction (1,000 B, weight 1). Per channel 2 chains x 2
// directions + 2 trees x 1 edge x 2 directions = 8 transfers, 16 in all, step 0. Inter-node
// traffic: 0 <-> 2 on channel 0 only and 1 <-> 3 on channel 1 only, 2,000 B each way (both trees),
// so each GPU's NIC carries S/2: every channel uses its own rail. Rank 0 sends 2,000 B to 1 on
// channel 0 (broadcast from the head) and 1,000 B to 2 in each tree, and 2,000 B to 1 on channel 1
// (reduce toward the head): 6,000 B, as with one chain per tree.
TEST(Collective, TreeRunsOverNodesWithAChainInside) {
  const CollectivePlan p =
      plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kTree, 4000, {0, 0, 1, 1}, 2));
  EXPECT_EQ(p.steps, 1U);
  ASSERT_EQ(p.transfers.size(), 16U);
  EXPECT_EQ(planned_transfers(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kTree, 4000, {0, 0, 1, 1}, 2)), 16U);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t> across;
  for (const CollectiveTransfer& t : p.transfers) {
    EXPECT_EQ(t.step, 0U);
    const bool chain = t.src / 2 == t.dst / 2;
    EXPECT_EQ(t.bytes, Bytes(chain ? 2000 : 1000));
    EXPECT_EQ(t.share, chain ? 2.0 : 1.0);
    if (chain) continue;
    EXPECT_EQ(t.src % 2, t.channel) << t.src << "->" << t.dst;
    EXPECT_EQ(t.dst % 2, t.channel) << t.src << "->" << t.dst;
    across[{t.src, t.dst}] += t.bytes.value();
  }
  const std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t> expected = {
      {{0, 2}, 2000}, {{2, 0}, 2000}, {{1, 3}, 2000}, {{3, 1}, 2000}};
  EXPECT_EQ(across, expected);
  EXPECT_EQ(sent_per_rank(p)[0], 6000);
}

// Hierarchical all-reduce of S = 8,000 B over 2 nodes x 2 GPUs (ranks 0,1 on node 0; 2,3 on
// node 1): step 0 the intra-node reduce-scatter (0 <-> 1, 2 <-> 3, 4,000 B each); steps 1-2 the
// inter-node ring of each local rank's 4,000 B shard (0 <-> 2, 1 <-> 3, 2,000 B each); step 3
// the intra-node all-gather (4,000 B). Rank 0 sends 4,000 + 2 x 2,000 + 4,000 = 12,000 B.
TEST(Collective, HierarchicalRunsIntraThenInterThenIntra) {
  const CollectivePlan p =
      plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical, 8000, {0, 0, 1, 1}));
  EXPECT_EQ(p.steps, 4U);
  for (const CollectiveTransfer& t : p.transfers) {
    const bool intra = t.step == 0 || t.step == 3;
    EXPECT_EQ(t.src / 2 == t.dst / 2, intra) << t.step;
    EXPECT_EQ(t.bytes, Bytes(intra ? 4000 : 2000));
  }
  EXPECT_EQ(sent_per_rank(p)[0], 12000);
  EXPECT_TRUE(check_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical, 8000, {0, 0, 1}))
                  .has_value());
}

// SHARP plans no GPU-to-GPU transfer: the switches do the work.
TEST(Collective, SharpIsInNetwork) {
  const CollectivePlan p = plan_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kSharp, 4000, one_per_node(4)));
  EXPECT_TRUE(p.in_network);
  EXPECT_TRUE(p.transfers.empty());
}

// nccl-tests' factors: all-reduce 2(n-1)/n = 1.75 for 8 ranks; the others (n-1)/n = 0.875.
TEST(Collective, BusFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::kAllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::kAllGather, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveKind::kAllToAll, 8), 0.875);
}

TEST(Collective, ChecksRejectWhatCannotBePlanned) {
  EXPECT_TRUE(check_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4000, {0})).has_value());
  EXPECT_TRUE(check_collective(shape(CollectiveKind::kAllToAll, CollectiveAlgorithm::kRing, 4000, one_per_node(4))).has_value());
  EXPECT_TRUE(check_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4, one_per_node(4))).has_value());
  EXPECT_FALSE(check_collective(shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4000, one_per_node(4))).has_value());
}


// Pipelined ring all-reduce of S = 4,000 B over n = 4 ranks: one step, one transfer per ring edge
// carrying what its 6 steps carry: 2(n-1)/n x S = 6,000 B (every shard but one, twice), no
// dependencies. With S = 4,001 B (shard 0 one byte larger) edge 3 -> 0 skips shards 0 and 1
// (4,001 - 1,001 + 4,001 - 1,000 = 6,001 B) and edge 0 -> 1 shards 1 and 2 (6,002 B): the bytes
// of its steps in the stepwise plan.
TEST(Collective, PipelinedRingStreamsEveryStepsBytesPerEdge) {
  CollectiveShape s = shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kRing, 4000, one_per_node(4));
  s.model = CollectiveModel::kPipelined;
  const CollectivePlan p = plan_collective(s);
  EXPECT_EQ(p.steps, 1u);
  ASSERT_EQ(p.transfers.size(), 4u);
  for (std::uint32_t t = 0; t < 4; ++t) {
    EXPECT_EQ(p.transfers[t].src, t);
    EXPECT_EQ(p.transfers[t].dst, (t + 1) % 4);
    EXPECT_EQ(p.transfers[t].bytes, Bytes(6000));
    EXPECT_TRUE(p.after(t).empty());
  }
  EXPECT_EQ(planned_transfers(s), 4u);
  EXPECT_EQ(total_steps(s), 1u);
  s.bytes = Bytes(4001);
  const CollectivePlan uneven = plan_collective(s);
  CollectiveShape stepwise = s;
  stepwise.model = CollectiveModel::kStepwise;
  const std::vector<std::int64_t> per_rank = sent_per_rank(plan_collective(stepwise));
  EXPECT_EQ(uneven.transfers[3].bytes, Bytes(6001));
  EXPECT_EQ(uneven.transfers[0].bytes, Bytes(6002));
  for (std::uint32_t t = 0; t < 4; ++t) EXPECT_EQ(uneven.transfers[t].bytes.value(), per_rank[t]) << t;
}

// Pipelined halving-doubling of S = 8,000 B over 8 ranks: one transfer per (rank, round), the
// halving and the doubling exchange added: 2 x 4,000 to rank ^ 4, 2 x 2,000 to rank ^ 2,
// 2 x 1,000 to rank ^ 1; 14,000 B = 2(n-1)/n x S per rank. steps with pipelined is refused.
TEST(Collective, PipelinedHalvingDoublingAddsBothExchangesPerRound) {
  CollectiveShape s = shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 8000, one_per_node(8));
  s.model = CollectiveModel::kPipelined;
  const CollectivePlan p = plan_collective(s);
  ASSERT_EQ(p.transfers.size(), 24u);
  EXPECT_EQ(p.transfers[0].dst, 4u);
  EXPECT_EQ(p.transfers[0].bytes, Bytes(8000));
  EXPECT_EQ(p.transfers[8].dst, 2u);
  EXPECT_EQ(p.transfers[8].bytes, Bytes(4000));
  EXPECT_EQ(p.transfers[16].dst, 1u);
  EXPECT_EQ(p.transfers[16].bytes, Bytes(2000));
  for (const std::int64_t sent : sent_per_rank(p)) EXPECT_EQ(sent, 14000);
  s.steps_limit = 1;
  ASSERT_TRUE(check_collective(s).has_value());
  EXPECT_NE(check_collective(s)->find("stepwise"), std::string::npos);
}

// Pipelined hierarchical over 2 nodes of 2 ranks, S = 4,000 B: the intra-node ring edges carry
// 2(g-1)/g x S = 4,000 B, the inter-node ring of each local rank 2(N-1)/N x S/g = 2,000 B.
TEST(Collective, PipelinedHierarchicalRunsBothRingsAtOnce) {
  CollectiveShape s = shape(CollectiveKind::kAllReduce, CollectiveAlgorithm::kHierarchical, 4000, {0, 0, 1, 1});
  s.model = CollectiveModel::kPipelined;
  const CollectivePlan p = plan_collective(s);
  ASSERT_EQ(p.transfers.size(), 8u);
  EXPECT_EQ(planned_transfers(s), 8u);
  for (const CollectiveTransfer& t : p.transfers) {
    const bool same_node = s.node_of_rank[t.src] == s.node_of_rank[t.dst];
    EXPECT_EQ(t.bytes, Bytes(same_node ? 4000 : 2000));
  }
}

}  // namespace
}  // namespace ct
