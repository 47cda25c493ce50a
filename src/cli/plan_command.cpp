// clustertwin plan SPEC [--json] [-o FILE] [--html FILE] [--catalog DIR]
// Sizes the backend fabric of a spec (plan/planner.h) on its built Fabric; prints the plan as text
// tables or JSON. Nothing is written when the spec or the catalog is bad. Links the catalog has no
// optic or cable for are planned with a located warning on stderr (plan/media_gaps.h).
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "plan/planner.h"
#include "report/plan_report.h"

namespace ct::cli {
namespace {

struct PlanOptions {
  std::string output;
  std::string html;
  bool json = false;
};

int run_plan(const PlanOptions& options, const Context& context) {
  const Fabric& fabric = *context.fabric;
  const Plan result = plan(fabric.spec(), fabric.topology(), fabric.catalog());
  // Catalog gaps: the plan stands without those links' optics; said on stderr and in the report.
  for (const Diagnostic& w : result.warnings) std::cerr << format_diagnostic(w) << "\n";
  return emit_report(options.output, options.json ? to_json(result) : to_text(result), options.html,
                     [&] { return to_html(result, context.command_line); });
}

}  // namespace

Runner setup_plan(CLI::App& app, Context& context) {
  auto options = std::make_shared<PlanOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_flag("--json", options->json, "Print JSON (stable key order) instead of tables");
  add_output_option(app, options->output);
  add_html_option(app, options->html);
  return [options](const Context& c) { return run_plan(*options, c); };
}

}  // namespace ct::cli
