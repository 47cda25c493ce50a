#include "report/traffic_html.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/connection_report.h"
#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {
namespace {

std::string count(std::size_t n) { return page_number(static_cast<double>(n)); }
// A probability as shown: a float sum that lands a hair below zero is zero (never "-0").
std::string probability(double p) { return page_number(std::max(p, 0.0)); }
std::string bytes_count(double b) { return count_text(static_cast<long long>(b)) + " B"; }
double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

PlotFrame frame(std::string id, std::string title, std::string x, std::string y, const std::string& command_line) {
  return PlotFrame{std::move(id), std::move(title), std::move(x), std::move(y), command_line};
}

// 10^k bytes as (number, unit): (100, "kB") for k = 5.
std::pair<int, const char*> si(int k) {
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"};
  int n = 1;
  for (int i = 0; i < k % 3; ++i) n *= 10;
  return {n, kUnits[k / 3]};
}

// A size decade under its bars: "0-10 B", "1-10 kB", "100 kB-1 MB".
std::string decade_label(int k) {
  const auto [hi, hi_unit] = si(k + 1);
  if (k == 0) return fmt::format("0-{} {}", hi, hi_unit);
  const auto [lo, lo_unit] = si(k);
  if (hi_unit == lo_unit) return fmt::format("{}-{} {}", lo, hi, hi_unit);
  return fmt::format("{} {}-{} {}", lo, lo_unit, hi, hi_unit);
}

void summary(const TrafficSummary& s, const TrafficOptions& o, const std::string& source, HtmlDocument& doc) {
  doc.add_section("Summary", "summary");
  doc.add_paragraph(fmt::format("Connections read from {}.", source));
  const std::size_t mice = s.connections - s.elephants - s.bytes_unknown;
  doc.add_facts("summary", {{"connections", count(s.connections)},
                            {"connections without byte accounting", count(s.bytes_unknown)},
                            {"bytes in total", bytes_count(s.total_bytes)},
                            {"elephant threshold", bytes_count(static_cast<double>(o.elephant_bytes))},
                            {"mice", count(mice)},
                            {"elephants", count(s.elephants)},
                            {"bytes in elephants", bytes_count(s.elephant_bytes)},
                            {"elephants' share of the bytes", page_percent(percent(s.elephant_bytes, s.total_bytes) / 100)},
                            {"top connection's share of the bytes", page_percent(s.top1_share)},
                            {"top 10's share of the bytes", page_percent(s.top10_share)}});
}

void sizes(const TrafficSummary& s, const TrafficOptions& o, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("Connection sizes", "sizes");
  if (s.sizes.empty()) {
    doc.add_paragraph("No connection has byte accounting: there is no size distribution to show.");
    return;
  }
  doc.add_paragraph(fmt::format("Mice are the connections below {} (both directions), elephants those at or above it. "
                                "ECMP places connections, not bytes: the many mice spread over the members, the few "
                                "elephants decide how busy the busiest member is.",
                                bytes_text(static_cast<double>(o.elephant_bytes))));
  BarChart histogram;
  histogram.frame = frame("size-histogram", "Connections by size", "connection size (bytes, both directions)",
                          "connections", command_line);
  BarSeries mice{"mice", {}};
  BarSeries elephants{"elephants", {}};
  // The size axis in the smallest unit (B, kB, MB, ...) whose largest tick is at most 10^4 ("10,000"
  // fits at the axis's end): MB up to 10^10 bytes.
  const int top_decade = s.sizes.back().decade + 1;
  const int unit_exponent = std::max(0, 3 * ((top_decade - 4 + 2) / 3));
  double unit = 1;
  for (int i = 0; i < unit_exponent; ++i) unit *= 10;
  LineChart cdf;
  cdf.frame = frame("size-cdf", "Cumulative share of connections and of bytes by size",
                    fmt::format("connection size up to ({}, log scale)", si(unit_exponent).second), "share (%)",
                    command_line);
  cdf.log_x = true;
  LineSeries connections{"connections", {}, false, true, false};
  LineSeries bytes{"bytes", {}, false, true, false};
  const double known = static_cast<double>(s.connections - s.bytes_unknown);
  double count = 0, sum = 0;
  for (const SizeDecade& d : s.sizes) {
    histogram.categories.push_back(decade_label(d.decade));
    mice.values.push_back(static_cast<double>(d.mice));
    elephants.values.push_back(static_cast<double>(d.elephants));
    count += static_cast<double>(d.mice + d.elephants);
    sum += d.bytes;
    const double edge = static_cast<double>(d.to_bytes) / unit;
    connections.points.emplace_back(edge, percent(count, known));
    bytes.points.emplace_back(edge, percent(sum, s.total_bytes));
  }
  histogram.series.push_back(std::move(mice));
  histogram.series.push_back(std::move(elephants));
  doc.add_figure(render_bar_chart(histogram));
  cdf.series.push_back(std::move(connections));
  cdf.series.push_back(std::move(bytes));
  const double threshold = static_cast<double>(o.elephant_bytes);
  cdf.series.push_back(LineSeries{fmt::format("elephant threshold ({})", bytes_text(threshold)),
                                  {{threshold / unit, 0.0}, {threshold / unit, 100.0}}, false, false, true});
  doc.add_figure(render_line_chart(cdf));
}

void top(const TrafficSummary& s, const TrafficOptions& o, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("Largest connections", "top");
  if (s.top.empty()) {
    doc.add_paragraph("No connection has byte accounting.");
    return;
  }
  if (s.total_bytes > 0) {
    doc.add_paragraph("Bar #1 is the largest connection, #2 the next, in the order of the table below.");
    BarChart shares;
    shares.frame = frame("top-shares", "Share of all bytes in the largest connections", "connection, by bytes",
                         "share of all bytes (%)", command_line);
    BarSeries each{"each", {}};
    BarSeries cumulative{"cumulative", {}};
    double sum = 0;
    for (std::size_t i = 0; i < s.top.size(); ++i) {
      const double b = static_cast<double>(s.top[i].bytes);
      sum += b;
      shares.categories.push_back(fmt::format("#{}", i + 1));
      each.values.push_back(percent(b, s.total_bytes));
      cumulative.values.push_back(percent(sum, s.total_bytes));
    }
    shares.series.push_back(std::move(each));
    shares.series.push_back(std::move(cumulative));
    doc.add_figure(render_bar_chart(shares));
  }
  doc.add_table(traffic_top_table(s, o), "top");
}

void ecmp(const TrafficSummary& s, const TrafficOptions& o, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("What it means for ECMP", "ecmp");
  if (s.width == 0) {
    doc.add_paragraph("Fabric width unknown: give the SPEC or --width.");
    return;
  }
  const double per_member = static_cast<double>(s.elephants) / s.width;
  std::vector<std::pair<std::string, std::string>> facts{
      {"members of a leaf up group", count(s.width)},
      {"connections per member", page_number(s.connections_per_member)},
      {"elephants", count(s.elephants)},
      {"elephants per member, mean", page_number(per_member)}};
  if (s.elephant_collision >= 0) facts.emplace_back("P(any two elephants on one member)", probability(s.elephant_collision));
  if (s.elephant_max_load >= 0) facts.emplace_back("elephants on the busiest member, expected", page_number(s.elephant_max_load));
  doc.add_facts("ecmp", facts);
  doc.add_paragraph(fmt::format("The many mice spread over the {} members but carry few of the bytes; each elephant "
                                "takes one member, whose bandwidth it shares with any other elephant hashed there.",
                                s.width));
  if (!s.collision_curve.empty()) {
    LineChart curve;
    curve.frame = frame("collision-curve",
                        fmt::format("P(two elephants share a member) on {} members", s.width),
                        fmt::format("elephants (connections of at least {})", bytes_text(static_cast<double>(o.elephant_bytes))),
                        "P(any collision) (%)", command_line);
    LineSeries birthday{fmt::format("k independent elephants on {} members", s.width), {}, false, true, false};
    for (std::size_t k = 0; k < s.collision_curve.size(); ++k) {
      birthday.points.emplace_back(static_cast<double>(k + 1), 100.0 * std::max(s.collision_curve[k], 0.0));
    }
    curve.series.push_back(std::move(birthday));
    if (s.elephant_collision >= 0) {
      LineSeries host{fmt::format("this host: {} elephant{}", s.elephants, s.elephants == 1 ? "" : "s"),
                      {{static_cast<double>(s.elephants), 100.0 * std::max(s.elephant_collision, 0.0)}}, false, true, false};
      host.highlight = true;  // on the curve's own point: drawn larger, outlined, above it
      curve.series.push_back(std::move(host));
    }
    doc.add_figure(render_line_chart(curve));
  }
  if (s.elephant_max_load >= 0) {
    BarChart load;
    load.frame = frame("elephant-load", "Elephants per member of the leaf up group", "member", "elephants",
                       command_line);
    load.categories = {"mean per member", "busiest member (expected)"};
    load.series.push_back(BarSeries{"elephants", {per_member, s.elephant_max_load}});
    load.references.push_back(ReferenceLine{1.0, "one elephant: the member's full bandwidth"});
    doc.add_figure(render_bar_chart(load));
  }
}

void nic(const TrafficSummary& s, const std::string& command_line, HtmlDocument& doc) {
  if (s.netdev_bps < 0 && s.rdma_bps < 0) return;
  doc.add_section("NIC counters", "nic");
  doc.add_paragraph("What the hosts' NICs sent: netdev counts what went through the kernel's sockets (the tables "
                    "above), RDMA what the NIC moved past the kernel, which no socket table or conntrack entry shows.");
  const auto rate = [](double bps) { return bps < 0 ? std::string("none") : page_quantity(bps, "b/s"); };
  doc.add_facts("nic", {{"netdev", rate(s.netdev_bps)}, {"RDMA", rate(s.rdma_bps)}});
  const UnitScale scale = unit_scale(std::max(s.netdev_bps, s.rdma_bps), "b/s");
  BarChart bars;
  bars.frame = frame("nic-rates", "Transmit rate of the hosts' NICs", "counter", scale.unit, command_line);
  BarSeries series{"transmit", {}};
  if (s.netdev_bps >= 0) bars.categories.emplace_back("netdev (sockets)"), series.values.push_back(s.netdev_bps / scale.divisor);
  if (s.rdma_bps >= 0) bars.categories.emplace_back("RDMA (past the kernel)"), series.values.push_back(s.rdma_bps / scale.divisor);
  bars.series.push_back(std::move(series));
  doc.add_figure(render_bar_chart(bars));
}

}  // namespace

std::string traffic_html(const TrafficSummary& s, const TrafficOptions& o, const std::string& source,
                         const std::string& command_line) {
  HtmlDocument doc(fmt::format("traffic: {}", source), command_line);
  summary(s, o, source, doc);
  sizes(s, o, command_line, doc);
  top(s, o, command_line, doc);
  ecmp(s, o, command_line, doc);
  nic(s, command_line, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(to_text(s, o));
  return doc.render();
}

}  // namespace ct
