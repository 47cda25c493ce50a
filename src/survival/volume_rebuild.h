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
// Rebuild time: a rebuild copies the volume's data (the claim's size, an upper bound when the
// volume is not full) from a healthy replica's node to the new replica's node across the frontend
// network's links on the way, each direction of a full-duplex link with the spec's capacity.
// Rebuilds running at once share the links as flows share them in the flow engine: the weighted
// max-min fair rates of the project's one solver (sim/maxmin/max_min_solver.h, all weights 1),
// solved again at each start and each completion. A rebuild alone on a link of C bits/s takes
// 8 x bytes / C seconds. Not modelled: disk speed, Longhorn's per-node concurrent rebuild limit,
// snapshot and checksum work, other traffic on the links.
//
// plan_rebuilds (the `break` and `spof` commands call it) puts it together: the Longhorn schedule
// before the failure (frontend/volume_replicas.h); for every volume with a replica on a dead
// node, one rebuild per lost replica, its new disk chosen by the same scheduler with the dead
// nodes down (none fits: Longhorn's reason, and the volume stays Degraded), its source the live
// replica with the shortest frontend path to it (then by node name); the path is the first
// shortest path over the spec's frontend network (topology/builder.h: node uplink, leaf, spine;
// nodes map to hosts by their clustertwin.io/host annotation as `trace` hop 3 does; from any of
// the node's frontend ports to any of the other's, breadth first in port and link-id order, no
// ECMP) avoiding dead switches and
// links; it starts after the replica replenishment wait (setting
// replica-replenishment-wait-interval), and not before the volume is attached again when its
// engine's node died.
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/ids.h"
#include "frontend/manifests.h"
#include "frontend/pod_placement.h"
#include "topology/topology.h"

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

// What failed, and when.
struct DeadElements {
  std::vector<std::string> nodes;  // Kubernetes node names (their disks and replicas go with them)
  std::vector<VertexId> switches;  // frontend switches of the topology (names: fabric/name_directory.h)
  std::vector<LinkId> links;       // frontend links
  double at_s = 0;                 // the failure's time
  // When a volume whose engine's node died is attached again ("ns/claim" -> seconds on the same
  // clock; survival/node_lifecycle.h gives it). Absent: taken as attached by the end of the wait.
  std::map<std::string, double> reattached_s;
};

// One lost replica of a volume, rebuilt (or not).
struct PlannedRebuild {
  std::string from_node;  // the live replica it copies from; empty when never
  std::string to_node;    // the new replica's node and disk; empty when no disk fits
  std::string to_disk;
  std::vector<std::string> path;  // the cable directions it crosses (cable_direction_name), "A -- B #k up|down"
  double start_s = 0;
  double finish_s = std::numeric_limits<double>::infinity();  // infinity: never
  std::string never;  // why it never finishes (no disk fits: Longhorn's reason; no path; no spec)
};

// A volume that lost replicas.
struct VolumeRebuilds {
  std::string volume;  // "ns/claim"
  double bytes = 0;
  std::string engine_node;
  VolumeAfter after;  // just after the failure
  std::vector<PlannedRebuild> rebuilds;  // one per lost replica (none when the data is lost)
};

// Every volume with a replica on a dead node, in the schedule's order, each rebuild timed with the
// others sharing the links. `topology` may be null (no spec, or one without a frontend network):
// the rebuilds are then placed but never timed (finish infinity, `never` says why).
// PRECONDITION: `placement` is place_pods(m); dead switches and links belong to `topology`.
std::vector<VolumeRebuilds> plan_rebuilds(const Manifests& m, const Placement& placement, const Topology* topology,
                                          const DeadElements& dead);

// The links a rebuild from `from_node`'s disk to `to_node`'s crosses: the first shortest path over
// the spec's frontend network between any of the two nodes' frontend ports, avoiding the dead
// switches and links, each link named with its direction as every output names a cable direction
// (sim/resource_name.h cable_direction_name: "A -- B #k up|down", full duplex) and its capacity. Empty when both are one host; nullopt when a node has no host in the topology or no
// path is left.
std::optional<std::vector<RebuildLink>> rebuild_links(const Manifests& m, const Topology& t, const std::string& from_node,
                                                      const std::string& to_node, const DeadElements& dead);

}  // namespace ct
