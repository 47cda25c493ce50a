// An option whose value is one name of a set (--engine flow|packet, --fail-on low|medium|high|none).
// Every such option of the CLI is declared through add_choice_option, so that a value outside the
// set is refused one way everywhere: as bad input (exit 1, cli/command.h), naming the option and
// the set, with the nearest member suggested (core/suggest.h):
//   command line: error: --engine: pakcet not in {flow,packet} (did you mean 'packet'?)
// The help text shows the set as "{flow,packet}".
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ct::cli {

CLI::Option* add_choice_option(CLI::App& app, const std::string& name, std::string& value,
                               const std::vector<std::string>& choices, const std::string& help);

}  // namespace ct::cli
