// Which authentication step covers each attached HTTPRoute rule (GatewayModel::rule_auth), and what
// `routes` flags about it (GatewayModel::auth_findings). The configurations are read by
// auth_manifests.h; the precedence is each project's own:
//   Traefik     an ExtensionRef filter on the rule naming a Middleware (group traefik.io or
//               traefik.containo.us) in the route's namespace; a Middleware with forwardAuth is the
//               step. One that resolves to nothing fails the rule: "If a reference to a custom
//               filter type cannot be resolved, the filter MUST NOT be skipped. Instead, requests
//               that would have been processed by that filter MUST receive a HTTP error response"
//               (Gateway API v1 HTTPRouteFilter.ExtensionRef); the model answers 500.
//   Envoy Gateway (v1.5 docs, SecurityPolicy "Precedence"): a policy targeting the rule (HTTPRoute
//               with sectionName = the rule's name) over one targeting the HTTPRoute, over one
//               targeting the listener (Gateway with sectionName = the listener's name), over one
//               targeting the Gateway; the more specific replaces the less specific (they are not
//               merged). Two at the same level: the oldest (creationTimestamp) wins, then
//               namespace/name alphabetically, and the other is reported as a conflict. A
//               SecurityPolicy only targets objects in its own namespace.
//   When a rule has both an ExtensionRef forwardAuth and a SecurityPolicy, the model follows the
//   ExtensionRef (a filter written on the rule itself) and lists the SecurityPolicy as overridden.
// Flags: a rule not covered on a hostname where every other rule (of the same listener, not
// shadowed, at least one) is covered ("probably meant to be protected"); a policy that covers no
// attached rule (with why: no such target, not attached, overridden everywhere, referenced by no
// ExtensionRef); two policies at the same level (conflict). Ingress paths (ingress-nginx auth-url)
// are not Gateway rules and are not listed here.
#pragma once

#include <cstddef>
#include <string>

#include "frontend/gateway_model.h"
#include "frontend/manifests.h"

namespace ct {

// Fills g.rule_auth and g.auth_findings.
// PRECONDITION: g's listeners, parents and tables (and shadowed rules) are built from m.
void cover_rules_with_auth(const Manifests& m, GatewayModel& g);

// The step (or problem) in front of rule `rule` of route `route` reached through listener
// `listener` (an index into g.listeners); nullptr when none.
const RuleAuth* find_rule_auth(const GatewayModel& g, std::size_t route, std::size_t rule, std::size_t listener);

// "extAuth HTTP", "extAuth gRPC", "OIDC", "forwardAuth", "auth-url".
std::string to_string(AuthPolicy::Type t);
// "SecurityPolicy apps/sso (extAuth HTTP)".
std::string auth_policy_label(const AuthPolicy& p);

}  // namespace ct
