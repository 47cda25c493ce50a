#include "cli/parse_failure.h"

#include <cctype>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/suggest.h"

namespace ct::cli {
namespace {

// "clustertwin ib route": the command path of a (sub)command.
std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* a = app.get_parent(); a != nullptr; a = a->get_parent()) path = a->get_name() + " " + path;
  return path;
}

// "--json", "-o", ...: the names an option is given by on the command line.
void add_option_names(const CLI::App& app, std::vector<std::string>& names) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_positional()) continue;
    for (const std::string& n : option->get_lnames()) names.push_back("--" + n);
    for (const std::string& n : option->get_snames()) names.push_back("-" + n);
  }
}

bool looks_like_option(const std::string& word) {
  return word.size() > 1 && word[0] == '-' && (word[1] == '-' || std::isalpha(static_cast<unsigned char>(word[1])));
}

// The first word left over at some level of the parsed chain (the root, the command, its
// subcommand) that is an unknown option, or an unknown subcommand where one is expected. An
// option a subcommand does not know falls through to its parent (ib route -> ib): its name is
// looked for among the options of that level and every level below it.
std::optional<std::string> unknown_word(const CLI::App& root) {
  std::vector<const CLI::App*> chain{&root};
  while (!chain.back()->get_subcommands().empty()) chain.push_back(chain.back()->get_subcommands().front());
  for (std::size_t level = 0; level < chain.size(); ++level) {
    const CLI::App& app = *chain[level];
    const std::vector<std::string> left = app.remaining(false);
    if (left.empty()) continue;
    const std::string& word = left.front();
    if (looks_like_option(word)) {
      const std::string where = command_path(*chain.back());
      const std::string name = word.substr(0, word.find('='));
      std::vector<std::string> names;
      for (std::size_t below = level; below < chain.size(); ++below) add_option_names(*chain[below], names);
      const std::string hint = name.size() > 2 ? did_you_mean(name, names) : "";  // "-x": any letter is one edit away
      return where + ": unknown option '" + name + "'" + hint + "; run '" + where +
             " --help' for the options\n";
    }
    if (level + 1 == chain.size()) {
      std::vector<std::string> names;
      for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
      if (names.empty()) continue;
      const std::string where = command_path(app);
      const bool top = app.get_parent() == nullptr;
      return where + ": unknown " + (top ? "command" : "subcommand") + " '" + word + "'" + did_you_mean(word, names) +
             "; run '" + where + " --help' for the list\n";
    }
  }
  return std::nullopt;
}

}  // namespace

int parse_failure_exit(CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
  if (const auto unknown = unknown_word(app)) {
    std::cerr << *unknown;
    return kExitUsage;
  }
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr ||
      dynamic_cast<const CLI::ConversionError*>(&error) != nullptr) {
    // A value out of range, not a member of its set or not of the option's type ("--lmc x"): bad
    // input (exit 1), as every other bad value.
    std::cerr << format_diagnostics({Diagnostic{command_line(), "", error.what()}});
    return kExitInputError;
  }
  app.exit(error);
  return kExitUsage;
}

}  // namespace ct::cli
