// The links a plan cannot bill: links of a speed and length (one cable-length tier of one network)
// for which the topology builder found no catalog optic or cable (topology/builder.h,
// choose_media: a module runs a link whole, speed == link speed, or split, speed / links == link
// speed, with reach_m >= the tier's cable length). Such links still count in every figure measured
// on the graph; only their modules, power and cost are missing. Each gap is a located warning
// that says why no entry fits (no entry runs that speed, or none reaches that far) and which
// entry to add to the catalog's optics.yaml.
// Why a warning and not an error: the catalog's other unknown figures (a switch without a
// published power or price) are reported, not refused, and the rest of the plan (switch counts,
// bisection, scale limits, failure domains) is right without the optic; a spec naming a switch
// the catalog lacks is an error because nothing can be planned without it.
#pragma once

#include <optional>

#include "catalog/catalog.h"
#include "core/diagnostic.h"
#include "topology/topology.h"

namespace ct {

// What decides a link's medium, and where the spec set it (for the warnings' locations).
struct MediaSources {
  SourceLocation backend_speed;                  // backend.port_speed, else the backend: key
  std::optional<SourceLocation> frontend_speed;  // frontend.speed, else the frontend: key; none without a frontend
  double cable_length_m[3] = {0, 0, 0};          // NIC-leaf, leaf-spine, spine-core (frontend: the first two)
  SourceLocation cable_length[3];
};

// One warning per (network, cable-length tier, speed) with links lacking a medium, backend first,
// then by tier; located at the spec field that set the speed (a length when only reach is short).
Diagnostics media_gaps(const MediaSources& sources, const Topology& topology, const Catalog& catalog);

}  // namespace ct
