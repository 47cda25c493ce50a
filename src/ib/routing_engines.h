// The three routing engines behind route_fabric() (subnet_manager.h). Each fills routing's LFTs
// (LIDs already assigned, tables reset) and returns the diagnostics that stop it, if any.
#pragma once

#include "core/diagnostic.h"
#include "ib/ib_ranking.h"
#include "ib/ib_routing.h"
#include "ib/lft_builder.h"
#include "ib/switch_graph.h"

namespace ct {

Diagnostics route_minhop(const SwitchGraph& graph, const IbRoutingOptions& options, IbRouting& routing);
Diagnostics route_updn(const IbFabric& fabric, const SwitchGraph& graph, const IbRoutingOptions& options,
                       IbRouting& routing);
Diagnostics route_ftree(const IbFabric& fabric, const SwitchGraph& graph, const IbRoutingOptions& options,
                        IbRouting& routing);

// Up/down routing of the given targets on fixed ranks (updn_engine.cpp); ftree reuses it for the
// switches' own LIDs (with no CA target in the list, every choice is the lowest candidate port).
void fill_updn(const IbFabric& fabric, const SwitchGraph& graph, const IbRanks& ranks,
               const std::vector<LftTarget>& targets, int threads, IbRouting& routing);

}  // namespace ct
