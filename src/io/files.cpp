#include "io/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "core/units.h"
#include "io/gzip_reader.h"
#include "io/output_set.h"

namespace ct {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

Diagnostic file_error(const std::string& path, std::string message) { return Diagnostic{{path, 0, 0}, "", std::move(message)}; }

// Why `path` cannot be opened: a dangling symbolic link names its target.
Diagnostic open_error(const std::string& path, int error) {
  struct stat link {};
  if (error == ENOENT && lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    std::error_code ec;
    const auto target = std::filesystem::read_symlink(path, ec);
    return file_error(path, fmt::format("a symbolic link to '{}', which does not exist", ec ? "?" : target.string()));
  }
  return file_error(path, fmt::format("cannot open: {}", std::strerror(error)));
}

Diagnostic too_large(const std::string& path, std::string_view size, std::uint64_t limit) {
  return file_error(path, fmt::format("{} more than {}, the most one input may hold; set {} to a larger size to read it",
                                      size, describe_input_limit(limit), kMaxInputVariable));
}

// Closes the descriptor whatever the way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) close(fd);
  }
};

// Reads everything from `fd`, through `gzip` when the data starts with its magic bytes.
Result<std::string> read_all(const std::string& path, int fd, std::uint64_t limit, std::size_t expected) {
  std::string text;
  std::vector<char> chunk(kChunk);
  std::optional<GzipReader> gzip;
  bool first = true;
  while (true) {
    const ssize_t n = read(fd, chunk.data(), chunk.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return file_error(path, fmt::format("read error: {}", std::strerror(errno)));
    }
    if (n == 0) break;
    const std::string_view got(chunk.data(), static_cast<std::size_t>(n));
    if (first) {
      first = false;
      if (is_gzip(got)) {
        gzip.emplace(path, limit,
                     fmt::format("gzip data inflates to more than {}, the most one input may hold (a decompression "
                                 "bomb?); set {} to a larger size to read it",
                                 describe_input_limit(limit), kMaxInputVariable));
      } else {
        text.reserve(expected);
      }
    }
    if (gzip) {
      if (auto fed = gzip->feed(got, text); !fed) return fed.errors();
      continue;
    }
    if (text.size() + got.size() > limit) return too_large(path, "holds", limit);
    text.append(got);
  }
  if (gzip) {
    if (auto done = gzip->finish(text); !done) return done.errors();
  }
  return text;
}

}  // namespace

std::string describe_input_limit(std::uint64_t bytes) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  if (bytes >= kGiB) return fmt::format("{:g} GiB", static_cast<double>(bytes) / static_cast<double>(kGiB));
  if (bytes >= kMiB) return fmt::format("{:g} MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
  return fmt::format("{} bytes", bytes);
}

Result<std::uint64_t> max_input_bytes() {
  const char* v = std::getenv(kMaxInputVariable);
  if (v == nullptr || *v == '\0') return kDefaultMaxInputBytes;
  auto size = parse_size(v);
  if (!size || size.value().value() <= 0) {
    return Diagnostic{{"environment", 0, 0}, kMaxInputVariable,
                      size ? "expected a size above 0, e.g. 1GiB" : size.errors().front().message};
  }
  return static_cast<std::uint64_t>(size.value().value());
}

Result<std::string> read_text_file(const std::string& path, std::string_view what) {
  const auto limit = max_input_bytes();
  if (!limit) return limit.errors();
  const Descriptor in{open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) return open_error(path, errno);
  struct stat st {};
  if (fstat(in.fd, &st) != 0) return file_error(path, fmt::format("cannot read: {}", std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) return file_error(path, fmt::format("is a folder, expected {}", what));
  std::size_t expected = 0;
  if (S_ISREG(st.st_mode)) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > limit.value()) return too_large(path, fmt::format("is {} bytes,", size), limit.value());
    expected = static_cast<std::size_t>(size);
  }
  return read_all(path, in.fd, limit.value(), expected);
}

Result<Unit> write_file_atomic(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") return Diagnostic{{path, 0, 0}, "", "no file named"};
  OutputSet one;
  one.stage(path, content);
  return one.commit();
}

}  // namespace ct
