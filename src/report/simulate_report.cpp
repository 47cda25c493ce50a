#include "report/simulate_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <numeric>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "report/table.h"

namespace ct {

std::string human_time(TimePs t) {
  const double s = to_seconds(t);
  if (t.value() < 0) return "never";
  const bool seconds = s >= 1;
  const bool ms = !seconds && s >= 1e-3;
  std::string out = fixed(seconds ? s : ms ? s * 1e3 : s * 1e6, 3);  // fmt's "{:.3f}"
  out += seconds ? " s" : ms ? " ms" : " us";
  return out;
}

namespace {

using Json = nlohmann::ordered_json;

constexpr double kGB = 1e9;

// Seconds with 12 decimals, exact to the picosecond (the flow table reads them back exactly).
void append_exact_seconds(std::string& out, TimePs t) {
  const std::int64_t ps = t.value();
  std::array<char, 48> text{};
  char* const end = fmt::format_to(text.data(), FMT_COMPILE("{}{}.{:012}"), ps < 0 ? "-" : "", std::abs(ps) / 1'000'000'000'000,
                                   std::abs(ps) % 1'000'000'000'000);
  out.append(text.data(), end);
}

std::string percent(double x) { return fmt::format("{:.1f} %", 100 * x); }

// A constraint's nominal capacity in bits/s, as a double for the figures below.
double bps(const ResourceInfo& c) { return static_cast<double>(c.capacity.value()); }

double mean_time(const OperationResult& op) { return mean_iteration_seconds(op); }

double algbw(const OperationResult& op) {
  const double t = mean_time(op);
  return t > 0 ? static_cast<double>(op.bytes.value()) / t : 0.0;
}

bool partial(const OperationResult& op) { return op.steps < op.total_steps; }

struct MiceFigures {
  double p50 = 0, p99 = 0, mean = 0, max = 0;  // seconds
  double ideal = 0;                            // seconds, alone at the NIC's speed
  std::size_t done = 0;
};

double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
}

MiceFigures mice_figures(const SimulateReportInput& in, const OperationResult& op) {
  const SimulationResult& r = in.result;
  std::vector<double> fct;
  double nic = 0;
  for (std::uint32_t f = op.flows_begin; f < op.flows_end; ++f) {
    const FlowRecord& rec = r.flows[f];
    if (nic == 0 && rec.src_port.valid()) nic = static_cast<double>(in.topology.capacity[rec.src_port.value()].value());
    if (rec.end.value() >= 0) fct.push_back(to_seconds(rec.end - rec.start));
  }
  std::sort(fct.begin(), fct.end());
  MiceFigures m;
  m.done = fct.size();
  if (fct.empty()) return m;
  m.p50 = quantile(fct, 0.5);
  m.p99 = quantile(fct, 0.99);
  m.max = fct.back();
  m.mean = std::accumulate(fct.begin(), fct.end(), 0.0) / static_cast<double>(fct.size());
  m.ideal = nic > 0 ? static_cast<double>(op.bytes.value()) * 8 / nic : 0;
  return m;
}

double mean_util(const SimulationResult& r, std::uint32_t c) {
  const double span = to_seconds(r.makespan);
  return span > 0 ? r.stats[c].carried_bits / (bps(r.resources[c]) * span) : 0.0;
}
double peak_util(const SimulationResult& r, std::uint32_t c) {
  return std::min(1.0, r.stats[c].peak_bps / bps(r.resources[c]));
}

std::string operation_kind(OperationKind k) {
  switch (k) {
    case OperationKind::kCollective: return "collective";
    case OperationKind::kTransfer: return "transfer";
    case OperationKind::kMice: return "mice";
  }
  return "";
}

// GPUs an operation involves: a collective's ranks; for transfers, the distinct GPUs at their
// ends (0 for port-to-port transfers, shown as "-").
std::uint32_t gpus_of(const SimulationResult& r, const OperationResult& op) {
  if (op.kind == OperationKind::kCollective) return op.ranks;
  std::vector<std::uint32_t> gpus;
  for (std::uint32_t f = op.flows_begin; f < op.flows_end; ++f) {
    for (const std::uint32_t g : {r.flows[f].src_gpu, r.flows[f].dst_gpu}) {
      if (g != kNoGpu) gpus.push_back(g);
    }
  }
  std::sort(gpus.begin(), gpus.end());
  return static_cast<std::uint32_t>(std::unique(gpus.begin(), gpus.end()) - gpus.begin());
}

std::string endpoint(const Topology& t, std::uint32_t gpu, VertexId port) {
  if (port.valid()) return t.vertex_name(port);
  if (gpu == kNoGpu) return "";
  const auto g = static_cast<std::uint32_t>(std::max(t.gpus_per_host, 1));
  return fmt::format("host{}/gpu{}", gpu / g, gpu % g);
}

void text_operations(const SimulateReportInput& in, std::string& out) {
  const SimulationResult& r = in.result;
  TextTable ops({{"operation"}, {"what"}, {"groups", Align::kRight}, {"GPUs", Align::kRight},
                 {"bytes", Align::kRight}, {"iter", Align::kRight}, {"time", Align::kRight},
                 {"algbw GB/s", Align::kRight}, {"busbw GB/s", Align::kRight}},
                "Operations (time: mean iteration, first start to last completion)");
  std::vector<const OperationResult*> mice;
  for (const OperationResult& op : r.operations) {
    if (op.kind == OperationKind::kMice) {
      mice.push_back(&op);
      continue;
    }
    const double t = op.complete ? mean_time(op) : -1.0;
    const bool whole = !partial(op) && op.complete;
    // Built in place and moved in: a large run has a row per transfer.
    std::vector<std::string> row;
    row.reserve(9);
    row.push_back(op.name);
    row.push_back(partial(op) ? op.what + fmt::format(" ({}/{} steps)", op.steps, op.total_steps) : op.what);
    row.push_back(fmt::format_int(op.instances).str());
    const std::size_t gpus = gpus_of(r, op);
    row.push_back(gpus == 0 ? "-" : fmt::format_int(gpus).str());
    row.push_back(fmt::format_int(op.bytes.value()).str());
    row.push_back(fmt::format_int(op.iterations.size()).str());
    row.push_back(t < 0 ? "never finishes" : human_time(TimePs(std::llround(t * 1e12))));
    row.push_back(whole ? fixed(algbw(op) / kGB, 2) : "-");
    row.push_back(whole ? fixed(algbw(op) * op.bus_factor / kGB, 2) : "-");
    ops.add_row(std::move(row));
  }
  if (ops.rows() > 0) out += ops.render() + "\n";
  if (mice.empty()) return;
  TextTable m({{"mice"}, {"flows", Align::kRight}, {"bytes", Align::kRight}, {"FCT p50", Align::kRight},
               {"FCT p99", Align::kRight}, {"FCT max", Align::kRight}, {"p99 / alone", Align::kRight}},
              "Mice (flow completion times)");
  for (const OperationResult* op : mice) {
    const MiceFigures f = mice_figures(in, *op);
    m.add_row({op->name, fmt::format("{}/{}", f.done, op->flows_end - op->flows_begin), fmt::format("{}", op->bytes.value()),
               human_time(TimePs(std::llround(f.p50 * 1e12))), human_time(TimePs(std::llround(f.p99 * 1e12))),
               human_time(TimePs(std::llround(f.max * 1e12))),
               f.ideal > 0 ? fmt::format("{:.1f}x", f.p99 / f.ideal) : "-"});
  }
  out += m.render() + "\n";
}

std::size_t unfinished_count(const SimulationResult& r) {
  return static_cast<std::size_t>(
      std::count_if(r.flows.begin(), r.flows.end(), [](const FlowRecord& f) { return f.unfinished != Unfinished::kNo; }));
}

std::string bytes_left(const FlowRecord& f) { return fmt::format("{:.0f}", std::ceil(f.bits_left / 8)); }

// Why flow i did not finish, in words. In a deadlock, a flow whose packets hold buffers of a
// loop's channels is in the credit loop, one whose path failed stalled for that, and any other
// stalled flow is blocked behind the loop.
std::string why_unfinished(const SimulationResult& r, std::uint32_t i) {
  const FlowRecord& f = r.flows[i];
  switch (f.unfinished) {
    case Unfinished::kNo: return "";
    case Unfinished::kStalled:
      if (!r.packet.deadlock_cycles.empty() && !stalled_by_fault(r, i)) {
        return in_credit_loop(r, i) ? "in the credit loop: its packets hold buffers of the cycle (deadlock)"
                                    : "blocked behind the credit loop: its packets wait upstream of the cycle (deadlock)";
      }
      return fmt::format("stalled at {}: its path failed and routing found no other", human_time(f.stalled));
    case Unfinished::kWaiting: {
      for (std::uint32_t a = 0; a < f.after_size; ++a) {
        const std::uint32_t d = r.after_pool[f.after_begin + a];
        if (r.flows[d].unfinished != Unfinished::kNo) return fmt::format("never started: waits for flow {}", d);
      }
      return "never started: waits for a flow that never finishes";
    }
  }
  return "";
}

// The flows that never finished: the first ten, with the bytes they had left and why.
void text_unfinished(const SimulateReportInput& in, std::string& out) {
  const SimulationResult& r = in.result;
  const std::size_t n = unfinished_count(r);
  if (n == 0) return;
  TextTable t({{"flow", Align::kRight}, {"operation"}, {"src"}, {"dst"}, {"bytes left", Align::kRight}, {"why"}},
              n <= 10 ? "Flows that never finish" : fmt::format("Flows that never finish (10 of {}; all in the flows CSV)", n));
  for (std::uint32_t i = 0; i < r.flows.size() && t.rows() < 10; ++i) {
    const FlowRecord& f = r.flows[i];
    if (f.unfinished == Unfinished::kNo) continue;
    t.add_row({fmt::format("{}", i), r.operations[f.operation].name, endpoint(in.topology, f.src_gpu, f.src_port),
               endpoint(in.topology, f.dst_gpu, f.dst_port), bytes_left(f), why_unfinished(r, i)});
  }
  out += t.render() + "\n";
}

void text_workers(const SimulateReportInput& in, std::string& out) {
  const WorkerAccount& w = in.workers;
  if (w.phases.empty()) return;
  TextTable phases({{"phase"}, {"workers", Align::kRight}, {"span", Align::kRight}, {"on the network", Align::kRight},
                    {"lost to slowest path", Align::kRight}},
                   "Workers (per phase: share of the workers' time)");
  for (const PhaseTime& p : w.phases) {
    phases.add_row({p.name, fmt::format("{}", p.workers), human_time(p.span), percent(p.network_share),
                    percent(p.waiting_share)});
  }
  out += phases.render() + "\n";
  // The workers that waited most and least (all of them when few).
  std::vector<std::size_t> order(w.workers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return w.workers[a].waiting > w.workers[b].waiting; });
  std::vector<std::size_t> shown;
  if (order.size() <= 8) {
    shown = order;
  } else {
    shown.assign(order.begin(), order.begin() + 4);
    shown.insert(shown.end(), order.end() - 4, order.end());
  }
  TextTable workers({{"worker"}, {"phase"}, {"compute", Align::kRight}, {"sending", Align::kRight},
                     {"waiting", Align::kRight}},
                    order.size() <= 8 ? "Workers" : fmt::format("Workers (4 that waited most, 4 least, of {})", order.size()));
  for (const std::size_t i : shown) {
    const WorkerTime& t = w.workers[i];
    workers.add_row({t.name, w.phases[t.phase].name, human_time(t.compute), human_time(t.sending), human_time(t.waiting)});
  }
  out += workers.render() + "\n";
}

void text_links(const SimulateReportInput& in, std::string& out) {
  const SimulationResult& r = in.result;
  const std::vector<std::uint32_t> order = busiest_resources(r, in.top_links);
  if (order.empty()) return;
  TextTable links({{"link"}, {"capacity", Align::kRight}, {"mean util", Align::kRight}, {"peak util", Align::kRight},
                   {"saturated", Align::kRight}, {"flows", Align::kRight}},
                  fmt::format("Top bottleneck links (of {} used; ranked by time saturated, then bits carried)", order.size()));
  for (std::size_t k = 0; k < std::min(in.top_links, order.size()); ++k) {
    const std::uint32_t c = order[k];
    links.add_row({resource_name(in.names, r.resources[c]),
                   fmt::format("{:g}G", bps(r.resources[c]) / 1e9), percent(mean_util(r, c)),
                   percent(peak_util(r, c)), human_time(r.stats[c].saturated), fmt::format("{}", r.stats[c].flows)});
  }
  out += links.render() + "\n";
}

Json series_json(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  Json links = Json::array();
  for (const LinkSeries& s : r.series) {
    links.push_back({{"name", resource_name(in.names, r.resources[s.resource])}, {"utilization", s.utilization}});
  }
  return {{"bin_s", to_seconds(r.series_bin)}, {"links", links}};
}

// `s` as a CSV cell appended to `out`: quoted, with its quotes doubled, when it holds a comma or a
// quote.
void append_csv_cell(std::string& out, std::string_view s) {
  bool plain = true;
  for (const char ch : s) plain &= ch != ',' && ch != '"';
  if (plain) {
    out += s;
    return;
  }
  out += '"';
  for (const char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

std::string csv_cell(std::string_view s) {
  std::string cell;
  append_csv_cell(cell, s);
  return cell;
}

}  // namespace

DeadlockFlows deadlock_flows(const SimulationResult& r) {
  DeadlockFlows d;
  for (std::uint32_t i = 0; i < r.flows.size(); ++i) {
    if (r.flows[i].unfinished != Unfinished::kStalled || r.packet.deadlock_cycles.empty()) continue;
    (in_credit_loop(r, i) ? d.in_loop : stalled_by_fault(r, i) ? d.faulted : d.behind).push_back(i);
  }
  return d;
}

std::string credit_loops_text(const NameDirectory& names, const SimulationResult& r, std::string_view indent) {
  const std::vector<std::vector<std::uint32_t>>& loops = r.packet.deadlock_cycles;
  if (loops.empty()) return "";
  if (loops.size() == 1) {
    std::string out = fmt::format("a credit loop of {} channels:", loops[0].size());
    for (const std::uint32_t c : loops[0]) out += fmt::format("\n{}{}", indent, resource_name(names, r.resources[c]));
    return out;
  }
  std::string out = fmt::format("{} credit loops:", loops.size());
  for (std::size_t k = 0; k < loops.size(); ++k) {
    out += fmt::format("\n{}loop {}, {} channels:", indent, k + 1, loops[k].size());
    for (const std::uint32_t c : loops[k]) out += fmt::format("\n{}  {}", indent, resource_name(names, r.resources[c]));
  }
  return out;
}

Json credit_loops_json(const NameDirectory& names, const SimulationResult& r) {
  Json loops = Json::array();
  for (const std::vector<std::uint32_t>& loop : r.packet.deadlock_cycles) {
    Json cycle = Json::array();
    for (const std::uint32_t c : loop) cycle.push_back(resource_name(names, r.resources[c]));
    loops.push_back(std::move(cycle));
  }
  return loops;
}

std::vector<std::uint32_t> marking_ports(const SimulationResult& r) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t c = 0; c < r.resources.size(); ++c) {
    if (r.stats[c].ecn_marks > 0) order.push_back(c);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return r.stats[a].ecn_marks != r.stats[b].ecn_marks ? r.stats[a].ecn_marks > r.stats[b].ecn_marks : a < b;
  });
  return order;
}

std::vector<std::uint32_t> deepest_queues(const SimulationResult& r) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t c = 0; c < r.resources.size(); ++c) {
    const ResourceStats& st = r.stats[c];
    if (st.peak_queue_bytes > 0 || st.credit_stall.value() > 0 || st.pause_time.value() > 0) order.push_back(c);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const ResourceStats& x = r.stats[a];
    const ResourceStats& y = r.stats[b];
    if (x.peak_queue_bytes != y.peak_queue_bytes) return x.peak_queue_bytes > y.peak_queue_bytes;
    if (x.credit_stall != y.credit_stall) return x.credit_stall > y.credit_stall;
    if (x.pause_time != y.pause_time) return x.pause_time > y.pause_time;
    return a < b;
  });
  return order;
}

// Collectives whose time is the hash's rather than theirs (sim/collision_check.h): one line
// each, with the bound a collision-free fabric would give.
void text_collisions(const SimulateReportInput& in, std::string& out) {
  for (const OperationResult& op : in.result.operations) {
    if (!op.collision_dominated) continue;
    const double t = mean_time(op);
    out += fmt::format("{}: dominated by hash collisions: {} per iteration, {:.1f}x its bound {} on a fabric without "
                       "collisions; {} fabric link(s) carried more of one step's flows than any NIC (paths: spray or "
                       "adaptive approach the bound)\n\n",
                       op.name, human_time(TimePs(std::llround(t * 1e12))),
                       t / to_seconds(op.bound), human_time(op.bound), op.collided_links);
  }
}

// ---- what only a packet run has (r.packet.ran) ----

struct FctFigures {
  double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;  // seconds
  std::size_t done = 0;
};

// The completion times (end - start) of the completed flows `keep` accepts (all: every one),
// nearest-rank quantiles.
template <class Keep>
FctFigures fct_figures(const SimulationResult& r, Keep keep) {
  std::vector<double> fct;
  for (const FlowRecord& rec : r.flows) {
    if (rec.end.value() >= 0 && keep(rec)) fct.push_back(to_seconds(rec.end - rec.start));
  }
  std::sort(fct.begin(), fct.end());
  FctFigures f;
  f.done = fct.size();
  if (fct.empty()) return f;
  f.p50 = quantile(fct, 0.5);
  f.p90 = quantile(fct, 0.9);
  f.p99 = quantile(fct, 0.99);
  f.max = fct.back();
  f.mean = std::accumulate(fct.begin(), fct.end(), 0.0) / static_cast<double>(fct.size());
  return f;
}

FctFigures fct_figures(const SimulationResult& r) {
  return fct_figures(r, [](const FlowRecord&) { return true; });
}

// A distribution of flow completion times: per operation (its flows), per traffic class (a VL or
// priority: the flow's channel mod the run's VLs; only with more than one).
struct FctGroup {
  std::string name;
  FctFigures fct;
};

std::vector<FctGroup> fct_by_operation(const SimulationResult& r) {
  std::vector<FctGroup> groups;
  for (std::uint32_t o = 0; o < r.operations.size(); ++o) {
    FctFigures f = fct_figures(r, [&](const FlowRecord& rec) { return rec.operation == o; });
    if (f.done > 0) groups.push_back({r.operations[o].name, f});
  }
  return groups;
}

std::vector<FctGroup> fct_by_class(const SimulationResult& r) {
  std::vector<FctGroup> groups;
  const std::uint32_t vls = r.packet.vls;
  if (vls <= 1) return groups;
  for (std::uint32_t vl = 0; vl < vls; ++vl) {
    FctFigures f = fct_figures(r, [&](const FlowRecord& rec) { return rec.channel % vls == vl; });
    if (f.done > 0) groups.push_back({fmt::format("{} {}", r.packet.pfc ? "priority" : "VL", vl), f});
  }
  return groups;
}

std::string fct_time(double seconds) { return human_time(TimePs(std::llround(seconds * 1e12))); }

// The text table of some distributions: the `top` slowest (p99, then max, then order).
void text_fct_groups(std::vector<FctGroup> groups, const std::string& what, std::size_t top, std::string& out) {
  if (groups.empty()) return;
  const std::size_t total = groups.size();
  std::stable_sort(groups.begin(), groups.end(), [](const FctGroup& a, const FctGroup& b) {
    if (a.fct.p99 != b.fct.p99) return a.fct.p99 > b.fct.p99;
    return a.fct.max > b.fct.max;
  });
  TextTable table({{what}, {"flows", Align::kRight}, {"p50", Align::kRight}, {"p90", Align::kRight},
                   {"p99", Align::kRight}, {"max", Align::kRight}, {"mean", Align::kRight}},
                  total > top ? fmt::format("Flow completion times per {} (the {} slowest by p99 of {}; all in --json)",
                                            what, top, total)
                              : fmt::format("Flow completion times per {}", what));
  for (std::size_t k = 0; k < std::min(top, total); ++k) {
    const FctFigures& f = groups[k].fct;
    table.add_row({groups[k].name, fmt::format("{}", f.done), fct_time(f.p50), fct_time(f.p90), fct_time(f.p99),
                   fct_time(f.max), fct_time(f.mean)});
  }
  out += table.render() + "\n";
}

// The quantiles null when no flow completed (there is no distribution, not one at 0).
Json fct_json(const FctFigures& f) {
  const auto q = [&](double v) { return f.done == 0 ? Json(nullptr) : Json(v); };
  return {{"flows", f.done}, {"p50", q(f.p50)}, {"p90", q(f.p90)}, {"p99", q(f.p99)}, {"max", q(f.max)}, {"mean", q(f.mean)}};
}

Json fct_groups_json(const std::vector<FctGroup>& groups) {
  Json out = Json::array();
  for (const FctGroup& g : groups) {
    Json row = {{"name", g.name}};
    row.update(fct_json(g.fct));
    out.push_back(row);
  }
  return out;
}

// The flows whose receivers sent the most CNPs (DCQCN): CNPs, then index.
std::vector<std::uint32_t> most_notified_flows(const SimulationResult& r, std::size_t top) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t f = 0; f < r.flows.size(); ++f) {
    if (r.flows[f].cnps > 0) order.push_back(f);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return r.flows[a].cnps != r.flows[b].cnps ? r.flows[a].cnps > r.flows[b].cnps : a < b;
  });
  if (order.size() > top) order.resize(top);
  return order;
}

// ECN marks per priority, summed over ports (PacketRunInfo::ecn_marks_by_class).
std::vector<std::int64_t> ecn_marks_by_priority(const SimulationResult& r) {
  std::vector<std::int64_t> sums(r.packet.vls, 0);
  for (std::uint32_t c = 0; c < r.resources.size(); ++c) {
    for (std::uint32_t k = 0; k < r.packet.vls; ++k) sums[k] += ecn_marks_of_class(r, c, k);
  }
  return sums;
}

Json ecn_marks_json(const SimulationResult& r, std::uint32_t c) {
  Json by = Json::array();
  for (std::uint32_t k = 0; k < r.packet.vls; ++k) by.push_back(ecn_marks_of_class(r, c, k));
  return by;
}

// The flows with the most packets delivered out of order: count, then index.
std::vector<std::uint32_t> most_reordered_flows(const SimulationResult& r, std::size_t top) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t f = 0; f < r.flows.size(); ++f) {
    if (r.flows[f].out_of_order > 0) order.push_back(f);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return r.flows[a].out_of_order != r.flows[b].out_of_order ? r.flows[a].out_of_order > r.flows[b].out_of_order : a < b;
  });
  if (order.size() > top) order.resize(top);
  return order;
}

// The receivers' reordering, when the run sprayed or some packet came late (a reroute): the
// packets delivered after a later packet of their flow, and the flow with the most.
void text_reordering(const PacketRunInfo& p, const SimulationResult& r, std::string& out) {
  if (!p.spraying && p.out_of_order == 0) return;
  std::string most;
  if (const std::vector<std::uint32_t> worst = most_reordered_flows(r, 1); !worst.empty()) {
    most = fmt::format("; the most in one flow: {} (flow {})", r.flows[worst.front()].out_of_order, worst.front());
  }
  out += fmt::format("  reordering{}: {} of {} packet(s) delivered arrived after a later packet of their flow{} "
                     "(out_of_order per flow in --csv-flows)\n",
                     p.spraying ? " (spraying)" : "", p.out_of_order, p.packets_delivered, most);
}

// With more than one priority: the marks of each (text), then the ports that marked most, per priority.
void text_ecn_by_priority(const SimulateReportInput& in, std::string& out) {
  const SimulationResult& r = in.result;
  if (!r.packet.dcqcn || r.packet.vls <= 1) return;
  const std::vector<std::uint32_t> order = marking_ports(r);
  if (order.empty()) return;
  std::vector<TableColumn> columns = {{"port (egress)"}, {"ECN marks", Align::kRight}};
  for (std::uint32_t k = 0; k < r.packet.vls; ++k) columns.push_back({fmt::format("priority {}", k), Align::kRight});
  TextTable table(columns, order.size() > in.top_links
                               ? fmt::format("ECN marks per port and priority (the {} that marked most of {})", in.top_links,
                                             order.size())
                               : fmt::format("ECN marks per port and priority ({} port(s) marked)", order.size()));
  for (std::size_t k = 0; k < std::min(in.top_links, order.size()); ++k) {
    const std::uint32_t c = order[k];
    std::vector<std::string> row = {resource_name(in.names, r.resources[c]), fmt::format("{}", r.stats[c].ecn_marks)};
    for (std::uint32_t v = 0; v < r.packet.vls; ++v) row.push_back(fmt::format("{}", ecn_marks_of_class(r, c, v)));
    table.add_row(row);
  }
  out += table.render() + "\n";
}

// The flow-control lines of the section: credits (InfiniBand) or PFC (RoCE v2).
void text_flow_control(const SimulationResult& r, std::string& out) {
  const PacketRunInfo& p = r.packet;
  const PortTotals totals = port_totals(r);
  if (p.pfc) {
    out += fmt::format("Packet engine: MTU {} B, {} priority(ies), switches {} {} with {} B of buffer per port and "
                       "priority (PFC: headroom R (2 d + L) / 8 + 2 MTU per link, XOFF the rest, XON 2 MTU lower)\n",
                       p.mtu, p.vls, human_time(p.switch_latency), p.cut_through ? "cut-through" : "store-and-forward",
                       p.buffer_bytes);
    out += fmt::format("  {} events, at most {} packets in flight; drops {} (lossless class: PFC headroom); PAUSE {} "
                       "summed over ports, {} XOFF frame(s)\n",
                       p.events, p.peak_packets, p.drops, human_time(totals.pause), totals.pause_frames);
    if (p.dcqcn) {
      std::string per_priority;
      if (p.vls > 1) {
        const std::vector<std::int64_t> sums = ecn_marks_by_priority(r);
        for (std::uint32_t k = 0; k < p.vls; ++k) per_priority += fmt::format("{}priority {}: {}", k == 0 ? " (" : ", ", k, sums[k]);
        per_priority += ")";
      }
      out += fmt::format("  ECN (RED at the switches' egress queues: Kmin {} B, Kmax {} B, Pmax {:g}) and DCQCN at the "
                         "senders: {} mark(s) summed over ports{}, {} CNP(s)\n",
                         p.ecn_kmin, p.ecn_kmax, p.ecn_pmax, totals.ecn_marks, per_priority, p.cnps);
    }
    return;
  }
  out += fmt::format("Packet engine: MTU {} B, {} VL(s), switches {} {} with {} B of buffer per port and VL ({} credits "
                     "of 64 B)\n",
                     p.mtu, p.vls, human_time(p.switch_latency), p.cut_through ? "cut-through" : "store-and-forward",
                     p.buffer_bytes, p.buffer_bytes / 64);
  out += fmt::format("  {} events, at most {} packets in flight; drops {} (lossless class: credits admit every packet); "
                     "credit stall {} summed over ports\n",
                     p.events, p.peak_packets, p.drops, human_time(totals.credit_stall));
}

// "3 flow(s): 0, 4, 7" (the first ten, then "..."); "none".
std::string flow_list(const std::vector<std::uint32_t>& flows) {
  if (flows.empty()) return "none";
  std::string out = fmt::format("{} flow(s): ", flows.size());
  for (std::size_t k = 0; k < std::min<std::size_t>(flows.size(), 10); ++k) out += fmt::format("{}{}", k == 0 ? "" : ", ", flows[k]);
  if (flows.size() > 10) out += ", ... (all in --json)";
  return out;
}

void text_packet(const SimulateReportInput& in, std::string& out) {
  const SimulationResult& r = in.result;
  const PacketRunInfo& p = r.packet;
  if (!p.ran) return;
  text_flow_control(r, out);
  const FctFigures f = fct_figures(r);
  if (f.done == 0) {
    out += fmt::format("  flow completion times: none of the {} flows completed\n", r.flows.size());
  } else {
    out += fmt::format("  flow completion times of {} flows: p50 {}, p90 {}, p99 {}, max {}, mean {}\n", f.done,
                       fct_time(f.p50), fct_time(f.p90), fct_time(f.p99), fct_time(f.max), fct_time(f.mean));
  }
  text_reordering(p, r, out);
  if (!p.deadlock_cycles.empty()) {
    out += "  DEADLOCK: " + credit_loops_text(in.names, r, "    ");
    const DeadlockFlows d = deadlock_flows(r);
    out += fmt::format("\n  in the loop (their packets hold the cycle's buffers): {}\n  blocked behind it (waiting upstream of "
                       "the cycle): {}\n",
                       flow_list(d.in_loop), flow_list(d.behind));
    if (!d.faulted.empty()) out += fmt::format("  stopped by a fault (their path failed): {}\n", flow_list(d.faulted));
  }
  out += "\n";
  text_fct_groups(fct_by_operation(r), "operation", in.top_links, out);
  text_fct_groups(fct_by_class(r), p.pfc ? "priority" : "VL", in.top_links, out);
  const std::vector<std::uint32_t> order = deepest_queues(r);
  if (order.empty()) return;
  std::vector<TableColumn> columns = {{"port (output queue)"}, {"peak queue", Align::kRight},
                                            {"mean queue", Align::kRight}, {p.pfc ? "PAUSE" : "credit stall", Align::kRight}};
  if (p.dcqcn) columns.push_back({"ECN marks", Align::kRight});
  TextTable queues(columns, fmt::format("Deepest output queues (of {} that queued; bytes)", order.size()));
  for (std::size_t k = 0; k < std::min(in.top_links, order.size()); ++k) {
    const std::uint32_t c = order[k];
    std::vector<std::string> row = {resource_name(in.names, r.resources[c]), fmt::format("{}", r.stats[c].peak_queue_bytes),
                                    fmt::format("{:.0f}", r.stats[c].mean_queue_bytes),
                                    human_time(p.pfc ? r.stats[c].pause_time : r.stats[c].credit_stall)};
    if (p.dcqcn) row.push_back(fmt::format("{}", r.stats[c].ecn_marks));
    queues.add_row(row);
  }
  out += queues.render() + "\n";
  text_ecn_by_priority(in, out);
}

// The DCQCN object: thresholds, marks and CNPs; the flows whose receivers sent the most CNPs; with
// more than one priority, the marks per priority (a flow's: its channel mod --vls, as PFC pauses
// per priority) summed over ports and of the ports that marked most.
Json dcqcn_json(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  const PacketRunInfo& p = r.packet;
  Json flows = Json::array();
  for (const std::uint32_t k : most_notified_flows(r, in.top_links)) {
    const FlowRecord& rec = r.flows[k];
    flows.push_back({{"flow", k},
                     {"from", endpoint(in.topology, rec.src_gpu, rec.src_port)},
                     {"to", endpoint(in.topology, rec.dst_gpu, rec.dst_port)},
                     {"cnps", rec.cnps}});
  }
  Json out = {{"ecn_kmin_bytes", p.ecn_kmin}, {"ecn_kmax_bytes", p.ecn_kmax}, {"ecn_pmax", p.ecn_pmax},
              {"ecn_marks", port_totals(r).ecn_marks}, {"cnps", p.cnps}, {"most_cnps", flows}};
  // The ports that marked most (the page's chart of marks per port), per priority with more than one.
  Json ports = Json::array();
  const std::vector<std::uint32_t> order = marking_ports(r);
  for (std::size_t k = 0; k < std::min(in.top_links, order.size()); ++k) {
    const std::uint32_t c = order[k];
    ports.push_back({{"name", resource_name(in.names, r.resources[c])}, {"ecn_marks", r.stats[c].ecn_marks}});
    if (p.vls > 1) ports.back()["ecn_marks_by_priority"] = ecn_marks_json(r, c);
  }
  if (p.vls > 1) out["ecn_marks_by_priority"] = ecn_marks_by_priority(r);
  out["most_marks"] = ports;
  return out;
}

Json packet_json(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  const PacketRunInfo& p = r.packet;
  const PortTotals totals = port_totals(r);
  const FctFigures f = fct_figures(r);
  Json queues = Json::array();
  const std::vector<std::uint32_t> order = deepest_queues(r);
  for (std::size_t k = 0; k < std::min(in.top_links, order.size()); ++k) {
    const std::uint32_t c = order[k];
    queues.push_back({{"name", resource_name(in.names, r.resources[c])},
                      {"peak_queue_bytes", r.stats[c].peak_queue_bytes},
                      {"mean_queue_bytes", r.stats[c].mean_queue_bytes},
                      {"credit_stall_s", to_seconds(r.stats[c].credit_stall)}});
    if (p.pfc) {
      queues.back()["pause_s"] = to_seconds(r.stats[c].pause_time);
      queues.back()["pause_frames"] = r.stats[c].pause_frames;
      queues.back()["ecn_marks"] = r.stats[c].ecn_marks;
      if (p.dcqcn && p.vls > 1) queues.back()["ecn_marks_by_priority"] = ecn_marks_json(r, c);
    }
  }
  const Json loops = credit_loops_json(in.names, r);
  const DeadlockFlows stuck = deadlock_flows(r);
  Json reordered = Json::array();
  for (const std::uint32_t k : most_reordered_flows(r, in.top_links)) {
    const FlowRecord& rec = r.flows[k];
    reordered.push_back({{"flow", k},
                         {"from", endpoint(in.topology, rec.src_gpu, rec.src_port)},
                         {"to", endpoint(in.topology, rec.dst_gpu, rec.dst_port)},
                         {"out_of_order", rec.out_of_order}});
  }
  Json out = {{"mtu_bytes", p.mtu},
          {"vls", p.vls},
          {"switch_latency_s", to_seconds(p.switch_latency)},
          {"forwarding", p.cut_through ? "cut-through" : "store-and-forward"},
          {"buffer_bytes_per_vl", p.buffer_bytes},
          {"events", p.events},
          {"packets_delivered", p.packets_delivered},
          {"peak_packets", p.peak_packets},
          {"drops", p.drops},
          {"spraying", p.spraying},
          {"out_of_order", p.out_of_order},
          {"most_out_of_order", reordered},
          {"credit_stall_s", to_seconds(totals.credit_stall)},
          {"fct_s", fct_json(f)},
          {"fct_by_operation_s", fct_groups_json(fct_by_operation(r))},
          {"queues", queues},
          {"deadlock", loops.empty() ? Json::array() : loops[0]},
          {"deadlock_loops", loops},
          {"deadlock_flows", {{"in_loop", stuck.in_loop}, {"behind", stuck.behind}, {"fault", stuck.faulted}}}};
  if (p.pfc) {
    out["flow_control"] = "pfc";
    out["pause_s"] = to_seconds(totals.pause);
    out["pause_frames"] = totals.pause_frames;
    out["ecn_marks"] = totals.ecn_marks;
  } else {
    out["flow_control"] = "credits";
  }
  if (p.vls > 1) out["fct_by_class_s"] = fct_groups_json(fct_by_class(r));
  if (!r.queue_series.empty()) {
    // Kept only with --csv-queues or --html (SimulationOptions::queue_series).
    Json hottest = Json::array();
    for (const QueueSeries& q : r.queue_series) {
      hottest.push_back({{"name", resource_name(in.names, r.resources[q.resource])},
                         {"mean_bytes", q.mean_bytes},
                         {"peak_bytes", q.peak_bytes}});
    }
    out["queue_series"] = {{"bin_s", to_seconds(r.queue_bin)}, {"queues", hottest}};
  }
  if (p.dcqcn) out["dcqcn"] = dcqcn_json(in);
  return out;
}

std::string simulate_text(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  std::string out = fmt::format("clustertwin simulate: {}\n", in.title);
  const std::string makespan =
      r.unbounded ? fmt::format("unbounded ({} of {} flows never finish; nothing happens after {})", unfinished_count(r),
                                r.flows.size(), human_time(r.makespan))
                  : human_time(r.makespan);
  // The engine's own work: the flow engine's instants and re-solves, the packet engine's events
  // and packets.
  const std::string work =
      r.packet.ran ? fmt::format("{} events, {} packets delivered (at most {} in flight)", r.packet.events,
                                 r.packet.packets_delivered, r.packet.peak_packets)
                   : fmt::format("{} instants, {} re-solves of {:.1f} flows on average", r.instants, r.solves,
                                 r.solves == 0 ? 0.0 : static_cast<double>(r.solved_flows) / static_cast<double>(r.solves));
  out += fmt::format("makespan {}; {} flows; {}; {} flows rerouted{}\n\n", makespan, r.flows.size(), work,
                     r.rerouted_flows, r.reroutes == r.rerouted_flows ? "" : fmt::format(" ({} moves)", r.reroutes));
  text_operations(in, out);
  text_collisions(in, out);
  text_unfinished(in, out);
  text_workers(in, out);
  text_links(in, out);
  text_packet(in, out);
  if (!r.notes.empty()) {
    out += "Notes\n";
    for (const std::string& n : r.notes) out += "  " + n + "\n";
  }
  return out;
}

std::string simulate_json(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  const WorkerAccount& w = in.workers;
  Json ops = Json::array();
  for (const OperationResult& op : r.operations) {
    Json iterations = Json::array();
    for (const IterationSpan& it : op.iterations) {
      iterations.push_back({{"start_s", it.start.value() < 0 ? Json(nullptr) : Json(to_seconds(it.start))},
                            {"end_s", it.end.value() < 0 ? Json(nullptr) : Json(to_seconds(it.end))}});
    }
    const double t = op.complete ? mean_time(op) : -1.0;
    const bool whole = !partial(op) && op.complete && op.kind != OperationKind::kMice;
    Json o = {{"name", op.name},
              {"kind", operation_kind(op.kind)},
              {"what", op.what},
              {"groups", op.instances},
              {"gpus", gpus_of(r, op)},
              {"bytes", op.bytes.value()},
              {"steps", op.steps},
              {"total_steps", op.total_steps},
              {"complete", op.complete},
              {"iterations", iterations},
              {"time_s", t < 0 ? Json(nullptr) : Json(t)},
              {"algbw_GBps", whole ? Json(algbw(op) / kGB) : Json(nullptr)},
              {"busbw_GBps", whole ? Json(algbw(op) * op.bus_factor / kGB) : Json(nullptr)}};
    if (op.kind == OperationKind::kCollective) {
      o["bound_s"] = to_seconds(op.bound);
      o["collision_dominated"] = op.collision_dominated;
    }
    if (op.kind == OperationKind::kMice) {
      const MiceFigures f = mice_figures(in, op);
      o["fct_s"] = {{"p50", f.p50}, {"p99", f.p99}, {"max", f.max}, {"mean", f.mean}, {"alone", f.ideal}};
    }
    ops.push_back(o);
  }
  Json phases = Json::array();
  for (const PhaseTime& p : w.phases) {
    phases.push_back({{"name", p.name}, {"span_s", to_seconds(p.span)}, {"workers", p.workers},
                      {"network_share", p.network_share}, {"waiting_share", p.waiting_share}});
  }
  Json workers = Json::array();
  for (const WorkerTime& t : w.workers) {
    workers.push_back({{"name", t.name}, {"phase", w.phases[t.phase].name}, {"span_s", to_seconds(t.span)},
                       {"compute_s", to_seconds(t.compute)}, {"sending_s", to_seconds(t.sending)},
                       {"waiting_s", to_seconds(t.waiting)}});
  }
  Json links = Json::array();
  const std::vector<std::uint32_t> order = busiest_resources(r, in.top_links);
  for (std::size_t k = 0; k < std::min(in.top_links, order.size()); ++k) {
    const std::uint32_t c = order[k];
    links.push_back({{"name", resource_name(in.names, r.resources[c])},
                     {"capacity_bps", bps(r.resources[c])},
                     {"carried_bits", r.stats[c].carried_bits},
                     {"mean_utilization", mean_util(r, c)},
                     {"peak_utilization", peak_util(r, c)},
                     {"saturated_s", to_seconds(r.stats[c].saturated)},
                     {"flows", r.stats[c].flows}});
  }
  Json unfinished = Json::array();
  for (std::uint32_t i = 0; i < r.flows.size(); ++i) {
    const FlowRecord& f = r.flows[i];
    if (f.unfinished == Unfinished::kNo) continue;
    unfinished.push_back({{"flow", i},
                          {"operation", r.operations[f.operation].name},
                          {"bytes_left", std::ceil(f.bits_left / 8)},
                          {"stalled_s", f.stalled.value() < 0 ? Json(nullptr) : Json(to_seconds(f.stalled))},
                          {"why", why_unfinished(r, i)}});
  }
  Json root = {{"title", in.title},
               {"makespan_s", r.unbounded ? Json(nullptr) : Json(to_seconds(r.makespan))},
               {"unbounded", r.unbounded},
               {"last_event_s", to_seconds(r.makespan)},
               {"flows", r.flows.size()},
               {"instants", r.instants},
               {"solves", r.solves},
               {"solved_flows", r.solved_flows},
               {"rerouted_flows", r.rerouted_flows},
               {"reroutes", r.reroutes},
               {"operations", ops},
               {"network_share", w.network_share},
               {"waiting_share", w.waiting_share},
               {"phases", phases},
               {"workers", workers},
               {"bottlenecks", links},
               {"unfinished", unfinished},
               {"series", series_json(in)},
               {"notes", r.notes}};
  if (r.packet.ran) root["packet"] = packet_json(in);
  return root.dump(2) + "\n";
}

std::string simulate_links_csv(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  const bool packet = r.packet.ran;
  std::string out = "link,capacity_bps,carried_bits,mean_utilization,peak_utilization,saturated_s,flows";
  out += packet ? ",peak_queue_bytes,mean_queue_bytes,credit_stall_s,pause_s,pause_frames,ecn_marks\n" : "\n";
  for (std::uint32_t c = 0; c < r.resources.size(); ++c) {
    if (r.resources[c].kind == ResourceKind::kBarrier || r.stats[c].carried_bits <= 0) continue;
    out += fmt::format("{},{:.0f},{:.0f},{:.6f},{:.6f},{:.9f},{}", csv_cell(resource_name(in.names, r.resources[c])),
                       bps(r.resources[c]), r.stats[c].carried_bits, mean_util(r, c), peak_util(r, c),
                       to_seconds(r.stats[c].saturated), r.stats[c].flows);
    if (packet) {
      out += fmt::format(",{},{:.3f},{:.12f},{:.12f},{},{}", r.stats[c].peak_queue_bytes, r.stats[c].mean_queue_bytes,
                         to_seconds(r.stats[c].credit_stall), to_seconds(r.stats[c].pause_time), r.stats[c].pause_frames,
                         r.stats[c].ecn_marks);
    }
    out += "\n";
  }
  return out;
}

namespace {

// `v` in decimal, appended (the digits fmt's "{}" gives).
template <typename T>
void append_decimal(std::string& out, T v) {
  const fmt::format_int digits(v);
  out.append(digits.data(), digits.size());
}

// Whether `s` is a CSV cell as it is (no comma, no quote).
bool plain_cell(std::string_view s) {
  return std::none_of(s.begin(), s.end(), [](char ch) { return ch == ',' || ch == '"'; });
}

// The hops of a run's paths by name, each cable's and each other resource's name built once
// (NameDirectory::append_cable_name, resource_name) into one text.
class HopNames {
 public:
  HopNames(const SimulationResult& r, const NameDirectory& names)
      : r_(r), names_(names), link_(names.topology().link_count()), other_(r.resources.size()) {}

  // Hop `c`'s name appended to `out`; false when it holds a comma or a quote.
  bool append(std::string& out, std::uint32_t c) {
    const ResourceInfo& info = r_.resources[c];
    const bool link = info.kind == ResourceKind::kLinkUp || info.kind == ResourceKind::kLinkDown;
    Span& span = link ? link_[info.link.value()] : other_[c];
    if (span.size == 0) {
      span.begin = static_cast<std::uint32_t>(text_.size());
      if (link) {
        names_.append_cable_name(text_, info.link);
      } else {
        text_ += resource_name(names_, info);
      }
      span.size = static_cast<std::uint32_t>(text_.size() - span.begin);
      span.plain = plain_cell(std::string_view(text_).substr(span.begin));
    }
    out.append(text_, span.begin, span.size);
    if (link) out += info.kind == ResourceKind::kLinkUp ? " up" : " down";
    return span.plain;
  }

 private:
  struct Span {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;  // 0: not built yet (no name is empty)
    bool plain = true;
  };
  const SimulationResult& r_;
  const NameDirectory& names_;
  std::string text_;
  std::vector<Span> link_;
  std::vector<Span> other_;
};

// The cell written into `out` from `start` on, quoted (append_csv_cell) when it is not plain.
void quote_from(std::string& out, std::size_t start) {
  if (plain_cell(std::string_view(out).substr(start))) return;
  const std::string cell = out.substr(start);
  out.resize(start);
  append_csv_cell(out, cell);
}

}  // namespace

std::string simulate_flows_csv(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  const Topology& t = in.topology;
  HopNames hops(r, in.names);
  std::string out =
      "flow,operation,instance,iteration,step,channel,qp,src,dst,udp_src_port,bytes,weight,start_s,after,delay_s,end_s,"
      "rate_gbps,reroutes,status,bytes_left,path";
  // A packet run's per-flow congestion signals (the flow engine has none: no columns).
  const bool packet = r.packet.ran;
  out += packet ? ",ecn_marks,cnps,out_of_order\n" : "\n";
  out.reserve(r.flows.size() * 256);
  // The row cell by cell, each straight into `out` (the run's largest text).
  const auto o = std::back_inserter(out);
  for (std::uint32_t i = 0; i < r.flows.size(); ++i) {
    const FlowRecord& f = r.flows[i];
    const bool done = f.end.value() >= 0 && f.start.value() >= 0 && f.end > f.start;
    const char* status = f.unfinished == Unfinished::kNo ? "done" : f.unfinished == Unfinished::kStalled ? "stalled" : "waiting";
    append_decimal(out, i);
    out += ',';
    append_csv_cell(out, r.operations[f.operation].name);
    for (const std::uint32_t v : {f.instance, f.iteration, f.step, f.channel, f.qp}) {
      out += ',';
      append_decimal(out, v);
    }
    out += ',';
    for (const auto& [gpu, port] : {std::pair{f.src_gpu, f.src_port}, std::pair{f.dst_gpu, f.dst_port}}) {
      const std::size_t start = out.size();
      if (port.valid()) {
        t.append_vertex_name(out, port);
        quote_from(out, start);
      } else {
        append_csv_cell(out, endpoint(t, gpu, port));
      }
      out += ',';
    }
    append_decimal(out, f.src_udp_port);
    out += ',';
    append_decimal(out, f.bytes.value());
    out += ',';
    fmt::format_to(o, FMT_COMPILE("{}"), f.weight);
    out += ',';
    if (f.start.value() >= 0) append_exact_seconds(out, f.start);
    out += ',';
    for (std::uint32_t a = 0; a < f.after_size; ++a) {
      if (a > 0) out += ' ';
      append_decimal(out, r.after_pool[f.after_begin + a]);
    }
    out += ',';
    if (f.delay.value() != 0) append_exact_seconds(out, f.delay);
    out += ',';
    if (f.end.value() >= 0) append_exact_seconds(out, f.end);
    out += ',';
    if (done) {
      append_fixed(out, static_cast<double>(f.bytes.value()) * 8 / to_seconds(f.end - f.start) / 1e9, 3);
    }
    out += ',';
    append_decimal(out, f.reroutes);
    out += ',';
    out += status;
    out += ',';
    out += f.unfinished == Unfinished::kNo ? "0" : bytes_left(f);
    out += ',';
    // The path: each hop's name built once; quoted as a whole when a name needs it.
    const std::size_t path_start = out.size();
    bool plain = true;
    for (std::uint32_t h = 0; h < f.path_size; ++h) {
      if (h > 0) out += " | ";
      plain = hops.append(out, r.path_pool[f.path_begin + h]) && plain;
      if (const double share = r.fraction_pool[f.path_begin + h]; share < 1.0) {
        fmt::format_to(o, "*{}", share);
      }
    }
    if (!plain) quote_from(out, path_start);
    if (packet) {
      out += ',';
      append_decimal(out, f.ecn_marks);
      out += ',';
      append_decimal(out, f.cnps);
      out += ',';
      append_decimal(out, f.out_of_order);
    }
    out += '\n';
  }
  return out;
}

std::string simulate_series_csv(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  std::string out = "link,bin_start_s,bin_end_s,utilization\n";
  for (const LinkSeries& s : r.series) {
    const std::string name = csv_cell(resource_name(in.names, r.resources[s.resource]));
    for (std::size_t b = 0; b < s.utilization.size(); ++b) {
      out += fmt::format("{},{:.12f},{:.12f},{:.6f}\n", name, to_seconds(TimePs(r.series_bin.value() * static_cast<std::int64_t>(b))),
                         to_seconds(TimePs(r.series_bin.value() * static_cast<std::int64_t>(b + 1))), s.utilization[b]);
    }
  }
  return out;
}

std::string simulate_queues_csv(const SimulateReportInput& in) {
  const SimulationResult& r = in.result;
  std::string out = "queue,bin_start_s,bin_end_s,mean_bytes,peak_bytes\n";
  const std::int64_t bin = r.queue_bin.value();
  for (const QueueSeries& s : r.queue_series) {
    const std::string name = csv_cell(resource_name(in.names, r.resources[s.resource]));
    for (std::size_t b = 0; b < s.mean_bytes.size(); ++b) {
      const auto start = bin * static_cast<std::int64_t>(b);
      out += name;
      out += ',';
      append_exact_seconds(out, TimePs(start));
      out += ',';
      append_exact_seconds(out, std::min(TimePs(start + bin), r.makespan));
      out += fmt::format(",{:.3f},{}\n", s.mean_bytes[b], s.peak_bytes[b]);
    }
  }
  return out;
}

}  // namespace ct
