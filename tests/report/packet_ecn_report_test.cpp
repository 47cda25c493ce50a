// ECN marks per port and priority and CNPs per flow in a packet run's report, JSON and flows CSV
// (report/simulate_report.h). The fixture: one leaf, three single-NIC hosts, links of 400 Gb/s and
// 100 ns, the RoCE v2 hardware of examples/lab-32-roce.yaml (SN5600: Ethernet, so PFC, ECN and
// DCQCN), two priorities (--vls 2: a flow's priority is its channel mod 2), 1 MiB of buffer per port
// and priority, the DCQCN paper's thresholds (Kmin 5 KB, Kmax 200 KB).
//
// Hosts 0 and 1 send 16 MiB each to host 2 on one channel (priority 0): the leaf's port to host 2
// queues past Kmin and marks. Host 0 also sends one transfer of 8 KiB on two channels, 100 us into
// the incast: one packet of 4 KiB on each priority. The one on priority 1 is the only packet of
// its priority at that port, so it leaves nothing of its priority behind and is never marked
// (RED reads the packet's priority's queue): priority 1 has 0 marks at every port, priority 0 all
// of the port's.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/straggler.h"
#include "report/simulate_report.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "support/report_run.h"
#include "traffic/flow_table.h"

namespace ct {
namespace {

TransferSpec transfer(std::string name, std::uint32_t src, std::uint32_t dst, Bytes bytes, std::uint32_t channels) {
  TransferSpec x;
  x.name = std::move(name);
  x.src.gpu = src;
  x.dst.gpu = dst;
  x.bytes = bytes;
  x.channels = channels;
  return x;
}

using PacketRun = fixtures::ReportRun;

// `kmin`, `kmax`: the RED thresholds (bytes); `vls`: priorities.
void run(PacketRun& r, std::int64_t kmin, std::int64_t kmax, std::uint8_t vls) {
  r.topology = fixtures::two_tier(1, 1, 3);
  r.topology.gpus_per_host = 1;
  for (auto& l : r.topology.latency) l = TimePs(100'000);
  r.fabric.emplace(fabric_over(fixtures::example_spec("examples/lab-32-roce.yaml"), fixtures::test_catalog(), r.topology,
                               EcmpConfig{}));
  Scenario s;
  s.transfers.push_back(transfer("a", 0, 2, Bytes(16 << 20), 1));
  s.transfers.push_back(transfer("b", 1, 2, Bytes(16 << 20), 1));
  s.transfers.push_back(transfer("mouse", 0, 2, Bytes(8 << 10), 2));
  s.transfers.back().start = TimePs(100'000'000);
  SimulationOptions o;
  o.engine = EngineKind::kPacket;
  o.packet.vls = vls;
  o.packet.switch_latency = TimePs(200'000);
  o.packet.buffer_bytes = 1 << 20;
  o.packet.cut_through = true;
  o.packet.ecn.kmin_bytes = kmin;
  o.packet.ecn.kmax_bytes = kmax;
  r.simulate_and_keep(s, o, "ecn");
}

// The flows CSV's ecn_marks and cnps cells of each row (the two before the last, out_of_order),
// by row; the header's names of the last three.
std::vector<std::pair<std::int64_t, std::int64_t>> signal_columns(const std::string& csv, std::string& header) {
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;
  std::size_t at = 0;
  bool first = true;
  while (at < csv.size()) {
    const std::size_t end = csv.find('\n', at);
    const std::string line = csv.substr(at, end - at);
    at = end + 1;
    const std::size_t c = line.rfind(',');
    const std::size_t b = line.rfind(',', c - 1);
    const std::size_t a = line.rfind(',', b - 1);
    if (first) {
      header = line.substr(a + 1);
      first = false;
      continue;
    }
    rows.emplace_back(std::stoll(line.substr(a + 1, b - a - 1)), std::stoll(line.substr(b + 1, c - b - 1)));
  }
  return rows;
}

TEST(PacketEcnReport, MarksPerPortAndPriority) {
  PacketRun r;
  run(r, 5000, 200000, 2);
  const SimulationResult& res = r.result;
  ASSERT_TRUE(res.packet.dcqcn);
  ASSERT_EQ(res.packet.ecn_marks_by_class.size(), res.resources.size() * 2);
  std::int64_t p0 = 0;
  for (std::uint32_t c = 0; c < res.resources.size(); ++c) {
    EXPECT_EQ(ecn_marks_of_class(res, c, 0) + ecn_marks_of_class(res, c, 1), res.stats[c].ecn_marks);
    EXPECT_EQ(ecn_marks_of_class(res, c, 1), 0);
    p0 += ecn_marks_of_class(res, c, 0);
  }
  EXPECT_GT(p0, 0);
  // The mouse's priority-1 flow crossed the marking port and saw its deep queue.
  const std::string text = simulate_text(*r.in);
  EXPECT_NE(text.find(fmt::format("mark(s) summed over ports (priority 0: {}, priority 1: 0)", p0)), std::string::npos)
      << text;
  EXPECT_NE(text.find("ECN marks per port and priority"), std::string::npos);
  EXPECT_NE(text.find(fmt::format("host2/nic0 -- p0/leaf/0 down  {:>9}  {:>10}           0", p0, p0)), std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  const auto& d = j["packet"]["dcqcn"];
  EXPECT_EQ(d["ecn_marks_by_priority"], nlohmann::json::array({p0, 0}));
  ASSERT_EQ(d["most_marks"].size(), 1u);  // one port marked: the leaf's towards host 2
  EXPECT_EQ(d["most_marks"][0]["ecn_marks"].get<std::int64_t>(), p0);
  EXPECT_EQ(d["most_marks"][0]["ecn_marks_by_priority"], nlohmann::json::array({p0, 0}));
}

// The flows CSV of a packet run ends with ecn_marks, cnps (and out_of_order): each flow's CNPs as the JSON's
// most_cnps gives them (every flow with a CNP, the top being 10), summing to the run's; the
// priority-1 mouse flow 0 and 0. The table reads back as a flow table (the columns are results).
TEST(PacketEcnReport, FlowsCsvCarriesCnpsAndMarks) {
  PacketRun r;
  run(r, 5000, 200000, 2);
  std::string header;
  const std::string csv = simulate_flows_csv(*r.in);
  const auto rows = signal_columns(csv, header);
  EXPECT_EQ(header, "ecn_marks,cnps,out_of_order");
  ASSERT_EQ(rows.size(), r.result.flows.size());
  std::int64_t cnps = 0;
  for (std::size_t f = 0; f < rows.size(); ++f) {
    EXPECT_EQ(rows[f].first, r.result.flows[f].ecn_marks);
    EXPECT_EQ(rows[f].second, r.result.flows[f].cnps);
    EXPECT_LE(rows[f].second, rows[f].first);  // a CNP answers a marked packet
    cnps += rows[f].second;
    if (r.result.flows[f].channel % 2 == 1) {
      EXPECT_EQ(rows[f], std::make_pair(std::int64_t{0}, std::int64_t{0}));
    }
  }
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  EXPECT_EQ(j["packet"]["dcqcn"]["cnps"].get<std::int64_t>(), cnps);
  EXPECT_GT(cnps, 0);
  std::size_t with_cnps = 0;
  for (const auto& row : rows) with_cnps += row.second > 0 ? 1 : 0;
  ASSERT_EQ(j["packet"]["dcqcn"]["most_cnps"].size(), with_cnps);
  for (const auto& e : j["packet"]["dcqcn"]["most_cnps"]) {
    EXPECT_EQ(rows[e["flow"].get<std::size_t>()].second, e["cnps"].get<std::int64_t>());
  }
  auto back = parse_flow_table("flows.csv", csv, r.fabric->names());
  ASSERT_TRUE(back.ok()) << format_diagnostics(back.errors());
  EXPECT_EQ(back->flows.size(), rows.size());
}

// Below the threshold (Kmin = Kmax = 64 MiB, above any queue the 1 MiB buffers allow): no marks,
// the CNP column 0 on every row.
TEST(PacketEcnReport, CnpColumnIsZeroBelowTheThreshold) {
  PacketRun r;
  run(r, 64 << 20, 64 << 20, 2);
  std::string header;
  const auto rows = signal_columns(simulate_flows_csv(*r.in), header);
  ASSERT_EQ(rows.size(), r.result.flows.size());
  for (const auto& row : rows) EXPECT_EQ(row, std::make_pair(std::int64_t{0}, std::int64_t{0}));
  const auto j = nlohmann::json::parse(simulate_json(*r.in));
  EXPECT_EQ(j["packet"]["dcqcn"]["cnps"].get<std::int64_t>(), 0);
  EXPECT_EQ(j["packet"]["dcqcn"]["ecn_marks_by_priority"], nlohmann::json::array({0, 0}));
}

// The flow engine's flows CSV has no such columns: its header ends with path, as before.
TEST(PacketEcnReport, FlowEngineCsvUnchanged) {
  Topology t = fixtures::two_tier(1, 1, 3);
  t.gpus_per_host = 1;
  Scenario s;
  s.transfers.push_back(transfer("a", 0, 2, Bytes(1 << 20), 1));
  auto res = simulate(fixtures::fixture_fabric(t), s);
  ASSERT_TRUE(res.ok());
  const WorkerAccount w = account_workers(res.value());
  const NameDirectory names(t);
  const std::string csv = simulate_flows_csv(SimulateReportInput{t, names, res.value(), w, "flow"});
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "flow,operation,instance,iteration,step,channel,qp,src,dst,udp_src_port,bytes,weight,start_s,after,delay_s,"
            "end_s,rate_gbps,reroutes,status,bytes_left,path");
}

}  // namespace
}  // namespace ct
