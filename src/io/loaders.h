// Loading the catalog folder and spec files from disk into the library's pure parsers.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "core/result.h"
#include "spec/valid_spec.h"

namespace ct {

// The catalog folder compiled in (the source tree's catalog/), overridden by $CLUSTERTWIN_CATALOG.
std::string default_catalog_dir();
// Every *.yaml in `dir`, in file-name order.
Result<Catalog> load_catalog(const std::string& dir);
// Read, parse and validate a spec file.
Result<ValidSpec> load_spec(const std::string& path, const Catalog& catalog);

}  // namespace ct
