// Runs the clustertwin binary of this build as a process, as a user would, and returns its exit
// status and what it wrote. For the tests that check exit codes, messages and files end to end.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/files.h"
#include "support/test_paths.h"

namespace ct::testing_support {

struct CliRun {
  int rc = -1;  // the exit status, or 128 + the signal that ended it
  std::string out;
  std::string err;
};

// Runs `clustertwin ARGS` through bash (so ARGS may quote, and `prefix` may set limits with
// ulimit or the like before the exec), with the shipped catalog, stdin closed, stdout and stderr
// caught in scratch files under the build tree that are removed afterwards.
inline CliRun run_clustertwin(const std::string& args, const std::string& prefix = "") {
  static int serial = 0;
  const std::filesystem::path dir = std::filesystem::path(binary_dir()) / "tests" / "cli" / "work" / "cli_runs";
  std::filesystem::create_directories(dir);
  const std::string stem = (dir / std::to_string(::getpid())).string() + "_" + std::to_string(serial++);
  const std::string command = "CLUSTERTWIN_CATALOG='" + source_dir() + "/catalog' bash -c \"" + prefix + " exec '" +
                              clustertwin_binary() + "' \\\"\\$@\\\"\" clustertwin " + args + " >'" + stem + ".out' 2>'" +
                              stem + ".err' </dev/null";
  const int status = std::system(command.c_str());
  CliRun r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_text_file(stem + ".out").value();
  r.err = read_text_file(stem + ".err").value();
  std::filesystem::remove(stem + ".out");
  std::filesystem::remove(stem + ".err");
  return r;
}

}  // namespace ct::testing_support
