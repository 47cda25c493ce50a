// The simulate page's figures (report/simulate_html.h) on hand-computed runs.
#include "report/simulate_html.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "sim/flow/flow_simulation.h"
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
// 0.33554432 ms through 24 points. One iteration: the timeline's row rises and falls once (4 points).
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
  const std::string html = simulate_html(SimulateReportInput{topology, r.value(), workers, "ring"}, "clustertwin simulate x");

  EXPECT_EQ(all(plot(html, "completion-cdf"), R"re(class="ct-line" data-series="ar" data-points="(\d+)")re"),
            std::vector<std::string>{"24"});
  EXPECT_EQ(all(plot(html, "timeline"), R"re(class="ct-line" data-series="ar" data-points="(\d+)")re"),
            std::vector<std::string>{"4"});
  const auto busbw = all(plot(html, "busbw"), R"re(class="ct-bar" data-series="[^"]*" data-category="ar" data-value="([^"]+)")re");
  ASSERT_EQ(busbw.size(), 2U);
  for (const std::string& v : busbw) EXPECT_NEAR(std::stod(v), 50.0, 1e-9);
  EXPECT_NE(html.find("clustertwin simulate x"), std::string::npos);
  // The text report is on the page as well.
  EXPECT_NE(html.find("Top bottleneck links"), std::string::npos);
}

// 1000 completed flows of one transfer, flow i taking (i + 1) ms: more than kCdfPoints = 256, so
// the CDF keeps 256 nearest-rank quantiles (ranks ceil(k x 1000 / 256), k = 1..256; the last is
// rank 1000, 100 %). Nothing else in the run: no series, no collective, so no utilization plot and
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
  const std::string html = simulate_html(SimulateReportInput{topology, r, workers, "many"}, "clustertwin simulate y");
  EXPECT_EQ(all(plot(html, "completion-cdf"), R"re(data-points="(\d+)")re"), std::vector<std::string>{"256"});
  EXPECT_EQ(plot(html, "link-utilization"), "");
  EXPECT_EQ(plot(html, "busbw"), "");
  EXPECT_NE(html.find("No collective ran to completion"), std::string::npos);
}

}  // namespace
}  // namespace ct
