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
#include "frontend/gateway_model.h"
#include "frontend/manifests.h"

namespace ct {

// PRECONDITION: the model is used with the same Manifests it was built from.
GatewayModel build_gateway_model(const Manifests& m);

// "GET https://app.example.com/api/v1?x=1" (method optional, default GET) with extra headers
// ("Name: value"; a Host header overrides the Host but not the SNI) and an optional port.
Result<HttpRequest> parse_request(const std::string& request, const std::vector<std::string>& headers, int port);

// gateway_hint: "ns/name" or "name" to pick the Gateway; empty = the only Gateway with a Listener
// on the request's port (several: the first in file order, said in the reasons).
RouteDecision resolve_request(const Manifests& m, const GatewayModel& g, const HttpRequest& request,
                              const std::string& gateway_hint);

// "" when gateway_hint is empty or names a Gateway of the manifests ("ns/name" or "name"); else
// what is wrong with it, the nearest Gateway suggested (core/suggest.h) or, with none near, the
// Gateways there are: "no Gateway 'edg' in the manifests (did you mean 'infra/edge'?)". A hint
// that names nothing is bad input, never a refused connection.
std::string unknown_gateway(const Manifests& m, const std::string& gateway_hint);

}  // namespace ct
