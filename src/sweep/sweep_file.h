// A sweep file: the points of a design study and what is measured at each (docs/models/sweep.md).
//
//   base: b300-dual-plane.yaml          # a cluster spec, relative to the sweep file
//   axes:                               # the points are the product of the axes ...
//     - path: backend.planes            # a dotted field path of the spec
//       values: [1, 2, 4]
//     - path: backend.tiers
//       values: [2, 3]
//     - name: switch                    # a variant axis: each value a file of spec fields that
//       variants: [sn5600.yaml, q3400.yaml]  # overlays the base (named by its stem: sn5600)
//   zip: [[backend.planes, backend.port_speed]]   # ... except zipped axes, which advance together
//   exclude:                            # ... less the points that match every entry of one item
//     - {backend.planes: 4, backend.tiers: 2}
//   seeds: [1, 2, 3]                    # one row per point x seed
//   scenarios: [ring.yaml]              # what `simulate` runs (default: the base spec's own block)
//   studies:
//     plan: {}                          # switches, bisection, power and cost
//     reliability: {trials: 200}        # P(anything down), hours lost per 30 days
//     simulate: {engine: flow}          # per scenario: makespan, workers' time lost; per operation
//                                       # its time and busbw
//     hash: {elephants: 8, trials: 200} # collision probability of per-flow ECMP, and with
//                                       # compare: true the slowest flow under each scheme
//     slice_trials: 10000               # Monte Carlos larger than this run in slices of this many
//                                       # trials over the workers; the figures do not change
//   objectives:                         # the Pareto front, over the per-point means
//     - {metric: switches, goal: min}
//     - {metric: lost_hours_30d, goal: min}
//
// Axis paths are resolved against the spec's own reader (spec/spec_parser.h), never a second
// schema: each value is written into the base spec's tree and the result read back; a problem the
// reader finds (an unknown field with its did-you-mean, a value out of range or of the wrong type)
// is reported at the axis value's line in the sweep file. A variant file is read as the settings
// it makes (each leaf's dotted path and value: mappings merge into the base's, a scalar or a list
// replaces it), each checked the same way and reported at its own line in the variant file. A
// duplicate axis, a variant that sets a path axis's field, a zip of unequal lengths and an unknown
// metric are located errors too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "core/diagnostic.h"
#include "core/result.h"

namespace ct {

// One field a variant file sets: its dotted path, its value in flow form, and where the file says so.
struct SweepSetting {
  std::string path;
  std::string yaml;
  SourceLocation where;
};

struct SweepValue {
  std::string yaml;    // the value in YAML flow form ("2", "[1, 1]", "400G"); a variant: its name
  SourceLocation where;
  std::vector<SweepSetting> settings;  // a variant's fields, in its file's order
  std::string text;                    // a variant file's text (the journal's key reads it)
};

struct SweepAxis {
  std::string path;    // dotted spec field path; a variant axis: its name
  SourceLocation where;
  std::vector<SweepValue> values;
  bool variants = false;
};

// One item of `exclude`: the point is left out when every (axis, value) pair matches.
struct SweepExclusion {
  std::vector<std::pair<std::size_t, std::string>> match;  // axis index, value in flow form
};

enum class Goal { kMinimize, kMaximize };

struct SweepObjective {
  std::string metric;
  Goal goal = Goal::kMinimize;
};

// A scenario `simulate` runs at every point: read again on each point's fabric (its names resolve
// there), its operations named when the sweep is read, on the base spec's fabric.
struct SweepScenario {
  std::string file;        // resolved against the sweep file's folder; the base spec for its own block
  std::string text;
  SourceLocation where;    // its entry in `scenarios:` (the `simulate` key for the base's block)
  std::string name;        // the metrics' prefix: the scenario's name, else the file's stem
  std::vector<std::string> operations;  // collectives and transfers, in the file's order
};

struct SweepStudies {
  bool plan = false;
  bool reliability = false;
  int reliability_trials = 200;
  bool simulate = false;
  std::string engine = "flow";  // sim/engine.h engine_name; refused while not built
  std::vector<SweepScenario> scenarios;
  bool hash = false;
  int hash_elephants = 8;       // generated elephants (analysis/hash_study.h) ...
  bool hash_ring = false;       // ... or a ring collective's flows
  std::uint32_t hash_trials = 200;
  bool hash_compare = false;
  // A point whose reliability or hash Monte Carlo has more trials than this is run as slices of
  // this many trials, spread over the workers and gathered in trial order (docs/models/sweep.md).
  std::uint32_t slice_trials = kDefaultSliceTrials;
  static constexpr std::uint32_t kDefaultSliceTrials = 10'000;
};

struct SweepFile {
  std::string file;        // the sweep file as named
  std::string base_path;   // the base spec, resolved against the sweep file's folder
  std::string base_text;
  std::vector<SweepAxis> axes;
  std::vector<std::vector<std::size_t>> zips;  // groups of axis indices that advance together
  std::vector<SweepExclusion> exclude;
  std::vector<std::uint64_t> seeds;            // at least one
  SweepStudies studies;
  std::vector<SweepObjective> objectives;
};

// The metrics a study gives (the row columns after the axes), in column order.
std::vector<std::string> sweep_metrics(const SweepStudies& studies);

// Reads and checks a sweep file; the base spec and the scenarios are read from disk (io/files.h).
// With `simulate`, the base spec is built on the catalog and each scenario read on it, so that a
// scenario's own errors are found before any point runs and its operations name the metrics.
Result<SweepFile> read_sweep(const std::string& file, const std::string& text, const Catalog& catalog);

// The base spec's YAML with each (path, value) written in, as text for read_spec.
// PRECONDITION: the paths were checked by read_sweep.
std::string spec_with(const std::string& base_text, const std::vector<std::pair<std::string, std::string>>& settings);

}  // namespace ct
