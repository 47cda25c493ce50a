#include "routing/flow_routes.h"

namespace ct {

std::vector<double> FlowRoutes::link_loads(std::size_t link_count) const {
  std::vector<double> load(2 * link_count, 0.0);
  for (std::size_t s = 0; s < subflow_count(); ++s) {
    const double weight = share[s] / epochs;
    for (std::uint32_t e = begin[s]; e < begin[s + 1]; ++e) load[link[e]] += fraction[e] * weight;
  }
  return load;
}

}  // namespace ct
