// Lint rules of the storage family: more Longhorn replicas than nodes that can hold one, every
// replica of a volume in one zone, a ReadWriteOnce volume under a Deployment that runs two pods at
// once, and one-replica volumes.
// Replica placement is volume_replicas.h's (frontend/): the schedule of every Longhorn volume with its
// disks, zones and space, computed once per run (LintContext::longhorn).
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/volume_replicas.h"
#include "lint/lint_checks.h"
#include "lint/lint_query.h"

namespace ct {

namespace {

// The Longhorn classes in use, each with the scheduled volumes that use it, in scheduling order.
struct ClassUse {
  const StorageClass* storage_class = nullptr;
  int wanted = 0;
  std::vector<const ScheduledVolume*> volumes;
};
std::vector<ClassUse> longhorn_classes_in_use(const LonghornSchedule& s) {
  std::vector<ClassUse> out;
  std::map<const StorageClass*, std::size_t> index;
  for (const ScheduledVolume& v : s.volumes) {
    if (v.storage_class == nullptr || v.wanted == 0 || !v.problems.empty()) continue;
    auto [it, fresh] = index.emplace(v.storage_class, out.size());
    if (fresh) out.push_back({v.storage_class, v.wanted, {}});
    out[it->second].volumes.push_back(&v);
  }
  return out;
}

std::string claim_names(const std::vector<const ScheduledVolume*>& volumes) {
  std::vector<std::string> names;
  for (const auto* v : volumes) names.push_back(v->claim->meta.ns.empty() ? v->claim->meta.name : v->claim->meta.ns + "/" + v->claim->meta.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

// The nodes with a disk that could take a replica of `v` were it alone in the cluster (schedulable,
// tags fulfilled, the volume's size within the disk's space rules): Longhorn's hard node
// anti-affinity allows one replica per node, so fewer of them than wanted is never healthy.
std::vector<std::string> nodes_with_room(const LonghornSchedule& s, const ScheduledVolume& v) {
  std::set<std::string> nodes;
  for (std::size_t i = 0; i < s.disks.size(); ++i) {
    LonghornSchedule empty;
    empty.settings = s.settings;
    empty.disks = {s.disks[i]};
    empty.disks[0].scheduled = 0;
    empty.disks[0].replicas = 0;
    ScheduledVolume probe = v;
    probe.replica_disks.clear();
    probe.replica_nodes.clear();
    probe.data_locality = "disabled";
    std::string why;
    if (schedule_replica(empty, probe, {}, why)) nodes.insert(s.disks[i].node);
  }
  return {nodes.begin(), nodes.end()};
}

}  // namespace

void check_longhorn_replicas_exceed_nodes(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const LonghornSchedule& s = c.longhorn();
  if (s.settings.replica_soft_anti_affinity) return;  // soft: several replicas per node, healthy though weaker
  for (const ClassUse& u : longhorn_classes_in_use(s)) {
    const std::vector<std::string> room = nodes_with_room(s, *u.volumes.front());
    const int n = static_cast<int>(room.size());
    if (u.wanted <= n) continue;
    const StorageClass& sc = *u.storage_class;
    const PersistentVolumeClaim& first = *u.volumes.front()->claim;
    out.push_back(rule.finding(
        fmt::format("StorageClass {} wants {} replicas on distinct nodes, and only {} node(s) can hold one ({}); used by {}", sc.meta.name,
                    u.wanted, n, fmt::join(room, ", "), claim_names(u.volumes)),
        {{object_label(sc.meta), sc.meta.where}, {object_label(first.meta), first.meta.where}},
        fmt::format("the volumes are Degraded from their first day and never healthy: {} replica(s) are never scheduled, and "
                    "the data survives one node fewer than the class promises",
                    u.wanted - n),
        fmt::format("set parameters.numberOfReplicas: \"{}\" or give {} more node(s) a Longhorn disk{}", n, u.wanted - n,
                    s.labeled_nodes_only ? " (label node.longhorn.io/create-default-disk=true)" : "")));
  }
}

void check_longhorn_replicas_one_zone(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const LonghornSchedule& s = c.longhorn();
  for (const ScheduledVolume& v : s.volumes) {
    if (v.replica_disks.size() < 2) continue;
    std::set<std::string> zones, nodes;
    for (std::size_t d : v.replica_disks) {
      zones.insert(s.disks[d].zone);
      nodes.insert(s.disks[d].node);
    }
    std::set<std::string> all_zones;
    for (const SchedulingDisk& d : s.disks) all_zones.insert(d.zone);
    if (zones.size() != 1 || zones.begin()->empty()) continue;
    const std::string& zone = *zones.begin();
    out.push_back(rule.finding(
        fmt::format("every replica of {} ({} on {}) is in zone {}", object_label(v.claim->meta), v.replica_disks.size(),
                    fmt::join(nodes, ", "), zone),
        {{object_label(v.claim->meta), v.claim->meta.where}, {object_label(v.storage_class->meta), v.storage_class->meta.where}},
        fmt::format("the loss of zone {} (its power, its switch) loses every copy of the data at once", zone),
        all_zones.size() > 1 ? "give the zones' nodes room for a replica (disk space, disk tags, allowScheduling), or set "
                               "replica-zone-soft-anti-affinity to false so Longhorn refuses to double up in one zone"
                             : "put Longhorn disks on nodes of a second zone (label topology.kubernetes.io/zone)"));
  }
}

void check_volume_one_replica(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  for (const ClassUse& u : longhorn_classes_in_use(c.longhorn())) {
    if (u.wanted != 1) continue;
    const StorageClass& sc = *u.storage_class;
    const PersistentVolumeClaim& first = *u.volumes.front()->claim;
    out.push_back(rule.finding(
        fmt::format("StorageClass {} keeps one replica of {}", sc.meta.name, claim_names(u.volumes)),
        {{object_label(sc.meta), sc.meta.where}, {object_label(first.meta), first.meta.where}},
        "the death of the replica's node or disk loses the data (not only makes it unavailable)",
        "set parameters.numberOfReplicas: \"2\" or more (Longhorn's default is 3)"));
  }
}

void check_rwo_multi_attach(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const auto& w : m.workloads) {
    if (w.meta.kind != "Deployment") continue;
    const bool two_at_once = w.replicas > 1 || w.strategy == "RollingUpdate";
    if (!two_at_once) continue;
    for (const auto& name : w.claims) {
      const PersistentVolumeClaim* claim = m.find_claim(w.meta.ns, name);
      if (claim == nullptr) continue;
      const bool rwo = std::any_of(claim->access_modes.begin(), claim->access_modes.end(),
                                   [](const std::string& a) { return a == "ReadWriteOnce" || a == "ReadWriteOncePod"; });
      if (!rwo) continue;
      const bool replicas = w.replicas > 1;
      out.push_back(rule.finding(
          fmt::format("{} mounts ReadWriteOnce {} with {}", object_label(w.meta), object_label(claim->meta),
                      replicas ? fmt::format("{} replicas", w.replicas) : std::string("the RollingUpdate strategy (the default)")),
          {{object_label(w.meta), replicas ? w.where_replicas : w.where_strategy}, {object_label(claim->meta), claim->meta.where}},
          replicas ? "the volume attaches to one node: the replicas on other nodes wait in ContainerCreating (Multi-Attach error)"
                   : "a rollout starts the new pod before the old one stops; on another node it waits in ContainerCreating "
                     "(Multi-Attach error) and the rollout hangs until someone deletes the old pod",
          replicas ? "run one replica with strategy: {type: Recreate}, or use a StatefulSet (a volume per pod), or ReadWriteMany"
                   : "add to the Deployment's spec: strategy: {type: Recreate}"));
    }
  }
}

}  // namespace ct
