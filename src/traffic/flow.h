// A flow: a transfer between two backend NIC ports with the header fields ECMP hashes.
//
// Source ports. RoCEv2 carries a connection's entropy in the UDP source port; the Linux RDMA stack
// folds the connection's flow label into the IANA ephemeral range 49152..65535 (0xC000..0xFFFF,
// IB_ROCE_UDP_ENCAP_VALID_PORT_MIN/MAX and rdma_flow_label_to_udp_sport in include/rdma/ib_verbs.h),
// and drivers without a flow label draw a port uniformly from that range. Generated flows and
// Monte Carlo trials draw it the same way: uniform over the 16,384 ports, independently per flow.
//
// Bursts model the idle gaps that flowlet switching needs: a flow sends `bursts` equal bursts
// separated by `idle_us` of silence (1 burst: continuous, the usual RDMA elephant).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/rng.h"
#include "core/units.h"
#include "routing/flow_key.h"

namespace ct {

inline constexpr std::uint16_t kRoceSourcePortMin = 0xC000;
inline constexpr std::uint32_t kRoceSourcePorts = 0x4000;

struct Flow {
  VertexId src;  // backend ports
  VertexId dst;
  FlowKey key;
  Bytes size{0};  // 0: not given
  int bursts = 1;
  double idle_us = 0.0;
  std::string label;  // where it came from: "elephant 3", "ring rail 2 host 5 ch 0 qp 1", "flows.csv:7"
};

// A RoCEv2 source port drawn uniformly from 0xC000..0xFFFF.
inline std::uint16_t draw_roce_source_port(Rng& rng) {
  return static_cast<std::uint16_t>(kRoceSourcePortMin + rng.uniform(kRoceSourcePorts));
}

// The source port of queue pair `index` of one connection (the QPs that share both ends' addresses):
// a keyed pseudo-random permutation of the 16,384 ports, a 4-round Feistel network on 14 bits (two
// 7-bit halves; Luby and Rackoff, SIAM J. Computing 17(2), 1988) with round function
// SplitMix64(key, round, half) (core/rng.h). A Feistel network is a bijection whatever its round
// function, so indices below kRoceSourcePorts always get distinct ports: distinct QPs of a
// connection never share a 5-tuple. Over keys, each index's port is uniform over the range.
// PRECONDITION: index < kRoceSourcePorts.
std::uint16_t roce_port_of(std::uint64_t key, std::uint32_t index);

// The source port of a flow of a simulated scenario or flow table, a function of the flow's
// identity and the seed only, never of the input's format or order (docs/models/ecmp.md, "Source
// ports of simulated flows"). A connection joins two ends, each a GPU (global id) or a backend
// port (VertexId); its QPs are numbered `index` = channel x qps + qp; the port is
// roce_port_of(stream_of(seed, "CONN", src kind, src, dst kind, dst), index mod kRoceSourcePorts):
// distinct QPs of one connection get distinct ports up to the 16,384 there are, and the same
// connection gets the same port whichever file named it and wherever in the file.
struct ConnectionEnd {
  bool gpu = false;      // a GPU (id: global GPU id), else a backend port (id: its VertexId)
  std::uint32_t id = 0;
};
inline constexpr std::uint64_t kConnectionTag = 0x434F'4E4E;  // "CONN"
std::uint16_t connection_source_port(std::uint64_t seed, ConnectionEnd src, ConnectionEnd dst, std::uint64_t index);

// Fresh source ports for every flow, drawn in flow order from Rng(seed, trial, kPortStream):
// the same (seed, trial) gives the same ports on any thread.
inline constexpr std::uint64_t kPortStream = 0x5043'5254;  // "PORT"
void redraw_source_ports(std::vector<Flow>& flows, std::uint64_t seed, std::uint64_t trial);

}  // namespace ct
