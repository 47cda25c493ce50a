// A packet run's report speaks of the packet engine's own work and carries the receivers'
// reordering per flow (report/simulate_report.h, simulate_html.h), worked by hand on small two-tier
// fabrics of 400 Gb/s links (fixtures::kLinkSpeed: a 4096 B packet serializes in 81.92 ns), 100 ns
// each, switches cut-through at 200 ns with 1 MiB per port.
//
// The sprayed run (packet_spray_test.cpp's slow member): two leaves, two spines, one host each;
// host 0 sends 16 packets of 4096 B to host 1, sprayed packet by packet over the two spines, with
// leaf 0 - spine 1 at a quarter of its rate: each odd packet 1, 3, ..., 13 arrives after the even
// packet behind it, packet 15 after 14 only: 7 of the 16 packets delivered arrive after a later one
// of their flow, all of flow 0.
//
// The parallel run: two leaves of two hosts each, joined to one spine by two cables each
// (two_tier(2, 1, 2, 2)); hosts 0 and 1 each send 1 MiB to host 2, sprayed over both cables: 800
// Gb/s into host 2's 400 Gb/s port, so the spine's two cables down to leaf 1 queue too. They are
// two output queues that the report must tell apart as --csv-queues does: "#0" and "#1" after the
// cable's name.
//
// The dead run: host 0's NIC link down from the start, for good: its one flow never completes in
// either engine. There is no completion time to give (no quantile at 0), and each engine's makespan
// is unbounded, in --compare-engines as in simulate.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <array>
#include <initializer_list>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/engine_comparison.h"
#include "analysis/straggler.h"
#include "report/engine_comparison_report.h"
#include "report/simulate_html.h"
#include "report/simulate_report.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "support/report_run.h"
#include "traffic/flow_table.h"
#include "support/faults.h"

namespace ct {
namespace {

using PacketRun = fixtures::ReportRun;

// Transfers of `bytes` from each of `sources` to GPU `dst`.
Scenario transfers(std::initializer_list<std::uint32_t> sources, std::uint32_t dst, std::int64_t bytes, PathModel paths) {
  Scenario s;
  s.paths = paths;
  for (const std::uint32_t src : sources) {
    TransferSpec x;
    x.name = "x" + std::to_string(src);
    x.src.gpu = src;
    x.dst.gpu = dst;
    x.bytes = Bytes(bytes);
    s.transfers.push_back(x);
  }
  return s;
}

Scenario one_transfer(std::int64_t bytes, PathModel paths) { return transfers({0}, 1, bytes, paths); }

void run(PacketRun& r, Topology topology, const Scenario& s, EngineKind engine, std::int64_t buffer_bytes = 1 << 20) {
  r.topology = std::move(topology);
  r.topology.gpus_per_host = 1;
  for (auto& l : r.topology.latency) l = TimePs(100'000);
  r.fabric.emplace(fixtures::fixture_fabric(r.topology));
  SimulationOptions o;
  o.engine = engine;
  o.packet.switch_latency = TimePs(200'000);
  o.packet.buffer_bytes = buffer_bytes;
  o.packet.cut_through = true;
  o.queue_series = 8;
  r.simulate_and_keep(s, o, "t");
}

// The sprayed run with the slow member (the file's opening comment).
void sprayed_slow_member(PacketRun& r) {
  Scenario s = one_transfer(16 * 4096, PathModel::kSpray);
  s.faults.push_back(testing_support::degrade(LinkId(3), 0.25, TimePs(0), "p0/leaf/0 -- p0/spine/1"));
  run(r, fixtures::two_tier(2, 2, 1), s, EngineKind::kPacket);
}

std::string first_line_after(const std::string& text, const std::string& prefix) {
  const std::size_t at = text.find(prefix);
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

// The summary line counts the packet engine's events and the 16 packets delivered, not the flow
// engine's instants and re-solves (it solves nothing).
TEST(PacketRunReport, SummaryLineSpeaksOfEventsAndPackets) {
  PacketRun r;
  sprayed_slow_member(r);
  const std::string text = simulate_text(*r.in);
  const std::string line = first_line_after(text, "makespan ");
  EXPECT_EQ(line, fmt::format("makespan {}; 1 flows; {} events, 16 packets delivered (at most {} in flight); 0 flows rerouted",
                              human_time(r.result.makespan), r.result.packet.events, r.result.packet.peak_packets));
  EXPECT_GT(r.result.packet.events, 16u);
  EXPECT_EQ(text.find("re-solves"), std::string::npos) << text;
  EXPECT_EQ(text.find("instants"), std::string::npos) << text;
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  EXPECT_EQ(j["packet"]["packets_delivered"].get<std::int64_t>(), 16);
}

// The flow engine's line is unchanged: one instant per completion, one re-solve.
TEST(PacketRunReport, FlowEngineSummaryLineUnchanged) {
  PacketRun r;
  run(r, fixtures::two_tier(2, 2, 1), one_transfer(16 * 4096, PathModel::kEcmp), EngineKind::kFlow);
  const std::string line = first_line_after(simulate_text(*r.in), "makespan ");
  EXPECT_NE(line.find("; 1 flows; "), std::string::npos) << line;
  EXPECT_NE(line.find(" re-solves of "), std::string::npos) << line;
  EXPECT_NE(line.find(" instants, "), std::string::npos) << line;
}

// The 7 late packets of 16: per flow in the flows CSV's last column, in total and per flow in the
// JSON, and in the text's packet section.
TEST(PacketRunReport, OutOfOrderPerFlowAndInTotal) {
  PacketRun r;
  sprayed_slow_member(r);
  EXPECT_EQ(r.result.flows[0].out_of_order, 7);
  const std::string csv = simulate_flows_csv(*r.in);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.substr(header.rfind(",path,")), ",path,ecn_marks,cnps,out_of_order");
  const std::string row = csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_EQ(row.substr(row.size() - 6), ",0,0,7") << row;
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  const auto& p = j["packet"];
  EXPECT_EQ(p["spraying"], true);
  EXPECT_EQ(p["out_of_order"].get<std::int64_t>(), 7);
  ASSERT_EQ(p["most_out_of_order"].size(), 1u);
  EXPECT_EQ(p["most_out_of_order"][0]["flow"], 0);
  EXPECT_EQ(p["most_out_of_order"][0]["from"], "host0/nic0");
  EXPECT_EQ(p["most_out_of_order"][0]["to"], "host1/nic0");
  EXPECT_EQ(p["most_out_of_order"][0]["out_of_order"].get<std::int64_t>(), 7);
  const std::string text = simulate_text(*r.in);
  EXPECT_NE(text.find("  reordering (spraying): 7 of 16 packet(s) delivered arrived after a later packet of their flow; "
                      "the most in one flow: 7 (flow 0) (out_of_order per flow in --csv-flows)\n"),
            std::string::npos)
      << text;
}

// Without spraying or a reroute every packet comes in order: the column is 0, the JSON's total 0
// with no flow listed, no reordering line; the CSV still reads back as a flow table (--flows).
TEST(PacketRunReport, InOrderRunReadsBackAsAFlowTable) {
  PacketRun r;
  run(r, fixtures::two_tier(2, 2, 1), one_transfer(16 * 4096, PathModel::kEcmp), EngineKind::kPacket);
  const std::string csv = simulate_flows_csv(*r.in);
  const std::string row = csv.substr(csv.find('\n') + 1);
  EXPECT_EQ(row.substr(row.size() - 7), ",0,0,0\n") << row;
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  EXPECT_EQ(j["packet"]["spraying"], false);
  EXPECT_EQ(j["packet"]["out_of_order"].get<std::int64_t>(), 0);
  EXPECT_TRUE(j["packet"]["most_out_of_order"].empty());
  EXPECT_EQ(simulate_text(*r.in).find("reordering"), std::string::npos);
  auto back = parse_flow_table("flows.csv", csv, r.fabric->names());
  ASSERT_TRUE(back.ok()) << format_diagnostics(back.errors());
  EXPECT_EQ(back->flows.size(), 1u);
}

// Two cables between leaf 0 and the spine: the queue table, the JSON's queues and the queue series
// name the two uplinks apart, by the names --csv-queues gives them.
TEST(PacketRunReport, ParallelCablesAreTwoQueues) {
  PacketRun r;
  run(r, fixtures::two_tier(2, 1, 2, 2), transfers({0, 1}, 2, 1 << 20, PathModel::kSpray), EngineKind::kPacket);
  const std::string text = simulate_text(*r.in);
  EXPECT_NE(text.find("p0/leaf/1 -- p0/spine/0 #0 down "), std::string::npos) << text;
  EXPECT_NE(text.find("p0/leaf/1 -- p0/spine/0 #1 down "), std::string::npos) << text;
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  std::set<std::string> names;
  for (const auto& q : j["packet"]["queues"]) {
    EXPECT_TRUE(names.insert(q["name"].get<std::string>()).second) << "twice: " << q["name"];
  }
  EXPECT_TRUE(names.count("p0/leaf/1 -- p0/spine/0 #0 down") == 1 && names.count("p0/leaf/1 -- p0/spine/0 #1 down") == 1)
      << j["packet"]["queues"].dump();
  ASSERT_TRUE(j["packet"].contains("queue_series")) << j["packet"].dump();
  std::size_t parallel = 0;
  for (const auto& q : j["packet"]["queue_series"]["queues"]) {
    EXPECT_EQ(names.count(q["name"].get<std::string>()), 1u) << q["name"];
    parallel += q["name"].get<std::string>().find(" #") != std::string::npos ? 1 : 0;
  }
  EXPECT_GE(parallel, 2u) << j["packet"]["queue_series"].dump();  // the spine's two down, leaf 0's two up
}

// The page's summary facts: the packet engine's events, packets, drops, credit stall, reordering
// and deadlock; no re-solves. The flow engine's page keeps its instants and re-solves.
TEST(PacketRunReport, PageSummaryFacts) {
  PacketRun r;
  sprayed_slow_member(r);
  const std::string html = simulate_html(*r.in, "clustertwin simulate x");
  for (const std::string fact : {"<tr><td>packets delivered</td><td>16</td></tr>", "<tr><td>drops</td><td>0</td></tr>",
                                 "<tr><td>packets delivered out of order</td><td>7</td></tr>",
                                 "<tr><td>deadlock</td><td>none</td></tr>", "<tr><td>credit stall, summed over ports</td>",
                                 "<tr><td>packets in flight, at most</td>", "<tr><td>events</td>"}) {
    EXPECT_NE(html.find(fact), std::string::npos) << fact;
  }
  EXPECT_EQ(html.find("<tr><td>re-solves</td>"), std::string::npos);
  PacketRun f;
  run(f, fixtures::two_tier(2, 2, 1), one_transfer(16 * 4096, PathModel::kEcmp), EngineKind::kFlow);
  const std::string flow_html = simulate_html(*f.in, "clustertwin simulate x");
  EXPECT_NE(flow_html.find("<tr><td>re-solves</td>"), std::string::npos);
  EXPECT_EQ(flow_html.find("<tr><td>events</td>"), std::string::npos);
}

// The bars of one plot of a page: (series, category, data-value) each, in order.
std::vector<std::array<std::string, 3>> bars(const std::string& html, const std::string& plot) {
  const std::size_t begin = html.find("data-plot=\"" + plot + "\"");
  EXPECT_NE(begin, std::string::npos) << plot;
  const std::string svg = begin == std::string::npos ? "" : html.substr(begin, html.find("</svg>", begin) - begin);
  std::vector<std::array<std::string, 3>> out;
  const std::regex re(R"re(class="ct-bar" data-series="([^"]+)" data-category="([^"]+)" data-value="([^"]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back({(*it)[1].str(), (*it)[2].str(), (*it)[3].str()});
  }
  return out;
}

// The page draws the deepest output queues as the JSON's packet.queues gives them: per port its
// peak and time-weighted mean in KiB, and its credit stall in us (the parallel run's incast with
// 16 KiB per port: the credits run out, so some port was stopped). The JSON says the flow control:
// credits.
TEST(PacketRunReport, PageDrawsTheDeepestQueues) {
  PacketRun r;
  run(r, fixtures::two_tier(2, 1, 2, 2), transfers({0, 1}, 2, 1 << 20, PathModel::kSpray), EngineKind::kPacket, 16 << 10);
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  EXPECT_EQ(j["packet"]["flow_control"], "credits");
  const auto& queues = j["packet"]["queues"];
  ASSERT_FALSE(queues.empty());
  const std::string html = simulate_html(*r.in, "clustertwin simulate x");
  const auto depth = bars(html, "queue-depth");
  const auto stopped = bars(html, "queue-stopped");
  ASSERT_EQ(depth.size(), 2 * queues.size());
  ASSERT_EQ(stopped.size(), queues.size());
  double stall = 0;
  for (std::size_t k = 0; k < queues.size(); ++k) {
    const std::string name = queues[k]["name"].get<std::string>();
    EXPECT_EQ(depth[2 * k][0], "peak");
    EXPECT_EQ(depth[2 * k][1], name);
    EXPECT_DOUBLE_EQ(std::stod(depth[2 * k][2]), queues[k]["peak_queue_bytes"].get<double>() / 1024);
    EXPECT_EQ(depth[2 * k + 1][0], "time-weighted mean");
    EXPECT_NEAR(std::stod(depth[2 * k + 1][2]), queues[k]["mean_queue_bytes"].get<double>() / 1024, 1e-9);
    EXPECT_EQ(stopped[k][0], "credit stall");
    EXPECT_EQ(stopped[k][1], name);
    EXPECT_NEAR(std::stod(stopped[k][2]), queues[k]["credit_stall_s"].get<double>() * 1e6, 1e-9);
    stall += std::stod(stopped[k][2]);
  }
  EXPECT_GT(stall, 0);  // the incast stopped some port for lack of credits
}

// On RoCE v2 (the SN5600 of examples/lab-32-roce.yaml, PFC alone: --dcqcn off) the same incast
// with 32 KiB per port and priority is stopped by PAUSE: the stop bars are each port's PAUSE time,
// as the JSON's queues give it (pause_s), and some is positive.
TEST(PacketRunReport, PageDrawsPauseOnRoce) {
  PacketRun r;
  r.topology = fixtures::two_tier(2, 1, 2, 2);
  r.topology.gpus_per_host = 1;
  for (auto& l : r.topology.latency) l = TimePs(100'000);
  r.fabric.emplace(fabric_over(fixtures::example_spec("examples/lab-32-roce.yaml"), fixtures::test_catalog(), r.topology,
                               EcmpConfig{}));
  SimulationOptions o;
  o.engine = EngineKind::kPacket;
  o.packet.switch_latency = TimePs(200'000);
  o.packet.buffer_bytes = 32 << 10;
  o.packet.cut_through = true;
  o.packet.dcqcn = false;
  r.simulate_and_keep(transfers({0, 1}, 2, 1 << 20, PathModel::kSpray), o, "t");
  ASSERT_TRUE(r.result.packet.pfc);
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  const auto& queues = j["packet"]["queues"];
  const auto stopped = bars(simulate_html(*r.in, "clustertwin simulate x"), "queue-stopped");
  ASSERT_EQ(stopped.size(), queues.size());
  double pause = 0;
  for (std::size_t k = 0; k < queues.size(); ++k) {
    EXPECT_EQ(stopped[k][0], "PAUSE");
    EXPECT_EQ(stopped[k][1], queues[k]["name"].get<std::string>());
    EXPECT_NEAR(std::stod(stopped[k][2]), queues[k]["pause_s"].get<double>() * 1e6, 1e-9);
    pause += std::stod(stopped[k][2]);
  }
  EXPECT_GT(pause, 0);
}

Scenario dead_nic() {
  Scenario s = one_transfer(16 * 4096, PathModel::kEcmp);
  FaultSpec down;
  down.kind = FaultKind::kDown;
  down.what = "host0/nic0 -- p0/leaf/0";
  down.links = {LinkId(0)};
  down.at = TimePs(0);
  s.faults.push_back(down);
  return s;
}

TEST(PacketRunReport, NoCompletionTimesWhenNoFlowCompleted) {
  PacketRun r;
  run(r, fixtures::two_tier(2, 2, 1), dead_nic(), EngineKind::kPacket);
  ASSERT_TRUE(r.result.unbounded);
  const std::string text = simulate_text(*r.in);
  EXPECT_NE(text.find("  flow completion times: none of the 1 flows completed\n"), std::string::npos) << text;
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  const auto& fct = j["packet"]["fct_s"];
  EXPECT_EQ(fct["flows"], 0);
  for (const char* q : {"p50", "p90", "p99", "max", "mean"}) EXPECT_TRUE(fct[q].is_null()) << q << ": " << fct.dump();
}

TEST(PacketRunReport, CompareEnginesSaysUnbounded) {
  Topology t = fixtures::two_tier(2, 2, 1);
  t.gpus_per_host = 1;
  for (auto& l : t.latency) l = TimePs(100'000);
  const Fabric fabric = fixtures::fixture_fabric(t);
  SimulationOptions o;
  o.packet.switch_latency = TimePs(200'000);
  o.packet.buffer_bytes = 1 << 20;
  o.packet.cut_through = true;
  auto runs = simulate_engines(fabric, dead_nic(), nullptr, o);
  ASSERT_TRUE(runs.ok()) << format_diagnostics(runs.errors());
  ASSERT_TRUE(runs->flow.unbounded && runs->packet.unbounded);
  const EngineComparison cmp = compare_engines(runs->flow, runs->packet);
  const EngineComparisonInput in{t, fabric.names(), runs.value(), cmp, "dead", 10};
  const std::string text = engine_comparison_text(in);
  EXPECT_NE(text.find(fmt::format("flow engine: makespan unbounded (nothing happens after {}); packet engine: makespan "
                                  "unbounded (nothing happens after {}) (",
                                  human_time(runs->flow.makespan), human_time(runs->packet.makespan))),
            std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(engine_comparison_json(in));
  for (const char* engine : {"flow", "packet"}) {
    EXPECT_TRUE(j[engine]["makespan_s"].is_null()) << j[engine].dump();
    EXPECT_EQ(j[engine]["unbounded"], true);
  }
  EXPECT_DOUBLE_EQ(j["packet"]["last_event_s"].get<double>(), to_seconds(runs->packet.makespan));
}

}  // namespace
}  // namespace ct
