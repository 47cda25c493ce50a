#include "cli/choice_option.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/suggest.h"

namespace ct::cli {

CLI::Option* add_choice_option(CLI::App& app, const std::string& name, std::string& value,
                               const std::vector<std::string>& choices, const std::string& help) {
  const std::string set = fmt::format("{{{}}}", fmt::join(choices, ","));
  CLI::Validator member(
      [choices, set](const std::string& given) -> std::string {
        if (std::find(choices.begin(), choices.end(), given) != choices.end()) return "";
        return given + " not in " + set + did_you_mean(given, choices);
      },
      set);
  return app.add_option(name, value, help)->check(member);
}

}  // namespace ct::cli
