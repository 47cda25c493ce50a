// Longhorn volumes after failures: the state of a volume whose nodes died, and the time its
// replica rebuilds take over the frontend network.
//
// State (longhorn.io "Volume" concepts; "Node Failure Handling with Longhorn"): a volume wants
// numberOfReplicas replicas, its engine runs on the node it is attached to. With dead nodes D:
//   healthy    every wanted replica on a live node;
//   degraded   at least one replica alive, fewer than wanted (Longhorn rebuilds the others after
//              the replica replenishment wait, setting replica-replenishment-wait-interval, 600 s);
//   faulted    no replica alive: the data is LOST (every copy was on a dead node's disk);
// and independently, the data is UNAVAILABLE while the engine's node is dead (the replicas are
// intact; the volume serves again when it reattaches where its pod is rescheduled).
//
// Rebuild time: a rebuild copies the volume's data (the caller gives the bytes: the claim's size,
// an upper bound when the volume is not full) from a healthy replica's node to the new replica's
// node across `links` (the frontend network's links on the way, with their capacities from the
// spec). Rebuilds running at once share the links as flows share them in the flow engine: the
// weighted max-min fair rates of the project's one solver (sim/maxmin/max_min_solver.h, all weights
// 1), solved again at each start and each completion. A rebuild alone on a link of C bits/s takes
// 8 x bytes / C seconds. Not modelled: disk speed, Longhorn's per-node concurrent rebuild limit,
// snapshot and checksum work, other traffic on the links.
#pragma once

#include <string>
#include <vector>

namespace ct {

enum class VolumeHealth { kHealthy, kDegraded, kFaulted };
std::string to_string(VolumeHealth h);

struct VolumeAfter {
  VolumeHealth health = VolumeHealth::kHealthy;
  int replicas_alive = 0;
  int replicas_wanted = 0;
  bool data_lost = false;    // every replica on a dead node
  bool unavailable = false;  // the engine's node is dead (and the data is not lost)
};

VolumeAfter volume_after(const std::vector<std::string>& replica_nodes, int wanted, const std::string& engine_node,
                         const std::vector<std::string>& dead);

struct RebuildLink {
  std::string name;
  double bits_per_s = 0;
};

struct Rebuild {
  std::string volume;
  double bytes = 0;
  double start_s = 0;
  std::vector<std::size_t> links;  // indices into the links
};

// When each rebuild finishes (infinity when a link on its way has no capacity).
// PRECONDITION: every rebuild names at least one link, each at most once, each < links.size().
std::vector<double> rebuild_finish_times(const std::vector<RebuildLink>& links, const std::vector<Rebuild>& rebuilds);

}  // namespace ct
