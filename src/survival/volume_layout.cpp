#include "survival/volume_layout.h"

#include <algorithm>

#include "frontend/manifest_values.h"
#include "frontend/volume_replicas.h"

namespace ct {
namespace {

void add(const Manifests& m, const Placement& placement, const PersistentVolumeClaim& claim, const std::string& engine, std::vector<VolumeLayout>& out, VolumeLayout v) {
  const VolumeReport r = describe_claim_volume(m, placement, claim, engine);
  if (r.storage_class == nullptr || r.storage_class->provisioner != "driver.longhorn.io" || r.replicas_wanted == 0) return;
  v.claim = claim.meta.ns + "/" + claim.meta.name;
  v.engine_node = engine;
  v.replicas_wanted = r.replicas_wanted;
  v.replica_nodes = r.replica_nodes;
  v.candidate_nodes = r.candidate_nodes;
  v.size = claim.request;
  v.bytes = quantity_value(claim.request).value_or(0);
  v.where = claim.meta.where;
  out.push_back(std::move(v));
}

}  // namespace

std::vector<VolumeLayout> volume_layouts(const FrontendModel& f) {
  const Manifests& m = f.manifests;
  std::vector<VolumeLayout> out;
  std::vector<std::string> seen;
  for (const auto& p : f.placement.pods) {
    if (p.node.empty()) continue;
    const KubeWorkload& w = m.workloads[p.workload];
    VolumeLayout v;
    v.workload = p.workload;
    v.mounted = true;
    v.pod = w.meta.ns + "/" + p.name;
    for (const auto& c : w.claims) {
      const PersistentVolumeClaim* claim = m.find_claim(w.meta.ns, c);
      if (claim == nullptr || std::find(seen.begin(), seen.end(), w.meta.ns + "/" + c) != seen.end()) continue;
      seen.push_back(w.meta.ns + "/" + c);
      add(m, f.placement, *claim, p.node, out, v);
    }
    for (const auto& tpl : w.claim_templates) {
      PersistentVolumeClaim claim = tpl;
      claim.meta.ns = w.meta.ns;
      claim.meta.name = tpl.meta.name + "-" + p.name;
      seen.push_back(claim.meta.ns + "/" + claim.meta.name);
      add(m, f.placement, claim, p.node, out, v);
    }
  }
  for (const auto& c : m.claims) {
    if (std::find(seen.begin(), seen.end(), c.meta.ns + "/" + c.meta.name) == seen.end()) add(m, f.placement, c, "", out, VolumeLayout{});
  }
  std::sort(out.begin(), out.end(), [](const VolumeLayout& a, const VolumeLayout& b) { return a.claim < b.claim; });
  return out;
}

std::vector<RebuildLink> rebuild_path(const FrontendModel& f, const std::string& from, const std::string& to) {
  if (!f.topology || f.topology->frontend_ports_per_host == 0) return {};
  return rebuild_links(f.manifests, *f.topology, from, to, DeadElements{}).value_or(std::vector<RebuildLink>{});
}

}  // namespace ct
