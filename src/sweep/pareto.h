// The Pareto front of a set of points, each a vector of objective values to be minimized (a
// maximized objective enters negated). Point a dominates b when a is no worse than b in every
// objective and better in at least one; the front is every point no other point dominates. Two
// points with equal values do not dominate each other, so duplicates are on the front together or
// off it together. O(n^2 m), n points and m objectives: sweeps have hundreds of points, not millions.
#pragma once

#include <cstddef>
#include <vector>

namespace ct {

bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// Indices of the points on the front, ascending. A point with a NaN objective (not measured) is
// neither on the front nor counted as dominating.
std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& points);

}  // namespace ct
