// The file system seam: reading inputs and writing outputs atomically (a temporary file in the
// same folder, flushed, then renamed over the target), so a failed run leaves no partial output.
//
// Every input of every command is read by read_text_file(), the one loader, which says what a
// path is when it is not a readable file ("is a folder, expected a spec file"), inflates gzip data
// (RFC 1952, recognised by its magic bytes 1f 8b, concatenated members too: io/gzip_reader.h) and
// bounds what one input may hold:
//   - a file of more than max_input_bytes() is refused before it is read (a regular file by its
//     size; a pipe or device as soon as that much has come);
//   - gzip data is inflated as it is read, and refused as soon as its text passes the same limit,
//     so a small file that inflates to gigabytes (a decompression bomb) costs at most the limit
//     in memory and about a second of time.
// The limit is kDefaultMaxInputBytes (256 MiB: a flow table of about two million flows) unless
// the environment sets CLUSTERTWIN_MAX_INPUT to a size (bytes, or 1GiB, 512MB: core/units.h
// parse_size); the error names the limit and the variable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace ct {

inline constexpr std::uint64_t kDefaultMaxInputBytes = std::uint64_t{256} << 20;
inline constexpr const char* kMaxInputVariable = "CLUSTERTWIN_MAX_INPUT";

// The most bytes one input may hold, read or inflated: CLUSTERTWIN_MAX_INPUT, or the default.
// A value that is not a size is refused ("environment: error: CLUSTERTWIN_MAX_INPUT: ...").
Result<std::uint64_t> max_input_bytes();
// A limit for a message: "256 MiB", "1.5 GiB", "1000 bytes".
std::string describe_input_limit(std::uint64_t bytes);

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
