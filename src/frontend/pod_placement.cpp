#include "frontend/pod_placement.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace ct {

std::string node_infeasible(const KubeWorkload& w, const Node& node) {
  if (node.unschedulable) return "unschedulable (cordoned)";
  for (const auto& [k, v] : w.node_selector) {
    auto it = node.meta.labels.find(k);
    if (it == node.meta.labels.end() || it->second != v) return fmt::format("no label {}={} (nodeSelector)", k, v);
  }
  LabelSelector affinity;
  affinity.expressions = w.required_node_affinity;
  if (!affinity.matches(node.meta.labels)) return "fails the required nodeAffinity";
  return "";
}

Placement place_pods(const Manifests& m) {
  Placement out;
  std::vector<const Node*> nodes;
  for (const auto& n : m.nodes) nodes.push_back(&n);
  std::sort(nodes.begin(), nodes.end(), [](const Node* a, const Node* b) { return a->meta.name < b->meta.name; });
  std::map<std::string, int> total;  // pods per node, all workloads
  for (std::size_t wi = 0; wi < m.workloads.size(); ++wi) {
    const KubeWorkload& w = m.workloads[wi];
    std::vector<const Node*> feasible;
    for (const Node* n : nodes) {
      if (node_infeasible(w, *n).empty()) feasible.push_back(n);
    }
    if (w.meta.kind == "DaemonSet") {
      for (std::size_t i = 0; i < feasible.size(); ++i) {
        out.pods.push_back({wi, fmt::format("{}-{}", w.meta.name, feasible[i]->meta.name), feasible[i]->meta.name,
                            "DaemonSet: one pod per feasible node"});
        ++total[feasible[i]->meta.name];
      }
      continue;
    }
    std::map<std::string, int> mine;
    for (int r = 0; r < w.replicas; ++r) {
      const Node* best = nullptr;
      for (const Node* n : feasible) {
        const std::string& name = n->meta.name;
        if (w.anti_affinity_per_host && mine[name] > 0) continue;
        if (best == nullptr || std::make_pair(mine[name], total[name]) < std::make_pair(mine[best->meta.name], total[best->meta.name])) {
          best = n;
        }
      }
      PlacedPod p{wi, fmt::format("{}-{}", w.meta.name, r), "", ""};
      if (best == nullptr) {
        p.why = feasible.empty() ? "Pending: no node satisfies the nodeSelector/affinity"
                                 : fmt::format("Pending: podAntiAffinity allows one replica per node and {} node(s) are feasible",
                                               feasible.size());
      } else {
        p.node = best->meta.name;
        p.why = fmt::format("{} feasible node(s); spread: fewest replicas of {} ({}), then fewest pods ({}), then name",
                            feasible.size(), w.meta.name, mine[p.node], total[p.node]);
        ++mine[p.node];
        ++total[p.node];
      }
      out.pods.push_back(std::move(p));
    }
  }
  return out;
}

std::vector<const PlacedPod*> service_endpoints(const Manifests& m, const Placement& p, const Service& s) {
  std::vector<const PlacedPod*> out;
  if (s.selector.empty()) return out;
  for (const auto& pod : p.pods) {
    const KubeWorkload& w = m.workloads[pod.workload];
    if (w.meta.ns != s.meta.ns || pod.node.empty()) continue;
    const bool match = std::all_of(s.selector.begin(), s.selector.end(), [&](const auto& kv) {
      auto it = w.pod_labels.find(kv.first);
      return it != w.pod_labels.end() && it->second == kv.second;
    });
    if (match) out.push_back(&pod);
  }
  return out;
}

}  // namespace ct
