#include "report/simulate_html.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"

namespace ct {
namespace {

constexpr double kMsPerSecond = 1e3;
constexpr double kGB = 1e9;
constexpr std::size_t kMarkedPoints = 8;  // a CDF of at most this many points shows each as a marker

double ms(TimePs t) { return to_seconds(t) * kMsPerSecond; }

PlotFrame frame(std::string id, std::string title, std::string x, std::string y, const std::string& command_line) {
  return PlotFrame{std::move(id), std::move(title), std::move(x), std::move(y), command_line};
}

bool whole(const OperationResult& op) {
  return op.complete && op.steps >= op.total_steps && op.kind != OperationKind::kMice;
}

// Flows by index: "2: 0, 5" (the first ten, then "..."), "none".
std::string page_flows(const std::vector<std::uint32_t>& flows) {
  if (flows.empty()) return "none";
  std::string out = fmt::format("{}:", flows.size());
  for (std::size_t k = 0; k < std::min<std::size_t>(flows.size(), 10); ++k) out += fmt::format("{}{}", k == 0 ? " " : ", ", flows[k]);
  return flows.size() > 10 ? out + ", ..." : out;
}

// The engine's own work and, for a packet run, what only it measures (the text report's packet
// section, sim/simulation_result.h PacketRunInfo): flow control summed over ports, marks, drops,
// reordering, a deadlock.
std::vector<std::pair<std::string, std::string>> engine_facts(const SimulationResult& r) {
  const PacketRunInfo& p = r.packet;
  if (!p.ran) {
    return {{"instants", page_number(static_cast<double>(r.instants))},
            {"re-solves", page_number(static_cast<double>(r.solves))}};
  }
  std::vector<std::pair<std::string, std::string>> facts = {
      {"events", page_number(static_cast<double>(p.events))},
      {"packets delivered", page_number(static_cast<double>(p.packets_delivered))},
      {"packets in flight, at most", page_number(static_cast<double>(p.peak_packets))},
      {"drops", page_number(static_cast<double>(p.drops))}};
  const PortTotals totals = port_totals(r);
  if (p.pfc) {
    facts.emplace_back("PAUSE, summed over ports", page_quantity(to_seconds(totals.pause), "s"));
    facts.emplace_back("XOFF frames", page_number(static_cast<double>(totals.pause_frames)));
  } else {
    facts.emplace_back("credit stall, summed over ports", page_quantity(to_seconds(totals.credit_stall), "s"));
  }
  if (p.dcqcn) {
    facts.emplace_back("ECN marks", page_number(static_cast<double>(totals.ecn_marks)));
    facts.emplace_back("CNPs", page_number(static_cast<double>(p.cnps)));
  }
  if (p.spraying || p.out_of_order > 0) {
    facts.emplace_back("packets delivered out of order", page_number(static_cast<double>(p.out_of_order)));
  }
  const std::size_t loops = p.deadlock_cycles.size();
  facts.emplace_back("deadlock", loops == 0   ? std::string("none")
                                 : loops == 1 ? fmt::format("a credit loop of {} channels", p.deadlock_cycles[0].size())
                                              : fmt::format("{} credit loops", loops));
  if (loops > 0) {
    const DeadlockFlows d = deadlock_flows(r);
    facts.emplace_back("flows in the credit loop (their packets hold the cycle's buffers)", page_flows(d.in_loop));
    facts.emplace_back("flows blocked behind it (waiting upstream of the cycle)", page_flows(d.behind));
    if (!d.faulted.empty()) facts.emplace_back("flows stopped by a fault (their path failed)", page_flows(d.faulted));
  }
  return facts;
}

void summary(const SimulateReportInput& in, HtmlDocument& doc) {
  const SimulationResult& r = in.result;
  doc.add_section("Summary", "summary");
  doc.add_paragraph(in.title);
  for (const std::string& n : r.notes) doc.add_paragraph("note: " + n);
  std::vector<std::pair<std::string, std::string>> facts = {
      {"makespan", r.unbounded ? std::string("unbounded") : page_quantity(to_seconds(r.makespan), "s")},
      {"flows", page_number(static_cast<double>(r.flows.size()))}};
  for (auto& fact : engine_facts(r)) facts.push_back(std::move(fact));
  facts.emplace_back("flows rerouted", page_number(static_cast<double>(r.rerouted_flows)));
  facts.emplace_back("share of workers' time on the network", page_percent(in.workers.network_share));
  facts.emplace_back("share lost to the slowest path", page_percent(in.workers.waiting_share));
  doc.add_facts("summary", facts);
  std::vector<std::pair<std::string, std::string>> ops;
  for (const OperationResult& op : r.operations) {
    const double t = op.complete ? mean_iteration_seconds(op) : -1.0;
    ops.emplace_back(op.name + ": time", t < 0 ? std::string("never finishes") : page_quantity(t, "s"));
    if (whole(op) && t > 0) {
      const double algbw = static_cast<double>(op.bytes.value()) / t;
      ops.emplace_back(op.name + ": busbw", page_quantity(algbw * op.bus_factor, "B/s"));
    }
  }
  doc.add_facts("operations", ops);
}

// A Gantt row per operation that ran, a bar per iteration from its start to its end (one that
// never ended runs to the makespan, outlined dashed).
void timeline(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  Timeline chart;
  chart.frame = frame("timeline", "Operations over time (a bar per iteration)", "time (ms)", "operation", command_line);
  for (const OperationResult& op : in.result.operations) {
    TimelineRow row{op.name, {}};
    for (std::size_t k = 0; k < op.iterations.size(); ++k) {
      const IterationSpan& it = op.iterations[k];
      if (it.start.value() < 0) continue;
      const bool open = it.end.value() < 0;
      row.spans.push_back({ms(it.start), ms(open ? in.result.makespan : it.end), fmt::format("iteration {}", k + 1), open});
    }
    if (!row.spans.empty()) chart.rows.push_back(std::move(row));
  }
  if (!chart.rows.empty()) doc.add_figure(render_timeline(chart));
}

// Completion times of each operation's flows as a CDF (nearest-rank quantiles beyond kCdfPoints).
void completion(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  const SimulationResult& r = in.result;
  LineChart chart;
  chart.frame = frame("completion-cdf", "Flow completion times", "completion time, end - start (ms)",
                      "share of the operation's flows (%)", command_line);
  chart.log_x = true;  // mice finish in microseconds beside collectives of milliseconds
  chart.may_coincide = true;  // operations of one size finish together
  for (const OperationResult& op : r.operations) {
    std::vector<double> fct;
    for (std::uint32_t f = op.flows_begin; f < op.flows_end; ++f) {
      const FlowRecord& rec = r.flows[f];
      if (rec.end.value() >= 0 && rec.start.value() >= 0) fct.push_back(ms(rec.end - rec.start));
    }
    if (fct.empty()) continue;
    std::sort(fct.begin(), fct.end());
    const std::size_t total = op.flows_end - op.flows_begin;
    const std::size_t n = std::min(fct.size(), kCdfPoints);
    // The CDF rises from 0 at the fastest flow: a one-flow operation is a visible step, and so is
    // any operation whose flows all finish at once. Few points get markers too.
    LineSeries s{op.name, {{fct.front(), 0.0}}, true, n <= kMarkedPoints, false};
    for (std::size_t i = 1; i <= n; ++i) {
      const std::size_t rank = (i * fct.size() + n - 1) / n;  // nearest rank of quantile i / n
      s.points.emplace_back(fct[rank - 1], 100.0 * static_cast<double>(rank) / static_cast<double>(total));
    }
    chart.series.push_back(std::move(s));
  }
  if (!chart.series.empty()) doc.add_figure(render_line_chart(chart));
}

void utilization(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  const SimulationResult& r = in.result;
  if (r.series.empty()) return;
  LineChart chart;
  chart.frame = frame("link-utilization", "Utilization of the hottest links", "time (ms)",
                      "load / nominal capacity (%)", command_line);
  chart.may_coincide = true;  // the hottest links are often all pinned at 100 %
  const double bin = ms(r.series_bin);
  for (std::size_t i = 0; i < r.series.size() && i < kSeriesShown; ++i) {
    const LinkSeries& series = r.series[i];
    LineSeries s{resource_name(in.names, r.resources[series.resource]), {}, true, false, false};
    for (std::size_t b = 0; b < series.utilization.size(); ++b) {
      s.points.emplace_back(bin * static_cast<double>(b), 100.0 * series.utilization[b]);
    }
    if (!series.utilization.empty()) {
      s.points.emplace_back(bin * static_cast<double>(series.utilization.size()), 100.0 * series.utilization.back());
    }
    chart.series.push_back(std::move(s));
  }
  if (r.series.size() > kSeriesShown) {
    doc.add_paragraph(fmt::format("The {} hottest of {} links in the series (all in --csv-series).", kSeriesShown,
                                  r.series.size()));
  }
  doc.add_figure(render_line_chart(chart));
}

// A packet run's hottest output queues over time (sim/queue_statistics.h): each bin's time-weighted
// mean, in KiB, as a step line; all of result.queue_series (kHottestQueues at most).
void queues(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  const SimulationResult& r = in.result;
  if (r.queue_series.empty()) return;
  doc.add_paragraph(fmt::format("The {} output queue(s) with the largest time-weighted mean occupancy over the run, "
                                "in bins of {} (the mean per bin; peaks and every bin in --csv-queues).",
                                r.queue_series.size(), fmt::format("{:.3f} us", to_seconds(r.queue_bin) * 1e6)));
  LineChart chart;
  chart.frame = frame("queue-occupancy", "Occupancy of the hottest output queues", "time (ms)",
                      "time-weighted mean queue (KiB)", command_line);
  chart.may_coincide = true;  // queues of an incast's senders often fill alike
  const double bin = ms(r.queue_bin);
  for (const QueueSeries& q : r.queue_series) {
    LineSeries s{resource_name(in.names, r.resources[q.resource]), {}, true, false, false};
    for (std::size_t b = 0; b < q.mean_bytes.size(); ++b) {
      s.points.emplace_back(bin * static_cast<double>(b), q.mean_bytes[b] / 1024);
    }
    s.points.emplace_back(ms(r.makespan), q.mean_bytes.back() / 1024);
    chart.series.push_back(std::move(s));
  }
  doc.add_figure(render_line_chart(chart));
}

// A packet run's deepest output queues (the report's queue table and the JSON's packet.queues:
// the first --top of deepest_queues): their peak and time-weighted mean occupancy in KiB, and the
// time each was stopped with packets to send, by a lack of credits or by PAUSE, in us.
void deepest(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  const SimulationResult& r = in.result;
  if (!r.packet.ran) return;
  std::vector<std::uint32_t> order = deepest_queues(r);
  if (order.size() > in.top_links) order.resize(in.top_links);
  if (order.empty()) return;
  doc.add_paragraph(fmt::format("The {} deepest output queue(s) (peak bytes, then time stopped), as the text's table "
                                "and the JSON's packet.queues give them.",
                                order.size()));
  const bool pfc = r.packet.pfc;
  BarChart depth;
  depth.frame = frame("queue-depth", "The deepest output queues", "port (output queue)", "queue (KiB)", command_line);
  depth.slant_labels = true;
  BarSeries peak{"peak", {}};
  BarSeries mean{"time-weighted mean", {}};
  BarChart stopped;
  stopped.frame = frame("queue-stopped", pfc ? "PAUSE time of the deepest output queues" : "Credit stall of the deepest output queues",
                        "port (output queue)", pfc ? "stopped by PAUSE with packets to send (us)"
                                                   : "stopped for lack of credits with packets to send (us)",
                        command_line);
  stopped.slant_labels = true;
  BarSeries time{pfc ? "PAUSE" : "credit stall", {}};
  for (const std::uint32_t c : order) {
    const ResourceStats& st = r.stats[c];
    const std::string name = resource_name(in.names, r.resources[c]);
    depth.categories.push_back(name);
    stopped.categories.push_back(name);
    peak.values.push_back(static_cast<double>(st.peak_queue_bytes) / 1024);
    mean.values.push_back(st.mean_queue_bytes / 1024);
    time.values.push_back(to_seconds(pfc ? st.pause_time : st.credit_stall) * 1e6);
  }
  depth.series.push_back(std::move(peak));
  depth.series.push_back(std::move(mean));
  doc.add_figure(render_bar_chart(depth));
  // A chart of nothing but zeros draws no mark: a sentence says so instead.
  if (std::all_of(time.values.begin(), time.values.end(), [](double v) { return v <= 0; })) {
    doc.add_paragraph(pfc ? "No port was stopped by PAUSE with packets to send." : "No port waited for credits with packets to send.");
    return;
  }
  stopped.series.push_back(std::move(time));
  doc.add_figure(render_bar_chart(stopped));
}

// A packet run with ECN marking: the ports that marked most (the first --top of marking_ports,
// as the text's and the JSON's marks per port), their marks as bars, one series per priority when
// the run has more than one.
void ecn_marks(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  const SimulationResult& r = in.result;
  if (!r.packet.ran || !r.packet.dcqcn) return;
  std::vector<std::uint32_t> order = marking_ports(r);
  if (order.empty()) {
    doc.add_paragraph("No port marked a packet with ECN (no egress queue reached Kmin).");
    return;
  }
  const std::size_t marked = order.size();
  if (order.size() > in.top_links) order.resize(in.top_links);
  doc.add_paragraph(fmt::format("The {} port(s) that marked most packets with ECN (CE at their egress queue), of {} that "
                                "marked{}.",
                                order.size(), marked, r.packet.vls > 1 ? ", per priority" : ""));
  BarChart chart;
  chart.frame = frame("ecn-marks", "ECN marks per port", "port (egress)", "packets marked", command_line);
  chart.slant_labels = true;
  const std::uint32_t classes = r.packet.vls;
  std::vector<BarSeries> series;
  if (classes > 1) {
    for (std::uint32_t k = 0; k < classes; ++k) series.push_back({fmt::format("priority {}", k), {}});
  } else {
    series.push_back({"ECN marks", {}});
  }
  for (const std::uint32_t c : order) {
    chart.categories.push_back(resource_name(in.names, r.resources[c]));
    if (classes == 1) {
      series.front().values.push_back(static_cast<double>(r.stats[c].ecn_marks));
      continue;
    }
    for (std::uint32_t k = 0; k < classes; ++k) series[k].values.push_back(static_cast<double>(ecn_marks_of_class(r, c, k)));
  }
  for (BarSeries& s : series) chart.series.push_back(std::move(s));
  doc.add_figure(render_bar_chart(chart));
}

void busbw(const SimulateReportInput& in, const std::string& command_line, HtmlDocument& doc) {
  BarChart chart;
  chart.frame = frame("busbw", "Bus bandwidth against the bound without collisions", "collective", "busbw (GB/s)",
                      command_line);
  BarSeries simulated{"simulated", {}};
  BarSeries bound{"bound (no collisions)", {}};
  for (const OperationResult& op : in.result.operations) {
    const double t = mean_iteration_seconds(op);
    if (op.kind != OperationKind::kCollective || !whole(op) || t <= 0 || op.bound.value() <= 0) continue;
    chart.categories.push_back(op.name);
    const double bytes = static_cast<double>(op.bytes.value());
    simulated.values.push_back(bytes / t * op.bus_factor / kGB);
    bound.values.push_back(bytes / to_seconds(op.bound) * op.bus_factor / kGB);
  }
  if (chart.categories.empty()) {
    doc.add_paragraph("No collective ran to completion: no bus bandwidth to show.");
    return;
  }
  chart.series.push_back(std::move(simulated));
  chart.series.push_back(std::move(bound));
  doc.add_figure(render_bar_chart(chart));
}

}  // namespace

std::string simulate_html(const SimulateReportInput& in, const std::string& command_line) {
  HtmlDocument doc(fmt::format("simulate: {}", in.title), command_line);
  summary(in, doc);
  doc.add_section("Timeline", "timeline");
  timeline(in, command_line, doc);
  completion(in, command_line, doc);
  doc.add_section("Links", "links");
  utilization(in, command_line, doc);
  if (in.result.packet.ran) doc.add_section("Queues", "queues");
  queues(in, command_line, doc);
  deepest(in, command_line, doc);
  ecn_marks(in, command_line, doc);
  doc.add_section("Bus bandwidth", "busbw");
  busbw(in, command_line, doc);
  doc.add_section("Text report", "text");
  doc.add_preformatted(simulate_text(in));
  return doc.render();
}

}  // namespace ct
