// ECN marking at a switch's egress queue (RoCE v2, the congestion point of DCQCN: Zhu et al.,
// "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015, sec. 3.1), RED's linear
// profile on the instantaneous queue of one priority:
//
//   p(q) = 0                                   q <= Kmin
//        = Pmax (q - Kmin) / (Kmax - Kmin)     Kmin < q < Kmax
//        = 1                                   q >= Kmax
//
// Kmin = Kmax is a hard threshold (mark iff q >= K, DCTCP's step marking). Below Kmin no draw is
// made at all, so no packet is marked there by construction; between the thresholds one uniform
// draw per packet from the port's own stream (core/rng.h: (seed, 0, stream_of({tag, channel}))),
// so the marks depend on the seed and the port's own packets, not on the order ports are served.
#pragma once

#include <cstdint>

#include "core/rng.h"

namespace ct {

// Where the queue is read: at dequeue (the engine's default: the mark leaves with the packet, so
// the receiver learns of the queue one queueing delay sooner than with marks made at enqueue;
// Wu et al., "Tuning ECN for data center networks", CoNEXT 2012), or at enqueue (RED's classic
// point, ns-3's RedQueueDisc: the queue the packet joins).
enum class EcnMarkPoint : std::uint8_t { kDequeue, kEnqueue };

struct RedEcnSpec {
  bool enabled = false;
  std::int64_t kmin_bytes = 5 * 1000;    // DCQCN paper, sec. 5 defaults: Kmin = 5 KB
  std::int64_t kmax_bytes = 200 * 1000;  // Kmax = 200 KB
  double pmax = 0.01;                    // Pmax = 1 %
  EcnMarkPoint point = EcnMarkPoint::kDequeue;
};

// RED's marking probability of a packet that sees q bytes in its priority's queue.
inline double red_mark_probability(const RedEcnSpec& red, std::int64_t q) {
  if (q >= red.kmax_bytes) return 1.0;
  if (q <= red.kmin_bytes) return 0.0;
  return red.pmax * static_cast<double>(q - red.kmin_bytes) / static_cast<double>(red.kmax_bytes - red.kmin_bytes);
}

// One port's marking: the decision for a packet seeing q bytes, drawing only when 0 < p < 1.
inline bool red_mark(const RedEcnSpec& red, std::int64_t q, Rng& rng) {
  if (q >= red.kmax_bytes) return true;
  if (q <= red.kmin_bytes) return false;
  return rng.uniform01() < red_mark_probability(red, q);
}

inline constexpr std::uint64_t kEcnStreamTag = 0x45434E;  // "ECN": the marking streams of core/rng.h

}  // namespace ct
