// clustertwin routes MANIFESTS... [--json] [-o FILE]
//   The effective route table of every Gateway listener in precedence order, each route's status
//   conditions, shadowed rules, routes attached nowhere and the kinds that were ignored.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "frontend/gateway_routes.h"
#include "io/manifest_files.h"
#include "report/gateway_report.h"

namespace ct::cli {
namespace {

struct RoutesOptions {
  std::vector<std::string> manifests;
  bool json = false;
  std::string output;
};

int run_routes(const RoutesOptions& o) {
  auto m = load_manifests(o.manifests);
  if (!m) return report_errors(m.errors());
  std::cerr << format_diagnostics(m->warnings);
  const GatewayModel g = build_gateway_model(m.value());
  return emit(o.output, o.json ? route_table_json(m.value(), g) : route_table_text(m.value(), g));
}

}  // namespace

Runner setup_routes(CLI::App& app, Context& /*context*/) {
  auto o = std::make_shared<RoutesOptions>();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_flag("--json", o->json, "JSON instead of text");
  add_output_option(app, o->output);
  return [o](const Context&) { return run_routes(*o); };
}

}  // namespace ct::cli
