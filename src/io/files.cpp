#include "io/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "core/units.h"
#include "io/gzip_reader.h"
#include "io/output_set.h"

namespace ct {
namespace {

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

// How to read more than the limit, for every "more than the limit" error.
std::string raise_hint() {
  return fmt::format("give {} SIZE (or set {}) to read it", kMaxInputFlag, kMaxInputVariable);
}

Diagnostic too_large(const std::string& path, std::string_view size, std::uint64_t limit) {
  return file_error(path, fmt::format("{} more than {}, the most one input may hold; {}", size,
                                      describe_input_limit(limit), raise_hint()));
}

Diagnostic bomb(const std::string& path, std::uint64_t limit) {
  return file_error(path, fmt::format("gzip data inflates to more than {}, the most one input may hold (a decompression "
                                      "bomb?); {}",
                                      describe_input_limit(limit), raise_hint()));
}

// Raw bytes read at a time: plain text straight into the text, gzip data into its own buffer.
constexpr std::size_t kPlainChunk = std::size_t{1} << 20;
constexpr std::size_t kGzipChunk = std::size_t{64} << 10;
// A regular file read to its size: the read that finds its end (or what was appended since).
constexpr std::size_t kEndProbe = std::size_t{4} << 10;

// The text size of a regular file of `size` bytes open at `fd`: its size, or for gzip data the
// last member's ISIZE (RFC 1952: the inflated size mod 2^32, in the last four bytes,
// little-endian), at most the limit. pread leaves the file's offset where it was.
std::size_t text_size_hint(int fd, std::size_t size, std::uint64_t limit) {
  constexpr std::size_t kSmallestGzip = 18;  // a 10-byte header, an empty block, the 8-byte trailer
  char magic[2] = {};
  unsigned char isize[4] = {};
  if (size < kSmallestGzip || pread(fd, magic, 2, 0) != 2 || !is_gzip(std::string_view(magic, 2))) return size;
  if (pread(fd, isize, 4, static_cast<off_t>(size - 4)) != 4) return 0;
  const std::uint64_t inflated = isize[0] | (isize[1] << 8) | (isize[2] << 16) | (std::uint64_t{isize[3]} << 24);
  return static_cast<std::size_t>(std::min(inflated, limit));
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

Result<std::unique_ptr<FileTextSource>> FileTextSource::open(const std::string& path, std::string_view what) {
  const auto limit = max_input_bytes();
  if (!limit) return limit.errors();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return open_error(path, errno);
  struct stat st {};
  std::optional<Diagnostic> refused;
  if (fstat(fd, &st) != 0) {
    refused = file_error(path, fmt::format("cannot read: {}", std::strerror(errno)));
  } else if (S_ISDIR(st.st_mode)) {
    refused = file_error(path, fmt::format("is a folder, expected {}", what));
  } else if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit.value()) {
    refused = too_large(path, fmt::format("is {} bytes,", st.st_size), limit.value());
  }
  if (refused) {
    close(fd);
    return *refused;
  }
  const std::size_t expected = S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;
  return std::unique_ptr<FileTextSource>(
      new FileTextSource(path, fd, limit.value(), expected, text_size_hint(fd, expected, limit.value())));
}

FileTextSource::FileTextSource(std::string path, int fd, std::uint64_t limit, std::size_t expected, std::size_t hint)
    : path_(std::move(path)), fd_(fd), limit_(limit), expected_(expected), hint_(hint) {}

FileTextSource::~FileTextSource() { close(fd_); }

bool FileTextSource::fail(Diagnostic d) {
  failed_ = std::move(d);
  return false;
}

// One read(2) of at most `size` bytes onto `into`; false on an error, eof_ at the end. Of a regular
// file, no more than its remaining bytes and one (the byte that says it grew), and at the end a
// small read for the end of file: the buffer grown for a read is zeroed first, so a large chunk
// past the file's end would cost its size in zeroing.
bool FileTextSource::read_chunk(std::string& into, std::size_t size) {
  if (expected_ > 0) {
    const std::size_t left = bytes_read_ < expected_ ? static_cast<std::size_t>(expected_ - bytes_read_) : 0;
    size = std::min(size, left > 0 ? left + 1 : kEndProbe);
  }
  const std::size_t before = into.size();
  into.resize(before + size);
  ssize_t n = 0;
  do {
    n = read(fd_, into.data() + before, size);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    into.resize(before);
    return fail(file_error(path_, fmt::format("read error: {}", std::strerror(errno))));
  }
  into.resize(before + static_cast<std::size_t>(n));
  bytes_read_ += static_cast<std::uint64_t>(n);
  if (n == 0) eof_ = true;
  return true;
}

bool FileTextSource::fill() {
  if (failed_) return false;
  if (first_) {
    first_ = false;
    // A small first read: gzip data goes on in chunks of its own size, so a bomb is refused after
    // little more than one of them.
    if (!read_chunk(buffer_, kGzipChunk)) return false;
    if (is_gzip(buffer_)) {
      chunk_ = std::move(buffer_);
      buffer_.clear();
      gzip_ = std::make_unique<GzipReader>(path_);
      gzip_->give(chunk_);
    } else {
      text_bytes_ = buffer_.size();
      return !eof_;
    }
  }
  if (!gzip_) {
    if (eof_) return false;
    const std::size_t before = buffer_.size();
    if (!read_chunk(buffer_, kPlainChunk)) return false;
    text_bytes_ += buffer_.size() - before;
    if (text_bytes_ > limit_) return fail(too_large(path_, "holds", limit_));
    return !eof_;
  }
  while (true) {
    if (gzip_->needs_input()) {
      if (eof_) {
        const auto done = gzip_->finish();
        return done ? false : fail(done.errors().front());
      }
      chunk_.clear();
      if (!read_chunk(chunk_, kGzipChunk)) return false;
      gzip_->give(chunk_);
      continue;
    }
    const std::size_t before = buffer_.size();
    if (const auto inflated = gzip_->inflate(buffer_, kTextPiece); !inflated) return fail(inflated.errors().front());
    text_bytes_ = gzip_->inflated();
    if (text_bytes_ > limit_) return fail(bomb(path_, limit_));
    if (buffer_.size() > before) return true;
  }
}

std::string_view FileTextSource::head() {
  if (held_) return std::string_view(buffer_.data(), given_);
  if (!first_) return {};  // PRECONDITION: called before the first next()
  std::string_view piece;
  held_ = next(piece);
  return held_ ? piece : std::string_view();
}

bool FileTextSource::next(std::string_view& piece) {
  if (failed_) return false;
  if (held_) {
    held_ = false;
    piece = std::string_view(buffer_.data(), given_);
    return true;
  }
  buffer_.erase(0, given_);  // what is left holds no '\n': the last piece ended at its last one
  given_ = 0;
  std::size_t cut = 0;
  while (cut == 0 || buffer_.size() < kTextPiece) {
    const std::size_t before = buffer_.size();
    const bool more = fill();
    if (failed_) return false;
    if (const void* nl = memrchr(buffer_.data() + before, '\n', buffer_.size() - before)) {
      cut = static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data()) + 1;
    }
    if (!more) {
      cut = buffer_.size();
      break;
    }
  }
  if (cut == 0) return false;
  given_ = cut;
  piece = std::string_view(buffer_.data(), cut);
  return true;
}

Result<std::string> FileTextSource::rest() {
  if (failed_) return *failed_;
  if (!held_) buffer_.erase(0, given_);
  held_ = false;
  given_ = 0;
  if (first_ && expected_ > 0) buffer_.reserve(expected_ + kPlainChunk);
  while (fill()) {
  }
  if (failed_) return *failed_;
  std::string out = std::move(buffer_);
  buffer_.clear();
  return out;
}

Result<std::string> read_text_file(const std::string& path, std::string_view what) {
  auto source = FileTextSource::open(path, what);
  if (!source) return source.errors();
  return source.value()->rest();
}

Result<Unit> write_file_atomic(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") return Diagnostic{{path, 0, 0}, "", "no file named"};
  OutputSet one;
  one.stage(path, content);
  return one.commit();
}

}  // namespace ct
