// clustertwin routes MANIFESTS... [--json] [-o FILE] [--html FILE]
//   The effective route table of every Gateway listener in precedence order, each route's status
//   conditions, shadowed rules, routes attached nowhere and the kinds that were ignored; --html the
//   page with the rules per hostname and the problems by kind as plots (report/gateway_html.h).
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

struct RoutesOptions {
  std::vector<std::string> manifests;
  bool json = false;
  std::string output;
  std::string html;
};

int run_routes(const RoutesOptions& o, const Context& context) {
  auto m = load_manifests(o.manifests);
  if (!m) return report_errors(m.errors());
  std::cerr << format_diagnostics(m->warnings);
  const GatewayModel g = build_gateway_model(m.value());
  return emit_report(o.output, o.json ? route_table_json(m.value(), g) : route_table_text(m.value(), g), o.html,
                     [&] { return route_table_html(m.value(), g, context.command_line); });
}

}  // namespace

Runner setup_routes(CLI::App& app, Context& /*context*/) {
  auto o = std::make_shared<RoutesOptions>();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_flag("--json", o->json, "JSON instead of text");
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_routes(*o, c); };
}

}  // namespace ct::cli
