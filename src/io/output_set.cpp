#include "io/output_set.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <climits>
#include <cstdlib>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace ct {
namespace {

namespace fs = std::filesystem;

bool is_stdout(const std::string& path) { return path.empty() || path == "-"; }

std::string sibling_template(const std::string& path, const char* kind) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  return (dir / fmt::format(".{}.{}XXXXXX", target.filename().string(), kind)).string();
}

Diagnostic cannot(const std::string& path, const std::string& what, int err) {
  return Diagnostic{{path, 0, 0}, "output", fmt::format("{}: {}; nothing was written", what, std::strerror(err))};
}

// Writes `content` to a new temporary sibling of `target`; its name, or a diagnostic naming `path`.
Result<std::string> write_temporary(const std::string& path, const std::string& target, const std::string& content) {
  std::string name = sibling_template(target, "tmp");
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return cannot(path, "cannot create a file beside it", errno);
  const char* p = content.data();
  std::size_t left = content.size();
  int err = 0;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  ::fchmod(fd, 0644);
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(name.c_str());
    return cannot(path, "cannot write", err);
  }
  return name;
}

// Where an output lands, to tell two outputs to one place apart from two places: stdout, or a file
// by its canonical path and, when it exists, its inode (hard links, /dev/stdout).
struct Destination {
  bool stdout_ = false;
  bool discard = false;  // /dev/null
  std::string canonical;
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
};

Destination destination_of(const std::string& path) {
  Destination d;
  struct stat st {};
  if (is_stdout(path)) {
    d.stdout_ = true;
    return d;
  }
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  d.canonical = fs::weakly_canonical(absolute, ec).string();
  if (ec) d.canonical = absolute.lexically_normal().string();
  d.discard = d.canonical == "/dev/null";
  if (::stat(path.c_str(), &st) == 0) {
    d.exists = true;
    d.device = st.st_dev;
    d.inode = st.st_ino;
  }
  // A file that is stdout itself (/dev/stdout, /proc/self/fd/1, the file the shell redirected to).
  struct stat out {};
  if (d.exists && !d.discard && ::fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == d.device && out.st_ino == d.inode) {
    d.stdout_ = true;
  }
  return d;
}

bool same_destination(const Destination& a, const Destination& b) {
  if (a.discard || b.discard) return false;
  if (a.stdout_ || b.stdout_) return a.stdout_ && b.stdout_;
  if (a.exists && b.exists) return a.device == b.device && a.inode == b.inode;
  return a.canonical == b.canonical;
}

}  // namespace

OutputSet::~OutputSet() { remove_temporaries(); }

void OutputSet::stage(const std::string& path, std::string content, std::string option) {
  const std::string key = is_stdout(path) ? std::string() : path;
  outputs_.push_back(Output{key, std::move(option), key, std::move(content), "", "", false, false, false});
}

// "--csv-links x.csv", "-o -"; an option not spelt with a dash ("the report") as it is.
std::string OutputSet::said(const Output& o) {
  if (o.option.empty() || o.option[0] != '-') return o.option;
  return o.option + " " + (o.path.empty() ? std::string("-") : o.path);
}

std::string OutputSet::clash() const {
  std::vector<Destination> places;
  places.reserve(outputs_.size());
  for (const Output& o : outputs_) places.push_back(destination_of(o.path));
  for (std::size_t j = 0; j < outputs_.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (!same_destination(places[i], places[j])) continue;
      const Output& a = outputs_[i];
      const Output& b = outputs_[j];
      if (places[i].stdout_) return fmt::format("{} and {} both write to stdout; name a file for one", said(a), said(b));
      if (a.path == b.path) return fmt::format("{} and {} both name '{}'; give each its own file", a.option, b.option, a.path);
      return fmt::format("{} '{}' and {} '{}' are the same file; give each its own file", a.option, a.path, b.option, b.path);
    }
  }
  return "";
}

void OutputSet::remove_temporaries() {
  for (Output& o : outputs_) {
    if (!o.temporary.empty()) ::unlink(o.temporary.c_str());
    if (!o.backup.empty()) ::unlink(o.backup.c_str());
    o.temporary.clear();
    o.backup.clear();
  }
}

void OutputSet::roll_back() {
  for (Output& o : outputs_) {
    if (!o.replaced) continue;
    if (o.existed && !o.backup.empty()) {
      if (std::rename(o.backup.c_str(), o.target.c_str()) == 0) o.backup.clear();
    } else if (!o.existed) {
      ::unlink(o.target.c_str());
    }
    o.replaced = false;
  }
}

Result<Unit> OutputSet::commit() {
  if (const std::string message = clash(); !message.empty()) {
    return Diagnostic{{"command line", 0, 0}, "output", message + "; nothing was written"};
  }
  // 1. Every file to a temporary sibling; a target that is a folder fails here.
  for (Output& o : outputs_) {
    if (o.path.empty()) continue;
    struct stat st {};
    o.target = o.path;
    o.existed = ::stat(o.target.c_str(), &st) == 0;
    if (o.existed && S_ISDIR(st.st_mode)) {
      remove_temporaries();
      return Diagnostic{{o.path, 0, 0}, "output", "is a folder, not a file; nothing was written"};
    }
    if (o.existed && !S_ISREG(st.st_mode)) {  // /dev/null, /dev/stdout, a pipe: written in place, never renamed over
      o.stream = true;
      continue;
    }
    if (char resolved[PATH_MAX]; ::realpath(o.path.c_str(), resolved) != nullptr) o.target = resolved;  // a symlink stays one
    auto temporary = write_temporary(o.path, o.target, o.content);
    if (!temporary) {
      remove_temporaries();
      return temporary.errors();
    }
    o.temporary = std::move(temporary).value();
  }
  // 2. Backups of the targets that exist, then the renames; a failure restores what was replaced.
  for (Output& o : outputs_) {
    if (o.path.empty() || !o.existed || o.stream) continue;
    std::string name = sibling_template(o.target, "bak");
    const int fd = ::mkstemp(name.data());
    if (fd >= 0) {
      ::close(fd);
      ::unlink(name.c_str());
    }
    if (fd < 0 || ::link(o.target.c_str(), name.c_str()) != 0) {
      const int err = errno;
      remove_temporaries();
      return cannot(o.path, "cannot keep a backup of it", err);
    }
    o.backup = std::move(name);
  }
  for (Output& o : outputs_) {
    if (o.path.empty() || o.stream) continue;
    if (std::rename(o.temporary.c_str(), o.target.c_str()) != 0) {
      const int err = errno;
      roll_back();
      remove_temporaries();
      return cannot(o.path, "cannot replace it", err);
    }
    o.temporary.clear();
    o.replaced = true;
  }
  remove_temporaries();
  // 3. Streams (devices and pipes, which cannot be staged), then stdout last.
  for (const Output& o : outputs_) {
    if (!o.stream) continue;
    std::FILE* f = std::fopen(o.target.c_str(), "w");
    const bool ok = f != nullptr && std::fwrite(o.content.data(), 1, o.content.size(), f) == o.content.size();
    const int err = errno;
    if (f != nullptr && std::fclose(f) != 0 && ok) return cannot(o.path, "cannot write", errno);
    if (!ok) return cannot(o.path, "cannot write", err);
  }
  for (const Output& o : outputs_) {
    if (!o.path.empty()) continue;
    std::fwrite(o.content.data(), 1, o.content.size(), stdout);
    std::fflush(stdout);
  }
  outputs_.clear();
  return Unit{};
}

}  // namespace ct
