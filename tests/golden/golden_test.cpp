// Golden files: the outputs of `clustertwin plan` (text and JSON) for every bundled example and of
// `clustertwin topology` (JSON and DOT) for the small ones, produced through the library exactly as
// the CLI produces them, compared byte for byte with tests/golden/expected/. A difference prints the
// first differing lines. To accept a change on purpose:
//   CT_UPDATE_GOLDEN=1 ./build/tests/golden/golden_test     (or: make golden)
// and review the diff of tests/golden/expected/ before committing it.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/files.h"
#include "io/loaders.h"
#include "plan/planner.h"
#include "report/html/html_document.h"
#include "report/html/svg_chart.h"
#include "report/plan_report.h"
#include "report/topology_export.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "fabric/fabric.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

const std::string kExamples = ct::testing_support::source_dir() + "/examples";
const std::string kExpected = ct::testing_support::source_dir() + "/tests/golden/expected";
// Examples small enough for their whole topology to be a readable golden file.
const std::vector<std::string> kSmallExamples = {"homelab", "lab-32"};

enum class Output { kPlanText, kPlanJson, kTopologyJson, kTopologyDot, kChartGallery };

struct GoldenCase {
  std::string example;  // file stem in examples/
  Output output;
  std::string file;     // name in tests/golden/expected/
};

// GoogleTest prints a parameter it cannot format as its bytes, which made ctest's names hundreds of
// characters long (and different every run): print the file name instead.
void PrintTo(const GoldenCase& c, std::ostream* out) { *out << c.file; }

std::vector<GoldenCase> golden_cases() {
  std::vector<std::string> stems;
  for (const auto& entry : fs::directory_iterator(kExamples)) {
    if (entry.path().extension() == ".yaml") stems.push_back(entry.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  std::vector<GoldenCase> cases;
  for (const auto& stem : stems) {
    cases.push_back({stem, Output::kPlanText, stem + ".plan.txt"});
    cases.push_back({stem, Output::kPlanJson, stem + ".plan.json"});
    if (std::find(kSmallExamples.begin(), kSmallExamples.end(), stem) != kSmallExamples.end()) {
      cases.push_back({stem, Output::kTopologyJson, stem + ".topology.json"});
      cases.push_back({stem, Output::kTopologyDot, stem + ".topology.dot"});
    }
  }
  cases.push_back({"", Output::kChartGallery, "chart-gallery.html"});
  return cases;
}

// One chart of every kind of report/html in one document; tests/html/browser_check_selftest.py
// opens this golden in Chromium and checks its element counts.
std::string chart_gallery() {
  const std::string cmd = "clustertwin (chart gallery of golden_test)";
  HtmlDocument doc("chart gallery", cmd);
  doc.add_section("Bars", "bars");
  BarChart bars;
  bars.frame = {"gallery-bars", "Busiest link by scheme", "tier", "flows on the busiest link", cmd};
  bars.categories = {"leaf", "spine", "core"};
  bars.series = {{"crc16", {3, 2, 2}}, {"xor", {4, 1, 3}}, {"spray", {1, 1, 1}}};
  bars.references = {{2.5, "closed form"}};
  doc.add_figure(render_bar_chart(bars));
  doc.add_section("Lines", "lines");
  LineChart lines;
  lines.frame = {"gallery-lines", "Completion-time CDF", "completion time (ms)", "fraction of operations", cmd};
  lines.series = {{"ring", {{1, 0.2}, {2, 0.6}, {3, 1}}, true, true, false},
                  {"bound", {{0.5, 0}, {1.5, 0.5}, {2.5, 1}}, false, false, true}};
  doc.add_figure(render_line_chart(lines));
  doc.add_section("Histogram", "histogram");
  Histogram hist;
  hist.frame = {"gallery-histogram", "Destinations per uplink", "destinations", "uplinks", cmd};
  hist.series = {{"ftree", {{0, 4, 1}, {4, 8, 6}, {8, 12, 1}}}, {"updn", {{0, 4, 2}, {4, 8, 3}, {8, 12, 3}}}};
  doc.add_figure(render_histogram(hist));
  doc.add_section("Heat strip", "heat");
  HeatStrip heat;
  heat.frame = {"gallery-heat", "Uplink load per ECMP group", "member link", "flows", cmd};
  heat.rows = {{"p0/leaf/0", {2, 0, 1, 1}, {"spine/0", "spine/1", "spine/2", "spine/3"}}, {"p0/leaf/1", {1, 1, 1, 1}, {}}};
  doc.add_figure(render_heat_strip(heat));
  doc.add_section("Diagram", "diagram");
  NodeLinkDiagram d;
  d.frame = {"gallery-diagram", "Two tiers", "shapes are switch groups", "", cmd};
  d.layer_names = {"hosts", "leaf", "spine"};
  d.nodes = {{"hosts", "4 hosts", "32 NICs", 0, 4, 7}, {"leaf", "leaf", "4 x q", 1, 4, 0}, {"spine", "spine", "2 x q", 2, 2, 0}};
  d.edges = {{"hosts", "leaf", "32 x 400G", 32}, {"leaf", "spine", "16 x 400G", 16}};
  d.legend = {"plane 0"};
  doc.add_figure(render_node_link(d));
  doc.add_section("Timeline", "timeline");
  Timeline tl;
  tl.frame = {"gallery-timeline", "Operations over time", "time (ms)", "operation", cmd};
  tl.rows = {{"all-reduce", {{0, 4, "iteration 1", false}, {4, 9, "iteration 2", false}}},
             {"mice", {{1, 12, "iteration 1", true}}}};
  doc.add_figure(render_timeline(tl));
  doc.add_section("Scatter", "scatter");
  LineChart sc;
  sc.frame = {"gallery-scatter", "A Pareto front", "switches (lower is better)", "hours lost (lower is better)", cmd};
  LineSeries front{"on the Pareto front", {{384, 10.9}, {640, 9.5}}};
  LineSeries dominated{"dominated", {{640, 13.5}, {960, 12.5}, {1280, 11.5}}};
  front.scatter = dominated.scatter = dominated.faded = true;
  front.labels = {"point 2", "point 4"};
  sc.series = {front, dominated};
  doc.add_figure(render_line_chart(sc));
  return doc.render();
}

// The output as the CLI would write it, or the diagnostics when the example does not load.
std::string produce(const GoldenCase& c) {
  if (c.output == Output::kChartGallery) return chart_gallery();
  auto catalog = load_catalog(ct::testing_support::source_dir() + "/catalog");
  if (!catalog) return "catalog error:\n" + format_diagnostics(catalog.errors());
  // Read as the CLI reads it from the source root, so a located warning in the report (plan's
  // catalog gaps) names "examples/NAME.yaml" whatever the checkout's folder.
  auto text = read_text_file(kExamples + "/" + c.example + ".yaml");
  if (!text) return "spec error:\n" + format_diagnostics(text.errors());
  auto spec = validate_reading(read_spec("examples/" + c.example + ".yaml", text.value()), catalog.value());
  if (!spec) return "spec error:\n" + format_diagnostics(spec.errors());
  auto fabric = build_fabric(spec.value(), catalog.value());
  if (!fabric) return "build error:\n" + format_diagnostics(fabric.errors());
  const Topology& topology = fabric->topology();
  switch (c.output) {
    case Output::kPlanText: return to_text(plan(spec.value(), topology, catalog.value()));
    case Output::kPlanJson: return to_json(plan(spec.value(), topology, catalog.value()));
    case Output::kTopologyJson: return to_json(topology, catalog.value());
    case Output::kTopologyDot: return to_dot(topology);
    case Output::kChartGallery: break;
  }
  return "";
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A unified-diff-like hint: the first differing line with 2 lines of context and up to 6 lines of
// each side.
std::string diff_hint(const std::string& expected, const std::string& actual) {
  const auto e = split_lines(expected);
  const auto a = split_lines(actual);
  std::size_t first = 0;
  while (first < e.size() && first < a.size() && e[first] == a[first]) ++first;
  const std::size_t from = first >= 2 ? first - 2 : 0;
  std::ostringstream out;
  out << "@@ first difference at line " << first + 1 << " (expected " << e.size() << " lines, got " << a.size()
      << ") @@\n";
  for (std::size_t i = from; i < first; ++i) out << "  " << e[i] << "\n";
  for (std::size_t i = first; i < std::min(e.size(), first + 6); ++i) out << "- " << e[i] << "\n";
  for (std::size_t i = first; i < std::min(a.size(), first + 6); ++i) out << "+ " << a[i] << "\n";
  return out.str();
}

bool updating() {
  const char* v = std::getenv("CT_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

class Golden : public testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, MatchesExpectedFile) {
  const GoldenCase& c = GetParam();
  const std::string path = kExpected + "/" + c.file;
  const std::string actual = produce(c);
  if (updating()) {
    fs::create_directories(kExpected);
    ASSERT_TRUE(write_file_atomic(path, actual).ok()) << path;
    return;
  }
  auto expected = read_text_file(path);
  ASSERT_TRUE(expected.ok()) << path << " is missing: run CT_UPDATE_GOLDEN=1 " << "golden_test (make golden)";
  EXPECT_TRUE(expected.value() == actual)
      << path << " differs from the output; if the change is intended, run CT_UPDATE_GOLDEN=1 golden_test "
      << "(make golden) and review the diff\n"
      << diff_hint(expected.value(), actual);
}

std::string case_name(const testing::TestParamInfo<GoldenCase>& info) {
  std::string name = info.param.file;
  for (auto& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Examples, Golden, testing::ValuesIn(golden_cases()), case_name);

// Every expected file belongs to a case: a renamed or removed example leaves no stale golden file.
TEST(GoldenFiles, NoStaleExpectedFiles) {
  if (!fs::is_directory(kExpected)) GTEST_SKIP() << "no expected files yet";
  std::vector<std::string> known;
  for (const auto& c : golden_cases()) known.push_back(c.file);
  for (const auto& entry : fs::directory_iterator(kExpected)) {
    const auto name = entry.path().filename().string();
    EXPECT_NE(std::find(known.begin(), known.end(), name), known.end()) << "stale golden file " << name;
  }
}

}  // namespace
}  // namespace ct
