// clustertwin topology SPEC [--format json|dot] [-o FILE] [--catalog DIR]
// Writes the physical topology of a spec's Fabric as JSON or Graphviz DOT.
#include <memory>
#include <string>

#include "cli/command.h"
#include "report/topology_export.h"

namespace ct::cli {
namespace {

struct TopologyOptions {
  std::string output;
  std::string format = "json";
};

int run_topology(const TopologyOptions& options, const Context& context) {
  const Fabric& fabric = *context.fabric;
  const std::string text =
      options.format == "dot" ? to_dot(fabric.topology()) : to_json(fabric.topology(), fabric.catalog());
  return emit(options.output, text);
}

}  // namespace

Runner setup_topology(CLI::App& app, Context& context) {
  auto options = std::make_shared<TopologyOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"json", "dot"}))
      ->capture_default_str();
  add_output_option(app, options->output);
  return [options](const Context& c) { return run_topology(*options, c); };
}

}  // namespace ct::cli
