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

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "catalog/catalog.h"
#include "core/diagnostic.h"
#include "fabric/fabric.h"
#include "io/output_set.h"
#include "spec/spec.h"
#include "spec/valid_spec.h"

namespace ct::cli {

// Exit codes shared by all subcommands (README "Exit codes"): one rule for every command.
//   0  success
//   1  bad input: a file that cannot be read or is wrong, or a value given on the command line
//      that is out of range, not a number or names nothing (`--lmc 8`, `--seed -1`, `--fail x`),
//      or an output that cannot be written; diagnostics printed, no output file created or changed
//      (`lint` also exits 1 when a finding is at or above --fail-on, after writing its report)
//   2  usage: the command line cannot be parsed (unknown command or option, a missing or extra
//      argument, options that exclude each other)
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 1;
inline constexpr int kExitUsage = 2;

enum class Stage { kNone, kCatalog, kSpec, kFabric };

// What main() loaded for the command, per its stage.
struct Context {
  std::string catalog_dir;  // bound to --catalog by main()
  std::string spec_path;    // bound by the command's setup() to its SPEC argument
  std::optional<Catalog> catalog;
  std::optional<Spec> raw_spec;  // the spec as read, before validation (studies that vary it)
  std::optional<ValidSpec> spec;
  std::optional<Fabric> fabric;
  std::string command_line;  // "clustertwin plan x.yaml --html r.html", shell-quoted (for reports)
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

// The command line a report shows, as a shell would take it back: "clustertwin" and each argument,
// quoted when it holds anything but [A-Za-z0-9_./:=@%+,-] (argv[0] is not shown: it varies with
// the install), without the options that cannot change the result (result_arguments), so that a
// page is the same bytes whatever the thread count or the names of the outputs.
std::string quoted_command_line(int argc, char** argv);
// argv[1..] less --threads, --quiet, --progress and the outputs' options (-o, --html, --json,
// --csv*, --jsonl, --sarif, --lft) with their values ("--threads 2", "--threads=2", "-oFILE");
// everything after "--" is kept.
std::vector<std::string> result_arguments(int argc, char** argv);
// Where a name or value typed on the command line is reported: "command line: error: --fail: ...".
inline SourceLocation command_line() { return SourceLocation{"command line", 0, 0}; }
// A diagnostic about a value given to a command-line option (the option, e.g. "--job-gpus", as
// the field): bad input, exit 1.
Diagnostic flag_error(const std::string& option, const std::string& message);

// Prints diagnostics to stderr and returns kExitInputError.
int report_errors(const Diagnostics& errors);
// Prints a usage error (the command line cannot be understood) and returns kExitUsage.
int report_usage(const std::string& message);

// Every output of a run goes through one OutputSet, committed once at the end (io/output_set.h):
// all files and stdout, or nothing. Returns kExitOk, kExitUsage when two outputs share a
// destination (OutputSet::clash: both options named), or kExitInputError with the diagnostics.
// The one check for every command: each stages its outputs with the option that asked for them,
// and the report it prints on stdout when -o is not given as kReportOnStdout.
int commit(OutputSet& outputs);
// The same clash from the parsed command line alone, before the run: two output options of the
// command (or its nested command) given one destination ("--csv-links - and --csv-flows -").
// main() refuses it before anything is loaded, so a long sweep or simulate does not learn it at
// its end; the report a command prints on stdout without -o is checked by commit() only.
[[nodiscard]] std::string output_clash(const CLI::App& command);
inline constexpr const char* kReportOnStdout = "the report (stdout, no -o)";
// A run with one output: `content` to `path` atomically, or to stdout when path is empty or "-".
int emit(const std::string& path, const std::string& content);

// NAME=FILE (a scrape's host, an snmpwalk file's device) split into {NAME, FILE}; {"", ARG} when
// there is no '=' or the whole argument is an existing file.
std::pair<std::string, std::string> host_and_file(const std::string& arg);

// -o FILE, which most subcommands take.
void add_output_option(CLI::App& app, std::string& output);

// --html FILE ("-": stdout): the self-contained HTML report (report/html/html_document.h).
void add_html_option(CLI::App& app, std::string& html);
// A run's report: `content` (text or JSON) to `output` and, when `html` is set, the page made by
// `render_html` to `html`, committed together (all or nothing). With `--html -` the page owns
// stdout: the text or JSON report is written only when -o is given, and `-o -` beside `--html -`
// (or -o and --html naming one file) is a usage error (exit 2), as any two outputs to one place.
int emit_report(const std::string& output, const std::string& content, const std::string& html,
                const std::function<std::string()>& render_html);
// The same into `outputs`, which holds the run's other files already (CSV tables, LFTs).
int emit_report(OutputSet& outputs, const std::string& output, const std::string& content, const std::string& html,
                const std::function<std::string()>& render_html);

// An unsigned integer option that refuses what CLI11 would wrap or clamp ("-1", "2^64", "1e3",
// "010" read as octal): decimal or 0x hex, within [min, max], else a value error naming the range.
void add_unsigned_option(CLI::App& app, const std::string& name, std::uint64_t& value, const std::string& help,
                         std::uint64_t min = 0, std::uint64_t max = UINT64_MAX);
// A seed: any 64-bit value.
inline void add_seed_option(CLI::App& app, std::uint64_t& seed, const std::string& help) {
  add_unsigned_option(app, "--seed", seed, help);
}
// --threads: 0 (all cores) to kMaxThreads. Results never depend on it; a thread the system will
// not start is done on the caller's thread instead (core/threads.h).
inline constexpr unsigned kMaxThreads = 1024;
template <typename T>
void add_threads_option(CLI::App& app, T& threads, const std::string& help) {
  app.add_option("--threads", threads, help + " (0: all cores, at most " + std::to_string(kMaxThreads) + ")")
      ->check(CLI::Range(0U, kMaxThreads))
      ->capture_default_str();
}

// --progress / --quiet on a command with long work (cli/progress.h).
struct ProgressFlags {
  bool force = false;
  bool quiet = false;
};
void add_progress_options(CLI::App& app, ProgressFlags& flags);

}  // namespace ct::cli
