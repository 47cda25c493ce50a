#include "frontend/auth_dependency.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/text.h"
#include "frontend/auth_coverage.h"
#include "frontend/gateway_routes.h"

namespace ct {
namespace {

// "NAME.NS.svc[.cluster.local]" -> (ns, name).
std::optional<std::pair<std::string, std::string>> cluster_service_name(const std::string& host) {
  std::string h = lower(host);
  for (const char* suffix : {".svc.cluster.local", ".svc"}) {
    if (!h.ends_with(suffix)) continue;
    h.resize(h.size() - std::string(suffix).size());
    const auto dot = h.find('.');
    if (dot == std::string::npos || dot == 0 || h.find('.', dot + 1) != std::string::npos) return std::nullopt;
    return std::make_pair(h.substr(dot + 1), h.substr(0, dot));
  }
  return std::nullopt;
}

// The heaviest valid backend of a decision, or nullptr.
const BackendChoice* heaviest(const RouteDecision& d) {
  const BackendChoice* best = nullptr;
  for (const auto& b : d.backends) {
    if (b.valid && (best == nullptr || b.weight > best->weight)) best = &b;
  }
  return best;
}

// Where the step asks: the Service, its port and how it is reached.
void locate_service(const Manifests& m, const GatewayModel& g, const AuthPolicy& p, AuthDependency& a) {
  if (!p.service_name.empty()) {
    a.service = p.service_ns + "/" + p.service_name;
    a.port = p.port;
    a.reached = "its backendRef";
    return;
  }
  auto req = parse_request("GET " + p.address, {}, 0);
  if (!req) {
    a.reached = "outside the model (" + p.address + ")";
    return;
  }
  if (const auto svc = cluster_service_name(req->host)) {
    a.service = svc->first + "/" + svc->second;
    a.port = req->port;
    a.reached = fmt::format("the cluster DNS name {}", req->host);
    return;
  }
  const RouteDecision d = resolve_request(m, g, req.value(), "");
  if (const BackendChoice* b = d.has_entry ? heaviest(d) : nullptr) {
    a.service = b->service;
    a.port = b->port;
    a.reached = fmt::format("{} through the Gateway: HTTPRoute {} rule {}", req->host, route_label(m, d.entry.route), d.entry.rule);
    return;
  }
  a.reached = fmt::format("{}: no rule of this cluster's Gateways takes it, outside the model", req->host);
}

void find_endpoints(const Manifests& m, const Placement& placement, AuthDependency& a) {
  if (a.service.empty()) return;
  const auto slash = a.service.find('/');
  const Service* s = m.find_service(a.service.substr(0, slash), a.service.substr(slash + 1));
  if (s == nullptr) {
    a.service_problem = "no Service " + a.service;
    return;
  }
  if (std::none_of(s->ports.begin(), s->ports.end(), [&](const ServicePort& sp) { return sp.port == a.port; })) {
    a.service_problem = fmt::format("Service {} has no port {}", a.service, a.port);
  }
  std::set<std::size_t> workloads;
  for (const PlacedPod* pod : service_endpoints(m, placement, *s)) {
    a.endpoints.push_back(AuthEndpoint{pod->name, pod->node});
    workloads.insert(pod->workload);
  }
  for (std::size_t wi = 0; wi < m.workloads.size(); ++wi) {
    const KubeWorkload& w = m.workloads[wi];
    if (w.meta.ns == s->meta.ns && !s->selector.empty() &&
        std::all_of(s->selector.begin(), s->selector.end(), [&](const auto& kv) {
          const auto it = w.pod_labels.find(kv.first);
          return it != w.pod_labels.end() && it->second == kv.second;
        })) {
      workloads.insert(wi);
    }
  }
  a.workloads.assign(workloads.begin(), workloads.end());
}

void describe_failures(const AuthPolicy& p, AuthDependency& a) {
  using T = AuthPolicy::Type;
  a.sign_in = p.sign_in;
  a.fail_open = p.fail_open;
  if (!p.sign_in.empty()) {
    a.unauthenticated_status = 302;
    a.unauthenticated_why = p.type == T::kNginxAuthUrl ? "ingress-nginx turns the 401 of auth-url into a 302 to auth-signin"
                            : p.type == T::kOidc       ? "Envoy's OAuth2 filter redirects to the provider's authorization endpoint"
                                                       : "the authentication service answers 302 to its sign-in page (clustertwin.io/sign-in-url), "
                                                         "and the Gateway returns that answer";
  } else {
    a.unauthenticated_status = p.type == T::kExtAuthGrpc ? 403 : 401;
    a.unauthenticated_why = "the authentication service's refusal is returned (no sign-in URL is configured: no redirect)";
  }
  switch (p.type) {
    case T::kExtAuthHttp:
    case T::kExtAuthGrpc:
      a.down_status = p.fail_open ? 200 : 403;
      a.down_why = p.fail_open ? "failOpen: true: Envoy lets the request through unauthenticated (failure_mode_allow)"
                               : "Envoy ext_authz status_on_error: 403 Forbidden by default; failOpen is false";
      break;
    case T::kForwardAuth:
      a.down_why = "Traefik forwardAuth: the call to the address fails and Traefik answers 500";
      break;
    case T::kNginxAuthUrl:
      a.down_why = "nginx auth_request: a subrequest that fails is an error: 500";
      break;
    case T::kOidc:
      a.down_status = 302;
      a.down_why = "OIDC: the redirect to the provider still happens; the sign-in fails at the provider";
      break;
  }
}

// The sign-in request through the front door, and whether it comes back to the same step.
void follow_sign_in(const Manifests& m, const GatewayModel& g, std::size_t policy, AuthDependency& a) {
  if (a.sign_in.empty() || a.sign_in.find('$') != std::string::npos) return;
  auto req = parse_request("GET " + a.sign_in, {}, 0);
  if (!req) return;
  const RouteDecision d = resolve_request(m, g, req.value(), "");
  if (!d.has_entry || !d.has_listener) return;
  a.login_routed = true;
  a.login_route_index = d.entry.route;
  a.login_rule_index = d.entry.rule;
  const RouteRule& rule = m.routes[d.entry.route].rules[d.entry.rule];
  a.login_route = fmt::format("HTTPRoute {} rule {} ({})", route_label(m, d.entry.route), d.entry.rule, where_text(rule.where));
  const auto& ls = g.listeners[d.listener];
  a.login_listener = listener_label(m, ls.gateway, ls.listener);
  const Gateway& gw = m.gateways[ls.gateway];
  const Listener& l = gw.listeners[ls.listener];
  if (l.protocol == "HTTPS" && !l.certificate_refs.empty()) {
    a.login_certificate = (l.certificate_refs[0].ns.empty() ? gw.meta.ns : l.certificate_refs[0].ns) + "/" + l.certificate_refs[0].name;
  }
  if (const BackendChoice* b = heaviest(d)) a.login_service = b->service;
  if (const RuleAuth* ra = find_rule_auth(g, d.entry.route, d.entry.rule, d.listener); ra != nullptr && ra->covered) {
    a.loop = true;
    a.loop_why = ra->policy == policy
                     ? fmt::format("the sign-in page {} is itself behind {} ({}): an unauthenticated request is redirected to it, "
                                   "and from it, again and again (a redirect loop)",
                                   a.sign_in, auth_policy_label(m.auth_policies[policy]), ra->via)
                     : fmt::format("the sign-in page {} is itself behind {} ({}): an unauthenticated request cannot reach it",
                                   a.sign_in, auth_policy_label(m.auth_policies[ra->policy]), ra->via);
  }
}

}  // namespace

std::vector<AuthDependency> build_auth_dependencies(const Manifests& m, const GatewayModel& g, const Placement& placement) {
  std::vector<AuthDependency> out;
  for (std::size_t pi = 0; pi < m.auth_policies.size(); ++pi) {
    const AuthPolicy& p = m.auth_policies[pi];
    AuthDependency a;
    a.policy = pi;
    locate_service(m, g, p, a);
    find_endpoints(m, placement, a);
    describe_failures(p, a);
    follow_sign_in(m, g, pi, a);
    out.push_back(std::move(a));
  }
  return out;
}

std::string expand_request_variables(const std::string& url, const HttpRequest& r) {
  std::string uri = r.path;
  for (std::size_t i = 0; i < r.query.size(); ++i) uri += (i ? "&" : "?") + r.query[i].first + "=" + r.query[i].second;
  std::string escaped;
  for (char c : uri) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/';
    escaped += plain ? std::string(1, c) : fmt::format("%{:02X}", static_cast<unsigned char>(c));
  }
  const std::pair<std::string, std::string> vars[] = {
      {"$escaped_request_uri", escaped}, {"$request_uri", uri}, {"$scheme", r.scheme}, {"$host", r.host}};
  std::string out = url;
  for (const auto& [name, value] : vars) {
    for (std::size_t at = out.find(name); at != std::string::npos; at = out.find(name, at + value.size())) out.replace(at, name.size(), value);
  }
  return out;
}

}  // namespace ct
