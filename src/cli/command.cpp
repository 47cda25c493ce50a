#include "cli/command.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include <fmt/format.h>

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
  auto text = read_text_file(context.spec_path, "a spec file");
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

Diagnostic flag_error(const std::string& option, const std::string& message) {
  return Diagnostic{command_line(), option, message, Severity::kError};
}

int report_errors(const Diagnostics& errors) {
  std::cerr << format_diagnostics(errors);
  return kExitInputError;
}

int report_usage(const std::string& message) {
  std::cerr << "clustertwin: usage: " << message << "\nRun with --help for more information.\n";
  return kExitUsage;
}

int commit(OutputSet& outputs) {
  if (const std::string clash = outputs.clash(); !clash.empty()) return report_usage(clash);
  auto committed = outputs.commit();
  if (!committed) return report_errors(committed.errors());
  return kExitOk;
}

int emit(const std::string& path, const std::string& content) {
  OutputSet outputs;
  outputs.stage(path, content);
  return commit(outputs);
}

std::pair<std::string, std::string> host_and_file(const std::string& arg) {
  const std::size_t eq = arg.find('=');
  if (eq == std::string::npos || std::filesystem::exists(arg)) return {"", arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

void add_output_option(CLI::App& app, std::string& output) {
  app.add_option("-o,--output", output, "Write to this file (atomically) instead of stdout");
}

void add_html_option(CLI::App& app, std::string& html) {
  app.add_option("--html", html,
                 "Also write a self-contained HTML report with plots to this file ('-': stdout, replacing the text "
                 "report unless -o names a file)");
}

int emit_report(const std::string& output, const std::string& content, const std::string& html,
                const std::function<std::string()>& render_html) {
  OutputSet outputs;
  return emit_report(outputs, output, content, html, render_html);
}

int emit_report(OutputSet& outputs, const std::string& output, const std::string& content, const std::string& html,
                const std::function<std::string()>& render_html) {
  // `--html -` owns stdout unless -o is given; the page and the report otherwise clash like any two
  // outputs to one place (OutputSet::clash).
  if (html != "-" || !output.empty()) outputs.stage(output, content, output.empty() ? kReportOnStdout : "-o");
  if (!html.empty()) outputs.stage(html, render_html(), "--html");
  return commit(outputs);
}

namespace {

std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* first = text.data() + (hex ? 2 : 0);
  const char* last = text.data() + text.size();
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(first, last, v, hex ? 16 : 10);
  if (first == last || ec != std::errc() || end != last) return std::nullopt;
  return v;
}

}  // namespace

void add_unsigned_option(CLI::App& app, const std::string& name, std::uint64_t& value, const std::string& help,
                         std::uint64_t min, std::uint64_t max) {
  const std::string range = max == UINT64_MAX && min == 0 ? "0 to 18446744073709551615 (2^64 - 1)"
                                                          : fmt::format("{} to {}", min, max);
  app.add_option_function<std::string>(
         name,
         [&value, name, min, max, range](const std::string& text) {
           const auto v = parse_unsigned(text);
           if (!v || *v < min || *v > max) {
             throw CLI::ValidationError(name, fmt::format("'{}' is not allowed: expected an integer {} (decimal or 0x hex)",
                                                          text, range));
           }
           value = *v;
         },
         help)
      ->type_name("UINT")
      ->default_str(std::to_string(value));
}

void add_progress_options(CLI::App& app, ProgressFlags& flags) {
  app.add_flag("--progress", flags.force, "Report progress on stderr even when it is not a terminal");
  app.add_flag("--quiet", flags.quiet, "No progress on stderr");
}

}  // namespace ct::cli
