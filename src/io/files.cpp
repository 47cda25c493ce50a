#include "io/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "io/output_set.h"

namespace ct {

Result<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostic{{path, 0, 0}, "", fmt::format("cannot open: {}", std::strerror(errno))};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Diagnostic{{path, 0, 0}, "", "read error"};
  return ss.str();
}

Result<Unit> write_file_atomic(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") return Diagnostic{{path, 0, 0}, "", "no file named"};
  OutputSet one;
  one.stage(path, content);
  return one.commit();
}

}  // namespace ct
