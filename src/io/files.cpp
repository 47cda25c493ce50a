#include "io/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

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
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmpXXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return Diagnostic{{path, 0, 0}, "", fmt::format("cannot create a file beside it: {}", std::strerror(errno))};
  const char* p = content.data();
  std::size_t left = content.size();
  bool ok = true;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  const int saved = errno;
  ok = ok && ::fsync(fd) == 0;
  ::fchmod(fd, 0644);
  ok = (::close(fd) == 0) && ok;
  if (!ok || std::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = ok ? errno : saved;
    ::unlink(tmpl.c_str());
    return Diagnostic{{path, 0, 0}, "", fmt::format("cannot write: {}", std::strerror(err))};
  }
  return Unit{};
}

}  // namespace ct
