#include "core/csv_cursor.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>

namespace ct {
namespace {

// The first ',' in s at or after i, or s.size(). Sixteen bytes at a time where SSE2 is there (every
// x86-64), then eight at a time: a byte of w ^ ",,,,,,,," is zero exactly where w has a comma, and
// ~(((x & 7f..) + 7f..) | x | 7f..) sets the top bit of exactly the zero bytes of x (no carry
// crosses a byte: each byte's sum is at most 0xfe).
std::size_t find_comma(std::string_view s, std::size_t i) {
#if defined(__SSE2__)
  const __m128i commas = _mm_set1_epi8(',');
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const auto hits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, commas)));
    if (hits != 0) return i + static_cast<std::size_t>(std::countr_zero(hits));
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kCommas = 0x2C2C'2C2C'2C2C'2C2CULL;
    constexpr std::uint64_t kLow7 = 0x7F7F'7F7F'7F7F'7F7FULL;
    for (; i + 8 <= s.size(); i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, s.data() + i, 8);
      const std::uint64_t x = w ^ kCommas;
      const std::uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);
      if (zero != 0) return i + static_cast<std::size_t>(std::countr_zero(zero)) / 8;
    }
  }
  while (i < s.size() && s[i] != ',') ++i;
  return i;
}

}  // namespace

CsvCursor::CsvCursor(std::string file, std::string_view text, const CharSet& leading, const CharSet& trailing)
    : file_(std::move(file)), lines_(text), leading_(leading), trailing_(trailing) {
  assert(leading.at_most_space() && trailing.at_most_space());
}

[[gnu::always_inline]] inline std::string_view CsvCursor::trim_cell(std::string_view s) const {
  // Most cells begin and end with a printing byte, which no set holds: nothing to trim.
  if (!s.empty() && static_cast<unsigned char>(s.front()) > ' ' && static_cast<unsigned char>(s.back()) > ' ') return s;
  return trim(s, leading_, trailing_);
}

bool CsvCursor::split(std::string_view line) {
#if defined(__SSE2__)
  if (split_unquoted(line)) return true;
#endif
  return split_cells(line);
}

#if defined(__SSE2__)
// split() for a line without a '"': one pass over it sixteen bytes at a time, the commas' bits then
// walked to cut the cells. False, with cells_ in any state, when the line has a '"'.
bool CsvCursor::split_unquoted(std::string_view line) {
  cells_.clear();
  const __m128i comma = _mm_set1_epi8(',');
  const __m128i quote = _mm_set1_epi8('"');
  std::size_t start = 0;
  for (std::size_t base = 0; base < line.size(); base += 16) {
    __m128i v;
    if (line.size() - base >= 16) {
      v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line.data() + base));
    } else {
      alignas(16) char tail[16] = {};
      std::memcpy(tail, line.data() + base, line.size() - base);
      v = _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) != 0) return false;
    for (auto bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma))); bits != 0; bits &= bits - 1) {
      const std::size_t at = base + static_cast<std::size_t>(std::countr_zero(bits));
      cells_.push_back({trim_cell(line.substr(start, at - start)), static_cast<int>(start) + 1, static_cast<int>(at - start)});
      start = at + 1;
    }
  }
  cells_.push_back({trim_cell(line.substr(start)), static_cast<int>(start) + 1, static_cast<int>(line.size() - start)});
  return true;
}
#endif

// Cell by cell: a quoted cell read to its closing '"', any other cut at its comma.
bool CsvCursor::split_cells(std::string_view line) {
  cells_.clear();
  std::size_t i = 0;
  while (true) {
    const int column = static_cast<int>(i) + 1;
    if (i < line.size() && line[i] == '"') {
      std::size_t j = i + 1;
      bool closed = false;
      bool doubled = false;
      for (; j < line.size(); ++j) {
        if (line[j] != '"') continue;
        if (j + 1 < line.size() && line[j + 1] == '"') {
          doubled = true;
          ++j;
        } else {
          closed = true;
          ++j;
          break;
        }
      }
      if (!closed || (j < line.size() && line[j] != ',')) {
        error_ = Diagnostic{{file_, line_number(), column}, "", "a quoted cell must end with '\"' followed by ',' or the end of the line"};
        return false;
      }
      std::string_view text = line.substr(i + 1, j - i - 2);
      if (doubled) {
        std::string value;
        for (std::size_t k = 0; k < text.size(); ++k) {
          value += text[k];
          if (text[k] == '"') ++k;  // "" stands for one '"'
        }
        unescaped_.push_back(std::move(value));
        text = unescaped_.back();
      }
      cells_.push_back({text, column, static_cast<int>(j - i)});
      if (j >= line.size()) break;
      i = j + 1;
      continue;
    }
    const std::size_t comma = find_comma(line, i);
    cells_.push_back({trim_cell(line.substr(i, comma - i)), column, static_cast<int>(comma - i)});
    if (comma >= line.size()) break;
    i = comma + 1;
  }
  return true;
}

}  // namespace ct
