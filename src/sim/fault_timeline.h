// The scenario's faults as every engine applies them (traffic/scenario.h FaultSpec): when each
// link's capacity changes, when routing converges, and which links routing avoids then.
//
// Model. A link that goes down, is degraded or comes back changes capacity at once, in both
// directions (down: fraction 0, its flows stall; degrade: the given fraction; repair: 1). A down or
// a repair is followed, `convergence` later, by routing's reconvergence: the forwarding state is
// rebuilt without the links down at that time (a link is down for routing from the reconvergence
// after its failure to the one after its repair), and the engine walks its unfinished network flows
// again (flow_router.h). A degraded link keeps its routes (ECMP does not see capacity).
//
// Order. The events are listed fault by fault, in the scenario's order: the fault's links in
// increasing id (each one capacity change; the engine applies it to both directions), then its
// reconvergence. Engines schedule them in this order, so ties at one instant break the same way
// in every engine.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "core/units.h"
#include "routing/path_walker.h"
#include "traffic/scenario.h"

namespace ct {

struct FaultEvent {
  enum class Kind : std::uint8_t { kCapacity, kReconverge };
  Kind kind = Kind::kCapacity;
  TimePs at{0};
  std::uint32_t fault = 0;  // index into the scenario's faults
  LinkId link;              // kCapacity: the link (both directions)
  double fraction = 1.0;    // kCapacity: of the nominal capacity, from now on
};

class FaultTimeline {
 public:
  // PRECONDITION: the scenario's fault links are links of a topology with `link_count` links.
  FaultTimeline(const Scenario& scenario, std::size_t link_count);

  [[nodiscard]] const std::vector<FaultEvent>& events() const { return events_; }

  // Hands the events to an engine in their order: `timer(at, fault)` for a reconvergence,
  // `rate(directed_link, at, fraction)` for each direction of a capacity change (up, then down).
  template <class Timer, class Rate>
  void schedule(Timer&& timer, Rate&& rate) const {
    for (const FaultEvent& e : events_) {
      if (e.kind == FaultEvent::Kind::kReconverge) {
        timer(e.at, e.fault);
        continue;
      }
      for (const std::uint32_t d : {directed_link(e.link, true), directed_link(e.link, false)}) rate(d, e.at, e.fraction);
    }
  }

  // Routing has converged after fault `fault` (its kReconverge event): the links routing now
  // avoids, in increasing id.
  std::vector<LinkId> reconverge(std::uint32_t fault);

  // The last instant at which a fault changes anything: a degrade's start, a down's or a repair's
  // reconvergence; 0 without faults.
  [[nodiscard]] TimePs last_event() const { return last_event_; }

 private:
  const Scenario& s_;
  std::vector<FaultEvent> events_;
  std::vector<std::uint8_t> routing_down_;  // links routing has converged around
  TimePs last_event_{0};
};

}  // namespace ct
