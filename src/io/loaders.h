// Loading the catalog folder and spec files from disk into the library's pure parsers.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "core/result.h"
#include "spec/valid_spec.h"

namespace ct {

// Where the hardware catalog is looked for, first match wins:
//   1. $CLUSTERTWIN_CATALOG when set and non-empty (taken as given, even if it does not exist, so a
//      wrong path is reported rather than silently replaced);
//   2. <directory of the running binary>/../share/clustertwin/catalog when that folder exists: the
//      layout `make install` (cmake --install, PREFIX and DESTDIR honoured) creates;
//   3. the source tree's catalog/ compiled in: a binary run from its build tree.
std::string default_catalog_dir();
// The rule above as a pure function of its inputs (env may be null; exe_path may be empty when the
// running binary's path is unknown). Tested with folders of its own.
std::string resolve_catalog_dir(const char* env, const std::string& exe_path, const std::string& built_in);
// Every *.yaml in `dir`, in file-name order.
Result<Catalog> load_catalog(const std::string& dir);
// Read, parse and validate a spec file.
Result<ValidSpec> load_spec(const std::string& path, const Catalog& catalog);

}  // namespace ct
