// Reading a CSV text one line at a time, each line cut into cells at its commas, with the line and
// byte column of every cell, for the readers of flow tables, flow files, flow results and port maps.
//
// The grammar is RFC 4180's, one record per line: a cell that begins with '"' is quoted, runs to
// the next lone '"' (a doubled "" stands for one '"') and must be followed by ',' or the end of the
// line; its text is kept as written, blanks included. Other cells are cut at the next ',' and
// trimmed: the blanks of `leading` at the front, of `trailing` at the end (by default spaces and
// tabs, and at the end a '\r' too). Limitation: a quoted cell cannot hold a line break (RFC 4180
// allows one); it ends on its line, and an unclosed quote is an error there.
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

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/text.h"
#include "core/text_lines.h"

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

  // The next line, without its '\n' (and '\r'); false after the last one.
  bool next_line(std::string_view& line) { return lines_.next(line); }
  // The 1-based number of the line next_line() gave last.
  [[nodiscard]] int line_number() const { return lines_.number(); }

  // Cuts `line` into cells(). False when a quoted cell is not closed or is followed by something
  // other than ',': error() then says where, and cells() is in no particular state.
  bool split(std::string_view line);
  [[nodiscard]] const std::vector<CsvCell>& cells() const { return cells_; }
  // The last split()'s error, located at the file, line_number() and the quote's column.
  [[nodiscard]] const Diagnostic& error() const { return error_; }

 private:
  bool split_unquoted(std::string_view line);
  bool split_cells(std::string_view line);
  [[nodiscard]] std::string_view trim_cell(std::string_view s) const;

  std::string file_;
  LineCursor lines_;
  CharSet leading_;
  CharSet trailing_;
  std::vector<CsvCell> cells_;
  std::deque<std::string> unescaped_;  // stable storage for quoted cells that held a ""
  Diagnostic error_;
};

}  // namespace ct
