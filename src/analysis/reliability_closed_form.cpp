#include "analysis/reliability_closed_form.h"

#include <cmath>
#include <map>

namespace ct {

double binomial_pmf(long long n, double p, long long k) {
  if (k < 0 || k > n) return 0.0;
  if (p <= 0) return k == 0 ? 1.0 : 0.0;
  if (p >= 1) return k == n ? 1.0 : 0.0;
  const auto nd = static_cast<double>(n);
  const auto kd = static_cast<double>(k);
  const double log_choose = std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1);
  return std::exp(log_choose + kd * std::log(p) + (nd - kd) * std::log1p(-p));
}

double expected_time_since_checkpoint(double rate, double interval) {
  const double x = rate * interval;
  if (x < 1e-4) return interval / 2 - rate * interval * interval / 12;  // series of the form below
  return 1.0 / rate - interval / std::expm1(x);
}

ClassSteadyState steady_state(const ElementClass& c, double horizon_hours) {
  ClassSteadyState s;
  const double p = c.p_down();
  const long long n = c.count;
  s.p_down = p;
  s.expected_down = static_cast<double>(n) * p;
  s.p_any_down = -std::expm1(static_cast<double>(n) * std::log1p(-p));
  double below3 = 0;
  for (long long k = 0; k < 3; ++k) {
    s.p_k_down.push_back(binomial_pmf(n, p, k));
    below3 += s.p_k_down.back();
  }
  s.p_k_down.push_back(std::max(0.0, 1.0 - below3));
  s.expected_failures = static_cast<double>(n) * *c.per_hour * (1 - p) * horizon_hours;
  return s;
}

FabricSteadyState fabric_steady_state(const ReliabilityModel& model) {
  FabricSteadyState f;
  double log_none_down = 0;  // sum_k n_k ln(1 - p_k): exact for millions of elements
  for (const ElementClass& c : model.classes) {
    if (!c.modelled()) continue;
    const double p = c.p_down();
    const auto n = static_cast<double>(c.count);
    f.elements += c.count;
    f.expected_down += n * p;
    f.expected_failures += n * *c.per_hour * (1 - p) * model.job.horizon_hours;
    log_none_down += n * std::log1p(-p);
  }
  f.p_any_down = -std::expm1(log_none_down);
  return f;
}

namespace {

long long distinct_hosts(const ReliabilityModel& m, std::size_t e) {
  long long hosts = 0;
  std::uint32_t last = ~0U;
  for (std::uint32_t i = m.slot_begin[e]; i < m.slot_begin[e + 1]; ++i) {
    const std::uint32_t host = m.slots[i] / static_cast<std::uint32_t>(m.rails);
    if (host != last) ++hosts;
    last = host;
  }
  return hosts;
}

// Continue policy: the job's rate is set by the largest factor among the down elements. With the
// elements grouped by factor and q_x = prod (1 - p_e) over group x (none of it down), the largest
// factor is x_k with probability (prod over larger factors of q) x (1 - q_k).
double continued_loss_rate(std::map<double, double>& none_down_by_factor, const ReliabilityModel& m) {
  double loss = 0;
  double none_larger = 1;
  for (auto it = none_down_by_factor.rbegin(); it != none_down_by_factor.rend(); ++it) {
    loss += none_larger * (1 - it->second) * (1 - m.rate_at(it->first));
    none_larger *= it->second;
  }
  return loss;
}

}  // namespace

JobClosedForm job_closed_form(const ReliabilityModel& m) {
  JobClosedForm out;
  const double h = m.job.horizon_hours;
  const double t = m.job.checkpoint_hours;
  struct Stop {
    double lambda, p, extra;
  };
  std::vector<Stop> stops;
  std::map<double, double> none_down_by_factor;  // factor x -> prod (1 - p_e)
  for (std::size_t e = 0; e < m.element_count(); ++e) {
    const ElementClass& c = m.classes[m.element_class[e]];
    const Impact impact = m.impact[e];
    if (impact == Impact::kNone) continue;
    const double lambda = *c.per_hour;
    const double p = c.p_down();
    out.touch_per_hour += lambda;
    const bool isolates = impact == Impact::kGpu || impact == Impact::kPartition ||
                          (impact == Impact::kPlane && m.planes == 1);
    if (isolates) {
      const bool replaceable = impact != Impact::kPartition && distinct_hosts(m, e) <= m.spare_hosts;
      stops.push_back({lambda, p, replaceable ? 0.0 : *c.mttr_hours});
      out.stop_per_hour += lambda;
      continue;
    }
    out.degrade_per_hour += lambda;
    out.expected_degradations += lambda * (1 - p) * h;
    if (impact == Impact::kPlane && m.job.degraded == DegradedPolicy::kDrainAtCheckpoint) {
      // Drained at the next checkpoint, U ~ Uniform(0, T) away, unless repaired first (D ~ Exp(MTTR)):
      // E[min(D, U)] = MTTR - MTTR^2 / T (1 - e^(-T / MTTR)), P(D > U) = MTTR / T (1 - e^(-T / MTTR)).
      const double mttr = *c.mttr_hours;
      const double reach = mttr / t * -std::expm1(-t / mttr);
      const double events = lambda * (1 - p) * h + p;
      const double r = m.rate_at(static_cast<double>(m.planes) / (m.planes - 1));
      out.expected_drains += events * reach;
      out.degrade_lost_hours += events * ((1 - r) * (mttr - mttr * reach) + m.job.restart_hours * reach);
      continue;
    }
    const double x = impact == Impact::kPlane ? static_cast<double>(m.planes) / (m.planes - 1) : c.slowdown;
    auto [it, added] = none_down_by_factor.try_emplace(x, 1.0);
    it->second *= 1 - p;
  }
  out.degrade_lost_hours += h * continued_loss_rate(none_down_by_factor, m);
  const double lost_work =
      out.stop_per_hour > 0 ? expected_time_since_checkpoint(out.stop_per_hour, t) : 0.0;
  for (const Stop& s : stops) {
    const double count = s.lambda * (1 - s.p) * h;
    out.expected_interruptions += count;
    out.stop_lost_hours += count * (m.job.restart_hours + lost_work + s.extra);
  }
  out.expected_lost_hours = out.stop_lost_hours + out.degrade_lost_hours;
  return out;
}

}  // namespace ct
