// clustertwin topology SPEC [--format json|dot | --json] [--view auto|full|aggregate] [-o FILE] [--catalog DIR]
// Writes the physical topology of a spec's Fabric as JSON or Graphviz DOT. DOT of a fabric above
// kDotFullViewMaxVertices vertices is the aggregated view unless --view full (report/topology_export.h).
// JSON of a large fabric (hundreds of MB at 65,536 hosts) shows its progress on stderr
// (--progress, --quiet: cli/progress.h).
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/choice_option.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "report/topology_export.h"

namespace ct::cli {
namespace {

struct TopologyOptions {
  std::string output;
  std::string format = "json";
  std::string view = "auto";
  bool json = false;  // --json: --format json, as every command spells it
  ProgressFlags progress;
};

std::string dot_text(const TopologyOptions& options, const Topology& t) {
  if (options.view == "full") return to_dot(t);
  if (options.view == "aggregate") return to_dot_aggregate(t, "aggregated view (--view aggregate)");
  if (t.vertex_count() <= kDotFullViewMaxVertices) return to_dot(t);
  const std::string why = fmt::format(
      "aggregated view: {} vertices is above {}, too many for Graphviz to draw one by one; --view full for every vertex",
      t.vertex_count(), kDotFullViewMaxVertices);
  std::cerr << "clustertwin topology: " << why << "\n";
  return to_dot_aggregate(t, why);
}

int run_topology(const TopologyOptions& options, const Context& context) {
  const Fabric& fabric = *context.fabric;
  if (options.format == "dot") return emit(options.output, dot_text(options, fabric.topology()));
  ProgressReporter progress("topology", "vertices and links", options.progress);
  const std::string text = to_json(fabric.topology(), fabric.catalog(), progress.callback());
  progress.finish();
  return emit(options.output, text);
}

}  // namespace

Runner setup_topology(CLI::App& app, Context& context) {
  auto options = std::make_shared<TopologyOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  add_choice_option(app, "--format", options->format, {"json", "dot"}, "Output format")->capture_default_str();
  app.add_flag("--json", options->json, "JSON (the same as --format json)");
  // Two formats asked for is a usage error (exit 2), found before the fabric is built.
  app.parse_complete_callback([options] {
    if (options->json && options->format != "json") throw CLI::ExcludesError("--json", "--format " + options->format);
  });
  add_choice_option(app, "--view", options->view, {"auto", "full", "aggregate"},
                    fmt::format("DOT: every vertex (full), one node per switch group, tier and plane (aggregate), or "
                                "aggregate above {} vertices (auto)", kDotFullViewMaxVertices))
      ->capture_default_str();
  add_progress_options(app, options->progress);
  add_output_option(app, options->output);
  return [options](const Context& c) { return run_topology(*options, c); };
}

}  // namespace ct::cli
