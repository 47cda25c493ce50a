#include "core/text.h"

#include <cctype>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace ct {

void append_fixed(std::string& out, double x, int decimals) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  static constexpr std::uint64_t kIntPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
  if (decimals < 0 || decimals > 9 || !std::isfinite(x)) {
    out += fmt::format("{:.{}f}", x, decimals);
    return;
  }
  const double y = std::fabs(x) * kPow10[decimals];  // rounded once: |error| <= y x 2^-53
  const double whole = std::floor(y);
  const double fraction = y - whole;  // exact below 2^52
  if (!(y < 0x1p52) || std::fabs(fraction - 0.5) <= y * 0x1p-52) {
    out += fmt::format("{:.{}f}", x, decimals);
    return;
  }
  const std::uint64_t n = static_cast<std::uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
  const std::uint64_t scale = kIntPow10[decimals];
  if (std::signbit(x)) out += '-';
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, n / scale).ptr;
  out.append(digits, end);
  if (decimals == 0) return;
  out += '.';
  end = std::to_chars(digits, digits + sizeof digits, n % scale).ptr;
  out.append(static_cast<std::size_t>(decimals) - static_cast<std::size_t>(end - digits), '0');
  out.append(digits, end);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;  // limits of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

std::string excerpt(std::string_view text, std::size_t max_characters) {
  std::string out;
  std::size_t characters = 0;
  std::size_t i = 0;
  while (i < text.size() && characters < max_characters) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t length = utf8_sequence(text, i);
    ++characters;
    if (length == 0) {
      out += fmt::format("\\x{:02X}", c);
      ++i;
      continue;
    }
    if (length == 1 && (c < 0x20 || c == 0x7F)) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        case 0x1B: out += "\\e"; break;
        default: out += fmt::format("\\x{:02X}", c);
      }
    } else if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      out += fmt::format("\\u{:04X}", static_cast<unsigned char>(text[i + 1]));  // C1 control (U+0080..U+009F)
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  if (i < text.size()) out += "...";
  return out;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

}  // namespace ct
