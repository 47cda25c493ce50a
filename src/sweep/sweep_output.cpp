#include "sweep/sweep_output.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sweep/pareto.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

const char* status_name(PointStatus s) {
  switch (s) {
    case PointStatus::kOk: return "ok";
    case PointStatus::kInfeasible: return "infeasible";
    case PointStatus::kFailed: return "failed";
  }
  return "failed";
}

// RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string number(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; }

Json json_number(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

Json axes_json(const SweepFile& sweep, const SweepPoint& p) {
  Json axes = Json::object();
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) axes[sweep.axes[a].path] = sweep.axes[a].values[p.value[a]].yaml;
  return axes;
}

}  // namespace

double student_t_975(std::size_t df) {
  static constexpr double kT[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) return NAN;
  return df <= 30 ? kT[df - 1] : 1.96;
}

std::vector<MetricSummary> summarize(const PointResult& result, std::size_t metrics) {
  if (result.status != PointStatus::kOk || result.rows.empty()) return {};
  std::vector<MetricSummary> out(metrics);
  const auto n = static_cast<double>(result.rows.size());
  for (std::size_t m = 0; m < metrics; ++m) {
    bool all = true;
    for (const SweepRow& r : result.rows) all = all && r.metrics[m].has_value();
    if (!all) continue;
    // Summed as offsets from the first seed's value: equal values give that value and a zero spread
    // exactly, not a rounding residue.
    const double first = *result.rows.front().metrics[m];
    double offsets = 0;
    for (const SweepRow& r : result.rows) offsets += *r.metrics[m] - first;
    const double mean = first + offsets / n;
    double squares = 0;
    for (const SweepRow& r : result.rows) squares += (*r.metrics[m] - mean) * (*r.metrics[m] - mean);
    out[m].mean = mean;
    out[m].sd = result.rows.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
    if (result.rows.size() > 1) out[m].ci95 = student_t_975(result.rows.size() - 1) * *out[m].sd / std::sqrt(n);
  }
  return out;
}

std::vector<std::size_t> sweep_front(const SweepFile& sweep, const SweepRun& run) {
  if (sweep.objectives.empty()) return {};
  const auto names = sweep_metrics(sweep.studies);
  std::vector<std::vector<double>> values;
  for (const PointResult& r : run.results) {
    const auto s = summarize(r, names.size());
    std::vector<double> v;
    for (const SweepObjective& o : sweep.objectives) {
      const auto m = static_cast<std::size_t>(std::find(names.begin(), names.end(), o.metric) - names.begin());
      const std::optional<double> mean = s.empty() ? std::nullopt : s[m].mean;
      v.push_back(!mean ? NAN : o.goal == Goal::kMinimize ? *mean : -*mean);
    }
    values.push_back(std::move(v));
  }
  return pareto_front(values);
}

std::vector<AxisEffect> axis_effects(const SweepFile& sweep, const SweepRun& run, const std::vector<std::size_t>& metrics) {
  const std::size_t n_metrics = sweep_metrics(sweep.studies).size();
  std::vector<std::vector<MetricSummary>> summaries;
  for (const PointResult& r : run.results) summaries.push_back(summarize(r, n_metrics));
  std::vector<AxisEffect> out;
  for (const auto& group : sweep_axis_groups(sweep)) {
    const std::size_t lead = group.front();
    // A point's place on the other axes: its values with the group's left out.
    const auto others = [&](const SweepPoint& p) {
      std::vector<std::size_t> key = p.value;
      for (std::size_t a : group) key[a] = std::numeric_limits<std::size_t>::max();
      return key;
    };
    std::map<std::vector<std::size_t>, std::size_t> reference;
    for (std::size_t i = 0; i < run.points.size(); ++i) {
      if (run.results[i].status == PointStatus::kOk && run.points[i].value[lead] == 0) reference[others(run.points[i])] = i;
    }
    AxisEffect e;
    std::vector<std::vector<double>> sum_value, sum_reference, counted;
    for (std::size_t v = 0; v < sweep.axes[lead].values.size(); ++v) {
      AxisChange row;
      for (std::size_t a : group) {
        if (v == 0) e.axis += (e.axis.empty() ? "" : " + ") + sweep.axes[a].path;
        row.value += (row.value.empty() ? "" : " + ") + sweep.axes[a].values[v].yaml;
      }
      e.rows.push_back(std::move(row));
      sum_value.emplace_back(metrics.size(), 0.0);
      sum_reference.emplace_back(metrics.size(), 0.0);
      counted.emplace_back(metrics.size(), 0.0);
    }
    for (std::size_t i = 0; i < run.points.size(); ++i) {
      const auto ref = reference.find(others(run.points[i]));
      if (run.results[i].status != PointStatus::kOk || ref == reference.end()) continue;
      const std::size_t v = run.points[i].value[lead];
      ++e.rows[v].pairs;
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        const auto& at = summaries[i][metrics[m]].mean;
        const auto& base = summaries[ref->second][metrics[m]].mean;
        if (!at || !base) continue;
        sum_value[v][m] += *at;
        sum_reference[v][m] += *base;
        counted[v][m] += 1;
      }
    }
    for (std::size_t v = 0; v < e.rows.size(); ++v) {
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        const bool any = counted[v][m] > 0;
        e.rows[v].at_value.push_back(any ? std::optional<double>(sum_value[v][m] / counted[v][m]) : std::nullopt);
        e.rows[v].at_reference.push_back(any ? std::optional<double>(sum_reference[v][m] / counted[v][m]) : std::nullopt);
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string sweep_rows_csv(const SweepFile& sweep, const SweepRun& run) {
  const auto names = sweep_metrics(sweep.studies);
  std::string out = "point";
  for (const SweepAxis& a : sweep.axes) out += "," + csv_cell(a.path);
  out += ",seed,status,reason";
  for (const std::string& n : names) out += "," + n;
  out += "\n";
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const PointResult& r = run.results[i];
    for (std::size_t s = 0; s < sweep.seeds.size(); ++s) {
      out += std::to_string(i);
      for (std::size_t a = 0; a < sweep.axes.size(); ++a) out += "," + csv_cell(sweep.axes[a].values[run.points[i].value[a]].yaml);
      out += fmt::format(",{},{},{}", sweep.seeds[s], status_name(r.status), csv_cell(r.reason));
      for (std::size_t m = 0; m < names.size(); ++m) out += "," + (r.rows.empty() ? "" : number(r.rows[s].metrics[m]));
      out += "\n";
    }
  }
  return out;
}

std::string sweep_rows_jsonl(const SweepFile& sweep, const SweepRun& run) {
  const auto names = sweep_metrics(sweep.studies);
  std::string out;
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const PointResult& r = run.results[i];
    for (std::size_t s = 0; s < sweep.seeds.size(); ++s) {
      Json row;
      row["point"] = i;
      row["axes"] = axes_json(sweep, run.points[i]);
      row["seed"] = sweep.seeds[s];
      row["status"] = status_name(r.status);
      if (!r.reason.empty()) row["reason"] = r.reason;
      for (std::size_t m = 0; m < names.size(); ++m) row[names[m]] = r.rows.empty() ? Json() : json_number(r.rows[s].metrics[m]);
      out += row.dump() + "\n";
    }
  }
  return out;
}

std::string sweep_report_json(const SweepFile& sweep, const SweepRun& run) {
  const auto names = sweep_metrics(sweep.studies);
  const auto front = sweep_front(sweep, run);
  Json j;
  j["sweep"] = sweep.file;
  j["base"] = sweep.base_path;
  j["seeds"] = sweep.seeds;
  j["interval"] = "95% confidence interval of the mean over seeds, Student's t";
  Json objectives = Json::array();
  for (const SweepObjective& o : sweep.objectives) objectives.push_back({{"metric", o.metric}, {"goal", o.goal == Goal::kMinimize ? "min" : "max"}});
  j["objectives"] = objectives;
  Json points = Json::array();
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const PointResult& r = run.results[i];
    Json p;
    p["point"] = i;
    p["axes"] = axes_json(sweep, run.points[i]);
    p["status"] = status_name(r.status);
    if (!r.reason.empty()) p["reason"] = r.reason;
    p["on_front"] = std::find(front.begin(), front.end(), i) != front.end();
    const auto s = summarize(r, names.size());
    Json metrics = Json::object();
    for (std::size_t m = 0; m < s.size(); ++m) {
      metrics[names[m]] = {{"mean", json_number(s[m].mean)}, {"sd", json_number(s[m].sd)}, {"ci95", json_number(s[m].ci95)}};
    }
    if (!s.empty()) p["metrics"] = metrics;
    points.push_back(std::move(p));
  }
  j["points"] = points;
  j["front"] = front;
  return j.dump(2) + "\n";
}

std::string sweep_report_text(const SweepFile& sweep, const SweepRun& run) {
  const auto names = sweep_metrics(sweep.studies);
  const auto front = sweep_front(sweep, run);
  std::size_t width = 18;  // the metrics' column: the longest name
  for (const std::string& n : names) width = std::max(width, n.size());
  std::string out = fmt::format("sweep {}: {} points x {} seeds over {}\n", sweep.file, run.points.size(),
                                sweep.seeds.size(), sweep.base_path);
  out += "means over seeds, +- the 95% confidence interval (Student's t); * on the Pareto front\n\n";
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const PointResult& r = run.results[i];
    const bool on = std::find(front.begin(), front.end(), i) != front.end();
    out += fmt::format("{}point {}:", on ? "* " : "  ", i);
    for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
      out += fmt::format(" {}={}", sweep.axes[a].path, sweep.axes[a].values[run.points[i].value[a]].yaml);
    }
    out += "\n";
    if (r.status != PointStatus::kOk) {
      out += fmt::format("    {}: {}\n", status_name(r.status), r.reason);
      continue;
    }
    const auto s = summarize(r, names.size());
    for (std::size_t m = 0; m < names.size(); ++m) {
      if (!s[m].mean) {
        const bool catalog = names[m] == "power_w" || names[m] == "cost_usd";
        out += fmt::format("    {:<{}} {}\n", names[m], width, catalog ? "(no catalog figure)" : "(none: the run gives no figure)");
      } else {
        out += fmt::format("    {:<{}} {:.6g}{}\n", names[m], width, *s[m].mean, s[m].ci95 ? fmt::format(" +- {:.3g}", *s[m].ci95) : "");
      }
    }
  }
  if (!sweep.objectives.empty()) {
    out += "\nPareto front over";
    for (const SweepObjective& o : sweep.objectives) out += fmt::format(" {} ({})", o.metric, o.goal == Goal::kMinimize ? "min" : "max");
    out += ": points";
    for (std::size_t i : front) out += fmt::format(" {}", i);
    out += front.empty() ? " none\n" : "\n";
  }
  return out;
}

}  // namespace ct
