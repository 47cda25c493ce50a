#include "report/reliability_html.h"

#include <utility>

#include <fmt/format.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/reliability_report.h"

namespace ct {
namespace {


PlotFrame frame(std::string id, std::string title, std::string x, std::string y, const std::string& command_line) {
  return PlotFrame{std::move(id), std::move(title), std::move(x), std::move(y), command_line};
}

std::string planes_name(int planes) { return fmt::format("{} plane{}", planes, planes == 1 ? "" : "s"); }

void design(const ReliabilityStudy& s, const std::string& command_line, HtmlDocument& doc) {
  const DesignReliability& d = s.design;
  const ReliabilityModel& m = d.model;
  doc.add_section("The design", "design");
  doc.add_paragraph(fmt::format("{}: {} hosts, {} GPUs, {}, {} tiers; job of {} GPUs over {} h (independent elements, "
                                "exponential up and repair times).",
                                s.name, m.hosts, m.gpus, planes_name(m.planes), m.tiers, m.job_gpus,
                                m.job.horizon_hours));
  doc.add_facts("design", {{"P(at least one element down)", page_number(d.fabric.p_any_down)},
                           {"E[elements down]", page_number(d.fabric.expected_down)},
                           {"interruptions, closed form", page_number(d.closed.expected_interruptions)},
                           {"interruptions, Monte Carlo mean", page_number(d.mc.interruptions.mean)},
                           {"goodput lost (h), closed form", page_number(d.closed.expected_lost_hours)},
                           {"goodput lost (h), Monte Carlo mean", page_number(d.mc.lost_hours.mean)},
                           {"Monte Carlo trials", page_number(static_cast<double>(d.mc.trials))}});
  BarChart chart;
  chart.frame = frame("p-k-down", "Elements down at a given moment, per class (closed form)", "element class",
                      "probability", command_line);
  chart.log_y = true;
  const char* const names[] = {"0 down", "1 down", "2 down", "3 or more down"};
  for (const char* name : names) chart.series.push_back(BarSeries{name, {}});
  for (std::size_t c = 0; c < m.classes.size(); ++c) {
    if (!m.classes[c].modelled()) continue;
    chart.categories.push_back(m.classes[c].name);
    for (std::size_t k = 0; k < chart.series.size(); ++k) chart.series[k].values.push_back(d.steady[c].p_k_down.at(k));
  }
  if (!chart.categories.empty()) doc.add_figure(render_bar_chart(chart));
}

void planes(const ReliabilityStudy& s, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("One, two or four planes", "planes");
  std::vector<std::pair<std::string, std::string>> facts;
  BarChart lost;
  lost.frame = frame("planes-lost-hours", "Goodput lost over the horizon per plane count", "planes",
                     "hours lost", command_line);
  BarSeries closed{"closed form", {}};
  BarSeries simulated{"Monte Carlo mean", {}};
  Histogram interruptions;
  interruptions.frame = frame("interruptions", "Interruptions per trial (Monte Carlo)", "interruptions of the job",
                              "share of trials (%)", command_line);
  BarChart spread;
  spread.frame = frame("lost-hours-spread", "Hours lost: spread over the trials", "percentile of the trials",
                       "hours lost", command_line);
  spread.categories = {"p50", "p90", "p99", "max"};
  for (const DesignReliability& d : s.planes) {
    if (!d.feasible()) {
      doc.add_paragraph(fmt::format("{}: not feasible: {}", planes_name(d.planes), d.infeasible));
      continue;
    }
    const std::string name = planes_name(d.planes);
    lost.categories.push_back(name);
    closed.values.push_back(d.closed.expected_lost_hours);
    simulated.values.push_back(d.mc.lost_hours.mean);
    facts.emplace_back(name + ": hours lost, closed form", page_number(d.closed.expected_lost_hours));
    facts.emplace_back(name + ": hours lost, Monte Carlo mean", page_number(d.mc.lost_hours.mean));
    facts.emplace_back(name + ": hours lost, 95% interval",
                       fmt::format("{} to {}", page_number(d.mc.lost_hours.low()), page_number(d.mc.lost_hours.high())));
    HistogramSeries h{name, {}};
    for (std::size_t k = 0; k < d.mc.interruption_share.size(); ++k) {
      h.bins.push_back(HistogramBin{static_cast<double>(k), static_cast<double>(k + 1), 100.0 * d.mc.interruption_share[k]});
    }
    interruptions.series.push_back(std::move(h));
    spread.series.push_back(BarSeries{name, {d.mc.lost_p50, d.mc.lost_p90, d.mc.lost_p99, d.mc.lost_max}});
  }
  doc.add_facts("planes", facts);
  if (lost.categories.empty()) return;
  lost.series.push_back(std::move(closed));
  lost.series.push_back(std::move(simulated));
  doc.add_figure(render_bar_chart(lost));
  doc.add_section("Monte Carlo spread", "spread");
  doc.add_paragraph("The last interruption bin counts that many or more.");
  doc.add_figure(render_histogram(interruptions));
  doc.add_figure(render_bar_chart(spread));
}

}  // namespace

std::string reliability_html(const ReliabilityStudy& study, const std::string& command_line) {
  HtmlDocument doc(fmt::format("reliability: {}", study.name), command_line);
  design(study, command_line, doc);
  planes(study, command_line, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(to_text(study));
  return doc.render();
}

}  // namespace ct
