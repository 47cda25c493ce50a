// Hand-computed tests of the failure model, its closed forms, the job timeline and the Monte Carlo
// (reliability_model.h, reliability_closed_form.h, reliability_timeline.h, reliability_monte_carlo.h),
// on small B300 clusters run through the real pipeline (parse_spec -> validate -> build_topology).
#include <cmath>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/reliability_closed_form.h"
#include "analysis/reliability_model.h"
#include "analysis/reliability_monte_carlo.h"
#include "analysis/reliability_timeline.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/shipped_catalog.h"
#include "topology/builder.h"

namespace ct {
namespace {

using testing_support::real_catalog;

// `nodes` HGX B300 hosts (8 GPUs, 8 ConnectX-8) on a two-tier rail-optimized SN5600 fabric.
Topology b300(int nodes, int planes) {
  const std::string yaml = fmt::format(
      "name: t\nnodes: {{model: hgx-b300, count: {}}}\nbackend:\n  topology: rail-optimized\n  planes: {}\n"
      "  tiers: 2\n  switch: sn5600\n",
      nodes, planes);
  auto spec = parse_spec("t.yaml", yaml);
  EXPECT_TRUE(spec.ok());
  auto valid = validate(spec.value(), real_catalog());
  EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : format_diagnostics(valid.errors()));
  EXPECT_TRUE(check_buildable(valid.value()).empty());
  return build_topology(valid.value(), real_catalog());
}

// Every element kind at the same rate and repair time.
ReliabilityInputs uniform_inputs(double per_hour, double repair_hours) {
  ReliabilityInputs in;
  for (int k = 0; k < kFailureElementCount; ++k) {
    in.afr[k] = per_hour * kHoursPerYear;
    in.repair_hours[k] = repair_hours;
  }
  return in;
}

ReliabilityModel model_of(const Topology& t, const ReliabilityInputs& in) {
  auto m = build_reliability_model("t", t, real_catalog(), in, compute_class_slowdowns(t));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_diagnostics(m.errors()));
  return std::move(m).value();
}

const ElementClass* find_class(const ReliabilityModel& m, const std::string& name) {
  for (const auto& c : m.classes) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// The element whose RNG stream is `stream` (NICs: host x rails + rail; links: NICs + link id).
std::uint32_t element_with_stream(const ReliabilityModel& m, std::uint64_t stream) {
  for (std::uint32_t e = 0; e < m.element_count(); ++e) {
    if (m.stream[e] == stream) return e;
  }
  ADD_FAILURE() << "no element with stream " << stream;
  return 0;
}

// 16 B300 hosts, 2 planes at 400G: SN5600 radix 128, leaf 64 down / 64 up. One scalable unit of
// 64 hosts holds all 16: per plane 8 leaves (one per rail), 16 x 8 = 128 NIC-leaf links; spines
// S = smallest divisor of 64 with 128 S >= 8 x 64: S = 4, each leaf 16 cables to each spine, 512
// leaf-spine links. Both planes: 256 NIC-leaf links, 1,024 leaf-spine links, 16 leaves, 8 spines,
// and 128 NICs. Optics (30 m and 100 m defaults): transceivers on both tiers. The job (all 128
// GPUs) sits in one SU: each rail's ports under one leaf per plane, so no traffic crosses the
// spines: NICs, NIC-leaf links and leaves reach it, spines and leaf-spine links do not.
TEST(ReliabilityModel, CountsEveryElementAndWhatReachesTheJob) {
  const ReliabilityModel m = model_of(b300(16, 2), uniform_inputs(1e-4, 1));
  ASSERT_EQ(m.classes.size(), 5u);
  const struct {
    const char* name;
    long long count, touching;
  } expected[] = {{"NIC", 128, 128},
                  {"NIC-leaf link (transceiver)", 256, 256},
                  {"leaf-spine link (transceiver)", 1024, 0},
                  {"leaf", 16, 16},
                  {"spine", 8, 0}};
  for (const auto& e : expected) {
    const ElementClass* c = find_class(m, e.name);
    ASSERT_NE(c, nullptr) << e.name;
    EXPECT_EQ(c->count, e.count) << e.name;
    EXPECT_EQ(c->touching_job, e.touching) << e.name;
  }
  EXPECT_EQ(m.job_hosts, 16);
  EXPECT_EQ(m.spare_hosts, 1);  // ceil(16 / 16)
  EXPECT_EQ(m.element_count(), 128u + 256 + 1024 + 16 + 8);
}

// 128 hosts, 2 planes: two scalable units of 64 hosts, 16 leaves per plane; S = smallest divisor of
// 64 with 128 S >= 16 x 64: 8 spines, 8 parallel cables per leaf-spine pair. The job spans both
// SUs, so rail r's ports sit under two leaves: its traffic crosses the spines. Stress pattern leaf
// i -> leaf i + 8: each pair splits over 8 spine paths of 8 cables (3.2T each). A spine down: 7
// paths: 8/7. One cable down: its bundle runs at 7/8 and carries the same 1/8 of the pair: 8/7.
TEST(ReliabilityModel, SpinesReachAJobAcrossScalableUnitsWithTheEngineSlowdown) {
  const ReliabilityModel m = model_of(b300(128, 2), uniform_inputs(1e-4, 1));
  const ElementClass* spine = find_class(m, "spine");
  const ElementClass* cable = find_class(m, "leaf-spine link (transceiver)");
  ASSERT_NE(spine, nullptr);
  ASSERT_NE(cable, nullptr);
  EXPECT_EQ(spine->count, 16);
  EXPECT_EQ(spine->touching_job, 16);
  EXPECT_NEAR(spine->slowdown, 8.0 / 7.0, 1e-9);
  EXPECT_NEAR(cable->slowdown, 8.0 / 7.0, 1e-9);
  EXPECT_EQ(cable->count, 2 * 16 * 64);
  // The bundle the report's note names: 8 parallel cables, c / (c - 1) = 8/7 under ECMP.
  EXPECT_EQ(cable->bundle, 8);
  EXPECT_EQ(spine->bundle, 1);
}

// The catalog has failure rates but no repair times: a model without a spec repair time is an
// error naming the field to set.
TEST(ReliabilityModel, MissingRepairTimeNamesTheSpecField) {
  const Topology t = b300(16, 1);
  auto m = build_reliability_model("t", t, real_catalog(), ReliabilityInputs{}, compute_class_slowdowns(t));
  ASSERT_FALSE(m.ok());
  bool link = false;
  for (const auto& d : m.errors()) link = link || d.field == "reliability.repair_hours.link";
  EXPECT_TRUE(link) << format_diagnostics(m.errors());
}

// n = 1,000 links, lambda = 1e-3 per hour, MTTR 10 h: lambda MTTR = 0.01, p = 0.01 / 1.01.
// E[down] = 1000 p = 9.90; P(>= 1 down) = 1 - (1 - p)^1000; over 720 h the failures expected are
// 1000 x 1e-3 x (1 - p) x 720 = 712.87.
TEST(ReliabilityClosedForm, SteadyStateOfAClassByHand) {
  ElementClass c;
  c.count = 1000;
  c.per_hour = 1e-3;
  c.mttr_hours = 10;
  const double p = 0.01 / 1.01;
  const ClassSteadyState s = steady_state(c, 720);
  EXPECT_DOUBLE_EQ(s.p_down, p);
  EXPECT_NEAR(s.expected_down, 1000 * p, 1e-9);
  EXPECT_NEAR(s.p_any_down, 1 - std::pow(1 - p, 1000), 1e-12);
  EXPECT_NEAR(s.expected_failures, 1000 * 1e-3 * (1 - p) * 720, 1e-9);
  ASSERT_EQ(s.p_k_down.size(), 4u);
  EXPECT_NEAR(s.p_k_down[0], std::pow(1 - p, 1000), 1e-12);
  EXPECT_NEAR(s.p_k_down[1], 1000 * p * std::pow(1 - p, 999), 1e-12);
  EXPECT_NEAR(s.p_k_down[0] + s.p_k_down[1] + s.p_k_down[2] + s.p_k_down[3], 1.0, 1e-12);
}

// X ~ Exp(rate), checkpoints every T: E[X mod T] = 1/rate - T / (e^(rate T) - 1). rate = 1/h,
// T = 1 h: 1 - 1/(e - 1) = 0.41802; the T/2 limit for rate -> 0.
TEST(ReliabilityClosedForm, WorkLostSinceTheLastCheckpoint) {
  EXPECT_NEAR(expected_time_since_checkpoint(1.0, 1.0), 1.0 - 1.0 / (std::exp(1.0) - 1.0), 1e-12);
  EXPECT_NEAR(expected_time_since_checkpoint(1e-9, 2.0), 1.0, 1e-8);
}

// 16 hosts at lambda = 1e-4 per hour for every element: 128 NICs, 128 NIC-leaf links and 8 leaves
// reach the job. One plane: all stop it: Lambda_stop = 264e-4. Two planes: only the 128 NICs stop
// it (1.28e-2); the 256 NIC-leaf links and 16 leaves degrade it (2.72e-2).
TEST(ReliabilityClosedForm, PlanesTurnStopsIntoDegradations) {
  const JobClosedForm one = job_closed_form(model_of(b300(16, 1), uniform_inputs(1e-4, 1)));
  EXPECT_NEAR(one.stop_per_hour, 264e-4, 1e-12);
  EXPECT_NEAR(one.degrade_per_hour, 0.0, 1e-12);
  const JobClosedForm two = job_closed_form(model_of(b300(16, 2), uniform_inputs(1e-4, 1)));
  EXPECT_NEAR(two.stop_per_hour, 128e-4, 1e-12);
  EXPECT_NEAR(two.degrade_per_hour, 272e-4, 1e-12);
  EXPECT_NEAR(two.mean_hours_between_touches(), 1.0 / 400e-4, 1e-9);
}

// The hand-worked example of the issue. 16 hosts, horizon 10 h, checkpoint every 2 h, restart
// 0.25 h, one spare host, comm fraction c. The NIC-leaf link of host 0, rail 0, plane 0 fails at
// 3.5 h and is repaired at 5.5 h.
//   1 plane:  the job stops at 3.5 h; the 1.5 h since the 2 h checkpoint are lost; host 0 moves to
//             the spare and the job restarts until 3.75 h. Lost 0.25 + 1.5 = 1.75 h.
//   2 planes: GPU 0 keeps plane 1 at half its bandwidth: x = 2, r = 1 / ((1 - c) + 2c). c = 1:
//             r = 1/2 for 2 h, lost 1.0 h; c = 0.5: r = 2/3, lost 2/3 h.
//   Two planes save 1.75 - 1.0 = 0.75 h of the 10 (c = 1), running on until the repair
//   (policy continue). With the drain policy the job runs degraded only to the 4 h checkpoint
//   (0.5 h at r = 1/2), then restarts on the spare (0.25 h): lost 0.5 h, 1.25 h less than 1 plane.
TEST(JobTimeline, OneLinkFailureStopsOnePlaneAndSlowsTwo) {
  ReliabilityInputs in = uniform_inputs(1e-4, 1);
  in.job.degraded = DegradedPolicy::kContinue;
  in.job.horizon_hours = 10;
  in.job.checkpoint_hours = 2;
  in.job.restart_hours = 0.25;
  in.job.spare_hosts = 1;
  const auto outcome = [&](int planes, double c) {
    in.job.comm_fraction = c;
    const Topology t = b300(16, planes);
    const ReliabilityModel m = model_of(t, in);
    const std::uint64_t nics = 16 * 8;
    const std::uint32_t link = element_with_stream(m, nics + t.port_of(HostId(0), 0, 0).value());
    const ElementEvent events[] = {{3.5, link, true}, {5.5, link, false}};
    return JobTimeline(m).run({}, events);
  };
  const JobOutcome one = outcome(1, 1.0);
  EXPECT_EQ(one.interruptions, 1);
  EXPECT_DOUBLE_EQ(one.rework_hours, 1.5);
  EXPECT_DOUBLE_EQ(one.restart_hours, 0.25);
  EXPECT_DOUBLE_EQ(one.lost_hours(), 1.75);
  EXPECT_NEAR(one.work_hours, 8.25, 1e-12);
  const JobOutcome two = outcome(2, 1.0);
  EXPECT_EQ(two.interruptions, 0);
  EXPECT_DOUBLE_EQ(two.degraded_hours, 2.0);
  EXPECT_DOUBLE_EQ(two.lost_hours(), 1.0);
  EXPECT_NEAR(two.work_hours, 9.0, 1e-12);
  EXPECT_DOUBLE_EQ(one.lost_hours() - two.lost_hours(), 0.75);
  EXPECT_NEAR(outcome(2, 0.5).lost_hours(), 2.0 / 3.0, 1e-12);
  in.job.degraded = DegradedPolicy::kDrainAtCheckpoint;
  const JobOutcome drained = outcome(2, 1.0);
  EXPECT_EQ(drained.drains, 1);
  EXPECT_EQ(drained.interruptions, 0);
  EXPECT_DOUBLE_EQ(drained.degraded_loss_hours, 0.25);
  EXPECT_DOUBLE_EQ(drained.restart_hours, 0.25);
  EXPECT_DOUBLE_EQ(one.lost_hours() - drained.lost_hours(), 1.25);
}

// Two planes (policy continue), 16 hosts, horizon 10 h, checkpoint every 2 h, restart 0.25 h. GPU 0 loses plane 0 at
// 1 h and plane 1 at 2 h; the repairs come at 4 h and 6 h. Work: 1 h at r = 1, then 1 h at r = 1/2;
// the 2 h checkpoint (applied before the 2 h failure) saves all 1.5 h. At 2 h GPU 0 is isolated:
// the job stops, nothing is lost since the checkpoint.
//   One spare: host 0 moves to it, restart to 2.25 h, full speed after. Lost 0.5 + 0.25 = 0.75 h.
//   No spare: blocked from 2 h until plane 0 returns at 4 h (GPU 0 no longer isolated), restart
//   to 4.25 h, then half speed until plane 1 returns at 6 h: lost 0.5 + 2 + 0.25 + 1.75 / 2.
TEST(JobTimeline, LosingBothPlanesIsolatesAndNoSpareMeansWaiting) {
  ReliabilityInputs in = uniform_inputs(1e-4, 1);
  in.job.degraded = DegradedPolicy::kContinue;
  in.job.horizon_hours = 10;
  in.job.checkpoint_hours = 2;
  in.job.restart_hours = 0.25;
  const Topology t = b300(16, 2);
  const std::uint64_t nics = 16 * 8;
  const auto run = [&](long long spares) {
    in.job.spare_hosts = spares;
    const ReliabilityModel m = model_of(t, in);
    const std::uint32_t p0 = element_with_stream(m, nics + t.port_of(HostId(0), 0, 0).value());
    const std::uint32_t p1 = element_with_stream(m, nics + t.port_of(HostId(0), 0, 1).value());
    const ElementEvent events[] = {{1, p0, true}, {2, p1, true}, {4, p0, false}, {6, p1, false}};
    return JobTimeline(m).run({}, events);
  };
  const JobOutcome spare = run(1);
  EXPECT_EQ(spare.interruptions, 1);
  EXPECT_DOUBLE_EQ(spare.rework_hours, 0.0);
  EXPECT_DOUBLE_EQ(spare.degraded_loss_hours, 0.5);
  EXPECT_DOUBLE_EQ(spare.lost_hours(), 0.75);
  const JobOutcome none = run(0);
  EXPECT_DOUBLE_EQ(none.blocked_hours, 2.0);
  EXPECT_DOUBLE_EQ(none.restart_hours, 0.25);
  EXPECT_DOUBLE_EQ(none.degraded_loss_hours, 0.5 + 0.875);
  EXPECT_NEAR(none.work_hours + none.lost_hours(), 10.0, 1e-12);
}

// ---- Monte Carlo against the closed forms, fixed seeds, tolerance 4 standard errors ----

// Fabric check: 16 hosts, 1 plane, every element at lambda = 0.01 per hour, MTTR 2 h:
// p = 0.02 / 1.02. 400 trials of 100 h: per class the number down at mid-horizon averages n p,
// P(>= 1 down) is 1 - (1 - p)^n, failures average n lambda (1 - p) H.
TEST(ReliabilityMonteCarlo, FabricCountsAgreeWithTheClosedForms) {
  ReliabilityInputs in = uniform_inputs(0.01, 2);
  in.job.horizon_hours = 100;
  const ReliabilityModel m = model_of(b300(16, 1), in);
  const MonteCarloSummary s = run_monte_carlo(m, {.seed = 7, .trials = 400, .threads = 2});
  for (std::size_t c = 0; c < m.classes.size(); ++c) {
    const ClassSteadyState closed = steady_state(m.classes[c], 100);
    const ClassEstimate& mc = s.classes[c];
    EXPECT_NEAR(mc.down_at_mid.mean, closed.expected_down, 4 * mc.down_at_mid.std_error + 1e-9) << m.classes[c].name;
    EXPECT_NEAR(mc.failures.mean, closed.expected_failures, 4 * mc.failures.std_error) << m.classes[c].name;
    const double se_any = std::sqrt(closed.p_any_down * (1 - closed.p_any_down) / 400);
    EXPECT_NEAR(mc.any_down_at_mid.mean, closed.p_any_down, 4 * se_any + 1e-9) << m.classes[c].name;
  }
}

// Job check: 16 hosts at lambda = 1e-4 per hour, MTTR 1 h, horizon 200 h, checkpoint 1 h, restart
// 0.01 h, spares enough for a leaf. One plane: interruptions ~ Poisson(Lambda_stop H) with
// Lambda_stop = 0.0264 (mean 5.28, P(0) = e^-5.28); goodput lost = stops x (restart + E[X mod T]).
// Two planes: interruptions from the 128 NICs only, plus the degradations: policy continue,
// sum p_e H (1 - 1/2); policy drain, per failure (1/2) E[min(D, U)] + restart P(D > U).
TEST(ReliabilityMonteCarlo, JobLossAgreesWithTheClosedForms) {
  ReliabilityInputs in = uniform_inputs(1e-4, 1);
  in.job.horizon_hours = 200;
  in.job.checkpoint_hours = 1;
  in.job.restart_hours = 0.01;
  in.job.spare_hosts = 16;
  const int trials = 2000;
  for (int run = 0; run < 3; ++run) {
    const int planes = run == 0 ? 1 : 2;
    in.job.degraded = run == 1 ? DegradedPolicy::kContinue : DegradedPolicy::kDrainAtCheckpoint;
    const ReliabilityModel m = model_of(b300(16, planes), in);
    const JobClosedForm closed = job_closed_form(m);
    const MonteCarloSummary s = run_monte_carlo(m, {.seed = 11, .trials = trials, .threads = 2});
    EXPECT_NEAR(s.interruptions.mean, closed.expected_interruptions, 4 * s.interruptions.std_error) << run;
    EXPECT_NEAR(s.lost_hours.mean, closed.expected_lost_hours, 4 * s.lost_hours.std_error) << run;
    const double p0 = std::exp(-closed.expected_interruptions);
    EXPECT_NEAR(s.interruption_share[0], p0, 4 * std::sqrt(p0 * (1 - p0) / trials)) << run;
    if (run == 1) {
      EXPECT_NEAR(s.degraded_loss_hours.mean, closed.degrade_lost_hours, 4 * s.degraded_loss_hours.std_error);
    }
  }
}

// Same seed, 1 thread or 4: the same bytes.
TEST(ReliabilityMonteCarlo, ThreadCountDoesNotChangeTheResult) {
  ReliabilityInputs in = uniform_inputs(1e-3, 4);
  in.job.horizon_hours = 300;
  const ReliabilityModel m = model_of(b300(16, 2), in);
  const TrialResults a = run_trials(m, {.seed = 3, .trials = 64, .threads = 1});
  const TrialResults b = run_trials(m, {.seed = 3, .trials = 64, .threads = 4});
  ASSERT_EQ(a.outcomes.size(), b.outcomes.size());
  EXPECT_EQ(std::memcmp(a.outcomes.data(), b.outcomes.data(), a.outcomes.size() * sizeof(JobOutcome)), 0);
  EXPECT_EQ(a.failures, b.failures);
  EXPECT_EQ(a.down_mid, b.down_mid);
  const TrialResults c = run_trials(m, {.seed = 4, .trials = 64, .threads = 4});
  EXPECT_NE(a.failures, c.failures);
}

// The total row: P(at least one element of the fabric down) over independent classes.
// System: two classes written by hand (no topology needed):
//   1,000 links, lambda = 1e-4 / h, MTTR 10 h:  p1 = 1e-3 / 1.001 = 1 / 1001, 1 - p1 = 1 / 1.001;
//   10 switches, lambda = 1e-3 / h, MTTR 100 h: p2 = 0.1 / 1.1 = 1 / 11,      1 - p2 = 1 / 1.1.
//   P(none down) = 1.001^-1000 x 1.1^-10 = e^-(1000 ln 1.001) x 0.385543 = 0.368063 x 0.385543
//                = 0.141904, so P(at least one down) = 0.858096.
//   E[down] = 1000 / 1001 + 10 / 11 = 0.999001 + 0.909091 = 1.908092.
//   Failures in 30 days (720 h): 1000 x 1e-4 x (1 - p1) x 720 + 10 x 1e-3 x (1 - p2) x 720
//                = 71.928 + 6.545 = 78.474.
// An unmodelled class (no repair time) is left out of the total.
TEST(ReliabilityClosedForm, FabricTotalRow) {
  ReliabilityModel m;
  m.job.horizon_hours = 720;
  ElementClass links;
  links.count = 1000;
  links.per_hour = 1e-4;
  links.mttr_hours = 10;
  ElementClass switches;
  switches.count = 10;
  switches.per_hour = 1e-3;
  switches.mttr_hours = 100;
  ElementClass unmodelled;
  unmodelled.count = 500;
  unmodelled.per_hour = 1e-2;
  m.classes = {links, switches, unmodelled};
  const FabricSteadyState f = fabric_steady_state(m);
  EXPECT_EQ(f.elements, 1010);
  EXPECT_NEAR(f.p_any_down, 0.858096, 1e-6);
  EXPECT_NEAR(f.p_any_down, 1 - std::pow(1.001, -1000) * std::pow(1.1, -10), 1e-12);
  EXPECT_NEAR(f.expected_down, 1.908092, 1e-6);
  EXPECT_NEAR(f.expected_failures, 1000 * 1e-4 * (1000.0 / 1001) * 720 + 10 * 1e-3 * (10.0 / 11) * 720, 1e-9);
  EXPECT_NEAR(f.expected_failures, 78.474, 1e-3);
}

}  // namespace
}  // namespace ct
