// Reading a CSV text one line at a time, each line cut into cells at its commas, with the line and
// byte column of every cell, for the readers of flow tables, flow files, flow results and port maps.
//
// The grammar is RFC 4180's, one record per line: a cell that begins with '"' is quoted, runs to
// the next lone '"' (a doubled "" stands for one '"') and must be followed by ',' or the end of the
// line; its text is kept as written, blanks included. Other cells are cut at the next ',' and
// trimmed: the blanks of `leading` at the front, of `trailing` at the end (by default spaces and
// tabs, and at the end a '\r' too). A quoted cell may hold a line break (RFC 4180) when the record
// is read with next_record(), which joins lines while a quoted cell is open (an odd number of '"'
// so far); next_line() gives one line, and an unclosed quote is then an error there. csv_cell()
// writes a cell so that split() gives its text back.
//
// Lines are LineCursor's (core/text_lines.h): numbered from 1, a CRLF's '\r' dropped. The reader
// chooses which lines to cut (blank lines, '#' comments and headers are its business) and may cut
// part of a line: columns count from the start of what split() was given.
//
// A text read a piece at a time (core/text_source.h) is cut the same way: next_line() and
// next_record() give the piece's lines and return false at its end, next_piece() takes the next
// piece, so the reader decides whether to read on (a reader that has found an error stops there).
// A record whose quoted cell runs past the end of a piece is carried into the next one: its text
// is the same as in the whole text, up to about kTextPiece bytes of record: a quote left open
// longer ends the record there, open (split() says so at its first line). Cells then stay valid
// until the next piece is taken.
//
// Speed: a line without a '"' (every line --csv-flows writes) is cut in one pass sixteen bytes at
// a time where SSE2 is there (every x86-64); the flow table reader cuts millions of lines.
//
//   CsvCursor csv(file, text);             // or CsvCursor csv(file, source)
//   std::string_view line;
//   while (true) {
//     if (!csv.next_line(line)) {
//       if (!errors.empty() || !csv.next_piece()) break;  // source.failed(): why it ended early
//       continue;
//     }
//     if (!csv.split(line)) { errors.push_back(csv.error()); continue; }
//     for (const CsvCell& c : csv.cells()) ... c.text, c.column ...
//   }
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/text.h"
#include "core/text_lines.h"
#include "core/text_source.h"

namespace ct {

struct CsvCell {
  std::string_view text;  // trimmed; a quoted cell's text without its quotes, "" read as '"'
  int column = 1;         // 1-based byte column where the cell begins (its first byte or its '"')
  int width = 0;          // bytes from there to the cell's end (its ',' or the end of the line)

  // The cell as written, blanks and quotes included, in the line split() was given.
  [[nodiscard]] std::string_view raw(std::string_view line) const {
    return line.substr(static_cast<std::size_t>(column - 1), static_cast<std::size_t>(width));
  }
};

class CsvCursor {
 public:
  // PRECONDITION: `leading` and `trailing` hold only bytes up to ' ' (blanks and control bytes).
  // POSTCONDITION: the cells' text stays valid while both the cursor and `text` live.
  CsvCursor(std::string file, std::string_view text, const CharSet& leading = kSpaceTab,
            const CharSet& trailing = kSpaceTabCr);
  // The text of `source`, taken a piece at a time by next_piece() (none is taken before the first).
  // POSTCONDITION: the cells' text stays valid until the next piece is taken.
  CsvCursor(std::string file, TextSource& source, const CharSet& leading = kSpaceTab,
            const CharSet& trailing = kSpaceTabCr);

  // Takes the next piece of the source; false at the end of the text, when the source failed (its
  // failed() says why), and always for a text given whole.
  bool next_piece();

  // The next line of the piece, without its '\n' (and '\r'); false after its last one.
  bool next_line(std::string_view& line) {
    extra_lines_ = 0;
    return lines_.next(line);
  }
  // The next record: the next line, joined with the lines after it while a quoted cell is open
  // (the line breaks kept in the cell's text, a CRLF's '\r' too), in the pieces after this one
  // too; false after the piece's last one.
  bool next_record(std::string_view& record);
  // The 1-based number of the line next_line() gave last, or where the last record began.
  [[nodiscard]] int line_number() const { return lines_.number() - extra_lines_; }

  // Cuts `line` into cells(). False when a quoted cell is not closed or is followed by something
  // other than ',': error() then says where, and cells() is in no particular state.
  bool split(std::string_view line);
  [[nodiscard]] const std::vector<CsvCell>& cells() const { return cells_; }
  // The last split()'s error, located at the file, line_number() and the quote's column.
  [[nodiscard]] const Diagnostic& error() const { return error_; }

 private:
  bool split_unquoted(std::string_view line);
  bool split_cells(std::string_view line);
  [[gnu::always_inline]] std::string_view trim_cell(std::string_view s) const;

  // next_record() past the end of the piece: `begin` (in the piece) to the piece's end is the
  // record so far; carries it in carry_ with the next pieces' lines until its quote closes.
  std::string_view carry_record(const char* begin, std::size_t open);

  std::string file_;
  TextSource* source_ = nullptr;  // a text read a piece at a time, or none
  std::string_view piece_;        // the text, or the piece at hand
  std::string carry_;             // a record begun in an earlier piece
  LineCursor lines_;
  CharSet leading_;
  CharSet trailing_;
  std::vector<CsvCell> cells_;
  int extra_lines_ = 0;                 // lines the last record took beyond its first
  std::deque<std::string> unescaped_;  // stable storage for quoted cells that held a ""
  Diagnostic error_;
};

// `text` as one CSV cell: as is when split() gives it back unchanged, else quoted with each '"'
// doubled (a ',', '"', line break, or blank at either end).
std::string csv_cell(std::string_view text);

// split() and its fast path are inline: the flow table reader calls them once a line.
inline std::string_view CsvCursor::trim_cell(std::string_view s) const {
  // Most cells begin and end with a printing byte, which no set holds: nothing to trim.
  if (!s.empty() && static_cast<unsigned char>(s.front()) > ' ' && static_cast<unsigned char>(s.back()) > ' ') return s;
  return trim(s, leading_, trailing_);
}

inline bool CsvCursor::split(std::string_view line) {
#if defined(__SSE2__)
  if (split_unquoted(line)) return true;
#endif
  return split_cells(line);
}

#if defined(__SSE2__)
// split() for a line without a '"': one pass over it sixteen bytes at a time, the commas' bits then
// walked to cut the cells. False, with cells_ in any state, when the line has a '"'.
inline bool CsvCursor::split_unquoted(std::string_view line) {
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

}  // namespace ct
