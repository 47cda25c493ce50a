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

  // True when the flags describe a scenario (a collective or a fault).
  [[nodiscard]] bool any() const { return !collective.empty() || !degrade.empty() || !fail.empty() || !repair.empty(); }
};

// The scenario named "flags" (or after its collective), file "command line".
Result<Scenario> build_flag_scenario(const ScenarioFlags& flags, const NameDirectory& names);

}  // namespace ct
