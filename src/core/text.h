// Small text helpers shared by the readers: trimming, ASCII lower case, splitting into words and
// taking a fixed word or a number off the front of a text. Everything here works on bytes (ASCII); nothing
// depends on the locale.
//
// The readers differ in what they call blank, and each keeps its own rule: the sets below are
// named so a reader says which one it trims (a CSV cell drops a trailing '\r' but not a leading
// one; a name typed on the command line drops any white space).
//
//   trim("  a b \t")                        -> "a b"      (kSpaceTab)
//   trim(" a\r", kSpaceTab)                 -> "a\r"
//   trim("\r a \r", kSpaceTab, kSpaceTabCr) -> "\r a"     (leading set, trailing set)
//   words(" a\tbb  c")                      -> {"a", "bb", "c"}
//   take_word(rest = "host3", "host")       -> true, rest == "3"
//   take_number(rest = "3/nic1", n)         -> true, n == 3, rest == "/nic1"
//   excerpt("a\x1b[2Jb" + 100 x "c")         -> "a\e[2Jbccc...c..." (80 characters, then "...")
//
// Errors quote the offending text through excerpt(), the one place that decides how much of it a
// message shows and how: at most kExcerptLength characters (a 10 MB line makes a short message),
// control characters escaped (\n, \t, \r, \e, \xHH: an escape sequence in a field never reaches
// the terminal raw), bytes that are not well-formed UTF-8 as \xHH. format_diagnostic()
// (core/diagnostic.h) applies the same escaping to every diagnostic it prints.
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ct {

// A set of bytes, tested in one step (one load from a table of 256 flags: the readers trim every
// cell of a file and scan every name of a counter scrape).
class CharSet {
 public:
  consteval explicit CharSet(std::string_view chars) {
    for (const char c : chars) member_[static_cast<unsigned char>(c)] = true;
  }
  [[nodiscard]] constexpr bool contains(char c) const { return member_[static_cast<unsigned char>(c)]; }
  // Every member is a control byte or ' ' (so a byte above ' ' is no member).
  [[nodiscard]] constexpr bool at_most_space() const {
    for (std::size_t u = 33; u < member_.size(); ++u) {
      if (member_[u]) return false;
    }
    return true;
  }

 private:
  std::array<bool, 256> member_{};
};

inline constexpr CharSet kSpaceTab{" \t"};
inline constexpr CharSet kSpaceTabCr{" \t\r"};
// What std::isspace calls space in the "C" locale.
inline constexpr CharSet kWhiteSpace{" \t\n\v\f\r"};

// s without the bytes of `leading` at its front and of `trailing` at its back.
[[gnu::always_inline]] inline std::string_view trim(std::string_view s, const CharSet& leading, const CharSet& trailing) {
  // Most cells start and end with a printing character: nothing to trim.
  if (!s.empty() && !leading.contains(s.front()) && !trailing.contains(s.back())) return s;
  while (!s.empty() && leading.contains(s.front())) s.remove_prefix(1);
  while (!s.empty() && trailing.contains(s.back())) s.remove_suffix(1);
  return s;
}
[[gnu::always_inline]] inline std::string_view trim(std::string_view s, const CharSet& blanks = kSpaceTab) {
  return trim(s, blanks, blanks);
}

// Characters of the offending text a message quotes (excerpt()).
inline constexpr std::size_t kExcerptLength = 80;

// At most `max_characters` characters of `text` (UTF-8 sequences count as one), control
// characters, DEL and C1 controls escaped, ill-formed UTF-8 bytes as \xHH; "..." when cut.
std::string excerpt(std::string_view text, std::size_t max_characters = kExcerptLength);

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629; overlong forms, surrogates and
// code points above U+10FFFF are ill-formed), or 0. PRECONDITION: i < text.size().
std::size_t utf8_sequence(std::string_view text, std::size_t i);

// ASCII lower case ("C" locale std::tolower), byte by byte.
std::string lower(std::string s);

// The runs of s between spaces and tabs, in order; none for a blank s.
std::vector<std::string_view> words(std::string_view s);

// When `rest` starts with `word`: removes it and returns true; else leaves `rest` as it is.
inline bool take_word(std::string_view& rest, std::string_view word) {
  if (!rest.starts_with(word)) return false;
  rest.remove_prefix(word.size());
  return true;
}

// True when s is one or more ASCII digits.
inline bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// When `rest` starts with a decimal number (std::from_chars: an optional '-', then digits, in
// range): stores it in `out`, removes it and returns true; else leaves `rest` as it is.
inline bool take_number(std::string_view& rest, long long& out) {
  const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out, 10);
  if (ec != std::errc() || ptr == rest.data()) return false;
  rest.remove_prefix(static_cast<std::size_t>(ptr - rest.data()));
  return true;
}

// x with `decimals` digits after the point: exactly the text of fmt::format("{:.{}f}", x, decimals)
// (printf's %.*f: the binary value rounded to nearest, ties to even; "-0.00" for a small negative
// value), written without a format string. When |x| x 10^decimals is below 2^52 and its fraction
// lies farther from one half than the product's rounding error (|x| x 10^d x 2^-52), the rounded
// integer is that of the computed product; otherwise (a tie or near-tie, NaN, infinity, a huge
// value, more than 9 decimals) fmt formats it. Reports print hundreds of thousands of rates.
void append_fixed(std::string& out, double x, int decimals);
inline std::string fixed(double x, int decimals) {
  std::string out;
  append_fixed(out, x, decimals);
  return out;
}

}  // namespace ct
