#include "report/ib_report.h"

#include <fmt/format.h>

namespace ct {
namespace {

std::string routed_text(const IbRouteStudy& s, const IbRoutedFabric& r) {
  std::string out;
  out += fmt::format("{}, LMC {}: {} LIDs; {} root switch(es) ({})\n", s.source, r.routing.lids.lmc,
                     r.routing.lids.max_lid(), r.roots, s.roots_given ? "given" : "detected");
  const ReachabilityReport& reach = r.reach;
  out += fmt::format("Reachability: {} of {} (source port, destination LID) pairs delivered{}\n",
                     reach.pairs - reach.unreachable, reach.pairs,
                     reach.loops ? fmt::format(", {} LIDs loop", reach.loops) : "");
  for (const auto& e : reach.examples) out += "  " + e + "\n";
  if (r.loops.ok()) {
    out += fmt::format("Credit loops: none ({} channel dependencies over {} switch-to-switch channels)\n",
                       r.loops.dependencies, r.loops.channels);
  } else {
    out += fmt::format("Credit loops: FOUND, a cycle of {} channels:", r.loops.cycle.size());
    for (const auto& c : r.loops.cycle) out += " " + c;
    out += "\n";
  }
  out += "Uplink balance (CA destination LIDs routed through each uplink port):\n";
  for (const RankBalance& b : r.balance) {
    out += fmt::format("  rank {}: {} uplinks, min {} max {} mean {:.1f}, spread {}; worst switch spread {} ('{}')\n",
                       b.rank, b.uplinks, b.min, b.max, b.mean, b.spread(), b.worst_switch_spread, b.worst_switch);
  }
  out += fmt::format("Shift permutations ({}): worst max link load {}, mean {:.2f}\n", r.shift.patterns,
                     r.shift.worst_max_load, r.shift.mean_max_load);
  out += fmt::format("Random permutations ({}, seed {}): worst max link load {}, mean {:.2f}\n", r.random.patterns, s.seed,
                     r.random.worst_max_load, r.random.mean_max_load);
  if (r.shift.undelivered_flows + r.random.undelivered_flows > 0) {
    out += fmt::format("  ({} flows had no route and were left out)\n",
                       r.shift.undelivered_flows + r.random.undelivered_flows);
  }
  return out;
}

}  // namespace

std::string ib_subnet_line(const IbFabric& fabric, const std::string& origin) {
  return fmt::format("InfiniBand subnet ({}): {} switches, {} CAs, {} cables\n", origin, fabric.switch_count(),
                     fabric.ca_count(), fabric.cable_count());
}

std::string ib_route_report(const IbRouteStudy& s) {
  std::string out = ib_subnet_line(s.healthy.fabric, s.origin);
  out += routed_text(s, s.healthy);
  if (!s.failed_cables) return out;
  out += fmt::format("\nAfter removing {} cable(s): {} cables left{}\n", s.removed, s.cables_left,
                     s.same_lfts ? " (the same LFTs, before any rerouting)" : "");
  if (s.degraded) out += routed_text(s, *s.degraded);
  return out;
}

std::string ib_trace_report(const IbTraceStudy& s) {
  const IbTraced& h = s.healthy;
  std::string out = format_trace(h.fabric, h.routing, h.trace, h.dlid);
  if (!s.failed_cables) return out;
  out += fmt::format("\nAfter removing {} cable(s):\n", s.removed);
  if (s.degraded) out += format_trace(s.degraded->fabric, s.degraded->routing, s.degraded->trace, s.degraded->dlid);
  return out;
}

}  // namespace ct
