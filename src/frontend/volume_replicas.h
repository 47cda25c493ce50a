// Storage of a pod: PersistentVolumeClaim -> StorageClass (explicit, or the one annotated
// storageclass.kubernetes.io/is-default-class) -> the volume and, for Longhorn (provisioner
// driver.longhorn.io), its engine and replicas. Longhorn (longhorn.io docs, "Volume" and "Node
// scheduling"): parameters.numberOfReplicas (default 3) replicas, at most one per node (replica
// node-level soft anti-affinity off, the default), on nodes with disks (nodes labelled
// node.longhorn.io/create-default-disk=true when any node is, else every schedulable node); the
// engine runs on the node the volume is attached to (the pod's node). With dataLocality
// best-effort a replica is kept on the engine's node. Replica choice among candidates: the nodes
// with the fewest replicas placed so far, then by name (disk space and zones are not modelled).
// The data survives while one replica survives; the volume is served while its engine's node is up
// (it reattaches where the pod is rescheduled otherwise).
#pragma once

#include <string>
#include <vector>

#include "frontend/manifests.h"
#include "frontend/pod_placement.h"

namespace ct {

struct VolumeReport {
  const PersistentVolumeClaim* claim = nullptr;
  const StorageClass* storage_class = nullptr;
  std::string engine_node;
  int replicas_wanted = 0;
  std::vector<std::string> candidate_nodes;  // the nodes that may hold a replica, by name
  std::vector<std::string> replica_nodes;
  std::vector<std::string> reasons;
  std::vector<std::string> problems;
  std::vector<std::string> survival;  // per node: what its death does
};

// The volume of claim `name` in `ns`, attached to `engine_node`.
VolumeReport describe_volume(const Manifests& m, const std::string& ns, const std::string& claim, const std::string& engine_node);
// The volume of `claim` (a StatefulSet pod's, made from its volumeClaimTemplates), attached to `engine_node`.
VolumeReport describe_claim_volume(const Manifests& m, const PersistentVolumeClaim& claim, const std::string& engine_node);

}  // namespace ct
