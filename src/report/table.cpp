#include "report/table.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace ct {
namespace {
constexpr const char* kGap = "  ";

void append_padded(std::string& line, const std::string& cell, std::size_t width, Align align) {
  const std::size_t pad = width - display_width(cell);
  if (align == Align::kRight) line.append(pad, ' ');
  line += cell;
  if (align == Align::kLeft) line.append(pad, ' ');
}

void rstrip(std::string& line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
}
}  // namespace

std::size_t display_width(const std::string& text) {
  // Count the bytes that start a code point, i.e. all but the 10xxxxxx continuation bytes.
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
  }));
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  if (width == 0 || display_width(text) <= width) return {text};
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word;
  std::string line;
  while (words >> word) {
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

TextTable::TextTable(std::vector<TableColumn> columns, std::string title)
    : title_(std::move(title)), columns_(std::move(columns)) {}

void TextTable::add_column(std::string header, Align align, std::size_t max_width) {
  columns_.push_back({std::move(header), align, max_width});
}

void TextTable::add_row(std::vector<std::string> cells) {
  assert(cells.size() <= columns_.size());
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  const std::size_t n = columns_.size();
  // Each row becomes one or more physical lines: its cells wrapped to their column's max_width.
  std::vector<std::vector<std::vector<std::string>>> wrapped(rows_.size());
  std::vector<std::size_t> widths(n);
  for (std::size_t c = 0; c < n; ++c) widths[c] = display_width(columns_[c].header);
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    for (std::size_t c = 0; c < n; ++c) {
      wrapped[r].push_back(wrap_words(rows_[r][c], columns_[c].max_width));
      for (const auto& piece : wrapped[r].back()) widths[c] = std::max(widths[c], display_width(piece));
    }
  }
  std::string out;
  if (!title_.empty()) out += title_ + "\n";
  auto emit_line = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) line += kGap;
      append_padded(line, cells[c], widths[c], columns_[c].align);
    }
    rstrip(line);
    out += line + "\n";
  };
  std::vector<std::string> headers;
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < n; ++c) {
    headers.push_back(columns_[c].header);
    rule.emplace_back(widths[c], '-');
  }
  emit_line(headers);
  emit_line(rule);
  for (const auto& row : wrapped) {
    std::size_t height = 1;
    for (const auto& cell : row) height = std::max(height, cell.size());
    for (std::size_t l = 0; l < height; ++l) {
      std::vector<std::string> cells(n);
      for (std::size_t c = 0; c < n; ++c) cells[c] = l < row[c].size() ? row[c][l] : std::string();
      emit_line(cells);
    }
  }
  return out;
}

std::string count_text(long long n) {
  const std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

}  // namespace ct
