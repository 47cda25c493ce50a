// The simulate page's figures (report/simulate_html.h) on hand-computed runs.
#include "report/simulate_html.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "sim/simulation.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"

namespace ct {
namespace {

// The data-* hooks of one plot (svg_chart.h): the <svg data-plot=ID> element's text.
std::string plot(const std::string& html, const std::string& id) {
  const auto begin = html.find("data-plot=\"" + id + "\"");
  if (begin == std::string::npos) return "";
  return html.substr(begin, html.find("</svg>", begin) - begin);
}

std::vector<std::string> all(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1].str());
  }
  return out;
}

// Ring all-reduce of S = 64 MiB over n = 4 GPUs on one leaf (400 Gb/s NICs, no latency), stepwise:
// 2 (n - 1) = 6 steps of one S / n = 16 MiB flow per GPU, 24 flows, each alone on its NIC link:
// 2^27 bits / 4e11 b/s = 0.33554432 ms apiece, so the completion CDF is one step to 100 % at
// 0.33554432 ms: its start at 0 % and 24 points. One iteration: one bar on the timeline, from 0 to
// the six steps' 6 x 0.33554432 = 2.01326592 ms.
// busbw = 2(n-1)/n x S / t = 50 GB/s, the NIC's speed, and a non-blocking leaf has no collision to
// lose to: the bound's busbw is 50 GB/s too.
TEST(SimulateHtml, RingOnOneLeafWorkedByHand) {
  Topology topology = fixtures::two_tier(1, 1, 4);
  topology.gpus_per_host = 1;
  Scenario scenario;
  CollectiveSpec c;
  c.name = "ar";
  c.model = CollectiveModel::kStepwise;
  c.bytes = Bytes(64LL << 20);
  c.groups = {{0, 1, 2, 3}};
  scenario.collectives.push_back(c);
  auto r = simulate(fixtures::fixture_fabric(topology), scenario);
  ASSERT_TRUE(r.ok());
  const WorkerAccount workers = account_workers(r.value());
  const NameDirectory names(topology);
  const std::string html = simulate_html(SimulateReportInput{topology, names, r.value(), workers, "ring"}, "clustertwin simulate x");

  EXPECT_EQ(all(plot(html, "completion-cdf"), R"re(class="ct-line" data-series="ar" data-points="(\d+)")re"),
            std::vector<std::string>{"25"});
  const auto spans = all(plot(html, "timeline"), R"re(class="ct-span" data-row="ar" data-span="0" data-start="0" data-end="([^"]+)")re");
  ASSERT_EQ(spans.size(), 1U);
  EXPECT_NEAR(std::stod(spans[0]), 6 * 0.33554432, 1e-9);
  // The makespan as the numbers policy prints it (page_numbers.h): 2.01 ms, not 0.00201326592.
  EXPECT_NE(html.find("<td>makespan</td><td>2.01 ms</td>"), std::string::npos);
  const auto busbw = all(plot(html, "busbw"), R"re(class="ct-bar" data-series="[^"]*" data-category="ar" data-value="([^"]+)")re");
  ASSERT_EQ(busbw.size(), 2U);
  for (const std::string& v : busbw) EXPECT_NEAR(std::stod(v), 50.0, 1e-9);
  EXPECT_NE(html.find("clustertwin simulate x"), std::string::npos);
  // The text report is on the page as well.
  EXPECT_NE(html.find("Top bottleneck links"), std::string::npos);
}

// 1000 completed flows of one transfer, flow i taking (i + 1) ms: more than kCdfPoints = 256, so
// the CDF keeps 256 nearest-rank quantiles (ranks ceil(k x 1000 / 256), k = 1..256; the last is
// rank 1000, 100 %), after the CDF's start at 0 % (257 points). Nothing else in the run: no series, no collective, so no utilization plot and
// no busbw bars.
TEST(SimulateHtml, LongCompletionCdfIsSampledAtNearestRanks) {
  const Topology topology = fixtures::two_tier(1, 1, 2);
  SimulationResult r;
  OperationResult op;
  op.name = "t";
  op.kind = OperationKind::kTransfer;
  op.iterations = {IterationSpan{TimePs(0), TimePs(1000LL * 1'000'000'000)}};
  op.flows_end = 1000;
  r.operations.push_back(op);
  for (int i = 0; i < 1000; ++i) {
    FlowRecord f;
    f.start = TimePs(0);
    f.end = TimePs((i + 1) * 1'000'000'000LL);
    r.flows.push_back(f);
  }
  r.makespan = TimePs(1000LL * 1'000'000'000);
  const WorkerAccount workers;
  const NameDirectory names(topology);
  const std::string html = simulate_html(SimulateReportInput{topology, names, r, workers, "many"}, "clustertwin simulate y");
  EXPECT_EQ(all(plot(html, "completion-cdf"), R"re(data-points="(\d+)")re"), std::vector<std::string>{"257"});
  EXPECT_EQ(plot(html, "link-utilization"), "");
  EXPECT_EQ(plot(html, "busbw"), "");
  EXPECT_NE(html.find("No collective ran to completion"), std::string::npos);
}

// Issue 23 item 15: an operation of one flow (1 ms) has a one-point CDF; it starts at 0 %, so the
// line rises at 1 ms from 0 to 100 % (two points, a vertical step) and carries markers.
TEST(SimulateHtml, OneFlowOperationDrawsAVisibleStep) {
  const Topology topology = fixtures::two_tier(1, 1, 2);
  SimulationResult r;
  OperationResult op;
  op.name = "t";
  op.kind = OperationKind::kTransfer;
  op.iterations = {IterationSpan{TimePs(0), TimePs(1'000'000'000)}};
  op.flows_end = 1;
  r.operations.push_back(op);
  FlowRecord f;
  f.start = TimePs(0);
  f.end = TimePs(1'000'000'000);
  r.flows.push_back(f);
  r.makespan = TimePs(1'000'000'000);
  const NameDirectory names(topology);
  const std::string html = simulate_html(SimulateReportInput{topology, names, r, WorkerAccount{}, "one"}, "clustertwin simulate z");
  const std::string cdf = plot(html, "completion-cdf");
  EXPECT_EQ(all(cdf, R"re(data-points="(\d+)")re"), std::vector<std::string>{"2"});
  EXPECT_EQ(all(cdf, R"re(class="ct-point" data-series="t" data-x="1" data-y="([^"]+)")re"), (std::vector<std::string>{"0", "100"}));
}

}  // namespace
}  // namespace ct
