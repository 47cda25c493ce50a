// The file system seam: reading inputs and writing outputs atomically (a temporary file in the
// same folder, flushed, then renamed over the target), so a failed run leaves no partial output.
#pragma once

#include <string>

#include "core/result.h"

namespace ct {

struct Unit {};

Result<std::string> read_text_file(const std::string& path);
// Writes `content` to `path` atomically (a one-file io/output_set.h). On failure the target is untouched.
Result<Unit> write_file_atomic(const std::string& path, const std::string& content);

}  // namespace ct
