// Gateway API v1 rules, one test each, worked by hand. Each test quotes the specification text it
// comes from (kubernetes-sigs/gateway-api, apis/v1/httproute_types.go and gateway_types.go) and
// states the expected answer before the code checks it.
#include "frontend/gateway_filters.h"
#include "frontend/gateway_routes.h"
#include "frontend/manifest_parser.h"

#include <gtest/gtest.h>

#include "support/gateway_yaml.h"

namespace ct {
namespace {

using testing_support::document;
using testing_support::gateway;
using testing_support::rule;
using testing_support::rules;
using testing_support::to;

std::string service(const std::string& name) {
  return document("v1", "Service", "name: " + name + ", namespace: apps", "spec: {ports: [{port: 80}]}\n");
}

// A GatewayClass, a Namespace "apps" (team=web) and Services a, b, c (port 80) in it.
const std::string kBase =
    document("gateway.networking.k8s.io/v1", "GatewayClass", "name: cls", "spec: {controllerName: example.net/gateway}\n") +
    document("v1", "Namespace", "name: apps, labels: {team: web}", "") + service("a") + service("b") + service("c");

// A Gateway "infra/gw" with one HTTP listener on port 80 for any hostname, routes from all namespaces.
const std::string kOpenGateway = gateway({"{name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}"});

struct Fixture {
  Manifests m;
  GatewayModel g;
};

Fixture load(const std::string& extra, bool open_gateway = true) {
  auto m = parse_manifests({{"t.yaml", kBase + (open_gateway ? kOpenGateway : "") + extra}});
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_diagnostics(m.errors()));
  Fixture f{std::move(m).value(), {}};
  f.g = build_gateway_model(f.m);
  return f;
}

RouteDecision send(const Fixture& f, const std::string& request, std::vector<std::string> headers = {}) {
  auto r = parse_request(request, headers, 0);
  EXPECT_TRUE(r.ok());
  return resolve_request(f.m, f.g, r.value(), "");
}

// The route that won, "name rule".
std::string winner(const Fixture& f, const RouteDecision& d) {
  if (!d.has_entry) return "none";
  return f.m.routes[d.entry.route].meta.name + " " + std::to_string(d.entry.rule);
}

// HTTPRoute `name` in `ns` attached to infra/gw (`parent_extra` follows the parentRef's namespace).
std::string route(const std::string& name, const std::string& body, const std::string& extra_meta = "",
                  const std::string& ns = "apps", const std::string& parent_extra = "") {
  return document("gateway.networking.k8s.io/v1", "HTTPRoute", "name: " + name + ", namespace: " + ns + extra_meta,
                  "spec:\n  parentRefs: [{name: gw, namespace: infra" + parent_extra + "}]\n" + body);
}

// What one request should get: the winning "route rule" (unchecked when empty) and the status
// (unchecked when 0).
struct Expect {
  std::string request;
  std::vector<std::string> headers;
  std::string winner;
  int status = 0;
};
void expect_routes(const Fixture& f, const std::vector<Expect>& cases) {
  for (const Expect& e : cases) {
    const RouteDecision d = send(f, e.request, e.headers);
    if (!e.winner.empty()) {
      EXPECT_EQ(winner(f, d), e.winner) << e.request;
    }
    if (e.status != 0) {
      EXPECT_EQ(d.status, e.status) << e.request;
    }
  }
}

const RouteParentStatus& parent_status(const Fixture& f, const std::string& name) {
  for (const auto& p : f.g.parents) {
    if (f.m.routes[p.route].meta.name == name) return p;
  }
  ADD_FAILURE() << "no route " << name;
  return f.g.parents.front();
}

// "precedence must be given to the match having: 'Exact' path match." Routes x (PathPrefix /api)
// and y (Exact /api/v1): GET /api/v1 -> y; GET /api/v2 -> x (Exact does not match).
TEST(GatewayPrecedence, ExactBeatsPrefix) {
  const auto f = load(route("x", rules({rule("{path: {type: PathPrefix, value: /api}}", to("a"))})) +
                      route("y", rules({rule("{path: {type: Exact, value: /api/v1}}", to("b"))})));
  expect_routes(f, {{"GET http://h.example.com/api/v1", {}, "y 0", 200}, {"GET http://h.example.com/api/v2", {}, "x 0"}});
  const auto d = send(f, "GET http://h.example.com/api/v1");
  ASSERT_GE(d.reasons.size(), 3u);
  EXPECT_NE(d.reasons[2].find("Exact /api/v1 beats PathPrefix /api"), std::string::npos) << d.reasons[2];
}

// "'Prefix' path match with largest number of characters." /api (4) vs /api/v1 (7): /api/v1/users
// -> the 7-character prefix.
TEST(GatewayPrecedence, LongestPrefixWins) {
  const auto f = load(route("x", rules({rule("{path: {value: /api}}", to("a")), rule("{path: {value: /api/v1}}", to("b"))})));
  const auto d = send(f, "GET http://h/api/v1/users");
  EXPECT_EQ(winner(f, d), "x 1");
  EXPECT_NE(d.reasons.back().find("(7 characters) beats PathPrefix /api (4)"), std::string::npos) << d.reasons.back();
}

// "Method match." then "Largest number of header matches." then "Largest number of query param
// matches." Same path /, rule 0 has one header, rule 1 a method, rule 2 two query params: a POST
// with the header and both params -> rule 1 (method beats headers); a GET with the header and both
// params -> rule 0 (one header beats zero headers, before query counts).
TEST(GatewayPrecedence, MethodThenHeadersThenQuery) {
  const auto f = load(route("x", rules({rule("{headers: [{name: env, value: canary}]}", to("a")),
                                        rule("{method: POST}", to("b")),
                                        rule("{queryParams: [{name: p, value: '1'}, {name: q, value: '2'}]}", to("c"))})));
  expect_routes(f, {{"POST http://h/?p=1&q=2", {"env: canary"}, "x 1"},
                    {"GET http://h/?p=1&q=2", {"env: canary"}, "x 0"},
                    {"GET http://h/?p=1&q=2", {}, "x 2"}});
  // Two header matches beat one.
  const auto g = load(route("y", rules({rule("{headers: [{name: a, value: '1'}]}", to("a")),
                                        rule("{headers: [{name: a, value: '1'}, {name: b, value: '2'}]}", to("b"))})));
  expect_routes(g, {{"GET http://h/", {"a: 1", "b: 2"}, "y 1"}});
}

// "If ties still exist across multiple Routes ... The oldest Route based on creation timestamp."
// then "The Route appearing first in alphabetical order by '{namespace}/{name}'." then "the FIRST
// matching rule (in list order)". zeta (2024-01-01) vs alpha (2024-06-01), same match: zeta wins;
// with equal timestamps alpha wins; inside one route, rule 0 beats the identical rule 1.
TEST(GatewayPrecedence, OldestThenAlphabeticalThenRuleOrder) {
  const std::string body = rules({rule("", to("a")), rule("", to("b"))});
  const auto f = load(route("alpha", body, ", creationTimestamp: '2024-06-01T00:00:00Z'") +
                      route("zeta", body, ", creationTimestamp: '2024-01-01T00:00:00Z'"));
  const auto d = send(f, "GET http://h/x");
  EXPECT_EQ(winner(f, d), "zeta 0");
  EXPECT_NE(d.reasons.back().find("the older one wins"), std::string::npos) << d.reasons.back();
  const auto g = load(route("alpha", body, ", creationTimestamp: '2024-01-01T00:00:00Z'") +
                      route("zeta", body, ", creationTimestamp: '2024-01-01T00:00:00Z'"));
  expect_routes(g, {{"GET http://h/x", {}, "alpha 0"}});
  const auto h = load(route("solo", body));
  const auto dh = send(h, "GET http://h/x");
  EXPECT_EQ(winner(h, dh), "solo 0");
  EXPECT_NE(dh.reasons.back().find("first rule in list order"), std::string::npos);
}

// PathPrefix: "Matching is case-sensitive and done on a path element by element basis ... When
// specified, a trailing `/` is ignored. For example, the paths `/abc`, `/abc/`, and `/abc/def`
// would all match the prefix `/abc`, but the path `/abcd` would not."
TEST(GatewayMatching, PathPrefixElementWise) {
  EXPECT_TRUE(path_prefix_matches("/abc", "/abc"));
  EXPECT_TRUE(path_prefix_matches("/abc", "/abc/"));
  EXPECT_TRUE(path_prefix_matches("/abc", "/abc/def"));
  EXPECT_FALSE(path_prefix_matches("/abc", "/abcd"));
  EXPECT_TRUE(path_prefix_matches("/abc/", "/abc"));  // trailing '/' of the prefix ignored
  EXPECT_FALSE(path_prefix_matches("/abc", "/Abc"));
  EXPECT_TRUE(path_prefix_matches("/", "/anything"));
  // Exact: "an exact path match on `/abc` will only match requests to `/abc`, NOT `/abc/`, `/Abc`, or `/abcd`."
  const auto f = load(route("x", rules({rule("{path: {type: Exact, value: /abc}}", to("a"))})));
  expect_routes(f, {{"GET http://h/abc", {}, "", 200},
                    {"GET http://h/abc/", {}, "", 404},
                    {"GET http://h/Abc", {}, "", 404},
                    {"GET http://h/abcd", {}, "", 404}});
}

// Header "Name matching MUST be case-insensitive"; header values exact; query "must be an exact
// string match". Header X-Env: Canary vs match x-env=canary: name matches, value does not.
TEST(GatewayMatching, HeaderNamesCaseInsensitiveValuesAndQueryCaseSensitive) {
  const auto f = load(route("x", rules({rule("{headers: [{name: x-env, value: canary}]}", to("a")),
                                        rule("{queryParams: [{name: v, value: beta}]}", to("b"))})));
  expect_routes(f, {{"GET http://h/", {"X-ENV: canary"}, "x 0"},
                    {"GET http://h/", {"X-Env: Canary"}, "", 404},
                    {"GET http://h/?v=beta", {}, "x 1"},
                    {"GET http://h/?V=beta", {}, "", 404},
                    {"GET http://h/?v=Beta", {}, "", 404}});
}

// "this rule will be matched if **any** one of the matches is satisfied" and "Multiple match
// types are ANDed together". Match 0: /foo AND version=v2; match 1: /v2/foo.
TEST(GatewayMatching, MatchesOredConditionsAnded) {
  const auto f = load(route("x", rules({rule("{path: {value: /foo}, headers: [{name: version, value: v2}]}, {path: {value: /v2/foo}}",
                                             to("a"))})));
  expect_routes(f, {{"GET http://h/foo", {"version: v2"}, "", 200},
                    {"GET http://h/foo", {}, "", 404},        // AND: the header is missing
                    {"GET http://h/v2/foo", {}, "", 200}});  // OR: the second match
}

// "If no matches are specified, the default is a prefix path match on '/', which has the effect
// of matching every HTTP request." And: "When no rules matching a request have been successfully
// attached ... a HTTP 404 status code MUST be returned."
TEST(GatewayMatching, EmptyMatchIsPrefixSlashAndNothingIs404) {
  const auto f = load(route("x", "  hostnames: [a.example.com]\n" + rules({rule("", to("a"))})));
  expect_routes(f, {{"GET http://a.example.com/any/path", {}, "", 200}, {"GET http://b.example.com/", {}, "", 404}});
}

// Hostnames: "`*.example.com` would match both `test.example.com`, and `foo.test.example.com`,
// but not `example.com`." and "Implementations MUST ignore any port value specified in the HTTP
// Host header".
TEST(GatewayHostnames, WildcardOneOrMoreLabelsAndPortIgnored) {
  EXPECT_TRUE(hostname_matches("*.example.com", "test.example.com"));
  EXPECT_TRUE(hostname_matches("*.example.com", "foo.test.example.com"));
  EXPECT_FALSE(hostname_matches("*.example.com", "example.com"));
  EXPECT_TRUE(hostname_matches("App.Example.com", "app.example.COM"));
  const auto f = load(route("x", "  hostnames: ['*.example.com']\n" + rules({rule("", to("a"))})));
  expect_routes(f, {{"GET http://foo.test.example.com/", {}, "", 200},
                    {"GET http://example.com/", {}, "", 404},
                    {"GET http://ignored/", {"Host: test.example.com:8080"}, "", 200}});
}

// "precedence must be given to rules from the HTTPRoute with the largest number of: Characters in
// a matching non-wildcard hostname." Route w (*.example.com, Exact /x) and e (a.example.com,
// PathPrefix /): a.example.com/x goes to e although w's Exact path is more specific.
TEST(GatewayHostnames, ExactHostnameBeatsWildcardBeforePathPrecedence) {
  const auto f = load(route("w", "  hostnames: ['*.example.com']\n" + rules({rule("{path: {type: Exact, value: /x}}", to("a"))})) +
                      route("e", "  hostnames: [a.example.com]\n" + rules({rule("", to("b"))})));
  expect_routes(f, {{"GET http://a.example.com/x", {}, "e 0"}, {"GET http://b.example.com/x", {}, "w 0"}});
}

// "A Listener with `test.example.com` as the hostname matches HTTPRoutes that have ... specified
// at least one of `test.example.com` or `*.example.com`." and "If both the Listener and HTTPRoute
// have specified hostnames, and none match ... the HTTPRoute is not accepted" (Accepted False,
// NoMatchingListenerHostname). Listener test.example.com; route ok (*.example.com) attaches with the
// intersection test.example.com; route bad (test.example.net) is not accepted.
TEST(GatewayAttachment, HostnameIntersection) {
  const auto f = load(gateway({"{name: t, port: 80, protocol: HTTP, hostname: test.example.com, allowedRoutes: {namespaces: {from: All}}}"}) +
                          route("ok", "  hostnames: ['*.example.com']\n") + route("bad", "  hostnames: [test.example.net]\n"),
                      false);
  const auto& ok = parent_status(f, "ok");
  ASSERT_TRUE(ok.accepted());
  ASSERT_EQ(ok.attachments.size(), 1u);
  EXPECT_EQ(ok.attachments[0].hostnames, std::vector<std::string>{"test.example.com"});
  const auto& bad = parent_status(f, "bad");
  EXPECT_FALSE(bad.accepted());
  EXPECT_EQ(bad.conditions[0].reason, "NoMatchingListenerHostname");
  ASSERT_EQ(f.g.unattached_routes.size(), 1u);
  EXPECT_EQ(f.m.routes[f.g.unattached_routes[0]].meta.name, "bad");
}

// allowedRoutes.namespaces.from: "Same: Only Routes in the same namespace may be used by this
// Gateway" (the default); "Selector: Routes in namespaces selected by the selector may be used".
// Route in "apps" (label team=web) to listeners Same, Selector team=web, Selector team=db.
TEST(GatewayAttachment, AllowedRoutesSameAllSelector) {
  const std::string gw = gateway(
      {"{name: same, port: 80, protocol: HTTP}",
       "{name: web, port: 8080, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: web}}}}}",
       "{name: db, port: 8081, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {team: db}}}}}"});
  const auto f = load(gw + route("r", ""), false);
  const auto& p = parent_status(f, "r");
  ASSERT_TRUE(p.accepted());
  ASSERT_EQ(p.attachments.size(), 1u);
  EXPECT_EQ(f.m.gateways[0].listeners[p.attachments[0].listener].name, "web");
  const auto g = load(gw + route("s", "", "", "apps", ", sectionName: db"), false);
  EXPECT_EQ(parent_status(g, "s").conditions[0].reason, "NotAllowedByListeners");
}

// ReferenceGrant: "a Route in namespace A ... backendRef to a Service in namespace B ... is only
// valid if a ReferenceGrant in namespace B allows it". Without the grant: ResolvedRefs False
// RefNotPermitted and the request gets 500; with the grant: 200.
TEST(GatewayReferences, ReferenceGrantForCrossNamespaceBackend) {
  const std::string r = route("x", rules({rule("", "{name: a, namespace: apps, port: 80}")}), "", "other");
  const auto f = load(r);
  EXPECT_EQ(parent_status(f, "x").conditions[1].reason, "RefNotPermitted");
  expect_routes(f, {{"GET http://h/", {}, "", 500}});
  const auto g = load(r + document("gateway.networking.k8s.io/v1beta1", "ReferenceGrant", "name: allow, namespace: apps",
                                   "spec:\n  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: other}]\n"
                                   "  to: [{group: '', kind: Service}]\n"));
  EXPECT_TRUE(parent_status(g, "x").conditions[1].status);
  expect_routes(g, {{"GET http://h/", {}, "", 200}});
}

// A backendRef to a missing Service: ResolvedRefs False, BackendNotFound; "If *all* entries in
// BackendRefs are invalid, and there are also no filters ... *all* traffic which matches this rule
// MUST receive a 500 status code." Two backends, one missing, weights 1 and 3: 75% get 500.
TEST(GatewayReferences, BackendNotFoundGives500) {
  const auto f = load(route("x", rules({rule("", "{name: a, port: 80, weight: 1}, {name: nope, port: 80, weight: 3}")})));
  EXPECT_EQ(parent_status(f, "x").conditions[1].reason, "BackendNotFound");
  const auto d = send(f, "GET http://h/");
  EXPECT_EQ(d.status, 200);
  ASSERT_EQ(d.backends.size(), 2u);
  EXPECT_DOUBLE_EQ(d.backends[0].share, 0.25);
  EXPECT_FALSE(d.backends[1].valid);
  EXPECT_NE(d.reasons.back().find("75% of requests go to invalid backends"), std::string::npos);
  const auto g = load(route("y", rules({rule("", to("nope"))})));
  expect_routes(g, {{"GET http://h/", {}, "", 500}});
}

// Listener selection by SNI; exact beats wildcard beats any. Listener "Hostname ... HTTPS: The
// Listener Hostname SHOULD match at both the TLS and HTTP protocol layers". Listeners: any (all),
// *.example.com (wild), a.example.com (exact), each HTTPS on 443. SNI a.example.com -> exact;
// b.example.com -> wild; other.org -> all. SNI a.example.com with Host b.example.com: Host would pick
// another listener -> 421 Misdirected Request.
TEST(GatewayListeners, SpecificityAndSniHostMismatch) {
  const auto f = load(gateway({"{name: all, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: s}]}}",
                               "{name: wild, port: 443, protocol: HTTPS, hostname: '*.example.com', tls: {certificateRefs: [{name: s}]}}",
                               "{name: exact, port: 443, protocol: HTTPS, hostname: a.example.com, tls: {certificateRefs: [{name: s}]}}"},
                              "apps") +
                          document("v1", "Secret", "name: s, namespace: apps", "type: kubernetes.io/tls\n") +
                          document("gateway.networking.k8s.io/v1", "HTTPRoute", "name: r, namespace: apps",
                                   "spec:\n  parentRefs: [{name: gw}]\n  rules: [{backendRefs: [{name: a, port: 80}]}]\n"),
                      false);
  const auto listener = [&](const std::string& req, std::vector<std::string> h = {}) {
    const auto d = send(f, req, h);
    return d.has_listener ? f.m.gateways[0].listeners[f.g.listeners[d.listener].listener].name : "none";
  };
  EXPECT_EQ(listener("GET https://a.example.com/"), "exact");
  EXPECT_EQ(listener("GET https://b.x.example.com/"), "wild");
  EXPECT_EQ(listener("GET https://other.org/"), "all");
  expect_routes(f, {{"GET https://a.example.com/", {"Host: b.example.com"}, "", 421},
                    {"GET https://a.example.com/", {"Host: a.example.com:443"}, "", 200}});
}

// Conflicted: two listeners on one port with the same hostname -> Conflicted True,
// HostnameConflict, not Programmed; HTTP and HTTPS on one port -> ProtocolConflict. A certificate
// Secret in another namespace without a ReferenceGrant -> ResolvedRefs False, RefNotPermitted.
TEST(GatewayListeners, ConflictsAndCertificateRefs) {
  const auto f = load(gateway({"{name: one, port: 80, protocol: HTTP, hostname: a.example.com}",
                               "{name: two, port: 80, protocol: HTTP, hostname: a.example.com}",
                               "{name: tls, port: 8443, protocol: HTTPS, tls: {certificateRefs: [{name: s, namespace: certs}]}}",
                               "{name: plain, port: 8443, protocol: HTTP}",
                               "{name: ok, port: 9443, protocol: HTTPS, tls: {certificateRefs: [{name: s, namespace: certs}]}}"},
                              "apps"),
                      false);
  const auto reason = [&](std::size_t i, const std::string& type) {
    for (const auto& c : f.g.listeners[i].conditions) {
      if (c.type == type) return c.reason;
    }
    return std::string("?");
  };
  EXPECT_EQ(reason(0, "Conflicted"), "HostnameConflict");
  EXPECT_FALSE(f.g.listeners[0].programmed());
  EXPECT_EQ(reason(2, "Conflicted"), "ProtocolConflict");
  EXPECT_EQ(reason(4, "Conflicted"), "NoConflicts");
  EXPECT_EQ(reason(4, "ResolvedRefs"), "RefNotPermitted");
  // The Gateway: "ListenersNotValid: ... one or more Listeners have an invalid or unsupported
  // configuration ... This can be the reason when 'Accepted' is 'True' or 'False'" (here True: the
  // Gateway is valid), and no listener programmed -> Programmed False, Invalid.
  const auto& gc = f.g.gateway_conditions[0];
  ASSERT_EQ(gc.size(), 2u);
  EXPECT_TRUE(gc[0].status);
  EXPECT_EQ(gc[0].reason, "ListenersNotValid");
  EXPECT_EQ(gc[0].message, "5 of 5 listener(s) are invalid");
  EXPECT_FALSE(gc[1].status);
  EXPECT_EQ(gc[1].reason, "Invalid");
  // The open Gateway of the other tests: every listener programmed -> Accepted, Programmed.
  const auto g = load("");
  EXPECT_EQ(g.g.gateway_conditions[0][0].reason, "Accepted");
  EXPECT_EQ(g.g.gateway_conditions[0][1].reason, "Programmed");
}

// No 404 without its reason: a request to port 80 for a.example.com reaches no programmed listener
// of the Gateway above; the decision names each listener on the port and why it did not take the
// request (here both conflict: HostnameConflict). Port 8443 over HTTP: "tls" is HTTPS, and "plain"
// conflicts. A Gateway whose GatewayClass is missing names that too.
TEST(GatewayListeners, NoListenerSaysWhyForEachListenerOnThePort) {
  const auto f = load(gateway({"{name: one, port: 80, protocol: HTTP, hostname: a.example.com}",
                               "{name: two, port: 80, protocol: HTTP, hostname: a.example.com}",
                               "{name: other, port: 80, protocol: HTTP, hostname: b.example.com}"},
                              "apps"),
                      false);
  const auto d = send(f, "GET http://a.example.com/");
  EXPECT_EQ(d.status, 404);
  ASSERT_EQ(d.reasons.size(), 4u);
  EXPECT_NE(d.reasons[1].find("listener 'one' (t.yaml:"), std::string::npos) << d.reasons[1];
  EXPECT_NE(d.reasons[1].find("would match but is not programmed: Conflicted=True (HostnameConflict)"), std::string::npos) << d.reasons[1];
  EXPECT_NE(d.reasons[3].find("listener 'other' (t.yaml:"), std::string::npos) << d.reasons[3];
  EXPECT_NE(d.reasons[3].find("takes hostname 'b.example.com' only"), std::string::npos) << d.reasons[3];
  const auto orphan = load(gateway({"{name: http, port: 80, protocol: HTTP}"}, "apps", "missing"), false);
  const auto o = send(orphan, "GET http://a.example.com/");
  EXPECT_EQ(o.status, 404);
  ASSERT_EQ(o.reasons.size(), 2u);
  EXPECT_NE(o.reasons[1].find("Gateway Accepted=False (Pending): GatewayClass 'missing' not found"), std::string::npos) << o.reasons[1];
}

// Every way a request ends has its own outcome, so that status 0 is never read as a status:
// nothing on port 9 -> connection_refused; HTTPS on 443 where the only listener takes a.example.com
// and SNI is b.example.com -> tls_handshake_failed, with tls_error; HTTP to a path no rule takes
// -> not_found (404); the open Gateway's rule to a missing Service -> backend_error (500).
TEST(GatewayListeners, EveryOutcomeIsNamed) {
  const auto f = load(gateway({"{name: tls, port: 443, protocol: HTTPS, hostname: a.example.com, tls: {certificateRefs: [{name: s}]}}"},
                              "apps") +
                          document("v1", "Secret", "name: s, namespace: apps", "type: kubernetes.io/tls\n"),
                      false);
  const auto refused = send(f, "GET http://a.example.com:9/");
  EXPECT_EQ(refused.status, 0);
  EXPECT_EQ(to_string(refused.outcome), "connection_refused");
  const auto tls = send(f, "GET https://b.example.com/");
  EXPECT_EQ(tls.status, 0);
  EXPECT_EQ(to_string(tls.outcome), "tls_handshake_failed");
  EXPECT_EQ(tls.tls_error, "no programmed HTTPS listener of Gateway apps/gw on port 443 takes SNI 'b.example.com'");
  const auto open = load(route("x", rules({rule("{path: {value: /api}}", to("missing"))})));
  EXPECT_EQ(to_string(send(open, "GET http://h/other").outcome), "not_found");
  const auto broken = send(open, "GET http://h/api");
  EXPECT_EQ(broken.status, 500);
  EXPECT_EQ(to_string(broken.outcome), "backend_error");
  EXPECT_EQ(to_string(send(load(route("y", rules({rule("", to("a"))}))), "GET http://h/").outcome), "forwarded");
}

// Shadowed rules: rule 1 of "late" (PathPrefix /api/v1, created later) can never be reached when
// "early" (older) has PathPrefix /api/v1 too: every request it matches goes to early. Rule 0 of
// "late" (Exact /api/v1/x) is reachable (Exact beats PathPrefix).
TEST(GatewayRoutes, ShadowedRules) {
  const std::string older = ", creationTimestamp: '2024-01-01T00:00:00Z'";
  const std::string newer = ", creationTimestamp: '2024-02-01T00:00:00Z'";
  const std::string exact_x = rule("{path: {type: Exact, value: /api/v1/x}}", to("b"));
  const auto f = load(route("early", rules({rule("{path: {value: /api/v1}}", to("a"))}), older) +
                      route("late", rules({exact_x, rule("{path: {value: /api/v1/}, method: GET}, {path: {value: /api/v1/users}}", to("b"))}),
                            newer));
  // late rule 1: its match "PathPrefix /api/v1/ + GET" is covered by early (ties on path length 8
  // vs 7? no: "/api/v1/" is longer, so it precedes early and is NOT shadowed).
  ASSERT_TRUE(f.g.shadowed.empty()) << f.m.routes[f.g.shadowed[0].route].meta.name;
  const auto g = load(route("early", rules({rule("{path: {value: /api/v1}}", to("a"))}), older) +
                      route("late", rules({exact_x, rule("{path: {value: /api/v1}}, {path: {value: /api/v1/users}}", to("b"))}), newer));
  // Now match 0 ties with early and loses on age; match 1 (/api/v1/users, 13 characters) precedes
  // early and is reachable: the rule is not shadowed as a whole.
  EXPECT_TRUE(g.g.shadowed.empty());
  const auto h = load(route("early", rules({rule("{path: {value: /api}}", to("a"))}), older) +
                      route("late", rules({rule("{path: {value: /api}, headers: [{name: x, value: y}]}", to("b")),
                                           rule("{path: {value: /api}}", to("b"))}),
                            newer));
  // late rule 0 has a header match: it precedes early (1 header > 0), reachable. late rule 1 is
  // identical to early and younger: shadowed by early rule 0.
  ASSERT_EQ(h.g.shadowed.size(), 1u);
  EXPECT_EQ(h.m.routes[h.g.shadowed[0].route].meta.name, "late");
  EXPECT_EQ(h.g.shadowed[0].rule, 1u);
  EXPECT_EQ(h.m.routes[h.g.shadowed[0].by_route].meta.name, "early");
}

// RegularExpression path matches: "Since RegularExpression HTTPPathMatch has implementation-specific
// conformance, implementations can support POSIX, PCRE or any other dialects of regular
// expressions." and "Note: The precedence of RegularExpression path matches are
// implementation-specific." This model: RE2, the whole path must match, ranked after Exact and
// before PathPrefix (route_regex.h, gateway_routes.h). Route x: rule 0 PathPrefix /api, rule 1
// RegularExpression /api/v[0-9]+/.*, rule 2 Exact /api/v2/health.
//   GET /api/v2/users   -> rule 1 (the regex matches the whole path and ranks before PathPrefix);
//   GET /api/v2         -> rule 0 (the regex needs "/..." after the version: no full match);
//   GET /api/vx/users   -> rule 0 ("vx" is not v + digits);
//   GET /api/v2/health  -> rule 2 (Exact beats the regex);
//   GET /xapi/v2/users  -> 404 (full match: the regex is anchored at the path's start).
TEST(GatewayRegularExpression, PathRegexIsRe2FullMatchRankedBetweenExactAndPrefix) {
  const auto f = load(route("x", rules({rule("{path: {type: PathPrefix, value: /api}}", to("a")),
                                        rule("{path: {type: RegularExpression, value: '/api/v[0-9]+/.*'}}", to("b")),
                                        rule("{path: {type: Exact, value: /api/v2/health}}", to("c"))})));
  expect_routes(f, {{"GET http://h/api/v2/users", {}, "x 1"},
                    {"GET http://h/api/v2", {}, "x 0"},
                    {"GET http://h/api/vx/users", {}, "x 0"},
                    {"GET http://h/api/v2/health", {}, "x 2"},
                    {"GET http://h/xapi/v2/users", {}, "", 404}});
  const auto d = send(f, "GET http://h/api/v2/users");
  bool explained = false;
  for (const auto& r : d.reasons) explained |= r.find("RegularExpression /api/v[0-9]+/.* beats PathPrefix /api") != std::string::npos;
  EXPECT_TRUE(explained);
}

// Header and query param RegularExpression matches: "RegularExpression: Implementation-specific"
// (HeaderMatchType, QueryParamMatchType); names stay case-insensitive for headers ("Name matching
// MUST be case-insensitive") and exact for query params. Rule 0: header X-Version ~ v[0-9]+;
// rule 1: query "id" ~ [a-f0-9]{4}. X-VERSION: v12 -> rule 0; X-Version: v1a -> no header match;
// ?id=beef -> rule 1; ?id=BEEF -> 404 (case-sensitive); ?id=beef0 -> 404 (whole value).
TEST(GatewayRegularExpression, HeaderAndQueryRegexMatchTheWholeValue) {
  const auto f = load(route("x", rules({rule("{headers: [{type: RegularExpression, name: x-version, value: 'v[0-9]+'}]}", to("a")),
                                        rule("{queryParams: [{type: RegularExpression, name: id, value: '[a-f0-9]{4}'}]}", to("b"))})));
  expect_routes(f, {{"GET http://h/", {"X-VERSION: v12"}, "x 0"},
                    {"GET http://h/", {"X-Version: v1a"}, "", 404},
                    {"GET http://h/?id=beef", {}, "x 1"},
                    {"GET http://h/?id=BEEF", {}, "", 404},
                    {"GET http://h/?id=beef0", {}, "", 404}});
}

// A regular expression RE2 cannot compile: the controller cannot program the rule, so the route is
// not accepted (Accepted False, reason UnsupportedValue, the upstream RouteReasonUnsupportedValue),
// attached nowhere, and its requests get 404.
TEST(GatewayRegularExpression, InvalidRegexIsNotAccepted) {
  const auto f = load(route("x", rules({rule("{path: {type: RegularExpression, value: '/a(b'}}", to("a"))})));
  const auto& p = parent_status(f, "x");
  EXPECT_FALSE(p.accepted());
  EXPECT_EQ(p.conditions[0].reason, "UnsupportedValue");
  EXPECT_NE(p.conditions[0].message.find("t.yaml:"), std::string::npos) << p.conditions[0].message;
  ASSERT_EQ(f.g.unattached_routes.size(), 1u);
  expect_routes(f, {{"GET http://h/ab", {}, "", 404}});
}

// ReplacePrefixMatch, the table of HTTPPathModifier (httproute_types.go), row by row:
//   Request Path | Prefix Match | Replace Prefix | Modified Path
//   /foo/bar     | /foo         | /xyz           | /xyz/bar
//   /foo/bar     | /foo         | /xyz/          | /xyz/bar
//   /foo/bar     | /foo/        | /xyz           | /xyz/bar
//   /foo/bar     | /foo/        | /xyz/          | /xyz/bar
//   /foo         | /foo         | /xyz           | /xyz
//   /foo/        | /foo         | /xyz           | /xyz/
//   /foo/bar     | /foo         | <empty string> | /bar
//   /foo/        | /foo         | <empty string> | /
//   /foo         | /foo         | <empty string> | /
//   /foo/        | /foo         | /              | /
//   /foo         | /foo         | /              | /
TEST(GatewayFilters, ReplacePrefixMatchTable) {
  const char* rows[][4] = {{"/foo/bar", "/foo", "/xyz", "/xyz/bar"}, {"/foo/bar", "/foo", "/xyz/", "/xyz/bar"},
                           {"/foo/bar", "/foo/", "/xyz", "/xyz/bar"}, {"/foo/bar", "/foo/", "/xyz/", "/xyz/bar"},
                           {"/foo", "/foo", "/xyz", "/xyz"},         {"/foo/", "/foo", "/xyz", "/xyz/"},
                           {"/foo/bar", "/foo", "", "/bar"},         {"/foo/", "/foo", "", "/"},
                           {"/foo", "/foo", "", "/"},                {"/foo/", "/foo", "/", "/"},
                           {"/foo", "/foo", "/", "/"}};
  for (const auto& row : rows) {
    EXPECT_EQ(replace_prefix_match(row[1], row[2], row[0]), row[3]) << row[0] << " " << row[1] << " " << row[2];
  }
}

// URLRewrite: "Hostname is the value to be used to replace the Host header value during
// forwarding." and "ReplaceFullPath specifies the value with which to replace the full path of a
// request during a rewrite or redirect." Rule 0 (PathPrefix /old, ReplacePrefixMatch /new,
// hostname internal.example.com): GET /old/page?x=1 reaches Service a as GET /new/page?x=1 with
// Host internal.example.com. Rule 1 (Exact /legacy, ReplaceFullPath /v2/index): /legacy -> /v2/index.
TEST(GatewayFilters, UrlRewriteHostnameAndPath) {
  const auto f = load(route(
      "x", rules({rule("{path: {value: /old}}", to("a"),
                       "{type: URLRewrite, urlRewrite: {hostname: internal.example.com, path: {type: ReplacePrefixMatch, replacePrefixMatch: /new}}}"),
                  rule("{path: {type: Exact, value: /legacy}}", to("b"),
                       "{type: URLRewrite, urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /v2/index}}}")})));
  const auto d = send(f, "GET http://shop.example.com/old/page?x=1");
  ASSERT_EQ(d.status, 200);
  ASSERT_TRUE(d.forwarded);
  EXPECT_EQ(d.upstream.path, "/new/page");
  EXPECT_EQ(d.upstream.host, "internal.example.com");
  EXPECT_EQ(describe_upstream_request(d.upstream), "GET /new/page?x=1, Host: internal.example.com");
  const auto e = send(f, "GET http://shop.example.com/legacy");
  EXPECT_EQ(e.upstream.path, "/v2/index");
  EXPECT_EQ(e.upstream.host, "shop.example.com");
}

// RequestHeaderModifier, the three examples of HTTPHeaderFilter:
//   set:    "Input: GET /foo HTTP/1.1 my-header: foo ... set: name my-header value bar ...
//            Output: GET /foo HTTP/1.1 my-header: bar"
//   add:    "Input: GET /foo HTTP/1.1 my-header: foo ... add: name my-header value bar,baz ...
//            Output: GET /foo HTTP/1.1 my-header: foo,bar,baz"
//   remove: "Input: GET /foo HTTP/1.1 my-header1: foo my-header2: bar my-header3: baz ... remove:
//            [my-header1, my-header3] ... Output: GET /foo HTTP/1.1 my-header2: bar"
// Header names are case-insensitive, so My-Header in the request is the same header.
TEST(GatewayFilters, RequestHeaderModifierSetAddRemove) {
  const auto modify = [](const std::string& path, const std::string& modifier) {
    return rule("{path: {value: " + path + "}}", to("a"),
                "{type: RequestHeaderModifier, requestHeaderModifier: {" + modifier + "}}");
  };
  const auto f = load(route("x", rules({modify("/set", "set: [{name: my-header, value: bar}]"),
                                        modify("/add", "add: [{name: my-header, value: 'bar,baz'}]"),
                                        modify("/remove", "remove: [my-header1, my-header3]")})));
  using H = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(send(f, "GET http://h/set", {"My-Header: foo"}).upstream.headers, (H{{"my-header", "bar"}}));
  EXPECT_EQ(send(f, "GET http://h/add", {"my-header: foo"}).upstream.headers, (H{{"my-header", "foo,bar,baz"}}));
  EXPECT_EQ(send(f, "GET http://h/add").upstream.headers, (H{{"my-header", "bar,baz"}}));
  EXPECT_EQ(send(f, "GET http://h/remove", {"my-header1: foo", "my-header2: bar", "MY-HEADER3: baz"}).upstream.headers,
            (H{{"my-header2", "bar"}}));
}

// RequestRedirect: "Scheme is the scheme to be used in the value of the `Location` header in the
// response. When empty, the scheme of the request is used." "If redirect scheme is not-empty, the
// redirect port MUST be the well-known port associated with the redirect scheme. Specifically
// "http" to port 80 and "https" to port 443. ... If redirect scheme is empty, the redirect port
// MUST be the Gateway Listener port." "Implementations SHOULD NOT add the port number in the
// 'Location' header in the following cases: * A Location header that will use HTTP ... and use
// port 80. * A Location header that will use HTTPS ... and use port 443." statusCode defaults to 302.
//   rule 0 (/secure, scheme https, 301):     GET http://h.example.com/secure/a?x=1
//                                            -> 301 https://h.example.com/secure/a?x=1
//   rule 1 (/moved, hostname new.example.com, ReplacePrefixMatch /here): listener port 80, scheme
//          empty -> port 80, not written:    GET /moved/b -> 302 http://new.example.com/here/b
//   rule 2 (/alt, port 8443, ReplaceFullPath /): -> 302 http://h.example.com:8443/
// The same rule 1 on a listener on port 8080: the port is the listener's -> http://new.example.com:8080/here/b.
TEST(GatewayFilters, RequestRedirectLocation) {
  const auto redirect = [](const std::string& path, const std::string& how) {
    return rule("{path: {value: " + path + "}}", "", "{type: RequestRedirect, requestRedirect: {" + how + "}}");
  };
  const std::string body =
      rules({redirect("/secure", "scheme: https, statusCode: 301"),
             redirect("/moved", "hostname: new.example.com, path: {type: ReplacePrefixMatch, replacePrefixMatch: /here}"),
             redirect("/alt", "port: 8443, path: {type: ReplaceFullPath, replaceFullPath: /}")});
  const auto f = load(route("x", body));
  const auto a = send(f, "GET http://h.example.com/secure/a?x=1");
  EXPECT_EQ(a.status, 301);
  EXPECT_EQ(a.location, "https://h.example.com/secure/a?x=1");
  EXPECT_FALSE(a.forwarded);
  const auto b = send(f, "GET http://h.example.com/moved/b");
  EXPECT_EQ(b.status, 302);
  EXPECT_EQ(b.location, "http://new.example.com/here/b");
  EXPECT_EQ(send(f, "GET http://h.example.com/alt/c").location, "http://h.example.com:8443/");
  const auto g = load(gateway({"{name: http, port: 8080, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}"}) + route("x", body),
                      false);
  EXPECT_EQ(send(g, "GET http://h.example.com:8080/moved/b").location, "http://new.example.com:8080/here/b");
}

// RequestMirror: "Requests are sent to the specified destination, but responses from that
// destination are ignored." The request still goes to its backend (200 via a); the mirror target
// is listed; a mirror to a missing Service makes ResolvedRefs False BackendNotFound.
TEST(GatewayFilters, RequestMirror) {
  const auto mirror = [](const std::string& service) {
    return "{type: RequestMirror, requestMirror: {backendRef: " + to(service) + "}}";
  };
  const auto f = load(route("x", rules({rule("", to("a"), mirror("b"))})));
  const auto d = send(f, "GET http://h/");
  EXPECT_EQ(d.status, 200);
  ASSERT_EQ(d.mirrors.size(), 1u);
  EXPECT_EQ(d.mirrors[0].service, "apps/b");
  EXPECT_TRUE(d.mirrors[0].valid);
  EXPECT_TRUE(parent_status(f, "x").conditions[1].status);
  const auto g = load(route("x", rules({rule("", to("a"), mirror("gone"))})));
  EXPECT_EQ(parent_status(g, "x").conditions[1].reason, "BackendNotFound");
  EXPECT_FALSE(send(g, "GET http://h/").mirrors.at(0).valid);
}

// "All filters are expected to be compatible with each other except for the URLRewrite and
// RequestRedirect filters, which may not be combined. ... implementations may use the
// `IncompatibleFilters` reason". "Specifying the same filter multiple times is not supported
// unless explicitly indicated in the filter." And ReplacePrefixMatch: "Using any other
// HTTPRouteMatch type on the same HTTPRouteRule will result in the implementation setting the
// Accepted Condition for the Route to `status: False`."
TEST(GatewayFilters, IncompatibleFiltersAreNotAccepted) {
  const auto f = load(route("x", rules({rule("", "", "{type: RequestRedirect, requestRedirect: {scheme: https}}, "
                                                    "{type: URLRewrite, urlRewrite: {hostname: y}}")})));
  EXPECT_EQ(parent_status(f, "x").conditions[0].reason, "IncompatibleFilters");
  const auto g = load(route("x", rules({rule("", to("a"), "{type: URLRewrite, urlRewrite: {hostname: y}}, "
                                                          "{type: URLRewrite, urlRewrite: {hostname: z}}")})));
  EXPECT_EQ(parent_status(g, "x").conditions[0].reason, "IncompatibleFilters");
  const auto h = load(route("x", rules({rule("{path: {type: Exact, value: /a}}", to("a"),
                                             "{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /b}}}")})));
  EXPECT_EQ(parent_status(h, "x").conditions[0].reason, "UnsupportedValue");
  // Two mirrors are allowed ("This filter can be used multiple times within the same rule").
  const auto k = load(route("x", rules({rule("", to("a"), "{type: RequestMirror, requestMirror: {backendRef: " + to("b") + "}}, "
                                                          "{type: RequestMirror, requestMirror: {backendRef: " + to("c") + "}}")})));
  EXPECT_TRUE(parent_status(k, "x").accepted());
  EXPECT_EQ(send(k, "GET http://h/").mirrors.size(), 2u);
}

// The reader knows the filter kinds of HTTPRouteFilter by their type and the one field that
// configures each; a type it does not know is an error naming the six it reads, and the messages
// of the conflicts name the kinds as written (gateway_filters.h). The URLRewrite + RequestRedirect
// message is the one the IncompatibleFilters test above provokes.
TEST(GatewayFilters, ReaderNamesTheKindsItReads) {
  const auto bad = parse_manifests({{"t.yaml", kBase + kOpenGateway + route("x", rules({rule("", to("a"), "{type: CORS, cors: {}}")}))}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(format_diagnostics(bad.errors())
                .find("expected RequestHeaderModifier, ResponseHeaderModifier, RequestMirror, RequestRedirect, URLRewrite or "
                      "ExtensionRef, got 'CORS'"),
            std::string::npos)
      << format_diagnostics(bad.errors());
  const auto f = load(route("x", rules({rule("", "", "{type: RequestRedirect, requestRedirect: {scheme: https}}, "
                                                    "{type: URLRewrite, urlRewrite: {hostname: y}}")})));
  EXPECT_NE(parent_status(f, "x").conditions[0].message.find("has both URLRewrite and RequestRedirect, which may not be combined"),
            std::string::npos);
  const auto g = load(route("x", rules({rule("", to("a"), "{type: RequestHeaderModifier, requestHeaderModifier: {remove: [x]}}, "
                                                          "{type: RequestHeaderModifier, requestHeaderModifier: {remove: [y]}}")})));
  EXPECT_NE(parent_status(g, "x").conditions[0].message.find("has the filter RequestHeaderModifier 2 times"), std::string::npos);
}

}  // namespace
}  // namespace ct
