#include "ib/fat_tree_fabric.h"

#include <cassert>

#include <fmt/format.h>

namespace ct {

IbFabric make_fat_tree_fabric(const IbFatTreeShape& shape) {
  const bool three = shape.cores_per_spine > 0;
  assert(three || shape.pods == 1);
  const int leaf_ports = shape.hosts_per_leaf + shape.spines_per_pod;
  const int spine_ports = shape.leaves_per_pod + shape.cores_per_spine;
  assert(leaf_ports <= IbFabric::kMaxPorts && spine_ports <= IbFabric::kMaxPorts && shape.pods <= IbFabric::kMaxPorts);
  IbFabric f;
  auto add_switch = [&](std::string desc, int ports, int tier) {
    const std::uint64_t guid = 0x0003000000000000ULL + f.node_count();
    const IbNodeId n = f.add_node(IbNodeType::kSwitch, guid, fmt::format("S-{:016x}", guid), std::move(desc), ports);
    f.tier[n.value()] = static_cast<std::uint8_t>(tier);
    return n;
  };
  std::vector<IbNodeId> leaf;
  std::vector<IbNodeId> spine;
  std::vector<IbNodeId> core;
  for (int p = 0; p < shape.pods; ++p) {
    for (int l = 0; l < shape.leaves_per_pod; ++l) leaf.push_back(add_switch(fmt::format("pod{}/leaf{}", p, l), leaf_ports, 1));
    for (int s = 0; s < shape.spines_per_pod; ++s) spine.push_back(add_switch(fmt::format("pod{}/spine{}", p, s), spine_ports, 2));
  }
  for (int j = 0; three && j < shape.spines_per_pod; ++j) {
    for (int c = 0; c < shape.cores_per_spine; ++c) core.push_back(add_switch(fmt::format("core{}/{}", j, c), shape.pods, 3));
  }
  for (int p = 0; p < shape.pods; ++p) {
    for (int l = 0; l < shape.leaves_per_pod; ++l) {
      const IbNodeId lf = leaf[static_cast<std::size_t>(p * shape.leaves_per_pod + l)];
      for (int h = 0; h < shape.hosts_per_leaf; ++h) {
        const std::uint64_t guid = 0x0004000000000000ULL + 2 * static_cast<std::uint64_t>(f.node_count());
        const IbNodeId ca =
            f.add_node(IbNodeType::kCa, guid, fmt::format("H-{:016x}", guid), fmt::format("pod{}/leaf{}/host{}", p, l, h), 1);
        f.connect(lf, h + 1, ca, 1);
      }
      for (int s = 0; s < shape.spines_per_pod; ++s) {
        f.connect(lf, shape.hosts_per_leaf + 1 + s, spine[static_cast<std::size_t>(p * shape.spines_per_pod + s)], l + 1);
      }
    }
    for (int s = 0; three && s < shape.spines_per_pod; ++s) {
      for (int c = 0; c < shape.cores_per_spine; ++c) {
        f.connect(spine[static_cast<std::size_t>(p * shape.spines_per_pod + s)], shape.leaves_per_pod + 1 + c,
                  core[static_cast<std::size_t>(s * shape.cores_per_spine + c)], p + 1);
      }
    }
  }
  return f;
}

}  // namespace ct
