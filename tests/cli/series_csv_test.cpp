// simulate --csv-series, one value worked out by hand (tests/golden/flows/series-shared-downlink.csv):
//
// Two flows into host1/nic0 on examples/lab-32.yaml (400 Gb/s ports), both from t = 0: flow 0
// host0/nic0 -> host1/nic0, 1 GiB; flow 1 host2/nic0 -> host1/nic0, 512 MiB. Max-min gives each
// half of host1's downlink, 200 Gb/s, so flow 1 ends at t1 = 2^32 bits / 200e9 b/s = 21.47483648 ms;
// flow 0 has 512 MiB left and ends at 21.47483648 + 2^32 / 400e9 = 32.21225472 ms, the makespan.
// The series has 50 bins of ceil(makespan / 50) = 644245095 ps; t1 falls in bin 33, which starts
// at 33 x 644245095 = 21260088135 ps, a fraction f = 214748345 / 644245095 = 1/3 of the bin
// before t1. host0/nic0's uplink carries 200 Gb/s before t1 and 400 Gb/s after, so its mean
// utilization in bin 33 is 0.5 f + 1 (1 - f) = 0.833333; host2/nic0's uplink 0.5 f = 0.166667.
// The test takes t1, the makespan and the bin from the run's own figures (--csv-flows and the
// series' bin bounds), checks them against the hand values, and the two utilizations against both.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/csv_cursor.h"
#include "io/files.h"
#include "support/cli_runner.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

// Every line of a CSV text, cut into cells by the one CSV cursor (core/csv_cursor.h).
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  CsvCursor csv("csv", text);
  std::string_view line;
  while (csv.next_line(line)) {
    EXPECT_TRUE(csv.split(line)) << line;
    std::vector<std::string> cells;
    for (const CsvCell& c : csv.cells()) cells.emplace_back(c.text);
    rows.push_back(std::move(cells));
  }
  return rows;
}

TEST(SeriesCsv, UtilizationOfTheBinWhereAFlowEndsMatchesTheHandValue) {
  const std::string source = ct::testing_support::source_dir();
  const fs::path dir = fs::path(ct::testing_support::binary_dir()) / "tests" / "cli" / "work" / "series_csv";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto r = ct::testing_support::run_clustertwin(
      "simulate '" + source + "/examples/lab-32.yaml' --flows '" + source +
      "/tests/golden/flows/series-shared-downlink.csv' --csv-series '" + (dir / "series.csv").string() + "' --csv-flows '" +
      (dir / "flows.csv").string() + "' -o /dev/null");
  ASSERT_EQ(r.rc, 0) << r.err;

  // The run's figures: flow 1's end (t1) and flow 0's (the makespan).
  const auto flows = csv_rows(read_text_file((dir / "flows.csv").string()).value());
  ASSERT_EQ(flows.size(), 3U);
  ASSERT_EQ(flows[0][0], "flow");
  const auto end_column = static_cast<std::size_t>(std::find(flows[0].begin(), flows[0].end(), "end_s") - flows[0].begin());
  ASSERT_LT(end_column, flows[0].size());
  const double t1 = std::stod(flows[2][end_column]);
  const double makespan = std::stod(flows[1][end_column]);
  EXPECT_DOUBLE_EQ(t1, 0.021474836480);
  EXPECT_DOUBLE_EQ(makespan, 0.032212254720);

  // The series: bins of one width, 50 of them, the first bin of each link starting at 0.
  const auto series = csv_rows(read_text_file((dir / "series.csv").string()).value());
  ASSERT_EQ(series[0], (std::vector<std::string>{"link", "bin_start_s", "bin_end_s", "utilization"}));
  const double width = std::stod(series[1][2]);
  EXPECT_DOUBLE_EQ(width, 644245095e-12);
  std::map<std::string, std::vector<std::vector<std::string>>> by_link;
  for (std::size_t i = 1; i < series.size(); ++i) by_link[series[i][0]].push_back(series[i]);
  const std::string up0 = "host0/nic0 -- p0/leaf/0 up";
  const std::string up2 = "host2/nic0 -- p0/leaf/0 up";
  const std::string down1 = "host1/nic0 -- p0/leaf/0 down";
  for (const std::string& link : {up0, up2, down1}) ASSERT_EQ(by_link[link].size(), 50U) << link;

  const auto bin = static_cast<std::size_t>(t1 / width);
  ASSERT_EQ(bin, 33U);
  const double start = std::stod(by_link[up0][bin][1]);
  const double f = (t1 - start) / width;
  EXPECT_NEAR(f, 1.0 / 3.0, 1e-6);
  EXPECT_NEAR(std::stod(by_link[up0][bin][3]), 0.5 * f + 1.0 * (1 - f), 1e-6);
  EXPECT_NEAR(std::stod(by_link[up2][bin][3]), 0.5 * f, 1e-6);
  EXPECT_EQ(by_link[up0][bin][3], "0.833333");
  EXPECT_EQ(by_link[up2][bin][3], "0.166667");
  // Either side of that bin: shared (0.5 each) before, flow 0 alone after; host1's downlink full.
  EXPECT_EQ(by_link[up0][bin - 1][3], "0.500000");
  EXPECT_EQ(by_link[up0][bin + 1][3], "1.000000");
  EXPECT_EQ(by_link[up2][bin + 1][3], "0.000000");
  for (const auto& row : by_link[down1]) EXPECT_EQ(row[3], "1.000000") << row[1];
}

}  // namespace
}  // namespace ct
