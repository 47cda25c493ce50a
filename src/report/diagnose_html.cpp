#include "report/diagnose_html.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/diagnose_report.h"
#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {
namespace {

// Members named under their bars with their state ("spine/1 (IDLE)") in groups this small; wider
// groups show the names only (the busiest is the reference line's label, the rest in the table).
constexpr std::size_t kMarkedMembers = 4;

// A rate as the pages show it (report/html/page_numbers.h): "82.8 Mb/s".
std::string rate(double bits_per_second) { return page_quantity(bits_per_second, "b/s"); }

PlotFrame frame(std::string id, std::string title, std::string x, std::string y, const std::string& command_line) {
  return PlotFrame{std::move(id), std::move(title), std::move(x), std::move(y), command_line};
}

std::string far_end(const Topology& t, const GroupDiagnosis& g, const MemberStats& m) {
  return t.vertex_name(t.other_end(m.link, g.sw));
}

// The last `parts` '/'-separated components of `name` (all of it when it has fewer).
std::string tail(const std::string& name, std::size_t parts) {
  std::size_t begin = name.size();
  for (std::size_t k = 0; k < parts; ++k) {
    if (begin == 0) return name;
    const std::size_t slash = name.rfind('/', begin - 1);
    if (slash == std::string::npos) return name;
    begin = slash;
  }
  return name.substr(begin + 1);
}

// Short, distinct names for a group's members under their bars: the far ends' last two name
// components ("spine/0"), more when two would read alike (a core's down group reaches spines of
// several pods), the member's index added when two cables reach the same far end.
std::vector<std::string> member_labels(const Topology& t, const GroupDiagnosis& g) {
  std::vector<std::string> full;
  for (const MemberStats& m : g.members) full.push_back(far_end(t, g, m));
  for (std::size_t parts = 2;; ++parts) {
    std::vector<std::string> out;
    bool longest = true;
    for (const std::string& n : full) {
      out.push_back(tail(n, parts));
      longest = longest && out.back() == n;
    }
    const std::set<std::string> distinct(out.begin(), out.end());
    if (distinct.size() == out.size()) return out;
    if (longest) {
      for (std::size_t i = 0; i < out.size(); ++i) out[i] += fmt::format(" #{}", i);
      return out;
    }
  }
}

std::string state_mark(const GroupDiagnosis& g, const MemberStats& m) {
  if (!m.counted) return "no counter";
  if (m.idle) return "IDLE";
  if (m.degraded) return "DEGRADED";
  if (g.idle > 0 && m.bits_per_second == g.max_bps) return "busiest";
  return "";
}

std::string group_label(const Topology& t, const GroupDiagnosis& g) {
  return fmt::format("{} {}", t.vertex_name(g.sw), g.up ? "up" : "down");
}

void summary(const Diagnosis& d, HtmlDocument& doc) {
  doc.add_section("Summary", "summary");
  doc.add_paragraph(fmt::format("Diagnosis from {} scrapes, {} mapped directed links, {} host ports, {} known flows.",
                                d.scrapes, d.links.size(), d.hosts.size(), d.flows));
  for (const Diagnostic& w : d.warnings) doc.add_paragraph("warning: " + w.message);
  doc.add_facts("summary", {{"scrapes", page_number(static_cast<double>(d.scrapes))},
                            {"mapped directed links", page_number(static_cast<double>(d.links.size()))},
                            {"host ports", page_number(static_cast<double>(d.hosts.size()))},
                            {"known flows", page_number(static_cast<double>(d.flows))},
                            {"ECMP groups with traffic", page_number(static_cast<double>(d.groups.size()))},
                            {"imbalanced groups", page_number(static_cast<double>(d.imbalanced()))},
                            {"unmapped series", page_number(static_cast<double>(d.unmapped.size()))}});
}

// Every judged group as a heat-strip row; beyond kHeatRowsShown, the imbalanced ones first.
void groups(const Diagnosis& d, const Topology& t, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("ECMP groups", "groups");
  if (d.groups.empty()) {
    doc.add_paragraph("No ECMP group of two or more members has counters on its members and traffic above the "
                      "noise floor: there is nothing to judge.");
    return;
  }
  doc.add_paragraph("Each row is one ECMP group, each cell one member link with the rate its counters show leaving "
                    "the switch: a white cell at 0 beside a red one is an idle twin beside the member carrying its "
                    "traffic.");
  std::vector<const GroupDiagnosis*> shown;
  const bool all = d.groups.size() <= kHeatRowsShown;
  for (const bool imbalanced : {true, false}) {
    for (const GroupDiagnosis& g : d.groups) {
      if ((all || g.imbalanced == imbalanced) && shown.size() < kHeatRowsShown) shown.push_back(&g);
    }
    if (all) break;
  }
  if (!all) {
    doc.add_paragraph(fmt::format("{} of {} groups shown, the imbalanced first; every group is in the table below.",
                                  shown.size(), d.groups.size()));
  }
  double largest = 0;
  for (const GroupDiagnosis* g : shown) {
    for (const MemberStats& m : g->members) largest = std::max(largest, m.bits_per_second);
  }
  const UnitScale scale = unit_scale(largest, "b/s");
  HeatStrip strip;
  strip.frame = frame("group-members", "Rate per member link of each ECMP group", "member link of the group",
                      scale.unit + " leaving the switch", command_line);
  for (const GroupDiagnosis* g : shown) {
    HeatRow row;
    row.label = group_label(t, *g);
    for (const MemberStats& m : g->members) {
      row.values.push_back(m.bits_per_second / scale.divisor);
      const std::string mark = state_mark(*g, m);
      row.cell_labels.push_back(fmt::format("{}{}, {}", far_end(t, *g, m), mark.empty() ? "" : " (" + mark + ")",
                                            rate(m.bits_per_second)));
    }
    strip.rows.push_back(std::move(row));
  }
  doc.add_figure(render_heat_strip(strip));
  doc.add_table(diagnose_groups_table(d, t), "groups");
}

void verdict(const GroupDiagnosis& g, std::size_t index, bool chart, const Topology& t, const std::string& command_line,
             HtmlDocument& doc) {
  const std::string label = group_label(t, g);
  doc.add_section(fmt::format("{} group: {}", label, cause_name(g.cause)), fmt::format("group-{}", index));
  const std::vector<std::string> names = member_labels(t, g);
  double total = 0;
  std::size_t busiest = 0;
  std::vector<std::string> idle, degraded;
  for (std::size_t i = 0; i < g.members.size(); ++i) {
    total += g.members[i].bits_per_second;
    if (g.members[i].bits_per_second > g.members[busiest].bits_per_second) busiest = i;
    if (g.members[i].idle) idle.push_back(far_end(t, g, g.members[i]));
    if (g.members[i].degraded) {
      degraded.push_back(fmt::format("{} at {}", far_end(t, g, g.members[i]), rate(g.members[i].bits_per_second)));
    }
  }
  const MemberStats& hot = g.members[busiest];
  const auto join = [](const std::vector<std::string>& list) {
    std::string out;
    for (const std::string& n : list) out += (out.empty() ? "" : ", ") + n;
    return out;
  };
  if (!idle.empty()) {
    doc.add_paragraph(fmt::format("{} carries {} of the group's {} while {} sit{} at zero.", far_end(t, g, hot),
                                  page_percent(total > 0 ? hot.bits_per_second / total : 0.0), rate(total),
                                  join(idle), idle.size() == 1 ? "s" : ""));
  } else if (!degraded.empty()) {
    doc.add_paragraph(fmt::format("No member is idle, but {} carr{} less than the busiest member's {}.",
                                  join(degraded), degraded.size() == 1 ? "ies" : "y", rate(g.max_bps)));
  }
  if (chart) {
    const UnitScale scale = unit_scale(g.max_bps, "b/s");
    BarChart bars;
    bars.frame = frame(fmt::format("group-{}-members", index), fmt::format("{}: rate per member ({})", label, cause_name(g.cause)),
                       fmt::format("member (far end of the link from {})", t.vertex_name(g.sw)),
                       scale.unit + " leaving the switch", command_line);
    BarSeries series{"switch port counters", {}};
    for (std::size_t i = 0; i < g.members.size(); ++i) {
      const std::string mark = state_mark(g, g.members[i]);
      const bool marked = g.members.size() <= kMarkedMembers && !mark.empty();
      bars.categories.push_back(marked ? names[i] + " (" + mark + ")" : names[i]);
      series.values.push_back(g.members[i].bits_per_second / scale.divisor);
    }
    bars.series.push_back(std::move(series));
    bars.references.push_back(ReferenceLine{g.mean_bps / scale.divisor,
                                            fmt::format("group mean {} (what a per-group panel shows)", rate(g.mean_bps))});
    if (g.idle > 0) {
      bars.references.push_back(ReferenceLine{hot.bits_per_second / scale.divisor, fmt::format("busiest: {}", names[busiest])});
    }
    doc.add_figure(render_bar_chart(bars));
  }
  std::vector<std::pair<std::string, std::string>> facts{
      {"cause", std::string(cause_name(g.cause))},
      {"busiest member", far_end(t, g, hot)},
      {"busiest member's rate", rate(g.max_bps)},
      {"group mean", rate(g.mean_bps)},
      {"busiest member's share of the group's traffic", page_percent(total > 0 ? hot.bits_per_second / total : 0.0)},
      {"Jain's fairness", page_number(g.jain)},
      {"idle members", page_number(static_cast<double>(g.idle))}};
  if (g.probability >= 0) facts.emplace_back("P(any collision)", page_number(g.probability));
  doc.add_facts(fmt::format("group-{}", index), facts);
  doc.add_table(diagnose_members_table(g, t), fmt::format("group-{}-members", index));
  TextTable witnesses({{"witness"}, {"state"}, {"evidence"}}, "Witnesses");
  for (const Witness& w : g.witnesses) witnesses.add_row({w.name, std::string(witness_state_name(w.state)), w.evidence});
  doc.add_table(witnesses, fmt::format("group-{}-witnesses", index));
  doc.add_paragraph(fmt::format("Cause: {}: {}", cause_name(g.cause), g.explanation));
  doc.add_paragraph("Why the dashboards stayed green:");
  for (const std::string& s : g.green) doc.add_paragraph("- " + s);
  doc.add_paragraph("Fix: " + g.fix);
  if (!g.predicted.empty()) doc.add_paragraph("Predicted: " + g.predicted);
}

void links(const Diagnosis& d, const Topology& t, HtmlDocument& doc) {
  doc.add_section("Links and hosts", "links");
  std::size_t quiet = 0;
  doc.add_table(diagnose_links_table(d, t, quiet), "links");
  doc.add_paragraph(fmt::format("{} more directed links with counters carry less than 1 Mb/s.", quiet));
  if (!d.hosts.empty()) doc.add_table(diagnose_hosts_table(d, t), "hosts");
  if (!d.unmapped.empty()) {
    doc.add_paragraph(fmt::format("{} unmapped series (not in the port map):", d.unmapped.size()));
    std::string list;
    for (const std::string& u : d.unmapped) list += u + "\n";
    doc.add_preformatted(list);
  }
}

}  // namespace

std::string diagnose_html(const Diagnosis& d, const Topology& t, const std::string& spec_name,
                          const std::string& command_line) {
  HtmlDocument doc(fmt::format("diagnose: {}", spec_name), command_line);
  summary(d, doc);
  groups(d, t, command_line, doc);
  std::size_t charts = 0;
  for (std::size_t i = 0; i < d.groups.size(); ++i) {
    if (!d.groups[i].imbalanced || d.groups[i].members.empty()) continue;
    verdict(d.groups[i], i, charts < kVerdictChartsShown, t, command_line, doc);
    ++charts;
  }
  if (charts > kVerdictChartsShown) {
    doc.add_footnote(fmt::format("Bar charts for the first {} of {} imbalanced groups; the others have their tables.",
                                 kVerdictChartsShown, charts));
  }
  doc.add_section("The alert that would have fired", "alerts");
  doc.add_paragraph(diagnose_alert_sentence(d));
  if (!d.alerts.empty()) doc.add_table(diagnose_alerts_table(d), "alerts");
  links(d, t, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(to_text(d, t));
  return doc.render();
}

}  // namespace ct
