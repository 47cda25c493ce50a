#include "report/trace_html.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/html/html_document.h"
#include "report/html/svg_chart.h"
#include "report/table.h"
#include "report/trace_report.h"

namespace ct {
namespace {

// The colour of a verdict (kOkabeIto index): bluish green, orange, vermillion, sky blue, black.
int verdict_group(HopStatus s) {
  switch (s) {
    case HopStatus::kOk: return 2;
    case HopStatus::kWarning: return 1;
    case HopStatus::kFailed: return 5;
    case HopStatus::kSkipped: return 4;
    case HopStatus::kNotReached: return 7;
  }
  return 7;
}

std::string choice_label(const HopChoice& c) {
  return c.what == "replica" || c.what == "engine" ? c.what + " " + c.of : c.what;
}

std::string url_of(const HttpRequest& r) {
  return fmt::format("{} {}://{}{}", r.method, r.scheme, r.sni.empty() ? r.host : r.sni, r.path);
}

void hops(const RequestTrace& t, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("Hop by hop", "hops");
  StepDiagram d;
  d.frame = PlotFrame{"hops", "The request hop by hop", "hops of the request, client to storage (marked: what each hop took)", "",
                      command_line};
  bool used[5] = {};
  const HopStatus order[5] = {HopStatus::kOk, HopStatus::kWarning, HopStatus::kFailed, HopStatus::kSkipped, HopStatus::kNotReached};
  for (const RequestHop& h : t.hops) {
    Step s{fmt::format("hop{}", h.number), fmt::format("{}. {}", h.number, h.name), to_string(h.status), h.summary,
           verdict_group(h.status), h.status == HopStatus::kNotReached || h.status == HopStatus::kSkipped, {}};
    for (const HopChoice& c : h.choices) {
      StepChoice sc{choice_label(c), {}};
      for (const HopOption& o : c.options) {
        sc.options.push_back(StepOption{o.name, o.detail, o.taken});
      }
      s.choices.push_back(std::move(sc));
    }
    d.steps.push_back(std::move(s));
    for (int k = 0; k < 5; ++k) used[k] = used[k] || order[k] == h.status;
  }
  for (int k = 0; k < 5; ++k) {
    if (used[k]) d.legend.push_back(StepLegendItem{to_string(order[k]), verdict_group(order[k])});
  }
  doc.add_figure(render_step_diagram(d));
  TextTable table({{"#", Align::kRight}, {"hop"}, {"verdict"}, {"decided by"}, {"where"}, {"summary"}});
  for (const RequestHop& h : t.hops) {
    table.add_row({std::to_string(h.number), h.name, to_string(h.status), h.decided_by, h.where, h.summary});
  }
  doc.add_table(table, "hops");
  TextTable choices({{"#", Align::kRight}, {"hop"}, {"decision"}, {"of"}, {"option"}, {"detail"}, {"node"}, {"taken"}},
                    "The alternatives of each hop (taken: the request, or its data, goes there)");
  for (const RequestHop& h : t.hops) {
    for (const HopChoice& c : h.choices) {
      for (const HopOption& o : c.options) {
        choices.add_row({std::to_string(h.number), h.name, c.what, c.of, o.name, o.detail, o.node, o.taken ? "yes" : "no"});
      }
    }
  }
  doc.add_table(choices, "choices");
}

void survival(const RequestTrace& t, HtmlDocument& doc) {
  doc.add_section("If a node dies", "survival");
  if (t.survival.empty()) {
    doc.add_paragraph("The request touched no node of the cluster (it stopped before the VIP).");
    return;
  }
  doc.add_paragraph("One node at a time: what its death does to the same request once the failover has happened (the "
                    "router's BGP hold time, the Service's endpoints, Longhorn's replicas). Readiness and the node "
                    "lifecycle timeouts are not modelled.");
  TextTable table({{"node"}, {"roles"}, {"request served"}, {"effect"}, {"replicas left"}});
  for (const NodeSurvival& n : t.survival) {
    std::vector<std::string> left;
    for (const ReplicasLeft& r : n.replicas) left.push_back(fmt::format("{}: {} of {}", r.claim, r.left, r.of));
    table.add_row({n.node, fmt::format("{}", fmt::join(n.roles, "; ")), n.served ? "yes" : "no", n.effect,
                   left.empty() ? "-" : fmt::format("{}", fmt::join(left, "; "))});
  }
  doc.add_table(table, "survival");
}

}  // namespace

std::string trace_html(const RequestTrace& t, const std::string& command_line) {
  HtmlDocument doc("trace: " + url_of(t.request), command_line);
  doc.add_section("Request", "request");
  int ok = 0, failed = 0;
  for (const RequestHop& h : t.hops) {
    ok += h.status == HopStatus::kOk ? 1 : 0;
    failed += h.status == HopStatus::kFailed ? 1 : 0;
  }
  int nodes_fatal = 0;
  for (const NodeSurvival& n : t.survival) nodes_fatal += n.served ? 0 : 1;
  doc.add_facts("request", {{"request", url_of(t.request)},
                            {"client", t.client},
                            {"client chosen as", t.client_why},
                            {"HTTP status", t.http_status == 0 ? "none (the request never reached HTTP)" : std::to_string(t.http_status)},
                            {"hops ok", std::to_string(ok)},
                            {"hops failed", std::to_string(failed)},
                            {"nodes touched", std::to_string(t.survival.size())},
                            {"nodes whose death stops the request", std::to_string(nodes_fatal)}});
  hops(t, command_line, doc);
  survival(t, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(trace_text(t));
  return doc.render();
}

}  // namespace ct
