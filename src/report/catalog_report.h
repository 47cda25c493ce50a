// Views of the hardware catalog for `clustertwin catalog`: text tables (one per kind, rows sorted
// by id) and JSON with a fixed key order. Pure functions of the catalog: no I/O.
// Figures the sources do not publish print as "-" in text and null in JSON.
#pragma once

#include <optional>
#include <string>

#include "catalog/catalog.h"

namespace ct {

enum class CatalogKind { kAll, kNodes, kNics, kSwitches, kOptics };

// "all", "nodes", "nics", "switches", "optics"; nullopt for anything else.
std::optional<CatalogKind> parse_catalog_kind(const std::string& text);

std::string render_catalog_text(const Catalog& catalog, CatalogKind kind);
std::string render_catalog_json(const Catalog& catalog, CatalogKind kind);
std::string render_zoo_text(const Catalog& catalog);
std::string render_zoo_json(const Catalog& catalog);

}  // namespace ct
