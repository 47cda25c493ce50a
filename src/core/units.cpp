#include "core/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/text.h"

namespace ct {
namespace {

Diagnostic failure(std::string message) { return Diagnostic{{}, "", std::move(message)}; }

// The text, quoted, as an excerpt (core/text.h).
std::string quote(std::string_view text) { return "'" + excerpt(text) + "'"; }

// A finite, non-negative decimal number at the start of `text`; the rest (the unit) in `unit`.
bool leading_number(std::string_view text, double& number, std::string_view& unit) {
  text = trim(text);
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec == std::errc::result_out_of_range) {
    number = HUGE_VAL;  // "1e999": a number, too large
  } else if (ec != std::errc() || ptr == text.data() || !std::isfinite(number) || number < 0) {
    return false;
  }
  unit = trim(std::string_view(ptr, static_cast<std::size_t>(text.data() + text.size() - ptr)));
  return true;
}

struct UnitScale {
  std::string_view name;
  double scale;
};

}  // namespace

Result<BitsPerSecond> parse_speed(std::string_view text) {
  double number = 0;
  std::string_view unit_text;
  const auto not_a_speed = [&] {
    return failure(fmt::format("{} is not a speed; write e.g. 400G or 1.6T", quote(text)));
  };
  if (!leading_number(text, number, unit_text) || !(number > 0)) return not_a_speed();
  std::string unit(unit_text);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.ends_with("BPS") || unit.ends_with("B/S")) unit.resize(unit.size() - 3);
  double scale = 0;
  if (unit.empty() || unit == "G") scale = 1e9;
  else if (unit == "T") scale = 1e12;
  else if (unit == "M") scale = 1e6;
  else return not_a_speed();
  const double bps = std::round(number * scale);
  if (!(bps <= static_cast<double>(kMaxSpeed.value()))) {
    return failure(fmt::format("{} is above the largest speed this tool models, {}", quote(text), format_speed(kMaxSpeed)));
  }
  if (bps < 1) return not_a_speed();
  return BitsPerSecond(static_cast<std::int64_t>(bps));
}

Result<Bytes> parse_size(std::string_view text) {
  double number = 0;
  std::string_view unit;
  constexpr std::array<UnitScale, 10> kUnits = {{{"", 1},
                                                         {"B", 1},
                                                         {"KB", 1e3},
                                                         {"MB", 1e6},
                                                         {"GB", 1e9},
                                                         {"TB", 1e12},
                                                         {"KiB", 1024.0},
                                                         {"MiB", 1048576.0},
                                                         {"GiB", 1073741824.0},
                                                         {"TiB", 1099511627776.0}}};
  const auto not_a_size = [&] {
    return failure(fmt::format("{} is not a size; write e.g. 1GiB, 64KB or 1048576", quote(text)));
  };
  if (!leading_number(text, number, unit)) return not_a_size();
  const auto* it = std::find_if(kUnits.begin(), kUnits.end(), [&](const auto& u) { return u.name == unit; });
  if (it == kUnits.end()) return not_a_size();
  const double bytes = std::round(number * it->scale);
  if (!(bytes <= static_cast<double>(kMaxBytes.value()))) {
    return failure(fmt::format("{} is above the largest size, 10^18 bytes (1 EB)", quote(text)));
  }
  return Bytes(static_cast<std::int64_t>(bytes));
}

Result<TimePs> parse_duration(std::string_view text) {
  double number = 0;
  std::string_view unit;
  constexpr std::array<UnitScale, 5> kUnits = {{{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}}};
  const auto not_a_duration = [&] {
    return failure(fmt::format("{} is not a duration; write e.g. 250us, 1.5ms or 2s", quote(text)));
  };
  if (!leading_number(text, number, unit)) return not_a_duration();
  const auto* it = std::find_if(kUnits.begin(), kUnits.end(), [&](const auto& u) { return u.name == unit; });
  if (it == kUnits.end() && !(unit.empty() && number == 0)) return not_a_duration();
  const double ps = std::round(number * (it == kUnits.end() ? 0.0 : it->scale));
  if (!(ps <= static_cast<double>(kMaxDuration.value()))) {
    return failure(fmt::format("{} is above the longest duration, 10^6 s (11.6 days)", quote(text)));
  }
  return TimePs(static_cast<std::int64_t>(ps));
}

std::string format_speed(BitsPerSecond b) {
  const double g = to_gbps(b);
  if (g >= 1000.0) return fmt::format("{:g}T", g / 1000.0);
  if (g >= 1.0) return fmt::format("{:g}G", g);
  return fmt::format("{:g}M", g * 1000.0);
}

}  // namespace ct
