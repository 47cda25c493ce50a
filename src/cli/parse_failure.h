// What the CLI says when CLI11 cannot take the command line, in one place for every command and
// subcommand level (main.cpp calls it for each CLI11 parse error):
//   - a word that names nothing at its level, before anything else CLI11 found: an unknown option
//     ("clustertwin plan: unknown option '--jsno' (did you mean '--json'?)") or subcommand
//     ("clustertwin ib: unknown subcommand 'roue' (did you mean 'route'?)"), the nearest name
//     suggested (core/suggest.h): usage, exit 2;
//   - a value CLI11 refuses (out of range, not a member, not of the option's type): bad input,
//     exit 1, as a diagnostic naming the option;
//   - --help and --version: printed, exit 0;
//   - anything else (a missing argument, options that exclude each other): CLI11's message, exit 2.
// An unknown option is found first because CLI11 checks the values it did take before it reports
// what it could not place: "routes DIR --bogus x" blames --bogus, not "x" as a manifest path.
#pragma once

#include <CLI/CLI.hpp>

namespace ct::cli {

// The exit code of the run (cli/command.h), after printing what went wrong to stderr.
int parse_failure_exit(CLI::App& app, const CLI::ParseError& error);

}  // namespace ct::cli
