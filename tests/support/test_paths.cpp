#include "support/test_paths.h"

#include <unistd.h>

namespace ct::testing_support {

std::string source_dir() { return CT_SOURCE_DIR; }
std::string binary_dir() { return CT_BINARY_DIR; }
std::string clustertwin_binary() { return CT_CLUSTERTWIN_BINARY; }
std::filesystem::path scratch_dir(const std::string& name) {
  return std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
}

}  // namespace ct::testing_support
