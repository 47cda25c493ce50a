#include "lab/shell.h"

#include <cstdio>

namespace ct {

CommandResult run_command(const std::string& command, bool merge_stderr) {
  CommandResult r;
  FILE* pipe = popen((command + (merge_stderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  r.status = pclose(pipe);
  return r;
}

}  // namespace ct
