#include "survival/volume_layout.h"

#include <algorithm>

#include "frontend/manifest_values.h"
#include "frontend/volume_replicas.h"

namespace ct {
namespace {

void add(const Manifests& m, const PersistentVolumeClaim& claim, const std::string& engine, std::vector<VolumeLayout>& out, VolumeLayout v) {
  const VolumeReport r = describe_claim_volume(m, claim, engine);
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
      add(m, *claim, p.node, out, v);
    }
    for (const auto& tpl : w.claim_templates) {
      PersistentVolumeClaim claim = tpl;
      claim.meta.ns = w.meta.ns;
      claim.meta.name = tpl.meta.name + "-" + p.name;
      seen.push_back(claim.meta.ns + "/" + claim.meta.name);
      add(m, claim, p.node, out, v);
    }
  }
  for (const auto& c : m.claims) {
    if (std::find(seen.begin(), seen.end(), c.meta.ns + "/" + c.meta.name) == seen.end()) add(m, c, "", out, VolumeLayout{});
  }
  std::sort(out.begin(), out.end(), [](const VolumeLayout& a, const VolumeLayout& b) { return a.claim < b.claim; });
  return out;
}

std::vector<RebuildLink> rebuild_path(const FrontendModel& f, const std::string& from, const std::string& to) {
  std::vector<RebuildLink> out;
  if (!f.topology || f.topology->frontend_ports_per_host == 0) return out;
  const Topology& t = *f.topology;
  std::vector<VertexId> leaves;
  for (const auto& name : {from, to}) {
    const Node* n = f.manifests.find_node(name);
    const auto host = spec_host_of(n != nullptr && !n->host.empty() ? n->host : name);
    if (!host || *host >= t.host_count) return {};
    const auto up = t.neighbors(t.frontend_port_of(HostId(*host), 0));
    if (up.empty()) return {};
    out.push_back({t.link_name(up[0].link), static_cast<double>(t.capacity[up[0].link.value()].value())});
    leaves.push_back(up[0].neighbor);
  }
  if (leaves[0] != leaves[1]) {
    for (const VertexId leaf : leaves) {
      for (const auto& adj : t.neighbors(leaf)) {
        if (t.tier[adj.neighbor.value()] != 2) continue;
        out.push_back({t.link_name(adj.link), static_cast<double>(t.capacity[adj.link.value()].value())});
        break;
      }
    }
  }
  return out;
}

}  // namespace ct
