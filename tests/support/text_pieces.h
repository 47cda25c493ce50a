// A text in memory given as a TextSource a few lines at a time (core/text_source.h), for the tests
// of the streaming readers: read in small pieces, a text must read as it does whole. Pieces are
// whole lines, as the loader's are (io/files.h FileTextSource): `lines` lines each, the last piece
// what is left. Each piece is a copy in one buffer that the next overwrites, so a reader that
// keeps a view into an earlier piece reads another piece's bytes (as from the loader's buffer).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/text_source.h"

namespace ct::test {

class TextPieces final : public TextSource {
 public:
  TextPieces(std::string_view text, std::size_t lines) : text_(text), lines_(lines == 0 ? 1 : lines) {}

  bool next(std::string_view& piece) override {
    if (held_) {
      held_ = false;
      piece = piece_;
      return true;
    }
    if (at_ >= text_.size()) return false;
    std::size_t end = at_;
    for (std::size_t n = 0; n < lines_ && end < text_.size(); ++n) {
      const std::size_t nl = text_.find('\n', end);
      end = nl == std::string_view::npos ? text_.size() : nl + 1;
    }
    piece_.assign(text_.substr(at_, end - at_));
    at_ = end;
    ++pieces_;
    piece = piece_;
    return true;
  }
  [[nodiscard]] const std::optional<Diagnostic>& failed() const override { return failed_; }
  std::string_view head() override {
    std::string_view first;
    if (pieces_ == 0) held_ = next(first);
    return held_ ? std::string_view(piece_) : std::string_view();
  }
  // Pieces given so far.
  [[nodiscard]] std::size_t pieces() const { return pieces_; }

 private:
  std::string_view text_;
  std::size_t lines_;
  std::size_t at_ = 0;
  std::string piece_;
  bool held_ = false;
  std::size_t pieces_ = 0;
  std::optional<Diagnostic> failed_;
};

}  // namespace ct::test
