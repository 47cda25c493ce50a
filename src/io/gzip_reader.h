// Streaming gzip inflation (RFC 1952 by zlib; concatenated members, as `cat a.gz b.gz` makes,
// inflate to one text): the loader (io/files.h) feeds the compressed bytes as it reads them, and
// the text grows only up to a limit, so a decompression bomb is refused after `limit` bytes of
// text instead of after all of them.
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
  // `file` locates the errors; `limit`: the most bytes of text, and `over_limit` the error's
  // message when the text passes it (the loader names the limit and how to raise it).
  GzipReader(std::string file, std::uint64_t limit, std::string over_limit);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;

  // Inflates the next compressed bytes, appending the text to `text`. An error (the data is not
  // gzip, or the text passed the limit) ends the stream; later calls return it again.
  Result<Unit> feed(std::string_view compressed, std::string& text);
  // After the last feed: an error when the data ended inside a member.
  Result<Unit> finish(const std::string& text) const;

 private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
  std::string file_;
  std::uint64_t limit_;
  std::string over_limit_;
  bool ended_ = false;  // the last member's end was seen, and nothing followed yet
  std::optional<Diagnostic> failed_;
};

}  // namespace ct
