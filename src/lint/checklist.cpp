// The publishing checklist (checklist.h): per hostname, the five objects that publish an app.
#include "lint/checklist.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"
#include "frontend/cert_chain.h"
#include "frontend/gateway_routes.h"
#include "lint/lint_context.h"
#include "lint/lint_query.h"

namespace ct {

std::string to_string(ChecklistStatus s) {
  switch (s) {
    case ChecklistStatus::kOk: return "ok";
    case ChecklistStatus::kMissing: return "missing";
    case ChecklistStatus::kBroken: return "broken";
    case ChecklistStatus::kSkipped: return "skipped";
  }
  return "?";
}

bool ChecklistApp::complete() const {
  return std::all_of(steps.begin(), steps.end(),
                     [](const ChecklistStep& s) { return s.status == ChecklistStatus::kOk || s.status == ChecklistStatus::kSkipped; });
}

namespace {

std::string first_label(const std::string& host) { return host.substr(0, host.find('.')); }

// What the route step found for one host: the accepted routes naming it and the listeners they
// attach to; else the routes that name it without being accepted.
struct RouteFinding {
  std::vector<std::size_t> accepted;         // route indices
  std::vector<std::pair<std::size_t, std::size_t>> listeners;  // (gateway, listener) taking the host
  std::vector<std::size_t> refused;          // routes naming the host, accepted by no parent
};

bool names_host(const HttpRoute& r, const std::string& host) {
  return std::any_of(r.hostnames.begin(), r.hostnames.end(), [&](const std::string& h) { return lower(h) == host; });
}

// A listener that would take `host` (HTTPS first), for the line to add when the route is missing.
std::optional<std::pair<std::size_t, std::size_t>> listener_for(const Manifests& m, const std::string& host) {
  std::optional<std::pair<std::size_t, std::size_t>> best;
  for (std::size_t g = 0; g < m.gateways.size(); ++g) {
    for (std::size_t l = 0; l < m.gateways[g].listeners.size(); ++l) {
      const Listener& x = m.gateways[g].listeners[l];
      if (x.hostname.empty() || !hostname_matches(x.hostname, host)) continue;
      if (!best || (x.protocol == "HTTPS" && m.gateways[best->first].listeners[best->second].protocol != "HTTPS")) best = {{g, l}};
      if (x.hostname == host && x.protocol == "HTTPS") return {{g, l}};
    }
  }
  return best;
}

// The parent statuses of the routes naming each hostname (one pass over the Gateway model).
using ParentsByHost = std::map<std::string, std::vector<const RouteParentStatus*>>;
ParentsByHost parents_by_host(const LintContext& c) {
  ParentsByHost out;
  for (const RouteParentStatus& ps : c.model.gateways.parents) {
    for (const auto& h : c.model.manifests.routes[ps.route].hostnames) out[lower(h)].push_back(&ps);
  }
  return out;
}

ChecklistStep route_step(const LintContext& c, const std::string& host, const std::vector<std::size_t>& routes,
                         const ParentsByHost& parents, RouteFinding& rf) {
  const Manifests& m = c.model.manifests;
  std::set<std::size_t> accepted;
  const auto it = parents.find(host);
  for (const RouteParentStatus* p : it == parents.end() ? std::vector<const RouteParentStatus*>{} : it->second) {
    const RouteParentStatus& ps = *p;
    if (!names_host(m.routes[ps.route], host) || !ps.accepted()) continue;
    accepted.insert(ps.route);
    for (const auto& a : ps.attachments) rf.listeners.emplace_back(a.gateway, a.listener);
  }
  rf.accepted.assign(accepted.begin(), accepted.end());
  for (std::size_t r : routes) {
    if (!accepted.contains(r)) rf.refused.push_back(r);
  }
  ChecklistStep s{"route", ChecklistStatus::kOk, "", "", "", {}};
  if (!rf.accepted.empty()) {
    const HttpRoute& r = m.routes[rf.accepted.front()];
    s.detail = fmt::format("{} on listener {}", object_label(r.meta), listener_label(m, rf.listeners.front().first, rf.listeners.front().second));
    s.object = object_label(r.meta);
    s.where = r.meta.where;
    return s;
  }
  if (!rf.refused.empty()) {
    const HttpRoute& r = m.routes[rf.refused.front()];
    s.status = ChecklistStatus::kBroken;
    s.detail = fmt::format("{} names it but no parent accepts it", object_label(r.meta));
    s.object = object_label(r.meta);
    s.where = r.meta.where;
    s.add = "parentRefs: a Gateway listener whose hostname takes " + host;
    return s;
  }
  s.status = ChecklistStatus::kMissing;
  s.detail = "no HTTPRoute names " + host;
  const auto l = listener_for(m, host);
  const Service* svc = nullptr;
  for (const auto& x : m.services) {
    if (x.meta.name == first_label(host)) svc = &x;
  }
  const std::string backend = svc ? fmt::format("{{name: {}, port: {}}}", svc->meta.name, svc->ports.empty() ? 80 : svc->ports.front().port)
                                  : fmt::format("{{name: {}, port: PORT}}", first_label(host));
  if (l) {
    const Gateway& gw = m.gateways[l->first];
    s.object = fmt::format("Gateway {}/{} listener {}", gw.meta.ns, gw.meta.name, gw.listeners[l->second].name);
    s.where = gw.listeners[l->second].where;
    s.add = fmt::format("HTTPRoute {} in {}: spec: {{parentRefs: [{{name: {}, namespace: {}, sectionName: {}}}], hostnames: [{}], "
                        "rules: [{{backendRefs: [{}]}}]}}",
                        first_label(host), svc ? svc->meta.ns : std::string("NAMESPACE"), gw.meta.name, gw.meta.ns,
                        gw.listeners[l->second].name, host, backend);
  } else {
    s.add = fmt::format("a listener for {} and an HTTPRoute with hostnames: [{}] and backendRefs: [{}]", host, host, backend);
  }
  return s;
}

// The Services the accepted routes send the host to (kind Service backendRefs), or, without a
// route, the Service named by the host's first label.
struct ServiceFinding {
  std::vector<const Service*> found;
  std::vector<std::pair<std::string, SourceLocation>> missing;  // "ns/name", the backendRef's rule
};

ChecklistStep service_step(const LintContext& c, const std::string& host, const RouteFinding& rf, ServiceFinding& sf) {
  const Manifests& m = c.model.manifests;
  ChecklistStep s{"service", ChecklistStatus::kOk, "", "", "", {}};
  std::set<std::string> seen;
  for (std::size_t r : rf.accepted) {
    const HttpRoute& route = m.routes[r];
    for (const auto& rule : route.rules) {
      for (const auto& b : rule.backends) {
        if (b.ref.kind != "Service") continue;
        const std::string ns = b.ref.ns.empty() ? route.meta.ns : b.ref.ns;
        if (!seen.insert(ns + "/" + b.ref.name).second) continue;
        if (const Service* svc = m.find_service(ns, b.ref.name)) sf.found.push_back(svc);
        else sf.missing.emplace_back(ns + "/" + b.ref.name, rule.where);
      }
    }
  }
  if (rf.accepted.empty()) {
    for (const auto& x : m.services) {
      if (x.meta.name == first_label(host)) sf.found.push_back(&x);
    }
  }
  if (!sf.missing.empty()) {
    const auto& [name, where] = sf.missing.front();
    const std::string ns = name.substr(0, name.find('/'));
    const std::string svc = name.substr(name.find('/') + 1);
    const KubeWorkload* w = nullptr;
    for (const auto& x : m.workloads) {
      if (x.meta.ns == ns && x.meta.name == svc) w = &x;
    }
    std::vector<std::string> labels;
    if (w != nullptr) {
      for (const auto& [k, v] : w->pod_labels) labels.push_back(k + ": " + v);
    }
    s.status = ChecklistStatus::kMissing;
    s.detail = fmt::format("the route's backendRef names Service {}, which does not exist", name);
    s.object = "HTTPRoute rule";
    s.where = where;
    s.add = fmt::format("Service {} in {}: spec: {{selector: {{{}}}, ports: [{{port: PORT}}]}}", svc, ns,
                        labels.empty() ? std::string("app: " + svc) : fmt::format("{}", fmt::join(labels, ", ")));
    return s;
  }
  if (sf.found.empty()) {
    s.status = ChecklistStatus::kMissing;
    s.detail = rf.accepted.empty() ? "no route to follow, and no Service named " + first_label(host)
                                   : "the accepted route has no Service backendRef";
    s.add = fmt::format("Service {}: spec: {{selector: {{app: {}}}, ports: [{{port: PORT}}]}}", first_label(host), first_label(host));
    return s;
  }
  std::vector<std::string> names;
  for (const Service* x : sf.found) names.push_back(x->meta.ns + "/" + x->meta.name);
  s.detail = fmt::format("Service {}", fmt::join(names, ", "));
  s.object = object_label(sf.found.front()->meta);
  s.where = sf.found.front()->meta.where;
  return s;
}

ChecklistStep workload_step(const LintContext& c, const std::string& host, const ServiceFinding& sf) {
  const Manifests& m = c.model.manifests;
  ChecklistStep s{"workload", ChecklistStatus::kOk, "", "", "", {}};
  std::vector<std::string> running;
  for (const Service* svc : sf.found) {
    const auto selected = workloads_selected(m, *svc);
    std::vector<std::string> sel;
    for (const auto& [k, v] : svc->selector) sel.push_back(k + ": " + v);
    if (selected.empty()) {
      s.status = ChecklistStatus::kMissing;
      s.detail = fmt::format("no workload has the pod labels {} selects ({})", object_label(svc->meta), fmt::join(sel, ", "));
      s.object = object_label(svc->meta);
      s.where = svc->meta.where;
      s.add = fmt::format("a Deployment in {} whose spec.template.metadata.labels are {{{}}} (or fix the Service's selector)",
                          svc->meta.ns, fmt::join(sel, ", "));
      return s;
    }
    for (std::size_t w : selected) {
      int pods = 0;
      workload_nodes(c.model, w, &pods);
      if (pods > 0) {
        running.push_back(fmt::format("{} ({} pod(s))", object_label(m.workloads[w].meta), pods));
        continue;
      }
      s.status = ChecklistStatus::kBroken;
      s.detail = fmt::format("{} runs no pod ({})", object_label(m.workloads[w].meta),
                             m.workloads[w].replicas == 0 ? "replicas: 0" : "Pending: no node takes it");
      s.object = object_label(m.workloads[w].meta);
      s.where = m.workloads[w].where_replicas;
      s.add = "spec.replicas: 2 on nodes its nodeSelector/affinity allow";
      return s;
    }
  }
  if (sf.found.empty()) {
    s.status = ChecklistStatus::kSkipped;
    s.detail = "no Service to follow";
    return s;
  }
  s.detail = fmt::format("{}", fmt::join(running, ", "));
  s.object = object_label(sf.found.front()->meta);
  s.where = sf.found.front()->meta.where;
  (void)host;
  return s;
}

// The issuer the other certificates of namespace `ns` use (for the line to add).
std::string sibling_issuer(const Manifests& m, const std::string& ns) {
  for (const auto& cert : m.certificates) {
    if (cert.meta.ns == ns && !cert.is_ca) return fmt::format("{{name: {}, kind: {}}}", cert.issuer.name, cert.issuer.kind);
  }
  return "{name: ISSUER, kind: ClusterIssuer}";
}

ChecklistStep certificate_step(const LintContext& c, const std::string& host, const RouteFinding& rf) {
  const Manifests& m = c.model.manifests;
  ChecklistStep s{"certificate", ChecklistStatus::kOk, "", "", "", {}};
  std::optional<std::pair<std::size_t, std::size_t>> l;
  for (const auto& x : rf.listeners) {
    if (m.gateways[x.first].listeners[x.second].protocol == "HTTPS") l = x;
  }
  if (!l) l = listener_for(m, host);
  if (!l || m.gateways[l->first].listeners[l->second].protocol != "HTTPS") {
    s.status = ChecklistStatus::kSkipped;
    s.detail = "no HTTPS listener takes the name";
    return s;
  }
  const Gateway& g = m.gateways[l->first];
  const Listener& x = g.listeners[l->second];
  const CertificateCheck k = check_listener_certificate(m, g, x, host, nullptr, c.outside_client.value_or(0));
  s.object = fmt::format("Gateway {}/{} listener {}", g.meta.ns, g.meta.name, x.name);
  s.where = x.where;
  const std::string secret = x.certificate_refs.empty() ? first_label(host) + "-tls" : x.certificate_refs.front().name;
  if (!k.found) {
    s.status = ChecklistStatus::kMissing;
    s.detail = fmt::format("listener {} serves Secret {}, which no Certificate writes", x.name, k.secret.empty() ? secret : k.secret);
    s.add = fmt::format("Certificate {} in {}: spec: {{secretName: {}, dnsNames: [{}], issuerRef: {}}}", secret, g.meta.ns, secret, host,
                        sibling_issuer(m, g.meta.ns));
    return s;
  }
  const Certificate* cert = m.certificate_for_secret(g.meta.ns, secret);
  if (cert != nullptr) {
    s.object = object_label(cert->meta);
    s.where = cert->meta.where;
  }
  if (!k.static_secret && !k.covers_host) {
    s.status = ChecklistStatus::kBroken;
    s.detail = fmt::format("{} names [{}], not {}", k.secret, fmt::join(k.dns_names, ", "), host);
    s.add = fmt::format("add {} to spec.dnsNames of {}", host, cert ? object_label(cert->meta) : "the Certificate");
    return s;
  }
  if (!k.issuable) {
    s.status = ChecklistStatus::kBroken;
    s.detail = fmt::format("{} cannot be issued: {}", k.secret, k.problems.empty() ? std::string("see the chain") : k.problems.front());
    s.add = "an issuer that exists and can validate the name";
    return s;
  }
  s.detail = fmt::format("{} covers it{}", k.secret, k.static_secret ? " (a static Secret: names not checked)" : "");
  return s;
}

// The record of a sibling name in `view` (same parent domain), as the line to add for `host`.
std::string sibling_record(const DnsModel& dns, std::uint32_t client, const std::string& host, const std::vector<std::string>& hosts,
                           SourceLocation& where) {
  const std::string parent = host.substr(host.find('.') + 1);
  for (const auto& other : hosts) {
    if (other == host || other.substr(other.find('.') + 1) != parent) continue;
    const DnsAnswer a = resolve_dns(dns, client, other);
    if (a.answer.empty() || a.answer.front().name != other) continue;
    const DnsRecord& r = a.answer.front();
    where = r.where;
    const bool name_data = r.type == "CNAME" || r.type == "NS";
    return fmt::format("{} IN {} {}{}", first_label(host), r.type, r.data, name_data ? "." : "");
  }
  return fmt::format("{} IN A ADDRESS", first_label(host));
}

// An app served with a private CA's certificate is meant for inside clients only (outside, no
// browser would trust it): its name is needed in every view but the last, the outside one. Any
// other app (an ACME certificate, a static Secret, plain HTTP) in every view.
bool internal_only(const LintContext& c, const std::string& host, const RouteFinding& rf) {
  const Manifests& m = c.model.manifests;
  std::optional<std::pair<std::size_t, std::size_t>> l;
  for (const auto& x : rf.listeners) {
    if (m.gateways[x.first].listeners[x.second].protocol == "HTTPS") l = x;
  }
  if (!l) l = listener_for(m, host);
  if (!l) return false;
  const Gateway& g = m.gateways[l->first];
  const Listener& x = g.listeners[l->second];
  if (x.protocol != "HTTPS" || x.certificate_refs.empty()) return false;
  const Certificate* cert = m.certificate_for_secret(g.meta.ns, x.certificate_refs.front().name);
  if (cert == nullptr) return false;
  const Issuer* is = m.find_issuer(cert->issuer.kind.empty() ? "Issuer" : cert->issuer.kind, cert->meta.ns, cert->issuer.name);
  return is != nullptr && (is->type == Issuer::Type::kCa || is->type == Issuer::Type::kSelfSigned);
}

ChecklistStep dns_step(const LintContext& c, const std::string& host, const std::vector<std::string>& hosts,
                       const std::vector<std::uint32_t>& probes, bool inside_only) {
  ChecklistStep s{"dns", ChecklistStatus::kOk, "", "", "", {}};
  if (!c.model.dns) {
    s.status = ChecklistStatus::kSkipped;
    s.detail = "no --dns";
    return s;
  }
  const DnsModel& dns = *c.model.dns;
  std::vector<std::string> in, out;
  const std::size_t views = dns.conf.views.size() - (inside_only && dns.conf.views.size() > 1 ? 1 : 0);
  for (std::size_t v = 0; v < views; ++v) {
    const auto client = client_of_view(dns.conf, v, probes);
    if (!client) continue;  // a view no client reaches (dns-view-hides-later says so)
    const DnsAnswer a = resolve_dns(dns, *client, host);
    const std::string view = "\"" + dns.conf.views[v].name + "\"";
    if (!a.answer.empty()) {
      in.push_back(view);
      continue;
    }
    out.push_back(fmt::format("{} ({})", view, a.rcode));
    if (s.add.empty()) {
      s.add = sibling_record(dns, *client, host, hosts, s.where);
      s.object = "view " + view + " zone";
      if (s.where.line == 0) s.where = dns.conf.views[v].where;
    }
  }
  if (!out.empty()) {
    s.status = ChecklistStatus::kMissing;
    s.detail = fmt::format("not answered in view(s) {}", fmt::join(out, ", "));
    return s;
  }
  s.detail = fmt::format("answered in view(s) {}{}", fmt::join(in, ", "),
                         inside_only && views < dns.conf.views.size()
                             ? fmt::format(" (a private CA's certificate: not needed in the outside view \"{}\")", dns.conf.views.back().name)
                             : "");
  return s;
}

}  // namespace

std::vector<ChecklistApp> publishing_checklist(const LintContext& c) {
  const Manifests& m = c.model.manifests;
  std::map<std::string, std::pair<std::string, std::vector<std::size_t>>> apps;  // host -> (ns, routes naming it)
  for (std::size_t r = 0; r < m.routes.size(); ++r) {
    for (const auto& h : m.routes[r].hostnames) {
      if (h.starts_with("*.")) continue;
      auto& app = apps[lower(h)];
      if (app.first.empty()) app.first = m.routes[r].meta.ns;
      app.second.push_back(r);
    }
  }
  for (const auto& cert : m.certificates) {
    if (cert.is_ca) continue;
    for (const auto& h : cert.dns_names) {
      if (!h.starts_with("*.") && !apps.contains(lower(h))) apps[lower(h)].first = cert.meta.ns;
    }
  }
  std::vector<std::string> hosts;
  for (const auto& [h, a] : apps) hosts.push_back(h);
  const std::vector<std::uint32_t> probes = c.model.dns ? dns_probe_addresses(c.model.dns->conf) : std::vector<std::uint32_t>{};
  const ParentsByHost parents = parents_by_host(c);
  std::vector<ChecklistApp> out;
  for (const auto& [host, app] : apps) {
    ChecklistApp a{host, app.first, {}};
    RouteFinding rf;
    ServiceFinding sf;
    ChecklistStep route = route_step(c, host, app.second, parents, rf);
    ChecklistStep service = service_step(c, host, rf, sf);
    a.steps.push_back(workload_step(c, host, sf));
    a.steps.push_back(std::move(service));
    a.steps.push_back(std::move(route));
    a.steps.push_back(certificate_step(c, host, rf));
    a.steps.push_back(dns_step(c, host, hosts, probes, internal_only(c, host, rf)));
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace ct
