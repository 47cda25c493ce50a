#include "report/reliability_report.h"

#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/table.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

// Three significant digits, plain notation down to 0.001, then scientific: "0.0648", "7.91e-06".
std::string sig(double v) {
  if (v == 0) return "0";
  if (std::abs(v) < 1e-3) return fmt::format("{:.2e}", v);
  return fmt::format("{:.3g}", v);
}
std::string fixed(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }
std::string plus_minus(const Estimate& e, int digits) {
  return fmt::format("{:.{}f} ± {:.{}f}", e.mean, digits, 1.96 * e.std_error, digits);
}

// 35.2 h, 3.1 days, 1.2 years.
std::string duration_text(double hours) {
  if (!std::isfinite(hours)) return "never";
  if (hours < 48) return fmt::format("{:.3g} h", hours);
  if (hours < 2 * kHoursPerYear) return fmt::format("{:.3g} days", hours / 24);
  return fmt::format("{:.3g} years", hours / kHoursPerYear);
}

std::string horizon_text(double hours) {
  const double days = hours / 24;
  return std::abs(days - std::round(days)) < 1e-9 ? fmt::format("{} days", std::llround(days))
                                                  : fmt::format("{:.3g} h", hours);
}

double links_down(const DesignReliability& d) {
  double n = 0;
  for (std::size_t c = 0; c < d.model.classes.size(); ++c) {
    if (d.model.classes[c].element == FailureElement::kLink && d.model.classes[c].modelled()) {
      n += d.steady[c].expected_down;
    }
  }
  return n;
}

long long count_of(const DesignReliability& d, bool links) {
  long long n = 0;
  for (const auto& c : d.model.classes) {
    const bool is_link = c.element == FailureElement::kLink;
    const bool is_switch = c.element != FailureElement::kLink && c.element != FailureElement::kNic;
    if (links ? is_link : is_switch) n += c.count;
  }
  return n;
}

long long unmodelled_count(const DesignReliability& d) {
  long long n = 0;
  for (const auto& c : d.model.classes) n += c.modelled() ? 0 : c.count;
  return n;
}

std::string header(const ReliabilityStudy& s) {
  const ReliabilityModel& m = s.design.model;
  const JobPolicy& j = m.job;
  std::string out = fmt::format("Reliability of {}: {} hosts, {} GPUs, {} plane{}, {} tiers (backend network)\n",
                                s.name, count_text(m.hosts), count_text(m.gpus), m.planes, m.planes == 1 ? "" : "s",
                                m.tiers);
  out += fmt::format("Job: {} GPUs on {} hosts; horizon {}; checkpoint every {} h; restart {} min; comm fraction {};\n",
                     count_text(m.job_gpus), count_text(m.job_hosts), horizon_text(j.horizon_hours),
                     sig(j.checkpoint_hours), sig(j.restart_hours * 60), sig(j.comm_fraction));
  out += fmt::format("     spare hosts {}; a GPU short of planes: {}; traffic over paths: {}\n", count_text(m.spare_hosts),
                     to_string(j.degraded), to_string(m.split));
  out += "Model: independent elements, exponential up and repair times (docs/models/reliability.md).\n";
  return out;
}

std::string steady_table(const DesignReliability& d) {
  const double h = d.model.job.horizon_hours;
  TextTable t({{"element"},
               {"count", Align::kRight},
               {"per year", Align::kRight},
               {"MTTR h", Align::kRight},
               {"P(down)", Align::kRight},
               {"E[down]", Align::kRight},
               {"P(>=1 down)", Align::kRight},
               {"P(0/1/2/3+ down)", Align::kRight},
               {"failures/" + horizon_text(h), Align::kRight},
               {"reach job", Align::kRight},
               {"slowdown", Align::kRight},
               {"source"}},
              "steady state, closed form (binomial over independent elements)");
  for (std::size_t c = 0; c < d.model.classes.size(); ++c) {
    const ElementClass& e = d.model.classes[c];
    if (!e.modelled()) continue;
    const ClassSteadyState& s = d.steady[c];
    const std::string pk = fmt::format("{:.3f}/{:.3f}/{:.3f}/{:.3f}", s.p_k_down[0], s.p_k_down[1], s.p_k_down[2],
                                       s.p_k_down[3]);
    t.add_row({e.name, count_text(e.count), sig(*e.per_hour * kHoursPerYear), sig(*e.mttr_hours), sig(s.p_down),
               sig(s.expected_down), sig(s.p_any_down), pk, sig(s.expected_failures), count_text(e.touching_job),
               e.tier >= 2 ? fmt::format("{:.4f}", e.slowdown) : "-", e.source});
  }
  const FabricSteadyState& f = d.fabric;
  t.add_row({"all elements (total)", count_text(f.elements), "-", "-", "-", sig(f.expected_down), sig(f.p_any_down),
             "-", sig(f.expected_failures), "-", "-", "1 - prod (1 - p)^n"});
  std::string out = t.render();
  out += fmt::format("total: at a given moment P(at least one element down) = {} and E[elements down] = {}: a fabric "
                     "this size is {}.\n",
                     sig(f.p_any_down), sig(f.expected_down),
                     f.p_any_down > 0.5 ? "more often degraded than whole" : "whole more often than not");
  for (const std::string& line : d.model.unmodelled) out += "not modelled: " + line + "\n";
  return out;
}

std::string job_size_table(const DesignReliability& d) {
  const double h = d.model.job.horizon_hours;
  TextTable t({{"job GPUs", Align::kRight},
               {"failures reaching it/" + horizon_text(h), Align::kRight},
               {"mean time between", Align::kRight},
               {"of which stop it", Align::kRight}},
              "failures reaching a job of N GPUs (first hosts in order; closed form, rate x horizon)");
  for (const JobSizeRow& r : d.job_sizes) {
    t.add_row({count_text(r.gpus), sig(r.touch_per_hour * h), duration_text(1.0 / r.touch_per_hour),
               sig(r.expected_interruptions)});
  }
  return t.render();
}

std::string job_table(const ReliabilityStudy& s) {
  const DesignReliability& d = s.design;
  const MonteCarloSummary& mc = d.mc;
  const JobClosedForm& cf = d.closed;
  const double h = d.model.job.horizon_hours;
  TextTable t({{"quantity"}, {"closed form", Align::kRight}, {"Monte Carlo (95% CI)", Align::kRight}},
              fmt::format("the job over {}: closed form and Monte Carlo ({} trials, seed {})", horizon_text(h),
                          count_text(mc.trials), mc.seed));
  t.add_row({"links down at mid-horizon", sig(links_down(d)), plus_minus(mc.links_down_at_mid, 3)});
  t.add_row({"interruptions (job stops)", sig(cf.expected_interruptions), plus_minus(mc.interruptions, 3)});
  t.add_row({"degradations", sig(cf.expected_degradations), ""});
  t.add_row({"goodput lost, hours", fixed(cf.expected_lost_hours, 2), plus_minus(mc.lost_hours, 2)});
  t.add_row({"  restarting", "", plus_minus(mc.restart_hours, 2)});
  t.add_row({"  waiting for a repair", "", plus_minus(mc.blocked_hours, 2)});
  t.add_row({"  work redone since a checkpoint", "", plus_minus(mc.rework_hours, 2)});
  t.add_row({"  running degraded (loss)", "", plus_minus(mc.degraded_loss_hours, 2)});
  t.add_row({"goodput lost, % of the horizon", fixed(100 * cf.expected_lost_hours / h, 3) + "%",
             fixed(100 * mc.lost_hours.mean / h, 3) + "%"});
  t.add_row({"hours lost: p50 / p90 / p99 / max", "",
             fmt::format("{:.2f} / {:.2f} / {:.2f} / {:.2f}", mc.lost_p50, mc.lost_p90, mc.lost_p99, mc.lost_max)});
  std::vector<std::string> shares;
  for (double share : mc.interruption_share) shares.push_back(fmt::format("{:.0f}%", 100 * share));
  t.add_row({"trials with 0/1/2/3/4/5+ interruptions", "", fmt::format("{}", fmt::join(shares, " "))});
  return t.render() + "Closed form: first order (overlapping failures and spare contention neglected).\n";
}

// Why a row of the plane comparison reads as it does, from its model: one plane makes every NIC-leaf
// link and leaf failure a stop; under static ECMP a bundle of c parallel cables that loses one runs
// its flows at c / (c - 1) pace (docs/models/reliability.md, "The slowdown of an upper element").
std::string row_note(const DesignReliability& d) {
  std::vector<std::string> notes;
  if (d.planes == 1) notes.emplace_back("one plane: a NIC-leaf link or leaf down stops the job");
  const ElementClass* worst = nullptr;
  for (const ElementClass& c : d.model.classes) {
    if (!c.modelled() || c.tier < 2 || c.touching_job == 0 || c.element == FailureElement::kNic) continue;
    if (std::isinf(c.slowdown)) {
      notes.push_back(fmt::format("a {} down partitions the job", c.name));
    } else if (c.slowdown > 1 && (worst == nullptr || c.slowdown > worst->slowdown)) {
      worst = &c;
    }
  }
  if (worst != nullptr && worst->element == FailureElement::kLink && worst->bundle >= 2 &&
      d.model.split == PathSplit::kEcmp) {
    notes.push_back(fmt::format("{}-cable {} bundles: one cable down, flows at {}/{} pace (static ECMP)", worst->bundle,
                                worst->tier == 2 ? "leaf-spine" : "spine-core", worst->bundle, worst->bundle - 1));
  } else if (worst != nullptr) {
    notes.push_back(fmt::format("{} down: collective x{:.3g}", worst->name, worst->slowdown));
  }
  return fmt::format("{}", fmt::join(notes, "; "));
}

std::string planes_table(const ReliabilityStudy& s) {
  const double h = s.design.model.job.horizon_hours;
  TextTable t({{"planes", Align::kRight},
               {"tiers", Align::kRight},
               {"links", Align::kRight},
               {"switches", Align::kRight},
               {"E[links down]", Align::kRight},
               {"interruptions", Align::kRight},
               {"degradations", Align::kRight},
               {"goodput lost h (95% CI)", Align::kRight},
               {"lost %", Align::kRight},
               {"note"}},
              fmt::format("the same cluster and job with 1, 2 and 4 planes, over {} (same trials)", horizon_text(h)));
  for (const DesignReliability& d : s.planes) {
    if (!d.feasible()) {
      t.add_row({std::to_string(d.planes), "-", "-", "-", "-", "-", "-", "-", "-", "not feasible: " + d.infeasible});
      continue;
    }
    const bool same = d.planes == s.design.planes && d.tiers == s.design.tiers;
    std::string note = same ? "<- this design" : "";
    if (const std::string why = row_note(d); !why.empty()) note += (note.empty() ? "" : "; ") + why;
    if (const long long n = unmodelled_count(d); n > 0) {
      note += fmt::format("{}{} elements not modelled (no rate)", note.empty() ? "" : "; ", count_text(n));
    }
    t.add_row({std::to_string(d.planes), std::to_string(d.tiers), count_text(count_of(d, true)),
               count_text(count_of(d, false)), sig(links_down(d)), plus_minus(d.mc.interruptions, 2),
               sig(d.closed.expected_degradations), plus_minus(d.mc.lost_hours, 2),
               fixed(100 * d.mc.lost_hours.mean / h, 3) + "%", note});
  }
  return t.render();
}

Json estimate_json(const Estimate& e) {
  return Json{{"mean", e.mean}, {"std_error", e.std_error}, {"ci95_low", e.low()}, {"ci95_high", e.high()}};
}

Json design_json(const DesignReliability& d) {
  Json j;
  j["planes"] = d.planes;
  j["tiers"] = d.tiers;
  if (!d.feasible()) {
    j["infeasible"] = d.infeasible;
    return j;
  }
  const ReliabilityModel& m = d.model;
  j["hosts"] = m.hosts;
  j["gpus"] = m.gpus;
  Json classes = Json::array();
  for (std::size_t c = 0; c < m.classes.size(); ++c) {
    const ElementClass& e = m.classes[c];
    Json row{{"element", to_string(e.element)}, {"tier", e.tier}, {"name", e.name}, {"count", e.count}};
    row["media"] = e.media ? Json(to_string(*e.media)) : Json(nullptr);
    row["per_hour"] = e.per_hour ? Json(*e.per_hour) : Json(nullptr);
    row["mttr_hours"] = e.mttr_hours ? Json(*e.mttr_hours) : Json(nullptr);
    row["source"] = e.source;
    row["reaches_job"] = e.touching_job;
    row["slowdown"] = e.slowdown;
    if (e.modelled()) {
      const ClassSteadyState& s = d.steady[c];
      row["steady_state"] = Json{{"p_down", s.p_down},
                                 {"expected_down", s.expected_down},
                                 {"p_any_down", s.p_any_down},
                                 {"p_k_down", s.p_k_down},
                                 {"expected_failures", s.expected_failures}};
      const ClassEstimate& mc = d.mc.classes[c];
      row["monte_carlo"] = Json{{"failures", estimate_json(mc.failures)},
                                {"down_at_mid", estimate_json(mc.down_at_mid)},
                                {"any_down_at_mid", estimate_json(mc.any_down_at_mid)}};
    }
    classes.push_back(std::move(row));
  }
  j["classes"] = std::move(classes);
  j["not_modelled"] = m.unmodelled;
  j["expected_links_down"] = links_down(d);
  j["fabric_steady_state"] = Json{{"elements", d.fabric.elements},
                                  {"p_any_down", d.fabric.p_any_down},
                                  {"expected_down", d.fabric.expected_down},
                                  {"expected_failures", d.fabric.expected_failures}};
  j["note"] = row_note(d);
  const JobClosedForm& cf = d.closed;
  j["closed_form"] = Json{{"touch_per_hour", cf.touch_per_hour},
                          {"stop_per_hour", cf.stop_per_hour},
                          {"degrade_per_hour", cf.degrade_per_hour},
                          {"expected_interruptions", cf.expected_interruptions},
                          {"expected_degradations", cf.expected_degradations},
                          {"expected_drains", cf.expected_drains},
                          {"expected_lost_hours", cf.expected_lost_hours}};
  const MonteCarloSummary& mc = d.mc;
  j["monte_carlo"] = Json{{"trials", mc.trials},
                          {"seed", mc.seed},
                          {"links_down_at_mid", estimate_json(mc.links_down_at_mid)},
                          {"interruptions", estimate_json(mc.interruptions)},
                          {"lost_hours", estimate_json(mc.lost_hours)},
                          {"restart_hours", estimate_json(mc.restart_hours)},
                          {"blocked_hours", estimate_json(mc.blocked_hours)},
                          {"rework_hours", estimate_json(mc.rework_hours)},
                          {"degraded_hours", estimate_json(mc.degraded_hours)},
                          {"degraded_loss_hours", estimate_json(mc.degraded_loss_hours)},
                          {"lost_hours_percentiles", Json{{"p50", mc.lost_p50}, {"p90", mc.lost_p90},
                                                          {"p99", mc.lost_p99}, {"max", mc.lost_max}}},
                          {"interruption_share", mc.interruption_share}};
  if (!d.job_sizes.empty()) {
    Json sizes = Json::array();
    for (const JobSizeRow& r : d.job_sizes) {
      sizes.push_back(Json{{"gpus", r.gpus},
                           {"touch_per_hour", r.touch_per_hour},
                           {"stop_per_hour", r.stop_per_hour},
                           {"expected_interruptions", r.expected_interruptions}});
    }
    j["job_sizes"] = std::move(sizes);
  }
  return j;
}

}  // namespace

std::string to_text(const ReliabilityStudy& s) {
  std::string out = header(s) + "\n";
  out += steady_table(s.design) + "\n";
  out += job_size_table(s.design) + "\n";
  out += job_table(s) + "\n";
  out += planes_table(s);
  return out;
}

std::string to_json(const ReliabilityStudy& s) {
  const JobPolicy& job = s.design.model.job;
  Json j;
  j["name"] = s.name;
  j["job"] = Json{{"gpus", s.design.model.job_gpus},
                  {"hosts", s.design.model.job_hosts},
                  {"horizon_hours", job.horizon_hours},
                  {"checkpoint_hours", job.checkpoint_hours},
                  {"restart_hours", job.restart_hours},
                  {"comm_fraction", job.comm_fraction},
                  {"spare_hosts", job.spare_hosts},
                  {"degraded", to_string(job.degraded)},
                  {"split", to_string(s.design.model.split)}};
  j["design"] = design_json(s.design);
  Json planes = Json::array();
  for (const DesignReliability& d : s.planes) planes.push_back(design_json(d));
  j["planes"] = std::move(planes);
  return j.dump(2) + "\n";
}

}  // namespace ct
