// Flow tables run by the simulator (workload/flow_table_workload.h) and the honest report of runs
// that do not finish (report/simulate_report.h). Fabric: two leaves of four single-NIC hosts, two
// spines, two parallel cables per leaf-spine pair, every link 400 Gb/s and no latency
// (tests/support/fabric_fixtures.h): host h's NIC link is link h.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/straggler.h"
#include "report/simulate_report.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "traffic/flow_table.h"
#include "support/faults.h"

namespace ct {
namespace {

Topology fixture() {
  Topology t = fixtures::two_tier(2, 2, 4, 2);
  t.gpus_per_host = 1;
  return t;
}

struct Outcome {
  SimulationResult result;
  WorkerAccount workers;
  std::string text;
  std::string json;
  std::string csv;
};

Outcome run(const Fabric& fabric, const Scenario& s, const std::string& table_text) {
  Outcome out;
  std::optional<FlowTable> table;
  if (!table_text.empty()) {
    auto parsed = parse_flow_table("flows.csv", table_text, fabric.names());
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.errors()));
    if (!parsed.ok()) return out;
    table = std::move(parsed).value();
  }
  auto r = simulate(fabric, s, table ? &*table : nullptr);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  if (!r.ok()) return out;
  out.result = std::move(r).value();
  out.workers = account_workers(out.result);
  const SimulateReportInput in{fabric.topology(), fabric.names(), out.result, out.workers, "replay"};
  out.text = simulate_text(in);
  out.json = simulate_json(in);
  out.csv = simulate_flows_csv(in);
  return out;
}

// Replay: a run's --csv-flows output fed back as a flow table gives byte-identical results (report
// text, JSON and the flows CSV). First from a scenario (a ring all-reduce over the 8 GPUs, whose
// flows wait on each other step by step, plus port transfers under ECMP and a degraded spine
// cable): the replayed flows, pinned to the paths they took, must finish at the very same
// picosecond. Then the replay of the replay must be the same bytes.
TEST(FlowTableReplay, CsvFlowsFedBackGiveIdenticalResults) {
  const Fabric fabric = fixtures::fixture_fabric(fixture());
  Scenario s;
  CollectiveSpec ring;
  ring.name = "ring";
  ring.bytes = Bytes(48LL << 20);
  ring.groups = {{0, 1, 2, 3, 4, 5, 6, 7}};
  ring.model = CollectiveModel::kStepwise;  // 2(p-1) steps of flows: the replay carries their `after` chains
  s.collectives.push_back(ring);
  for (std::uint32_t h = 0; h < 4; ++h) {
    TransferSpec x;
    x.name = "x" + std::to_string(h);
    x.src.is_port = x.dst.is_port = true;
    x.src.port = VertexId(h);
    x.dst.port = VertexId(4 + (h + 1) % 4);
    x.bytes = Bytes((h + 1) * 10'000'000LL);
    x.start = TimePs(h * 100'000'000LL);
    s.transfers.push_back(x);
  }
  s.faults.push_back(testing_support::degrade(LinkId(8), 0.5, TimePs(50'000'000)));  // leaf 0 -> spine 0, cable 0
  const Outcome original = run(fabric, s, "");
  ASSERT_GE(original.result.flows.size(), 2U * 7 * 8 + 4);
  Scenario faults_only = s;
  faults_only.collectives.clear();
  faults_only.transfers.clear();
  const Outcome replay = run(fabric, faults_only, original.csv);
  ASSERT_EQ(replay.result.flows.size(), original.result.flows.size());
  for (std::size_t f = 0; f < original.result.flows.size(); ++f) {
    EXPECT_EQ(replay.result.flows[f].end, original.result.flows[f].end) << "flow " << f;
  }
  const Outcome again = run(fabric, faults_only, replay.csv);
  EXPECT_EQ(again.csv, replay.csv);
  EXPECT_EQ(again.text, replay.text);
  EXPECT_EQ(again.json, replay.json);
}

// A NIC down for good. Flow 0 sends 1 GB (8e9 bits) from host0 to host4 at 400 Gb/s; host0's NIC
// link fails at 5 ms (routing converges 10 us later and finds no other path). By then it has sent
// 400e9 x 5e-3 = 2e9 bits: 6e9 bits = 750,000,000 bytes are left, and it never finishes. Flow 1
// (host1 -> host2, one leaf, 50 MB = 4e8 bits) runs alone on its NIC links: 1 ms. Nothing happens after
// 5.01 ms, so the makespan is unbounded with its last event at 5.01 ms (not the 20 ms flow 0 would
// have taken), and host0/nic0 sent for 5 ms, not 5.01 ms.
TEST(HonestReport, DeadNicFlowNeverFinishes) {
  const Fabric fabric = fixtures::fixture_fabric(fixture());
  Scenario s;
  FaultSpec down;
  down.kind = FaultKind::kDown;
  down.links = {LinkId(0)};
  down.at = TimePs(5'000'000'000);
  down.convergence = TimePs(10'000'000);
  s.faults.push_back(down);
  const Outcome r = run(fabric, s, "flow,src,dst,bytes\n0,host0/nic0,host4/nic0,1000000000\n1,host1/nic0,host2/nic0,50000000\n");
  ASSERT_EQ(r.result.flows.size(), 2U);
  EXPECT_TRUE(r.result.unbounded);
  EXPECT_EQ(r.result.makespan, TimePs(5'010'000'000));
  EXPECT_EQ(r.result.flows[0].unfinished, Unfinished::kStalled);
  EXPECT_EQ(r.result.flows[0].stalled, TimePs(5'000'000'000));
  EXPECT_NEAR(r.result.flows[0].bits_left, 6e9, 1.0);
  EXPECT_EQ(r.result.flows[1].end, TimePs(1'000'000'000));
  ASSERT_EQ(r.workers.workers.size(), 2U);
  EXPECT_EQ(r.workers.workers[0].name, "host0/nic0");
  EXPECT_EQ(r.workers.workers[0].sending, TimePs(5'000'000'000));
  EXPECT_EQ(r.workers.workers[0].waiting, TimePs(10'000'000));
  EXPECT_NE(r.text.find("makespan unbounded (1 of 2 flows never finish; nothing happens after 5.010 ms)"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("750000000"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("stalled at 5.000 ms"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("20.000 ms"), std::string::npos) << r.text;
  const auto j = nlohmann::json::parse(r.json);
  EXPECT_TRUE(j["makespan_s"].is_null());
  EXPECT_TRUE(j["unbounded"].get<bool>());
  ASSERT_EQ(j["unfinished"].size(), 1U);
  EXPECT_EQ(j["unfinished"][0]["bytes_left"].get<double>(), 750'000'000.0);
  EXPECT_NE(r.csv.find(",stalled,750000000,"), std::string::npos) << r.csv;
}

// "N flows rerouted" counts flows: eight flows leave leaf 0 for leaf 1 on the four spine cables
// (ECMP); spine 0's cables go down at 1 us and come back at 2 us (routing converges at once). The
// flows hashed onto spine 0 move to spine 1 and then back: two moves each, one flow counted once.
TEST(HonestReport, ReroutedCountsFlowsNotMoves) {
  const Fabric fabric = fixtures::fixture_fabric(fixture());
  Scenario s;
  for (const FaultKind kind : {FaultKind::kDown, FaultKind::kRepair}) {
    FaultSpec f;
    f.kind = kind;
    f.links = {LinkId(8), LinkId(9), LinkId(12), LinkId(13)};  // both leaves' cables to spine 0
    f.at = TimePs(kind == FaultKind::kDown ? 1'000'000 : 2'000'000);
    f.fraction = kind == FaultKind::kDown ? 0.0 : 1.0;
    s.faults.push_back(f);
  }
  std::string table = "flow,src,dst,bytes,udp_src_port\n";
  for (int i = 0; i < 8; ++i) table += fmt::format("{},host{}/nic0,host{}/nic0,100000000,{}\n", i, i % 4, 4 + i % 4, 49152 + 7 * i);
  const Outcome r = run(fabric, s, table);
  std::uint64_t moved = 0;
  std::uint64_t moves = 0;
  for (const FlowRecord& f : r.result.flows) {
    moved += f.reroutes > 0 ? 1 : 0;
    moves += f.reroutes;
    EXPECT_TRUE(f.reroutes == 0 || f.reroutes == 2);
  }
  ASSERT_GT(moved, 0U);
  EXPECT_EQ(r.result.rerouted_flows, moved);
  EXPECT_EQ(r.result.reroutes, moves);
  EXPECT_EQ(moves, 2 * moved);
  EXPECT_NE(r.text.find(fmt::format("{} flows rerouted ({} moves)", moved, moves)), std::string::npos) << r.text;
}

// Port-to-port transfers involve no GPU: the GPUs column says "-", JSON 0.
TEST(HonestReport, PortTransfersShowNoGpus) {
  const Fabric fabric = fixtures::fixture_fabric(fixture());
  Scenario s;
  TransferSpec x;
  x.name = "ports";
  x.src.is_port = x.dst.is_port = true;
  x.src.port = VertexId(0);
  x.dst.port = VertexId(5);
  x.bytes = Bytes(1'000'000);
  s.transfers.push_back(x);
  const Outcome r = run(fabric, s, "");
  const auto j = nlohmann::json::parse(r.json);
  EXPECT_EQ(j["operations"][0]["gpus"].get<int>(), 0);
  const std::size_t row = r.text.find("ports ");
  ASSERT_NE(row, std::string::npos);
  const std::string line = r.text.substr(row, r.text.find('\n', row) - row);
  EXPECT_NE(line.find(" - "), std::string::npos) << line;
  EXPECT_EQ(line.find(" 2 "), std::string::npos) << line;
}

// Issue 10 item 3: mice at 1e-320 arrivals per second would start after the end of time. Refused
// with the unit; a rate that fits is taken.
TEST(HonestReport, MiceArrivalRateIsRangeChecked) {
  const Fabric fabric = fixtures::fixture_fabric(fixture());
  Scenario s;
  MiceSpec m;
  m.name = "rpc";
  m.count = 2;
  m.bytes = Bytes(65536);
  m.arrivals_per_s = 1e-320;
  m.hosts = {0, 1, 2, 3, 4, 5, 6, 7};
  s.mice.push_back(m);
  auto r = simulate(fabric, s);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(format_diagnostics(r.errors()).find("arrivals per second"), std::string::npos) << format_diagnostics(r.errors());
  s.mice[0].arrivals_per_s = 5e-6;  // 2 mice over 2e5 s on average: beyond a tenth of the time range
  EXPECT_FALSE(simulate(fabric, s).ok());
  s.mice[0].arrivals_per_s = 1e3;
  const auto ok = simulate(fabric, s);
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->unbounded);
}

// A mouse whose NIC dies before it arrives never runs: the report says so.
TEST(HonestReport, MiceThatNeverFinishAreNamed) {
  const Fabric fabric = fixtures::fixture_fabric(fixture());
  Scenario s;
  MiceSpec m;
  m.name = "rpc";
  m.count = 2;
  m.bytes = Bytes(65536);
  m.start = TimePs(1'000'000);
  m.hosts = {0, 4};
  s.mice.push_back(m);
  FaultSpec down;
  down.kind = FaultKind::kDown;
  down.links = {LinkId(0)};
  s.faults.push_back(down);
  const Outcome r = run(fabric, s, "");
  EXPECT_TRUE(r.result.unbounded);
  EXPECT_NE(r.text.find("Flows that never finish"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("rpc"), std::string::npos);
}

}  // namespace
}  // namespace ct
