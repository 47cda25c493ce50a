#include "io/manifest_files.h"

#include <algorithm>
#include <filesystem>

#include "frontend/manifest_parser.h"
#include "io/files.h"

namespace ct {

Result<std::vector<ManifestSource>> read_manifest_sources(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  Diagnostics errors;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
        const auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml")) found.push_back(e.path().string());
      }
      std::sort(found.begin(), found.end());
      if (found.empty()) errors.push_back({{p, 0, 0}, "", "no *.yaml or *.yml files in this folder"});
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);
    }
  }
  auto sources = read_text_files<ManifestSource>(files);
  if (!sources) {
    errors.insert(errors.end(), sources.errors().begin(), sources.errors().end());
    return errors;
  }
  if (!errors.empty()) return errors;
  return sources;
}

Result<Manifests> load_manifests(const std::vector<std::string>& paths) {
  auto sources = read_manifest_sources(paths);
  if (!sources) return sources.errors();
  return parse_manifests(sources.value());
}

}  // namespace ct
