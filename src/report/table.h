// A plain-text table for terminal reports: an optional title, a header row, a rule of dashes under
// it, then the rows; each column padded to its widest cell and aligned left or right. Widths count
// UTF-8 code points, so "→" or "µ" take one column. A column with a max_width wraps longer cells at
// spaces onto continuation lines (a word longer than max_width stays whole). Lines carry no
// trailing spaces. Rendering is a pure function of the cells: same table, same bytes.
#pragma once

#include <cstddef>
#include <utility>
#include <string>
#include <vector>

namespace ct {

enum class Align { kLeft, kRight };

struct TableColumn {
  std::string header;
  Align align = Align::kLeft;
  std::size_t max_width = 0;  // 0: no wrapping
};

class TextTable {
 public:
  TextTable() = default;
  explicit TextTable(std::vector<TableColumn> columns, std::string title = "");

  void set_title(std::string title) { title_ = std::move(title); }
  void add_column(std::string header, Align align = Align::kLeft, std::size_t max_width = 0);
  // PRECONDITION: cells.size() <= columns(); missing trailing cells render empty.
  void add_row(std::vector<std::string> cells);

  [[nodiscard]] std::size_t columns() const { return columns_.size(); }
  [[nodiscard]] std::size_t rows() const { return rows_.size(); }
  [[nodiscard]] std::string render() const;
  // Read access for other renderings (report/html/html_document.h).
  [[nodiscard]] const std::string& title() const { return title_; }
  [[nodiscard]] const TableColumn& column(std::size_t c) const { return columns_.at(c); }
  [[nodiscard]] const std::string& cell(std::size_t row, std::size_t column) const { return rows_.at(row).at(column); }

 private:
  std::string title_;
  std::vector<TableColumn> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Number of UTF-8 code points in `text` (its width in a terminal for non-wide characters).
// An integer with thousands separators: 8192 -> "8,192".
std::string count_text(long long n);

std::size_t display_width(const std::string& text);
// `text` split at spaces into lines of at most `width` code points (width 0: one line).
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

}  // namespace ct
