// Monte Carlo of the failure model over a horizon: in each trial every modelled element runs its
// own alternating failure/repair process (exponential up times of rate lambda, exponential repairs
// of mean MTTR) from a stationary start (down with probability p at time 0), drawn from
// ct::Rng(seed, trial, element stream); the events of the elements that reach the job drive a
// JobTimeline (reliability_timeline.h). Trials run on std::thread workers, each trial's result
// stored at its index and summed in trial order: the same bytes for any thread count.
//
// Estimates are means over trials with standard error s / sqrt(n) and a normal 95% interval
// mean +- 1.96 SE. Besides the job, each trial records per class the failures in the horizon and
// the number down at mid-horizon, which the tests compare with the closed forms.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/reliability_model.h"
#include "analysis/reliability_timeline.h"
#include "core/threads.h"

namespace ct {

struct ReliabilityTrials {
  std::uint64_t seed = 1;
  int trials = 1000;
  int threads = 0;  // 0: std::thread::hardware_concurrency()
  ProgressCallback progress{};  // trials done, from the caller's thread (core/threads.h); may be empty
  // run_trials runs trials first_trial .. first_trial + trials - 1: a slice of a larger study, each
  // trial drawn from Rng(seed, trial, stream) alone, so the slices' results appended in trial order
  // (append_trials) are the unsplit run's, and summarize gives its summary.
  int first_trial = 0;
};

struct Estimate {
  double mean = 0;
  double std_error = 0;
  [[nodiscard]] double low() const { return mean - 1.96 * std_error; }
  [[nodiscard]] double high() const { return mean + 1.96 * std_error; }
};
Estimate estimate(const std::vector<double>& samples);

struct ClassEstimate {
  Estimate failures;        // in the horizon, whole fabric
  Estimate down_at_mid;     // elements down at mid-horizon
  Estimate any_down_at_mid; // fraction of trials with at least one down at mid-horizon
};

struct MonteCarloSummary {
  int trials = 0;
  std::uint64_t seed = 0;
  std::vector<ClassEstimate> classes;  // by model class; unmodelled classes stay zero
  Estimate links_down_at_mid;          // all modelled links together
  Estimate interruptions;
  Estimate lost_hours;
  Estimate restart_hours, blocked_hours, rework_hours;
  Estimate degraded_hours, degraded_loss_hours;
  // Distribution of the goodput lost over trials (hours): nearest-rank percentiles.
  double lost_p50 = 0, lost_p90 = 0, lost_p99 = 0, lost_max = 0;
  // Share of trials with 0, 1, 2, ... interruptions (the last bucket: that many or more).
  std::vector<double> interruption_share;
};

// Every trial's job outcome and per-class counts, in trial order (for the summary and the tests).
struct TrialResults {
  std::vector<JobOutcome> outcomes;
  std::vector<std::uint32_t> failures;  // [trial x classes]
  std::vector<std::uint32_t> down_mid;  // [trial x classes]
};

TrialResults run_trials(const ReliabilityModel& model, const ReliabilityTrials& options);
// The next slice's trials after `into`'s.
void append_trials(TrialResults& into, const TrialResults& next);
MonteCarloSummary summarize(const ReliabilityModel& model, const ReliabilityTrials& options,
                            const TrialResults& results);
inline MonteCarloSummary run_monte_carlo(const ReliabilityModel& model, const ReliabilityTrials& options) {
  return summarize(model, options, run_trials(model, options));
}

}  // namespace ct
