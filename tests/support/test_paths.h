// Where a test finds the shipped files, its own scratch space and the CLI binary. The paths are
// compiled into test_paths.cpp alone, so that no other test object carries the checkout's absolute
// path: a fresh clone in another folder (as CI makes) then compiles every other test file to the
// same bytes, and ccache (CMakeLists.txt, CT_CCACHE) serves them from the cache the session filled.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

namespace ct::testing_support {

// The source tree (catalog/, examples/, tests/), without a trailing slash.
std::string source_dir();
// The build tree (scratch folders of tests that run the CLI), without a trailing slash.
std::string binary_dir();
// The clustertwin binary of this build.
std::string clustertwin_binary();
// A scratch folder of this test process, not yet made: NAME-PID in the system's temporary folder,
// so that suites running at once (Release and sanitizer, two checkouts) never share one.
std::filesystem::path scratch_dir(const std::string& name);

// Removes a scratch folder when the test leaves its scope, also by a failed ASSERT, whose early
// return skips the test's own clean-up: a folder named by the process id is never reused, so
// nothing else would remove it.
class RemoveOnExit {
 public:
  explicit RemoveOnExit(std::filesystem::path dir) : dir_(std::move(dir)) {}
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;
  ~RemoveOnExit() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace ct::testing_support
