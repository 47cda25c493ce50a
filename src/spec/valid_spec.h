// A cluster that has passed validation: catalog models resolved, every count positive, the design
// feasible on the chosen switch and tier count. Only validate() makes one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "core/units.h"

namespace ct {

enum class TopologyKind { kRailOptimized, kFatTree, kLeafSpine };
std::string to_string(TopologyKind k);

struct ValidBackend {
  TopologyKind topology = TopologyKind::kRailOptimized;
  int planes = 1;
  int tiers = 2;
  SwitchModel switch_model;
  NicModel nic;
  BitsPerSecond port_speed;  // every backend link of a plane runs at this speed
  int radix = 0;             // logical switch ports at port_speed (fat-tree: k)
  // Down:up port split of the tiers that have uplinks, index 0 = leaf, 1 = spine (3 tiers).
  // down[t] + up[t] <= radix; down[t] / up[t] is the oversubscription the user asked for.
  std::vector<int> down;
  std::vector<int> up;
  std::vector<double> oversubscription;
  int ports_per_host = 0;  // endpoint ports per host per plane (= backend NICs per node)
  TimePs link_latency;
  double cable_length_m[3] = {0, 0, 0};  // leaf (NIC-leaf), spine (leaf-spine), core (spine-core)
  // Extra switch-to-switch cables the user asked for, already checked (same plane, existing tier).
  struct ExtraLink {
    int plane_a, tier_a, index_a;
    int plane_b, tier_b, index_b;
  };
  std::vector<ExtraLink> extra_links;
};

struct ValidFrontend {
  NicModel nic;
  BitsPerSecond speed;
  SwitchModel switch_model;
  double oversubscription = 1.0;
};

class ValidSpec {
 public:
  std::string file;
  std::string name;
  NodeModel node;
  long long node_count = 0;
  ValidBackend backend;
  std::optional<ValidFrontend> frontend;
  std::string routing_yaml;

  [[nodiscard]] long long gpu_count() const { return node_count * node.gpus; }

 private:
  friend class SpecValidator;
  ValidSpec() = default;
};

}  // namespace ct
