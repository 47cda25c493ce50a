#include <array>
#include <cmath>

#include <gtest/gtest.h>

#include "core/diagnostic.h"
#include "core/ids.h"
#include "core/result.h"
#include "core/rng.h"
#include "core/units.h"

namespace ct {
namespace {

TEST(Units, ParsesSpeeds) {
  BitsPerSecond b;
  ASSERT_TRUE(parse_speed("800G", b));
  EXPECT_EQ(b.value(), 800'000'000'000);
  ASSERT_TRUE(parse_speed("1.6T", b));
  EXPECT_EQ(b.value(), 1'600'000'000'000);
  ASSERT_TRUE(parse_speed("25", b));
  EXPECT_EQ(b, gbps(25));
  ASSERT_TRUE(parse_speed("400Gbps", b));
  EXPECT_EQ(b, gbps(400));
  EXPECT_FALSE(parse_speed("fast", b));
  EXPECT_FALSE(parse_speed("-400G", b));
  EXPECT_FALSE(parse_speed("400X", b));
  EXPECT_EQ(format_speed(gbps(800)), "800G");
  EXPECT_EQ(format_speed(gbps(1600)), "1.6T");
}

TEST(Ids, AreDistinctAndInvalidByDefault) {
  VertexId v;
  EXPECT_FALSE(v.valid());
  EXPECT_TRUE(VertexId(3).valid());
  EXPECT_LT(VertexId(2), VertexId(3));
  static_assert(!std::is_convertible_v<VertexId, LinkId>);
}

TEST(Diagnostics, FormatNamesFileLineField) {
  Diagnostic d{{"spec.yaml", 12, 3}, "backend.planes", "must be 1, 2 or 4"};
  EXPECT_EQ(format_diagnostic(d), "spec.yaml:12:3: error: backend.planes: must be 1, 2 or 4");
  Result<int> r(d);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.errors().size(), 1u);
  Result<int> ok(7);
  EXPECT_EQ(ok.value(), 7);
}

TEST(Rng, SameCoordinatesSameSequence) {
  Rng a(42, 1, 7), b(42, 1, 7), c(42, 1, 8), d(42, 2, 7);
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    EXPECT_NE(x, c.next_u64());
    EXPECT_NE(x, d.next_u64());
  }
}

// A chi-square test of uniform(8) over 80,000 draws: 7 degrees of freedom, the 99.9% quantile is
// 24.32, so a correct generator fails this with probability 0.001 (and this seed is fixed).
TEST(Rng, UniformIsUniform) {
  Rng r(1, 0, 0);
  std::array<int, 8> counts{};
  constexpr int kDraws = 80'000;
  for (int i = 0; i < kDraws; ++i) ++counts[r.uniform(8)];
  double chi2 = 0;
  for (int c : counts) chi2 += std::pow(c - kDraws / 8.0, 2) / (kDraws / 8.0);
  EXPECT_LT(chi2, 24.32);
}

// The mean of n exponential(rate) draws is 1/rate with standard error 1/(rate sqrt(n)).
TEST(Rng, ExponentialMean) {
  Rng r(9, 0, 0);
  constexpr int kN = 100'000;
  double sum = 0;
  for (int i = 0; i < kN; ++i) sum += r.exponential(2.0);
  EXPECT_NEAR(sum / kN, 0.5, 4 * 0.5 / std::sqrt(kN));
}

}  // namespace
}  // namespace ct
