#include "report/engine_comparison_report.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/operation_figures.h"
#include "report/simulate_report.h"
#include "report/table.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

const char* reason_tag(DifferenceReason r) {
  switch (r) {
    case DifferenceReason::kDeadlock: return "deadlock";
    case DifferenceReason::kIncast: return "incast";
    case DifferenceReason::kFlowControl: return "flow control";
    case DifferenceReason::kVictims: return "victims";
    case DifferenceReason::kLatency: return "latency";
    case DifferenceReason::kSharing: return "sharing";
  }
  return "";
}

std::string seconds(double s) { return s > 0 ? human_time(TimePs(std::llround(s * 1e12))) : "never"; }

std::string busbw(const OperationResult& op) {
  const auto b = busbw_bytes_per_second(op);
  return b ? fmt::format("{:.2f}", *b / 1e9) : "-";
}

std::string tags(const OperationComparison& c) {
  std::string out;
  for (const DifferenceReason r : c.reasons) out += (out.empty() ? "" : ", ") + std::string(reason_tag(r));
  return out;
}

// One sentence per reason, with the packet run's figures.
std::string explain(const EngineComparisonInput& in, const OperationComparison& c, DifferenceReason r) {
  const SimulationResult& p = in.runs.packet;
  switch (r) {
    case DifferenceReason::kDeadlock:
      return "the packet run ended in a credit loop (deadlock) before it completed; the flow engine has no buffers";
    case DifferenceReason::kIncast: {
      const ResourceStats& s = p.stats[c.incast_port];
      return fmt::format("incast: {} flows end on {}, whose queue peaked at {} B (time-weighted mean {:.0f} B); the "
                         "packet engine shares that port among the links that feed it, each as fast as its {} let it "
                         "refill the queue, not among the flows as max-min does, so they do not finish together",
                         c.incast_flows, resource_name(in.names, p.resources[c.incast_port]), s.peak_queue_bytes,
                         s.mean_queue_bytes, p.packet.pfc ? "PAUSE frames" : "credits");
    }
    case DifferenceReason::kFlowControl:
      return fmt::format("flow control: {} stopped {} port(s) on its paths for {} in all, while they had packets to send",
                         p.packet.pfc ? "PAUSE" : "a lack of credits", c.stopped_ports, human_time(c.stopped));
    case DifferenceReason::kVictims:
      return fmt::format("victims: {} of its flows crossed a stopped port but no congestion point (head-of-line "
                         "blocking)",
                         c.victims);
    case DifferenceReason::kLatency:
      return fmt::format("latency: up to {} per packet at the switches ({} {}), which the flow engine does not model",
                         human_time(c.latency), human_time(p.packet.switch_latency),
                         p.packet.cut_through ? "cut-through" : "store-and-forward, plus a packet's serialization");
    case DifferenceReason::kSharing:
      return "sharing: packets interleave round robin at each port, not at max-min rates";
  }
  return "";
}

std::string deadlock_text(const EngineComparisonInput& in) {
  const SimulationResult& p = in.runs.packet;
  if (p.packet.deadlock_cycles.empty()) return "none";
  return credit_loops_text(in.names, p, "    ");
}

std::string flow_name(const EngineComparisonInput& in, std::uint32_t record) {
  const SimulationResult& p = in.runs.packet;
  const FlowRecord& f = p.flows[record];
  const double fct = f.end.value() >= 0 ? to_seconds(f.end - f.start) : -1;
  const FlowRecord& g = in.runs.flow.flows[record];
  const double flow_fct = g.end.value() >= 0 ? to_seconds(g.end - g.start) : -1;
  return fmt::format("flow {} of {}: {} in the packet run, {} in the flow run", record, p.operations[f.operation].name,
                     seconds(fct), seconds(flow_fct));
}

// A run's makespan as simulate's summary gives it: unbounded when some flow never completed (a
// deadlock, a path that failed for good), with the last instant anything happened.
std::string makespan_text(const SimulationResult& r) {
  return r.unbounded ? fmt::format("unbounded (nothing happens after {})", human_time(r.makespan)) : human_time(r.makespan);
}

// The same in the JSON, as simulate --json gives it: makespan_s null when unbounded.
Json makespan_json(const SimulationResult& r) {
  return {{"makespan_s", r.unbounded ? Json(nullptr) : Json(to_seconds(r.makespan))},
          {"unbounded", r.unbounded},
          {"last_event_s", to_seconds(r.makespan)}};
}

}  // namespace

std::string engine_comparison_text(const EngineComparisonInput& in) {
  const EngineComparison& cmp = in.comparison;
  const SimulationResult& f = in.runs.flow;
  const SimulationResult& p = in.runs.packet;
  std::string out = fmt::format("clustertwin simulate --compare-engines: {}\n", in.title);
  out += fmt::format("flow engine: makespan {}; packet engine: makespan {} (MTU {} B, switches {} {}, {} B per port "
                     "and {}, {})\n",
                     makespan_text(f), makespan_text(p), p.packet.mtu, human_time(p.packet.switch_latency),
                     p.packet.cut_through ? "cut-through" : "store-and-forward", p.packet.buffer_bytes,
                     p.packet.pfc ? "priority" : "VL", p.packet.pfc ? "PFC" : "credits");
  out += fmt::format("{} of {} operation(s) agree within {:.0f} %\n\n", cmp.agree, cmp.operations.size(), kAgreement * 100);
  TextTable table({{"operation"}, {"flow time", Align::kRight}, {"packet time", Align::kRight}, {"diff", Align::kRight},
                   {"flow busbw", Align::kRight}, {"packet busbw", Align::kRight}, {"agree"}, {"why they differ"}},
                  "Per operation (busbw in GB/s; time: the mean iteration)");
  for (const OperationComparison& c : cmp.operations) {
    table.add_row({p.operations[c.operation].name, seconds(c.flow_s), seconds(c.packet_s),
                   c.flow_s > 0 && c.packet_s > 0 ? fmt::format("{:+.2f} %", 100 * c.difference) : "-",
                   busbw(f.operations[c.operation]), busbw(p.operations[c.operation]), c.agree ? "yes" : "no", tags(c)});
  }
  out += table.render() + "\n";
  out += "Only the packet engine sees:\n";
  out += fmt::format("  {}: {} of {} ports used were stopped with packets to send, {} in all; {} congestion point(s) "
                     "(a queue of 2 packets or more, never stopped itself)\n",
                     p.packet.pfc ? "PAUSE spread" : "credit stalls", cmp.stopped_ports, cmp.ports_used,
                     human_time(cmp.stopped), cmp.congestion_points);
  out += fmt::format("  victims: {} flow(s) crossed a stopped port but no congestion point\n", cmp.victims.size());
  for (std::size_t k = 0; k < std::min(in.top, cmp.victims.size()); ++k) out += "    " + flow_name(in, cmp.victims[k]) + "\n";
  out += fmt::format("  deadlock: {}\n", deadlock_text(in));
  std::size_t shown = 0;
  for (const OperationComparison& c : cmp.operations) {
    if (c.agree || shown++ >= in.top) continue;
    if (shown == 1) out += "\nWhy they differ (the packet run's figures):\n";
    out += fmt::format("  {}:\n", p.operations[c.operation].name);
    for (const DifferenceReason r : c.reasons) out += "    " + explain(in, c, r) + "\n";
  }
  return out;
}

std::string engine_comparison_json(const EngineComparisonInput& in) {
  const EngineComparison& cmp = in.comparison;
  const SimulationResult& f = in.runs.flow;
  const SimulationResult& p = in.runs.packet;
  Json ops = Json::array();
  for (const OperationComparison& c : cmp.operations) {
    Json reasons = Json::array();
    for (const DifferenceReason r : c.reasons) reasons.push_back({{"kind", reason_tag(r)}, {"text", explain(in, c, r)}});
    const auto fb = busbw_bytes_per_second(f.operations[c.operation]);
    const auto pb = busbw_bytes_per_second(p.operations[c.operation]);
    ops.push_back({{"name", p.operations[c.operation].name},
                   {"flow_s", c.flow_complete ? Json(c.flow_s) : Json(nullptr)},  // null: never completed, as "never" in the text
                   {"packet_s", c.packet_complete ? Json(c.packet_s) : Json(nullptr)},
                   {"difference", c.difference},
                   {"agree", c.agree},
                   {"flow_busbw_GBps", fb ? Json(*fb / 1e9) : Json(nullptr)},
                   {"packet_busbw_GBps", pb ? Json(*pb / 1e9) : Json(nullptr)},
                   {"stopped_s", to_seconds(c.stopped)},
                   {"stopped_ports", c.stopped_ports},
                   {"victims", c.victims},
                   {"incast_flows", c.incast_flows},
                   {"incast_port", c.incast_port == kNoIndex ? Json(nullptr)
                                                             : Json(resource_name(in.names, p.resources[c.incast_port]))},
                   {"packet_latency_s", to_seconds(c.latency)},
                   {"reasons", reasons}});
  }
  const Json loops = credit_loops_json(in.names, p);
  Json packet = makespan_json(p);
  packet.update(Json{{"flow_control", p.packet.pfc ? "pfc" : "credits"},
                 {"ports_used", cmp.ports_used},
                 {"stopped_ports", cmp.stopped_ports},
                 {"stopped_s", to_seconds(cmp.stopped)},
                 {"congestion_points", cmp.congestion_points},
                 {"victims", cmp.victims},
                 {"deadlock", loops.empty() ? Json::array() : loops[0]},
                 {"deadlock_loops", loops}});
  Json root = {{"title", in.title},
               {"agreement", kAgreement},
               {"agree", cmp.agree},
               {"flow", makespan_json(f)},
               {"packet", packet},
               {"operations", ops}};
  return root.dump(2) + "\n";
}

}  // namespace ct
