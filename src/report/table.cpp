#include "report/table.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace ct {
namespace {
constexpr const char* kGap = "  ";

// `cell` (of display width `cell_width`) padded to `width`.
void append_padded(std::string& line, const std::string& cell, std::size_t cell_width, std::size_t width, Align align) {
  const std::size_t pad = width - cell_width;
  if (align == Align::kRight) line.append(pad, ' ');
  line += cell;
  if (align == Align::kLeft) line.append(pad, ' ');
}

}  // namespace

std::size_t display_width(const std::string& text) {
  // Count the bytes that start a code point, i.e. all but the 10xxxxxx continuation bytes. ASCII
  // (nearly every cell) is skipped eight bytes at a time: each of those bytes starts one.
  std::size_t i = 0;
  std::size_t continuation = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, text.data() + i, 8);
    if ((w & 0x8080808080808080ULL) == 0) continue;
    for (std::size_t k = i; k < i + 8; ++k) continuation += (static_cast<unsigned char>(text[k]) & 0xC0U) == 0x80U;
  }
  for (; i < text.size(); ++i) continuation += (static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U;
  return text.size() - continuation;
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
  // A cell longer than its column's max_width becomes pieces, one per physical line; every other
  // cell (nearly all of a large table) is read in place. wrap_of[r]: row r's pieces in wraps, or -1.
  std::vector<std::size_t> widths(n);
  for (std::size_t c = 0; c < n; ++c) widths[c] = display_width(columns_[c].header);
  std::vector<std::ptrdiff_t> wrap_of(rows_.size(), -1);
  std::vector<std::vector<std::vector<std::string>>> wraps;
  std::vector<std::size_t> cell_widths(rows_.size() * n);  // each cell's display width, measured once
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    bool wrapped = false;
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t w = display_width(rows_[r][c]);
      cell_widths[r * n + c] = w;
      if (columns_[c].max_width != 0 && w > columns_[c].max_width) {
        wrapped = true;
      } else {
        widths[c] = std::max(widths[c], w);
      }
    }
    if (!wrapped) continue;
    wrap_of[r] = static_cast<std::ptrdiff_t>(wraps.size());
    auto& pieces = wraps.emplace_back();
    for (std::size_t c = 0; c < n; ++c) {
      pieces.push_back(wrap_words(rows_[r][c], columns_[c].max_width));
      for (const auto& piece : pieces.back()) widths[c] = std::max(widths[c], display_width(piece));
    }
  }
  std::size_t line_width = 1;
  for (std::size_t c = 0; c < n; ++c) line_width += widths[c] + std::char_traits<char>::length(kGap);
  std::string out;
  out.reserve(title_.size() + 1 + line_width * (rows_.size() + 2));
  if (!title_.empty()) out += title_ + "\n";
  // One physical line: cell(c) for every column, padded, without trailing blanks; `cell_width(c)`
  // its display width.
  auto emit_line = [&](auto&& cell, auto&& cell_width) {
    const std::size_t start = out.size();
    for (std::size_t c = 0; c < n; ++c) {
      if (c > 0) out += kGap;
      append_padded(out, cell(c), cell_width(c), widths[c], columns_[c].align);
    }
    while (out.size() > start && out.back() == ' ') out.pop_back();
    out += '\n';
  };
  const auto measured = [&](auto&& cell) { return [&](std::size_t c) { return display_width(cell(c)); }; };
  const auto header = [&](std::size_t c) -> const std::string& { return columns_[c].header; };
  emit_line(header, measured(header));
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < n; ++c) rule.emplace_back(widths[c], '-');
  const auto rule_cell = [&](std::size_t c) -> const std::string& { return rule[c]; };
  emit_line(rule_cell, measured(rule_cell));
  const std::string none;
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    if (wrap_of[r] < 0) {
      emit_line([&](std::size_t c) -> const std::string& { return rows_[r][c]; },
                [&](std::size_t c) { return cell_widths[r * n + c]; });
      continue;
    }
    const auto& row = wraps[static_cast<std::size_t>(wrap_of[r])];
    std::size_t height = 1;
    for (const auto& cell : row) height = std::max(height, cell.size());
    for (std::size_t l = 0; l < height; ++l) {
      const auto piece = [&](std::size_t c) -> const std::string& { return l < row[c].size() ? row[c][l] : none; };
      emit_line(piece, measured(piece));
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
