// The forwarding of a fabric whose paths a subnet manager's linear forwarding tables decide (an
// InfiniBand subnet read from ibnetdiscover output, ib/simulation_fabric.h): for every switch and
// every destination port, the one link the switch's LFT sends that destination's LID out of. A
// packet follows the tables hop by hop, with no hashing and no choice (InfiniBand Architecture
// Specification vol. 1, rel. 1.4, 18.2.4.3: one output port per destination LID); paths are what
// `clustertwin ib route` and `ib trace` print for the same engine.
//
// Storage: dense, switches x destination ports (fabrics read from the wire are small beside the
// spec-built ones, whose up/down forwarding is routing/forwarding_state.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "topology/topology.h"

namespace ct {

class LftForwarding {
 public:
  // All entries empty (no route). PRECONDITION: topology.finalize() was called; ports are the
  // backend port vertices 0 .. backend_port_count() - 1.
  explicit LftForwarding(const Topology& topology);

  // Switch `sw` sends traffic for `destination` (a backend port) out of `link`.
  void set(VertexId sw, VertexId destination, LinkId link);
  [[nodiscard]] LinkId next(VertexId sw, VertexId destination) const {
    return table_[static_cast<std::size_t>(switch_row_[sw.value()]) * ports_ + destination.value()];
  }

  // The directed links (path_walker.h numbering: 2 x link, + 1 when it leaves the link's upper
  // end) from port src to port dst: its NIC link, then each switch's entry. False, with the hops
  // up to where it stops, when a switch has no entry or the walk revisits a switch (a loop).
  bool walk(const Topology& topology, VertexId src, VertexId dst, std::vector<std::uint32_t>& directed) const;

 private:
  std::uint32_t ports_ = 0;
  std::vector<std::uint32_t> switch_row_;  // per vertex: the switch's row (ports: unused)
  std::vector<LinkId> table_;
};

}  // namespace ct
