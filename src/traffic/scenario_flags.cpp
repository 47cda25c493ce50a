#include "traffic/scenario_flags.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/suggest.h"
#include "traffic/scenario_builder.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

const SourceLocation kCommandLine{"command line", 0, 0};

ValueOrigin flag(std::string name) { return ValueOrigin{kCommandLine, std::move(name)}; }

// "WHAT@TIME" -> (WHAT, TIME); "WHAT" -> (WHAT, "0us").
std::pair<std::string, std::string> split_at(const std::string& text) {
  const auto at = text.rfind('@');
  if (at == std::string::npos) return {text, "0us"};
  return {text.substr(0, at), text.substr(at + 1)};
}

class FlagScenario {
 public:
  FlagScenario(const ScenarioFlags& o, const NameDirectory& names)
      : o_(o), names_(names), b_(kCommandLine.file, names, errors_) {}

  Result<Scenario> build() {
    b_.set_name(o_.collective.empty() ? "flags" : o_.collective);
    b_.set_seed(o_.seed);
    if (const auto paths = b_.path_model(o_.paths, flag("--paths"))) b_.set_paths(*paths);
    TimePs convergence{0};
    if (!o_.convergence.empty()) duration("--convergence", o_.convergence, convergence);
    if (!o_.collective.empty()) collective();
    faults(convergence);
    judge();
    return b_.finish();
  }

 private:
  void duration(const char* name, const std::string& text, TimePs& out) {
    auto d = parse_duration(text);
    if (d) {
      out = d.value();
    } else {
      b_.error(flag(name), fmt::format("'{}': {}", text, d.errors().front().message));
    }
  }

  void collective() {
    CollectiveSpec c;
    c.name = o_.collective;
    if (const auto kind = b_.collective_kind(o_.collective, flag("--collective"))) c.kind = *kind;
    c.algorithm = default_algorithm(c.kind);
    if (!o_.algorithm.empty()) {
      if (const auto a = b_.algorithm(o_.algorithm, flag("--algorithm"))) c.algorithm = *a;
    }
    if (o_.bytes.empty()) {
      b_.error(flag("--bytes"), "missing: the collective's size, e.g. 1GiB");
    } else if (auto bytes = parse_size(o_.bytes); !bytes) {
      b_.error(flag("--bytes"), fmt::format("'{}': {}", o_.bytes, bytes.errors().front().message));
    } else if (bytes.value().value() <= 0) {
      b_.error(flag("--bytes"), fmt::format("'{}' is not a positive size such as 1GiB, 64KB or 1048576", o_.bytes));
    } else {
      c.bytes = bytes.value();
    }
    c.channels = o_.channels;
    c.qps = o_.qps;
    c.iterations = o_.iterations;
    c.steps = o_.steps;
    if (c.steps != 0) c.model = CollectiveModel::kStepwise;  // steps are the stepwise model's
    if (!o_.model.empty()) {
      if (const auto m = b_.collective_model(o_.model, flag("--model"))) c.model = *m;
    }
    if (!o_.compute.empty()) duration("--compute", o_.compute, c.compute);
    gpus(c);
    b_.add(std::move(c));
  }

  void gpus(CollectiveSpec& c) {
    const std::string& text = o_.gpus;
    if (text.starts_with("[") || text.starts_with("{")) {
      auto parsed = parse_gpu_selection(kCommandLine.file, text, o_.seed, names_);
      if (!parsed) {
        for (const Diagnostic& d : parsed.errors()) b_.error(flag("--gpus"), fmt::format("'{}': {}", text, d.message));
        return;
      }
      c.groups = std::move(parsed->groups);
      c.gpus_text = std::move(parsed->gpus_text);
      return;
    }
    c.gpus_text = text;
    if (text.find(',') != std::string::npos || text.find("gpu") != std::string::npos ||
        text.find_first_not_of("0123456789") == std::string::npos) {
      c.gpus_text = "list";
      auto& group = c.groups.emplace_back();
      for (std::size_t begin = 0; begin <= text.size();) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        if (const auto g = b_.gpu(std::string_view(text).substr(begin, end - begin), flag("--gpus"))) group.push_back(*g);
        begin = end + 1;
      }
      return;
    }
    const auto selection = b_.named_selection(
        text, flag("--gpus"), "GPU selection",
        "a list such as host0/gpu0,gpu9,12 or [0, 1], or a mapping such as '{hosts: [0, 3], per: rail}'");
    if (selection) c.groups = b_.groups(*selection);
  }

  // One fault per flag value, in time order (stable); fault_flags_ says which flag and value gave each.
  void faults(TimePs convergence) {
    std::vector<std::pair<FaultSpec, std::string>> faults;
    const auto add = [&](FaultKind kind, const std::string& text, const char* name) {
      auto [what, at] = split_at(text);
      FaultSpec f;
      f.kind = kind;
      f.convergence = convergence;
      f.fraction = kind == FaultKind::kRepair ? 1.0 : 0.0;
      if (kind == FaultKind::kDegrade) {
        const auto eq = what.rfind('=');
        const std::string fraction = eq == std::string::npos ? "" : what.substr(eq + 1);
        what = what.substr(0, eq);
        char* end = nullptr;
        f.fraction = std::strtod(fraction.c_str(), &end);
        if (fraction.empty() || *end != '\0' || !(f.fraction > 0 && f.fraction <= 1)) {
          b_.error(flag(name), fmt::format("'{}': expected LINK=FRACTION[@TIME] with a fraction in (0, 1]", text));
          return;
        }
      }
      f.what = what;
      f.links = b_.target_links(what, flag(name));
      if (f.links.empty()) return;
      duration(name, at, f.at);
      faults.emplace_back(std::move(f), fmt::format("{} {}", name, text));
    };
    for (const std::string& d : o_.degrade) add(FaultKind::kDegrade, d, "--degrade");
    for (const std::string& f : o_.fail) add(FaultKind::kDown, f, "--fail");
    for (const std::string& r : o_.repair) add(FaultKind::kRepair, r, "--repair");
    std::stable_sort(faults.begin(), faults.end(), [](const auto& a, const auto& b) { return a.first.at < b.first.at; });
    for (auto& [fault, given_by] : faults) {
      b_.add(std::move(fault));
      fault_flags_.push_back(std::move(given_by));
    }
  }

  // The value rules, for the flags that parsed (a flag already refused is not reported twice);
  // flags are named after the fields they set.
  void judge() {
    std::set<std::string> refused;
    for (const Diagnostic& d : errors_) refused.insert(d.field);
    if (refused.count("--gpus") != 0) refused.insert("--collective");  // a partial selection cannot be planned
    const auto unless_refused = [&](std::string name) -> std::optional<ValueOrigin> {
      if (refused.count(name) != 0) return std::nullopt;
      return flag(std::move(name));
    };
    for (const CollectiveSpec& c : b_.scenario().collectives) {
      b_.judge(c, [&](const std::string& field) {
        return unless_refused(field.empty() || field == "kind" ? "--collective" : "--" + field);
      });
    }
    const std::vector<FaultSpec>& faults = b_.scenario().faults;
    for (std::size_t i = 0; i < faults.size(); ++i) {
      b_.judge(faults[i], [&](const std::string&) { return unless_refused(fault_flags_[i]); });
    }
  }

  const ScenarioFlags& o_;
  const NameDirectory& names_;
  Diagnostics errors_;
  ScenarioBuilder b_;
  std::vector<std::string> fault_flags_;  // per fault (in time order): the flag and value that gave it
};

}  // namespace

Result<Scenario> build_flag_scenario(const ScenarioFlags& flags, const NameDirectory& names) {
  return FlagScenario(flags, names).build();
}

bool ScenarioFlags::was_given(std::string_view flag) const {
  return std::find(given.begin(), given.end(), flag) != given.end();
}

std::vector<std::string> building_flags_given(const ScenarioFlags& flags) {
  static const char* const kBuilding[] = {"--collective", "--bytes",   "--algorithm", "--gpus",
                                          "--channels",   "--qps",     "--iterations", "--compute",
                                          "--steps",      "--degrade", "--fail",      "--repair",
                                          "--convergence"};
  std::vector<std::string> out;
  for (const char* flag : kBuilding) {
    if (flags.was_given(flag)) out.emplace_back(flag);
  }
  return out;
}

namespace {

std::string place(const SourceLocation& at) { return fmt::format("{}:{}:{}", at.file, at.line, at.column); }

// "'sprya' is not a path model (ecmp, spray, adaptive) (did you mean 'spray'?)".
template <typename Enum, std::size_t N>
std::string not_a(std::string_view what, const std::string& value, const Enum (&all)[N], std::string_view (*name_of)(Enum)) {
  std::vector<std::string> names;
  for (const Enum e : all) names.emplace_back(name_of(e));
  return fmt::format("'{}' is not a {} ({}){}", value, what, fmt::join(names, ", "), did_you_mean(value, names));
}

void apply_model(const ScenarioFlags& flags, const std::string& from, Scenario& s, FlagProblems& out) {
  const auto model = parse_collective_model(flags.model);
  if (!model) {
    out.errors.push_back({kCommandLine, "--model", not_a("collective model", flags.model, kAllCollectiveModels, collective_model_name)});
    return;
  }
  if (s.collectives.empty()) {
    out.usage.push_back(fmt::format("--model {}: the scenario from {} has no collective for it to apply to", flags.model, from));
    return;
  }
  for (std::size_t i = 0; i < s.collectives.size(); ++i) {
    CollectiveSpec& c = s.collectives[i];
    if (c.model_at.line > 0) {
      if (c.model != *model) {
        out.usage.push_back(fmt::format("--model {} (command line) and {}: scenario.collectives[{}].model: {} disagree; give one",
                                        flags.model, place(c.model_at), i, collective_model_name(c.model)));
      }
    } else if (c.steps != 0 && *model != CollectiveModel::kStepwise) {
      out.usage.push_back(fmt::format("--model {} (command line) and collective '{}' of {}, whose steps: {} are the stepwise "
                                      "model's, disagree; give one",
                                      flags.model, c.name, from, c.steps));
    } else {
      c.model = *model;
    }
  }
}

void apply_paths(const ScenarioFlags& flags, Scenario& s, FlagProblems& out) {
  const auto paths = parse_path_model(flags.paths);
  if (!paths) {
    out.errors.push_back({kCommandLine, "--paths", not_a("path model", flags.paths, kAllPathModels, path_model_name)});
    return;
  }
  if (s.paths_at.line == 0) {
    s.paths = *paths;
  } else if (s.paths != *paths) {
    out.usage.push_back(fmt::format("--paths {} (command line) and {}: scenario.paths: {} disagree; give one", flags.paths,
                                    place(s.paths_at), path_model_name(s.paths)));
  }
}

}  // namespace

std::vector<std::string> unused_flags(const ScenarioFlags& flags, const std::string& from) {
  std::vector<std::string> out;
  const bool faults = !flags.degrade.empty() || !flags.fail.empty() || !flags.repair.empty();
  for (const std::string& flag : building_flags_given(flags)) {
    const bool of_faults = flag == "--degrade" || flag == "--fail" || flag == "--repair" || flag == "--convergence";
    if (!from.empty() && (flag == "--collective" || of_faults)) {
      out.push_back(fmt::format("{} builds a scenario from the command line, but the scenario comes from {}: write it there, "
                                "or leave {} out",
                                flag, from, from == "--flows" ? "--flows" : "the file"));
    } else if (flag == "--convergence" && !faults) {
      out.push_back("--convergence is the routing convergence after --fail or --repair, and none is given");
    } else if (!of_faults && flag != "--collective" && flags.collective.empty()) {
      out.push_back(fmt::format("{} describes the collective of --collective KIND, and none is given", flag));
    } else if (!of_faults && flag != "--collective" && !from.empty()) {
      out.push_back(fmt::format("{} describes the collective of --collective, but the scenario comes from {}", flag, from));
    }
  }
  if (from.empty() && flags.collective.empty() && flags.was_given("--model")) {
    out.emplace_back("--model describes the collective of --collective KIND, and none is given");
  }
  if (from.empty() && !flags.collective.empty() && !flags.was_given("--bytes")) {
    out.emplace_back("--collective needs --bytes SIZE, the collective's size as nccl-tests counts it (e.g. 1GiB)");
  }
  return out;
}

FlagProblems apply_flags(const ScenarioFlags& flags, const std::string& from, Scenario& s) {
  FlagProblems out;
  out.usage = unused_flags(flags, from);
  if (flags.was_given("--seed") && s.seed_at.line > 0 && s.seed != flags.seed) {
    out.usage.push_back(fmt::format("--seed {} (command line) and {}: scenario.seed: {} disagree; give one", flags.seed,
                                    place(s.seed_at), s.seed));
  } else if (flags.was_given("--seed")) {
    s.seed = flags.seed;
  }
  if (flags.was_given("--paths")) apply_paths(flags, s, out);
  if (flags.was_given("--model")) apply_model(flags, from, s, out);
  return out;
}

}  // namespace ct
