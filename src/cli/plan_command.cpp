// clustertwin plan SPEC [--json] [-o FILE] [--catalog DIR]
// Builds the topology of a spec and sizes its backend fabric (plan/planner.h); prints the plan as
// text tables or JSON. Nothing is written when the spec or the catalog is bad.
#include <memory>
#include <string>

#include "cli/command.h"
#include "io/loaders.h"
#include "plan/planner.h"
#include "report/plan_report.h"
#include "topology/builder.h"

namespace ct::cli {
namespace {

struct PlanOptions {
  CommonOptions common;
  std::string spec_path;
  bool json = false;
};

int run_plan(const PlanOptions& options) {
  auto catalog = load_catalog(options.common.catalog_dir);
  if (!catalog) return report_errors(catalog.errors());
  auto spec = load_spec(options.spec_path, catalog.value());
  if (!spec) return report_errors(spec.errors());
  if (const Diagnostics problems = check_buildable(spec.value()); !problems.empty()) return report_errors(problems);
  const Topology topology = build_topology(spec.value(), catalog.value());
  const Plan result = plan(spec.value(), topology, catalog.value());
  return emit(options.common.output, options.json ? to_json(result) : to_text(result));
}

}  // namespace

Runner setup_plan(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  app.add_option("spec", options->spec_path, "Cluster spec (YAML)")->required();
  app.add_flag("--json", options->json, "Print JSON (stable key order) instead of tables");
  add_common_options(app, options->common);
  return [options] { return run_plan(*options); };
}

}  // namespace ct::cli
