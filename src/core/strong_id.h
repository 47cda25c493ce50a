// Typed dense indices. An id is an index into the arrays of the concept that owns it; two ids of
// different concepts never convert into each other. kInvalid marks "none".
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace ct {

template <typename Tag, typename Rep = std::uint32_t>
class StrongId {
 public:
  using rep_type = Rep;
  static constexpr Rep kInvalidValue = std::numeric_limits<Rep>::max();

  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep value) : value_(value) {}
  template <typename Int>
    requires(std::is_integral_v<Int> && !std::is_same_v<Int, Rep>)
  constexpr explicit StrongId(Int value) : value_(static_cast<Rep>(value)) {}

  static constexpr StrongId invalid() { return StrongId(); }
  [[nodiscard]] constexpr Rep value() const { return value_; }
  [[nodiscard]] constexpr bool valid() const { return value_ != kInvalidValue; }

  constexpr auto operator<=>(const StrongId&) const = default;

 private:
  Rep value_ = kInvalidValue;
};

}  // namespace ct

template <typename Tag, typename Rep>
struct std::hash<ct::StrongId<Tag, Rep>> {
  std::size_t operator()(ct::StrongId<Tag, Rep> id) const noexcept { return std::hash<Rep>{}(id.value()); }
};
