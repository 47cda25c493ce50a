#include "report/ib_json.h"

#include <nlohmann/json.hpp>

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

Json subnet_json(const IbFabric& fabric, const std::string& origin) {
  return Json{{"origin", origin},
              {"switches", fabric.switch_count()},
              {"cas", fabric.ca_count()},
              {"cables", fabric.cable_count()}};
}

Json permutations_json(const PermutationReport& p) {
  return Json{{"patterns", p.patterns},
              {"worst_max_load", p.worst_max_load},
              {"mean_max_load", p.mean_max_load},
              {"undelivered_flows", p.undelivered_flows}};
}

Json routed_json(const IbRouteStudy& s, const IbRoutedFabric& r) {
  const ReachabilityReport& reach = r.reach;
  Json balance = Json::array();
  for (const RankBalance& b : r.balance) {
    balance.push_back(Json{{"rank", b.rank},
                           {"uplinks", b.uplinks},
                           {"min", b.min},
                           {"max", b.max},
                           {"mean", b.mean},
                           {"spread", b.spread()},
                           {"worst_switch_spread", b.worst_switch_spread},
                           {"worst_switch", b.worst_switch}});
  }
  Json random = permutations_json(r.random);
  random["seed"] = s.seed;
  return Json{{"source", s.source},
              {"lmc", r.routing.lids.lmc},
              {"lids", r.routing.lids.max_lid()},
              {"roots", r.roots},
              {"roots_given", s.roots_given},
              {"reachability", Json{{"pairs", reach.pairs},
                                    {"delivered", reach.pairs - reach.unreachable},
                                    {"unreachable", reach.unreachable},
                                    {"looping_lids", reach.loops},
                                    {"examples", reach.examples}}},
              {"credit_loops", Json{{"found", !r.loops.ok()},
                                    {"dependencies", r.loops.dependencies},
                                    {"channels", r.loops.channels},
                                    {"cycle", r.loops.cycle}}},
              {"uplink_balance", std::move(balance)},
              {"shift_permutations", permutations_json(r.shift)},
              {"random_permutations", std::move(random)}};
}

Json trace_json(const IbTraced& t) {
  const IbFabric& fabric = t.fabric;
  const LidAssignment& lids = t.routing.lids;
  const auto node_json = [&](IbNodeId n, int port) {
    const bool sw = fabric.is_switch(n);
    const std::uint32_t base = lids.base_lid(n, sw ? 0 : port);
    return Json{{"node", fabric.label(n)},
                {"kind", sw ? "switch" : "ca"},
                {"port", port},
                {"lid_first", base},
                {"lid_last", base + static_cast<std::uint32_t>(sw ? 1 : lids.lids_per_port()) - 1}};
  };
  Json hops = Json::array();
  for (std::size_t i = 0; i < t.trace.hops.size(); ++i) {
    const TraceHop& h = t.trace.hops[i];
    Json hop = node_json(h.node, i == 0 ? h.out_port : h.in_port);
    hop["in_port"] = h.in_port;
    hop["out_port"] = h.out_port;
    hops.push_back(std::move(hop));
  }
  Json j{{"dlid", t.dlid}, {"delivered", t.trace.delivered}, {"hops", std::move(hops)}};
  if (t.trace.delivered) {
    j["to"] = node_json(lids.owner_node[t.dlid], lids.owner_port[t.dlid]);
  } else {
    j["problem"] = t.trace.problem;
  }
  return j;
}

}  // namespace

std::string ib_route_json(const IbRouteStudy& s) {
  Json j{{"subnet", subnet_json(s.healthy.fabric, s.origin)}, {"healthy", routed_json(s, s.healthy)}};
  if (s.failed_cables) {
    Json after{{"removed_cables", s.removed}, {"cables_left", s.cables_left}, {"same_lfts", s.same_lfts}};
    after["routed"] = s.degraded ? routed_json(s, *s.degraded) : Json(nullptr);
    j["after_failures"] = std::move(after);
  }
  return dump(j);
}

std::string ib_trace_json(const IbTraceStudy& s) {
  Json j{{"healthy", trace_json(s.healthy)}};
  if (s.failed_cables) {
    j["after_failures"] = Json{{"removed_cables", s.removed},
                               {"trace", s.degraded ? trace_json(*s.degraded) : Json(nullptr)}};
  }
  return dump(j);
}

std::string ib_export_json(const IbFabric& fabric, const LidAssignment* lids, const std::string& net) {
  Json j{{"switches", fabric.switch_count()}, {"cas", fabric.ca_count()}, {"cables", fabric.cable_count()}};
  if (lids) {
    j["lmc"] = lids->lmc;
    Json nodes = Json::array();
    for (std::uint32_t i = 0; i < fabric.node_count(); ++i) {
      const IbNodeId n(i);
      Json ports = Json::array();
      if (fabric.is_switch(n)) {
        ports.push_back(Json{{"port", 0}, {"base_lid", lids->base_lid(n, 0)}});
      } else {
        for (int p = 1; p <= fabric.ports(n); ++p) {
          if (fabric.remote(n, p).connected()) ports.push_back(Json{{"port", p}, {"base_lid", lids->base_lid(n, p)}});
        }
      }
      nodes.push_back(Json{{"node", fabric.label(n)}, {"kind", fabric.is_switch(n) ? "switch" : "ca"}, {"ports", ports}});
    }
    j["lids"] = std::move(nodes);
  }
  j["ibnetdiscover"] = net;
  return dump(j);
}

}  // namespace ct
