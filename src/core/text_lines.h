// Reading a text one line at a time with its 1-based line number, for the line-oriented readers
// (counters, connection tables, port maps). A trailing '\r' is dropped, so CRLF files read the same.
//
//   LineCursor lines(text);
//   std::string_view line;
//   while (lines.next(line)) { ... lines.number() ... }
#pragma once

#include <cstddef>
#include <string_view>

namespace ct {

class LineCursor {
 public:
  // `lines_before`: lines of the whole text before `text` (a TextSource's earlier pieces), so
  // number() counts in the whole text.
  explicit LineCursor(std::string_view text, int lines_before = 0) : text_(text), number_(lines_before) {}

  // The next line, without its '\n' (and '\r'); false after the last one.
  bool next(std::string_view& line) {
    if (at_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', at_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(at_, end - at_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at_ = end + 1;
    ++number_;
    return true;
  }
  // The 1-based number of the line next() gave last.
  [[nodiscard]] int number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  int number_ = 0;
};

}  // namespace ct
