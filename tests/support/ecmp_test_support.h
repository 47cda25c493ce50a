// Test support for the ECMP analyses (header only, tests only): a fabric with its forwarding
// state, hashes and walker in one object, and request builders.
#pragma once

#include <memory>
#include <stdexcept>
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

  // A hash collision made to order: flow a (source port 50000) and flow b, whose source port is
  // the first from 49152 up that sends it over a's second link (the source leaf's choice).
  // Throws when a flow does not arrive or no port collides.
  std::vector<RouteRequest> colliding_pair(std::uint32_t a_src, std::uint32_t a_dst, std::uint32_t b_src,
                                           std::uint32_t b_dst) const {
    std::vector<RouteRequest> flows = {request(a_src, a_dst, 50000), request(b_src, b_dst, 0)};
    std::vector<PathHop> a, b;
    if (!walker->walk(flows[0].src, flows[0].dst, flows[0].key, a) || a.size() < 2) {
      throw std::runtime_error("colliding_pair: the first flow does not cross a switch");
    }
    for (std::uint32_t port = 49152; port <= 65535; ++port) {
      flows[1].key.src_port = static_cast<std::uint16_t>(port);
      if (!walker->walk(flows[1].src, flows[1].dst, flows[1].key, b)) {
        throw std::runtime_error("colliding_pair: the second flow does not arrive");
      }
      if (b.size() >= 2 && b[1].link == a[1].link) return flows;
    }
    throw std::runtime_error("colliding_pair: no source port collides");
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
