#include "report/ib_html.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/ib_report.h"

namespace ct {
namespace {


PlotFrame frame(std::string id, std::string title, std::string x, std::string y, const std::string& command_line) {
  return PlotFrame{std::move(id), std::move(title), std::move(x), std::move(y), command_line};
}

std::vector<std::pair<std::string, std::string>> facts(const IbRoutedFabric& r) {
  std::vector<std::pair<std::string, std::string>> out{
      {"pairs checked", page_number(static_cast<double>(r.reach.pairs))},
      {"pairs delivered", page_number(static_cast<double>(r.reach.pairs - r.reach.unreachable))},
      {"pairs unreachable", page_number(static_cast<double>(r.reach.unreachable))},
      {"credit loop", r.loops.ok() ? "none" : "found"},
      {"shift permutations: worst max link load", page_number(static_cast<double>(r.shift.worst_max_load))},
      {"shift permutations: mean max link load", page_number(r.shift.mean_max_load)},
      {"random permutations: worst max link load", page_number(static_cast<double>(r.random.worst_max_load))},
      {"random permutations: mean max link load", page_number(r.random.mean_max_load)}};
  for (const RankBalance& b : r.balance) {
    out.emplace_back(fmt::format("rank {} uplinks: destinations min / mean / max", b.rank),
                     fmt::format("{} / {} / {}", page_number(b.min), page_number(b.mean), page_number(b.max)));
  }
  return out;
}

void balance_series(const IbRoutedFabric& r, const std::string& suffix, std::uint32_t lo, std::uint32_t width,
                    Histogram& chart) {
  for (const RankBalance& b : r.balance) {
    if (b.destinations.empty()) continue;
    HistogramSeries s{fmt::format("rank {}{}", b.rank, suffix), {}};
    const std::uint32_t hi = *std::max_element(b.destinations.begin(), b.destinations.end());
    const std::uint32_t first = (*std::min_element(b.destinations.begin(), b.destinations.end()) - lo) / width;
    const std::uint32_t last = (hi - lo) / width;
    std::vector<double> count(last - first + 1, 0.0);
    for (const std::uint32_t d : b.destinations) count[(d - lo) / width - first] += 1;
    for (std::uint32_t k = first; k <= last; ++k) {
      if (count[k - first] == 0) continue;
      s.bins.push_back(HistogramBin{static_cast<double>(lo + k * width), static_cast<double>(lo + (k + 1) * width),
                                    count[k - first]});
    }
    chart.series.push_back(std::move(s));
  }
}

void plots(const IbRouteStudy& s, const std::string& command_line, HtmlDocument& doc) {
  std::vector<std::pair<const IbRoutedFabric*, std::string>> fabrics{{&s.healthy, ""}};
  if (s.degraded) fabrics.emplace_back(&*s.degraded, " after failures");
  // One binning for every series: integer bins, widened to at most kBalanceBins over the range.
  std::uint32_t lo = UINT32_MAX;
  std::uint32_t hi = 0;
  for (const auto& [r, suffix] : fabrics) {
    for (const RankBalance& b : r->balance) {
      for (const std::uint32_t d : b.destinations) lo = std::min(lo, d), hi = std::max(hi, d);
    }
  }
  doc.add_section("Uplink balance", "balance");
  if (lo <= hi) {
    const std::uint32_t width = std::max<std::uint32_t>(1, (hi - lo + kBalanceBins) / kBalanceBins);
    Histogram chart;
    chart.frame = frame("uplink-balance", "CA destinations routed over each uplink", "destination LIDs on the uplink",
                        "uplinks", command_line);
    for (const auto& [r, suffix] : fabrics) balance_series(*r, suffix, lo, width, chart);
    doc.add_figure(render_histogram(chart));
  } else {
    doc.add_paragraph("No switch has an uplink (a single rank): nothing to balance.");
  }
  doc.add_section("Hops", "hops");
  BarChart hops;
  hops.frame = frame("switch-hops", "Delivered pairs by the switches they cross", "switches crossed",
                     "(source port, destination LID) pairs", command_line);
  std::size_t top = 0;
  for (const auto& [r, suffix] : fabrics) top = std::max(top, r->reach.switch_hops.size());
  for (std::size_t h = 1; h < top; ++h) hops.categories.push_back(fmt::format("{}", h));
  for (const auto& [r, suffix] : fabrics) {
    BarSeries series{suffix.empty() ? "healthy" : "after failures", {}};
    for (std::size_t h = 1; h < top; ++h) {
      series.values.push_back(h < r->reach.switch_hops.size() ? static_cast<double>(r->reach.switch_hops[h]) : 0.0);
    }
    hops.series.push_back(std::move(series));
  }
  if (!hops.categories.empty()) doc.add_figure(render_bar_chart(hops));
}

}  // namespace

std::string ib_route_html(const IbRouteStudy& study, const std::string& command_line) {
  HtmlDocument doc(fmt::format("ib route: {}", study.origin), command_line);
  doc.add_section("Routing", "routing");
  std::string subnet = ib_subnet_line(study.healthy.fabric, study.origin);
  if (!subnet.empty() && subnet.back() == '\n') subnet.pop_back();
  doc.add_paragraph(fmt::format("{}; {}", subnet, study.source));
  doc.add_facts("routing", facts(study.healthy), "healthy fabric");
  if (study.failed_cables) {
    doc.add_paragraph(fmt::format("{} cable(s) removed, {} left{}", study.removed, study.cables_left,
                                  study.same_lfts ? "; the same LFTs, before any rerouting" : "; rerouted"));
    if (study.degraded) doc.add_facts("degraded", facts(*study.degraded), "after failures");
    for (const Diagnostic& d : study.degraded_errors) doc.add_paragraph("after failures: " + d.message);
  }
  plots(study, command_line, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(ib_route_report(study));
  return doc.render();
}

}  // namespace ct
