#include "report/diagnose_report.h"

#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

std::string gbps(double bps) { return fixed(bps / 1e9, 2); }

std::string percent(double fraction) {
  std::string out = fixed(100.0 * fraction, 0);
  out += '%';
  return out;
}

// Sample times are Unix milliseconds when the scrapes carry timestamps, else seconds counted from
// 0 by --interval: from this value on (1973) a time is read as a date.
constexpr std::int64_t kUnixTimeFloorMs = 100'000'000'000;

// A time as seconds after the first sample, and as a UTC time when it is one.
std::string at_text(std::int64_t ms, std::int64_t first_ms) {
  std::string out = fmt::format("+{:.1f} s", static_cast<double>(ms - first_ms) / 1000.0);
  if (first_ms < kUnixTimeFloorMs) return out;
  const std::time_t s = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return out + " (" + buf + ")";
}

std::string member_text(const Diagnosis& d, const AlertFiring& a) {
  if (a.member < 0) return "(the group)";
  const AlertMember& m = d.alert_plan.groups[a.group].members[static_cast<std::size_t>(a.member)];
  return m.device + " -> " + m.peer;
}

// " #k" after a cable that has parallel twins: its place among the cables joining its ends, in
// link-id order from 0, as the name directory numbers them ("A -- B #k"), so that twins' rows are
// told apart and each reads back to its cable; "" for a cable alone.
std::string twin_suffix(const Topology& t, LinkId l) {
  const VertexId a = t.link_a[l.value()], b = t.link_b[l.value()];
  std::size_t twins = 0, k = 0;
  for (const Adjacency& adj : t.neighbors(a)) {
    if (adj.neighbor != b) continue;
    ++twins;
    if (adj.link.value() < l.value()) ++k;
  }
  return twins > 1 ? fmt::format(" #{}", k) : "";
}

std::string direction_name(const Topology& t, LinkId l, bool up) {
  const VertexId a = t.link_a[l.value()], b = t.link_b[l.value()];
  std::string out;
  out.reserve(48);
  t.append_vertex_name(out, up ? a : b);
  out += " -> ";
  t.append_vertex_name(out, up ? b : a);
  return out + twin_suffix(t, l);
}

std::string member_cell(const Topology& t, const GroupDiagnosis& g, const MemberStats& m) {
  return t.vertex_name(t.other_end(m.link, g.sw)) + twin_suffix(t, m.link);
}

}  // namespace

TextTable diagnose_members_table(const GroupDiagnosis& g, const Topology& t) {
  TextTable members({{"member"}, {"Gb/s", Align::kRight}, {"util", Align::kRight}, {"model flows", Align::kRight},
                     {"state"}});
  for (const MemberStats& m : g.members) {
    std::string state = !m.counted ? "no counter" : m.idle ? "IDLE" : m.degraded ? "DEGRADED" : "busy";
    if (!m.reachable) state += ", unreachable";
    members.add_row({member_cell(t, g, m), m.counted ? gbps(m.bits_per_second) : "-",
                     percent(m.utilization),
                     m.predicted_flows < 0 ? "-" : std::to_string(m.predicted_flows), state});
  }
  return members;
}

TextTable diagnose_groups_table(const Diagnosis& d, const Topology& t) {
  TextTable groups({{"switch"}, {"dir"}, {"members", Align::kRight}, {"max Gb/s", Align::kRight},
                    {"mean Gb/s", Align::kRight}, {"idle", Align::kRight}, {"Jain", Align::kRight}, {"cause"}},
                   "ECMP groups with traffic");
  for (const GroupDiagnosis& g : d.groups) {
    groups.add_row({t.vertex_name(g.sw), g.up ? "up" : "down", std::to_string(g.members.size()), gbps(g.max_bps),
                    gbps(g.mean_bps), std::to_string(g.idle), fmt::format("{:.3f}", g.jain),
                    g.imbalanced ? std::string(cause_name(g.cause)) : "balanced"});
  }
  return groups;
}

TextTable diagnose_links_table(const Diagnosis& d, const Topology& t, std::size_t& quiet) {
  TextTable links({{"link direction"}, {"Gb/s", Align::kRight}, {"util", Align::kRight}, {"counter"}},
                  "Links carrying traffic (>= 1 Mb/s)");
  quiet = 0;
  for (const DirectedRate& r : d.links) {
    if (r.bits_per_second < 1e6) {
      ++quiet;
      continue;
    }
    // Each cell moved into the row (a braced list would copy each): 343,000 rows at 32k GPUs.
    std::vector<std::string> row;
    row.reserve(4);
    row.push_back(direction_name(t, r.link, r.up));
    row.push_back(gbps(r.bits_per_second));
    row.push_back(percent(r.utilization));
    row.emplace_back(r.source == CounterKind::kSwitch ? "switch" : "host");
    links.add_row(std::move(row));
  }
  return links;
}

TextTable diagnose_hosts_table(const Diagnosis& d, const Topology& t) {
  TextTable hosts({{"host port"}, {"netdev Gb/s", Align::kRight}, {"RDMA Gb/s", Align::kRight}}, "Host NIC counters (transmit)");
  for (const HostPortRate& h : d.hosts) {
    hosts.add_row({t.vertex_name(h.port), h.netdev_bps < 0 ? "-" : gbps(h.netdev_bps), h.rdma_bps < 0 ? "-" : gbps(h.rdma_bps)});
  }
  return hosts;
}

// Why no rule was evaluated when the counters hold no two samples of any series.
constexpr std::string_view kAlertsNotEvaluated =
    "The alert rules were not evaluated: the counters hold one rate per series over the interval (diagnose --prometheus "
    "asks the server for increase()), and a rule needs the samples; --prometheus-raw or saved scrapes give them.";

std::string diagnose_alert_sentence(const Diagnosis& d) {
  const AlertOptions& o = d.alert_plan.options;
  const std::size_t n = d.alert_plan.groups.size();
  const std::string rules = fmt::format("the rules of clustertwin alerts (rate window {}, for {}) over {} named uplink group{}",
                                        prometheus_duration(o.window_s), prometheus_duration(o.for_s), n, n == 1 ? "" : "s");
  if (!d.alerts_evaluated) return std::string(kAlertsNotEvaluated);
  if (d.alerts.empty()) return "No alert would have fired: no condition of " + rules + " held at any sample.";
  const AlertFiring& a = d.alerts.front();
  const std::string what = fmt::format("{} on {}, {}", alert_name(a.rule), d.alert_plan.groups[a.group].name, member_text(d, a));
  if (a.fired) {
    return fmt::format("The alert that would have fired: {}; its condition held from {} and it fired at {} ({}).", what,
                       at_text(a.pending_ms, d.first_sample_ms), at_text(a.fires_ms, d.first_sample_ms), rules);
  }
  return fmt::format("The alert that would have fired: {}; its condition held from {} to the last sample, {}, so it "
                     "fires at {} if the condition holds on ({}).",
                     what, at_text(a.pending_ms, d.first_sample_ms), at_text(a.last_ms, d.first_sample_ms),
                     at_text(a.fires_ms, d.first_sample_ms), rules);
}

TextTable diagnose_alerts_table(const Diagnosis& d) {
  TextTable table({{"alert"}, {"group"}, {"member"}, {"condition from"}, {"fires at"}, {"state"}},
                  "Alerts whose condition held");
  for (const AlertFiring& a : d.alerts) {
    table.add_row({std::string(alert_name(a.rule)), d.alert_plan.groups[a.group].name, member_text(d, a),
                   at_text(a.pending_ms, d.first_sample_ms), at_text(a.fires_ms, d.first_sample_ms),
                   a.fired ? "fired" : "pending at the last sample"});
  }
  return table;
}

std::string to_text(const Diagnosis& d, const Topology& t) {
  std::string out = fmt::format("Diagnosis from {} scrapes, {} mapped directed links, {} host ports, {} known flows\n",
                                d.scrapes, d.links.size(), d.hosts.size(), d.flows);
  out += fmt::format("{} of {} groups with traffic are imbalanced\n", d.imbalanced(), d.groups.size());
  for (const GroupDiagnosis& g : d.groups) {
    if (!g.imbalanced) continue;
    out += fmt::format("\n== {} {} group: {} ==\n", t.vertex_name(g.sw), g.up ? "up" : "down", cause_name(g.cause));
    out += diagnose_members_table(g, t).render();
    out += fmt::format("max {} Gb/s, mean {} Gb/s, Jain's fairness {:.3f}, {} idle\n", gbps(g.max_bps), gbps(g.mean_bps), g.jain,
                       g.idle);
    out += "Witnesses:\n";
    for (const Witness& w : g.witnesses) {
      out += fmt::format("  {:<22} {:<9} {}\n", w.name, witness_state_name(w.state), w.evidence);
    }
    out += "Cause: " + std::string(cause_name(g.cause)) + ": " + g.explanation + "\n";
    out += "Why the dashboards stayed green:\n";
    for (const std::string& s : g.green) out += "  - " + s + "\n";
    out += "Fix: " + g.fix + "\n";
    if (!g.predicted.empty()) out += "Predicted: " + g.predicted + "\n";
  }
  out += "\n" + diagnose_alert_sentence(d) + "\n";
  if (!d.alerts.empty()) out += diagnose_alerts_table(d).render();
  if (!d.groups.empty()) out += "\n" + diagnose_groups_table(d, t).render();
  std::size_t quiet = 0;
  out += "\n" + diagnose_links_table(d, t, quiet).render();
  out += fmt::format("{} more directed links with counters carry less than 1 Mb/s\n", quiet);
  if (!d.hosts.empty()) out += "\n" + diagnose_hosts_table(d, t).render();
  if (!d.unmapped.empty()) {
    out += fmt::format("\n{} unmapped series (not in the port map):\n", d.unmapped.size());
    for (const std::string& u : d.unmapped) out += "  " + u + "\n";
  }
  return out;
}

std::string to_json(const Diagnosis& d, const NameDirectory& names) {
  const Topology& t = names.topology();
  Json j;
  j["scrapes"] = d.scrapes;
  j["flows"] = d.flows;
  Json groups = Json::array();
  for (const GroupDiagnosis& g : d.groups) {
    Json jg;
    jg["switch"] = t.vertex_name(g.sw);
    jg["direction"] = g.up ? "up" : "down";
    jg["imbalanced"] = g.imbalanced;
    jg["max_bps"] = g.max_bps;
    jg["mean_bps"] = g.mean_bps;
    jg["jain"] = g.jain;
    jg["idle"] = g.idle;
    Json members = Json::array();
    for (const MemberStats& m : g.members) {
      Json jm;
      jm["link"] = names.cable_name(m.link);
      jm["counted"] = m.counted;
      jm["bps"] = m.bits_per_second;
      jm["utilization"] = m.utilization;
      jm["idle"] = m.idle;
      if (m.degraded) jm["degraded"] = true;
      jm["model_flows"] = m.predicted_flows < 0 ? Json() : Json(m.predicted_flows);
      jm["reachable"] = m.reachable;
      members.push_back(jm);
    }
    jg["members"] = members;
    if (g.imbalanced) {
      jg["cause"] = cause_name(g.cause);
      jg["explanation"] = g.explanation;
      jg["collision_probability"] = g.probability < 0 ? Json() : Json(g.probability);
      Json ws = Json::array();
      for (const Witness& w : g.witnesses) ws.push_back(Json{{"name", w.name}, {"state", witness_state_name(w.state)}, {"evidence", w.evidence}});
      jg["witnesses"] = ws;
      jg["why_green"] = g.green;
      jg["fix"] = g.fix;
      jg["predicted"] = g.predicted;
    }
    groups.push_back(jg);
  }
  j["groups"] = groups;
  Json links = Json::array();
  for (const DirectedRate& r : d.links) {
    links.push_back(Json{{"link", names.cable_name(r.link)}, {"direction", r.up ? "up" : "down"}, {"bps", r.bits_per_second},
                         {"utilization", r.utilization}, {"counter", r.source == CounterKind::kSwitch ? "switch" : "host"}});
  }
  j["links"] = links;
  Json hosts = Json::array();
  for (const HostPortRate& h : d.hosts) {
    hosts.push_back(Json{{"port", t.vertex_name(h.port)},
                         {"netdev_bps", h.netdev_bps < 0 ? Json() : Json(h.netdev_bps)},
                         {"rdma_bps", h.rdma_bps < 0 ? Json() : Json(h.rdma_bps)}});
  }
  j["hosts"] = hosts;
  j["unmapped"] = d.unmapped;
  Json alerts = Json::array();
  for (const AlertFiring& a : d.alerts) {
    const AlertGroup& g = d.alert_plan.groups[a.group];
    Json ja{{"alert", alert_name(a.rule)}, {"group", g.name}};
    if (a.member >= 0) {
      const AlertMember& m = g.members[static_cast<std::size_t>(a.member)];
      ja["instance"] = m.instance;
      ja["device"] = m.device;
      ja["peer"] = m.peer;
    }
    ja["pending_ms"] = a.pending_ms;
    ja["fires_ms"] = a.fires_ms;
    ja["last_ms"] = a.last_ms;
    ja["fired"] = a.fired;
    alerts.push_back(ja);
  }
  j["alert_rules"] = Json{{"for_s", d.alert_plan.options.for_s}, {"window_s", d.alert_plan.options.window_s},
                          {"groups", d.alert_plan.groups.size()}, {"first_sample_ms", d.first_sample_ms}};
  if (!d.alerts_evaluated) j["alert_rules"]["not_evaluated"] = kAlertsNotEvaluated;
  j["alerts"] = alerts;
  return j.dump(2) + "\n";
}

}  // namespace ct
