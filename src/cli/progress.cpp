#include "cli/progress.h"

#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

namespace ct::cli {

ProgressReporter::ProgressReporter(std::string what, std::string unit, const ProgressFlags& flags)
    : what_(std::move(what)), unit_(std::move(unit)), start_(std::chrono::steady_clock::now()), last_(start_) {
  terminal_ = ::isatty(STDERR_FILENO) == 1;
  enabled_ = !flags.quiet && (flags.force || terminal_);
}

ProgressCallback ProgressReporter::callback() {
  if (!enabled_) return {};
  return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
}

void ProgressReporter::update(std::uint64_t done, std::uint64_t total, std::string_view detail) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last = total > 0 && done >= total;
  if (terminal_) {
    if (now - start_ < kTerminalDelay || (now - last_ < kInterval && !(last && drawn_))) return;
  } else if (printed_any_ && now - last_ < kInterval && !last) {
    return;
  }
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double percent = total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0.0;
  std::string text = fmt::format("{}: {} of {} {} ({:.0f}%){}{}, {:.0f} s", what_, done, total, unit_, percent,
                                 detail.empty() ? "" : ", ", detail, elapsed);
  if (terminal_) {
    std::fprintf(stderr, "\r%s\033[K", text.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
  printed_any_ = true;
}

void ProgressReporter::finish() {
  if (!drawn_) return;
  std::fputs("\n", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace ct::cli
