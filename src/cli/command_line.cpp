// What the command line says beyond the options' values: where the outputs go (two to one place
// are refused before the run, command.h output_clash) and the command line a report shows, less
// the options that cannot change the result (result_arguments, quoted_command_line).
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "io/output_set.h"

namespace ct::cli {

namespace {

// Options that say how a run goes or where its outputs land, never what they hold.
bool takes_no_part(std::string_view flag) {
  for (const std::string_view f : {"--threads", "-o", "--output", "--html", "--jsonl", "--sarif", "--lft", "--json",
                                   "--quiet", "--progress"}) {
    if (flag == f) return true;
  }
  return flag == "--csv" || flag.substr(0, 6) == "--csv-";
}
bool takes_a_value(std::string_view flag) { return flag != "--json" && flag != "--quiet" && flag != "--progress"; }

// The option named by `flag` ("--csv-links", "-o") writes an output at the path it is given.
bool names_an_output(std::string_view flag) { return takes_no_part(flag) && takes_a_value(flag) && flag != "--threads"; }

void stage_destinations(const CLI::App& command, OutputSet& destinations) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->count() == 0 || option->get_expected_max() == 0) continue;
    std::string flag;  // "-o" before "--output": the name people type
    for (const std::string& s : option->get_snames()) {
      if (names_an_output("-" + s)) flag = "-" + s;
    }
    for (const std::string& l : option->get_lnames()) {
      if (flag.empty() && names_an_output("--" + l)) flag = "--" + l;
    }
    if (flag.empty()) continue;
    for (const std::string& path : option->results()) destinations.stage(path, "", flag);
  }
  for (const CLI::App* sub : command.get_subcommands()) stage_destinations(*sub, destinations);
}

}  // namespace

std::string output_clash(const CLI::App& command) {
  OutputSet destinations;
  stage_destinations(command, destinations);
  return destinations.clash();
}

std::vector<std::string> result_arguments(int argc, char** argv) {
  std::vector<std::string> kept;
  bool options_ended = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    options_ended = options_ended || arg == "--";
    if (!options_ended && arg.size() > 2 && arg.substr(0, 2) == "-o" && arg[2] != '-') continue;  // -oFILE
    const std::string_view flag = arg.substr(0, arg.find('='));
    if (options_ended || !takes_no_part(flag)) {
      kept.emplace_back(arg);
      continue;
    }
    if (flag.size() == arg.size() && takes_a_value(flag) && i + 1 < argc) ++i;  // its value, unless --flag=value
  }
  return kept;
}

std::string quoted_command_line(int argc, char** argv) {
  std::string out = "clustertwin";
  for (const std::string& arg : result_arguments(argc, argv)) {
    const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("_./:=@%+,-").find(c) != std::string_view::npos;
    });
    if (plain) {
      out += " " + arg;
      continue;
    }
    out += " '";
    for (const char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += "'";
  }
  return out;
}

}  // namespace ct::cli
