#include "support/test_paths.h"

namespace ct::testing_support {

std::string source_dir() { return CT_SOURCE_DIR; }
std::string binary_dir() { return CT_BINARY_DIR; }
std::string clustertwin_binary() { return CT_CLUSTERTWIN_BINARY; }

}  // namespace ct::testing_support
