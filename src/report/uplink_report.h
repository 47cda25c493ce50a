// `clustertwin lab counters --diff BEFORE AFTER`: the per-uplink byte table (diagnose/uplink_bytes.h)
// as text, one row per uplink with its bytes and the flows the model puts there, and as JSON
// (the same rows, bytes unrounded, null where no counter covers the uplink). Pure functions.
#pragma once

#include <string>

#include "diagnose/uplink_bytes.h"
#include "topology/topology.h"

namespace ct {

std::string uplink_bytes_text(const UplinkTable& table, const Topology& topology, const std::string& before,
                              const std::string& after);
std::string uplink_bytes_json(const UplinkTable& table, const Topology& topology, const std::string& before,
                              const std::string& after);

}  // namespace ct
