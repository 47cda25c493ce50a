#include "io/loaders.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "catalog/catalog_parser.h"
#include "io/files.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"

namespace ct {

std::string resolve_catalog_dir(const char* env, const std::string& exe_path, const std::string& built_in) {
  namespace fs = std::filesystem;
  if (env != nullptr && *env != '\0') return env;
  if (!exe_path.empty()) {
    std::error_code ec;
    const fs::path installed = fs::path(exe_path).parent_path() / ".." / "share" / "clustertwin" / "catalog";
    if (fs::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  return built_in;
}

std::string default_catalog_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return resolve_catalog_dir(std::getenv("CLUSTERTWIN_CATALOG"), ec ? std::string() : exe.string(),
                             CT_DEFAULT_CATALOG_DIR);
}

Result<Catalog> load_catalog(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Diagnostic{{dir, 0, 0}, "", "catalog folder not found"};
  std::vector<std::string> files;
  // A *.yaml symbolic link that dangles or loops is taken, and the loader names it.
  fs::directory_iterator it(dir, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code kind;
    if (it->path().extension() == ".yaml" && (it->is_symlink(kind) || !it->is_directory(kind))) {
      files.push_back(it->path().string());
    }
  }
  if (ec) return Diagnostic{{dir, 0, 0}, "", "cannot read the catalog folder: " + ec.message()};
  std::sort(files.begin(), files.end());
  if (files.empty()) return Diagnostic{{dir, 0, 0}, "", "no *.yaml files in the catalog folder"};
  auto sources = read_text_files<CatalogSource>(files, "a catalog file");
  if (!sources) return sources.errors();
  return parse_catalog(sources.value());
}

Result<ValidSpec> load_spec(const std::string& path, const Catalog& catalog) {
  auto text = read_text_file(path, "a spec file");
  if (!text) return text.errors();
  return validate_reading(read_spec(path, text.value()), catalog);
}

}  // namespace ct
