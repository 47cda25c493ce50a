// Balls into bins, as ECMP needs it: k flows hashed independently and uniformly onto n equal-cost
// members (uplinks). All results are exact closed forms or exact recursions evaluated in double
// precision; no sampling.
//
//   P(no collision)      = n! / ((n-k)! n^k) = prod_{i=0}^{k-1} (1 - i/n)      (0 when k > n)
//                          summed as logs (log1p) so it stays accurate for n, k in the millions.
//   P(any collision)     = 1 - P(no collision), via expm1 to keep small values exact.
//   E[idle members]      = n (1 - 1/n)^k.
//   E[members with >= 2] = n [1 - (1 - 1/n)^k - (k/n)(1 - 1/n)^(k-1)].
//   max load             P(max <= m) by filling the bins one at a time: given r flows left and j
//                        bins left, the next bin takes Binomial(r, 1/j) of them; a dynamic
//                        programme over r, O(n k^2) per m. Meant for n, k up to a few hundred.
//   c of t trials        Binomial(t, p): P(exactly c) and P(at least c) of t independent trials
//                        each colliding with probability p (6 of 6 at p = 1/2: 1/64).
// Reference: Mitzenmacher & Upfal, "Probability and Computing", ch. 5 (balls and bins).
#pragma once

#include <cstdint>
#include <vector>

namespace ct {

// PRECONDITION for all: members n >= 1.
double p_no_collision(std::uint64_t members, std::uint64_t flows);
double p_any_collision(std::uint64_t members, std::uint64_t flows);
double expected_idle_members(std::uint64_t members, std::uint64_t flows);
double expected_members_with_two_or_more(std::uint64_t members, std::uint64_t flows);

// P(max load = m) for m = 0..flows (index m). Sums to 1.
std::vector<double> max_load_distribution(std::uint32_t members, std::uint32_t flows);
double expected_max_load(std::uint32_t members, std::uint32_t flows);
// P(max load <= m): one threshold of the recursion above, O(n k^2) (1 when m >= flows).
double p_max_load_at_most(std::uint32_t members, std::uint32_t flows, std::uint32_t m);

// PRECONDITION: c <= trials, 0 <= p <= 1.
double binomial_pmf(std::uint64_t trials, std::uint64_t c, double p);
double binomial_at_least(std::uint64_t trials, std::uint64_t c, double p);

}  // namespace ct
