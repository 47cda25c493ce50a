// `clustertwin topology` run as a process on the bundled examples.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/files.h"
#include "io/loaders.h"
#include "topology/builder.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

const std::string kCatalog = ct::testing_support::source_dir() + "/catalog";
const std::string kLab32 = ct::testing_support::source_dir() + "/examples/lab-32.yaml";

fs::path work_dir(const std::string& name) {
  const fs::path dir = fs::path(ct::testing_support::binary_dir()) / "tests" / "topology" / "work" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Exit status of a shell command line.
int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string clustertwin(const std::string& args) {
  return std::string("'") + ct::testing_support::clustertwin_binary() + "' topology " + args + " --catalog '" + kCatalog + "'";
}

TEST(TopologyCommand, JsonMatchesTheInProcessBuild) {
  // lab-32: 32 HGX H100 x 8 ConnectX-7 at 400G on QM9700 (64 x 400G), 1:1 -> 8 rail leaves of
  // 32 down / 32 up, 4 spines (smallest S | 32 with 64 S >= 256), 8 cables per pair:
  // 256 ports + 12 switches, 256 + 256 = 512 links.
  const fs::path dir = work_dir("json");
  const fs::path out = dir / "lab-32.json";
  ASSERT_EQ(run(clustertwin("'" + kLab32 + "' --format json -o '" + out.string() + "'")), 0)
      << "see the diagnostics above";
  const auto text = read_text_file(out.string());
  ASSERT_TRUE(text.ok());
  const auto json = nlohmann::json::parse(text.value());
  ASSERT_EQ(json["vertices"].size(), 268U);
  ASSERT_EQ(json["links"].size(), 512U);

  const auto catalog = load_catalog(kCatalog);
  ASSERT_TRUE(catalog.ok()) << format_diagnostics(catalog.errors());
  const auto spec = load_spec(kLab32, catalog.value());
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  const Topology t = build_topology(spec.value(), catalog.value());
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    ASSERT_EQ(json["vertices"][v]["name"], t.vertex_name(VertexId(v)));
  }
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    ASSERT_EQ(json["links"][l]["a"], t.link_a[l].value());
    ASSERT_EQ(json["links"][l]["b"], t.link_b[l].value());
  }
  EXPECT_EQ(json["vertices"][0]["rail"], 0);
  EXPECT_EQ(json["vertices"][256]["kind"], "switch");
  EXPECT_EQ(json["links"][0]["capacity_bps"], 400'000'000'000LL);
}

TEST(TopologyCommand, DotRendersWithGraphviz) {
  if (run("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "Graphviz `dot` is not installed";
  const fs::path dir = work_dir("dot");
  const fs::path gv = dir / "lab-32.gv";
  const fs::path svg = dir / "lab-32.svg";
  const fs::path err = dir / "dot.err";
  ASSERT_EQ(run(clustertwin("'" + kLab32 + "' --format dot -o '" + gv.string() + "'")), 0);
  ASSERT_EQ(run("dot -Tsvg '" + gv.string() + "' -o '" + svg.string() + "' 2>'" + err.string() + "'"), 0);
  EXPECT_EQ(read_text_file(err.string()).value(), "") << "Graphviz warnings";
  const std::string image = read_text_file(svg.string()).value();
  EXPECT_NE(image.find("<svg"), std::string::npos);
  EXPECT_NE(image.find("plane 0"), std::string::npos);
  EXPECT_NE(image.find("p0/spine/3"), std::string::npos);
}

TEST(TopologyCommand, BadSpecExitsOneWithDiagnosticsAndWritesNothing) {
  const fs::path dir = work_dir("bad");
  const fs::path spec = dir / "bad.yaml";
  const fs::path out = dir / "out.json";
  const fs::path err = dir / "stderr.txt";
  ASSERT_TRUE(write_file_atomic(spec.string(),
                                "name: bad\nnodes: {model: hgx-h100, count: 4}\nbackend:\n  switch: no-such-switch\n")
                  .ok());
  EXPECT_EQ(run(clustertwin("'" + spec.string() + "' -o '" + out.string() + "' 2>'" + err.string() + "'")), 1);
  const std::string message = read_text_file(err.string()).value();
  EXPECT_NE(message.find("bad.yaml:4:"), std::string::npos) << message;
  EXPECT_NE(message.find("backend.switch"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(out));
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

// The B300 example has 1,024 hosts x 8 NICs x 2 planes = 16,384 backend ports, 2 x 192 switches,
// and a frontend of 1,024 x 4 ports (2 BlueField-3 x 2 x 200G) on 22 leaves and 8 spines: far above
// 2,000 vertices, so `--format dot` writes the aggregated view by default and says so (DOT comment
// and stderr). One node per (network, plane, tier, pod) group: per backend plane NIC ports, leaves,
// spines (2 x 3), and the frontend's ports, leaves, spines (3): 9 nodes; edges port-leaf and
// leaf-spine per plane and in the frontend: 6. Graphviz renders it (no timing asserted).
TEST(TopologyCommand, AggregatedDotOfB300Renders) {
  if (run("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "Graphviz `dot` is not installed";
  const fs::path dir = work_dir("aggregate");
  const fs::path gv = dir / "b300.gv";
  const fs::path svg = dir / "b300.svg";
  const fs::path err = dir / "stderr.txt";
  const std::string spec = ct::testing_support::source_dir() + "/examples/b300-dual-plane.yaml";
  ASSERT_EQ(run(clustertwin("'" + spec + "' --format dot -o '" + gv.string() + "' 2>'" + err.string() + "'")), 0);
  EXPECT_NE(read_text_file(err.string()).value().find("aggregated view"), std::string::npos);
  const std::string dot = read_text_file(gv.string()).value();
  EXPECT_NE(dot.find("// aggregated view"), std::string::npos);
  EXPECT_NE(dot.find("8,192 x 400G = 3276.8T"), std::string::npos) << "NIC-leaf links of one plane";
  ASSERT_EQ(run("dot -Tsvg '" + gv.string() + "' -o '" + svg.string() + "' 2>'" + err.string() + "'"), 0);
  EXPECT_EQ(read_text_file(err.string()).value(), "") << "Graphviz warnings";
  const std::string image = read_text_file(svg.string()).value();
  EXPECT_EQ(count_of(image, "class=\"node\""), 9U);
  EXPECT_EQ(count_of(image, "class=\"edge\""), 6U);
  EXPECT_NE(image.find("22 leaves"), std::string::npos) << "frontend leaves";
  // Asked for explicitly, the full view is still there; a small fabric is drawn in full by default.
  EXPECT_EQ(run(clustertwin("'" + spec + "' --format dot --view full -o '" + gv.string() + "' 2>'" + err.string() + "'")), 0);
  EXPECT_EQ(read_text_file(err.string()).value(), "");
  EXPECT_NE(read_text_file(gv.string()).value().find("p1/spine/63"), std::string::npos);
  EXPECT_EQ(run(clustertwin("'" + kLab32 + "' --format dot -o '" + gv.string() + "' 2>'" + err.string() + "'")), 0);
  EXPECT_EQ(read_text_file(err.string()).value(), "");
  EXPECT_EQ(read_text_file(gv.string()).value().find("aggregated"), std::string::npos);
}

// A value outside an option's set is bad input (exit 1), as the README's exit-code rule says.
TEST(TopologyCommand, UnknownFormatIsABadValue) {
  EXPECT_EQ(run(clustertwin("'" + kLab32 + "' --format svg >/dev/null 2>&1")), 1);
}

}  // namespace
}  // namespace ct
