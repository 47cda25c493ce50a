#include "report/spof_report.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "report/break_report.h"
#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {
namespace {

std::string label(const Failure& f) { return to_string(f.kind) + " " + f.name; }

TextTable ranking_table(const SpofReport& r) {
  TextTable t({{"#", Align::kRight}, {"element"}, {"layer"}, {"cost (apps lost x time lost)"}, {"longest", Align::kRight}, {"data"},
               {"apps down", Align::kLeft, 80}},
              "Single elements ranked by what their failure costs");
  int rank = 0;
  for (const auto& c : r.ranked) {
    if (!c.spof()) continue;
    t.add_row({std::to_string(++rank), label(c.element), layer_of(c.element.kind), spof_cost(c.apps_lost, c.apps_for_ever, c.app_seconds),
               c.apps_for_ever > 0 ? "never ends" : duration_text(c.longest_s), c.data_lost ? "LOST" : "-", fmt::format("{}", fmt::join(c.apps, ", "))});
  }
  return t;
}

std::string layers_text(const SpofReport& r) {
  std::string out = "Single points of failure left, per layer:\n";
  for (const auto& l : r.layers) {
    if (!l.modelled) {
      out += fmt::format("  {}: not modelled ({})\n", l.layer, l.why_not);
    } else if (l.spofs.empty()) {
      out += fmt::format("  {}: none ({} element(s))\n", l.layer, l.elements);
    } else {
      out += fmt::format("  {}:\n", l.layer);
      for (const auto& s : l.spofs) out += "    - " + s + "\n";
    }
  }
  return out;
}

TextTable pairs_table(const SpofReport& r) {
  TextTable t({{"first"}, {"second"}, {"cost (apps lost x time lost)"}, {"apps down only with both", Align::kLeft, 80}},
              fmt::format("Double failures of the top elements ({} pair(s) tried) that down an app neither downs alone", r.pairs_tried));
  for (const auto& p : r.pairs) {
    t.add_row({label(p.a), label(p.b), spof_cost(p.apps_lost, p.apps_for_ever, p.app_seconds), fmt::format("{}", fmt::join(p.new_apps, ", "))});
  }
  return t;
}

std::set<std::string> spof_labels(const SpofReport& r) {
  std::set<std::string> s;
  for (const auto& c : r.ranked) {
    if (c.spof()) s.insert(label(c.element));
  }
  for (const auto& l : r.layers) {
    if (l.layer == "Gateway replica" || l.layer == "app pods" || l.layer == "volume") s.insert(l.spofs.begin(), l.spofs.end());
  }
  return s;
}

double app_seconds(const SpofReport& r) {
  double sum = 0;
  for (const auto& c : r.ranked) sum += c.app_seconds;
  return sum;
}

int for_ever(const SpofReport& r) {
  int n = 0;
  for (const auto& c : r.ranked) n += c.apps_for_ever;
  return n;
}

TextTable compare_table(const SpofReport& a, const SpofReport& b) {
  TextTable t({{"SPOF"}, {"this design"}, {"--compare design"}}, "What the change buys (SPOF elements and structural SPOFs)");
  const auto x = spof_labels(a), y = spof_labels(b);
  std::set<std::string> all(x.begin(), x.end());
  all.insert(y.begin(), y.end());
  for (const auto& s : all) t.add_row({s, x.contains(s) ? "yes" : "-", y.contains(s) ? "yes" : "-"});
  return t;
}

std::string compare_line(const SpofReport& a, const SpofReport& b) {
  return fmt::format("Compare: {} SPOF element(s) -> {}; apps down for ever summed over the elements {} -> {}; app-seconds summed {:g} -> {:g}\n",
                     a.spof_count(), b.spof_count(), for_ever(a), for_ever(b), app_seconds(a), app_seconds(b));
}

}  // namespace

std::string spof_text(const SpofReport& r, const SpofReport* compare) {
  std::string out = fmt::format("SPOF: {} element(s) removed one at a time; {} request(s) of {} app(s) traced at each change\n\n", r.ranked.size(),
                                r.requests, r.apps_total);
  out += r.spof_count() == 0 ? "No single element downs an app.\n\n" : ranking_table(r).render() + "\n";
  out += layers_text(r) + "\n";
  if (r.pairs_tried > 0) out += r.pairs.empty() ? fmt::format("Pairs: {} tried; none downs an app that neither downs alone\n\n", r.pairs_tried) : pairs_table(r).render() + "\n";
  if (compare != nullptr) out += compare_table(r, *compare).render() + "\n" + compare_line(r, *compare);
  out += fmt::format("Total: {} single point(s) of failure among {} element(s)\n", r.spof_count(), r.ranked.size());
  return out;
}

namespace {

nlohmann::json report_json(const SpofReport& r) {
  nlohmann::json j;
  j["ranked"] = nlohmann::json::array();
  for (const auto& c : r.ranked) {
    j["ranked"].push_back({{"kind", to_string(c.element.kind)}, {"name", c.element.name}, {"layer", layer_of(c.element.kind)}, {"spof", c.spof()},
                           {"apps_lost", c.apps_lost}, {"apps_for_ever", c.apps_for_ever}, {"app_seconds", c.app_seconds},
                           {"longest_s", c.longest_s}, {"data_lost", c.data_lost}, {"apps", c.apps}});
  }
  j["layers"] = nlohmann::json::array();
  for (const auto& l : r.layers) {
    j["layers"].push_back({{"layer", l.layer}, {"elements", l.elements}, {"modelled", l.modelled}, {"why_not", l.why_not}, {"spofs", l.spofs}});
  }
  j["pairs"] = nlohmann::json::array();
  for (const auto& p : r.pairs) {
    j["pairs"].push_back({{"first", label(p.a)}, {"second", label(p.b)}, {"apps_lost", p.apps_lost}, {"apps_for_ever", p.apps_for_ever},
                          {"app_seconds", p.app_seconds}, {"new_apps", p.new_apps}});
  }
  j["summary"] = {{"elements", r.ranked.size()}, {"spofs", r.spof_count()}, {"apps", r.apps_total}, {"requests", r.requests}, {"pairs_tried", r.pairs_tried}};
  return j;
}

}  // namespace

std::string spof_json(const SpofReport& r, const SpofReport* compare) {
  nlohmann::json j = report_json(r);
  if (compare != nullptr) j["compare"] = report_json(*compare);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string spof_html(const SpofReport& r, const SpofReport* compare, const std::string& command_line) {
  HtmlDocument doc("spof", command_line);
  doc.add_section("Summary", "summary");
  doc.add_facts("summary", {{"elements removed one at a time", page_number(static_cast<double>(r.ranked.size()))},
                            {"single points of failure", page_number(r.spof_count())},
                            {"apps", page_number(r.apps_total)},
                            {"requests traced at each change", page_number(static_cast<double>(r.requests))}});
  doc.add_section("Ranking", "ranking");
  if (r.spof_count() == 0) {
    doc.add_paragraph("No single element downs an app.");
  } else {
    // Two charts, one unit each: the apps an element downs for ever (no app-seconds to show), then
    // the app-seconds of the finite outages.
    BarChart ever, seconds;
    ever.frame = PlotFrame{"apps-for-ever", "Apps down for ever per element", "element", "apps down for ever", command_line};
    ever.series.push_back(BarSeries{"apps down for ever", {}, 0});
    seconds.frame = PlotFrame{"app-seconds", "App-seconds lost per element (the finite outages)", "element", "app-seconds (apps lost x time lost)",
                              command_line};
    seconds.series.push_back(BarSeries{"app-seconds", {}, 5});
    for (const auto& c : r.ranked) {
      if (c.apps_for_ever > 0) {
        ever.categories.push_back(label(c.element));
        ever.series.back().values.push_back(c.apps_for_ever);
      }
      if (c.app_seconds > 0) {
        seconds.categories.push_back(label(c.element));
        seconds.series.back().values.push_back(c.app_seconds);
      }
    }
    if (!ever.categories.empty()) doc.add_figure(render_bar_chart(ever));
    if (!seconds.categories.empty()) doc.add_figure(render_bar_chart(seconds));
    doc.add_table(ranking_table(r), "ranking");
  }
  doc.add_section("Per layer", "layers");
  TextTable layers({{"layer"}, {"elements", Align::kRight}, {"single points of failure", Align::kLeft, 100}});
  for (const auto& l : r.layers) {
    layers.add_row({l.layer, page_number(l.elements), !l.modelled ? "not modelled (" + l.why_not + ")" : l.spofs.empty() ? "none" : fmt::format("{}", fmt::join(l.spofs, "; "))});
  }
  doc.add_table(layers, "layers");
  if (r.pairs_tried > 0) {
    doc.add_section("Pairs", "pairs");
    if (r.pairs.empty()) {
      doc.add_paragraph(fmt::format("{} pair(s) of the top elements tried: none downs an app that neither downs alone.", r.pairs_tried));
    } else {
      doc.add_table(pairs_table(r), "pairs");
    }
  }
  if (compare != nullptr) {
    doc.add_section("Compare", "compare");
    doc.add_paragraph(compare_line(r, *compare));
    doc.add_table(compare_table(r, *compare), "compare");
  }
  doc.add_section("Text report", "text");
  doc.add_preformatted(spof_text(r, compare));
  return doc.render();
}

}  // namespace ct
