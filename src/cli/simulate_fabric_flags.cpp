#include "cli/simulate_fabric_flags.h"

#include <fmt/format.h>

#include "cli/choice_option.h"
#include "ib/ib_routing.h"
#include "io/ib_requests.h"

namespace ct::cli {

void add_fabric_source_flags(CLI::App& app, FabricSourceFlags& flags) {
  app.add_option("--ibnetdiscover", flags.ibnetdiscover,
                 "Simulate on an InfiniBand subnet read from ibnetdiscover output (or an ibsim net file) instead of a SPEC; "
                 "cable rates from its width x speed (4xNDR), hosts named by their node descriptions");
  add_choice_option(app, "--ib-routing", flags.ib_routing, ib_engine_names(),
                    "With --ibnetdiscover: the subnet manager's routing engine whose LFTs the flows follow (as ib route --engine)")
      ->capture_default_str();
}

std::string fabric_source_usage(const FabricSourceFlags& flags, const Context& context) {
  if (context.spec_path.empty() == flags.ibnetdiscover.empty()) return "give either a cluster SPEC or --ibnetdiscover FILE";
  if (flags.ib_routing_given && flags.ibnetdiscover.empty()) {
    return "--ib-routing needs --ibnetdiscover FILE (a spec's fabric is routed by its own ECMP)";
  }
  return "";
}

Result<const Fabric*> simulation_fabric_of(const FabricSourceFlags& flags, const Context& context,
                                           std::optional<Fabric>& loaded) {
  if (context.fabric) return &*context.fabric;
  const IbEngine engine = ib_engine_named(flags.ib_routing).value();  // checked against ib_engine_names()
  auto fabric = load_ib_simulation_fabric(flags.ibnetdiscover, engine, *context.catalog);
  if (!fabric) return fabric.errors();
  loaded.emplace(std::move(fabric).value());
  return &*loaded;
}

std::string paths_title(const FabricSourceFlags& flags, const Fabric& fabric, std::string_view path_model) {
  if (fabric.lfts() == nullptr) return std::string(path_model);
  return fmt::format("the subnet manager's LFTs ({})", flags.ib_routing);
}

}  // namespace ct::cli
