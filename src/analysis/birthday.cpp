#include "analysis/birthday.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ct {
namespace {

double log_choose(std::uint64_t n, std::uint64_t k) {
  const auto dn = static_cast<double>(n), dk = static_cast<double>(k);
  return std::lgamma(dn + 1) - std::lgamma(dk + 1) - std::lgamma(dn - dk + 1);
}

// P(c of `trials`) from log C(trials, c), log p and log(1 - p): binomial_pmf's arithmetic, so a
// caller that computes each log once for many terms gets the same bits.
double binomial_pmf_from_logs(double log_choose_value, std::uint64_t trials, std::uint64_t c, double log_p,
                              double log_q) {
  return std::exp(log_choose_value + static_cast<double>(c) * log_p + static_cast<double>(trials - c) * log_q);
}

// log P(no collision) = sum_{i<k} log1p(-i/n).
double log_p_no_collision(std::uint64_t n, std::uint64_t k) {
  double s = 0;
  const auto dn = static_cast<double>(n);
  for (std::uint64_t i = 1; i < k; ++i) s += std::log1p(-static_cast<double>(i) / dn);
  return s;
}

// at_most[m - m_begin] = P(all `members` bins hold <= m of `flows` flows) for m in [m_begin, m_end),
// bins filled one by one. The thresholds m share each bin's binomial terms, which are computed once
// per bin; each threshold's sums are formed in the same order as for that threshold alone.
void p_max_at_most(std::uint32_t members, std::uint32_t flows, std::uint32_t m_begin, std::uint32_t m_end,
                   std::vector<double>& at_most) {
  const std::uint32_t count = m_end - m_begin;
  const std::size_t stride = std::size_t{flows} + 1;
  // left[r * count + i] = P(the bins filled so far each hold <= m_begin + i and r flows remain): the
  // thresholds of one r side by side, so the innermost loop below runs over contiguous memory.
  std::vector<double> left(count * stride, 0.0), next(count * stride, 0.0);
  for (std::uint32_t i = 0; i < count; ++i) left[flows * count + i] = 1.0;
  // log C(r, c) for the c <= min(r, m_end - 1) used below, once instead of once per bin (the lgammas
  // were most of the time).
  const std::uint32_t max_c = m_end - 1;
  std::vector<double> log_choose_rc(stride * (std::size_t{max_c} + 1), 0.0);
  for (std::uint32_t r = 0; r <= flows; ++r) {
    for (std::uint32_t c = 0; c <= std::min(r, max_c); ++c) log_choose_rc[r * (std::size_t{max_c} + 1) + c] = log_choose(r, c);
  }
  for (std::uint32_t bins_left = members; bins_left >= 1; --bins_left) {
    std::fill(next.begin(), next.end(), 0.0);
    const double p = 1.0 / bins_left;
    const double log_p = std::log(p), log_q = std::log1p(-p);  // used when bins_left >= 2: 0 < p < 1
    for (std::uint32_t r = 0; r <= flows; ++r) {
      if (bins_left == 1) {  // the last bin takes every remaining flow
        for (std::uint32_t i = 0; i < count; ++i) {
          if (left[r * count + i] != 0.0 && r <= m_begin + i) next[i] += left[r * count + i];
        }
        continue;
      }
      // No threshold has probability left with r flows remaining: nothing to spread. Otherwise every
      // threshold's term is added, a zero one too (it adds +0.0 to a sum >= +0.0: the same bits), so
      // that the innermost loop has no branch.
      const double* from = left.data() + std::size_t{r} * count;
      if (std::all_of(from, from + count, [](double l) { return l == 0.0; })) continue;
      for (std::uint32_t c = 0; c <= std::min(r, m_end - 1); ++c) {
        const double pmf = binomial_pmf_from_logs(log_choose_rc[r * (std::size_t{max_c} + 1) + c], r, c, log_p, log_q);
        double* to = next.data() + std::size_t{r - c} * count;
        for (std::uint32_t i = c > m_begin ? c - m_begin : 0; i < count; ++i) to[i] += from[i] * pmf;
      }
    }
    left.swap(next);
  }
  at_most.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) at_most[i] = left[i];
}

}  // namespace

double p_no_collision(std::uint64_t members, std::uint64_t flows) {
  assert(members >= 1);
  if (flows > members) return 0.0;
  return std::exp(log_p_no_collision(members, flows));
}

double p_any_collision(std::uint64_t members, std::uint64_t flows) {
  assert(members >= 1);
  if (flows > members) return 1.0;
  return -std::expm1(log_p_no_collision(members, flows));
}

double expected_idle_members(std::uint64_t members, std::uint64_t flows) {
  assert(members >= 1);
  const auto n = static_cast<double>(members);
  return n * std::exp(static_cast<double>(flows) * std::log1p(-1.0 / n));
}

double expected_members_with_two_or_more(std::uint64_t members, std::uint64_t flows) {
  assert(members >= 1);
  if (flows < 2) return 0.0;
  const auto n = static_cast<double>(members), k = static_cast<double>(flows);
  const double empty = std::exp(k * std::log1p(-1.0 / n));
  const double one = (k / n) * std::exp((k - 1) * std::log1p(-1.0 / n));
  return n * (1.0 - empty - one);
}

std::vector<double> max_load_distribution(std::uint32_t members, std::uint32_t flows) {
  assert(members >= 1);
  std::vector<double> dist(flows + 1, 0.0);
  // Thresholds in blocks of kBlock: the work space holds kBlock x (flows + 1) probabilities.
  constexpr std::uint32_t kBlock = 64;
  std::vector<double> block;
  double below = 0.0;  // P(max <= m - 1)
  for (std::uint32_t m = 0; m <= flows; ++m) {
    if (m < flows && (m % kBlock) == 0) p_max_at_most(members, flows, m, std::min(flows, m + kBlock), block);
    const double at_most = m == flows ? 1.0 : block[m % kBlock];
    dist[m] = std::max(0.0, at_most - below);
    below = at_most;
  }
  return dist;
}

double p_max_load_at_most(std::uint32_t members, std::uint32_t flows, std::uint32_t m) {
  assert(members >= 1);
  if (m >= flows) return 1.0;
  std::vector<double> at_most;
  p_max_at_most(members, flows, m, m + 1, at_most);
  return at_most[0];
}

double expected_max_load(std::uint32_t members, std::uint32_t flows) {
  const std::vector<double> dist = max_load_distribution(members, flows);
  double e = 0;
  for (std::size_t m = 0; m < dist.size(); ++m) e += static_cast<double>(m) * dist[m];
  return e;
}

double binomial_pmf(std::uint64_t trials, std::uint64_t c, double p) {
  assert(c <= trials && p >= 0 && p <= 1);
  if (p == 0.0) return c == 0 ? 1.0 : 0.0;
  if (p == 1.0) return c == trials ? 1.0 : 0.0;
  return binomial_pmf_from_logs(log_choose(trials, c), trials, c, std::log(p), std::log1p(-p));
}

double binomial_at_least(std::uint64_t trials, std::uint64_t c, double p) {
  double s = 0;
  for (std::uint64_t i = c; i <= trials; ++i) s += binomial_pmf(trials, i, p);
  return std::min(1.0, s);
}

}  // namespace ct
