#include "analysis/decision_coupling.h"

#include <algorithm>
#include <set>

#include "core/rng.h"

namespace ct {
namespace {

constexpr std::uint64_t kCouplingStream = 0xC0'0F1E;

// Path order of stages: up by ascending tier, then down by descending tier.
int stage_rank(int tier, bool up) { return up ? tier : 100 - tier; }

}  // namespace

DecisionCoupling::DecisionCoupling(const PathWalker& walker, std::span<const RouteRequest> flows, std::uint64_t seed,
                                   std::uint32_t samples_per_flow)
    : walker_(walker), entropy_((walker.hashes().config().effective_fields() & kFieldSrcPort) != 0) {
  const ForwardingState& f = walker.forwarding();
  const Topology& t = f.topology();
  struct StageData {
    std::set<std::uint32_t> available, reachable;
    bool follows = false, all_determined = true, all_same = true;
  };
  std::map<int, StageData> data;  // by rank
  std::map<int, std::pair<int, bool>> rank_to_stage;
  std::set<std::pair<std::uint32_t, std::uint32_t>> consecutive;  // (previous decider, decider)
  std::set<std::pair<int, Arrival>> arrivals;
  std::vector<PathHop> path;
  for (std::uint32_t i = 0; i < flows.size(); ++i) {
    Rng rng(seed, i, kCouplingStream);
    FlowKey key = flows[i].key;
    for (std::uint32_t s = 0; s < samples_per_flow; ++s) {
      key.src_port = static_cast<std::uint16_t>(0xC000 + rng.uniform(0x4000));
      walker.walk(flows[i].src, flows[i].dst, key, path);
      const PathHop* previous = nullptr;
      for (const PathHop& hop : path) {
        if (hop.group == kNoGroup || f.size(hop.group) < 2) continue;
        const int tier = t.tier[hop.from.value()];
        const int rank = stage_rank(tier, hop.up);
        rank_to_stage[rank] = {tier, hop.up};
        stage_of_group_[hop.group] = rank;
        StageData& d = data[rank];
        for (LinkId l : f.members(hop.group)) d.available.insert(l.value());
        d.reachable.insert(hop.link.value());
        if (previous != nullptr) {
          const Arrival a{previous->group, previous->member, hop.group};
          Outcomes& o = outcomes_[a];
          if (o.samples == 0) o.first_member = hop.member;
          o.varied = o.varied || o.first_member != hop.member;
          ++o.samples;
          arrivals.insert({rank, a});
          d.follows = true;
          if (walker.hashes().seed(previous->from) != walker.hashes().seed(hop.from)) d.all_same = false;
        }
        previous = &hop;
      }
    }
  }
  // Arrivals seen fewer than kMinSamples times are not evidence either way.
  std::set<int> evidenced;
  for (const auto& [rank, a] : arrivals) {
    const Outcomes& o = outcomes_.at(a);
    if (o.samples < kMinSamples) continue;
    evidenced.insert(rank);
    if (o.varied) data[rank].all_determined = false;
  }
  std::map<int, int> index_of_rank;
  for (const auto& [rank, d] : data) {
    DecisionStage s;
    s.tier = rank_to_stage[rank].first;
    s.up = rank_to_stage[rank].second;
    s.links_available = static_cast<std::uint32_t>(d.available.size());
    s.links_reachable = static_cast<std::uint32_t>(d.reachable.size());
    s.follows_decision = d.follows;
    s.determined = entropy_ && evidenced.count(rank) > 0 && d.all_determined;
    s.same_hash_as_previous = d.follows && d.all_same;
    index_of_rank[rank] = static_cast<int>(stages_.size());
    stages_.push_back(s);
  }
  for (auto& [g, rank] : stage_of_group_) rank = index_of_rank[rank];
}

bool DecisionCoupling::determined(std::uint32_t g_prev, std::uint32_t m_prev, std::uint32_t g_cur) const {
  auto it = outcomes_.find(Arrival{g_prev, m_prev, g_cur});
  return entropy_ && it != outcomes_.end() && !it->second.varied && it->second.samples >= kMinSamples;
}

int DecisionCoupling::stage_of(std::uint32_t g) const {
  auto it = stage_of_group_.find(g);
  return it == stage_of_group_.end() ? -1 : it->second;
}

}  // namespace ct
