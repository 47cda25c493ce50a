// Which ECMP decisions of a flow set are really choices: the evidence behind "polarization".
//
// For every flow, the source port (its entropy) is redrawn `samples` times uniformly from the RoCE
// range and the flow is walked; every hashed decision (a group of >= 2 members) is recorded with
// the previous hashed decision of the same walk. A decision at group g reached after the previous
// decision (g', m') is DETERMINED when every sample that made (g', m') and then reached g picked
// the same member of g, over at least kMinSamples samples: the choice at g is then a function of
// the choice at g', and flows that arrive the same way cannot spread. With independent hashes the
// chance of a false "determined" is n^-(samples - 1) for an n-way group: below 2^-15 at 16 samples.
//
// Stages: decisions are grouped by the deciding switch's tier and direction, in path order (up by
// tier, then down by tier). Per stage: links available (members of the groups entered), links
// reachable (chosen in some sample), whether every decision of the stage that follows a previous
// one is determined, and whether consecutive deciders hash identically (same function, fields and
// seed). The canonical case: same function and seed on two consecutive up tiers of a 2x2 Clos, so
// h mod 2 at the spine repeats h mod 2 at the leaf and only 2 of the 4 spine uplinks are reachable.
// A CRC is affine over GF(2): crc(seed || key) = crc(seed || 0) xor L(key), so two seeds only XOR
// a constant into the hash and power-of-two groups stay coupled even with per-switch seeds; the
// sampling finds that too.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <vector>

#include "routing/load_balancing.h"
#include "routing/path_walker.h"

namespace ct {

struct DecisionStage {
  int tier = 1;  // tier of the deciding switch
  bool up = true;
  std::uint32_t links_available = 0;
  std::uint32_t links_reachable = 0;
  bool follows_decision = false;     // some decision of this stage comes after an earlier one
  bool determined = false;           // ... and every such decision is determined by it
  bool same_hash_as_previous = false;  // every consecutive (previous, this) pair hashes identically
};

class DecisionCoupling {
 public:
  static constexpr std::uint32_t kMinSamples = 16;

  DecisionCoupling(const PathWalker& walker, std::span<const RouteRequest> flows, std::uint64_t seed,
                   std::uint32_t samples_per_flow);

  // Was the choice at g_cur determined after choosing member m_prev of g_prev?
  [[nodiscard]] bool determined(std::uint32_t g_prev, std::uint32_t m_prev, std::uint32_t g_cur) const;
  [[nodiscard]] const std::vector<DecisionStage>& stages() const { return stages_; }
  // The stage index of a decision at group g, or -1.
  [[nodiscard]] int stage_of(std::uint32_t g) const;

 private:
  struct Outcomes {
    std::uint32_t samples = 0;
    std::uint32_t first_member = 0;
    bool varied = false;
  };
  using Arrival = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;  // g_prev, m_prev, g_cur

  const PathWalker& walker_;
  bool entropy_ = true;  // the source port enters the hash; without it no decision is evidence
  std::map<Arrival, Outcomes> outcomes_;
  std::vector<DecisionStage> stages_;
  std::map<std::uint32_t, int> stage_of_group_;
};

}  // namespace ct
