// Lint rules of the workloads family: the Gateway's data plane on one node and without a
// PodDisruptionBudget, a Service that selects no pod, and a Service targetPort no container
// exposes. Pods are where pod_placement.h puts them.
#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/pod_placement.h"
#include "lint/lint_checks.h"
#include "lint/lint_query.h"

namespace ct {

void check_gateway_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const DataPlane& d : gateway_data_planes(m)) {
    for (std::size_t w : d.workloads) {
      int pods = 0;
      const auto nodes = workload_nodes(c.model, w, &pods);
      if (nodes.size() != 1 || m.workloads[w].meta.kind == "DaemonSet") continue;
      const KubeWorkload& wl = m.workloads[w];
      out.push_back(rule.finding(
          fmt::format("every data-plane pod of Gateway {}/{} ({} of {}) runs on {}", d.gateway->meta.ns, d.gateway->meta.name, pods,
                      object_label(wl.meta), nodes.front()),
          {{object_label(wl.meta), wl.where_placement.line > 0 ? wl.where_placement : wl.meta.where},
           {object_label(d.gateway->meta), d.gateway->meta.where}},
          fmt::format("when {} reboots or fails, every route of the Gateway stops answering until the pods are rescheduled and "
                      "ready",
                      nodes.front()),
          wl.replicas < 2 ? std::string("set replicas: 2 or more, with podAntiAffinity on kubernetes.io/hostname")
                          : std::string("add podAntiAffinity (required, topologyKey kubernetes.io/hostname) so replicas land "
                                        "on different nodes, and drop a nodeSelector that pins them to one")));
    }
  }
}

void check_door_no_pdb(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const DataPlane& d : gateway_data_planes(m)) {
    for (std::size_t w : d.workloads) {
      const KubeWorkload& wl = m.workloads[w];
      if (disruption_budget_of(m, wl) != nullptr) continue;
      std::vector<std::string> labels;
      for (const auto& [k, v] : wl.pod_labels) labels.push_back(k + ": " + v);
      out.push_back(rule.finding(
          fmt::format("no PodDisruptionBudget selects the data plane of Gateway {}/{} ({})", d.gateway->meta.ns, d.gateway->meta.name,
                      object_label(wl.meta)),
          {{object_label(wl.meta), wl.meta.where}},
          "a node drain (an upgrade) may evict every data-plane pod at once: the door closes for the rescheduling time",
          fmt::format("add: apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {{name: {}, namespace: {}}}, "
                      "spec: {{maxUnavailable: 1, selector: {{matchLabels: {{{}}}}}}}",
                      wl.meta.name, wl.meta.ns, fmt::join(labels, ", "))));
    }
  }
}

void check_service_selects_nothing(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const auto& s : m.services) {
    if (s.selector.empty() || s.type == "ExternalName") continue;
    if (!service_endpoints(m, c.model.placement, s).empty()) continue;
    const auto selected = workloads_selected(m, s);
    std::vector<std::string> sel;
    for (const auto& [k, v] : s.selector) sel.push_back(k + "=" + v);
    std::string why;
    std::vector<LintObject> objects{{object_label(s.meta), s.meta.where}};
    if (selected.empty()) {
      std::vector<std::string> near;
      for (const auto& w : m.workloads) {
        if (w.meta.ns == s.meta.ns && w.meta.name == s.meta.name) {
          std::vector<std::string> l;
          for (const auto& [k, v] : w.pod_labels) l.push_back(k + "=" + v);
          near.push_back(fmt::format("{} has pod labels {}", object_label(w.meta), fmt::join(l, ", ")));
          objects.push_back({object_label(w.meta), w.meta.where});
        }
      }
      why = near.empty() ? std::string("no workload in namespace " + s.meta.ns + " has these pod labels")
                         : fmt::format("no workload has these pod labels; {}", fmt::join(near, "; "));
    } else {
      const KubeWorkload& w = m.workloads[selected.front()];
      why = fmt::format("{} matches but none of its pods is placed ({})", object_label(w.meta),
                        w.replicas == 0 ? std::string("replicas: 0") : std::string("Pending"));
      objects.push_back({object_label(w.meta), w.where_replicas});
    }
    out.push_back(rule.finding(fmt::format("{} selects {} and has no endpoint: {}", object_label(s.meta), fmt::join(sel, ", "), why),
                               std::move(objects), "every request to the Service fails (the Gateway answers 500/503)",
                               "make the Service's spec.selector equal to the pod template's labels (or fix the labels)"));
  }
}

namespace {

bool is_number(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

}  // namespace

void check_service_target_port(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const auto& s : m.services) {
    const auto selected = workloads_selected(m, s);
    if (selected.empty()) continue;
    for (const auto& p : s.ports) {
      for (std::size_t wi : selected) {
        const KubeWorkload& w = m.workloads[wi];
        const auto& ports = w.container_ports;
        const bool named = !is_number(p.target_port);
        if (!named && ports.empty()) continue;  // undeclared ports: any number may listen
        const bool exposed = std::any_of(ports.begin(), ports.end(), [&](const ContainerPort& cp) {
          return named ? cp.name == p.target_port : std::to_string(cp.number) == p.target_port;
        });
        if (exposed) continue;
        std::vector<std::string> declared;
        for (const auto& cp : ports) declared.push_back(cp.name.empty() ? std::to_string(cp.number) : fmt::format("{} ({})", cp.number, cp.name));
        out.push_back(rule.finding(
            fmt::format("{} port {} targets {} '{}', which no container of {} exposes (declared: {})", object_label(s.meta), p.port,
                        named ? "the named port" : "port", p.target_port, object_label(w.meta),
                        declared.empty() ? std::string("none") : fmt::format("{}", fmt::join(declared, ", "))),
            {{object_label(s.meta), s.meta.where}, {object_label(w.meta), w.where_placement.line > 0 ? w.where_placement : w.meta.where}},
            named ? "the name resolves to no port: the Service has no ready endpoint for it and every request fails"
                  : "connections go to a port the container does not declare: refused unless something listens there",
            named ? fmt::format("add to the container's ports: {{name: {}, containerPort: N}}, or use the number in targetPort", p.target_port)
                  : fmt::format("set targetPort to a declared port, or add {{containerPort: {}}} to the container", p.target_port)));
      }
    }
  }
}

}  // namespace ct
