// Storage of a pod: PersistentVolumeClaim -> StorageClass (explicit, or the one annotated
// storageclass.kubernetes.io/is-default-class) -> the volume and, for Longhorn (provisioner
// driver.longhorn.io), its engine and replicas, scheduled as Longhorn's replica scheduler does
// (longhorn.io docs "Scheduling", "Settings Reference", "Data Locality", "Multiple Disk Support";
// docs/models/longhorn.md says which defaults are cited from memory):
//
// Disks. A node's disks are its Longhorn Node object's spec.disks (path, storageReserved,
// allowScheduling, tags; sizes from status.diskStatus.<disk>.storageMaximum/storageAvailable when
// the object carries them). A node without such an object gets the default disk
// /var/lib/longhorn/ on its root file system (size: status.capacity ephemeral-storage, else
// unknown), storageReserved = storage-reserved-percentage-for-default-disk (30) % of it; with
// create-default-disk-labeled-nodes true only nodes labelled node.longhorn.io/create-default-disk=
// true get one (the setting's default is false, longhorn-manager types/setting.go: every node gets
// the default disk and the label means nothing). A disk takes replicas when it, its Longhorn node (allowScheduling) and
// its Kubernetes node (not cordoned, Ready) allow it, and its tags (node tags) include the
// StorageClass's diskSelector (nodeSelector).
// Space. A replica of S bytes fits a disk of maximum M, reserved R, with P bytes of replicas
// already scheduled on it (every Longhorn volume before this one, in file order, at its size):
//   over-provisioning   P + S <= (M - R) x storage-over-provisioning-percentage (100) / 100
//   minimal available   A - S  > M x storage-minimal-available-percentage (25) / 100
// with A the space the file system has free (status storageAvailable, else M: an empty disk; the
// replicas scheduled here have written nothing yet: thin provisioning, which over-provisioning
// exists for). A disk of unknown size is not checked for space.
// Anti-affinity. With the replicas already placed on nodes U in zones Z (the node label
// topology.kubernetes.io/zone; no label = the zone ""), the candidates are, in this order, the
// first non-empty of: disks on nodes outside U in zones outside Z; outside U in Z (only when
// replica-zone-soft-anti-affinity, default true); on nodes of U (only when
// replica-soft-anti-affinity, default false, and zone soft). A disk already holding a replica of
// the volume is a candidate only under replica-disk-soft-anti-affinity (default true).
// Choice. Among the candidates, the disk with the most usable space (A - R - P; unknown sizes last),
// then the node with fewest replicas of every volume so far (Longhorn's own tie is map order),
// then node and disk name.
// Data locality (parameter dataLocality, else default-data-locality, default disabled):
// best-effort puts the first replica on the engine's node when a disk there fits; strict-local
// wants numberOfReplicas 1 and puts it on the engine's node or nowhere.
// A replica that fits nowhere stays unscheduled with Longhorn's reason (its types.go words:
// "insufficient storage", "tags not fulfilled", "nodes are unavailable", "disks are
// unavailable", "hard affinity cannot be satisfied"): the volume is Degraded for ever when
// some replica was placed, and never healthy (faulted on creation) when none was.
// The engine runs on the node the volume is attached to (the pod's node).
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/manifests.h"
#include "frontend/pod_placement.h"

namespace ct {

// The Longhorn settings the scheduler reads, from Setting objects (or the longhorn-default-setting
// ConfigMap) when the manifests carry them, else Longhorn's defaults.
struct LonghornSettings {
  int default_replica_count = 3;                  // default-replica-count
  bool replica_soft_anti_affinity = false;        // replica-soft-anti-affinity
  bool zone_soft_anti_affinity = true;            // replica-zone-soft-anti-affinity
  bool disk_soft_anti_affinity = true;            // replica-disk-soft-anti-affinity
  double minimal_available_percentage = 25;       // storage-minimal-available-percentage
  double over_provisioning_percentage = 100;      // storage-over-provisioning-percentage
  double default_disk_reserved_percentage = 30;   // storage-reserved-percentage-for-default-disk
  std::string default_data_locality = "disabled"; // default-data-locality
  double replenishment_wait_s = 600;              // replica-replenishment-wait-interval
  std::optional<bool> labeled_nodes_only;         // create-default-disk-labeled-nodes
  std::vector<std::string> from_manifests;        // "name=value (file:line)" for each one read
};

// Empty when `value` is a valid value of setting `name` (or the model does not read `name`), else
// what is wrong (a manifest error at the value).
std::string longhorn_setting_problem(const std::string& name, const std::string& value);
LonghornSettings longhorn_settings(const Manifests& m);

// One disk as the scheduler sees it.
struct SchedulingDisk {
  std::string node;
  std::string name;  // the Longhorn disk name; "default-disk" for the default one
  std::string path;
  std::string zone;
  std::vector<std::string> tags;
  std::vector<std::string> node_tags;
  double maximum = -1;    // bytes; -1 unknown
  double available = -1;  // bytes as reported; -1 = maximum
  double reserved = 0;
  bool schedulable = true;
  std::string unschedulable_why;  // when not schedulable
  double scheduled = 0;           // bytes of the replicas scheduled on it so far
  int replicas = 0;               // replicas scheduled on it so far
};

struct ScheduledVolume {
  const PersistentVolumeClaim* claim = nullptr;  // into the Manifests or LonghornSchedule::template_claims
  const StorageClass* storage_class = nullptr;
  std::string engine_node;  // empty: not attached (the pod is not placed)
  double bytes = 0;         // the claim's request
  int wanted = 0;
  std::string data_locality;               // disabled | best-effort | strict-local
  std::vector<std::size_t> replica_disks;  // indices into LonghornSchedule::disks, in placement order
  std::vector<std::string> replica_nodes;  // the node of each
  std::string unscheduled;                 // why the replicas short of `wanted` fit nowhere
  std::vector<std::string> problems;       // the volume's own errors (a bad parameter)
};

struct LonghornSchedule {
  LonghornSettings settings;
  bool labeled_nodes_only = false;  // the setting as applied (given, else its default false)
  std::vector<SchedulingDisk> disks;  // by node name, then disk name
  std::deque<PersistentVolumeClaim> template_claims;  // the StatefulSets' per-pod claims
  std::vector<ScheduledVolume> volumes;  // the Longhorn volumes, in scheduling order
  std::map<std::string, int> node_replicas;  // replicas scheduled on each node so far
  [[nodiscard]] const ScheduledVolume* find(const std::string& ns, const std::string& claim) const;
};

// Every Longhorn volume of the manifests (PersistentVolumeClaims and the StatefulSets' per-pod
// claims, in file order, the templates' in pod order), each attached to its first pod's node, its
// replicas scheduled after those of the volumes before it.
LonghornSchedule schedule_longhorn(const Manifests& m, const Placement& placement);

// Schedules one more replica of `v` (its replicas so far in v.replica_disks), never on the nodes
// in `down`, and records it in `s`. The disk's index; nullopt, with Longhorn's reason in `why`,
// when it fits nowhere. Rebuilds (survival/volume_rebuild.h) use it with the dead nodes down.
std::optional<std::size_t> schedule_replica(LonghornSchedule& s, ScheduledVolume& v, const std::vector<std::string>& down,
                                            std::string& why);

struct VolumeReport {
  const PersistentVolumeClaim* claim = nullptr;
  const StorageClass* storage_class = nullptr;
  std::string engine_node;
  int replicas_wanted = 0;
  std::vector<std::string> candidate_nodes;  // the nodes with a disk that may hold a replica, by name
  std::vector<std::string> replica_nodes;
  std::vector<std::string> reasons;
  std::vector<std::string> problems;
  std::vector<std::string> survival;  // per node: what its death does
};

// The volume of claim `name` in `ns`, attached to `engine_node`, scheduled as schedule_longhorn
// does with the placement's other volumes before it.
VolumeReport describe_volume(const Manifests& m, const Placement& placement, const std::string& ns, const std::string& claim,
                             const std::string& engine_node);
// The volume of `claim` (a StatefulSet pod's, made from its volumeClaimTemplates), attached to `engine_node`.
VolumeReport describe_claim_volume(const Manifests& m, const Placement& placement, const PersistentVolumeClaim& claim,
                                   const std::string& engine_node);

}  // namespace ct
