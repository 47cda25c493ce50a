// What `clustertwin --version` prints: the project's version (CMake's project(VERSION)) and the
// commit the binary was built from (cmake/build_info.cmake, regenerated at every build).
#pragma once

#include <string_view>

namespace ct::cli {

// `git describe --always --dirty --abbrev=12 --exclude=*` of the source tree at build time: the
// commit's 12-digit hash ("-dirty" after it: built with uncommitted changes), or "unknown" when the
// tree was not a git checkout.
std::string_view build_commit();

}  // namespace ct::cli
