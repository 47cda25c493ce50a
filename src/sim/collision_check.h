// Is a collective's simulated time its own, or the ECMP hash's? A collective's bound
// (WorkloadOperation::bound) is its least iteration time on a fabric without collisions: each step
// as long as its busiest NIC, NVLink or switch-tree edge. Per-flow hashing (crc32 by default, the
// realistic setting) can put two of a step's flows on one fabric cable while a parallel cable idles
// (polarization: every switch hashes alike), and the collective then runs at a fraction of that
// bound. The result is said to be dominated by collisions when
//   slowest iteration > kCollisionFactor x bound, and
//   some fabric link (switch to switch) carried more of one step's flows than any NIC link did
//   (on a non-blocking fabric a collision-free placement needs no more flows on a link than the
//   busiest NIC sends or receives).
// Spraying or adaptive routing approach the bound; `clustertwin hash` compares the hash choices.
#pragma once

#include "sim/simulation_result.h"
#include "topology/topology.h"

namespace ct {

inline constexpr double kCollisionFactor = 1.5;

// Sets OperationResult::collided_links and collision_dominated of every collective with a bound,
// from its iteration-0 flows' paths. PRECONDITION: `result` was simulated on `topology`; an
// operation's records are in (iteration, step) order and their paths lie one after the other in
// path_pool, in record order (as the simulation makes them).
void mark_collisions(const Topology& topology, SimulationResult& result);

}  // namespace ct
