#include "traffic/scenario.h"

#include <array>

namespace ct {

std::string_view path_model_name(PathModel p) {
  constexpr std::array<std::string_view, 3> kNames = {"ecmp", "spray", "adaptive"};
  return kNames[static_cast<std::size_t>(p)];
}

std::string_view fault_kind_name(FaultKind k) {
  constexpr std::array<std::string_view, 3> kNames = {"down", "degrade", "repair"};
  return kNames[static_cast<std::size_t>(k)];
}

}  // namespace ct
