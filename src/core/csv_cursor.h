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
// Speed: a line without a '"' (every line --csv-flows writes) is cut in one pass sixteen bytes at
// a time where SSE2 is there (every x86-64); the flow table reader cuts millions of lines.
//
//   CsvCursor csv(file, text);
//   std::string_view line;
//   while (csv.next_line(line)) {
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
  // `lines_before`: lines of the whole text before `text` (a TextSource's earlier pieces), so
  // line_number() counts in the whole text.
  CsvCursor(std::string file, std::string_view text, const CharSet& leading = kSpaceTab,
            const CharSet& trailing = kSpaceTabCr, int lines_before = 0);

  // The next line, without its '\n' (and '\r'); false after the last one.
  bool next_line(std::string_view& line) {
    extra_lines_ = 0;
    return lines_.next(line);
  }
  // The next record: the next line, joined with the lines after it while a quoted cell is open
  // (the line breaks kept in the cell's text, a CRLF's '\r' too); false after the last one.
  bool next_record(std::string_view& record);
  // The 1-based number of the line next_line() gave last, or where the last record began.
  [[nodiscard]] int line_number() const { return lines_.number() - extra_lines_; }
  // Lines taken so far, counting those before the text.
  [[nodiscard]] int lines_read() const { return lines_.number(); }
  // The last record reached the end of the text with a quoted cell still open.
  [[nodiscard]] bool open_at_end() const { return open_at_end_; }
  // The text's end (for the bytes of an open record up to it).
  [[nodiscard]] const char* text_end() const { return end_; }

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

  std::string file_;
  LineCursor lines_;
  CharSet leading_;
  CharSet trailing_;
  std::vector<CsvCell> cells_;
  const char* end_;
  int extra_lines_ = 0;                 // lines the last record took beyond its first
  bool open_at_end_ = false;
  std::deque<std::string> unescaped_;  // stable storage for quoted cells that held a ""
  Diagnostic error_;
};

// A CsvCursor over a text read a piece at a time (core/text_source.h), for the readers of inputs
// that may be larger than memory: the same records, cells, columns and line numbers as one
// CsvCursor over the whole text. A record whose quoted cell holds line breaks may run across
// pieces: it is joined in a buffer of its own with the next piece, up to kTextPiece bytes of
// record; a longer record ends there with its quote open (split() then says so, at the record's
// first line), so no record costs more than about two pieces of memory.
//
//   CsvSourceCursor csv(file, source);
//   while (csv.next_record(line, errors.empty())) { ... as CsvCursor ... }
//   if (source.failed()) ...
class CsvSourceCursor {
 public:
  // POSTCONDITION: the cells' text stays valid until the next next_record().
  CsvSourceCursor(std::string file, TextSource& source, const CharSet& leading = kSpaceTab,
                  const CharSet& trailing = kSpaceTabCr);

  // The next record, as CsvCursor::next_record(). With `more_pieces` false it takes no further
  // piece from the source (a reader that met an error stops at the end of its piece): false at the
  // end of the piece, and a record open there ends there.
  bool next_record(std::string_view& record, bool more_pieces = true);
  [[nodiscard]] int line_number() const { return csv_.line_number(); }
  bool split(std::string_view line) { return csv_.split(line); }
  [[nodiscard]] const std::vector<CsvCell>& cells() const { return csv_.cells(); }
  [[nodiscard]] const Diagnostic& error() const { return csv_.error(); }

 private:
  // csv_ over the source's next piece; false at the end of the source.
  bool take_piece();
  // csv_ over `open` (a record open to the end of its text, moved into joined_) and the source's
  // next piece after it; false when there was none. Each carry reads the open record again: with
  // the loader's pieces of about kTextPiece a record is carried at most twice.
  bool carry(std::string_view open, int lines_before);

  std::string file_;
  TextSource& source_;
  CharSet leading_;
  CharSet trailing_;
  CsvCursor csv_;
  std::string joined_;  // an open record and the pieces after it
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
