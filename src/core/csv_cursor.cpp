#include "core/csv_cursor.h"

#include <algorithm>
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
    : file_(std::move(file)), piece_(text), lines_(text), leading_(leading), trailing_(trailing) {
  assert(leading.at_most_space() && trailing.at_most_space());
}

CsvCursor::CsvCursor(std::string file, TextSource& source, const CharSet& leading, const CharSet& trailing)
    : file_(std::move(file)), source_(&source), lines_(std::string_view()), leading_(leading), trailing_(trailing) {
  assert(leading.at_most_space() && trailing.at_most_space());
}

bool CsvCursor::next_piece() {
  if (source_ == nullptr || !source_->next(piece_)) return false;
  lines_ = LineCursor(piece_, lines_.number());
  unescaped_.clear();  // the cells of the pieces before are given up
  return true;
}

namespace {
std::size_t quotes(std::string_view s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '"')); }
}  // namespace

bool CsvCursor::next_record(std::string_view& record) {
  extra_lines_ = 0;
  if (!lines_.next(record)) return false;
  if (record.find('"') == std::string_view::npos) return true;  // most lines: one memchr
  std::size_t open = quotes(record);
  std::string_view more;
  while (open % 2 == 1) {
    if (!lines_.next(more)) {
      if (source_ != nullptr) record = carry_record(record.data(), open);
      break;
    }
    record = std::string_view(record.data(), static_cast<std::size_t>(more.data() + more.size() - record.data()));
    open += quotes(more);
    ++extra_lines_;
  }
  return true;
}

std::string_view CsvCursor::carry_record(const char* begin, std::size_t open) {
  const char* end = piece_.data() + piece_.size();
  carry_.assign(begin, end);
  while (true) {
    if (!next_piece()) {
      // The text ends inside the quote: the record ends with its last line, as in the whole text.
      if (!carry_.empty() && carry_.back() == '\n') carry_.pop_back();
      if (!carry_.empty() && carry_.back() == '\r') carry_.pop_back();
      return carry_;
    }
    begin = piece_.data();
    end = begin;
    std::string_view more;
    while (open % 2 == 1 && lines_.next(more)) {
      end = more.data() + more.size();
      open += quotes(more);
      ++extra_lines_;
    }
    if (open % 2 == 0) {
      carry_.append(begin, end);
      return carry_;
    }
    carry_.append(begin, piece_.data() + piece_.size());
    if (carry_.size() > kTextPiece) {
      // A quote left open past a piece's worth of record: the record ends here, its quote open
      // (split() locates it at the record's first line), so one record costs about two pieces of
      // memory at most, not the rest of the input.
      if (carry_.back() == '\n') carry_.pop_back();
      if (!carry_.empty() && carry_.back() == '\r') carry_.pop_back();
      return carry_;
    }
  }
}

std::string csv_cell(std::string_view text) {
  const bool plain = text.find_first_of(",\"\r\n") == std::string_view::npos &&
                     (text.empty() || (text.front() != ' ' && text.front() != '\t' && text.back() != ' ' && text.back() != '\t'));
  if (plain) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

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
