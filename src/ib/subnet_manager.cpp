#include "ib/subnet_manager.h"

#include <fmt/format.h>

#include "ib/routing_engines.h"

namespace ct {

Result<IbRouting> route_fabric(const IbFabric& fabric, const IbRoutingOptions& options) {
  if (options.lmc < 0 || options.lmc > 7) return Diagnostic{{}, "lmc", "LMC must be between 0 and 7"};
  // Roots must be switches and compute nodes CAs (parse_node_list says so at the file's line;
  // this guards callers that build the options themselves).
  for (const IbNodeId n : options.roots) {
    if (!fabric.is_switch(n)) {
      return fabric_diagnostic(fabric, n, "roots", fmt::format("root \"{}\" is a CA, not a switch", fabric.label(n)));
    }
  }
  for (const IbNodeId n : options.compute_nodes) {
    if (fabric.is_switch(n)) {
      return fabric_diagnostic(fabric, n, "cn", fmt::format("compute node \"{}\" is a switch, not a CA", fabric.label(n)));
    }
  }
  auto lids = assign_lids(fabric, options.lmc);
  if (!lids) return lids.errors();
  IbRouting routing;
  routing.engine = options.engine;
  routing.lids = std::move(lids.value());
  routing.reset_tables(fabric);
  const SwitchGraph graph(fabric);
  Diagnostics errors;
  switch (options.engine) {
    case IbEngine::kMinHop: errors = route_minhop(graph, options, routing); break;
    case IbEngine::kUpDown: errors = route_updn(fabric, graph, options, routing); break;
    case IbEngine::kFatTree: errors = route_ftree(fabric, graph, options, routing); break;
  }
  if (!errors.empty()) return errors;
  return routing;
}

}  // namespace ct
