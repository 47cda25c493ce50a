// One subcommand of the CLI. Each lives in its own file (<name>_command.cpp) and is listed once in
// the table in main.cpp. setup() adds the subcommand's options to `app` (binding them to state it
// owns) and returns the function that runs it after parsing.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "core/diagnostic.h"

namespace ct::cli {

// Exit codes shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 1;  // bad spec, catalog, counters...: diagnostics printed
inline constexpr int kExitUsage = 2;       // bad command line (CLI11)

using Runner = std::function<int()>;

struct Command {
  const char* name;
  const char* help;
  Runner (*setup)(CLI::App& app);
};

// Prints diagnostics to stderr and returns kExitInputError.
int report_errors(const Diagnostics& errors);
// Writes `content` to `path` atomically, or to stdout when path is empty or "-".
int emit(const std::string& path, const std::string& content);

// Options most subcommands share.
struct CommonOptions {
  std::string catalog_dir;
  std::string output;
};
void add_common_options(CLI::App& app, CommonOptions& options);

}  // namespace ct::cli
