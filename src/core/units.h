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

// "800G", "400G", "100G", "25G", "1.6T" -> bits per second; "800" alone means Gb/s.
// Returns false when the text is not a speed.
bool parse_speed(const std::string& text, BitsPerSecond& out);
// 8e11 -> "800G"; 1.6e12 -> "1.6T".
std::string format_speed(BitsPerSecond b);

}  // namespace ct
