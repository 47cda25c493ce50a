// The flow and the packet engine on one scenario, side by side (`simulate --compare-engines`,
// sim/simulation.h simulate_engines): where they agree and what only the packet engine sees.
//
// Per operation: the mean iteration time of each engine and their difference, packet / flow - 1;
// they agree when |difference| <= kAgreement (2 %: long flows at steady state run at the max-min
// rates in both, issue 26). Where they differ, the reasons the packet run shows, in this order:
//   deadlock     the operation completed in the flow run, not in the packet run, which ended in a
//                credit loop (result.packet.deadlock_cycles);
//   incast       one of its flows ends on a port that several flows of the run end on (an incast
//                of `incast_flows`), where the packet run queued at least 2 packets: the packet
//                engine serves a port's inputs packet by packet in arrival order under credits or
//                PAUSE, so flows into one port do not finish together as max-min sharing has them;
//   flow control its flows crossed ports that PAUSE (PFC) or a lack of credits stopped while they
//                had packets to send (`stopped`, summed over those ports);
//   victims      of its flows, those that crossed a stopped port but no congestion point: PFC's
//                head-of-line blocking, congestion they share no bottleneck with. A flow through a
//                channel of the credit loop is no victim: it waits in the loop (deadlock);
//   latency      the per-packet latency the flow engine does not model: at each switch on a path
//                its latency and, store-and-forward, one packet's serialization; the largest over
//                its flows, when it is at least a quarter of the gap between the two times;
//   sharing      none of the above: packets interleave at each port round robin, not at max-min
//                rates.
// A congestion point: a port of the packet run whose output queue peaked at 2 packets or more
// and that was never stopped itself. A stopped port: PAUSE or credit-stall time > 0.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"
#include "sim/simulation_result.h"

namespace ct {

inline constexpr double kAgreement = 0.02;

enum class DifferenceReason : std::uint8_t { kDeadlock, kIncast, kFlowControl, kVictims, kLatency, kSharing };

struct OperationComparison {
  std::uint32_t operation = 0;
  double flow_s = 0;    // mean iteration time; 0 when it did not complete
  double packet_s = 0;
  double difference = 0;  // packet_s / flow_s - 1 (0 when either is 0)
  bool agree = false;
  bool flow_complete = false;
  bool packet_complete = false;
  // The packet run on its flows' paths.
  TimePs stopped{0};                  // PAUSE + credit stall over the ports they crossed
  std::uint32_t stopped_ports = 0;
  std::uint32_t victims = 0;          // its flows that are victims
  std::uint32_t incast_flows = 0;     // most flows of the run ending on a port one of its flows ends on
  std::uint32_t incast_port = kNoIndex;  // that port (a packet-run resource), kNoIndex when none
  TimePs latency{0};                  // the largest per-packet latency of a flow of it
  std::vector<DifferenceReason> reasons;  // empty when they agree
};

struct EngineComparison {
  std::vector<OperationComparison> operations;  // in the workload's order
  std::uint32_t ports_used = 0;      // packet run: ports that carried traffic
  std::uint32_t stopped_ports = 0;   // of them, stopped by PAUSE or credits (how far PAUSE spread)
  std::uint32_t congestion_points = 0;
  TimePs stopped{0};
  std::vector<std::uint32_t> victims;  // flow records, in order
  bool deadlock = false;
  std::uint32_t agree = 0;  // operations that agree
};

// PRECONDITION: both results come from one workload (simulate_engines): the same records and
// operations in the same order; `packet` from the packet engine.
EngineComparison compare_engines(const SimulationResult& flow, const SimulationResult& packet);

}  // namespace ct
