#include "routing/member_select.h"

#include <gtest/gtest.h>

#include <set>

#include "routing/seed_policy.h"

namespace ct {
namespace {

TEST(MemberSelect, Modulo) {
  const MemberSelector s(3, MemberSelection::kModulo, 16);
  EXPECT_EQ(s.select(0), 0u);
  EXPECT_EQ(s.select(4), 1u);
  EXPECT_EQ(s.select(65535), 0u);  // 65535 = 3 * 21845
}

// Three members over a 16-bit hash: bounds round(65536/3) - 1 = 21845 - 1 = 21844,
// round(131072/3) - 1 = 43691 - 1 = 43690, and 65535.
TEST(MemberSelect, HashThresholdThreeMembersByHand) {
  const std::uint32_t ones[] = {1, 1, 1};
  EXPECT_EQ(hash_threshold_bounds(ones, 16), (std::vector<std::uint32_t>{21844, 43690, 65535}));
  const MemberSelector s(3, MemberSelection::kHashThreshold, 16);
  EXPECT_EQ(s.select(0), 0u);
  EXPECT_EQ(s.select(21844), 0u);
  EXPECT_EQ(s.select(21845), 1u);
  EXPECT_EQ(s.select(43690), 1u);
  EXPECT_EQ(s.select(43691), 2u);
  EXPECT_EQ(s.select(65535), 2u);
}

// Linux's 31-bit space, weights 1:2:1 (total 4): bounds 2^29 - 1, 3 * 2^29 - 1, 2^31 - 1.
TEST(MemberSelect, WeightedBoundsByHand) {
  const std::uint32_t w[] = {1, 2, 1};
  EXPECT_EQ(hash_threshold_bounds(w, 31),
            (std::vector<std::uint32_t>{(1u << 29) - 1, 3u * (1u << 29) - 1, (1u << 31) - 1}));
}

// The O(1) guess-and-correct choice equals the definition (first bound >= h) for every 16-bit hash
// and group sizes 1..40, and for 32-bit hashes at the region edges.
TEST(MemberSelect, HashThresholdMatchesDefinition) {
  for (std::uint32_t n = 1; n <= 40; ++n) {
    const MemberSelector s(n, MemberSelection::kHashThreshold, 16);
    const std::vector<std::uint32_t> ones(n, 1);
    const auto bounds = hash_threshold_bounds(ones, 16);
    std::uint32_t want = 0;
    for (std::uint32_t h = 0; h < 65536; ++h) {
      while (h > bounds[want]) ++want;
      ASSERT_EQ(s.select(h), want) << "n=" << n << " h=" << h;
    }
  }
  for (std::uint32_t n : {2u, 3u, 7u, 8u, 64u, 1000u}) {
    const MemberSelector s(n, MemberSelection::kHashThreshold, 32);
    const std::vector<std::uint32_t> ones(n, 1);
    const auto bounds = hash_threshold_bounds(ones, 32);
    EXPECT_EQ(bounds.back(), 0xFFFFFFFFu);
    for (std::uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(s.select(bounds[i]), i);
      if (i + 1 < n) {
        ASSERT_EQ(s.select(bounds[i] + 1), i + 1);
      }
    }
  }
}

TEST(SeedPolicy, Modes) {
  const std::uint64_t base = 0x1234'5678'9ABC'DEF0ULL;
  EXPECT_EQ(derive_seed(SeedMode::kSame, base, 1, 0), 0x9ABCDEF0u);
  EXPECT_EQ(derive_seed(SeedMode::kSame, base, 2, 7), 0x9ABCDEF0u);
  EXPECT_EQ(derive_seed(SeedMode::kPerTier, base, 1, 0), derive_seed(SeedMode::kPerTier, base, 1, 99));
  EXPECT_NE(derive_seed(SeedMode::kPerTier, base, 1, 0), derive_seed(SeedMode::kPerTier, base, 2, 0));
  std::set<std::uint32_t> seeds;
  for (std::uint32_t sw = 0; sw < 64; ++sw) seeds.insert(derive_seed(SeedMode::kPerSwitch, base, 1, sw));
  EXPECT_EQ(seeds.size(), 64u);
  EXPECT_NE(derive_seed(SeedMode::kPerSwitch, base, 1, 3), derive_seed(SeedMode::kPerSwitch, base, 2, 3));
  for (SeedMode m : {SeedMode::kSame, SeedMode::kPerTier, SeedMode::kPerSwitch})
    EXPECT_EQ(parse_seed_mode(seed_mode_name(m)), m);
  EXPECT_EQ(parse_member_selection("hash-threshold"), MemberSelection::kHashThreshold);
  EXPECT_EQ(parse_member_selection("modulo"), MemberSelection::kModulo);
}

}  // namespace
}  // namespace ct
