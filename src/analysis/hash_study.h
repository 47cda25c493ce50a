// `clustertwin hash` as a library call: per-flow ECMP on a built fabric, studied from every side.
//
//   flows (given, or generated: elephants between chosen ports, or a ring collective)
//     -> forwarding state with the failed links removed (routing/forwarding_state.h)
//     -> path walker over the fabric's per-switch hashes (routing/path_walker.h)
//     -> which decisions are really choices (analysis/decision_coupling.h)
//     -> one draw: paths, loads, collisions and their causes (analysis/hash_scenario.h)
//     -> optional Monte Carlo over fresh source ports beside the closed forms (ecmp_monte_carlo.h)
//     -> optional comparison of load-balancing schemes on the same flows (scheme_comparison.h)
//
// Decision coupling samples: every flow's source port is redrawn max(256, 32 x widest group)
// times (16 samples per member of the widest group at the least, DecisionCoupling::kMinSamples),
// capped so that all flows together make at most 2^20 walks, and never fewer than 32.
//
// Notes and warnings (HashStudy::notes, ::warnings), said before any number. Notes: generated elephants that share a NIC (more
// flows than the first leaf has ports, or than the destination leaf has NICs on other hosts) or go
// to their own host, with the counts. Warnings: `hash: linux` with seed 0 on some switch (the kernel's
// net.ipv4.fib_multipath_hash_seed = 0 means one random key per host, drawn at boot and shared by
// every network namespace of that host, so routers emulated on one host all hash alike).
//
// Names (ports, links, switches) are resolved through the fabric's name directory
// (fabric/name_directory.h); a name that does not resolve is a diagnostic at `where` with the
// option that carried it as the field ("--fail", "--fib", "--from", "--to").
//
// Deterministic: the result depends on (fabric, options) only, never on options.threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/decision_coupling.h"
#include "analysis/ecmp_monte_carlo.h"
#include "analysis/hash_scenario.h"
#include "analysis/scheme_comparison.h"
#include "core/result.h"
#include "core/threads.h"
#include "core/units.h"
#include "fabric/fabric.h"
#include "traffic/flow.h"

namespace ct {

// Every trial's outcomes of a study run in slices, gathered in trial order.
struct HashTrialOutcomes {
  std::vector<TrialOutcome> monte_carlo;   // by trial
  std::vector<SchemeMeasure> comparison;   // [trial x scheme] (scheme_comparison.h)
};

struct HashStudyOptions {
  // Given flows: the text of a flow file (traffic/flow_file.h) and its name. When absent, flows
  // are generated: a ring collective when `ring`, else `elephants` elephant flows.
  std::optional<std::string> flows_text;
  std::string flows_file;
  bool ring = false;
  int channels = 1;  // ring: connections per neighbour
  int qps = 0;       // ring: QPs per connection; 0: routing.qps_per_connection
  int elephants = 2;
  std::vector<std::string> from;  // elephant sources (port names or addresses); empty: the default
  std::vector<std::string> to;    // elephant destinations; empty: the default
  Bytes size{0};                  // per generated flow (for completion times)
  int bursts = 1;                 // per generated flow (flowlet scheme)
  double idle_us = 0.0;
  std::vector<std::string> fail;  // failed links: link ids or "A -- B" (every parallel cable)
  std::vector<std::string> fib;   // switches whose whole forwarding table the report prints
  std::uint32_t trials = 0;       // Monte Carlo trials; 0: none
  std::uint64_t seed = 1;         // generated source ports, coupling samples, trials
  unsigned threads = 0;           // trials and comparison; 0: the hardware's (results do not depend on it)
  bool compare = false;
  std::uint32_t compare_qps = 4;  // QPs per connection in the more-qps row
  // Trials done over the Monte Carlo and the comparison together (core/threads.h); may be empty.
  ProgressCallback progress{};
  SourceLocation where{"command line", 0, 0};  // where the names above were given
  // A slice: the Monte Carlo and the comparison run trials first_trial .. first_trial + trials - 1
  // (each trial's ports depend on (seed, trial) alone), their per-trial outcomes in the study.
  std::uint32_t first_trial = 0;
  // When set, no trial runs: the Monte Carlo and the comparison summarize these, every trial of a
  // study of `trials` trials gathered from its slices, into what the unsplit study gives (less the
  // Monte Carlo's stage_links_used).
  const HashTrialOutcomes* gathered = nullptr;
};

// The study's results. Holds the forwarding state of the degraded fabric (when links failed) and
// the walker the coupling refers to, so it is movable but not copyable.
// PRECONDITION: the Fabric it was made from outlives it.
class HashStudy {
 public:
  std::string spec_name;
  std::string spec_file;
  std::vector<Flow> flows;
  std::string flow_source;  // "2 elephant flows (generated: ...)", "flows.csv (explicit; ...)"
  std::vector<std::string> notes;     // see above
  std::vector<std::string> warnings;  // see above
  std::vector<LinkId> failed;  // ascending, distinct
  std::vector<VertexId> fib_switches;
  std::uint64_t seed = 0;
  std::uint32_t coupling_samples = 0;
  HashScenario scenario;
  std::optional<MonteCarloResult> monte_carlo;
  std::optional<std::vector<SchemeRow>> comparison;
  std::uint32_t comparison_trials = 1;
  std::vector<SchemeMeasure> comparison_measures;  // [trial x scheme], the trials the comparison ran

  [[nodiscard]] const Topology& topology() const { return forwarding().topology(); }
  // The forwarding state the flows were walked on (the fabric's own when no link failed).
  [[nodiscard]] const ForwardingState& forwarding() const { return walker_->forwarding(); }
  [[nodiscard]] const SwitchHashes& hashes() const { return walker_->hashes(); }
  [[nodiscard]] const PathWalker& walker() const { return *walker_; }
  [[nodiscard]] const DecisionCoupling& coupling() const { return *coupling_; }
  // The fabric's name directory: the reports name every cable as it does (cable_name), so a
  // name copied from them reads back through --fail.
  [[nodiscard]] const NameDirectory& names() const { return *names_; }

 private:
  friend Result<HashStudy> study_hash(const Fabric& fabric, const HashStudyOptions& options);
  std::unique_ptr<const ForwardingState> degraded_;  // null: the fabric's forwarding state
  std::unique_ptr<const PathWalker> own_walker_;     // over degraded_
  const PathWalker* walker_ = nullptr;
  std::unique_ptr<const DecisionCoupling> coupling_;
  const NameDirectory* names_ = nullptr;
};

// Every diagnostic of the options (names, flow file, generated pairs) at once where they are
// independent; else the study.
Result<HashStudy> study_hash(const Fabric& fabric, const HashStudyOptions& options);

}  // namespace ct
