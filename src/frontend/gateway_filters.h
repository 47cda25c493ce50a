// Gateway API HTTPRoute filters (HTTPRouteFilter, gateway-api apis/v1/httproute_types.go), each
// kind in one place: the type name and the one field that configures it, how that field is read,
// whether a rule may hold it twice, the backend it sends to, and what it does to a request:
//   RequestHeaderModifier   the request's headers: set, then add, then remove
//   ResponseHeaderModifier  the response's headers; the request is unchanged
//   RequestMirror           a copy of the request to another backend, responses ignored
//   RequestRedirect         a 3xx with a Location; no backend is called
//   URLRewrite              the hostname; the path (ReplaceFullPath / ReplacePrefixMatch)
//   ExtensionRef            implementation-specific; a Traefik Middleware with forwardAuth is the
//                           authentication hop (auth_coverage.h); one that resolves to nothing
//                           fails the request (500); any other is not modelled, but may answer
//                           by itself
// Filters apply in list order. A rule a conformant controller refuses is Accepted False:
// URLRewrite with RequestRedirect, or one filter kind twice (but RequestMirror and ExtensionRef),
// is IncompatibleFilters; ReplacePrefixMatch on a rule with a match that is not PathPrefix is
// UnsupportedValue. Adding a filter kind: its row in the table of gateway_filters.cpp, its reader
// and its effect there, and its enumerator and fields in RouteFilter (manifests.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "frontend/gateway_model.h"
#include "frontend/manifest_reader.h"
#include "frontend/manifests.h"

namespace ct {

// One filter of a rule as written at `field` (its type and its configuration field).
RouteFilter read_filter(ManifestReader& r, const YamlValue& x, const std::string& field);

// Accepted False when a controller would refuse the filters of `rule` (rule number rule_index of
// its route, for the message); nullopt when it would accept them.
std::optional<Condition> filters_invalid(const RouteRule& rule, std::size_t rule_index);

// The backends the filters of `rule` send copies to (RequestMirror), in list order; their
// references resolve as the rule's backendRefs do.
std::vector<const BackendRef*> filter_backends(const RouteRule& rule);

// What the filters of the winning rule do to the request, in list order.
struct FilterEffect {
  HttpRequest upstream;                   // the request as it reaches the backend
  const RouteFilter* redirect = nullptr;  // the RequestRedirect that answers instead, if any
  bool responds = false;                  // a filter that may answer by itself (ExtensionRef)
  std::string failed;                     // a filter that fails every request (an unresolved ExtensionRef): 500
  std::vector<BackendChoice> mirrors;     // RequestMirror targets
  std::vector<std::string> reasons;       // one line per filter, in list order
};

// `matched` is the rule's match that took `request` (ReplacePrefixMatch replaces its prefix).
FilterEffect apply_filters(const Manifests& m, const GatewayModel& g, const HttpRoute& route, const RouteRule& rule,
                           const RouteMatch& matched, const HttpRequest& request);

// The RequestRedirect's answer: its Location, status and reason in `d`. "If redirect scheme is
// not-empty, the redirect port MUST be the well-known port associated with the redirect scheme
// ... If redirect scheme is empty, the redirect port MUST be the Gateway Listener port." No port
// in the Location for http:80 and https:443; the query is kept.
void apply_redirect(const RouteFilter& redirect, const HttpRequest& request, const RouteMatch& matched, int listener_port,
                    RouteDecision& d);

// A Traefik Middleware (traefik.io or traefik.containo.us) named by an ExtensionRef.
bool is_traefik_middleware(const ObjectRef& ref);

// HTTPPathModifier ReplacePrefixMatch: `path` matched PathPrefix `prefix`; its prefix becomes
// `replacement`, whole elements, trailing '/' of both ignored (the table in httproute_types.go).
std::string replace_prefix_match(const std::string& prefix, const std::string& replacement, const std::string& path);

}  // namespace ct
