#include "report/html/page_numbers.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "report/table.h"

namespace ct {
namespace {

constexpr double kWholeLimit = 1e15;  // beyond, a double no longer holds every integer's last digit
constexpr int kDigits = 3;

bool is_whole(double v) { return std::abs(v) >= 0.5 && std::abs(v - std::round(v)) < 1e-9 * std::abs(v); }

// `v` rounded to kDigits significant figures (0 stays 0).
double significant(double v) {
  if (v == 0) return 0;
  const double scale = std::pow(10.0, kDigits - 1 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
  return std::round(v * scale) / scale;
}

std::string scientific(double v) {
  const int e = static_cast<int>(std::floor(std::log10(std::abs(v))));
  double m = v / std::pow(10.0, e);
  int exponent = e;
  m = std::round(m * 100) / 100;
  if (std::abs(m) >= 10) m /= 10, exponent += 1;  // 9.996e-4 rounds to 1e-3
  std::string mantissa = fmt::format("{:.2f}", m);
  while (mantissa.back() == '0') mantissa.pop_back();
  if (mantissa.back() == '.') mantissa.pop_back();
  return fmt::format("{}e{}", mantissa, exponent);
}

}  // namespace

std::string page_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "\u221e" : "-\u221e";
  const double r = significant(v);
  if (r == 0) return "0";  // also -0 and what rounds to it
  if (std::abs(r) >= kWholeLimit) return scientific(v);
  // Whole numbers, and anything whose three significant figures reach the units digit.
  if (is_whole(v) || std::abs(r) >= 100) return count_text(static_cast<long long>(std::llround(v)));
  if (std::abs(r) < 1e-3) return scientific(v);
  const int decimals = kDigits - 1 - static_cast<int>(std::floor(std::log10(std::abs(r))));
  std::string text = fmt::format("{:.{}f}", r, std::max(decimals, 0));
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

constexpr std::array<const char*, 11> kPrefixes = {"p", "n", "\u00b5", "m", "", "k", "M", "G", "T", "P", "E"};
constexpr int kUnitIndex = 4;

// The power of 1000 whose prefix puts `v` (as it will print: 999.96 rounds to 1,000 and so takes
// the next prefix) in [1, 1000).
int prefix_power(double v) {
  if (!std::isfinite(v) || significant(v) == 0) return 0;
  const int k = static_cast<int>(std::floor(std::log10(std::abs(significant(v))) / 3));
  return std::clamp(k, -kUnitIndex, static_cast<int>(kPrefixes.size()) - 1 - kUnitIndex);
}

std::string page_quantity(double v, std::string_view unit) {
  const int k = prefix_power(v);
  const double mantissa = v / std::pow(1000.0, k);
  return fmt::format("{} {}{}", page_number(mantissa), kPrefixes[static_cast<std::size_t>(k + kUnitIndex)], unit);
}

UnitScale unit_scale(double largest, std::string_view unit) {
  const int k = prefix_power(largest);
  return UnitScale{std::pow(1000.0, k), fmt::format("{}{}", kPrefixes[static_cast<std::size_t>(k + kUnitIndex)], unit)};
}

std::string page_percent(double share) { return page_number(100 * share) + "%"; }

}  // namespace ct
