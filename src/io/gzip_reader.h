// Streaming gzip inflation (RFC 1952 by zlib; concatenated members, as `cat a.gz b.gz` makes,
// inflate to one text): the loader (io/files.h) gives the compressed bytes as it reads them and
// takes the text a bounded amount at a time, so neither the compressed nor the inflated input is
// ever held whole, and a decompression bomb is refused as soon as its text passes the loader's
// limit (after at most `at_most` bytes beyond it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ct {

// True when `bytes` starts with gzip's magic bytes 1f 8b.
bool is_gzip(std::string_view bytes);

class GzipReader {
 public:
  // `file` locates the errors.
  explicit GzipReader(std::string file);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;

  // The next compressed bytes. PRECONDITION: needs_input(); they stay valid until it is true again.
  void give(std::string_view compressed);
  // True when every byte given has been inflated.
  [[nodiscard]] bool needs_input() const;
  // Inflates what was given onto `text`, at most `at_most` bytes of text (fewer when the input given
  // runs out first). Not gzip data is an error, and ends the stream; later calls return it again.
  Result<Unit> inflate(std::string& text, std::size_t at_most);
  // After the last input: an error when the data ended inside a member.
  [[nodiscard]] Result<Unit> finish() const;
  // Bytes of text inflated so far.
  [[nodiscard]] std::uint64_t inflated() const { return inflated_; }

 private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
  std::string file_;
  std::uint64_t inflated_ = 0;
  bool ended_ = false;  // the last member's end was seen, and nothing followed yet
  std::optional<Diagnostic> failed_;
};

}  // namespace ct
