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
// Pieces the text, JSON and HTML (gateway_html.h) share:
// "200 forwarded", "404 Not Found", ...
std::string status_word(int status);
// The decision's result for people: status_word, but "no HTTP response: the TLS handshake fails"
// where no listener takes an HTTPS request's SNI (status 0 there too).
std::string result_word(const RouteDecision& d);
// "Accepted=True (Accepted), Programmed=False (Invalid)".
std::string conditions_text(const std::vector<Condition>& cs);
// A rule's backendRefs as the route table prints them: "vllm:8000", "a:80 w3, b:80 w1", "(filters only)".
std::string rule_backends_text(const RouteRule& rule);
// "GET https://host/path?q (port 443, SNI host, Host host)".
std::string request_text(const HttpRequest& r);
// "Unknown kinds ignored: ..." lines, empty when there are none.
std::string unknown_kinds_text(const Manifests& m);

}  // namespace ct
