// clustertwin topology SPEC [--format json|dot] [-o FILE] [--catalog DIR]
// Builds the physical topology of a spec and writes it as JSON or Graphviz DOT.
#include <memory>
#include <string>

#include "cli/command.h"
#include "io/loaders.h"
#include "report/topology_export.h"
#include "topology/builder.h"

namespace ct::cli {
namespace {

struct TopologyOptions {
  CommonOptions common;
  std::string spec_path;
  std::string format = "json";
};

int run_topology(const TopologyOptions& options) {
  auto catalog = load_catalog(options.common.catalog_dir);
  if (!catalog) return report_errors(catalog.errors());
  auto spec = load_spec(options.spec_path, catalog.value());
  if (!spec) return report_errors(spec.errors());
  if (const Diagnostics problems = check_buildable(spec.value()); !problems.empty()) return report_errors(problems);
  const Topology topology = build_topology(spec.value(), catalog.value());
  const std::string text =
      options.format == "dot" ? to_dot(topology) : to_json(topology, catalog.value());
  return emit(options.common.output, text);
}

}  // namespace

Runner setup_topology(CLI::App& app) {
  auto options = std::make_shared<TopologyOptions>();
  app.add_option("spec", options->spec_path, "Cluster spec (YAML)")->required();
  app.add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"json", "dot"}))
      ->capture_default_str();
  add_common_options(app, options->common);
  return [options] { return run_topology(*options); };
}

}  // namespace ct::cli
