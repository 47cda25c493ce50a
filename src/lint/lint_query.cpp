#include "lint/lint_query.h"

#include <algorithm>
#include <functional>
#include <set>

#include "routing/port_address.h"

namespace ct {

namespace {

bool selector_matches(const Labels& selector, const Labels& labels) {
  if (selector.empty()) return false;
  return std::all_of(selector.begin(), selector.end(), [&](const auto& kv) {
    auto it = labels.find(kv.first);
    return it != labels.end() && it->second == kv.second;
  });
}

}  // namespace

std::vector<const Service*> services_selecting(const Manifests& m, const KubeWorkload& w) {
  std::vector<const Service*> out;
  for (const auto& s : m.services) {
    if (s.meta.ns == w.meta.ns && selector_matches(s.selector, w.pod_labels)) out.push_back(&s);
  }
  return out;
}

std::vector<std::size_t> workloads_selected(const Manifests& m, const Service& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    if (m.workloads[i].meta.ns == s.meta.ns && selector_matches(s.selector, m.workloads[i].pod_labels)) out.push_back(i);
  }
  return out;
}

std::vector<DataPlane> gateway_data_planes(const Manifests& m) {
  std::vector<DataPlane> out;
  for (const auto& s : m.services) {
    auto it = s.meta.labels.find("gateway.networking.k8s.io/gateway-name");
    if (it == s.meta.labels.end()) continue;
    const Gateway* g = m.find_gateway(s.meta.ns, it->second);
    if (g == nullptr) continue;
    out.push_back({g, &s, workloads_selected(m, s)});
  }
  return out;
}

std::vector<std::string> workload_nodes(const FrontendModel& f, std::size_t w, int* pods) {
  std::set<std::string> nodes;
  int placed = 0;
  for (const auto& p : f.placement.pods) {
    if (p.workload != w || p.node.empty()) continue;
    nodes.insert(p.node);
    ++placed;
  }
  if (pods != nullptr) *pods = placed;
  return {nodes.begin(), nodes.end()};
}

std::vector<std::uint32_t> dns_probe_addresses(const NamedConf& conf) {
  std::set<std::uint32_t> out;
  const std::function<void(const std::vector<AddressMatchElement>&)> collect = [&](const std::vector<AddressMatchElement>& list) {
    for (const auto& e : list) {
      if (e.kind == AddressMatchElement::Kind::kPrefix) {
        const std::uint32_t mask = e.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - e.prefix);
        out.insert(e.prefix >= 31 ? e.address : ((e.address & mask) | 1));
        out.insert(e.prefix >= 31 ? e.address : ((e.address & mask) | (~mask - 1)));
      }
      if (e.kind == AddressMatchElement::Kind::kList) collect(e.list);
    }
  };
  for (const auto& a : conf.acls) collect(a.elements);
  for (const auto& v : conf.views) collect(v.match_clients);
  for (const char* s : {"127.0.0.1", "192.0.2.200", "198.51.100.200", "203.0.113.200", "100.64.0.5", "10.0.0.5", "172.16.0.5"}) {
    out.insert(*parse_ipv4(s));
  }
  return {out.begin(), out.end()};
}

std::optional<std::uint32_t> client_of_view(const NamedConf& conf, std::size_t v, const std::vector<std::uint32_t>& probes) {
  for (std::uint32_t p : probes) {
    if (select_view(conf, p).view == v) return p;
  }
  return std::nullopt;
}

const PodDisruptionBudget* disruption_budget_of(const Manifests& m, const KubeWorkload& w) {
  const auto it = std::find_if(m.disruption_budgets.begin(), m.disruption_budgets.end(), [&](const PodDisruptionBudget& b) {
    return b.meta.ns == w.meta.ns && b.selector.present && b.selector.matches(w.pod_labels);
  });
  return it == m.disruption_budgets.end() ? nullptr : &*it;
}

}  // namespace ct
