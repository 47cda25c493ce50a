#include "core/clock_text.h"

#include <cmath>
#include <string>

namespace ct {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse, counted in
// 400-year eras of 146097 days).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// Digits of `s` from `at`, exactly `n` of them, as a number; -1 when they are not.
int digits(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// A fraction of a second ".ddd..." at `at` in ms (rounded), its length in `used`; -1 when malformed.
int fraction_ms(std::string_view s, std::size_t at, std::size_t& used) {
  used = 0;
  if (at >= s.size() || s[at] != '.') return 0;
  std::size_t i = at + 1;
  double f = 0, scale = 0.1;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    f += (s[i] - '0') * scale;
    scale /= 10;
    ++i;
  }
  if (i == at + 1) return -1;
  used = i - at;
  return static_cast<int>(std::lround(f * 1000.0));
}

}  // namespace

std::optional<std::int64_t> rfc3339_ms(std::string_view s) {
  const int y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2), h = digits(s, 11, 2), mi = digits(s, 14, 2),
            sec = digits(s, 17, 2);
  if (s.size() < 20 || y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60 ||
      s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[mo - 1] || (mo == 2 && d == 29 && !leap)) return std::nullopt;
  std::size_t used = 0;
  const int ms = fraction_ms(s, 19, used);
  if (ms < 0) return std::nullopt;
  std::size_t at = 19 + used;
  std::int64_t offset_min = 0;
  if (at + 1 == s.size() && (s[at] == 'Z' || s[at] == 'z')) {
    at += 1;
  } else if (at + 6 == s.size() && (s[at] == '+' || s[at] == '-') && s[at + 3] == ':') {
    const int oh = digits(s, at + 1, 2), om = digits(s, at + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset_min = (s[at] == '-' ? -1 : 1) * (oh * 60 + om);
    at += 6;
  } else {
    return std::nullopt;
  }
  const std::int64_t seconds = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400 + h * 3600 +
                               mi * 60 + sec - offset_min * 60;
  return seconds * 1000 + ms;
}

std::optional<std::int64_t> unix_seconds_ms(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == 0 || i > 12) return std::nullopt;
  std::size_t used = 0;
  const int ms = fraction_ms(s, i, used);
  if (ms < 0 || i + used != s.size()) return std::nullopt;
  return static_cast<std::int64_t>(std::stoll(std::string(s.substr(0, i)))) * 1000 + ms;
}

std::optional<double> go_duration_s(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double sign = 1;
  if (s[0] == '-' || s[0] == '+') {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (s == "0") return 0.0;
  if (s.empty()) return std::nullopt;
  double total = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    double whole = 0, frac = 0, scale = 1;
    bool any = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      whole = whole * 10 + (s[i++] - '0');
      any = true;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        scale /= 10;
        frac += (s[i++] - '0') * scale;
        any = true;
      }
    }
    if (!any) return std::nullopt;
    std::size_t u = i;
    while (u < s.size() && !(s[u] >= '0' && s[u] <= '9') && s[u] != '.') ++u;
    const std::string_view unit = s.substr(i, u - i);
    double per = 0;
    if (unit == "ns") per = 1e-9;
    else if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs") per = 1e-6;
    else if (unit == "ms") per = 1e-3;
    else if (unit == "s") per = 1;
    else if (unit == "m") per = 60;
    else if (unit == "h") per = 3600;
    else return std::nullopt;
    total += (whole + frac) * per;
    s.remove_prefix(u);
  }
  if (!std::isfinite(total)) return std::nullopt;
  return sign * total;
}

}  // namespace ct
