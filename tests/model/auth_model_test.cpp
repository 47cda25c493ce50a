// The authentication step worked by hand (issue 28): which policy covers which rule by each
// implementation's documented precedence, the unauthenticated request redirected to the sign-in
// page and that second request traced, a sign-in page behind itself (a loop), and an
// authentication Service with no ready endpoint (the implementation's status, never 200).
#include <gtest/gtest.h>

#include "frontend/auth_coverage.h"
#include "frontend/gateway_routes.h"
#include "frontend/manifest_parser.h"
#include "support/gateway_yaml.h"
#include "frontend/request_trace.h"
#include "io/dns_files.h"
#include "io/manifest_files.h"
#include "support/test_paths.h"

namespace ct {
namespace {

Manifests load(const std::string& text) { return testing_support::parsed_manifests(text); }

// One Gateway web/g with listeners a (a.example.com) and b (b.example.com); HTTPRoute web/r1 on
// listener a with rules "one" (/one) and "two" (/two); HTTPRoute web/r2 on listener b.
const std::string kGateway = R"(apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: g, namespace: web}
spec:
  gatewayClassName: eg
  listeners:
  - {name: a, port: 80, protocol: HTTP, hostname: a.example.com}
  - {name: b, port: 80, protocol: HTTP, hostname: b.example.com}
---
apiVersion: v1
kind: Service
metadata: {name: app, namespace: web}
spec: {selector: {app: app}, ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r1, namespace: web}
spec:
  parentRefs: [{name: g, sectionName: a}]
  rules:
  - {name: one, matches: [{path: {value: /one}}], backendRefs: [{name: app, port: 80}]}
  - {name: two, matches: [{path: {value: /two}}], backendRefs: [{name: app, port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r2, namespace: web}
spec:
  parentRefs: [{name: g, sectionName: b}]
  rules:
  - {backendRefs: [{name: app, port: 80}]}
)";

std::string policy(const std::string& name, const std::string& target, const std::string& created = "2025-01-01T00:00:00Z") {
  return "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata: {name: " + name +
         ", namespace: web, creationTimestamp: \"" + created + "\"}\nspec:\n  targetRefs: [{group: gateway.networking.k8s.io, " + target +
         "}]\n  extAuth: {http: {backendRefs: [{name: app, port: 80}]}}\n";
}

// The policy name covering (route, rule) through the listener the request takes, "" for none.
std::string covering(const Manifests& m, const GatewayModel& g, const std::string& url) {
  auto req = parse_request("GET " + url, {}, 0);
  const RouteDecision d = resolve_request(m, g, req.value(), "");
  if (!d.has_entry) return "no rule";
  const RuleAuth* a = find_rule_auth(g, d.entry.route, d.entry.rule, d.listener);
  return a == nullptr || !a->covered ? "" : m.auth_policies[a->policy].meta.name;
}

// Envoy Gateway v1.5, SecurityPolicy "Precedence": rule (HTTPRoute + sectionName) > HTTPRoute >
// listener (Gateway + sectionName) > Gateway. With all four written:
//   r1 rule one  -> p-rule (the rule is named by sectionName one)
//   r1 rule two  -> p-route (p-rule does not name it; the route level beats the listener level)
//   r2           -> p-gateway (p-listener names listener a, r2 is on b)
// Without p-route, r1 rule two falls to p-listener; without p-listener too, to p-gateway.
TEST(AuthCoverage, EnvoyGatewayPrecedenceRuleRouteListenerGateway) {
  const std::string all = kGateway + policy("p-gateway", "kind: Gateway, name: g") +
                          policy("p-listener", "kind: Gateway, name: g, sectionName: a") +
                          policy("p-route", "kind: HTTPRoute, name: r1") +
                          policy("p-rule", "kind: HTTPRoute, name: r1, sectionName: one");
  Manifests m = load(all);
  GatewayModel g = build_gateway_model(m);
  EXPECT_EQ(covering(m, g, "http://a.example.com/one"), "p-rule");
  EXPECT_EQ(covering(m, g, "http://a.example.com/two"), "p-route");
  EXPECT_EQ(covering(m, g, "http://b.example.com/"), "p-gateway");
  const RuleAuth* two = find_rule_auth(g, 0, 1, 0);
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(two->overridden.size(), 2u);  // p-listener, then p-gateway, most specific first
  EXPECT_EQ(two->overridden[0].rfind("SecurityPolicy web/p-listener", 0), 0u) << two->overridden[0];

  m = load(kGateway + policy("p-gateway", "kind: Gateway, name: g") + policy("p-listener", "kind: Gateway, name: g, sectionName: a"));
  g = build_gateway_model(m);
  EXPECT_EQ(covering(m, g, "http://a.example.com/two"), "p-listener");
  m = load(kGateway + policy("p-gateway", "kind: Gateway, name: g"));
  g = build_gateway_model(m);
  EXPECT_EQ(covering(m, g, "http://a.example.com/two"), "p-gateway");
}

// Two policies at the same level: the older (creationTimestamp) wins and the pair is a conflict; a
// policy whose target does not exist covers nothing and says so.
TEST(AuthCoverage, SameLevelOldestWinsAndIdlePolicyIsFlagged) {
  const Manifests m = load(kGateway + policy("young", "kind: HTTPRoute, name: r2", "2025-06-01T00:00:00Z") +
                           policy("old", "kind: HTTPRoute, name: r2", "2025-01-01T00:00:00Z") +
                           policy("nobody", "kind: HTTPRoute, name: r9"));
  const GatewayModel g = build_gateway_model(m);
  EXPECT_EQ(covering(m, g, "http://b.example.com/"), "old");
  std::vector<std::string> idle;
  int conflicts = 0;
  for (const auto& f : g.auth_findings) {
    if (f.kind == AuthFinding::Kind::kConflict) {
      ++conflicts;
      EXPECT_NE(f.message.find("the older, SecurityPolicy web/old"), std::string::npos) << f.message;
    }
    if (f.kind == AuthFinding::Kind::kIdlePolicy) idle.push_back(f.subject.substr(0, f.subject.find(" (")) + ": " + f.message);
  }
  EXPECT_EQ(conflicts, 1);
  ASSERT_EQ(idle.size(), 2u);
  EXPECT_NE(idle[0].find("SecurityPolicy web/young: targetRef HTTPRoute r2"), std::string::npos) << idle[0];
  EXPECT_NE(idle[0].find("covered by another step"), std::string::npos) << idle[0];
  EXPECT_NE(idle[1].find("SecurityPolicy web/nobody: targetRef HTTPRoute r9"), std::string::npos) << idle[1];
  EXPECT_NE(idle[1].find("no HTTPRoute web/r9"), std::string::npos) << idle[1];
}

// Traefik: an ExtensionRef names a Middleware in the route's own namespace. forwardAuth: covered;
// a Middleware of another type: not an authentication step; no Middleware of that name: Gateway
// API says the filter is not skipped and the request gets an error (500), never the backend.
TEST(AuthCoverage, TraefikExtensionRefIsNamespaceLocal) {
  const std::string routes = R"(---
apiVersion: traefik.io/v1alpha1
kind: Middleware
metadata: {name: fa, namespace: web}
spec: {forwardAuth: {address: "http://login.sso.svc:4180/auth"}}
---
apiVersion: traefik.io/v1alpha1
kind: Middleware
metadata: {name: strip, namespace: web}
spec: {stripPrefix: {prefixes: [/x]}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r3, namespace: web}
spec:
  parentRefs: [{name: g, sectionName: b}]
  rules:
  - matches: [{path: {value: /fa}}]
    backendRefs: [{name: app, port: 80}]
    filters: [{type: ExtensionRef, extensionRef: {group: traefik.io, kind: Middleware, name: fa}}]
  - matches: [{path: {value: /strip}}]
    backendRefs: [{name: app, port: 80}]
    filters: [{type: ExtensionRef, extensionRef: {group: traefik.io, kind: Middleware, name: strip}}]
  - matches: [{path: {value: /gone}}]
    backendRefs: [{name: app, port: 80}]
    filters: [{type: ExtensionRef, extensionRef: {group: traefik.io, kind: Middleware, name: gone}}]
)";
  const Manifests m = load(kGateway + routes);
  const GatewayModel g = build_gateway_model(m);
  EXPECT_EQ(covering(m, g, "http://b.example.com/fa"), "fa");
  EXPECT_EQ(covering(m, g, "http://b.example.com/strip"), "");
  auto req = parse_request("GET http://b.example.com/gone", {}, 0);
  const RouteDecision d = resolve_request(m, g, req.value(), "");
  EXPECT_EQ(d.status, 500);
  EXPECT_FALSE(d.forwarded);
  const RuleAuth* gone = find_rule_auth(g, d.entry.route, d.entry.rule, d.listener);
  ASSERT_NE(gone, nullptr);
  EXPECT_FALSE(gone->covered);
  EXPECT_NE(gone->problem.find("resolves to nothing in namespace web"), std::string::npos) << gone->problem;
}

// examples/platform (its manifests and `extra` files, its DNS) as one frontend model.
void load_platform(const std::vector<std::string>& extra, FrontendModel& out) {
  std::vector<std::string> files{testing_support::source_dir() + "/examples/platform/manifests"};
  for (const auto& e : extra) files.push_back(testing_support::source_dir() + "/" + e);
  auto m = load_manifests(files);
  ASSERT_TRUE(m.ok()) << format_diagnostics(m.errors());
  auto dns = load_dns(testing_support::source_dir() + "/examples/platform/dns/named.conf");
  ASSERT_TRUE(dns.ok()) << format_diagnostics(dns.errors());
  out = build_frontend_model(std::move(m).value(), std::move(dns).value(), std::nullopt);
}

TraceRequest inside(const std::string& request) {
  TraceRequest r;
  r.request = request;
  return r;
}

// By hand on the example: grafana's rule carries the ExtensionRef to Middleware apps/forward-auth,
// which asks auth/oauth2-proxy (one replica, oauth2-proxy-0); without a cookie the Middleware's
// sign-in URL answers: 302 Location https://auth.example.com/oauth2/start. The client then asks
// for that: the same view ("internal", a CNAME to gw), the same VIP, listener https-public
// (*.example.com) with Secret infra/public-tls (it lists auth.example.com), HTTPRoute auth/login
// rule 0, no authentication step there, Service auth/oauth2-proxy: 200.
TEST(AuthTrace, UnauthenticatedRedirectIsTracedToTheLoginPage) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({}, f));
  auto t = trace_request(f, inside("GET https://grafana.apps.example.com/d/home"));
  ASSERT_TRUE(t.ok()) << format_diagnostics(t.errors());
  ASSERT_TRUE(t->auth.has_value());
  EXPECT_EQ(t->auth->policy, "Middleware apps/forward-auth (forwardAuth)");
  EXPECT_EQ(t->auth->service, "auth/oauth2-proxy");
  ASSERT_EQ(t->auth->endpoints.size(), 1u);
  EXPECT_EQ(t->auth->endpoints[0].pod, "oauth2-proxy-0");
  EXPECT_FALSE(t->auth->authenticated);
  EXPECT_EQ(t->auth->status, 302);
  EXPECT_EQ(t->auth->location, "https://auth.example.com/oauth2/start");
  EXPECT_EQ(t->http_status, 302);
  EXPECT_EQ(t->hops[6].status, HopStatus::kNotReached);
  ASSERT_EQ(t->follow_up.size(), 1u);
  const RequestTrace& login = t->follow_up[0];
  EXPECT_EQ(login.request.host, "auth.example.com");
  EXPECT_EQ(login.hops[0].decided_by, t->hops[0].decided_by);  // the same view answers
  EXPECT_NE(login.hops[3].summary.find("TLS Secret infra/public-tls covers auth.example.com"), std::string::npos) << login.hops[3].summary;
  EXPECT_EQ(login.hops[4].decided_by, "HTTPRoute auth/login rule 0");
  EXPECT_EQ(login.hops[5].status, HopStatus::kSkipped);
  EXPECT_EQ(login.hops[6].decided_by, "Service auth/oauth2-proxy");
  EXPECT_EQ(login.http_status, 200);
  EXPECT_TRUE(login.follow_up.empty());
  // The same request with the session cookie goes on to grafana.
  TraceRequest with = inside("GET https://grafana.apps.example.com/d/home");
  with.headers = {"Cookie: _oauth2_proxy=s"};
  auto ok = trace_request(f, with);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ok->auth->authenticated);
  EXPECT_EQ(ok->hops[6].decided_by, "Service apps/grafana");
  EXPECT_EQ(ok->http_status, 200);
}

// tests/frontend/auth/71-loop.yaml: Middleware auth/self redirects to
// https://auth.example.com/self/start, which HTTPRoute auth/self (PathPrefix /self) takes, behind
// the same Middleware: the hop fails as a redirect loop, and the followed request loops again.
TEST(AuthTrace, SignInPageBehindItselfIsALoop) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({"tests/frontend/auth/71-loop.yaml"}, f));
  auto t = trace_request(f, inside("GET https://auth.example.com/self/x"));
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t->auth.has_value());
  EXPECT_TRUE(t->auth->loop);
  EXPECT_EQ(t->hops[5].status, HopStatus::kFailed);
  EXPECT_NE(t->hops[5].summary.find("a redirect loop"), std::string::npos) << t->hops[5].summary;
  ASSERT_EQ(t->follow_up.size(), 1u);
  EXPECT_EQ(t->follow_up[0].http_status, 302);
  EXPECT_EQ(t->follow_up[0].auth->location, "https://auth.example.com/self/start");
}

// No ready endpoint. Traefik forwardAuth (the example, the login's only node dead): 500. Envoy
// Gateway extAuth (tests/frontend/auth/70-auth.yaml, Service apps/authz selects no pod): 403, the
// ext_authz status_on_error default. Neither is a 200; neither reaches the app, unless the extAuth
// fails open.
TEST(AuthTrace, NoReadyEndpointGetsTheImplementationsStatus) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({"tests/frontend/auth/70-auth.yaml"}, f));
  TraceRequest docs = inside("GET https://chat.example.com/docs/x");
  docs.headers = {"Cookie: s=1"};
  auto t = trace_request(f, docs);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->auth->policy, "SecurityPolicy apps/docs-sso (extAuth HTTP)");
  EXPECT_EQ(t->hops[5].status, HopStatus::kFailed);
  EXPECT_EQ(t->http_status, 403);
  EXPECT_EQ(t->hops[6].status, HopStatus::kNotReached);
  // failOpen: true (Envoy's failure_mode_allow): the request goes on unauthenticated, a warning.
  for (auto& p : f.manifests.auth_policies) p.fail_open = p.fail_open || p.meta.name == "docs-sso";
  f.auth = build_auth_dependencies(f.manifests, f.gateways, f.placement);
  auto open = trace_request(f, docs);
  ASSERT_TRUE(open.ok());
  EXPECT_EQ(open->hops[5].status, HopStatus::kWarning);
  EXPECT_EQ(open->hops[6].decided_by, "Service apps/grafana");
  EXPECT_EQ(open->http_status, 200);

  ASSERT_TRUE(kill_nodes(f, {"node-0"}).empty());
  TraceRequest grafana = inside("GET https://grafana.apps.example.com/");
  grafana.headers = {"Cookie: s=1"};
  auto down = trace_request(f, grafana);
  ASSERT_TRUE(down.ok());
  EXPECT_TRUE(down->auth->endpoints.empty());
  EXPECT_EQ(down->hops[5].status, HopStatus::kFailed);
  EXPECT_EQ(down->http_status, 500);
  EXPECT_EQ(down->auth->down_status, 500);
  EXPECT_FALSE(kill_nodes(f, {"node-99"}).empty());
}

}  // namespace
}  // namespace ct
