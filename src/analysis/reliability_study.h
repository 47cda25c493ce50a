// `clustertwin reliability` as a library call: the spec's design, its steady state, closed forms and
// Monte Carlo, and the same cluster (nodes, NIC, switch, cable lengths) re-planned with 1, 2 and 4
// planes and run through the same trials (same seed, same trial numbers), side by side.
//
// A variant sets backend.planes, drops an explicit port_speed (the default, NIC speed / planes,
// follows the plane count) and takes the fewest tiers, starting from the spec's own, that
// validate and build (build_fabric, the check every command's fabric passes); the oversubscription list is cut or extended with its last ratio to the
// tier count. A plane count the NIC cannot split into, or no tier count that fits, makes the
// variant infeasible, with the validator's first message as the reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/reliability_closed_form.h"
#include "analysis/reliability_model.h"
#include "analysis/reliability_monte_carlo.h"
#include "catalog/catalog.h"
#include "core/result.h"
#include "fabric/fabric.h"
#include "spec/spec.h"
#include "spec/valid_spec.h"

namespace ct {

// The spec's reliability: block over the defaults of JobPolicy.
ReliabilityInputs reliability_inputs(const ValidReliability& r);

struct JobSizeRow {
  long long gpus = 0;
  double touch_per_hour = 0;
  double stop_per_hour = 0;
  double expected_interruptions = 0;  // in the horizon
};

struct DesignReliability {
  int planes = 1;
  int tiers = 2;
  std::string infeasible;                  // non-empty: why this variant could not be built
  ReliabilityModel model;
  std::vector<ClassSteadyState> steady;    // by class; empty for unmodelled classes
  FabricSteadyState fabric;                // every modelled element together (the total row)
  JobClosedForm closed;
  MonteCarloSummary mc;
  std::vector<JobSizeRow> job_sizes;       // the spec's design only
  [[nodiscard]] bool feasible() const { return infeasible.empty(); }
};

struct ReliabilityStudy {
  std::string name;
  ReliabilityTrials options;
  DesignReliability design;                // the spec as written
  std::vector<DesignReliability> planes;   // 1, 2 and 4 planes
};

// The design is fabric's; `spec` is the spec as read (before validation), the variants' starting point.
// PRECONDITION: fabric was built from validate(spec, fabric.catalog()).
Result<ReliabilityStudy> study_reliability(const Fabric& fabric, const Spec& spec, const ReliabilityInputs& inputs,
                                           const ReliabilityTrials& options);
// The design alone, without the plane variants and job sizes: what one point of a sweep measures.
Result<DesignReliability> study_design_reliability(const Fabric& fabric, const ReliabilityInputs& inputs,
                                                   const ReliabilityTrials& options);

}  // namespace ct
