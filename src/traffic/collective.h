// Collectives broken into GPU-to-GPU transfers the way NCCL runs them, as a dependency graph for the
// fluid engine. Ranks are 0 .. n-1 in the order of the GPU list; a transfer from rank i at step k
// on channel c waits for every transfer of rank i's previous step on that channel, in or out (its
// data has arrived and its own previous send is done): "each step waiting for the previous".
// Nothing here knows the fabric; the workload compiler (workload/workload_compiler.h) maps ranks to
// GPUs, same-host transfers to NVLink and the others to network flows.
//
// Sizes follow nccl-tests (doc/PERFORMANCE.md in NVIDIA/nccl-tests): `bytes` is S, the buffer size
// nccl-tests reports: all-reduce S in, S out per rank; all-gather S = the gathered output (n
// shards of S/n); reduce-scatter S = the input (n shards of S/n); all-to-all S = each rank's send
// buffer (S/n to every rank, itself included). algbw = S / t, busbw = algbw x factor with factor
// 2(n-1)/n for all-reduce, (n-1)/n for the others (bus_factor()).
//
// Channels: NCCL splits a collective over C channels (rings or trees that run in parallel, each
// with its own connections); channel c carries its share of every shard. A byte count that does
// not divide is split as evenly as possible (the first parts one byte larger).
//
// Algorithms (n ranks, S bytes, per channel S_c = S / C):
//   ring             all-reduce = reduce-scatter then all-gather around a ring: 2(n-1) steps; at
//                    step k the rank at ring position j sends shard (j - k) mod n (reduce-scatter,
//                    k < n-1) then shard (j + 1 - (k - n + 1)) mod n, each S_c / n, to the next.
//                    Channel c's ring visits the nodes in order of first appearance and, inside each
//                    node, its ranks rotated to start at the (c mod g)-th, as NCCL's rings enter each
//                    node through a different GPU (and NIC) per channel; one rank per node: the
//                    rank order itself.
//                    all-gather and reduce-scatter are the n-1 steps of one half. On a
//                    non-blocking fabric of per-rank bandwidth B: t = 2(n-1)/n x S/B + 2(n-1) hops
//                    of latency (all-reduce).
//   tree             NCCL's double binary tree (Sanders, Speck and Traeff, "Two-tree algorithms for
//                    full bandwidth broadcast, reduction and scan", Parallel Computing 35(12), 2009)
//                    over the N nodes, with a chain inside each node, as NCCL builds it: two
//                    binary trees, each carrying half of every channel's data; tree 1 numbers
//                    node k's parent from its lowest set bit b: (k xor b) or 2b, or k xor b when
//                    that is >= N; node 0 is the root. Tree 2 mirrors it (node N-1-k) when N is
//                    even and shifts it (node k+1 mod N) when odd, so most interior nodes of one
//                    are leaves of the other. On channel c a node takes part through its (c mod
//                    g)-th rank (the head; consecutive channels use different GPUs and NICs, as
//                    the ring does), and its g ranks form a chain from the head in rotated order.
//                    Both trees run the same chain through a node (NCCL's two trees are two sets
//                    of channels built on one intra-node graph), so each chain edge and direction is
//                    one transfer carrying both halves (S_c) at share 2: under weighted max-min it
//                    has exactly the rate of the two half transfers together, at half the flows.
//                    One rank per node: the tree over the ranks themselves. Reduce up and broadcast
//                    down are pipelined in small chunks, so in the fluid limit every edge streams
//                    its half at once (child -> parent and parent -> child); pipeline fill beyond
//                    latency is not modelled.
//   halving-doubling Rabenseifner's all-reduce (Thakur, Rabenseifner and Gropp, "Optimization of
//                    collective communication operations in MPICH", IJHPCA 19(1), 2005): recursive
//                    halving reduce-scatter, step k exchanging S_c / 2^(k+1) with rank i xor
//                    n / 2^(k+1), then recursive doubling all-gather in reverse. n a power of two.
//   hierarchical     2D all-reduce: reduce-scatter inside each node (ring over its G ranks, G-1
//                    steps of S_c / G), all-reduce of each rank's shard S_c / G across nodes (ring
//                    over the ranks of the same local position, 2(N-1) steps), all-gather inside
//                    the node. Ranks per node must be equal; their order within a node is kept.
//   sharp            in-network reduction (SHARP): every rank sends S once into the switch tree and
//                    receives the result once; the switches reduce. No GPU-to-GPU transfers: the
//                    workload compiler builds the aggregation tree on the fabric.
//   direct           all-to-all: every rank sends S_c / n to every other rank at once.
//
// Models. `stepwise` plans the steps above one after the other, each waiting for the previous
// (the textbook schedule: 2(n-1) steps for a ring all-reduce). `pipelined` (the default) plans
// them as NCCL runs them: the buffer is cut into chunks that follow each other through the steps,
// so in the fluid limit every step runs at once and each edge of the algorithm streams, in one
// flow, the bytes all its steps carry (NCCL's ring all-reduce: each channel's ring edge carries
// 2(n-1)/n x S_c concurrently, prims.h's chunked send/recv loop). One step, no dependencies:
//   ring             edge j -> j+1 carries every shard but (j+1) mod n (reduce-scatter) and every
//                    shard but (j+2) mod n (all-gather): 2(n-1)/n x S_c, exactly the bytes its 2(n-1)
//                    steps carry.
//   halving-doubling one flow per (rank, round): the reduce-scatter and all-gather exchanges with
//                    the same partner added, 2 x S_c / 2^(k+1) to rank i xor n / 2^(k+1), weighted
//                    by its bytes (share 2^-k): a pipeline moves every round's part of a chunk at
//                    the pace of the chunk, so a rank's rounds finish together.
//   hierarchical     the intra-node ring's edges (2(g-1)/g x S_c) and the inter-node rings' edges
//                    (2(N-1)/N x S_c / g) at once: pipelined, the NVLink and network phases overlap.
//   tree, sharp, direct are streamed in both models (one step already).
// On a fabric whose only bottlenecks are the ranks' own links both models move the same bytes
// through the same bottleneck and take the same time up to the latency terms (2(n-1) path
// latencies stepwise, one pipelined); hierarchical differs: stepwise adds the phases' times,
// pipelined takes the largest.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"

namespace ct {

enum class CollectiveKind : std::uint8_t { kAllReduce, kAllGather, kReduceScatter, kAllToAll };
enum class CollectiveAlgorithm : std::uint8_t { kRing, kTree, kHalvingDoubling, kHierarchical, kSharp, kDirect };
// How the steps of an algorithm are laid out in time (see "Models" above).
enum class CollectiveModel : std::uint8_t { kPipelined, kStepwise };
// Every value, in the order their names are listed to a user.
inline constexpr CollectiveKind kAllCollectiveKinds[] = {CollectiveKind::kAllReduce, CollectiveKind::kAllGather,
                                                         CollectiveKind::kReduceScatter, CollectiveKind::kAllToAll};
inline constexpr CollectiveAlgorithm kAllCollectiveAlgorithms[] = {
    CollectiveAlgorithm::kRing,         CollectiveAlgorithm::kTree,  CollectiveAlgorithm::kHalvingDoubling,
    CollectiveAlgorithm::kHierarchical, CollectiveAlgorithm::kSharp, CollectiveAlgorithm::kDirect};
inline constexpr CollectiveModel kAllCollectiveModels[] = {CollectiveModel::kPipelined, CollectiveModel::kStepwise};

std::string_view collective_kind_name(CollectiveKind k);  // "all-reduce", ...
std::string_view algorithm_name(CollectiveAlgorithm a);  // "ring", "tree", ...
std::optional<CollectiveKind> parse_collective_kind(std::string_view name);
std::optional<CollectiveAlgorithm> parse_algorithm(std::string_view name);
std::string_view collective_model_name(CollectiveModel m);  // "pipelined", "stepwise"
std::optional<CollectiveModel> parse_collective_model(std::string_view name);
// The algorithm NCCL-like defaults pick for a kind: ring, except direct for all-to-all.
CollectiveAlgorithm default_algorithm(CollectiveKind k);

// nccl-tests' bus bandwidth factor: 2(n-1)/n for all-reduce, (n-1)/n otherwise.
double bus_factor(CollectiveKind k, std::uint32_t ranks);

struct CollectiveShape {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  CollectiveModel model = CollectiveModel::kPipelined;
  Bytes bytes{0};
  std::uint32_t channels = 1;
  std::vector<std::uint32_t> node_of_rank;  // the host of each rank; its size is n
  // Plan only steps 0 .. steps_limit - 1 (0: all; stepwise only). A 32,768-rank ring all-reduce has 65,534 steps
  // of 32,768 transfers: a benchmark or a quick look simulates the first few.
  std::uint32_t steps_limit = 0;
};

struct CollectiveTransfer {
  std::uint32_t src = 0;  // rank
  std::uint32_t dst = 0;  // rank
  Bytes bytes{0};
  std::uint32_t channel = 0;
  std::uint32_t step = 0;  // transfers of one step run together (and are routed together)
  // Max-min weight relative to the collective's: pipelined halving-doubling weighs each round's
  // flow by its bytes, so a rank's rounds advance together as chunks through a pipeline do; a
  // tree's chain edge carries both trees' halves at share 2.
  double share = 1.0;
};

class CollectivePlan {
 public:
  std::uint32_t ranks = 0;
  std::uint32_t steps = 0;
  bool in_network = false;  // sharp: no transfers, the workload compiler builds the switch tree
  std::vector<CollectiveTransfer> transfers;  // by step, then in the order the algorithm makes them

  // Transfers t must wait for (indices into transfers, all earlier).
  [[nodiscard]] std::span<const std::uint32_t> after(std::uint32_t t) const {
    return {after_.data() + after_begin_[t], after_.data() + after_begin_[t + 1]};
  }
  // Transfers of rank r's last step, in or out: when they are done, r is done.
  [[nodiscard]] std::span<const std::uint32_t> final_transfers(std::uint32_t r) const {
    return {final_.data() + final_begin_[r], final_.data() + final_begin_[r + 1]};
  }

  void add(std::uint32_t src, std::uint32_t dst, Bytes bytes, std::uint32_t channel, std::uint32_t step,
           double share = 1.0) {
    transfers.push_back({src, dst, bytes, channel, step, share});
  }
  // Orders the transfers by step (stable) and derives the dependencies and final transfers.
  void finish();

 private:
  std::vector<std::uint32_t> after_begin_{0};
  std::vector<std::uint32_t> after_;
  std::vector<std::uint32_t> final_begin_{0};
  std::vector<std::uint32_t> final_;
};

// Why the shape cannot be planned ("halving-doubling needs a power-of-two number of ranks, got
// 12"), or nullopt.
std::optional<std::string> check_collective(const CollectiveShape& shape);

// PRECONDITION: check_collective(shape) is nullopt.
CollectivePlan plan_collective(const CollectiveShape& shape);

// Steps of the whole collective (ignoring steps_limit), and the transfers plan_collective makes
// (with it): known before planning, to refuse what would not fit in memory.
// PRECONDITION: check_collective(shape) is nullopt.
std::uint32_t total_steps(const CollectiveShape& shape);
std::uint64_t planned_transfers(const CollectiveShape& shape);

// `total` split into `parts` as evenly as possible, the first total mod parts one larger.
Bytes split_part(Bytes total, std::uint64_t parts, std::uint64_t index);

// Parent of each rank in NCCL's first binary tree (rank 0, the root: parent -1).
std::vector<std::int64_t> binary_tree_parents(std::uint32_t ranks);

}  // namespace ct
