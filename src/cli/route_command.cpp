// clustertwin route MANIFESTS... --request 'GET https://host/path?q' [-H 'Name: value']... [--port N]
//                 [--gateway NS/NAME] [--json] [-o FILE] [--html FILE]
//   Which Gateway listener, HTTPRoute rule and backends take one request, and why (Gateway API v1
//   precedence, src/frontend/gateway_routes.h); --html the page with the decision path drawn
//   (report/gateway_html.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "frontend/gateway_routes.h"
#include "io/manifest_files.h"
#include "report/gateway_html.h"
#include "report/gateway_report.h"

namespace ct::cli {
namespace {

struct RouteOptions {
  std::vector<std::string> manifests;
  std::string request;
  std::vector<std::string> headers;
  int port = 0;
  std::string gateway;
  bool json = false;
  std::string output;
  std::string html;
};

int run_route(const RouteOptions& o, const Context& context) {
  auto m = load_manifests(o.manifests);
  if (!m) return report_errors(m.errors());
  std::cerr << format_diagnostics(m->warnings);
  auto request = parse_request(o.request, o.headers, o.port);
  if (!request) return report_errors(request.errors());
  if (const std::string wrong = unknown_gateway(m.value(), o.gateway); !wrong.empty()) {
    return report_errors({flag_error("--gateway", wrong)});
  }
  const GatewayModel g = build_gateway_model(m.value());
  const RouteDecision d = resolve_request(m.value(), g, request.value(), o.gateway);
  return emit_report(o.output,
                     o.json ? route_decision_json(m.value(), g, request.value(), d)
                            : route_decision_text(m.value(), g, request.value(), d),
                     o.html, [&] { return route_decision_html(m.value(), g, request.value(), d, context.command_line); });
}

}  // namespace

Runner setup_route(CLI::App& app, Context& /*context*/) {
  auto o = std::make_shared<RouteOptions>();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_option("--request", o->request, "The request: '[METHOD] http(s)://host[:port]/path[?query]'")->required();
  app.add_option("-H,--header", o->headers, "A request header 'Name: value' (repeatable; Host overrides the URL's host)");
  app.add_option("--port", o->port, "The port the request arrives on (default: from the URL)")->check(CLI::Range(1, 65535));
  app.add_option("--gateway", o->gateway, "The Gateway (NAME or NS/NAME) when several listen on the port");
  app.add_flag("--json", o->json, "JSON instead of text");
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_route(*o, c); };
}

}  // namespace ct::cli
