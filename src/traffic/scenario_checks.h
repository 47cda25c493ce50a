// The rules a Scenario value (traffic/scenario.h) must follow before it is compiled and simulated,
// in one place, whoever built it: the scenario file's reader, `simulate`'s flags, a test. Each
// problem names the item and field it is about, so that the caller can say where the user wrote it
// (file:line for YAML, the flag for the command line).
//
// Rules (limits as in traffic/scenario_parser.h):
//   collectives  bytes > 0; channels 0 (default) or 1..kMaxChannels; qps 0 (default) or
//                1..kMaxQps; iterations 1..kMaxIterations; weight in (0, 1e6]; at least one group,
//                no group empty, every GPU exists and appears once in its group; every group
//                can be planned (traffic/collective.h check_collective).
//   transfers    bytes > 0; channels, qps and weight as above; both ends GPUs or both ports, that
//                exist, differ, and (ports) are on one plane.
//   mice         count 1..kMaxMice; bytes > 0; at least 2 hosts, all existing; arrivals_per_s 0 or
//                in [kMinArrivalsPerSecond, 1e15] with (count - 1) / rate <= 10^5 s; weight as above.
//   faults       at least one link, all existing; at, convergence >= 0; fraction 0 for down, 1
//                for repair, in (0, 1] for degrade.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "topology/topology.h"
#include "traffic/scenario.h"

namespace ct {

inline constexpr std::uint32_t kMaxChannels = 64;
inline constexpr std::uint32_t kMaxQps = 64;
inline constexpr std::uint32_t kMaxIterations = 100'000;
inline constexpr std::uint32_t kMaxMice = 10'000'000;
inline constexpr double kMaxWeight = 1e6;
// Mice arrivals: 0 (all at start) or at least this many per second, and the set's mean span
// (count - 1) / rate at most a tenth of the time a run can simulate (core/units.h kMaxDuration),
// so that Poisson arrivals stay inside the time range.
inline constexpr double kMinArrivalsPerSecond = 1e-3;

enum class ScenarioPart : std::uint8_t { kScenario, kCollective, kTransfer, kMice, kFault };

struct ScenarioProblem {
  ScenarioPart part = ScenarioPart::kScenario;
  std::uint32_t index = 0;  // which collective, transfer, mice set or fault
  std::string field;        // "bytes", "qps", "dst", ...; empty: the item as a whole
  std::string message;
};

// Every problem, in scenario order. PRECONDITION: topology.finalize() was called.
std::vector<ScenarioProblem> check_scenario(const Scenario& scenario, const Topology& topology);

// The same rules on one item, as a reader meets it (problems with index 0): a file's reader judges
// each item where it ends, so that its diagnostics stay in file order.
std::vector<ScenarioProblem> check_item(const CollectiveSpec& item, const Topology& topology);
std::vector<ScenarioProblem> check_item(const TransferSpec& item, const Topology& topology);
std::vector<ScenarioProblem> check_item(const MiceSpec& item, const Topology& topology);
std::vector<ScenarioProblem> check_item(const FaultSpec& item, const Topology& topology);

// "scenario.collectives[0].bytes", "scenario.faults[2]": the field as a scenario file names it.
std::string scenario_field(const ScenarioProblem& problem);

// The problems as diagnostics at the scenario's file, fields named as in a scenario file.
Diagnostics scenario_diagnostics(const Scenario& scenario, const Topology& topology);

}  // namespace ct
