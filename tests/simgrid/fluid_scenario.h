// A fluid-model scenario described once and run by two engines (clustertwin's FlowEngine and
// SimGrid's CM02 max-min model): constraints with a capacity, flows with an explicit path, a size
// and a start time, and capacity changes (degradations). Latencies are zero on purpose: SimGrid's
// CM02 model delays a transfer's start by its route latency and weights its share by 1 / latency,
// where ours adds the latency after the last byte (docs/models/flow-engine.md).
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "core/units.h"
#include "sim/maxmin/max_min_system.h"
#include "sim/simulation_result.h"
#include "topology/topology.h"

namespace ct {

struct FluidScenario {
  struct Flow {
    std::vector<ConstraintId> path;
    Bytes size;
    TimePs start;
    BitsPerSecond rate_cap{0};  // 0 = none
  };
  struct CapacityChange {
    ConstraintId constraint;
    TimePs at;
    double fraction;  // of the nominal capacity, > 0
  };
  std::vector<BitsPerSecond> capacity;  // per constraint
  std::vector<Flow> flows;
  std::vector<CapacityChange> changes;

  // Appends `other` with its constraints renumbered after ours (the two stay independent).
  void append(const FluidScenario& other);
};

struct LeafSpineShape {
  int hosts = 16;
  int hosts_per_leaf = 4;
  int spines = 2;
  BitsPerSecond host_link = gbps(400);
  BitsPerSecond fabric_link = gbps(400);
};

// Constraint numbering of a 2-tier leaf-spine fabric, one constraint per direction of each cable:
//   host h up (host -> leaf) = 2h, down (leaf -> host) = 2h + 1;
//   leaf l -> spine s = 2H + 2(l S + s), spine s -> leaf l = 2H + 2(l S + s) + 1.
FluidScenario leaf_spine_constraints(const LeafSpineShape& shape);
// The path from host src to host dst (src != dst): up, down when they share a leaf; else up, leaf
// -> spine, spine -> leaf, down through `spine`.
std::vector<ConstraintId> leaf_spine_path(const LeafSpineShape& shape, int src, int dst, int spine);

// A random small leaf-spine fabric (8-32 hosts, 2-4 spines, 100-400 Gb/s links) with random flows
// (random pairs and ECMP-like spine choice, 1 MB - 256 MB, starting within 10 ms, some with a
// rate cap) and a few random degradations.
FluidScenario random_leaf_spine_scenario(Rng& rng);

// The flows of a simulation as a FluidScenario: the same constraints (nominal capacities), paths,
// sizes and start times. PRECONDITION: no flow waits for another, no capacity change, no reroute
// (a permutation of independent flows).
FluidScenario fluid_of(const SimulationResult& result);
// Each flow's last byte in seconds: its completion minus its path latency (SimGrid is configured
// without latency), -1 for a flow that did not complete.
std::vector<double> last_byte_seconds(const SimulationResult& result, const Topology& topology);

// Each flow's completion time (last byte; latencies are zero) in seconds, by clustertwin's engine.
std::vector<double> clustertwin_completion_seconds(const FluidScenario& scenario, bool incremental = true);

}  // namespace ct
