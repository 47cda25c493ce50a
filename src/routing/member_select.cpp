#include "routing/member_select.h"

#include <cassert>
#include <numeric>

namespace ct {

std::string_view member_selection_name(MemberSelection m) {
  return m == MemberSelection::kModulo ? "modulo" : "hash-threshold";
}

std::optional<MemberSelection> parse_member_selection(std::string_view name) {
  if (name == "modulo") return MemberSelection::kModulo;
  if (name == "hash-threshold") return MemberSelection::kHashThreshold;
  return std::nullopt;
}

std::vector<std::uint32_t> hash_threshold_bounds(std::span<const std::uint32_t> weights, int bits) {
  assert(bits >= 1 && bits <= 32 && !weights.empty());
  const std::uint64_t total = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  std::vector<std::uint32_t> bounds;
  bounds.reserve(weights.size());
  std::uint64_t cumulative = 0;
  for (std::uint32_t w : weights) {
    assert(w > 0);
    cumulative += w;
    // DIV_ROUND_CLOSEST: (x + d/2) / d; x < 2^64 while total < 2^31.
    const std::uint64_t bound = ((cumulative << bits) + total / 2) / total;
    bounds.push_back(static_cast<std::uint32_t>(bound - 1));
  }
  return bounds;
}

MemberSelector::MemberSelector(std::uint32_t members, MemberSelection method, int hash_bits)
    : members_(members), method_(method), bits_(hash_bits) {
  assert(members >= 1 && hash_bits >= 1 && hash_bits <= 32);
  if (method == MemberSelection::kHashThreshold) {
    const std::vector<std::uint32_t> ones(members, 1u);
    upper_ = hash_threshold_bounds(ones, hash_bits);
  }
}

}  // namespace ct
