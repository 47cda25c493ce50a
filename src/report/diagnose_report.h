// Views of a Diagnosis for `clustertwin diagnose`: text (the verdict per imbalanced group with its
// witnesses, cause, why the dashboards stayed green and the fix; then the groups and links) and
// JSON with a fixed key order. Pure functions: no I/O. Rates in text are Gb/s, in JSON bits/s.
#pragma once

#include <string>

#include "diagnose/diagnosis.h"
#include "topology/topology.h"

namespace ct {

std::string to_text(const Diagnosis& diagnosis, const Topology& topology);
std::string to_json(const Diagnosis& diagnosis, const Topology& topology);

}  // namespace ct
