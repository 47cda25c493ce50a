#include "cli/command.h"

#include <cstdio>
#include <iostream>

#include "io/files.h"
#include "io/loaders.h"

namespace ct::cli {

int report_errors(const Diagnostics& errors) {
  std::cerr << format_diagnostics(errors);
  return kExitInputError;
}

int emit(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    std::fflush(stdout);
    return kExitOk;
  }
  auto written = write_file_atomic(path, content);
  if (!written) return report_errors(written.errors());
  return kExitOk;
}

void add_common_options(CLI::App& app, CommonOptions& options) {
  options.catalog_dir = default_catalog_dir();
  app.add_option("--catalog", options.catalog_dir, "Hardware catalog folder")->capture_default_str();
  app.add_option("-o,--output", options.output, "Write to this file (atomically) instead of stdout");
}

}  // namespace ct::cli
