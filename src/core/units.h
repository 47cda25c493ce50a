// Units as distinct types.
//   Bytes          int64 bytes.
//   BitsPerSecond  int64 bits per second: 800 Gb/s = 8e11, far inside int64's 9.2e18.
//   TimePs         int64 picoseconds: range +-9.2e18 ps = +-106 days, resolution 1 ps (a 64-byte
//                  frame at 800 Gb/s serialises in 640 ps). Simulations longer than 106 days of
//                  simulated time must use a coarser clock.
//   Watts          double watts.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ct {

template <typename Tag, typename Rep>
class Quantity {
 public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(Rep v) : v_(v) {}
  [[nodiscard]] constexpr Rep value() const { return v_; }
  constexpr auto operator<=>(const Quantity&) const = default;
  constexpr Quantity operator+(Quantity o) const { return Quantity(v_ + o.v_); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(v_ - o.v_); }
  constexpr Quantity& operator+=(Quantity o) { v_ += o.v_; return *this; }
  constexpr Quantity& operator-=(Quantity o) { v_ -= o.v_; return *this; }
  constexpr Quantity operator*(Rep k) const { return Quantity(v_ * k); }

 private:
  Rep v_{};
};

using Bytes = Quantity<struct BytesTag, std::int64_t>;
using BitsPerSecond = Quantity<struct BitsPerSecondTag, std::int64_t>;
using TimePs = Quantity<struct TimePsTag, std::int64_t>;
using Watts = Quantity<struct WattsTag, double>;

constexpr BitsPerSecond gbps(std::int64_t g) { return BitsPerSecond(g * 1'000'000'000); }
constexpr TimePs nanoseconds(std::int64_t ns) { return TimePs(ns * 1000); }
constexpr double to_gbps(BitsPerSecond b) { return static_cast<double>(b.value()) / 1e9; }
constexpr double to_seconds(TimePs t) { return static_cast<double>(t.value()) * 1e-12; }

// Text -> quantity, each with its limits, so that a value read from a file cannot overflow where it
// is used. The diagnostic of a failure has only a message (no place): the caller knows where the
// text came from and adds it.
//
// Speeds: "800G", "400G", "100G", "25G", "1.6T", "400Gbps", "100M" -> bits per second; a number
// alone means Gb/s. Limits (0, kMaxSpeed]: 1 Pb/s, so that a switch's ports x port speed (at most
// 4,096 ports) stays far inside int64.
inline constexpr BitsPerSecond kMaxSpeed{1'000'000'000'000'000};
Result<BitsPerSecond> parse_speed(std::string_view text);
// Sizes: an integer number of bytes, or a number with B, KB, MB, GB, TB (powers of 1000) or KiB,
// MiB, GiB, TiB (powers of 1024), a space allowed before the unit. Limits [0, kMaxBytes]: 10^18
// bytes, so that the size in bits (x 8) fits int64.
inline constexpr Bytes kMaxBytes{1'000'000'000'000'000'000};
Result<Bytes> parse_size(std::string_view text);
// Durations: a number with ps, ns, us, ms or s ("250us", "1.5 ms"); 0 may stand alone. Limits
// [0, kMaxDuration]: 10^18 ps (10^6 s, 11.6 days), so that sums of a few durations stay inside
// TimePs's +-9.2e18 ps.
inline constexpr TimePs kMaxDuration{1'000'000'000'000'000'000};
Result<TimePs> parse_duration(std::string_view text);
// 8e11 -> "800G"; 1.6e12 -> "1.6T".
std::string format_speed(BitsPerSecond b);

}  // namespace ct
