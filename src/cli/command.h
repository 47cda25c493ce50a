// One subcommand of the CLI. Each lives in its own file (<name>_command.cpp) and is listed once in
// the table in main.cpp with the stage it needs (ninja's Tool table with its "when to run"):
//
//   kNone     nothing is loaded for it
//   kCatalog  the hardware catalog (--catalog, default io/loaders.h default_catalog_dir())
//   kSpec     the catalog and the cluster spec, read and validated
//   kFabric   the catalog, the spec and the Fabric built from it (fabric/fabric.h)
//
// setup() adds the subcommand's own options to `app`, binding them to state it owns, and may bind
// Context::spec_path to its positional SPEC argument (or to --spec). main() adds --catalog for every
// command of stage kCatalog or later, parses, loads what the stage asks for exactly once (printing
// every diagnostic and exiting 1 when loading fails), then calls the runner with the loaded Context.
// With `spec_optional`, a command of stage kSpec/kFabric runs without a spec when none was given
// (ib reads --ibnetdiscover instead).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "catalog/catalog.h"
#include "core/diagnostic.h"
#include "fabric/fabric.h"
#include "spec/spec.h"
#include "spec/valid_spec.h"

namespace ct::cli {

// Exit codes shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 1;  // bad spec, catalog, counters...: diagnostics printed
inline constexpr int kExitUsage = 2;       // bad command line (CLI11)

enum class Stage { kNone, kCatalog, kSpec, kFabric };

// What main() loaded for the command, per its stage.
struct Context {
  std::string catalog_dir;  // bound to --catalog by main()
  std::string spec_path;    // bound by the command's setup() to its SPEC argument
  std::optional<Catalog> catalog;
  std::optional<Spec> raw_spec;  // the spec as read, before validation (studies that vary it)
  std::optional<ValidSpec> spec;
  std::optional<Fabric> fabric;
};

using Runner = std::function<int(const Context&)>;

struct Command {
  const char* name;
  const char* help;
  Stage stage;
  bool spec_optional;
  Runner (*setup)(CLI::App& app, Context& context);
};

// Loads what `stage` needs into `context` (its paths already set). Every diagnostic at once.
Diagnostics load_stage(Stage stage, bool spec_optional, Context& context);

// Where a name or value typed on the command line is reported: "command line: error: --fail: ...".
inline SourceLocation command_line() { return SourceLocation{"command line", 0, 0}; }
// A diagnostic about a command-line option (the option, e.g. "--job-gpus", as the field).
Diagnostic usage_error(const std::string& option, const std::string& message);

// Prints diagnostics to stderr and returns kExitInputError.
int report_errors(const Diagnostics& errors);
// Writes `content` to `path` atomically, or to stdout when path is empty or "-".
int emit(const std::string& path, const std::string& content);

// -o FILE, which most subcommands take.
void add_output_option(CLI::App& app, std::string& output);

}  // namespace ct::cli
