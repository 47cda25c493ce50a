// A text read a piece at a time, for the readers of inputs that may be larger than memory (issue
// 23): a counter scrape, a port map, a connection table. Each piece is whole lines (every piece
// but the last ends with '\n') and stays valid until the next call, so a reader keeps what it
// needs of a line as it goes and stops at the first piece with an error, without reading the rest.
// The one loader gives a file's text this way, read and inflated as it goes (io/files.h,
// FileTextSource); a text already in memory (a test, an HTTP body) is one piece (TextInMemory).
//
//   std::string_view piece;
//   int lines_before = 0;
//   while (source.next(piece) && !piece.empty()) {
//     LineCursor lines(piece, lines_before);
//     ... lines.number() is the line's number in the whole text ...
//     lines_before = lines.number();
//   }
//   if (source.failed()) errors.push_back(*source.failed());
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/text_lines.h"

namespace ct {

// What a streaming reader holds at once: a file's pieces are the whole lines within about this much.
inline constexpr std::size_t kTextPiece = std::size_t{1} << 20;

class TextSource {
 public:
  virtual ~TextSource() = default;
  // The next piece into `piece`; false at the end, or when the input could not be read further
  // (failed() then says why, located at the file). A piece is never empty.
  virtual bool next(std::string_view& piece) = 0;
  // Why the last next() returned false, when it was not the end of the text.
  [[nodiscard]] virtual const std::optional<Diagnostic>& failed() const = 0;
  // The start of the text, at least its first piece, without taking it (the next next() still
  // gives the first piece); for telling formats apart. Empty when the text is.
  virtual std::string_view head() = 0;
  // The whole text's size in bytes where it is known before reading (for reserving), else 0.
  [[nodiscard]] virtual std::size_t size_hint() const { return 0; }
};

// A text already in memory, as one piece.
class TextInMemory final : public TextSource {
 public:
  explicit TextInMemory(std::string_view text) : text_(text) {}
  bool next(std::string_view& piece) override {
    if (given_ || text_.empty()) return false;
    given_ = true;
    piece = text_;
    return true;
  }
  [[nodiscard]] const std::optional<Diagnostic>& failed() const override { return failed_; }
  std::string_view head() override { return text_; }
  [[nodiscard]] std::size_t size_hint() const override { return text_.size(); }

 private:
  std::string_view text_;
  bool given_ = false;
  std::optional<Diagnostic> failed_;
};

// Every piece not yet taken, as one string (an error of the source, as its diagnostic).
Result<std::string> drain(TextSource& source);

// The lines of a TextSource numbered in the whole text, for the line-oriented readers. next()
// gives the lines of the piece at hand and returns false at its end; next_piece() takes the next
// piece (false at the end of the text, or when the source failed: its failed() says why). A reader
// that has found an error takes no further piece, so an input wrong early is not read to its end.
//
//   SourceLines lines(source);
//   std::string_view line;
//   while (lines.next_piece()) {
//     while (lines.next(line)) ... lines.number() ...
//     if (!errors.empty()) break;
//   }
//   if (source.failed()) errors.push_back(*source.failed());
class SourceLines {
 public:
  explicit SourceLines(TextSource& source) : source_(source), lines_(std::string_view()) {}
  bool next(std::string_view& line) { return lines_.next(line); }
  bool next_piece() {
    std::string_view piece;
    if (!source_.next(piece)) return false;
    lines_ = LineCursor(piece, lines_.number());
    return true;
  }
  // The 1-based number of the line next() gave last, in the whole text.
  [[nodiscard]] int number() const { return lines_.number(); }

 private:
  TextSource& source_;
  LineCursor lines_;
};

// Copies of texts that a streaming reader keeps past the piece they were read from (the keys of
// its caches of names), each at an address that stays put while the keeper lives.
class KeptTexts {
 public:
  std::string_view keep(std::string_view text) { return texts_.emplace_back(text); }

 private:
  std::deque<std::string> texts_;
};

}  // namespace ct
