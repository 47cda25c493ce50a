// Parses catalog YAML text into a Catalog. Every malformed or missing field is a Diagnostic naming
// file, line and field. Several documents (one per catalog file) merge into one catalog; a
// duplicated id is an error naming both places.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "core/result.h"

namespace ct {

struct CatalogSource {
  std::string file;  // name used in diagnostics
  std::string text;  // YAML text
};

Result<Catalog> parse_catalog(const std::vector<CatalogSource>& sources);

}  // namespace ct
