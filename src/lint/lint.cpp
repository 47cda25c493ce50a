#include "lint/lint.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "lint/lint_checks.h"
#include "routing/port_address.h"

namespace ct {

std::string to_string(LintSeverity s) {
  switch (s) {
    case LintSeverity::kLow: return "low";
    case LintSeverity::kMedium: return "medium";
    case LintSeverity::kHigh: return "high";
  }
  return "?";
}

bool parse_severity(const std::string& text, LintSeverity& out) {
  for (const LintSeverity s : {LintSeverity::kLow, LintSeverity::kMedium, LintSeverity::kHigh}) {
    if (text == to_string(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

LintFinding LintRule::finding(std::string title, std::vector<LintObject> objects, std::string consequence, std::string fix) const {
  LintFinding f;
  f.rule = id;
  f.severity = severity;
  f.title = std::move(title);
  f.objects = std::move(objects);
  f.consequence = std::move(consequence);
  f.fix = std::move(fix);
  f.likelihood = likelihood;
  f.hours = hours;
  return f;
}

std::size_t LintReport::count_at_least(LintSeverity floor) const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [&](const LintFinding& f) { return f.severity >= floor; }));
}

double LintReport::expected_hours() const {
  double sum = 0;
  for (const auto& f : findings) sum += f.expected_hours();
  return sum;
}

void rank_findings(std::vector<LintFinding>& findings) {
  auto key = [](const LintFinding& f) {
    const SourceLocation none;
    const SourceLocation& w = f.objects.empty() ? none : f.objects.front().where;
    const std::string label = f.objects.empty() ? std::string() : f.objects.front().label;
    return std::make_tuple(-f.expected_hours(), -static_cast<int>(f.severity), f.rule, w.file, w.line, label, f.title);
  };
  std::stable_sort(findings.begin(), findings.end(), [&](const LintFinding& a, const LintFinding& b) { return key(a) < key(b); });
}

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

LintReport run_lint(const FrontendModel& model) {
  LintContext context{model, std::nullopt, std::nullopt, nullptr};
  for (const auto& n : model.manifests.nodes) {
    if (auto ip = parse_ipv4(n.internal_ip)) {
      context.inside_client = *ip;
      break;
    }
  }
  if (model.dns) {
    if (auto rep = representative_client(*model.dns, false)) context.outside_client = rep->first;
  }
  LintReport report;
  report.dns_given = model.dns.has_value();
  report.spec_given = model.topology.has_value();
  report.checklist = publishing_checklist(context);
  context.checklist = &report.checklist;
  for (const LintRule& rule : lint_rules()) rule.check(context, rule, report.findings);
  rank_findings(report.findings);
  return report;
}

}  // namespace ct
