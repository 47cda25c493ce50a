// Lint rules of the storage family: more Longhorn replicas than nodes that can hold one, a
// ReadWriteOnce volume under a Deployment that runs two pods at once, and one-replica volumes.
// Replica candidates are volume_replicas.h's (frontend/): the query below asks it, so a richer
// Longhorn model (disk space, zones) answers here without a change to the rules.
#include <map>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/volume_replicas.h"
#include "lint/lint_checks.h"
#include "lint/lint_query.h"

namespace ct {

namespace {

// Every claim of the manifests: PersistentVolumeClaims and the StatefulSets' claim templates.
std::vector<const PersistentVolumeClaim*> all_claims(const Manifests& m) {
  std::vector<const PersistentVolumeClaim*> out;
  for (const auto& c : m.claims) out.push_back(&c);
  for (const auto& w : m.workloads) {
    for (const auto& c : w.claim_templates) out.push_back(&c);
  }
  return out;
}

// How many replicas a claim's Longhorn volume wants, and the nodes that may hold one (distinct
// nodes: Longhorn's hard node anti-affinity). wanted == 0: not a Longhorn volume.
struct ReplicaCapacity {
  const StorageClass* storage_class = nullptr;
  int wanted = 0;
  std::vector<std::string> candidates;
};
ReplicaCapacity longhorn_replica_capacity(const Manifests& m, const PersistentVolumeClaim& claim) {
  const VolumeReport v = describe_claim_volume(m, claim, "");
  return {v.storage_class, v.replicas_wanted, v.candidate_nodes};
}

// The Longhorn classes in use, each with its capacity and the claims that use it, in file order.
struct ClassUse {
  ReplicaCapacity capacity;
  std::vector<const PersistentVolumeClaim*> claims;
};
std::vector<ClassUse> longhorn_classes_in_use(const Manifests& m) {
  std::vector<ClassUse> out;
  std::map<const StorageClass*, std::size_t> index;
  for (const PersistentVolumeClaim* c : all_claims(m)) {
    ReplicaCapacity cap = longhorn_replica_capacity(m, *c);
    if (cap.storage_class == nullptr || cap.wanted == 0) continue;
    auto [it, fresh] = index.emplace(cap.storage_class, out.size());
    if (fresh) out.push_back({std::move(cap), {}});
    out[it->second].claims.push_back(c);
  }
  return out;
}

std::string claim_names(const std::vector<const PersistentVolumeClaim*>& claims) {
  std::vector<std::string> names;
  for (const auto* c : claims) names.push_back(c->meta.ns.empty() ? c->meta.name : c->meta.ns + "/" + c->meta.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

void check_longhorn_replicas_exceed_nodes(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  for (const ClassUse& u : longhorn_classes_in_use(c.model.manifests)) {
    const int n = static_cast<int>(u.capacity.candidates.size());
    if (u.capacity.wanted <= n) continue;
    const StorageClass& sc = *u.capacity.storage_class;
    out.push_back(rule.finding(
        fmt::format("StorageClass {} wants {} replicas on distinct nodes, and only {} node(s) can hold one ({}); used by {}", sc.meta.name,
                    u.capacity.wanted, n, fmt::join(u.capacity.candidates, ", "), claim_names(u.claims)),
        {{object_label(sc.meta), sc.meta.where}, {object_label(u.claims.front()->meta), u.claims.front()->meta.where}},
        fmt::format("the volumes are Degraded from their first day and never healthy: {} replica(s) are never scheduled, and "
                    "the data survives one node fewer than the class promises",
                    u.capacity.wanted - n),
        fmt::format("set parameters.numberOfReplicas: \"{}\" or give {} more node(s) a Longhorn disk "
                    "(label node.longhorn.io/create-default-disk=true)",
                    n, u.capacity.wanted - n)));
  }
}

void check_volume_one_replica(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  for (const ClassUse& u : longhorn_classes_in_use(c.model.manifests)) {
    if (u.capacity.wanted != 1) continue;
    const StorageClass& sc = *u.capacity.storage_class;
    out.push_back(rule.finding(
        fmt::format("StorageClass {} keeps one replica of {}", sc.meta.name, claim_names(u.claims)),
        {{object_label(sc.meta), sc.meta.where}, {object_label(u.claims.front()->meta), u.claims.front()->meta.where}},
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
