// The subnet manager's routing step: LIDs assigned (lid_assignment.h), then one engine fills the
// switches' LFTs (ib_routing.h).
//
// Engines (each file opens with its algorithm and the OpenSM behaviour it follows):
//   minhop   min-hop with per-port path-count balancing      (minhop_engine.cpp, OpenSM default)
//   updn     up*/down* on ranks from root switches            (updn_engine.cpp, OpenSM -R updn)
//   ftree    fat-tree routing balanced by destination          (ftree_engine.cpp, OpenSM -R ftree)
// Engines never include io/; every result is a pure function of (fabric, options).
#pragma once

#include "core/result.h"
#include "ib/ib_fabric.h"
#include "ib/ib_routing.h"

namespace ct {

// Assigns LIDs and runs the chosen engine. Errors: too many LIDs, updn without roots, ftree on a
// fabric that is not a fat tree (the message says which rule failed and where), bad options.
Result<IbRouting> route_fabric(const IbFabric& fabric, const IbRoutingOptions& options);

}  // namespace ct
