// Reading Kubernetes manifest files and folders (every *.yaml / *.yml below a folder, in path
// order) into the frontend model's pure parser.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "frontend/manifests.h"

namespace ct {

Result<std::vector<ManifestSource>> read_manifest_sources(const std::vector<std::string>& paths);
// Read and parse; warnings (unknown fields) stay in Manifests::warnings.
Result<Manifests> load_manifests(const std::vector<std::string>& paths);

}  // namespace ct
