// Generated flow sets.
//
// Elephants: k long flows between chosen ports, flow i from sources[i mod |sources|] to
// destinations[i mod |destinations|], each with a RoCEv2 source port drawn uniformly from
// 0xC000..0xFFFF (traffic/flow.h) from Rng(seed, 0, kPortStream) in flow order, destination port
// 4791. Default endpoints (default_elephant_endpoints): the sources are the first k ports of the
// first backend leaf in port order; the destinations are the ports of the "farthest" leaf of the
// same plane (another pod when there are pods, else the next leaf), in port order from the first
// port of a host that sends nothing, rotated further where needed so that no flow goes to its
// own host: every flow climbs through the fabric and, while the leaves have enough ports, no two
// flows share a NIC and no host sends to itself. More flows than the first leaf has ports reuse
// its ports (flow i from source i mod S); where every rotation sends some flow to its own host (a
// far leaf holding only the senders' own NICs), the first is kept. The hash study reports both.
//
// Ring collective (NCCL's ring algorithm over the network): per rail r and plane p, host h sends
// to host h+1 mod H on the same rail; each connection has `channels` x `qps` flows (NCCL opens one
// connection per channel and ring neighbour and NCCL_IB_QPS_PER_CONNECTION queue pairs on each;
// every QP has its own UDP source port). Flows are ordered by (rail, plane, host, channel, qp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/units.h"
#include "topology/topology.h"
#include "traffic/flow.h"

namespace ct {

struct ElephantOptions {
  int count = 2;
  std::vector<VertexId> sources;       // backend ports; empty: the default above
  std::vector<VertexId> destinations;  // backend ports; empty: the default above
  Bytes size{0};
  int bursts = 1;
  double idle_us = 0.0;
};

struct Endpoints {
  std::vector<VertexId> sources;
  std::vector<VertexId> destinations;
};
Endpoints default_elephant_endpoints(const Topology& topology, int count);

// PRECONDITION: count >= 1; every source and destination pair is on one plane and distinct.
std::vector<Flow> elephant_flows(const Topology& topology, const ElephantOptions& options, std::uint64_t seed);

struct RingOptions {
  int channels = 1;
  int qps = 1;
  Bytes size{0};
};
// PRECONDITION: host_count >= 2.
std::vector<Flow> ring_flows(const Topology& topology, const RingOptions& options, std::uint64_t seed);

}  // namespace ct
