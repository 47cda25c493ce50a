#include "core/units.h"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace ct {

bool parse_speed(const std::string& text, BitsPerSecond& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !(number > 0) || !std::isfinite(number)) return false;
  std::string suffix(end);
  for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.ends_with("BPS")) suffix.resize(suffix.size() - 3);
  else if (suffix.ends_with("B/S")) suffix.resize(suffix.size() - 3);
  double scale = 1e9;
  if (suffix.empty() || suffix == "G") scale = 1e9;
  else if (suffix == "T") scale = 1e12;
  else if (suffix == "M") scale = 1e6;
  else return false;
  out = BitsPerSecond(std::llround(number * scale));
  return true;
}

std::string format_speed(BitsPerSecond b) {
  const double g = to_gbps(b);
  if (g >= 1000.0) return fmt::format("{:g}T", g / 1000.0);
  if (g >= 1.0) return fmt::format("{:g}G", g);
  return fmt::format("{:g}M", g * 1000.0);
}

}  // namespace ct
