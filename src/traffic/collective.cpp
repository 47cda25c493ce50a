#include "traffic/collective.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

namespace ct {
namespace {

constexpr std::array<std::string_view, 4> kKindNames = {"all-reduce", "all-gather", "reduce-scatter", "all-to-all"};
constexpr std::array<std::string_view, 6> kAlgorithmNames = {"ring",         "tree",  "halving-doubling",
                                                             "hierarchical", "sharp", "direct"};

constexpr std::array<std::string_view, 2> kModelNames = {"pipelined", "stepwise"};

bool power_of_two(std::uint32_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Ring reduce-scatter or all-gather steps over ranks `ring` (ring[j] sends to ring[j+1]): step
// first + k, rank at position j sends shard index (j - k + offset) mod m of `part` bytes per shard.
void ring_steps(CollectivePlan& plan, std::span<const std::uint32_t> ring, Bytes part, std::uint32_t channel,
                std::uint32_t first_step, std::uint32_t steps, std::uint32_t shard_offset, std::uint32_t limit) {
  const auto m = static_cast<std::uint32_t>(ring.size());
  for (std::uint32_t k = 0; k < steps && first_step + k < limit; ++k) {
    for (std::uint32_t j = 0; j < m; ++j) {
      const std::uint32_t shard = (j + shard_offset + m - k % m) % m;
      plan.add(ring[j], ring[(j + 1) % m], split_part(part, m, shard), channel, first_step + k);
    }
  }
}

// Pipelined ring all-reduce (or one half of it) over `ring`: edge j -> j+1 carries in one transfer
// the shards all its steps carry: every shard but (j+1) mod m for the reduce-scatter, every shard
// but (j+2) mod m for the all-gather.
void ring_pipelined(CollectivePlan& plan, std::span<const std::uint32_t> ring, Bytes part, std::uint32_t channel,
                    bool reduce_scatter, bool all_gather) {
  const auto m = static_cast<std::uint32_t>(ring.size());
  for (std::uint32_t j = 0; j < m; ++j) {
    std::int64_t bytes = 0;
    if (reduce_scatter) bytes += part.value() - split_part(part, m, (j + 1) % m).value();
    if (all_gather) bytes += part.value() - split_part(part, m, (j + 2) % m).value();
    plan.add(ring[j], ring[(j + 1) % m], Bytes(bytes), channel, 0);
  }
}

// The first step not to plan.
std::uint32_t step_limit(const CollectiveShape& s) {
  return s.steps_limit == 0 ? std::numeric_limits<std::uint32_t>::max() : s.steps_limit;
}

// Ranks grouped by node, nodes in order of first appearance, ranks in their order.
std::vector<std::vector<std::uint32_t>> ranks_by_node(const CollectiveShape& s) {
  std::map<std::uint32_t, std::size_t> slot;
  std::vector<std::vector<std::uint32_t>> nodes;
  for (std::uint32_t r = 0; r < s.node_of_rank.size(); ++r) {
    const auto [it, added] = slot.emplace(s.node_of_rank[r], nodes.size());
    if (added) nodes.emplace_back();
    nodes[it->second].push_back(r);
  }
  return nodes;
}

// Channel c's ring: nodes in order of first appearance, the ranks of each node rotated to start at
// its (c mod g)-th, so that consecutive channels enter every node at a different GPU (and rail).
std::vector<std::uint32_t> channel_ring(const CollectiveShape& s, std::uint32_t c) {
  std::vector<std::uint32_t> order;
  for (const auto& node : ranks_by_node(s)) {
    for (std::size_t j = 0; j < node.size(); ++j) order.push_back(node[(c + j) % node.size()]);
  }
  return order;
}

void plan_ring(const CollectiveShape& s, CollectivePlan& plan) {
  const std::uint32_t limit = step_limit(s);
  const std::uint32_t n = plan.ranks;
  for (std::uint32_t c = 0; c < s.channels; ++c) {
    const std::vector<std::uint32_t> ring = channel_ring(s, c);
    const Bytes part = split_part(s.bytes, s.channels, c);
    if (s.model == CollectiveModel::kPipelined) {
      const bool all_reduce = s.kind == CollectiveKind::kAllReduce;
      ring_pipelined(plan, ring, part, c, true, all_reduce);
      continue;
    }
    switch (s.kind) {
      case CollectiveKind::kAllReduce:
        ring_steps(plan, ring, part, c, 0, n - 1, 0, limit);      // reduce-scatter
        ring_steps(plan, ring, part, c, n - 1, n - 1, 1, limit);  // all-gather of the reduced shards
        break;
      case CollectiveKind::kAllGather:
      case CollectiveKind::kReduceScatter:
        ring_steps(plan, ring, part, c, 0, n - 1, 0, limit);
        break;
      case CollectiveKind::kAllToAll:
        break;
    }
  }
}

void plan_tree(const CollectiveShape& s, CollectivePlan& plan) {
  const std::vector<std::vector<std::uint32_t>> nodes = ranks_by_node(s);
  const auto n = static_cast<std::uint32_t>(nodes.size());
  const std::vector<std::int64_t> parent = binary_tree_parents(n);
  for (std::uint32_t c = 0; c < s.channels; ++c) {
    const Bytes part = split_part(s.bytes, s.channels, c);
    // Channel c's head of node k (its member in the inter-node trees) is the node's (c mod g)-th
    // rank; the chain runs from it through the node's other ranks in rotated order.
    auto head = [&](std::uint32_t k) { return nodes[k][c % nodes[k].size()]; };
    // Both trees enter node k at the same head and run the same chain through it, each carrying
    // half of the channel's data: one flow per chain edge and direction carrying both halves at
    // twice the weight has, under weighted max-min, exactly the rate the two would have together.
    for (const auto& node : nodes) {
      for (std::size_t j = 0; j + 1 < node.size(); ++j) {
        const std::uint32_t a = node[(c + j) % node.size()];
        const std::uint32_t b = node[(c + j + 1) % node.size()];
        plan.add(b, a, part, c, 0, 2.0);  // reduce toward the head
        plan.add(a, b, part, c, 0, 2.0);  // broadcast from it
      }
    }
    for (std::uint32_t tree = 0; tree < 2; ++tree) {
      const Bytes half = split_part(part, 2, tree);
      // Tree 2 relabels tree 1's nodes: mirror (even n) or shift by one (odd n).
      auto label = [&](std::uint32_t k) { return tree == 0 ? k : (n % 2 == 0 ? n - 1 - k : (k + 1) % n); };
      for (std::uint32_t k = 0; k < n; ++k) {
        if (parent[k] < 0) continue;
        const std::uint32_t child = head(label(k));
        const std::uint32_t up = head(label(static_cast<std::uint32_t>(parent[k])));
        plan.add(child, up, half, c, 0);  // reduce
        plan.add(up, child, half, c, 0);  // broadcast
      }
    }
  }
}

void plan_halving_doubling(const CollectiveShape& s, CollectivePlan& plan) {
  const std::uint32_t limit = step_limit(s);
  const std::uint32_t n = plan.ranks;
  std::uint32_t rounds = 0;
  while ((1U << rounds) < n) ++rounds;
  for (std::uint32_t c = 0; c < s.channels; ++c) {
    const Bytes part = split_part(s.bytes, s.channels, c);
    if (s.model == CollectiveModel::kPipelined) {
      // Every round at once; round k's halving and doubling exchanges with one partner added.
      for (std::uint32_t k = 0; k < rounds; ++k) {
        const Bytes amount = split_part(part, std::uint64_t{1} << (k + 1), 0);
        const double share = std::ldexp(1.0, -static_cast<int>(k));
        for (std::uint32_t r = 0; r < n; ++r) plan.add(r, r ^ (n >> (k + 1)), Bytes(2 * amount.value()), c, 0, share);
      }
      continue;
    }
    // Reduce-scatter by recursive halving: step k exchanges half of what is left.
    for (std::uint32_t k = 0; k < rounds && k < limit; ++k) {
      const std::uint32_t distance = n >> (k + 1);
      const Bytes amount = split_part(part, std::uint64_t{1} << (k + 1), 0);
      for (std::uint32_t r = 0; r < n; ++r) plan.add(r, r ^ distance, amount, c, k);
    }
    // All-gather by recursive doubling: the same exchanges in reverse, amounts doubling.
    for (std::uint32_t k = 0; k < rounds && rounds + k < limit; ++k) {
      const std::uint32_t j = rounds - 1 - k;
      const std::uint32_t distance = n >> (j + 1);
      const Bytes amount = split_part(part, std::uint64_t{1} << (j + 1), 0);
      for (std::uint32_t r = 0; r < n; ++r) plan.add(r, r ^ distance, amount, c, rounds + k);
    }
  }
}

void plan_hierarchical(const CollectiveShape& s, CollectivePlan& plan) {
  const std::uint32_t limit = step_limit(s);
  // Ranks grouped by node, in rank order within each node.
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_node;
  for (std::uint32_t r = 0; r < plan.ranks; ++r) by_node[s.node_of_rank[r]].push_back(r);
  std::vector<std::vector<std::uint32_t>> nodes;
  for (auto& [node, ranks] : by_node) nodes.push_back(std::move(ranks));
  const auto g = static_cast<std::uint32_t>(nodes.front().size());
  const auto nn = static_cast<std::uint32_t>(nodes.size());
  const std::uint32_t intra = g - 1;
  const std::uint32_t inter = nn > 1 ? 2 * (nn - 1) : 0;
  for (std::uint32_t c = 0; c < s.channels; ++c) {
    const Bytes part = split_part(s.bytes, s.channels, c);
    if (s.model == CollectiveModel::kPipelined) {
      if (g > 1) {
        for (const auto& node : nodes) ring_pipelined(plan, node, part, c, true, true);
      }
      for (std::uint32_t local = 0; local < g && nn > 1; ++local) {
        std::vector<std::uint32_t> ring(nn);
        for (std::uint32_t k = 0; k < nn; ++k) ring[k] = nodes[k][local];
        const Bytes shard = g > 1 ? split_part(part, g, (local + 1) % g) : part;
        ring_pipelined(plan, ring, shard, c, true, true);
      }
      continue;
    }
    if (g > 1) {
      for (const auto& node : nodes) ring_steps(plan, node, part, c, 0, intra, 0, limit);
      for (const auto& node : nodes) ring_steps(plan, node, part, c, intra + inter, intra, 1, limit);
    }
    if (nn < 2) continue;
    for (std::uint32_t local = 0; local < g; ++local) {
      std::vector<std::uint32_t> ring(nn);
      for (std::uint32_t k = 0; k < nn; ++k) ring[k] = nodes[k][local];
      // Local rank `local` holds reduced shard (local + 1) mod g after the intra-node ring.
      const Bytes shard = g > 1 ? split_part(part, g, (local + 1) % g) : part;
      ring_steps(plan, ring, shard, c, intra, nn - 1, 0, limit);
      ring_steps(plan, ring, shard, c, intra + nn - 1, nn - 1, 1, limit);
    }
  }
}

void plan_direct(const CollectiveShape& s, CollectivePlan& plan) {
  const std::uint32_t n = plan.ranks;
  for (std::uint32_t c = 0; c < s.channels; ++c) {
    const Bytes part = split_part(s.bytes, s.channels, c);
    for (std::uint32_t src = 0; src < n; ++src) {
      for (std::uint32_t dst = 0; dst < n; ++dst) {
        if (src != dst) plan.add(src, dst, split_part(part, n, dst), c, 0);
      }
    }
  }
}

bool kind_allows(CollectiveKind k, CollectiveAlgorithm a) {
  switch (k) {
    case CollectiveKind::kAllReduce: return a != CollectiveAlgorithm::kDirect;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter: return a == CollectiveAlgorithm::kRing;
    case CollectiveKind::kAllToAll: return a == CollectiveAlgorithm::kDirect;
  }
  return false;
}

}  // namespace

std::string_view collective_kind_name(CollectiveKind k) { return kKindNames[static_cast<std::size_t>(k)]; }
std::string_view algorithm_name(CollectiveAlgorithm a) { return kAlgorithmNames[static_cast<std::size_t>(a)]; }

std::optional<CollectiveKind> parse_collective_kind(std::string_view name) {
  for (std::size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] == name) return static_cast<CollectiveKind>(i);
  }
  return std::nullopt;
}

std::optional<CollectiveAlgorithm> parse_algorithm(std::string_view name) {
  for (std::size_t i = 0; i < kAlgorithmNames.size(); ++i) {
    if (kAlgorithmNames[i] == name) return static_cast<CollectiveAlgorithm>(i);
  }
  return std::nullopt;
}

std::string_view collective_model_name(CollectiveModel m) { return kModelNames[static_cast<std::size_t>(m)]; }

std::optional<CollectiveModel> parse_collective_model(std::string_view name) {
  for (std::size_t i = 0; i < kModelNames.size(); ++i) {
    if (kModelNames[i] == name) return static_cast<CollectiveModel>(i);
  }
  return std::nullopt;
}

CollectiveAlgorithm default_algorithm(CollectiveKind k) {
  return k == CollectiveKind::kAllToAll ? CollectiveAlgorithm::kDirect : CollectiveAlgorithm::kRing;
}

double bus_factor(CollectiveKind k, std::uint32_t ranks) {
  const double n = ranks;
  return k == CollectiveKind::kAllReduce ? 2.0 * (n - 1) / n : (n - 1) / n;
}

Bytes split_part(Bytes total, std::uint64_t parts, std::uint64_t index) {
  const auto t = static_cast<std::uint64_t>(total.value());
  return Bytes(static_cast<std::int64_t>(t / parts + (index < t % parts ? 1 : 0)));
}

std::vector<std::int64_t> binary_tree_parents(std::uint32_t ranks) {
  std::vector<std::int64_t> parent(ranks, -1);
  for (std::uint32_t r = 1; r < ranks; ++r) {
    const std::uint32_t bit = r & (~r + 1);
    std::uint32_t up = (r ^ bit) | (bit << 1);
    if (up >= ranks) up = r ^ bit;
    parent[r] = up;
  }
  return parent;
}

std::optional<std::string> check_collective(const CollectiveShape& s) {
  const auto n = static_cast<std::uint32_t>(s.node_of_rank.size());
  if (n < 2) return fmt::format("a collective needs at least 2 GPUs, got {}", n);
  if (s.channels < 1) return std::string("channels must be at least 1");
  if (!kind_allows(s.kind, s.algorithm)) {
    return fmt::format("{} does not run with algorithm {} (all-reduce: ring, tree, halving-doubling, "
                       "hierarchical, sharp; all-gather and reduce-scatter: ring; all-to-all: direct)",
                       collective_kind_name(s.kind), algorithm_name(s.algorithm));
  }
  if (s.steps_limit != 0 && s.model == CollectiveModel::kPipelined) {
    return std::string("steps: applies to model: stepwise only (a pipelined collective is one streamed step)");
  }
  if (s.algorithm == CollectiveAlgorithm::kHalvingDoubling && !power_of_two(n)) {
    return fmt::format("halving-doubling needs a power-of-two number of GPUs, got {}", n);
  }
  if (s.algorithm == CollectiveAlgorithm::kHierarchical) {
    std::map<std::uint32_t, std::uint32_t> per_node;
    for (const std::uint32_t node : s.node_of_rank) ++per_node[node];
    for (const auto& [node, count] : per_node) {
      if (count != per_node.begin()->second) {
        return fmt::format("hierarchical needs the same number of GPUs on every node: host{} has {}, host{} has {}",
                           per_node.begin()->first, per_node.begin()->second, node, count);
      }
    }
  }
  const std::uint64_t smallest = std::uint64_t{n} * s.channels * 2;
  if (static_cast<std::uint64_t>(s.bytes.value()) < smallest) {
    return fmt::format("{} bytes over {} GPUs and {} channels leaves empty transfers; use at least {} bytes",
                       s.bytes.value(), n, s.channels, smallest);
  }
  return std::nullopt;
}

std::uint32_t total_steps(const CollectiveShape& s) {
  const auto n = static_cast<std::uint32_t>(s.node_of_rank.size());
  if (s.model == CollectiveModel::kPipelined) return 1;
  switch (s.algorithm) {
    case CollectiveAlgorithm::kRing: return s.kind == CollectiveKind::kAllReduce ? 2 * (n - 1) : n - 1;
    case CollectiveAlgorithm::kHalvingDoubling: {
      std::uint32_t rounds = 0;
      while ((1U << rounds) < n) ++rounds;
      return 2 * rounds;
    }
    case CollectiveAlgorithm::kHierarchical: {
      std::map<std::uint32_t, std::uint32_t> per_node;
      for (const std::uint32_t node : s.node_of_rank) ++per_node[node];
      const auto nodes = static_cast<std::uint32_t>(per_node.size());
      return 2 * (per_node.begin()->second - 1) + 2 * (nodes - 1);
    }
    case CollectiveAlgorithm::kTree:
    case CollectiveAlgorithm::kSharp:
    case CollectiveAlgorithm::kDirect: return 1;
  }
  return 1;
}

// Every step of ring, halving-doubling and hierarchical has n transfers per channel; the tree has
// 2(n-N) + 4(N-1) over N nodes (one chain through each node and two trees over the nodes, every
// edge both ways), direct n(n-1). Pipelined: ring n, halving-doubling
// n log2 n, hierarchical 2n (its intra- and inter-node ring edges) per channel.
std::uint64_t planned_transfers(const CollectiveShape& s) {
  const std::uint64_t n = s.node_of_rank.size();
  const std::uint64_t c = s.channels;
  const std::uint64_t steps = s.steps_limit == 0 ? total_steps(s) : std::min(total_steps(s), s.steps_limit);
  if (s.model == CollectiveModel::kPipelined) {
    if (s.algorithm == CollectiveAlgorithm::kHalvingDoubling) {
      std::uint64_t rounds = 0;
      while ((std::uint64_t{1} << rounds) < n) ++rounds;
      return rounds * n * c;
    }
    if (s.algorithm == CollectiveAlgorithm::kHierarchical) return 2 * n * c;
    if (s.algorithm == CollectiveAlgorithm::kRing) return n * c;
  }
  switch (s.algorithm) {
    case CollectiveAlgorithm::kTree: {
      const std::uint64_t nodes = std::set<std::uint32_t>(s.node_of_rank.begin(), s.node_of_rank.end()).size();
      return (2 * (n - nodes) + 4 * (nodes - 1)) * c;
    }
    case CollectiveAlgorithm::kSharp: return 0;
    case CollectiveAlgorithm::kDirect: return n * (n - 1) * c;
    default: return steps * n * c;
  }
}

CollectivePlan plan_collective(const CollectiveShape& s) {
  CollectivePlan plan;
  plan.ranks = static_cast<std::uint32_t>(s.node_of_rank.size());
  plan.transfers.reserve(planned_transfers(s));
  switch (s.algorithm) {
    case CollectiveAlgorithm::kRing: plan_ring(s, plan); break;
    case CollectiveAlgorithm::kTree: plan_tree(s, plan); break;
    case CollectiveAlgorithm::kHalvingDoubling: plan_halving_doubling(s, plan); break;
    case CollectiveAlgorithm::kHierarchical: plan_hierarchical(s, plan); break;
    case CollectiveAlgorithm::kSharp: plan.in_network = true; break;
    case CollectiveAlgorithm::kDirect: plan_direct(s, plan); break;
  }
  plan.finish();
  return plan;
}

// Stable counting sorts, O(transfers): by step (none when the transfers are in step order
// already), then every (rank, channel)'s entries in step order.
void CollectivePlan::finish() {
  std::uint32_t max_step = 0;
  std::uint32_t channels = 1;
  bool in_order = true;
  for (const CollectiveTransfer& t : transfers) {
    in_order = in_order && t.step >= max_step;
    max_step = std::max(max_step, t.step);
    channels = std::max(channels, t.channel + 1);
  }
  if (!in_order) {
    std::vector<std::uint32_t> offset(max_step + 2, 0);
    for (const CollectiveTransfer& t : transfers) ++offset[t.step + 1];
    for (std::size_t k = 1; k < offset.size(); ++k) offset[k] += offset[k - 1];
    std::vector<CollectiveTransfer> sorted(transfers.size());
    for (const CollectiveTransfer& t : transfers) sorted[offset[t.step]++] = t;
    transfers = std::move(sorted);
  }
  steps = transfers.empty() ? (in_network ? 1 : 0) : transfers.back().step + 1;
  // group_of(rank, channel) lists the transfers the rank takes part in on that channel, in or out,
  // in transfer (hence step) order.
  const std::size_t groups = std::size_t{ranks} * channels;
  std::vector<std::uint32_t> begin(groups + 1, 0);
  for (const CollectiveTransfer& t : transfers) {
    ++begin[std::size_t{t.src} * channels + t.channel + 1];
    ++begin[std::size_t{t.dst} * channels + t.channel + 1];
  }
  for (std::size_t g = 1; g <= groups; ++g) begin[g] += begin[g - 1];
  // With each member its transfer's step, so that the searches below read steps in sequence
  // instead of looking up a transfer at random per probe (every step is 0 in a one-step plan).
  std::vector<std::uint32_t> member(2 * transfers.size());
  std::vector<std::uint32_t> member_step(max_step == 0 ? 0 : 2 * transfers.size());
  {
    std::vector<std::uint32_t> cursor(begin.begin(), begin.end() - 1);
    for (std::uint32_t t = 0; t < transfers.size(); ++t) {
      const std::uint32_t out = cursor[std::size_t{transfers[t].src} * channels + transfers[t].channel]++;
      const std::uint32_t in = cursor[std::size_t{transfers[t].dst} * channels + transfers[t].channel]++;
      member[out] = t;
      member[in] = t;
      if (max_step == 0) continue;
      member_step[out] = transfers[t].step;
      member_step[in] = transfers[t].step;
    }
  }
  auto step_of = [&](std::uint32_t m) { return max_step == 0 ? 0 : member_step[m]; };
  after_.clear();
  // One step: nothing to wait for.
  after_begin_.assign(max_step == 0 ? transfers.size() + 1 : 1, 0);
  for (std::size_t i = 0; max_step > 0 && i < transfers.size(); ++i) {
    const CollectiveTransfer& t = transfers[i];
    // The src's entries on this channel before this step: those of the last such step.
    const std::size_t g = std::size_t{t.src} * channels + t.channel;
    std::uint32_t lo = begin[g];
    std::uint32_t hi = begin[g + 1];
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      if (step_of(mid) < t.step) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo > begin[g]) {
      const std::uint32_t previous = step_of(lo - 1);
      std::uint32_t first = lo;
      while (first > begin[g] && step_of(first - 1) == previous) --first;
      for (std::uint32_t m = first; m < lo; ++m) after_.push_back(member[m]);
    }
    after_begin_.push_back(static_cast<std::uint32_t>(after_.size()));
  }
  // Final transfers: for each rank and channel, those of its last step.
  final_begin_.assign(1, 0);
  final_.clear();
  for (std::uint32_t r = 0; r < ranks; ++r) {
    for (std::uint32_t c = 0; c < channels; ++c) {
      const std::size_t g = std::size_t{r} * channels + c;
      if (begin[g] == begin[g + 1]) continue;
      const std::uint32_t last = step_of(begin[g + 1] - 1);
      for (std::uint32_t m = begin[g]; m < begin[g + 1]; ++m) {
        if (step_of(m) == last) final_.push_back(member[m]);
      }
    }
    std::sort(final_.begin() + final_begin_.back(), final_.end());
    final_begin_.push_back(static_cast<std::uint32_t>(final_.size()));
  }
}

}  // namespace ct
