// A run's resources by name, one naming for every output of both engines (the report's tables,
// JSON, CSVs and page, a packet run's notes): one direction of a cable is the name directory's
// cable name (fabric/name_directory.h cable_name: "A -- B", with " #k" after a cable that has
// parallel twins, k its place among them in link-id order) followed by "up" (from A to B) or
// "down" (from B to A); a GPU's NVLink egress and ingress are "host<h>/gpu<g> nvlink out" and
// "... nvlink in". A pinned route (traffic/flow_table.h) reads a cable direction's name back.
#pragma once

#include <string>

#include "fabric/name_directory.h"
#include "sim/simulation_result.h"

namespace ct {

// "host0/nic0 -- p0/leaf/0 up", "p0/leaf/0 -- p0/spine/1 #2 down" (the third of the cables
// joining them), "host3/gpu2 nvlink in".
std::string resource_name(const NameDirectory& names, const ResourceInfo& c);

// One direction of a cable, named as above: the cable's name and "up" (from A to B) or "down".
// For the outputs that name a cable direction outside a run's resources (hash, rebuild paths).
std::string cable_direction_name(const NameDirectory& names, LinkId l, bool up);

}  // namespace ct
