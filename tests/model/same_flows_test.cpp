// Same flows, same routes (issue 24 item 3): a flow's UDP source port, hence its ECMP path, is a
// function of the flow's identity (its two ends and QP index channel x qps + qp, traffic/flow.h
// connection_source_port) and the seed, never of the input's format or order.
//
// Fabric: two leaves of four single-NIC hosts with two GPUs each (16 GPUs), two spines, two
// parallel cables per leaf-spine pair: a flow between the leaves has 4 equal-cost paths, so a
// different source port moves a flow with probability 3/4 (tests/support/fabric_fixtures.h
// two_tier_16_gpus); NVLink 900 GB/s per GPU. For every kind of scenario, `--csv-flows` of the run
// fed back as a flow table must give every flow the same ends, source port, bytes, route, start
// and end (to the picosecond); the scenario's faults come with the replay, as `simulate --flows
// FILE --scenario faults.yaml` gives them. And a table that names only the flows (no source port,
// no route), rows shuffled, must draw the very ports the scenario drew and so take the same routes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/straggler.h"
#include "core/rng.h"
#include "report/simulate_report.h"
#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "traffic/flow_table.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

const Fabric& fabric() {
  static const Fabric f = fixtures::fixture_fabric(fixtures::two_tier_16_gpus(), 900e9);
  return f;
}

// A CSV as rows of cells (the flows CSV quotes nothing on this fabric; checked).
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  explicit Csv(const std::string& text) {
    EXPECT_EQ(text.find('"'), std::string::npos);
    std::size_t at = 0;
    bool first = true;
    while (at < text.size()) {
      const std::size_t end = text.find('\n', at);
      const std::string line = text.substr(at, end - at);
      at = end + 1;
      std::vector<std::string> cells;
      for (std::size_t b = 0; b <= line.size();) {
        const std::size_t e = std::min(line.find(',', b), line.size());
        cells.push_back(line.substr(b, e - b));
        b = e + 1;
      }
      (first ? header : rows.emplace_back()) = std::move(cells);
      first = false;
    }
  }
  [[nodiscard]] std::size_t column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  }
  [[nodiscard]] const std::string& cell(std::size_t row, const std::string& name) const { return rows[row][column(name)]; }
  // The table of `columns` only, rows in `order` (indices into rows).
  [[nodiscard]] std::string select(const std::vector<std::string>& columns, const std::vector<std::size_t>& order) const {
    std::string out;
    for (std::size_t i = 0; i < columns.size(); ++i) out += (i > 0 ? "," : "") + columns[i];
    out += '\n';
    for (const std::size_t r : order) {
      for (std::size_t i = 0; i < columns.size(); ++i) out += (i > 0 ? "," : "") + cell(r, columns[i]);
      out += '\n';
    }
    return out;
  }
};

Scenario scenario_of(const std::string& yaml) {
  auto s = parse_scenario("kind.yaml", yaml, fabric());
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : format_diagnostics(s.errors())) << yaml;
  return s.ok() ? std::move(s).value() : Scenario{};
}

// The --csv-flows of `s` run alone, or of `s`'s faults, path model and seed with `table`.
std::string flows_csv(const Scenario& s, const std::string& table) {
  std::optional<FlowTable> parsed;
  if (!table.empty()) {
    auto t = parse_flow_table("flows.csv", table, fabric().names());
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : format_diagnostics(t.errors()));
    if (!t.ok()) return "";
    parsed = std::move(t).value();
  }
  Scenario run = s;
  if (parsed) run.collectives.clear(), run.transfers.clear(), run.mice.clear();
  auto r = simulate(fabric(), run, parsed ? &*parsed : nullptr);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  if (!r.ok()) return "";
  const WorkerAccount workers = account_workers(r.value());
  return simulate_flows_csv({fabric().topology(), fabric().names(), r.value(), workers, "same flows"});
}

// Row `order[i]` of `original` is row i of `replay`: the same flow, the same everything.
void expect_same_flows(const Csv& original, const Csv& replay, const std::vector<std::size_t>& order,
                       const std::string& kind) {
  ASSERT_EQ(replay.rows.size(), order.size()) << kind;
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (const char* c : {"src", "dst", "udp_src_port", "bytes", "start_s", "end_s", "path", "status"}) {
      EXPECT_EQ(replay.cell(i, c), original.cell(order[i], c)) << kind << ": row " << order[i] << ", column " << c;
    }
  }
}

std::string port(std::uint32_t host) { return fmt::format("host{}/nic0", host); }

// Each kind of scenario on the fixture; every one has flows between the leaves.
std::vector<std::pair<std::string, std::string>> kinds() {
  std::string permutation = "scenario:\n  seed: 7\n  transfers:\n";
  for (std::uint32_t h = 0; h < 8; ++h) {
    permutation += fmt::format("    - {{name: p{}, src: {}, dst: {}, bytes: {}MB, qps: 2}}\n", h, port(h),
                               port((h + 5) % 8), 3 + 2 * h);
  }
  const auto collective = [](const std::string& fields) {
    return "scenario:\n  seed: 3\n  collectives:\n    - {bytes: 8MiB, " + fields + "}\n";
  };
  return {
      {"permutation of ports", permutation},
      {"transfers between GPUs",
       "scenario:\n  transfers:\n    - {name: a, src: host0/gpu1, dst: host5/gpu0, bytes: 20MB, channels: 2, qps: 2}\n"
       "    - {name: b, src: host1/gpu0, dst: host6/gpu1, bytes: 12MB, start: 30us}\n"
       "    - {name: c, src: host2/gpu0, dst: host2/gpu1, bytes: 4MB}\n"},
      {"ring, pipelined", collective("kind: all-reduce, algorithm: ring, qps: 2")},
      {"ring, stepwise, 2 iterations", collective("kind: all-reduce, algorithm: ring, model: stepwise, iterations: 2, compute: 20us")},
      {"tree", collective("kind: all-reduce, algorithm: tree")},
      {"halving-doubling", collective("kind: all-reduce, algorithm: halving-doubling, model: stepwise")},
      {"hierarchical", collective("kind: all-reduce, algorithm: hierarchical")},
      {"all-to-all", collective("kind: all-to-all, algorithm: direct")},
      {"all-gather per host", collective("kind: all-gather, gpus: {hosts: [0, 7], per: rail, order: random}")},
      {"sharp, stepwise", collective("kind: all-reduce, algorithm: sharp, model: stepwise, iterations: 2")},
      {"mice", "scenario:\n  seed: 5\n  mice:\n    - {name: rpc, count: 40, bytes: 256KiB, arrivals_per_s: 1e5, hosts: [0, 7]}\n"},
      {"degraded spine cable",
       permutation + "  faults:\n    - {kind: degrade, link: \"p0/leaf/0 -- p0/spine/0\", parallel: 0, fraction: 0.5, at: 10us}\n"},
      {"adaptive", "scenario:\n  paths: adaptive\n" + permutation.substr(std::string("scenario:\n").size())},
  };
}

TEST(SameFlows, CsvFlowsFedBackGiveTheSameFlowsForEveryKindOfScenario) {
  for (const auto& [kind, yaml] : kinds()) {
    const Scenario s = scenario_of(yaml);
    const Csv original(flows_csv(s, ""));
    ASSERT_FALSE(original.rows.empty()) << kind;
    std::vector<std::size_t> order(original.rows.size());
    std::iota(order.begin(), order.end(), 0);
    const Csv replay(flows_csv(s, original.select(original.header, order)));
    expect_same_flows(original, replay, order, kind);
  }
}

// Sprayed flows are written with their shares, which a table refuses: with the paths emptied the
// fabric sprays them again, over the same members.
TEST(SameFlows, SprayedFlowsFedBackWithoutPathsSprayAlike) {
  const Scenario s = scenario_of("scenario:\n  paths: spray\n  transfers:\n    - {name: x, src: " + port(0) + ", dst: " +
                                 port(5) + ", bytes: 10MB}\n    - {name: y, src: " + port(1) + ", dst: " + port(6) +
                                 ", bytes: 30MB}\n");
  const Csv original(flows_csv(s, ""));
  std::vector<std::string> columns = original.header;
  columns.erase(std::find(columns.begin(), columns.end(), "path"));
  const Csv replay(flows_csv(s, original.select(columns, {0, 1})));
  expect_same_flows(original, replay, {0, 1}, "spray");
}

// The flows alone, as a user would write them: no source port, no route, no results; the rows
// shuffled and numbered anew. Each row's connection (its ends and its qp) draws the port the
// scenario drew, so every flow takes the same path and ends at the same time; under adaptive
// routing too, which places a batch's flows in an order of what they are, not of the rows. Fails
// when a table's port depends on the row's id or place (before issue 24: drawn per flow id, so
// 12.40 ms against 9.51 ms on 8,192 such flows).
TEST(SameFlows, AShuffledTableOfTheSameFlowsDrawsTheScenariosPorts) {
  for (const auto& [kind, yaml] : kinds()) {
    if (kind != "permutation of ports" && kind != "mice" && kind != "degraded spine cable" && kind != "adaptive") continue;
    const Scenario s = scenario_of(yaml);
    const Csv original(flows_csv(s, ""));
    std::vector<std::size_t> order(original.rows.size());
    std::iota(order.begin(), order.end(), 0);
    Rng rng(99, 0, 0);
    for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng.uniform(i + 1)]);
    std::string table = original.select({"src", "dst", "bytes", "start_s", "qp"}, order);
    // New ids, in the new order: `flow` first.
    std::string numbered = "flow," + table.substr(0, table.find('\n') + 1);
    std::size_t at = table.find('\n') + 1;
    for (std::size_t i = 0; at < table.size(); ++i) {
      const std::size_t end = table.find('\n', at);
      numbered += fmt::format("{},{}\n", 1000 + 7 * i, table.substr(at, end - at));
      at = end + 1;
    }
    const Csv replay(flows_csv(s, numbered));
    expect_same_flows(original, replay, order, kind + ", shuffled table");
  }
}

// Two transfers between the same two ports in a scenario are one connection (QP 0): one port, one
// path; a table naming them twice agrees. And a compact table (flow,src,dst,bytes) of a
// permutation draws what the scenario of its transfers draws.
TEST(SameFlows, ACompactTableAndTheScenarioOfItsTransfersAgree) {
  std::string yaml = "scenario:\n  transfers:\n";
  std::string table = "flow,src,dst,bytes\n";
  for (std::uint32_t h = 0; h < 8; ++h) {
    yaml += fmt::format("    - {{name: t{}, src: {}, dst: {}, bytes: 5MB}}\n", h, port(h), port((h + 4) % 8));
    table += fmt::format("{},{},{},5MB\n", 40 - h, port(h), port((h + 4) % 8));
  }
  yaml += fmt::format("    - {{name: again, src: {}, dst: {}, bytes: 5MB}}\n", port(0), port(4));
  table += fmt::format("7,{},{},5MB\n", port(0), port(4));
  const Scenario s = scenario_of(yaml);
  const Csv original(flows_csv(s, ""));
  const Csv replay(flows_csv(s, table));
  std::vector<std::size_t> order(original.rows.size());
  std::iota(order.begin(), order.end(), 0);
  expect_same_flows(original, replay, order, "compact table");
  EXPECT_EQ(original.cell(0, "udp_src_port"), original.cell(8, "udp_src_port"));
  EXPECT_EQ(original.cell(0, "path"), original.cell(8, "path"));
}

}  // namespace
}  // namespace ct
