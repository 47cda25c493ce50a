// Lint rules of the routes family: shadowed and conflicting rules, hostnames no listener takes.
// Both read the Gateway model's own verdicts (frontend/gateway_routes.h).
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/gateway_routes.h"
#include "lint/lint_checks.h"
#include "lint/lint_query.h"

namespace ct {

namespace {

std::string matches_text(const RouteRule& r) {
  if (r.matches.empty()) return "PathPrefix /";
  std::vector<std::string> out;
  for (const auto& m : r.matches) out.push_back(describe_match(m));
  return fmt::format("{}", fmt::join(out, " or "));
}

}  // namespace

void check_route_shadowed(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const ShadowedRule& s : c.model.gateways.shadowed) {
    const HttpRoute& route = m.routes[s.route];
    const HttpRoute& by = m.routes[s.by_route];
    const RouteRule& mine = route.rules[s.rule];
    const RouteRule& theirs = by.rules[s.by_rule];
    const bool identical = matches_text(mine) == matches_text(theirs) && s.route != s.by_route;
    std::string title = fmt::format("{} rule {} ({}) on listener {} is {} HTTPRoute {} rule {} ({})", object_label(route.meta), s.rule,
                                    matches_text(mine), s.listener, identical ? "in conflict with" : "shadowed by",
                                    route_label(m, s.by_route), s.by_rule, matches_text(theirs));
    std::string consequence =
        identical ? fmt::format("the two routes claim the same requests; {} wins only by being older (or by name), so which backend "
                                "answers changes when a route is re-created",
                                route_label(m, s.by_route))
                  : "no request ever reaches this rule's backends";
    out.push_back(rule.finding(std::move(title), {{object_label(route.meta), mine.where}, {object_label(by.meta), theirs.where}},
                               std::move(consequence),
                               identical ? "delete one of the two rules, or give them different matches"
                                         : "narrow the shadowing rule's match or remove this rule"));
  }
}

void check_route_hostname_unaccepted(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const RouteParentStatus& ps : c.model.gateways.parents) {
    const bool refused = std::any_of(ps.conditions.begin(), ps.conditions.end(), [](const Condition& k) {
      return k.type == "Accepted" && !k.status && k.reason == "NoMatchingListenerHostname";
    });
    if (!refused) continue;
    const HttpRoute& route = m.routes[ps.route];
    const ParentRef& p = route.parents[ps.parent];
    const std::string gns = p.ref.ns.empty() ? route.meta.ns : p.ref.ns;
    std::vector<std::string> listeners;
    std::vector<LintObject> objects{{object_label(route.meta), route.meta.where}};
    if (const Gateway* g = m.find_gateway(gns, p.ref.name)) {
      for (const auto& l : g->listeners) {
        if (!p.section.empty() && l.name != p.section) continue;
        listeners.push_back(fmt::format("{} ({})", l.name, l.hostname.empty() ? "any" : l.hostname));
        objects.push_back({fmt::format("Gateway {}/{} listener {}", gns, p.ref.name, l.name), l.where});
      }
    }
    out.push_back(rule.finding(
        fmt::format("{} hostnames [{}] match no hostname of its parent's listeners: {}", object_label(route.meta),
                    fmt::join(route.hostnames, ", "), fmt::join(listeners, ", ")),
        std::move(objects),
        "the route is not accepted (NoMatchingListenerHostname): every request for these names gets 404 or the wrong listener",
        fmt::format("add a listener for {} to Gateway {}/{}, or change the route's hostnames to one a listener takes",
                    route.hostnames.empty() ? std::string("the name") : route.hostnames.front(), gns, p.ref.name)));
  }
}

}  // namespace ct
