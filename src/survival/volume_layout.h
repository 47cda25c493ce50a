// The Longhorn volumes of a platform as the survival studies see them: one call into the replica
// placement (frontend/volume_replicas.h) for every claim, and one call for the links a rebuild
// crosses, so that a richer placement (disks, zones, space) or rebuild path (the spec's frontend
// links) changes these two functions only.
//   volume_layouts  every claim a placed pod mounts (a StatefulSet pod's from its
//                   volumeClaimTemplates), attached to that pod's node, then every other claim,
//                   detached; only Longhorn volumes (driver.longhorn.io), by namespace/name
//   rebuild_path    from a replica's node to the new replica's node: survival/volume_rebuild.h's
//                   rebuild_links (the first shortest path over the spec's frontend network between
//                   any of the nodes' frontend ports, each link direction apart; one rebuild takes
//                   one path, the spine's ECMP choice is not modelled); empty without a spec's
//                   frontend network
#pragma once

#include <string>
#include <vector>

#include "frontend/request_trace.h"
#include "survival/volume_rebuild.h"

namespace ct {

struct VolumeLayout {
  std::string claim;  // ns/name
  std::size_t workload = 0;
  bool mounted = false;  // by a placed pod (then `pod` and `workload` are set)
  std::string pod;
  std::string engine_node;  // "" = detached
  int replicas_wanted = 0;
  std::vector<std::string> replica_nodes;
  std::vector<std::string> candidate_nodes;
  double bytes = 0;  // the claim's request (an upper bound of the data)
  std::string size;  // as written ("60Gi")
  SourceLocation where;
};

std::vector<VolumeLayout> volume_layouts(const FrontendModel& model);

std::vector<RebuildLink> rebuild_path(const FrontendModel& model, const std::string& from_node, const std::string& to_node);

}  // namespace ct
