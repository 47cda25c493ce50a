#include "frontend/volume_replicas.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ct {

VolumeReport describe_volume(const Manifests& m, const std::string& ns, const std::string& name, const std::string& engine) {
  const PersistentVolumeClaim* claim = m.find_claim(ns, name);
  if (claim == nullptr) {
    VolumeReport v;
    v.engine_node = engine;
    v.problems.push_back(fmt::format("PersistentVolumeClaim {}/{} not found: the pod stays Pending", ns, name));
    return v;
  }
  return describe_claim_volume(m, *claim, engine);
}

VolumeReport describe_claim_volume(const Manifests& m, const PersistentVolumeClaim& claim, const std::string& engine) {
  VolumeReport v;
  v.engine_node = engine;
  v.claim = &claim;
  if (!v.claim->storage_class.empty()) {
    v.storage_class = m.find_storage_class(v.claim->storage_class);
  } else {
    for (const auto& sc : m.storage_classes) {
      if (sc.is_default) v.storage_class = &sc;
    }
  }
  if (v.storage_class == nullptr) {
    v.problems.push_back(v.claim->storage_class.empty() ? "no StorageClass given and none is the default"
                                                        : "StorageClass " + v.claim->storage_class + " not found");
    return v;
  }
  v.reasons.push_back(fmt::format("{} ({}, {}) -> StorageClass {} ({}, provisioner {})", object_label(v.claim->meta),
                                  v.claim->request.empty() ? "no size" : v.claim->request, where_text(v.claim->meta.where),
                                  v.storage_class->meta.name, where_text(v.storage_class->meta.where), v.storage_class->provisioner));
  if (v.storage_class->provisioner != "driver.longhorn.io") {
    v.reasons.push_back("provisioner " + v.storage_class->provisioner + ": replica placement not modelled");
    return v;
  }
  v.replicas_wanted = 3;
  if (auto it = v.storage_class->parameters.find("numberOfReplicas"); it != v.storage_class->parameters.end()) {
    int r = 0;
    auto [p, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), r);
    if (ec != std::errc() || p != it->second.data() + it->second.size() || r < 1 || r > 20) {
      v.problems.push_back("numberOfReplicas '" + it->second + "' is not an integer in [1, 20]");
      return v;
    }
    v.replicas_wanted = r;
  }
  const bool labelled = std::any_of(m.nodes.begin(), m.nodes.end(), [](const Node& n) {
    auto it = n.meta.labels.find("node.longhorn.io/create-default-disk");
    return it != n.meta.labels.end() && it->second == "true";
  });
  std::vector<std::string> candidates;
  for (const auto& n : m.nodes) {
    auto it = n.meta.labels.find("node.longhorn.io/create-default-disk");
    if (n.unschedulable) continue;
    if (labelled && (it == n.meta.labels.end() || it->second != "true")) continue;
    candidates.push_back(n.meta.name);
  }
  std::sort(candidates.begin(), candidates.end());
  v.candidate_nodes = candidates;
  auto locality = v.storage_class->parameters.find("dataLocality");
  const bool local = locality != v.storage_class->parameters.end() && locality->second != "disabled";
  if (local && std::find(candidates.begin(), candidates.end(), engine) != candidates.end()) v.replica_nodes.push_back(engine);
  for (const auto& c : candidates) {
    if (static_cast<int>(v.replica_nodes.size()) >= v.replicas_wanted) break;
    if (std::find(v.replica_nodes.begin(), v.replica_nodes.end(), c) == v.replica_nodes.end()) v.replica_nodes.push_back(c);
  }
  v.reasons.push_back(fmt::format("Longhorn: {} replica(s) wanted on distinct nodes among {} ({}): {}", v.replicas_wanted,
                                  fmt::join(candidates, ", "), labelled ? "nodes with create-default-disk" : "schedulable nodes",
                                  fmt::join(v.replica_nodes, ", ")));
  if (static_cast<int>(v.replica_nodes.size()) < v.replicas_wanted) {
    v.problems.push_back(fmt::format("only {} node(s) can hold a replica: the volume is Degraded", v.replica_nodes.size()));
  }
  v.reasons.push_back("engine on " + (engine.empty() ? std::string("(not attached: the pod is not placed)") : engine) + " (the pod's node)");
  std::set<std::string> involved(v.replica_nodes.begin(), v.replica_nodes.end());
  if (!engine.empty()) involved.insert(engine);
  const int n = static_cast<int>(v.replica_nodes.size());
  for (const auto& node : involved) {
    const bool holds = std::find(v.replica_nodes.begin(), v.replica_nodes.end(), node) != v.replica_nodes.end();
    const int left = n - (holds ? 1 : 0);
    std::string what = fmt::format("if {} dies: {} of {} replica(s) left", node, left, n);
    if (left == 0) what += ", the data is lost";
    else if (holds) what += ", Degraded until Longhorn rebuilds a replica on another node";
    if (node == engine) what += "; the engine goes with the node: the volume reattaches where the pod is rescheduled";
    v.survival.push_back(what);
  }
  v.survival.push_back(fmt::format("the data survives the loss of any {} node(s) at once", std::max(0, n - 1)));
  return v;
}

}  // namespace ct
