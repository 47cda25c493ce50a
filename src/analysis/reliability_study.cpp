#include "analysis/reliability_study.h"

#include <algorithm>

#include "spec/validate.h"

namespace ct {

ReliabilityInputs reliability_inputs(const ValidReliability& r) {
  ReliabilityInputs in;
  in.afr = r.afr;
  in.repair_hours = r.repair_hours;
  JobPolicy& job = in.job;
  if (r.job_gpus) job.gpus = *r.job_gpus;
  if (r.horizon_days) job.horizon_hours = 24.0 * *r.horizon_days;
  if (r.checkpoint_hours) job.checkpoint_hours = *r.checkpoint_hours;
  if (r.restart_minutes) job.restart_hours = *r.restart_minutes / 60.0;
  if (r.comm_fraction) job.comm_fraction = *r.comm_fraction;
  if (r.spare_hosts) job.spare_hosts = *r.spare_hosts;
  if (r.adaptive_split) in.split = *r.adaptive_split ? PathSplit::kAdaptive : PathSplit::kEcmp;
  if (r.drain_degraded) job.degraded = *r.drain_degraded ? DegradedPolicy::kDrainAtCheckpoint : DegradedPolicy::kContinue;
  return in;
}

namespace {

Result<DesignReliability> analyze(const std::string& name, const Fabric& fabric, const ReliabilityInputs& inputs,
                                  const ReliabilityTrials& options, bool job_sizes) {
  const ValidSpec& valid = fabric.spec();
  const Catalog& catalog = fabric.catalog();
  const Topology& topology = fabric.topology();
  const ClassSlowdowns slowdowns = compute_class_slowdowns(topology, inputs.split);
  auto model = build_reliability_model(name, topology, catalog, inputs, slowdowns);
  if (!model) return model.errors();
  DesignReliability d;
  d.planes = valid.backend.planes;
  d.tiers = valid.backend.tiers;
  d.model = std::move(model).value();
  for (const ElementClass& c : d.model.classes) {
    d.steady.push_back(c.modelled() ? steady_state(c, d.model.job.horizon_hours) : ClassSteadyState{});
  }
  d.fabric = fabric_steady_state(d.model);
  d.closed = job_closed_form(d.model);
  d.mc = run_monte_carlo(d.model, options);
  if (!job_sizes) return d;
  std::vector<long long> sizes;
  for (long long n = 8; n < d.model.gpus; n *= 8) sizes.push_back(n);
  sizes.push_back(d.model.gpus);
  for (long long n : sizes) {
    ReliabilityInputs sized = inputs;
    sized.job.gpus = n;
    sized.job.spare_hosts = -1;
    auto m = build_reliability_model(name, topology, catalog, sized, slowdowns);
    if (!m) continue;
    const JobClosedForm closed = job_closed_form(m.value());
    d.job_sizes.push_back({n, closed.touch_per_hour, closed.stop_per_hour, closed.expected_interruptions});
  }
  return d;
}

// The spec re-planned with `planes` planes at the fewest tiers that validate and build.
Result<Fabric> with_planes(const Spec& spec, const ValidSpec& valid, const Catalog& catalog, int planes) {
  std::vector<int> tier_order = {valid.backend.tiers};
  for (int tiers : {2, 3}) {
    if (tiers != valid.backend.tiers) tier_order.push_back(tiers);
  }
  Diagnostics last;
  for (int tiers : tier_order) {
    Spec s = spec;
    s.backend.planes = {planes, spec.backend.planes.where, true};
    s.backend.port_speed.present = false;
    s.backend.tiers = {tiers, spec.backend.tiers.where, true};
    auto& ratios = s.backend.oversubscription;
    if (!ratios.empty()) ratios.resize(static_cast<std::size_t>(tiers - 1), ratios.back());
    auto v = validate(s, catalog);
    if (!v) {
      last = v.errors();
      continue;
    }
    auto built = build_fabric(v.value(), catalog);
    if (!built) {
      last = built.errors();
      continue;
    }
    return std::move(built).value();
  }
  return last;
}

}  // namespace

Result<ReliabilityStudy> study_reliability(const Fabric& fabric, const Spec& spec, const ReliabilityInputs& inputs,
                                           const ReliabilityTrials& options) {
  const ValidSpec& valid = fabric.spec();
  const Catalog& catalog = fabric.catalog();
  ReliabilityStudy out;
  out.name = valid.name;
  out.options = options;
  // Progress over every Monte Carlo run: the design, then at most three plane counts.
  const auto runs = std::uint64_t{4};
  const auto per_run = static_cast<std::uint64_t>(std::max(0, options.trials));
  std::uint64_t run = 0;
  const auto run_options = [&] {
    ReliabilityTrials o = options;
    if (options.progress) {
      o.progress = [&options, offset = run++ * per_run, runs, per_run](std::uint64_t done, std::uint64_t) {
        options.progress(offset + done, runs * per_run);
      };
    }
    return o;
  };
  auto design = analyze(valid.name, fabric, inputs, run_options(), true);
  if (!design) {
    // The model's diagnostics name a spec field: point them at the reliability: block, or the file.
    Diagnostics errors = design.errors();
    for (Diagnostic& d : errors) {
      if (d.where.file.empty()) d.where = spec.reliability.present ? spec.reliability.where : SourceLocation{spec.file, 1, 1};
    }
    return errors;
  }
  out.design = std::move(design).value();
  for (int planes : {1, 2, 4}) {
    DesignReliability d;
    d.planes = planes;
    auto v = with_planes(spec, valid, catalog, planes);
    if (!v) {
      d.infeasible = v.errors().empty() ? "no tier count fits" : v.errors().front().message;
      out.planes.push_back(std::move(d));
      continue;
    }
    const ValidBackend& b = v->spec().backend;
    if (b.planes == valid.backend.planes && b.tiers == valid.backend.tiers && b.port_speed == valid.backend.port_speed) {
      out.planes.push_back(out.design);
      out.planes.back().job_sizes.clear();
      continue;
    }
    auto analyzed = analyze(valid.name, v.value(), inputs, run_options(), false);
    if (!analyzed) return analyzed.errors();
    out.planes.push_back(std::move(analyzed).value());
  }
  if (options.progress) options.progress(runs * per_run, runs * per_run);
  return out;
}

Result<DesignReliability> study_design_reliability(const Fabric& fabric, const ReliabilityInputs& inputs,
                                                   const ReliabilityTrials& options) {
  return analyze(fabric.spec().name, fabric, inputs, options, false);
}

}  // namespace ct
