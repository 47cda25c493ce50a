#include "sweep/pareto.h"

#include <algorithm>
#include <cmath>

namespace ct {

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) return false;
    if (a[i] < b[i]) better = true;
  }
  return better;
}

std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& points) {
  auto measured = [](const std::vector<double>& p) {
    return std::none_of(p.begin(), p.end(), [](double v) { return std::isnan(v); });
  };
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!measured(points[i])) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
      dominated = j != i && measured(points[j]) && dominates(points[j], points[i]);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

}  // namespace ct
