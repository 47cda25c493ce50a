#include "traffic/flow.h"

namespace ct {

void redraw_source_ports(std::vector<Flow>& flows, std::uint64_t seed, std::uint64_t trial) {
  Rng rng(seed, trial, kPortStream);
  for (Flow& f : flows) f.key.src_port = draw_roce_source_port(rng);
}

}  // namespace ct
