// Progress of long work on stderr (hash trials and --compare, reliability's Monte Carlo, simulate):
//
//   hash: 1200 of 20000 trials (6%), 3 s
//
// On a terminal, one line redrawn in place (\r), first shown after kTerminalDelay so that short
// runs print nothing, and ended with a newline by finish(). With --progress (stderr not a
// terminal, e.g. a log), one line per update from the first on, and the last (done = total)
// always. --quiet wins over both. At most one update every kInterval (4 a second); stdout is
// never touched, so a run's output is the same bytes with or without progress.
// PRECONDITION: update() is called from one thread (the library calls its ProgressCallback from
// the caller's thread only, core/threads.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "cli/command.h"
#include "core/threads.h"

namespace ct::cli {

class ProgressReporter {
 public:
  static constexpr std::chrono::milliseconds kInterval{250};
  static constexpr std::chrono::milliseconds kTerminalDelay{1000};

  ProgressReporter(std::string what, std::string unit, const ProgressFlags& flags);
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;
  ~ProgressReporter() { finish(); }

  // A callback for the library's options, or an empty one when progress is off (the library then
  // skips the calls).
  ProgressCallback callback();
  void update(std::uint64_t done, std::uint64_t total, std::string_view detail = {});
  // Ends a terminal line, if one was drawn.
  void finish();

 private:
  std::string what_;
  std::string unit_;
  bool enabled_ = false;
  bool terminal_ = false;
  bool drawn_ = false;  // a terminal line is open
  bool printed_any_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace ct::cli
