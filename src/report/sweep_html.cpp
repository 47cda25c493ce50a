#include "report/sweep_html.h"

#include <algorithm>

#include <fmt/format.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {
namespace {

struct Page {
  const SweepFile& sweep;
  const SweepRun& run;
  const std::string& command_line;
  std::vector<std::string> names;              // sweep_metrics()
  std::vector<std::vector<MetricSummary>> summaries;  // by point
  std::vector<std::size_t> front;
  std::vector<std::size_t> objectives;         // indices into names
};

std::string point_label(const Page& p, std::size_t i) {
  std::string s = fmt::format("point {}:", i);
  for (std::size_t a = 0; a < p.sweep.axes.size(); ++a) {
    s += fmt::format(" {}={}", p.sweep.axes[a].path, p.sweep.axes[a].values[p.run.points[i].value[a]].yaml);
  }
  return s;
}

bool on_front(const Page& p, std::size_t i) { return std::binary_search(p.front.begin(), p.front.end(), i); }

std::string goal_name(const SweepObjective& o) { return o.goal == Goal::kMinimize ? "lower is better" : "higher is better"; }

std::optional<double> mean_of(const Page& p, std::size_t point, std::size_t metric) {
  const auto& s = p.summaries[point];
  return s.empty() ? std::nullopt : s[metric].mean;
}

void summary(const Page& p, HtmlDocument& doc) {
  std::size_t ok = 0, infeasible = 0, failed = 0;
  for (const PointResult& r : p.run.results) {
    ok += r.status == PointStatus::kOk ? 1 : 0;
    infeasible += r.status == PointStatus::kInfeasible ? 1 : 0;
    failed += r.status == PointStatus::kFailed ? 1 : 0;
  }
  doc.add_section("The sweep", "summary");
  doc.add_paragraph(fmt::format("{} over {}: every point's figures are means over its seeds.", p.sweep.file, p.sweep.base_path));
  const auto n = [](std::size_t v) { return page_number(static_cast<double>(v)); };
  doc.add_facts("summary", {{"points", n(p.run.points.size())},
                            {"seeds per point", n(p.sweep.seeds.size())},
                            {"feasible", n(ok)},
                            {"infeasible", n(infeasible)},
                            {"failed", n(failed)},
                            {"on the Pareto front", n(p.front.size())}});
}

// One objective pair's plane: the front's points full, the others faded.
void scatter(const Page& p, std::size_t ox, std::size_t oy, HtmlDocument& doc) {
  const bool alone = ox == oy;
  const std::string& yname = p.names[p.objectives[oy]];
  const std::string xname = alone ? "point" : p.names[p.objectives[ox]];
  LineChart chart;
  chart.frame = PlotFrame{alone ? "front-0" : fmt::format("front-{}-{}", ox, oy),
                          alone ? yname + " per point" : fmt::format("{} against {}", yname, xname),
                          alone ? "point" : fmt::format("{} ({})", xname, goal_name(p.sweep.objectives[ox])),
                          fmt::format("{} ({})", yname, goal_name(p.sweep.objectives[oy])), p.command_line};
  LineSeries front{"on the Pareto front", {}};
  LineSeries dominated{"dominated", {}};
  front.scatter = dominated.scatter = true;
  dominated.faded = true;
  for (std::size_t i = 0; i < p.run.points.size(); ++i) {
    const auto x = alone ? std::optional<double>(static_cast<double>(i)) : mean_of(p, i, p.objectives[ox]);
    const auto y = mean_of(p, i, p.objectives[oy]);
    if (!x || !y) continue;
    LineSeries& s = on_front(p, i) ? front : dominated;
    s.points.emplace_back(*x, *y);
    s.labels.push_back(fmt::format("{} ({}, {})", point_label(p, i), page_number(*x), page_number(*y)));
  }
  for (LineSeries* s : {&front, &dominated}) {
    if (!s->points.empty()) chart.series.push_back(std::move(*s));
  }
  if (!chart.series.empty()) doc.add_figure(render_line_chart(chart));
}

std::string with_interval(const MetricSummary& s) {
  if (!s.mean) return "-";
  return s.ci95 ? fmt::format("{} ± {}", page_number(*s.mean), page_number(*s.ci95)) : page_number(*s.mean);
}

void front_section(const Page& p, HtmlDocument& doc) {
  doc.add_section("The Pareto front", "front");
  if (p.objectives.empty()) {
    doc.add_paragraph("The sweep names no objectives: no front (add objectives: to the sweep file).");
    return;
  }
  doc.add_paragraph("A point is on the front when no other point is at least as good on every objective and better on "
                    "one (means over seeds). Faded points are dominated.");
  if (p.objectives.size() == 1) scatter(p, 0, 0, doc);
  for (std::size_t a = 0; a < p.objectives.size(); ++a) {
    for (std::size_t b = a + 1; b < p.objectives.size(); ++b) scatter(p, a, b, doc);
  }
  std::vector<TableColumn> columns{{"point", Align::kRight}};
  for (const SweepAxis& a : p.sweep.axes) columns.push_back({a.path});
  for (std::size_t o : p.objectives) columns.push_back({p.names[o] + " (95% CI)", Align::kRight});
  TextTable table(columns, "The points on the front");
  for (std::size_t i : p.front) {
    std::vector<std::string> row{fmt::format("{}", i)};
    for (std::size_t a = 0; a < p.sweep.axes.size(); ++a) row.push_back(p.sweep.axes[a].values[p.run.points[i].value[a]].yaml);
    for (std::size_t o : p.objectives) row.push_back(with_interval(p.summaries[i][o]));
    table.add_row(row);
  }
  doc.add_table(table, "front");
}

std::string change(const std::optional<double>& at, const std::optional<double>& base) {
  if (!at || !base) return "-";
  const double d = *at - *base;
  const std::string sign = d > 0 ? "+" : "";
  if (*base == 0) return sign + page_number(d);
  return fmt::format("{}{} ({}{})", sign, page_number(d), sign, page_percent(d / std::abs(*base)));
}

void axis_section(const Page& p, HtmlDocument& doc) {
  doc.add_section("One axis at a time", "axes");
  std::vector<std::size_t> metrics = p.objectives;
  if (metrics.empty()) {
    for (std::size_t m = 0; m < p.names.size(); ++m) metrics.push_back(m);
  }
  doc.add_paragraph("Each table changes one axis (zipped axes together) from its first value and keeps the others: "
                    "matched points are feasible points whose only difference from a feasible point at the first "
                    "value is this axis; each figure is the mean over them, beside the first value's over the same.");
  const auto effects = axis_effects(p.sweep, p.run, metrics);
  for (std::size_t g = 0; g < effects.size(); ++g) {
    const AxisEffect& e = effects[g];
    std::vector<TableColumn> columns{{e.axis}, {"matched points", Align::kRight}};
    for (std::size_t m : metrics) {
      columns.push_back({p.names[m], Align::kRight});
      columns.push_back({"change in " + p.names[m], Align::kRight});
    }
    TextTable table(columns, fmt::format("Changing {} alone (against {})", e.axis, e.rows.front().value));
    for (std::size_t v = 0; v < e.rows.size(); ++v) {
      const AxisChange& r = e.rows[v];
      std::vector<std::string> row{r.value, page_number(static_cast<double>(r.pairs))};
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        row.push_back(r.at_value[m] ? page_number(*r.at_value[m]) : "-");
        row.push_back(v == 0 ? "reference" : change(r.at_value[m], r.at_reference[m]));
      }
      table.add_row(row);
    }
    doc.add_table(table, fmt::format("axis-{}", g));
  }
}

void not_run(const Page& p, HtmlDocument& doc) {
  TextTable table({{"point", Align::kRight}, {"axes"}, {"status"}, {"reason"}}, "Points without figures");
  for (std::size_t i = 0; i < p.run.points.size(); ++i) {
    const PointResult& r = p.run.results[i];
    if (r.status == PointStatus::kOk) continue;
    std::string axes = point_label(p, i);
    axes = axes.substr(axes.find(':') + 2);
    table.add_row({fmt::format("{}", i), axes, r.status == PointStatus::kInfeasible ? "infeasible" : "failed", r.reason});
  }
  if (table.rows() == 0) return;
  doc.add_section("Infeasible and failed points", "not-run");
  doc.add_table(table, "not-run");
}

}  // namespace

std::string sweep_html(const SweepFile& sweep, const SweepRun& run, const std::string& command_line) {
  Page p{sweep, run, command_line, sweep_metrics(sweep.studies), {}, sweep_front(sweep, run), {}};
  for (const PointResult& r : run.results) p.summaries.push_back(summarize(r, p.names.size()));
  for (const SweepObjective& o : sweep.objectives) {
    p.objectives.push_back(static_cast<std::size_t>(std::find(p.names.begin(), p.names.end(), o.metric) - p.names.begin()));
  }
  HtmlDocument doc(fmt::format("sweep: {}", sweep.file), command_line);
  summary(p, doc);
  front_section(p, doc);
  axis_section(p, doc);
  not_run(p, doc);
  doc.add_footnote("Means over the seeds of each point; 95% confidence intervals of the mean by Student's t.");
  return doc.render();
}

}  // namespace ct
