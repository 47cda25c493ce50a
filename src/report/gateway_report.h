// Reports of the Gateway API model: one request's route decision (`clustertwin route`) and the
// effective route table with status conditions and shadowed rules (`clustertwin routes`), as text
// and as JSON.
#pragma once

#include <string>

#include "frontend/gateway_routes.h"

namespace ct {

std::string route_decision_text(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d);
std::string route_decision_json(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d);
std::string route_table_text(const Manifests& m, const GatewayModel& g);
std::string route_table_json(const Manifests& m, const GatewayModel& g);
// "Unknown kinds ignored: ..." lines, empty when there are none.
std::string unknown_kinds_text(const Manifests& m);

}  // namespace ct
