// Test support for the ECMP analyses (header only, tests only): a fabric with its forwarding
// state, hashes and walker in one object, and request builders.
#pragma once

#include <memory>
#include <vector>

#include "routing/ecmp_config.h"
#include "routing/forwarding_state.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "routing/port_address.h"
#include "routing/switch_hashes.h"
#include "topology/topology.h"

namespace ct::testing_support {

struct EcmpFabric {
  EcmpFabric(Topology t, const EcmpConfig& config)
      : topology(std::make_unique<Topology>(std::move(t))),
        forwarding(std::make_unique<ForwardingState>(*topology)),
        hashes(std::make_unique<SwitchHashes>(*topology, config)),
        walker(std::make_unique<PathWalker>(*forwarding, *hashes)) {}

  std::unique_ptr<Topology> topology;
  std::unique_ptr<ForwardingState> forwarding;
  std::unique_ptr<SwitchHashes> hashes;
  std::unique_ptr<PathWalker> walker;

  RouteRequest request(std::uint32_t src, std::uint32_t dst, std::uint16_t port) const {
    RouteRequest r;
    r.src = VertexId(src);
    r.dst = VertexId(dst);
    r.key = FlowKey{port_address(*topology, r.src), port_address(*topology, r.dst), kIpProtoUdp, port, kRoceV2UdpPort};
    return r;
  }
};

inline EcmpConfig config(HashAlgorithm a, SeedMode mode, MemberSelection sel = MemberSelection::kHashThreshold) {
  EcmpConfig c;
  c.algorithm = a;
  c.seed_mode = mode;
  c.selection = sel;
  c.seed = 0x5EED;
  return c;
}

}  // namespace ct::testing_support
