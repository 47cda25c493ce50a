// `clustertwin simulate`'s scenario flags -> Scenario (traffic/scenario.h): one collective and any
// number of faults, built by the scenario builder (traffic/scenario_builder.h) as a scenario file's
// are, and checked by the same rules (traffic/scenario_checks.h). Every diagnostic is at "command
// line" and names its flag; a value rule names the flag that set the field it is about.
//
//   --collective KIND --bytes SIZE [--algorithm A] [--model pipelined|stepwise] [--gpus SEL]
//   [--channels N] [--qps N] [--iterations N] [--compute DUR] [--steps N]
//   [--paths ecmp|spray|adaptive] [--seed N] [--convergence DUR]
//   [--degrade LINK=FRACTION[@TIME]]... [--fail LINK@TIME]... [--repair LINK@TIME]...
//
// SEL: all | per-rail | per-host | a comma-separated list of GPUs ("host0/gpu0,gpu9,12"), or the
// scenario file's forms, a list "[0, 1, host2/gpu0]" or a mapping "{hosts: [0, 3], local: [0],
// per: rail, order: random}" (read by the scenario file's reader, traffic/scenario_parser.h).
// LINK: "A -- B" or a LinkId (every parallel cable), a backend port ("host0/nic0": its NIC link),
// or a backend switch (all its links). TIME defaults to 0us. Faults are kept in time order (stable).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "fabric/name_directory.h"
#include "traffic/scenario.h"

namespace ct {

// The flags' values as typed (strings where the text itself is checked).
struct ScenarioFlags {
  std::string collective;
  std::string algorithm;
  std::string model;
  std::string gpus = "all";
  std::string bytes;
  unsigned channels = 0;
  unsigned qps = 0;
  unsigned iterations = 1;
  std::string compute;
  unsigned steps = 0;
  std::string paths = "ecmp";
  std::uint64_t seed = 1;
  std::vector<std::string> degrade;
  std::vector<std::string> fail;
  std::vector<std::string> repair;
  std::string convergence;
  // The flags given on the command line, by name ("--model"), whatever their values: a flag left
  // at its default is told apart from one given with the default's value.
  std::vector<std::string> given;

  // True when the flags describe a scenario (a collective or a fault).
  [[nodiscard]] bool any() const { return !collective.empty() || !degrade.empty() || !fail.empty() || !repair.empty(); }
  [[nodiscard]] bool was_given(std::string_view flag) const;
};

// The scenario named "flags" (or after its collective), file "command line".
Result<Scenario> build_flag_scenario(const ScenarioFlags& flags, const NameDirectory& names);

// A flag either applies or is refused. What the flags do to a scenario that does not come from
// them (`from`: "FILE" for --scenario FILE or the spec's own block, "--flows" for a flow table
// alone):
//   --seed     a file's scenario is read with it (parse_scenario's default_seed), see below;
//   --paths    applies where the file writes no `paths:` (and to a flow table alone);
//   --model    applies to each collective whose `model:` is not written (and that gives no
//              `steps:`, which are the stepwise model's); a flow table alone has no collective;
//   the flags that build a scenario of their own (--collective and its --bytes, --algorithm,
//   --gpus, --channels, --qps, --iterations, --compute, --steps; the faults --degrade, --fail,
//   --repair, --convergence) are refused with a scenario from a file.
// A value the file writes and a flag given otherwise (`paths: ecmp` and --paths spray, `seed: 1`
// and --seed 2, `model: pipelined` and --model stepwise) is a conflict, named at both places.
// Conflicts and refusals are usage problems (exit 2): returned as messages. A value that names
// nothing (--paths sprya) is a diagnostic at "command line", bad input (exit 1).
struct FlagProblems {
  std::vector<std::string> usage;
  Diagnostics errors;
};
FlagProblems apply_flags(const ScenarioFlags& flags, const std::string& from, Scenario& scenario);
// Of the flags given, those that only the flag-built scenario reads (a collective's or a fault's).
std::vector<std::string> building_flags_given(const ScenarioFlags& flags);
// The flags given that nothing would read, as usage messages: with a scenario `from` a file or
// --flows, every building flag; with the flag-built scenario (`from` empty), a collective's flags
// (--model among them) without --collective, --collective without --bytes (its size: a flag that
// needs another is usage, either way round) and --convergence without a fault.
std::vector<std::string> unused_flags(const ScenarioFlags& flags, const std::string& from);

}  // namespace ct
