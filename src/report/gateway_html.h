// `clustertwin routes --html FILE` and `clustertwin route --html FILE`: the Gateway API model
// (frontend/gateway_routes.h) as self-contained pages (report/html/html_document.h), all read from
// the model and the decision (nothing is recomputed):
//   routes  the listeners with their status, the effective route table of each listener, the
//           routes' status, shadowed rules, routes attached nowhere and ignored kinds as tables;
//           plots: the rules per hostname (table entries by effective hostname, "*any*" for none)
//           and the problems by kind (a listener or Gateway condition that is Conflicted=True or
//           any other type False, a route condition False, a shadowed rule, a route attached
//           nowhere: one bar per kind, its count);
//   route   the decision path as a step diagram (request, Gateway, listener among those on the
//           request's port, rule, backends, result; coloured by outcome), the decision's facts,
//           the backends' shares of the requests as bars, and the reasons in order;
// each followed by its text report.
// Test hooks: routes: plots "rules-per-hostname", "problems"; tables "summary", "listeners",
// "route-table", "routes", "shadowed", "unattached". route: plots "decision-path" (ct-step ids
// request, gateway, listener, rule, backends, result), "backend-shares"; tables "decision",
// "backends", "reasons". Pure functions: same model, same bytes.
#pragma once

#include <string>

#include "frontend/gateway_routes.h"

namespace ct {

std::string route_table_html(const Manifests& m, const GatewayModel& g, const std::string& command_line);
std::string route_decision_html(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d,
                                const std::string& command_line);

}  // namespace ct
