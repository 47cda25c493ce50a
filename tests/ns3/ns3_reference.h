// The ns-3 side of the packet engine's validation (docs/models/packet-engine.md, Validation): flows
// of back-to-back UDP datagrams over point-to-point links (ns-3.37 PointToPointNetDevice: a frame
// serializes at the link's DataRate, then crosses its Delay; routers forward at once, store-and-
// forward, through DropTail FIFO queues). Frames are sized so that each is `frame_bytes` on the wire
// (UDP payload = frame - 8 UDP - 20 IPv4 - 2 PPP), the packet engine's packet.
//
// Topology: a star of `hops - 1` routers in a chain; every flow's sender sits on its own access
// link to router 0 (or to the receiver directly when hops = 1), the receiver after the last
// router. Times in ps (ns-3's resolution set to ps).
#pragma once

#include <cstdint>
#include <vector>

namespace ct::ns3ref {

struct Ns3Link {
  std::int64_t rate_bps = 0;
  std::int64_t delay_ps = 0;
};

struct Ns3Flow {
  Ns3Link access;          // sender to router 0 (to the receiver when hops = 1)
  std::int64_t start_ps = 0;
  std::uint32_t packets = 1;
};

struct Ns3Chain {
  std::vector<Ns3Flow> flows;
  std::vector<Ns3Link> chain;  // router 0 -> router 1 -> ... -> receiver (hops - 1 links)
  std::uint32_t frame_bytes = 4096;
};

// Per flow: the time its last frame reached the receiver (ps).
std::vector<std::int64_t> ns3_completion_times(const Ns3Chain& chain);

// ECN marking by ns-3.37's RedQueueDisc (UseEcn, no hard drop, not gentle, packet mode, QW = 1:
// the average is the instantaneous queue; LInterm = 1 / max_p), driven directly: frames of
// `frame_bytes` (ECN-capable IPv4) arrive at the given instants and are enqueued; a link of
// `out_rate_bps` dequeues and serializes one at a time, the next when the last one's serialization
// ends. Per arrival: the frames queued before it (the one being serialized not counted) and
// whether it left marked CE.
struct Ns3RedQueue {
  std::int64_t out_rate_bps = 0;
  std::uint32_t frame_bytes = 4096;
  double min_th = 0;  // packets
  double max_th = 0;
  double max_p = 0.02;
  bool wait = true;   // RED's "wait": no mark until 1 / p packets since the last
  std::vector<std::int64_t> arrivals_ps;  // increasing
};

struct Ns3RedResult {
  std::vector<std::uint32_t> queued;  // per arrival
  std::vector<bool> marked;
  std::uint32_t forced = 0;    // RedQueueDisc's "Forced mark" (average >= MaxTh)
  std::uint32_t unforced = 0;  // "Unforced mark" (the probabilistic region)
};

Ns3RedResult ns3_red_marks(const Ns3RedQueue& queue);

}  // namespace ct::ns3ref
