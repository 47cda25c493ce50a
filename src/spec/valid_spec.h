// A cluster that has passed validation: catalog models resolved, every count positive, the design
// feasible on the chosen switch and tier count. Only validate() makes one.
//
// Derivations (docs/spec.md has the full list with the messages of every rule):
//   planes        default 1. Each backend NIC cage is split into `planes` logical ports; logical
//                 port p of every NIC belongs to plane p. Planes are identical and disjoint.
//   port_speed    default NIC cage speed / planes (ConnectX-8 800G, 2 planes: 400G). A speed
//                 above that is rejected; a lower one is accepted (the link runs at the slower end).
//   radix         switch.ports_at(port_speed): cages x breakout ways (SN5600: 64 at 800G, 128 at
//                 400G). Fat-tree: k (default the radix; even, <= radix).
//   down / up     for each tier with uplinks t (0 = leaf; 1 = spine, 3 tiers only) with the
//                 oversubscription ratio o = oversubscription[t] (default 1):
//                     up[t] = floor(radix / (1 + o)),  down[t] = radix - up[t].
//                 o = 1 gives down = up = radix / 2 (radix even); in general
//                 down / up >= o, since up <= radix / (1 + o) implies radix - up >= o * up.
//                 Every switch port is used (down + up = radix); up[t] >= 1 is required.
//                 Fat-tree: down = up = k / 2 in both tiers (non-blocking, Al-Fares et al. 2008).
//   ports_per_host node.backend_nics (rails); endpoint ports per plane = node_count x that.
//   capacity      max_endpoints(radix, down, tiers) (validate.h) endpoint ports per plane; a
//                 plane that needs more is rejected, naming what 2 and 3 tiers reach.
//   link_latency  link_latency_ns, default 0 = latency not modelled. No default figure is given
//                 because the catalog has no sourced per-hop latency; for the propagation part
//                 alone, light in silica fibre travels at c / 1.47, about 4.9 ns per metre.
//   cable_length_m  defaults leaf 30 m, spine 100 m, core 500 m: a DESIGN ASSUMPTION (NIC-leaf
//                 inside a row, leaf-spine across a hall, spine-core across a building), not a
//                 measured figure; set them from the floor plan. Used to pick optics by reach.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "core/diagnostic.h"
#include "core/units.h"
#include "spec/spec.h"

namespace ct {

enum class TopologyKind { kRailOptimized, kFatTree, kLeafSpine };
std::string to_string(TopologyKind k);

struct ValidBackend {
  TopologyKind topology = TopologyKind::kRailOptimized;
  int planes = 1;
  int tiers = 2;
  SwitchModel switch_model;
  SourceLocation switch_where;  // the spec's `backend.switch` value, for diagnostics of later stages
  NicModel nic;
  BitsPerSecond port_speed;  // every backend link of a plane runs at this speed
  SourceLocation port_speed_where;  // `backend.port_speed`, else the `backend:` key: for later stages' diagnostics
  int radix = 0;             // logical switch ports at port_speed (fat-tree: k)
  // Down:up port split of the tiers that have uplinks, index 0 = leaf, 1 = spine (3 tiers).
  // down[t] + up[t] <= radix; down[t] / up[t] is the oversubscription the user asked for.
  std::vector<int> down;
  std::vector<int> up;
  std::vector<double> oversubscription;
  int ports_per_host = 0;  // endpoint ports per host per plane (= backend NICs per node)
  TimePs link_latency;
  double cable_length_m[3] = {0, 0, 0};  // leaf (NIC-leaf), spine (leaf-spine), core (spine-core)
  SourceLocation cable_length_where[3];   // each length as written, else the `backend:` key
  // Extra switch-to-switch cables the user asked for, already checked (same plane, existing tier).
  // Tiers use Topology's numbering: 1 leaf, 2 spine, 3 core. `index` is the switch's position in
  // (plane, tier) counted over pods in order, i.e. the order of Topology's switch vertices; whether
  // that switch exists depends on the node count and is checked when the topology is built.
  struct ExtraLink {
    int plane_a, tier_a, index_a;
    int plane_b, tier_b, index_b;
    SourceLocation where_a, where_b;  // the two names in the spec (an index beyond its tier is refused there)
  };
  std::vector<ExtraLink> extra_links;
};

struct ValidFrontend {
  NicModel nic;
  BitsPerSecond speed;
  SourceLocation speed_where;  // `frontend.speed`, else the `frontend:` key
  SwitchModel switch_model;
  double oversubscription = 1.0;
};

// The `reliability:` block, checked (positive times, comm_fraction in [0, 1], job_gpus at most the
// cluster's GPUs). A field left out stays empty: the reliability analysis then uses its default
// (analysis/reliability_model.h). Arrays are indexed by FailureElement.
struct ValidReliability {
  std::optional<long long> job_gpus;
  std::optional<double> horizon_days;
  std::optional<double> checkpoint_hours;
  std::optional<double> restart_minutes;
  std::optional<double> comm_fraction;
  std::optional<long long> spare_hosts;
  std::optional<bool> drain_degraded;
  std::optional<bool> adaptive_split;
  std::array<std::optional<double>, kFailureElementCount> afr;
  std::array<std::optional<double>, kFailureElementCount> repair_hours;
};

class ValidSpec {
 public:
  std::string file;
  std::string name;
  NodeModel node;
  long long node_count = 0;
  ValidBackend backend;
  std::optional<ValidFrontend> frontend;
  SourceLocation routing_where;  // the `routing:` key, for diagnostics of later stages
  RoutingSpec routing;           // shape-checked; names resolved by routing/ecmp_config.h
  ValidReliability reliability;

  // Endpoint ports one backend plane must connect: node_count x node.backend_nics.
  [[nodiscard]] long long endpoints_per_plane() const { return node_count * backend.ports_per_host; }

  [[nodiscard]] long long gpu_count() const { return node_count * node.gpus; }

 private:
  friend class SpecValidator;
  friend ValidSpec imported_spec(std::string file, std::string name, long long hosts, SwitchModel switch_model,
                                 NicModel nic);
  ValidSpec() = default;
};

// The spec of a fabric read from the wire rather than designed (an InfiniBand subnet in
// ibnetdiscover format, ib/simulation_fabric.h), the other way to a ValidSpec: `hosts` hosts of one
// GPU and one backend NIC each (node model "imported host", no NVLink figure), one plane, the
// backend switch and NIC as the import describes them (no catalog entry: a packet run is given the
// switch figures by flag). Named `name`, located at `file`.
ValidSpec imported_spec(std::string file, std::string name, long long hosts, SwitchModel switch_model, NicModel nic);

}  // namespace ct
