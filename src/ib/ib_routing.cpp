#include "ib/ib_routing.h"

#include <fmt/format.h>

#include "ib/routing_engines.h"

namespace ct {

std::string to_string(IbEngine engine) {
  switch (engine) {
    case IbEngine::kMinHop: return "minhop";
    case IbEngine::kUpDown: return "updn";
    case IbEngine::kFatTree: return "ftree";
  }
  return "?";
}

void IbRouting::reset_tables(const IbFabric& fabric) {
  switches.clear();
  switch_index_.assign(fabric.node_count(), SwitchGraph::kNone);
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    if (!fabric.is_switch(IbNodeId(i))) continue;
    switch_index_[i] = static_cast<std::uint32_t>(switches.size());
    switches.push_back(IbNodeId(i));
  }
  stride_ = lids.max_lid() + 1;
  lft_.assign(switches.size() * static_cast<std::size_t>(stride_), kNoPath);
}

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
