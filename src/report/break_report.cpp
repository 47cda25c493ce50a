#include "report/break_report.h"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {

namespace {

// Seconds as {:g} writes them, but whole from a million on (a certificate's 30 days are
// "2592000", not "2.592e+06").
std::string whole_seconds(double s) { return s >= 1e6 ? fmt::format("{:.0f}", s) : fmt::format("{:g}", s); }

}  // namespace

std::string duration_text(double s) {
  if (s == kNever) return "never";
  if (s < 60) return fmt::format("{:g} s", s);
  const long long whole = std::llround(s);
  const long long d = whole / 86400, h = whole % 86400 / 3600, m = whole % 3600 / 60, sec = whole % 60;
  std::string hm = d > 0 ? fmt::format("{} d {} h {} min", d, h, m) : h > 0 ? fmt::format("{} h {} min", h, m) : fmt::format("{} min", m);
  if (sec > 0) hm += fmt::format(" {} s", sec);
  return fmt::format("{} s ({})", whole_seconds(s), hm);
}

namespace {

std::string spans_text(const std::vector<Span>& spans) {
  std::vector<std::string> parts;
  for (const auto& s : spans) parts.push_back(fmt::format("{} s - {}", whole_seconds(s.from_s), s.to_s == kNever ? "never" : whole_seconds(s.to_s) + " s"));
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, ", "));
}

std::string at_text(double s) { return s == kNever ? "never" : whole_seconds(s) + " s"; }

std::string timers_text(const LifecycleTimers& t) {
  return fmt::format("node-monitor grace G = {:g} s, toleration S = {:g} s, force detach {:g} s, start-up {:g} s, Longhorn node-down pod "
                     "deletion policy {}, replica replenishment wait {:g} s",
                     t.node_monitor_grace_s, t.default_toleration_s, t.force_detach_s, t.startup_s, t.longhorn_pod_deletion_policy,
                     kReplicaReplenishmentWaitS);
}

TextTable apps_table(const FailureTimeline& t) {
  TextTable table({{"app"}, {"downtime", Align::kRight}, {"down"}, {"URLs that fail"}}, "Apps (down while one of their requests fails)");
  for (const auto& a : t.apps) table.add_row({a.app, duration_text(a.downtime_s), spans_text(a.down), fmt::format("{}", fmt::join(a.urls, ", "))});
  return table;
}

TextTable pods_table(const FailureTimeline& t) {
  TextTable table({{"pod"}, {"node"}, {"gone", Align::kRight}, {"NotReady", Align::kRight}, {"evicted", Align::kRight}, {"replacement"},
                   {"Ready", Align::kRight}, {"how", Align::kLeft, 90}},
                  "Pods of the nodes that went");
  for (const auto& p : t.pods) {
    table.add_row({p.pod, p.node, at_text(p.gone_s), at_text(p.not_ready_s), at_text(p.evicted_s), p.replacement_node.empty() ? "-" : p.replacement_node,
                   at_text(p.ready_s), p.why});
  }
  return table;
}

TextTable volumes_table(const FailureTimeline& t) {
  TextTable table({{"volume"}, {"size"}, {"replicas"}, {"left", Align::kRight}, {"unavailable"}, {"rebuild"}, {"verdict", Align::kLeft, 70}},
                  "Longhorn volumes");
  for (const auto& v : t.volumes) {
    const std::string rebuild = v.rebuild_start_s == kNever ? "-"
                                : fmt::format("{} -> {}, {} - {}{}", v.rebuild_from, v.rebuild_to, at_text(v.rebuild_start_s), at_text(v.rebuild_end_s),
                                              v.rebuild_bits_per_s > 0 && v.rebuild_bits_per_s != kNever
                                                  ? fmt::format(" at {:g} Gb/s", v.rebuild_bits_per_s / 1e9) : "");
    table.add_row({v.claim, v.size, fmt::format("{}", fmt::join(v.replica_nodes, ", ")), fmt::format("{} of {}", v.replicas_left, v.replicas_wanted),
                   spans_text(v.unavailable), rebuild, v.verdict});
  }
  return table;
}

TextTable certificates_table(const FailureTimeline& t) {
  TextTable table({{"certificate"}, {"issuer"}, {"Secret"}, {"renewed before", Align::kRight}, {"renewal fails", Align::kRight},
                   {"TLS fails from", Align::kRight}, {"note"}},
                  "Certificates of the failed issuers (a renewal in the outage fails; TLS fails from notAfter)");
  for (const auto& c : t.certificates) {
    if (!c.dated) {
      table.add_row({c.certificate, c.issuer, c.secret, "-", "-", "-", "not placed: " + c.undated_why});
      continue;
    }
    table.add_row({c.certificate, c.issuer, c.secret, std::to_string(c.renewed_before), duration_text(c.attempt_s), duration_text(c.expires_s),
                   c.renewed_before > 0 ? "renewed before the outage" : "-"});
  }
  return table;
}

TextTable events_table(const FailureTimeline& t) {
  TextTable table({{"t", Align::kRight}, {"object"}, {"what", Align::kLeft, 100}}, "Timeline (t = 0: the first failure)");
  for (const auto& e : t.events) table.add_row({at_text(e.at_s), e.object, e.what});
  return table;
}

std::string totals_text(const FailureTimeline& t) {
  std::string out = fmt::format("{} of {} app(s) down; downtime {} in total", t.apps.size(), t.apps_total, duration_text(t.total_downtime_s));
  if (t.apps_down_for_ever > 0) out += fmt::format(", and {} app(s) down for ever (until repaired)", t.apps_down_for_ever);
  out += t.data_lost ? "; data LOST (every replica of a volume gone)" : "; no data lost";
  out += fmt::format("; steady state at {}", duration_text(t.steady_s));
  return out;
}

std::string failures_text(const FailureTimeline& t) {
  std::vector<std::string> f;
  for (const auto& x : t.failures) f.push_back(fmt::format("{} {} at {} s", to_string(x.kind), x.name, whole_seconds(x.at_s)));
  return fmt::format("{}", fmt::join(f, ", "));
}

}  // namespace

std::string break_text(const FailureTimeline& t) {
  std::string out = "Break: " + failures_text(t) + "\n";
  out += "Timers: " + timers_text(t.timers) + "\n";
  out += fmt::format("Traced: {} request(s) of {} app(s), every published route from each client, at each change\n\n",
                     t.published.requests.size(), t.apps_total);
  out += events_table(t).render() + "\n";
  out += t.apps.empty() ? "Apps: none fails\n\n" : apps_table(t).render() + "\n";
  if (!t.pods.empty()) out += pods_table(t).render() + "\n";
  if (!t.volumes.empty()) out += volumes_table(t).render() + "\n";
  if (!t.certificates.empty()) out += certificates_table(t).render() + "\n";
  for (const auto& n : t.notes) out += "Note: " + n + "\n";
  out += "Total: " + totals_text(t) + "\n";
  return out;
}

namespace {

nlohmann::json time_json(double s) { return s == kNever ? nlohmann::json(nullptr) : nlohmann::json(s); }

nlohmann::json spans_json(const std::vector<Span>& spans) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& s : spans) a.push_back({{"from_s", s.from_s}, {"to_s", time_json(s.to_s)}, {"why", s.why}});
  return a;
}

}  // namespace

std::string break_json(const FailureTimeline& t) {
  nlohmann::json j;
  j["failures"] = nlohmann::json::array();
  for (const auto& f : t.failures) j["failures"].push_back({{"kind", to_string(f.kind)}, {"name", f.name}, {"at_s", f.at_s}});
  j["timers"] = {{"node_monitor_grace_s", t.timers.node_monitor_grace_s}, {"toleration_s", t.timers.default_toleration_s},
                 {"force_detach_s", t.timers.force_detach_s}, {"startup_s", t.timers.startup_s},
                 {"longhorn_pod_deletion_policy", t.timers.longhorn_pod_deletion_policy}, {"replica_replenishment_wait_s", kReplicaReplenishmentWaitS}};
  j["events"] = nlohmann::json::array();
  for (const auto& e : t.events) j["events"].push_back({{"at_s", time_json(e.at_s)}, {"object", e.object}, {"what", e.what}});
  j["requests"] = nlohmann::json::array();
  for (const auto& o : t.requests) {
    const auto& p = t.published.requests[o.request];
    j["requests"].push_back({{"app", p.app}, {"url", p.url}, {"client", p.client_label}, {"view", p.view}, {"healthy_status", p.healthy_status},
                             {"failed", spans_json(o.failed)}, {"degraded", spans_json(o.degraded)}});
  }
  j["apps"] = nlohmann::json::array();
  for (const auto& a : t.apps) j["apps"].push_back({{"app", a.app}, {"urls", a.urls}, {"down", spans_json(a.down)}, {"downtime_s", time_json(a.downtime_s)}});
  j["pods"] = nlohmann::json::array();
  for (const auto& p : t.pods) {
    j["pods"].push_back({{"pod", p.pod}, {"workload", p.app}, {"node", p.node}, {"gone_s", p.gone_s}, {"not_ready_s", time_json(p.not_ready_s)},
                         {"evicted_s", time_json(p.evicted_s)}, {"replacement_node", p.replacement_node}, {"ready_s", time_json(p.ready_s)}, {"why", p.why}});
  }
  j["volumes"] = nlohmann::json::array();
  for (const auto& v : t.volumes) {
    j["volumes"].push_back({{"claim", v.claim}, {"size", v.size}, {"replicas_wanted", v.replicas_wanted}, {"replica_nodes", v.replica_nodes},
                            {"replicas_left", v.replicas_left}, {"degraded_s", time_json(v.degraded_s)}, {"lost_s", time_json(v.lost_s)},
                            {"data_lost", v.lost_s != kNever}, {"unavailable", spans_json(v.unavailable)},
                            {"rebuild_start_s", time_json(v.rebuild_start_s)}, {"rebuild_end_s", time_json(v.rebuild_end_s)},
                            {"rebuild_from", v.rebuild_from}, {"rebuild_to", v.rebuild_to}, {"verdict", v.verdict}});
  }
  if (!t.certificates.empty()) {
    j["certificates"] = nlohmann::json::array();
    for (const auto& c : t.certificates) {
      j["certificates"].push_back({{"certificate", c.certificate}, {"issuer", c.issuer}, {"secret", c.secret}, {"dated", c.dated},
                                   {"undated_why", c.undated_why}, {"renewed_before", c.renewed_before},
                                   {"renewal_fails_s", time_json(c.attempt_s)}, {"tls_fails_s", time_json(c.expires_s)}});
    }
  }
  j["summary"] = {{"requests_traced", t.published.requests.size()}, {"apps", t.apps_total}, {"apps_down", t.apps.size()},
                  {"apps_down_for_ever", t.apps_down_for_ever}, {"total_downtime_s", t.total_downtime_s}, {"data_lost", t.data_lost},
                  {"steady_s", t.steady_s}};
  j["notes"] = t.notes;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

// The swim lanes: the axis runs 10 % past the steady state; an open span is drawn to its end.
Timeline lanes(const std::string& id, const std::string& title, const std::string& rows, const std::string& command_line) {
  Timeline chart;
  chart.frame = PlotFrame{id, title, "time after the first failure (s)", rows, command_line};
  return chart;
}

void span_into(TimelineRow& row, double from, double to, double end, const std::string& label) {
  const bool open = to == kNever;
  row.spans.push_back(TimelineSpan{from, open ? end : to, label, open});
}

}  // namespace

std::string break_html(const FailureTimeline& t, const std::string& command_line) {
  HtmlDocument doc("break: " + failures_text(t), command_line);
  const double end = std::max(1.0, t.steady_s * 1.1);
  doc.add_section("Summary", "summary");
  doc.add_facts("summary", {{"failures", failures_text(t)},
                            {"requests traced", page_number(static_cast<double>(t.published.requests.size()))},
                            {"apps down", fmt::format("{} of {}", t.apps.size(), t.apps_total)},
                            {"downtime in total", page_quantity(t.total_downtime_s, "s")},
                            {"apps down for ever", page_number(t.apps_down_for_ever)},
                            {"data lost", t.data_lost ? "yes" : "no"},
                            {"steady state at", page_quantity(t.steady_s, "s")}});
  doc.add_paragraph("Timers: " + timers_text(t.timers) + ".");
  doc.add_section("Apps", "apps");
  if (t.apps.empty()) {
    doc.add_paragraph("No app fails.");
  } else {
    Timeline chart = lanes("apps", "When each app is down", "app", command_line);
    for (const auto& a : t.apps) {
      TimelineRow row{a.app, {}};
      for (const auto& s : a.down) span_into(row, s.from_s, s.to_s, end, "down: " + s.why);
      chart.rows.push_back(std::move(row));
    }
    doc.add_figure(render_timeline(chart));
    doc.add_table(apps_table(t), "apps");
  }
  doc.add_section("Volumes", "volumes");
  Timeline chart = lanes("volumes", "Each Longhorn volume that changes", "volume", command_line);
  // A lane per state of each volume (the states overlap in time: degraded while unavailable).
  for (const auto& v : t.volumes) {
    TimelineRow lost{v.claim + " faulted", {}}, degraded{v.claim + " degraded", {}}, unavailable{v.claim + " unavailable", {}},
        rebuild{v.claim + " rebuilding", {}};
    if (v.lost_s != kNever) span_into(lost, v.lost_s, kNever, end, "faulted: data lost");
    if (v.degraded_s != kNever && v.lost_s == kNever) span_into(degraded, v.degraded_s, v.rebuild_end_s, end, "degraded");
    for (const auto& s : v.unavailable) span_into(unavailable, s.from_s, s.to_s, end, "unavailable: " + s.why);
    if (v.rebuild_start_s != kNever) span_into(rebuild, v.rebuild_start_s, v.rebuild_end_s, end, "rebuilding " + v.rebuild_from + " -> " + v.rebuild_to);
    for (auto* row : {&lost, &degraded, &unavailable, &rebuild}) {
      if (!row->spans.empty()) chart.rows.push_back(std::move(*row));
    }
  }
  if (chart.rows.empty()) {
    doc.add_paragraph("No Longhorn volume changes.");
  } else {
    doc.add_figure(render_timeline(chart));
  }
  if (!t.volumes.empty()) doc.add_table(volumes_table(t), "volumes");
  if (!t.pods.empty()) {
    doc.add_section("Pods", "pods");
    doc.add_table(pods_table(t), "pods");
  }
  if (!t.certificates.empty()) {
    doc.add_section("Certificates", "certificates");
    doc.add_table(certificates_table(t), "certificates");
  }
  doc.add_section("Timeline", "events");
  doc.add_table(events_table(t), "events");
  doc.add_section("Text report", "text");
  doc.add_preformatted(break_text(t));
  return doc.render();
}

}  // namespace ct
