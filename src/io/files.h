// The file system seam: reading inputs and writing outputs atomically (a temporary file in the
// same folder, flushed, then renamed over the target), so a failed run leaves no partial output.
//
// Every input of every command is read through FileTextSource, the one loader, which says what a
// path is when it is not a readable file ("is a folder, expected a spec file"), inflates gzip data
// (RFC 1952, recognised by its magic bytes 1f 8b, concatenated members too: io/gzip_reader.h) and
// bounds what one input may hold:
//   - a file of more than max_input_bytes() is refused before it is read (a regular file by its
//     size; a pipe or device as soon as that much has come);
//   - gzip data is inflated as it is read, a piece at a time, and refused as soon as its text
//     passes the same limit, so a small file that inflates to gigabytes (a decompression bomb)
//     costs at most the limit in time and one piece (kTextPiece) in memory for a streaming reader.
// The readers of the large line-oriented inputs (counter scrapes, port maps, connection tables)
// take the text a piece at a time (core/text_source.h) and stop at the first piece with an error,
// so an input of any size that is wrong early is reported after one piece has been read; the
// others take the whole text (read_text_file), still bounded by the limit.
// The limit is kDefaultMaxInputBytes (256 MiB: a flow table of about two million flows) unless
// the command's --max-input SIZE or the environment's CLUSTERTWIN_MAX_INPUT gives a size (bytes,
// or 1GiB, 512MB: core/units.h parse_size); the error names the limit and both ways to raise it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/text_source.h"

namespace ct {

inline constexpr std::uint64_t kDefaultMaxInputBytes = std::uint64_t{256} << 20;
inline constexpr const char* kMaxInputVariable = "CLUSTERTWIN_MAX_INPUT";
inline constexpr const char* kMaxInputFlag = "--max-input";

class GzipReader;

// The most bytes one input may hold, read or inflated: CLUSTERTWIN_MAX_INPUT, or the default.
// A value that is not a size is refused ("environment: error: CLUSTERTWIN_MAX_INPUT: ...").
Result<std::uint64_t> max_input_bytes();
// A limit for a message: "256 MiB", "1.5 GiB", "1000 bytes".
std::string describe_input_limit(std::uint64_t bytes);

// A file's text a piece at a time (core/text_source.h): whole lines of about kTextPiece bytes, read
// and inflated as they are taken. A line longer than the limit is refused with the limit's error.
class FileTextSource final : public TextSource {
 public:
  // Opens `path` with the loader's checks (a folder, a dangling link, a file over the limit are
  // errors naming the path); `what` names what the command expects there, as read_text_file's.
  static Result<std::unique_ptr<FileTextSource>> open(const std::string& path, std::string_view what = "a file");
  ~FileTextSource() override;
  FileTextSource(const FileTextSource&) = delete;
  FileTextSource& operator=(const FileTextSource&) = delete;

  bool next(std::string_view& piece) override;
  std::string_view head() override;
  [[nodiscard]] const std::optional<Diagnostic>& failed() const override { return failed_; }
  // A plain file's size; for a gzip file, the size its last member says it inflates to (RFC 1952
  // ISIZE, within the limit: a hint for reserving, not trusted further); 0 for a pipe, a device.
  [[nodiscard]] std::size_t size_hint() const override { return hint_; }
  // Everything not yet taken, as one string (the whole text when nothing was taken).
  Result<std::string> rest();

  [[nodiscard]] const std::string& path() const { return path_; }
  // What has been taken from the file so far: bytes read (compressed, for gzip), bytes of text.
  [[nodiscard]] std::uint64_t bytes_read() const { return bytes_read_; }
  [[nodiscard]] std::uint64_t text_bytes() const { return text_bytes_; }

 private:
  FileTextSource(std::string path, int fd, std::uint64_t limit, std::size_t expected, std::size_t hint);
  bool fail(Diagnostic d);
  // Reads or inflates more text onto buffer_: false at the end of the file or on an error.
  bool fill();
  bool read_chunk(std::string& into, std::size_t size);

  std::string path_;
  int fd_;
  std::uint64_t limit_;
  std::size_t expected_;  // a regular file's size (0 for a pipe)
  std::size_t hint_;      // size_hint()
  std::unique_ptr<GzipReader> gzip_;
  std::string chunk_;      // compressed bytes given to gzip_
  std::string buffer_;     // text read and not yet given; starts with the last piece given
  std::size_t given_ = 0;  // bytes of buffer_ given as the last piece
  bool first_ = true;
  bool held_ = false;      // head() took the first piece: next() gives it again
  bool eof_ = false;
  std::uint64_t bytes_read_ = 0;
  std::uint64_t text_bytes_ = 0;
  std::optional<Diagnostic> failed_;
};

// The text of the file at `path` (inflated when it is gzip data). `what` names what the command
// expects there, for the error when the path is a folder: "a spec file", "a flow table".
Result<std::string> read_text_file(const std::string& path, std::string_view what = "a file");
// Every file's text as a Source{path, text} (an aggregate of two strings: CatalogSource,
// ManifestSource), in the order given; the files that cannot be read are all reported at once.
template <typename Source>
Result<std::vector<Source>> read_text_files(const std::vector<std::string>& paths, std::string_view what = "a file") {
  std::vector<Source> out;
  Diagnostics errors;
  for (const std::string& path : paths) {
    auto text = read_text_file(path, what);
    if (!text) {
      errors.insert(errors.end(), text.errors().begin(), text.errors().end());
      continue;
    }
    out.push_back(Source{path, std::move(text).value()});
  }
  if (!errors.empty()) return errors;
  return out;
}
// Writes `content` to `path` atomically (a one-file io/output_set.h). On failure the target is untouched.
Result<Unit> write_file_atomic(const std::string& path, const std::string& content);

}  // namespace ct
