#include "cli/command.h"

#include <cstdio>
#include <iostream>

#include "io/files.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"

namespace ct::cli {

Diagnostics load_stage(Stage stage, bool spec_optional, Context& context) {
  if (stage == Stage::kNone) return {};
  auto catalog = load_catalog(context.catalog_dir);
  if (!catalog) return catalog.errors();
  context.catalog = std::move(catalog).value();
  if (stage == Stage::kCatalog || (spec_optional && context.spec_path.empty())) return {};
  auto text = read_text_file(context.spec_path);
  if (!text) return text.errors();
  SpecReading reading = read_spec(context.spec_path, text.value());
  auto valid = validate_reading(reading, *context.catalog);
  if (!valid) return valid.errors();
  context.raw_spec = std::move(reading.spec);
  context.spec = std::move(valid).value();
  if (stage == Stage::kSpec) return {};
  auto fabric = build_fabric(*context.spec, *context.catalog);
  if (!fabric) return fabric.errors();
  context.fabric = std::move(fabric).value();
  return {};
}

Diagnostic usage_error(const std::string& option, const std::string& message) {
  return Diagnostic{command_line(), option, message, Severity::kError};
}

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

void add_output_option(CLI::App& app, std::string& output) {
  app.add_option("-o,--output", output, "Write to this file (atomically) instead of stdout");
}

}  // namespace ct::cli
