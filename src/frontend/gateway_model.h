// The Gateway API model as the router computes it (frontend/gateway_routes.h builds it and resolves
// requests on it; frontend/gateway_filters.h applies a rule's filters on it): status conditions,
// the route table per listener, a request, the backends it may reach and the decision; and the
// vocabulary both use: ReferenceGrants, hostname and path matches, and the labels of objects and
// matches that the reasons and reports print. Kept apart from the router so that the filters,
// which the router calls, do not include the router back.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frontend/manifests.h"

namespace ct {

struct Condition {
  std::string type;    // Accepted | ResolvedRefs | Programmed | Conflicted
  bool status = true;
  std::string reason;  // upstream reason names
  std::string message;
};

struct ListenerStatus {
  std::size_t gateway = 0;
  std::size_t listener = 0;
  std::vector<Condition> conditions;
  int attached_routes = 0;
  [[nodiscard]] bool programmed() const;
};

struct ListenerAttachment {
  std::size_t gateway = 0;
  std::size_t listener = 0;
  std::vector<std::string> hostnames;  // effective (intersected) hostnames; {""} = any
};

struct RouteParentStatus {
  std::size_t route = 0;
  std::size_t parent = 0;  // index into HttpRoute::parents
  std::vector<Condition> conditions;
  std::vector<ListenerAttachment> attachments;
  [[nodiscard]] bool accepted() const;
};

// One (hostname, match) of an attached rule, with its precedence key.
struct RouteEntry {
  std::size_t route = 0;
  std::size_t rule = 0;
  std::size_t match = 0;
  std::string hostname;  // effective; "" = any
  bool host_exact = false;
  std::size_t host_length = 0;
  bool path_exact = false;
  bool path_regex = false;       // RegularExpression: after Exact, before PathPrefix
  std::size_t path_length = 0;   // PathPrefix: the prefix's characters; RegularExpression: the pattern's
  bool has_method = false;
  std::size_t headers = 0;
  std::size_t query = 0;
};

struct ListenerTable {
  std::size_t gateway = 0;
  std::size_t listener = 0;
  std::vector<RouteEntry> entries;  // in precedence order
  // Ranges into entries by effective hostname (lower-case); wildcards keyed by their suffix
  // ".example.com"; the entries of "" (any host) under "".
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> exact, wildcard;
  std::pair<std::uint32_t, std::uint32_t> any{0, 0};
};

struct ShadowedRule {
  std::size_t route = 0;
  std::size_t rule = 0;
  std::size_t by_route = 0;  // the rule that takes every request this one could match
  std::size_t by_rule = 0;
  std::string listener;      // "ns/gateway/listener"
};

// The authentication step in front of one rule as reached through one listener (auth_coverage.h
// decides it: an ExtensionRef Middleware on the rule, else the most specific SecurityPolicy).
struct RuleAuth {
  std::size_t route = 0;
  std::size_t rule = 0;
  std::size_t listener = 0;   // index into GatewayModel::listeners
  bool covered = false;       // `policy` is the step every request of the rule passes
  std::size_t policy = 0;     // index into Manifests::auth_policies
  std::string via;            // how the policy is attached ("ExtensionRef filter (file:line)", ...)
  std::string problem;        // an authentication step that cannot work (the rule gets 500)
  std::vector<std::string> overridden;  // policies of lower precedence that would have applied
};

// What `routes` flags about authentication.
struct AuthFinding {
  enum class Kind { kUnprotected, kIdlePolicy, kConflict };
  Kind kind = Kind::kUnprotected;
  std::string subject;  // the rule or policy, with its file:line
  std::string message;
};

struct GatewayModel {
  std::vector<ListenerStatus> listeners;      // every listener of every Gateway, in file order
  std::vector<RouteParentStatus> parents;     // every parentRef of every HTTPRoute
  std::vector<std::vector<Condition>> gateway_conditions;  // per Gateway
  std::vector<ListenerTable> tables;          // one per listener (same order as `listeners`)
  std::vector<ShadowedRule> shadowed;
  std::vector<std::size_t> unattached_routes;  // routes accepted by no parent
  std::map<std::string, std::size_t> service_index;  // "ns/name" -> index into Manifests::services
  std::vector<RuleAuth> rule_auth;           // per (route, rule, listener) with a step or a problem
  std::vector<AuthFinding> auth_findings;    // unprotected rules, policies that cover nothing, conflicts
};

struct HttpRequest {
  std::string method = "GET";
  std::string scheme = "https";
  std::string host;  // Host header (lower-case, port stripped)
  std::string sni;   // TLS server name (https); the URL's host
  int port = 443;
  std::string path = "/";
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> headers;  // names as given
};

struct BackendChoice {
  std::size_t ref = 0;  // index into the rule's backends
  std::string service;  // "ns/name"
  int port = 0;
  int weight = 1;
  double share = 0;     // weight / total weight
  bool valid = true;
  std::string problem;  // why not valid (reason: message)
};

// What became of a request, so that a client reading `route --json` need not infer it from the
// status (which is 0 for both the first two):
//   kConnectionRefused   no Gateway listens on the port: no TCP connection, no HTTP status (0)
//   kTlsHandshakeFailed  an HTTPS request no programmed listener takes by its SNI: the handshake
//                        fails before HTTP, no HTTP status (0); RouteDecision::tls_error says why
//   kNotFound            404: no listener for the Host (HTTP), or no rule of the listener matches
//   kMisdirected         421: the Host would select another listener than the SNI did
//   kRedirect            301, 302, 303, 307 or 308 from a RequestRedirect filter (Location set)
//   kForwarded           200: sent to a backend (some weight may still go to invalid ones: 500s)
//   kAnsweredByFilter    200 from a filter that answers by itself (ExtensionRef), no backend
//   kBackendError        500: the rule's backends are all invalid, or it has none and no filter
enum class RouteOutcome {
  kConnectionRefused, kTlsHandshakeFailed, kNotFound, kMisdirected, kRedirect, kForwarded, kAnsweredByFilter, kBackendError
};
// "connection_refused", "tls_handshake_failed", "not_found", "misdirected", "redirect",
// "forwarded", "answered_by_filter", "backend_error".
std::string to_string(RouteOutcome o);

struct RouteDecision {
  int status = 404;  // 0 (no HTTP response: see outcome), 200, 301/302/303/307/308, 404, 421, 500
  RouteOutcome outcome = RouteOutcome::kNotFound;
  std::string tls_error;  // kTlsHandshakeFailed: the failure in one line (the reasons say more)
  bool has_gateway = false;
  std::size_t gateway = 0;
  bool has_listener = false;
  std::size_t listener = 0;
  bool has_entry = false;
  RouteEntry entry;
  std::vector<BackendChoice> backends;
  std::vector<std::string> reasons;  // the reasoning, in order
  bool forwarded = false;            // the request goes on to a backend
  HttpRequest upstream;              // the request as it reaches the backend, filters applied
  std::string location;              // RequestRedirect: the Location header
  std::vector<BackendChoice> mirrors;  // RequestMirror targets
};

// True when a ReferenceGrant in namespace to_ns lets objects of from_kind (from_group) in from_ns
// refer to the to_kind named to_name there (any name of that kind when the grant names none).
bool grant_allows(const Manifests& m, const std::string& from_kind, const std::string& from_group, const std::string& from_ns,
                  const std::string& to_kind, const std::string& to_ns, const std::string& to_name);

// Hostname helpers (exposed for tests and the TLS check).
bool hostname_matches(const std::string& pattern, const std::string& host);  // pattern "" = any
bool path_prefix_matches(const std::string& prefix, const std::string& path);
std::string listener_label(const Manifests& m, std::size_t gateway, std::size_t listener);
std::string route_label(const Manifests& m, std::size_t route);
std::string describe_match(const RouteMatch& match);
// "GET /path?query, Host: h, Name: value, ..." (the request line and headers as sent upstream).
std::string describe_upstream_request(const HttpRequest& r);

}  // namespace ct
