// `clustertwin catalog`: prints the hardware catalog as tables (one per kind) or JSON, or the
// data-center chip zoo. Formatting lives in report/catalog_report.h; this file only wires options.
#include <memory>
#include <string>

#include "cli/choice_option.h"
#include "cli/command.h"
#include "report/catalog_report.h"

namespace ct::cli {

Runner setup_catalog(CLI::App& app, Context& /*context*/) {
  struct State {
    std::string output;
    std::string kind = "all";
    bool json = false;
    bool zoo = false;
  };
  auto state = std::make_shared<State>();
  add_output_option(app, state->output);
  CLI::Option* kind_option = add_choice_option(app, "--kind", state->kind, {"all", "nodes", "nics", "switches", "optics"},
                                               "Only this kind: all, nodes, nics, switches, optics")
                                 ->capture_default_str();
  app.add_flag("--json", state->json, "Print JSON (stable key order) instead of tables");
  app.add_flag("--zoo", state->zoo, "Print the data-center chip zoo: class, bottleneck, example")->excludes(kind_option);
  return [state](const Context& context) -> int {
    const Catalog& catalog = *context.catalog;
    if (state->zoo) {
      return emit(state->output,
                  state->json ? render_zoo_json(catalog) : render_zoo_text(catalog));
    }
    const CatalogKind kind = parse_catalog_kind(state->kind).value_or(CatalogKind::kAll);
    return emit(state->output, state->json ? render_catalog_json(catalog, kind)
                                                  : render_catalog_text(catalog, kind));
  };
}

}  // namespace ct::cli
