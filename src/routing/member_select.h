// Picking one member of an ECMP group of n members from a flow's hash h in [0, 2^bits).
//
//   modulo          member = h mod n.
//   hash-threshold  RFC 2992 (Hopps, "Analysis of an Equal-Cost Multi-Path Algorithm", 2000): the
//                   hash space is cut into n contiguous regions, member = the region holding h.
//                   Region boundaries follow Linux (fib_rebalance in net/ipv4/fib_semantics.c,
//                   nh_hthr_group_rebalance in net/ipv4/nexthop.c): member i owns hashes up to the
//                   inclusive upper bound
//                     ub_i = round((w_1 + ... + w_i) * 2^bits / W) - 1,   W = total weight,
//                   rounding half up, and h goes to the first member with h <= ub_i. Equal
//                   weights give ub_i = round((i + 1) * 2^bits / n) - 1 (0-based i).
// Both are memoryless in the flow: a flow keeps its member while the group is unchanged.
// Precomputed at construction; select() neither allocates nor divides for hash-threshold.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ct {

enum class MemberSelection : std::uint8_t { kModulo, kHashThreshold };

std::string_view member_selection_name(MemberSelection m);
std::optional<MemberSelection> parse_member_selection(std::string_view name);

// Inclusive upper bounds of hash-threshold regions for the given positive weights over a
// `bits`-bit hash space (1 <= bits <= 32). Linux uses bits = 31.
std::vector<std::uint32_t> hash_threshold_bounds(std::span<const std::uint32_t> weights, int bits);

class MemberSelector {
 public:
  // PRECONDITION: members >= 1, 1 <= hash_bits <= 32.
  MemberSelector(std::uint32_t members, MemberSelection method, int hash_bits);

  // PRECONDITION: hash < 2^hash_bits. POSTCONDITION: result < members().
  [[nodiscard]] std::uint32_t select(std::uint32_t hash) const {
    if (method_ == MemberSelection::kModulo) return hash % members_;
    // The region holding h is within one of floor(h * n / 2^bits), since bounds are rounded.
    auto g = static_cast<std::uint32_t>((std::uint64_t{hash} * members_) >> bits_);
    if (g >= members_) g = members_ - 1;
    while (hash > upper_[g]) ++g;
    while (g > 0 && hash <= upper_[g - 1]) --g;
    return g;
  }

  [[nodiscard]] std::uint32_t members() const { return members_; }
  [[nodiscard]] MemberSelection method() const { return method_; }
  [[nodiscard]] int hash_bits() const { return bits_; }

 private:
  std::uint32_t members_;
  MemberSelection method_;
  int bits_;
  std::vector<std::uint32_t> upper_;  // hash-threshold only
};

}  // namespace ct
