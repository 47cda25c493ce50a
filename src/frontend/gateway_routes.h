// Gateway API v1 route resolution, offline: which Listener, HTTPRoute rule and backends take a
// request, the status conditions a conformant controller would write, and the rules that no request
// can ever reach. The rules and their sources (gateway-api apis/v1 httproute_types.go,
// gateway_types.go, shared_types.go; docs/models/gateway.md quotes them):
//   Attachment. A Route attaches to the Listeners its parentRef names (all of the Gateway's, or the
//   one sectionName / port picks) that allow its kind and namespace (allowedRoutes.namespaces.from:
//   Same, the default; All; Selector on the Route's Namespace labels) and whose hostname intersects
//   the Route's hostnames. "If both the Listener and HTTPRoute have specified hostnames, and none
//   match ... the HTTPRoute is not accepted" (reason NoMatchingListenerHostname).
//   Hostnames. "`*.example.com` would match both `test.example.com`, and `foo.test.example.com`,
//   but not `example.com`"; the port in Host is ignored; names compare case-insensitively.
//   Listener choice. Among the Gateway's Listeners on the request's port and protocol, the most
//   specific hostname wins: exact over wildcard, longer wildcard over shorter, any (empty) last.
//   For HTTPS the Listener is chosen by SNI; a Host that would pick another Listener gets 421.
//   Precedence. Across the Listener's attached rules, matches are ranked by: matching hostname
//   (non-wildcard characters, then characters), "Exact" path, "Prefix" path with the most
//   characters, method, most header matches, most query matches, the oldest Route, "{namespace}/
//   {name}" alphabetically, then the FIRST rule and match in list order. The first match that
//   the request satisfies wins; none gives 404.
//   RegularExpression matches (path, header and query values) are "Implementation-specific"; here
//   they are RE2, matching the whole value (route_regex.h), and a RegularExpression path ranks after
//   every Exact path and before every PathPrefix, longer patterns first (the spec: "the precedence
//   of RegularExpression path matches are implementation-specific").
//   Filters (gateway_filters.h), in list order: RequestHeaderModifier (set, then add, then remove), URLRewrite
//   (hostname; ReplaceFullPath / ReplacePrefixMatch), RequestMirror (a copy to another backend,
//   responses ignored), RequestRedirect (a 3xx with a Location, no backend); the decision carries
//   the request as it reaches the backend. URLRewrite with RequestRedirect, or one filter type twice
//   (but RequestMirror and ExtensionRef), is Accepted False IncompatibleFilters; ReplacePrefixMatch
//   on a rule with a match that is not PathPrefix, or a regex that does not compile, is Accepted
//   False UnsupportedValue.
//   Matching. PathPrefix compares whole '/'-separated elements and ignores a trailing '/'; Exact
//   is case-sensitive; header names are case-insensitive, header values and query names/values
//   case-sensitive; a rule's matches are ORed, a match's conditions ANDed; a rule without matches
//   matches PathPrefix "/".
//   Backends. A backendRef to another namespace needs a ReferenceGrant there (RefNotPermitted);
//   a missing Service is BackendNotFound; a kind other than Service is InvalidKind. Requests that
//   would go to an invalid backend get 500, as do requests matching a rule with no valid backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
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

struct GatewayModel {
  std::vector<ListenerStatus> listeners;      // every listener of every Gateway, in file order
  std::vector<RouteParentStatus> parents;     // every parentRef of every HTTPRoute
  std::vector<std::vector<Condition>> gateway_conditions;  // per Gateway
  std::vector<ListenerTable> tables;          // one per listener (same order as `listeners`)
  std::vector<ShadowedRule> shadowed;
  std::vector<std::size_t> unattached_routes;  // routes accepted by no parent
  std::map<std::string, std::size_t> service_index;  // "ns/name" -> index into Manifests::services
};

// PRECONDITION: the model is used with the same Manifests it was built from.
GatewayModel build_gateway_model(const Manifests& m);

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

// "GET https://app.example.com/api/v1?x=1" (method optional, default GET) with extra headers
// ("Name: value"; a Host header overrides the Host but not the SNI) and an optional port.
Result<HttpRequest> parse_request(const std::string& request, const std::vector<std::string>& headers, int port);

struct BackendChoice {
  std::size_t ref = 0;  // index into the rule's backends
  std::string service;  // "ns/name"
  int port = 0;
  int weight = 1;
  double share = 0;     // weight / total weight
  bool valid = true;
  std::string problem;  // why not valid (reason: message)
};

struct RouteDecision {
  int status = 404;  // 200 (forwarded), 404, 421, 500
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

// gateway_hint: "ns/name" or "name" to pick the Gateway; empty = the only Gateway with a Listener
// on the request's port (several: the first in file order, said in the reasons).
RouteDecision resolve_request(const Manifests& m, const GatewayModel& g, const HttpRequest& request,
                              const std::string& gateway_hint);

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
// HTTPPathModifier ReplacePrefixMatch: `path` matched PathPrefix `prefix`; its prefix becomes
// `replacement`, whole elements, trailing '/' of both ignored (the table in httproute_types.go).
std::string replace_prefix_match(const std::string& prefix, const std::string& replacement, const std::string& path);
// "GET /path?query, Host: h, Name: value, ..." (the request line and headers as sent upstream).
std::string describe_upstream_request(const HttpRequest& r);

}  // namespace ct
