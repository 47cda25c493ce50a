// The file system seam: reading inputs and writing outputs atomically (a temporary file in the
// same folder, flushed, then renamed over the target), so a failed run leaves no partial output.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace ct {

Result<std::string> read_text_file(const std::string& path);
// Every file's text as a Source{path, text} (an aggregate of two strings: CatalogSource,
// ManifestSource), in the order given; the files that cannot be read are all reported at once.
template <typename Source>
Result<std::vector<Source>> read_text_files(const std::vector<std::string>& paths) {
  std::vector<Source> out;
  Diagnostics errors;
  for (const std::string& path : paths) {
    auto text = read_text_file(path);
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
