#include "report/hash_json.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "analysis/birthday.h"
#include "routing/load_balancing.h"
#include "routing/member_select.h"
#include "routing/port_address.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

// "link" is the cable's name as every output gives it (NameDirectory::cable_name, which --fail
// reads back), "id" its link id.
Json link_json(const NameDirectory& names, std::uint32_t directed) {
  const LinkId l(directed / 2);
  return Json{{"link", names.cable_name(l)}, {"id", l.value()}, {"direction", directed % 2 == 0 ? "up" : "down"}};
}

Json header_json(const HashStudy& in) {
  const Topology& t = in.topology();
  const EcmpConfig& c = in.hashes().config();
  std::size_t switches = 0;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    switches += t.kind[v] == VertexKind::kSwitch && t.network[v] == Network::kBackend;
  }
  Json failed = Json::array();
  for (LinkId l : in.failed) failed.push_back(Json{{"link", in.names().cable_name(l)}, {"id", l.value()}});
  Json hash{{"function", c.function_name()},
            {"fields", field_list(c.effective_fields())},
            {"seed", c.seed},
            {"seed_mode", std::string(seed_mode_name(c.seed_mode))}};
  if (!c.linux_kernel) hash["seed_input"] = std::string(seed_input_name(c.seed_input));
  hash["selection"] = std::string(member_selection_name(c.effective_selection()));
  return Json{{"spec", Json{{"name", in.spec_name}, {"file", in.spec_file}}},
              {"fabric", Json{{"planes", t.planes},
                              {"tiers", t.tiers},
                              {"switches", switches},
                              {"links", t.link_count()},
                              {"failed", std::move(failed)}}},
              {"hash", std::move(hash)},
              {"flow_source", in.flow_source},
              {"notes", in.notes},
              {"warnings", in.warnings}};
}

const char* no_path_reason_name(NoPathReason r) {
  switch (r) {
    case NoPathReason::kSourceNicDown: return "source_nic_down";
    case NoPathReason::kDestinationNicDown: return "destination_nic_down";
    case NoPathReason::kOtherPlane: return "other_plane";
    case NoPathReason::kAllUplinksDown: return "all_uplinks_down";
    case NoPathReason::kNoRoute: break;
  }
  return "no_route";
}

// Why each flow has no path (the text report's words, hash_report.h no_path_text), null when routed.
std::vector<Json> no_paths_json(const HashStudy& in) {
  const Topology& t = in.topology();
  std::vector<Json> out(in.scenario.paths.size(), nullptr);
  for (const NoPath& x : in.scenario.unreachable) {
    out.at(x.flow) = Json{{"reason", no_path_reason_name(x.reason)},
                          {"stopped_at", t.vertex_name(x.stopped_at)},
                          {"culprit", t.vertex_name(x.culprit)},
                          {"message", no_path_text(in, x)}};
  }
  return out;
}

Json flows_json(const HashStudy& in) {
  const Topology& t = in.topology();
  const ForwardingState& f = in.forwarding();
  const HashScenario& s = in.scenario;
  std::vector<Json> no_paths = no_paths_json(in);
  Json flows = Json::array();
  for (std::size_t i = 0; i < s.paths.size(); ++i) {
    const Flow& fl = in.flows[i];
    const FlowKey& k = fl.key;
    Json hops = Json::array();
    for (const PathHop& h : s.paths[i].hops) {
      Json hop{{"to", t.vertex_name(t.other_end(h.link, h.from))}, {"link", h.link.value()}};
      if (h.group != kNoGroup && f.size(h.group) >= 2) {
        hop["member"] = h.member;
        hop["of"] = f.size(h.group);
      }
      hops.push_back(std::move(hop));
    }
    const double thr = s.loads.throughput.at(i);
    Json flow{{"flow", i},
              {"src", t.vertex_name(fl.src)},
              {"dst", t.vertex_name(fl.dst)},
              {"src_ip", format_ipv4(k.src_ip)},
              {"src_port", k.src_port},
              {"dst_ip", format_ipv4(k.dst_ip)},
              {"dst_port", k.dst_port},
              {"protocol", k.protocol},
              {"label", fl.label},
              {"reached", s.paths[i].reached},
              {"no_path", std::move(no_paths[i])},
              {"hops", std::move(hops)},
              {"throughput_bps", thr}};
    if (fl.size.value() > 0) {
      flow["bytes"] = fl.size.value();
      if (thr > 0) flow["time_ms"] = 8.0 * static_cast<double>(fl.size.value()) / thr * 1e3;
    }
    flows.push_back(std::move(flow));
  }
  return flows;
}

Json loads_json(const HashStudy& in) {
  const Topology& t = in.topology();
  const ForwardingState& f = in.forwarding();
  const HashScenario& s = in.scenario;
  std::vector<std::pair<double, std::uint32_t>> busy;
  for (std::uint32_t d = 0; d < s.loads.load.size(); ++d) {
    const bool switch_link = t.kind[t.link_a[d / 2].value()] == VertexKind::kSwitch;
    if (s.loads.load[d] > 0 && switch_link) busy.emplace_back(-s.loads.load[d], d);
  }
  std::sort(busy.begin(), busy.end());
  Json links = Json::array();
  for (const auto& [load, d] : busy) {
    Json l = link_json(in.names(), d);
    l["flows"] = -load;
    links.push_back(std::move(l));
  }
  Json groups = Json::array();
  for (const GroupLoad& g : s.loads.groups) {
    groups.push_back(Json{{"switch", t.vertex_name(f.owner(g.group))},
                          {"kind", f.kind(g.group) == GroupKind::kUp ? "up" : "down"},
                          {"members", g.members},
                          {"flows", g.mean_load * g.members},
                          {"max", g.max_load},
                          {"mean", g.mean_load},
                          {"idle", g.idle}});
  }
  const LinkSet& up = s.loads.uplinks;
  return Json{{"links", std::move(links)},
              {"groups", std::move(groups)},
              {"uplinks", Json{{"links", up.links}, {"busiest", up.busiest}, {"idle", up.idle}}},
              {"slowest_bps", s.loads.slowest},
              {"mean_bps", s.loads.mean_throughput}};
}

Json collisions_json(const HashStudy& in) {
  const Topology& t = in.topology();
  const ForwardingState& f = in.forwarding();
  Json out = Json::array();
  for (const Collision& c : in.scenario.collisions) {
    Json j = link_json(in.names(), c.directed_link);
    j["switch"] = t.vertex_name(c.at);
    j["group_members"] = f.size(c.group);
    j["group_kind"] = f.kind(c.group) == GroupKind::kUp ? "up" : "down";
    j["flows"] = c.flows;
    j["flows_in_group"] = c.flows_in_group;
    j["cause"] = std::string(collision_cause_name(c.cause));
    if (c.cause == CollisionCause::kBadLuck) {
      j["p_collision_independent"] = p_any_collision(f.size(c.group), c.flows_in_group);
    } else {
      j["witnesses"] = Json::array({c.witness_a, c.witness_b});
    }
    out.push_back(std::move(j));
  }
  return out;
}

Json stages_json(const HashStudy& in) {
  Json out = Json::array();
  const auto& stages = in.coupling().stages();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const DecisionStage& s = stages[i];
    Json j{{"tier", s.tier},
           {"direction", s.up ? "up" : "down"},
           {"links", s.links_available},
           {"used_now", in.scenario.stage_links_used.at(i)}};
    if (in.monte_carlo) j["used_in_trials"] = in.monte_carlo->stage_links_used.at(i);
    j["reachable"] = s.links_reachable;
    j["coupling"] = std::string(coupling_name(s.coupling));
    j["mutual_information_bits"] = s.mutual_information_bits;
    j["entropy_bits"] = s.entropy_bits;
    j["sampled_pairs"] = s.pairs;
    j["follows_decision"] = s.follows_decision;
    j["determined"] = s.determined;
    j["same_hash_as_previous"] = s.same_hash_as_previous;
    out.push_back(std::move(j));
  }
  return out;
}

Json monte_carlo_json(const HashStudy& in) {
  const MonteCarloResult& r = *in.monte_carlo;
  const EcmpClosedForms& c = r.closed;
  const double trials = r.trials;
  Json groups = Json::array();
  for (const auto& [n, k] : c.groups) groups.push_back(Json{{"members", n}, {"flows", k}});
  Json busiest = Json::array();
  const std::size_t top = std::max(r.busiest_histogram.size(), c.busiest_pmf.size());
  for (std::size_t m = 0; m < top; ++m) {
    const double sim = m < r.busiest_histogram.size() ? r.busiest_histogram[m] / trials : 0.0;
    Json row{{"flows", m}, {"simulated", sim}};
    if (c.busiest_known) row["closed_form"] = m < c.busiest_pmf.size() ? c.busiest_pmf[m] : 0.0;
    busiest.push_back(std::move(row));
  }
  const bool closed = !c.groups.empty();
  const auto nullable = [](bool known, double v) { return known ? Json(v) : Json(nullptr); };
  Json causes;
  for (int k = 0; k < kCollisionCauses; ++k) {
    causes[std::string(collision_cause_name(static_cast<CollisionCause>(k)))] = r.trials_with_cause[k];
  }
  const std::uint32_t collided = static_cast<std::uint32_t>(std::lround(r.p_first_collision * trials));
  return Json{
      {"trials", r.trials},
      {"seed", in.seed},
      {"first_tier_groups", std::move(groups)},
      {"p_first_collision",
       Json{{"simulated", r.p_first_collision},
            {"std_error", std::sqrt(r.p_first_collision * (1 - r.p_first_collision) / trials)},
            {"closed_form", nullable(closed, std::max(0.0, c.p_collision))}}},
      {"p_any_collision",
       Json{{"simulated", r.p_any_collision},
            {"std_error", std::sqrt(r.p_any_collision * (1 - r.p_any_collision) / trials)}}},
      {"busiest_first_tier_uplink", std::move(busiest)},
      {"idle_first_tier_uplinks",
       Json{{"simulated", r.mean_idle}, {"std_error", r.se_idle}, {"closed_form", nullable(closed, c.expected_idle)}}},
      {"slowest_flow_bps", Json{{"simulated", r.mean_slowest},
                                {"std_error", r.se_slowest},
                                {"closed_form", nullable(c.slowest_applicable, c.expected_slowest)}}},
      {"trials_collided_first_tier", collided},
      {"p_at_least_as_many_collided",
       nullable(closed, closed ? binomial_at_least(r.trials, collided, c.p_collision) : 0.0)},
      {"trials_with_cause", std::move(causes)}};
}

Json comparison_json(const HashStudy& in) {
  Json rows = Json::array();
  for (const SchemeRow& r : *in.comparison) {
    Json row{{"scheme", std::string(scheme_name(r.scheme))}, {"applicable", r.applicable}};
    if (r.applicable) {
      row["busiest"] = r.busiest;
      row["idle"] = r.idle;
      row["links"] = r.links;
      row["slowest_bps"] = r.slowest;
      row["mean_bps"] = r.mean_throughput;
    }
    row["note"] = r.note;
    rows.push_back(std::move(row));
  }
  return Json{{"trials", in.comparison_trials}, {"schemes", std::move(rows)}};
}

}  // namespace

std::string hash_json(const HashStudy& study) {
  Json j = header_json(study);
  Json fibs = Json::array();
  for (VertexId sw : study.fib_switches) fibs.push_back(study.topology().vertex_name(sw));
  j["fib_switches"] = std::move(fibs);
  j["coupling_samples"] = study.coupling_samples;
  j["flows"] = flows_json(study);
  j["loads"] = loads_json(study);
  j["collisions"] = collisions_json(study);
  j["stages"] = stages_json(study);
  j["monte_carlo"] = study.monte_carlo ? monte_carlo_json(study) : Json(nullptr);
  j["comparison"] = study.comparison ? comparison_json(study) : Json(nullptr);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace ct
