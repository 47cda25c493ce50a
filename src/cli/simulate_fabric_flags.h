// Where `simulate` gets its fabric: the cluster SPEC (the fabric main() builds), or an InfiniBand
// subnet read from ibnetdiscover output, `--ibnetdiscover FILE`, routed by the subnet manager's
// engine `--ib-routing ftree|updn|minhop` (the engines and default of `ib route --engine`;
// io/ib_requests.h load_ib_simulation_fabric, ib/simulation_fabric.h). One source, SPEC or
// --ibnetdiscover, is a usage rule (exit 2), as for `ib route`; so is --ib-routing without
// --ibnetdiscover (a spec's paths are ECMP's).
#pragma once

#include <optional>
#include <string>

#include "cli/command.h"

namespace ct::cli {

struct FabricSourceFlags {
  std::string ibnetdiscover;
  std::string ib_routing = "ftree";
  bool ib_routing_given = false;
};

void add_fabric_source_flags(CLI::App& app, FabricSourceFlags& flags);

// The usage error, or empty.
std::string fabric_source_usage(const FabricSourceFlags& flags, const Context& context);

// The fabric to run: the context's (a SPEC), else the subnet of --ibnetdiscover, loaded into
// `loaded`. Errors are the file's, the routing engine's or the conversion's (exit 1).
Result<const Fabric*> simulation_fabric_of(const FabricSourceFlags& flags, const Context& context,
                                           std::optional<Fabric>& loaded);

// The paths of the run's title: the scenario's path model, or "the LFTs of minhop".
std::string paths_title(const FabricSourceFlags& flags, const Fabric& fabric, std::string_view path_model);

}  // namespace ct::cli
