// The planner: measures a built backend fabric.
//
// Every figure is read off the Topology (a walk over its vertices and links), none is taken from the
// spec's formulas, so the plan checks the builder as much as it describes the design:
//   - switches, logical ports used (degree) and free (ports - degree), links, per plane and tier;
//   - optics and cables by catalog medium, counted per used physical cage (rules below);
//   - power and cost: switches, NICs, modules and cables times the catalog's figures, unknown
//     figures listed, never guessed;
//   - bisection: per plane, the maximum flow (Dinic, max_flow.h) from the NIC ports of hosts
//     [0, H/2) to those of hosts [H/2, H) over the plane's links at their capacities, which by
//     max-flow/min-cut is the capacity of the narrowest cut separating the two host halves;
//   - oversubscription per tier: down-link over up-link capacity summed over the tier's switches;
//   - switch hops between representative GPU pairs, by breadth-first search per plane;
//   - failure domains: the element is removed and each GPU's retained up capacity recomputed:
//       R(v) = sum over v's up links l to u of cap(l) * R(u) / sum over them of cap(l),
//     R = 1 for a live vertex with no up links, 0 for a removed one; a GPU keeps
//     sum over its ports of cap * R / sum of cap (all planes);
//   - scale limits (the only figures not measured): ct::max_endpoints per plane for 2 and 3 tiers,
//     times GPUs per NIC, for every plane count the NIC can be split into.
//   - the frontend (spec `frontend:`), when present: the same counts, optics, bisection and bill on
//     its own switches and links (Network::kFrontend); its NIC modules are one per used frontend
//     NIC cage (a cage carries nic port speed / frontend speed ports).
//   - catalog gaps: links for which the catalog has no optic or cable, as located warnings that say
//     which entry to add (media_gaps.h); the tables name their medium "no catalog optic".
// Cage rule: a switch cage carries `ways` = (logical ports at the link speed) / (physical cages)
// logical ports; the links of one medium at a switch fill ceil(links / ways) cages, each holding one
// module when the medium is a transceiver. A NIC cage is split into one logical port per plane, so
// one module per NIC serves every plane. Fibers (transceiver links) and cables (DAC/ACC/AOC): one
// per link. Cable power figures are per cable end, two ends per cable.
#pragma once

#include <optional>
#include <vector>

#include "catalog/catalog.h"
#include "plan/plan.h"
#include "spec/valid_spec.h"
#include "topology/topology.h"

namespace ct {

// What the planner takes from the spec: the names and catalog models (for their power, price and
// cage count) and the port split used by the scale limits.
struct PlanInputs {
  std::string name;
  TopologyKind topology = TopologyKind::kRailOptimized;
  NodeModel node;
  SwitchModel switch_model;
  NicModel nic;
  BitsPerSecond port_speed;             // backend link speed of the design
  SourceLocation port_speed_where;      // where the spec set it (diagnostics)
  double cable_length_m[3] = {0, 0, 0}; // NIC-leaf, leaf-spine, spine-core (frontend: the first two)
  SourceLocation cable_length_where[3];
  int radix = 0;                        // logical switch ports at port_speed (fat-tree: k)
  std::vector<int> down;                // down ports per tier with uplinks (leaf, spine)
  std::vector<double> oversubscription; // down:up per tier with uplinks
  std::optional<ValidFrontend> frontend;
};

PlanInputs plan_inputs(const ValidSpec& spec);

// PRECONDITION: topology was built from `spec` (or matches `inputs`) and finalize() was called.
Plan plan(const ValidSpec& spec, const Topology& topology, const Catalog& catalog);
Plan plan(const PlanInputs& inputs, const Topology& topology, const Catalog& catalog);

}  // namespace ct
