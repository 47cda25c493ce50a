// Kubernetes manifests as read from YAML text into the model of frontend/manifests.h: each
// document's metadata, then one reader per kind (a table of kinds in manifest_parser.cpp; HTTPRoute
// filters are read by frontend/gateway_filters.h). Kept apart from the model's types so that the
// readers of fields and filters, which use those types, are not included back by them.
#pragma once

#include <vector>

#include "core/result.h"
#include "frontend/manifests.h"

namespace ct {

// Parses every document of every source. Errors (YAML syntax, a document without kind or name, a
// field of the wrong type, the same kind/namespace/name twice) are returned all at once; unknown
// fields of known kinds become warnings in Manifests::warnings; unknown kinds go to `unknown`.
Result<Manifests> parse_manifests(const std::vector<ManifestSource>& sources);

}  // namespace ct
