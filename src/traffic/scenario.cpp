#include "traffic/scenario.h"

#include <array>

namespace ct {
namespace {

constexpr std::array<std::string_view, 3> kPathModelNames = {"ecmp", "spray", "adaptive"};
constexpr std::array<std::string_view, 3> kFaultKindNames = {"down", "degrade", "repair"};
constexpr std::array<std::string_view, 3> kSelectionNames = {"all", "per-rail", "per-host"};
constexpr std::array<std::string_view, 3> kGroupingNames = {"none", "rail", "host"};
constexpr std::array<std::string_view, 2> kOrderNames = {"in-order", "random"};

template <typename Enum, std::size_t N>
std::optional<Enum> find_name(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view path_model_name(PathModel p) { return kPathModelNames[static_cast<std::size_t>(p)]; }
std::string_view fault_kind_name(FaultKind k) { return kFaultKindNames[static_cast<std::size_t>(k)]; }
std::string_view gpu_selection_name(GpuGrouping g) { return kSelectionNames[static_cast<std::size_t>(g)]; }
std::string_view gpu_grouping_name(GpuGrouping g) { return kGroupingNames[static_cast<std::size_t>(g)]; }
std::string_view gpu_order_name(GpuOrder o) { return kOrderNames[static_cast<std::size_t>(o)]; }

std::optional<PathModel> parse_path_model(std::string_view name) { return find_name<PathModel>(kPathModelNames, name); }
std::optional<FaultKind> parse_fault_kind(std::string_view name) { return find_name<FaultKind>(kFaultKindNames, name); }
std::optional<GpuGrouping> parse_gpu_selection_name(std::string_view name) {
  return find_name<GpuGrouping>(kSelectionNames, name);
}
std::optional<GpuGrouping> parse_gpu_grouping(std::string_view name) { return find_name<GpuGrouping>(kGroupingNames, name); }
std::optional<GpuOrder> parse_gpu_order(std::string_view name) { return find_name<GpuOrder>(kOrderNames, name); }

}  // namespace ct
