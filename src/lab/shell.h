// Running a command line through /bin/sh and capturing its output: how the lab and the Linux
// data-plane tests drive iproute2 and sysctl. I/O; not for engines.
#pragma once

#include <string>

namespace ct {

struct CommandResult {
  int status = -1;  // as pclose() returns it; 0 = success
  std::string out;  // stdout, and stderr too when merged
};

// PRECONDITION: `command` is trusted text (names the caller built, no user input).
CommandResult run_command(const std::string& command, bool merge_stderr = true);

}  // namespace ct
