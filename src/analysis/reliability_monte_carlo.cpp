#include "analysis/reliability_monte_carlo.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "core/rng.h"
#include "core/threads.h"

namespace ct {
namespace {

constexpr std::size_t kInterruptionBuckets = 6;  // 0..4 and 5 or more

struct ClassRates {
  double lambda = 0;
  double mu = 0;  // 1 / MTTR
  double p = 0;
};

// An exponential time of the given rate; never, for rate 0.
double draw(Rng& rng, double rate) { return rate > 0 ? rng.exponential(rate) : HUGE_VAL; }

class TrialRunner {
 public:
  TrialRunner(const ReliabilityModel& m, const ReliabilityTrials& o, TrialResults& out)
      : m_(m), options_(o), out_(out), timeline_(m) {
    for (const ElementClass& c : m.classes) {
      rates_.push_back(c.modelled() ? ClassRates{*c.per_hour, 1.0 / *c.mttr_hours, c.p_down()} : ClassRates{});
    }
  }

  // Trial `trial` of the study, stored at `slot` of this run's results.
  void run(int trial, std::size_t slot) {
    const std::size_t classes = m_.classes.size();
    std::uint32_t* failures = out_.failures.data() + slot * classes;
    std::uint32_t* down_mid = out_.down_mid.data() + slot * classes;
    down_at_start_.clear();
    events_.clear();
    const double horizon = m_.job.horizon_hours;
    const double mid = horizon / 2;
    for (std::uint32_t e = 0; e < m_.element_count(); ++e) {
      const std::uint16_t c = m_.element_class[e];
      const ClassRates& r = rates_[c];
      const bool reaches_job = m_.impact[e] != Impact::kNone;
      Rng rng(options_.seed, static_cast<std::uint64_t>(trial), m_.stream[e]);
      bool down = rng.uniform01() < r.p;
      if (down && reaches_job) down_at_start_.push_back(e);
      double start = 0;
      double end = draw(rng, down ? r.mu : r.lambda);
      while (true) {
        if (down && start <= mid && mid < end) ++down_mid[c];
        if (end >= horizon) break;
        if (!down) ++failures[c];
        if (reaches_job) events_.push_back({end, e, !down});
        down = !down;
        start = end;
        end = start + draw(rng, down ? r.mu : r.lambda);
      }
    }
    std::sort(events_.begin(), events_.end(), [](const ElementEvent& a, const ElementEvent& b) {
      return a.time != b.time ? a.time < b.time : a.element < b.element;
    });
    out_.outcomes[slot] = timeline_.run(down_at_start_, events_);
  }

 private:
  const ReliabilityModel& m_;
  const ReliabilityTrials& options_;
  TrialResults& out_;
  JobTimeline timeline_;
  std::vector<ClassRates> rates_;
  std::vector<std::uint32_t> down_at_start_;
  std::vector<ElementEvent> events_;
};

double nearest_rank(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

Estimate estimate(const std::vector<double>& samples) {
  Estimate e;
  const auto n = static_cast<double>(samples.size());
  if (samples.empty()) return e;
  double sum = 0;
  for (double x : samples) sum += x;
  e.mean = sum / n;
  if (samples.size() < 2) return e;
  double squares = 0;
  for (double x : samples) squares += (x - e.mean) * (x - e.mean);
  e.std_error = std::sqrt(squares / (n - 1) / n);
  return e;
}

TrialResults run_trials(const ReliabilityModel& model, const ReliabilityTrials& options) {
  TrialResults out;
  const auto trials = static_cast<std::size_t>(std::max(0, options.trials));
  out.outcomes.resize(trials);
  out.failures.assign(trials * model.classes.size(), 0);
  out.down_mid.assign(trials * model.classes.size(), 0);
  int workers = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  workers = std::clamp(workers, 1, std::max(1, options.trials));
  const auto work = [&](int first) {
    TrialRunner runner(model, options, out);
    for (int t = first; t < options.trials; t += workers) {
      runner.run(options.first_trial + t, static_cast<std::size_t>(t));
      if (first == 0 && options.progress) options.progress(static_cast<std::uint64_t>(t) + 1, trials);
    }
  };
  run_on_threads(static_cast<unsigned>(workers), [&](unsigned w) { work(static_cast<int>(w)); });
  return out;
}

void append_trials(TrialResults& into, const TrialResults& next) {
  into.outcomes.insert(into.outcomes.end(), next.outcomes.begin(), next.outcomes.end());
  into.failures.insert(into.failures.end(), next.failures.begin(), next.failures.end());
  into.down_mid.insert(into.down_mid.end(), next.down_mid.begin(), next.down_mid.end());
}

MonteCarloSummary summarize(const ReliabilityModel& m, const ReliabilityTrials& options, const TrialResults& r) {
  MonteCarloSummary s;
  s.trials = static_cast<int>(r.outcomes.size());
  s.seed = options.seed;
  const std::size_t classes = m.classes.size();
  const auto per_trial = [&](auto field) {
    std::vector<double> v;
    for (const JobOutcome& o : r.outcomes) v.push_back(field(o));
    return estimate(v);
  };
  for (std::size_t c = 0; c < classes; ++c) {
    std::vector<double> failures, down, any;
    for (std::size_t t = 0; t < r.outcomes.size(); ++t) {
      failures.push_back(r.failures[t * classes + c]);
      down.push_back(r.down_mid[t * classes + c]);
      any.push_back(r.down_mid[t * classes + c] > 0 ? 1.0 : 0.0);
    }
    s.classes.push_back({estimate(failures), estimate(down), estimate(any)});
  }
  std::vector<double> links;
  for (std::size_t t = 0; t < r.outcomes.size(); ++t) {
    double n = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      if (m.classes[c].element == FailureElement::kLink) n += r.down_mid[t * classes + c];
    }
    links.push_back(n);
  }
  s.links_down_at_mid = estimate(links);
  s.interruptions = per_trial([](const JobOutcome& o) { return static_cast<double>(o.interruptions); });
  s.lost_hours = per_trial([](const JobOutcome& o) { return o.lost_hours(); });
  s.restart_hours = per_trial([](const JobOutcome& o) { return o.restart_hours; });
  s.blocked_hours = per_trial([](const JobOutcome& o) { return o.blocked_hours; });
  s.rework_hours = per_trial([](const JobOutcome& o) { return o.rework_hours; });
  s.degraded_hours = per_trial([](const JobOutcome& o) { return o.degraded_hours; });
  s.degraded_loss_hours = per_trial([](const JobOutcome& o) { return o.degraded_loss_hours; });
  std::vector<double> lost;
  s.interruption_share.assign(kInterruptionBuckets, 0.0);
  for (const JobOutcome& o : r.outcomes) {
    lost.push_back(o.lost_hours());
    s.interruption_share[std::min<std::size_t>(o.interruptions, kInterruptionBuckets - 1)] += 1.0;
  }
  for (double& share : s.interruption_share) share /= std::max(1, s.trials);
  std::sort(lost.begin(), lost.end());
  s.lost_p50 = nearest_rank(lost, 0.5);
  s.lost_p90 = nearest_rank(lost, 0.9);
  s.lost_p99 = nearest_rank(lost, 0.99);
  s.lost_max = lost.empty() ? 0 : lost.back();
  return s;
}

}  // namespace ct
