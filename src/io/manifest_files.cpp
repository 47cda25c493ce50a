#include "io/manifest_files.h"

#include <algorithm>
#include <filesystem>

#include "frontend/manifest_parser.h"
#include "io/files.h"

namespace ct {

namespace {

bool is_manifest_name(const std::filesystem::path& p) {
  const auto ext = p.extension();
  return ext == ".yaml" || ext == ".yml";
}

// The *.yaml and *.yml files under `dir`, sorted, into `found`. A symbolic link named so is taken
// and read by the loader, which names it when it dangles or loops; a folder that cannot be read
// is an error, never an empty one.
void list_manifest_folder(const std::string& dir, std::vector<std::string>& found, Diagnostics& errors) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec);
  const fs::recursive_directory_iterator end;
  std::vector<std::string> files;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (!is_manifest_name(p)) continue;
    std::error_code kind;
    const bool link = it->is_symlink(kind);
    const bool folder = !link && it->is_directory(kind);
    if (!folder) files.push_back(p.string());
  }
  if (ec) {
    const std::string where = it == end ? dir : it->path().string();
    errors.push_back({{where, 0, 0}, "", "cannot read the folder: " + ec.message()});
    return;
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) errors.push_back({{dir, 0, 0}, "", "no *.yaml or *.yml files in this folder"});
  found.insert(found.end(), files.begin(), files.end());
}

}  // namespace

Result<std::vector<ManifestSource>> read_manifest_sources(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  Diagnostics errors;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      list_manifest_folder(p, files, errors);
    } else {
      files.push_back(p);
    }
  }
  auto sources = read_text_files<ManifestSource>(files, "a manifest file");
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
