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
// Dependence (partial coupling). A decision can be neither free nor determined: with one hash at
// two tiers and hash-threshold selection, a 2-way choice takes the top bit of h and a following
// 4-way choice its top two bits, so the first fixes one of the second's two bits; after a 3-way
// choice a 2-way one is fixed for the outer thirds of the hash space and free in the middle. The
// stage measures it as the mutual information between consecutive member choices, in bits,
// given the previous group (so flows of different sources and destinations are not mixed):
//   I(M_prev; M | G_prev) = sum_g P(g) sum_{a,b} P(a, b | g) log2(P(a, b | g) / (P(a | g) P(b | g)))
// from the sampled pairs (plug-in estimates with the Miller-Madow correction of each entropy, so
// an independent 64 x 16 table from 4,096 pairs shows about 0 rather than its 0.17-bit plug-in
// bias), beside H(M | G_prev), the entropy of the choice: 1.00
// of 2.00 bits for the 2 x 4 case, 0.67 of 1.00 for 3 x 2 (worked in polarization_test.cpp).
// Independent hashes give I near 0; the G-test says when I is more than sampling noise: under
// independence G = 2 N ln 2 I is chi-square with sum_g (rows_g - 1)(columns_g - 1) degrees of
// freedom; partial coupling needs G above the Wilson-Hilferty approximation of its quantile at
// z = 6 (a false alarm about 1 in 10^9), or an arrival seen at least kMinSamples x n times that
// never took some of its group's n members (by chance n (1 - 1/n)^(16 n) < n e^-16).
//
// No entropy: when the source port is not hashed, every sample of a flow walks the same path and
// every Monte Carlo trial is identical; no decision is evidence of anything, and the stage says so.
//
// Stages: decisions are grouped by the deciding switch's tier and direction, in path order (up by
// tier, then down by tier). Per stage: links available (members of the groups entered), links
// reachable (chosen in some sample), the coupling with the previous decision (above), and whether
// consecutive deciders hash identically (same function, fields and seed). The canonical case: same
// function and seed on two consecutive up tiers of a 2x2 Clos, so h mod 2 at the spine repeats
// h mod 2 at the leaf and only 2 of the 4 spine uplinks are reachable.
// A CRC is affine over GF(2): crc(seed || key) = crc(seed || 0) xor L(key), so two seeds only XOR
// a constant into the hash and power-of-two groups stay coupled even with per-switch seeds; the
// sampling finds that too.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "routing/load_balancing.h"
#include "routing/path_walker.h"

namespace ct {

// How a stage's decisions depend on the previous decision of the same walk.
enum class Coupling : std::uint8_t {
  kFirst,        // no decision of the stage follows another
  kNoEntropy,    // the source port is not hashed: every sample (and trial) is identical
  kIndependent,  // no evidence of dependence
  kPartial,      // dependent but not determined (see above)
  kDetermined,   // every evidenced arrival always took the same member
};
std::string_view coupling_name(Coupling c);

struct DecisionStage {
  int tier = 1;  // tier of the deciding switch
  bool up = true;
  std::uint32_t links_available = 0;
  std::uint32_t links_reachable = 0;
  bool follows_decision = false;     // some decision of this stage comes after an earlier one
  bool determined = false;           // ... and every such decision is determined by it
  bool same_hash_as_previous = false;  // every consecutive (previous, this) pair hashes identically
  Coupling coupling = Coupling::kFirst;
  // Over the sampled (previous, this) pairs: I(M_prev; M | G_prev) and H(M | G_prev), bits.
  double mutual_information_bits = 0.0;
  double entropy_bits = 0.0;
  std::uint64_t pairs = 0;  // sampled consecutive pairs
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
