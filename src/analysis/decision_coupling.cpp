#include "analysis/decision_coupling.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/rng.h"

namespace ct {
namespace {

constexpr std::uint64_t kCouplingStream = 0xC0'0F1E;

// Path order of stages: up by ascending tier, then down by descending tier.
int stage_rank(int tier, bool up) { return up ? tier : 100 - tier; }

// The chi-square quantile for `dof` degrees of freedom at the standard normal deviate z
// (Wilson and Hilferty, 1931): dof (1 - 2/(9 dof) + z sqrt(2/(9 dof)))^3.
double chi_square_quantile(double dof, double z) {
  const double a = 2.0 / (9.0 * dof);
  const double x = 1.0 - a + z * std::sqrt(a);
  return dof * x * x * x;
}
constexpr double kDependenceZ = 6.0;

// Mutual information (bits), entropy of the second coordinate (bits), both bias-corrected, the
// G statistic, sample count and degrees of freedom of one contingency table of (previous member,
// member) counts.
struct Table {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> joint;
  double mutual_information = 0.0;
  double entropy = 0.0;
  double g_statistic = 0.0;
  std::uint64_t n = 0;
  std::uint64_t dof = 0;

  void measure() {
    std::map<std::uint32_t, std::uint64_t> rows, columns;
    for (const auto& [ab, count] : joint) {
      rows[ab.first] += count;
      columns[ab.second] += count;
      n += count;
    }
    const double total = static_cast<double>(n);
    for (const auto& [ab, count] : joint) {
      const double pab = static_cast<double>(count) / total;
      const double pa = static_cast<double>(rows[ab.first]) / total;
      const double pb = static_cast<double>(columns[ab.second]) / total;
      mutual_information += pab * std::log2(pab / (pa * pb));
    }
    g_statistic = 2.0 * total * std::log(2.0) * mutual_information;  // from the plug-in estimate
    for (const auto& [b, count] : columns) {
      const double pb = static_cast<double>(count) / total;
      entropy -= pb * std::log2(pb);
    }
    dof = (rows.size() - 1) * (columns.size() - 1);
    // Miller-Madow: each plug-in entropy over K observed cells is low by about (K - 1) / (2 N ln 2)
    // bits, so I = H(A) + H(B) - H(A, B) gets ((K_A - 1) + (K_B - 1) - (K_AB - 1)) / (2 N ln 2):
    // -(K_A - 1)(K_B - 1) / (2 N ln 2) for a full independent table, +(K_B - 1) / (2 N ln 2) for a
    // determined one (then I = H(B) after both corrections).
    const double bias_unit = 1.0 / (2.0 * total * std::log(2.0));
    const double cells_a = static_cast<double>(rows.size()), cells_b = static_cast<double>(columns.size());
    entropy += (cells_b - 1.0) * bias_unit;
    mutual_information += (cells_a + cells_b - 1.0 - static_cast<double>(joint.size())) * bias_unit;
    mutual_information = std::clamp(mutual_information, 0.0, entropy);
  }
};

}  // namespace

std::string_view coupling_name(Coupling c) {
  switch (c) {
    case Coupling::kFirst: return "first decision";
    case Coupling::kNoEntropy: return "no entropy";
    case Coupling::kIndependent: return "independent";
    case Coupling::kPartial: return "partial coupling";
    case Coupling::kDetermined: return "determined";
  }
  return "?";
}

DecisionCoupling::DecisionCoupling(const PathWalker& walker, std::span<const RouteRequest> flows, std::uint64_t seed,
                                   std::uint32_t samples_per_flow)
    : walker_(walker), entropy_((walker.hashes().config().effective_fields() & kFieldSrcPort) != 0) {
  const ForwardingState& f = walker.forwarding();
  const Topology& t = f.topology();
  struct StageData {
    std::set<std::uint32_t> available, reachable;
    std::set<std::uint32_t> entered;  // groups whose members are in `available`
    bool follows = false, all_determined = true, all_same = true, missing_member = false;
    std::map<std::uint32_t, Table> by_previous_group;  // g_prev -> (m_prev, m) counts
  };
  std::map<int, StageData> data;  // by rank
  std::map<int, std::pair<int, bool>> rank_to_stage;
  std::set<std::pair<std::uint32_t, std::uint32_t>> consecutive;  // (previous decider, decider)
  std::set<std::pair<int, Arrival>> arrivals;
  std::map<Arrival, std::set<std::uint32_t>> members_taken;
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
        // A group's members once per stage, not once per sample (64 members x 2,048 samples x
        // 64 flows were 0.75 G instructions of the hash command's set-up).
        if (d.entered.insert(hop.group).second) {
          for (LinkId l : f.members(hop.group)) d.available.insert(l.value());
        }
        d.reachable.insert(hop.link.value());
        if (previous != nullptr) {
          const Arrival a{previous->group, previous->member, hop.group};
          Outcomes& o = outcomes_[a];
          if (o.samples == 0) o.first_member = hop.member;
          o.varied = o.varied || o.first_member != hop.member;
          ++o.samples;
          arrivals.insert({rank, a});
          members_taken[a].insert(hop.member);
          ++d.by_previous_group[previous->group].joint[{previous->member, hop.member}];
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
    const std::uint32_t n = f.size(std::get<2>(a));
    if (o.samples >= kMinSamples * n && members_taken.at(a).size() < n) data[rank].missing_member = true;
  }
  std::map<int, int> index_of_rank;
  for (auto& [rank, d] : data) {
    DecisionStage s;
    s.tier = rank_to_stage[rank].first;
    s.up = rank_to_stage[rank].second;
    s.links_available = static_cast<std::uint32_t>(d.available.size());
    s.links_reachable = static_cast<std::uint32_t>(d.reachable.size());
    s.follows_decision = d.follows;
    s.determined = entropy_ && evidenced.count(rank) > 0 && d.all_determined;
    s.same_hash_as_previous = d.follows && d.all_same;
    double g_statistic = 0.0;
    std::uint64_t dof = 0;
    for (auto& [g, table] : d.by_previous_group) {
      table.measure();
      s.pairs += table.n;
      s.mutual_information_bits += static_cast<double>(table.n) * table.mutual_information;
      s.entropy_bits += static_cast<double>(table.n) * table.entropy;
      g_statistic += table.g_statistic;
      dof += table.dof;
    }
    if (s.pairs > 0) {
      s.mutual_information_bits /= static_cast<double>(s.pairs);
      s.entropy_bits /= static_cast<double>(s.pairs);
    }
    const bool dependent =
        d.missing_member || (dof > 0 && g_statistic > chi_square_quantile(static_cast<double>(dof), kDependenceZ));
    if (!d.follows) {
      s.coupling = Coupling::kFirst;
    } else if (!entropy_) {
      s.coupling = Coupling::kNoEntropy;
    } else if (s.determined) {
      s.coupling = Coupling::kDetermined;
    } else {
      s.coupling = dependent ? Coupling::kPartial : Coupling::kIndependent;
    }
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
