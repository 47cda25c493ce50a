#include "report/hash_html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"

namespace ct {
namespace {

const char* tier_word(int tier) {
  switch (tier) {
    case 1: return "leaf";
    case 2: return "spine";
    case 3: return "core";
  }
  return "port";
}

// Six significant digits: what the page shows of a quantity the JSON gives unrounded.
std::string rate(double bps) { return page_quantity(bps, "b/s"); }

PlotFrame frame(std::string id, std::string title, std::string x, std::string y, const std::string& command_line) {
  return PlotFrame{std::move(id), std::move(title), std::move(x), std::move(y), command_line};
}

void summary(const HashStudy& in, HtmlDocument& doc) {
  const Topology& t = in.topology();
  const HashScenario& s = in.scenario;
  std::uint32_t reached = 0;
  for (const FlowPath& p : s.paths) reached += p.reached ? 1 : 0;
  doc.add_section("Summary", "summary");
  doc.add_paragraph(fmt::format("{} ({}): {} plane(s), {} tiers, {} links; flows: {}", in.spec_name, in.spec_file,
                                t.planes, t.tiers, t.link_count(), in.flow_source));
  for (const std::string& n : in.notes) doc.add_paragraph("note: " + n);
  for (const std::string& w : in.warnings) doc.add_paragraph("warning: " + w);
  doc.add_facts("summary", {{"flows", page_number(static_cast<double>(in.flows.size()))},
                            {"flows with a path", page_number(static_cast<double>(reached))},
                            {"collisions", page_number(static_cast<double>(s.collisions.size()))},
                            {"uplinks in play", page_number(static_cast<double>(s.loads.uplinks.links))},
                            {"idle uplinks", page_number(static_cast<double>(s.loads.uplinks.idle))},
                            {"busiest uplink (flows)", page_number(s.loads.uplinks.busiest)},
                            {"slowest flow", rate(s.loads.slowest)},
                            {"mean flow", rate(s.loads.mean_throughput)}});
}

// One heat strip per (tier, direction) of the groups entered: a row per group, a cell per member.
void loads(const HashStudy& in, const HashReportOptions& options, const std::string& command_line, HtmlDocument& doc) {
  const Topology& t = in.topology();
  const ForwardingState& f = in.forwarding();
  const LoadSummary& l = in.scenario.loads;
  doc.add_section("Link loads per ECMP group", "loads");
  if (l.groups.empty()) {
    doc.add_paragraph("No flow entered a group of two or more links: there is no choice to show.");
    return;
  }
  doc.add_paragraph("Each row is one ECMP group the flows entered, each cell one member link with the flows it carries "
                    "in the group's direction; a white cell is an idle link beside busy siblings.");
  // (tier, down) -> groups, in group id order.
  std::map<std::pair<int, bool>, std::vector<const GroupLoad*>> strips;
  for (const GroupLoad& g : l.groups) {
    strips[{t.tier[f.owner(g.group).value()], f.kind(g.group) == GroupKind::kDown}].push_back(&g);
  }
  for (const auto& [key, groups] : strips) {
    const auto& [tier, down] = key;
    const char* direction = down ? "down" : "up";
    HeatStrip strip;
    strip.frame = frame(fmt::format("loads-tier{}-{}", tier, direction),
                        fmt::format("Flows per member link: {} groups, {}", tier_word(tier), direction),
                        "member link of the group", "flows on the link", command_line);
    double max = 0;
    for (const GroupLoad* g : groups) {
      if (strip.rows.size() == options.max_listed) break;
      HeatRow row;
      row.label = fmt::format("{} {} ({} links)", t.vertex_name(f.owner(g->group)), direction, g->members);
      for (LinkId link : f.members(g->group)) {
        const double x = l.load[directed_link(link, !down)];
        row.values.push_back(x);
        row.cell_labels.push_back(fmt::format("{}: {} flows", in.names().cable_name(link), page_number(x)));
        max = std::max(max, x);
      }
      strip.rows.push_back(std::move(row));
    }
    strip.max_value = max;
    if (strip.rows.size() < groups.size()) {
      doc.add_paragraph(fmt::format("{} {} groups: the first {} of {} shown (--max-listed)", tier_word(tier), direction,
                                    strip.rows.size(), groups.size()));
    }
    doc.add_figure(render_heat_strip(strip));
  }
}

void monte_carlo(const HashStudy& in, const std::string& command_line, HtmlDocument& doc) {
  const MonteCarloResult& r = *in.monte_carlo;
  const EcmpClosedForms& c = r.closed;
  const double trials = r.trials;
  const bool closed = !c.groups.empty();
  doc.add_section("Monte Carlo over source ports", "monte-carlo");
  doc.add_paragraph(fmt::format("{} trials, seed {}: every flow draws a fresh RoCE source port each trial; the closed "
                                "forms assume independent uniform hashing at the source leaves (balls into bins).",
                                r.trials, in.seed));
  const auto or_dash = [](bool known, double v) { return known ? page_number(v) : std::string("-"); };
  doc.add_facts("monte-carlo",
                {{"P(collision on first-tier uplinks), simulated", page_number(r.p_first_collision)},
                 {"P(collision on first-tier uplinks), closed form", or_dash(closed, std::max(0.0, c.p_collision))},
                 {"P(collision anywhere), simulated", page_number(r.p_any_collision)},
                 {"E[idle first-tier uplinks], simulated", page_number(r.mean_idle)},
                 {"E[idle first-tier uplinks], closed form", or_dash(closed, c.expected_idle)},
                 {"E[slowest flow], simulated", rate(r.mean_slowest)},
                 {"E[slowest flow], closed form", c.slowest_applicable ? rate(c.expected_slowest) : std::string("-")}});
  // The busiest first-tier uplink: share of trials per load, beside the exact distribution.
  const std::size_t top = std::max(r.busiest_histogram.size(), c.busiest_pmf.size());
  if (top == 0) return;
  BarChart chart;
  chart.frame = frame("busiest-uplink", "Flows on the busiest first-tier uplink", "flows on the busiest uplink",
                      "share of trials (%)", command_line);
  BarSeries simulated{fmt::format("Monte Carlo ({} trials)", r.trials), {}};
  BarSeries exact{"closed form (exact max-load distribution)", {}};
  for (std::size_t m = 0; m < top; ++m) {
    chart.categories.push_back(fmt::format("{}", m));
    simulated.values.push_back(m < r.busiest_histogram.size() ? 100.0 * r.busiest_histogram[m] / trials : 0.0);
    exact.values.push_back(m < c.busiest_pmf.size() ? 100.0 * c.busiest_pmf[m] : 0.0);
  }
  chart.series.push_back(std::move(simulated));
  if (c.busiest_known) chart.series.push_back(std::move(exact));
  doc.add_figure(render_bar_chart(chart));
}

void comparison(const HashStudy& in, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("Load-balancing schemes on the same flows", "schemes");
  doc.add_paragraph(in.comparison_trials > 1 ? fmt::format("Mean of {} trials per scheme.", in.comparison_trials)
                                             : std::string("One draw of source ports per scheme."));
  BarChart busiest;
  busiest.frame = frame("schemes-busiest", "Busiest link in play per scheme", "scheme", "flows on the busiest link",
                        command_line);
  BarChart slowest;
  slowest.frame = frame("schemes-slowest", "Slowest flow per scheme", "scheme", "fair throughput (Gb/s)", command_line);
  BarSeries b{"busiest link", {}};
  BarSeries s{"slowest flow", {}};
  for (const SchemeRow& r : *in.comparison) {
    if (!r.applicable) {
      doc.add_paragraph(fmt::format("{}: not applicable ({})", scheme_name(r.scheme), r.note));
      continue;
    }
    busiest.categories.emplace_back(scheme_name(r.scheme));
    slowest.categories.emplace_back(scheme_name(r.scheme));
    b.values.push_back(r.busiest);
    s.values.push_back(r.slowest / 1e9);
  }
  if (b.values.empty()) return;
  busiest.series.push_back(std::move(b));
  slowest.series.push_back(std::move(s));
  doc.add_figure(render_bar_chart(busiest));
  doc.add_figure(render_bar_chart(slowest));
}

}  // namespace

std::string hash_html(const HashStudy& study, const HashReportOptions& options, const std::string& command_line) {
  HtmlDocument doc(fmt::format("hash: {}", study.spec_name), command_line);
  summary(study, doc);
  loads(study, options, command_line, doc);
  if (study.monte_carlo) monte_carlo(study, command_line, doc);
  if (study.comparison) comparison(study, command_line, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(hash_report(study, options));
  return doc.render();
}

}  // namespace ct
