// Where a run's outputs go, end to end through the binary (the CLI audit of 2026-12-07, items 3,
// 6, 7 and 8):
//   - two outputs of one run to one place (stdout twice, or one file spelt two ways) are a usage
//     error (exit 2) naming both options, and nothing is written: for every command with two or
//     more output options, found in its --help (an option whose help says it writes);
//   - the report printed on stdout when -o is not given counts as an output to stdout, except
//     beside --html - and --sarif -, which take stdout over by design (their help says so);
//   - an HTML page shows the command line without the options that cannot change it (--threads,
//     the outputs' names), so the page is the same bytes for any of them;
//   - topology takes --json as every command does, and reports progress on stderr only.
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/files.h"
#include "support/cli_runner.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;
using Ran = ct::testing_support::CliRun;

const std::string kSource = ct::testing_support::source_dir();
std::string src(const std::string& path) { return "'" + kSource + "/" + path + "'"; }

Ran clustertwin(const std::string& args) { return ct::testing_support::run_clustertwin(args); }

fs::path work_dir(const std::string& name) {
  const fs::path dir = fs::path(ct::testing_support::binary_dir()) / "tests" / "cli" / "work" / ("outputs_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The commands and nested commands listed under "Subcommands:" of `clustertwin [PATH] --help`.
std::vector<std::string> subcommands(const std::string& path) {
  const Ran help = clustertwin(path + " --help");
  EXPECT_EQ(help.rc, 0) << path;
  std::vector<std::string> names;
  std::istringstream in(help.out);
  std::string line;
  bool listed = false;
  while (std::getline(in, line)) {
    if (line == "Subcommands:") {
      listed = true;
    } else if (listed && line.size() > 2 && line[0] == ' ' && line[2] != ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

// The options of `clustertwin PATH --help` whose help says they write a file: "Write ...", "Also
// write ...", "Packet engine: write ...". Named by their long form, "-o" for -o,--output.
std::vector<std::string> output_options(const std::string& path) {
  const Ran help = clustertwin(path + " --help");
  EXPECT_EQ(help.rc, 0) << path;
  static const std::regex kOutput(R"(^\s+(-o,)?(--[a-z-]+) TEXT\s+([A-Z][a-z ]*: )?(Also )?[Ww]rite )");
  std::vector<std::string> names;
  std::istringstream in(help.out);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, kOutput)) names.push_back(m[1].matched ? "-o" : m[2].str());
  }
  return names;
}

// A run of each command that succeeds with every output left to its default.
const std::map<std::string, std::string>& base_runs() {
  static const std::map<std::string, std::string> runs = {
      {"break", src("examples/platform/manifests") + " --dns " + src("examples/platform/dns/named.conf") + " --spec " +
                    src("examples/platform/cluster.yaml") + " --node node-3"},
      {"diagnose", src("examples/lab/fat-tree-4.yaml") + " --counters " + src("tests/golden/diagnose/lab-before.prom") + " " +
                       src("tests/golden/diagnose/lab-after.prom") + " --map " + src("tests/golden/diagnose/lab-map.csv")},
      {"hash", src("examples/lab-32-roce.yaml") + " --elephants 2 --trials 100 --threads 1"},
      {"lint", src("examples/platform/manifests") + " --dns " + src("examples/platform/dns/named.conf") + " --fail-on none"},
      {"plan", src("examples/lab-32.yaml")},
      {"reliability", src("examples/lab-32.yaml") + " --repair-hours 24 --trials 20 --threads 1"},
      {"route", src("examples/platform/manifests") + " --request 'GET https://api.example.com/v1/models'"},
      {"routes", src("examples/platform/manifests")},
      {"simulate", src("examples/lab-32.yaml") + " --collective all-reduce --bytes 64KiB --gpus '[0, 8]' --engine packet "
                                                 "--switch-latency 300ns --switch-buffer 8KiB --forwarding store-and-forward"},
      {"spof", src("examples/platform/manifests") + " --dns " + src("examples/platform/dns/named.conf")},
      {"sweep", src("examples/sweeps/lab-32-shapes.yaml") + " --threads 1"},
      {"trace", "'GET https://api.example.com/v1/models' " + src("examples/platform/manifests") + " --from inside --dns " +
                    src("examples/platform/dns/named.conf")},
      {"traffic", src("examples/lab-32.yaml") + " --ss " + src("tests/golden/traffic/host-ss.txt")},
      {"ib route", src("examples/lab-32.yaml")},
  };
  return runs;
}
// Commands with two outputs that cannot run here: `lab counters` reads a running lab's namespaces.
const std::set<std::string> kNeedsALab = {"lab counters"};

// Outputs that take stdout over from the report when -o is not given (their help says so).
bool owns_stdout(const std::string& option) { return option == "--html" || option == "--sarif"; }

// Every command with two or more outputs: a pair of them to stdout, and -o beside each other one to
// one file spelt two ways (x.out and ./x.out), is exit 2 naming both, with nothing written (a third
// output, where there is one, aimed at a file that must not appear); each output to stdout beside
// the default report likewise, unless it takes stdout over.
TEST(SharedDestinations, EveryCommandRefusesTwoOutputsToOnePlace) {
  std::vector<std::string> commands;
  for (const std::string& c : subcommands("")) {
    const auto nested = subcommands(c);
    if (nested.empty()) commands.push_back(c);
    for (const std::string& n : nested) commands.push_back(c + " " + n);
  }
  ASSERT_GE(commands.size(), 25U);
  std::size_t checked = 0;
  for (const std::string& command : commands) {
    const std::vector<std::string> outputs = output_options(command);
    if (outputs.size() < 2 || command.rfind("export ", 0) == 0) continue;  // export: -o is a folder, its files apart
    if (kNeedsALab.count(command) > 0) continue;
    ASSERT_EQ(base_runs().count(command), 1U) << "no base run for '" << command << "': add one to base_runs()";
    const std::string base = command + " " + base_runs().at(command);
    const fs::path dir = work_dir(std::regex_replace(command, std::regex(" "), "_"));
    auto third = [&](const std::string& a, const std::string& b) {
      for (const std::string& c : outputs) {
        if (c != a && c != b) return " " + c + " '" + (dir / "third.out").string() + "'";
      }
      return std::string();
    };
    auto expect_clash = [&](const std::string& args, const std::string& a, const std::string& b) {
      const Ran r = clustertwin(args);
      EXPECT_EQ(r.rc, 2) << args << "\n" << r.err;
      EXPECT_NE(r.err.find(a), std::string::npos) << args << "\n" << r.err;
      EXPECT_NE(r.err.find(b), std::string::npos) << args << "\n" << r.err;
      EXPECT_EQ(r.out, "") << args;
      EXPECT_TRUE(fs::is_empty(dir)) << args << ": a file was written";
      ++checked;
    };
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      for (std::size_t j = i + 1; j < outputs.size(); ++j) {
        const std::string& a = outputs[i];
        const std::string& b = outputs[j];
        expect_clash(base + " " + a + " - " + b + " -" + third(a, b), a + " -", b + " -");
        if (a != "-o" && b != "-o") continue;
        const std::string other = a == "-o" ? b : a;
        expect_clash(base + " -o '" + (dir / "x.out").string() + "' " + other + " '" + (dir / "." / "x.out").string() + "'" +
                         third("-o", other),
                     "-o", other);
      }
      const std::string& a = outputs[i];
      if (a == "-o") continue;
      if (owns_stdout(a)) {
        const Ran r = clustertwin(base + " " + a + " -");
        EXPECT_EQ(r.rc, 0) << command << " " << a << " -\n" << r.err;
      } else {
        expect_clash(base + " " + a + " -" + third(a, "-o"), a + " -", "the report (stdout, no -o)");
      }
    }
  }
  EXPECT_GE(checked, 60U);  // 14 commands; simulate alone has 6 outputs
}

// The clash is found on the command line, before anything is loaded or run: with a spec that does
// not exist the run would fail on it (exit 1), but the clash comes first (exit 2), so a long sweep
// or simulate does not learn it at its end. Nested commands (ib route) too.
TEST(SharedDestinations, AClashIsRefusedBeforeTheRun) {
  const fs::path dir = work_dir("before_the_run");
  const std::string missing = "'" + (dir / "missing.yaml").string() + "'";
  const std::string x = "'" + (dir / "x.csv").string() + "'";
  const std::string dot_x = "'" + (dir / "." / "x.csv").string() + "'";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"simulate " + missing + " --collective all-reduce --bytes 1MiB --csv-links - --csv-flows -", {"--csv-links -", "--csv-flows -"}},
      {"simulate " + missing + " --collective all-reduce --bytes 1MiB -o " + x + " --csv-flows " + dot_x, {"-o", "--csv-flows"}},
      {"sweep " + missing + " --csv " + x + " --jsonl " + dot_x, {"--csv", "--jsonl"}},
      {"ib route " + missing + " --lft - --html -", {"--lft -", "--html -"}},
  };
  for (const auto& [args, named] : cases) {
    const Ran r = clustertwin(args);
    EXPECT_EQ(r.rc, 2) << args << "\n" << r.err;
    for (const std::string& n : named) EXPECT_NE(r.err.find(n), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find("missing.yaml"), std::string::npos) << "the spec was read first: " << r.err;
    EXPECT_TRUE(fs::is_empty(dir)) << args << ": a file was written";
  }
  // Without the clash the same command fails on the spec: the order above is the check's, not chance.
  const Ran spec = clustertwin("simulate " + missing + " --collective all-reduce --bytes 1MiB --csv-links " + x);
  EXPECT_EQ(spec.rc, 1) << spec.err;
  EXPECT_NE(spec.err.find("missing.yaml"), std::string::npos) << spec.err;
}

// The page shows the command line less the options that cannot change it: two thread counts and
// two output names give the same bytes, for hash, reliability and sweep (each page also names
// the spec, which is kept).
TEST(HtmlCommandLine, SameBytesForAnyThreadCountAndOutputNames) {
  const fs::path dir = work_dir("html");
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"hash", "hash " + src("examples/lab-32-roce.yaml") + " --elephants 8 --trials 300 --seed 3"},
      {"reliability", "reliability " + src("examples/lab-32.yaml") + " --repair-hours 24 --trials 50"},
      {"sweep", "sweep " + src("examples/sweeps/lab-32-shapes.yaml")},
  };
  for (const auto& [name, args] : runs) {
    const Ran one = clustertwin(args + " --threads 1 --html -");
    const Ran two = clustertwin(args + " --threads=2 --quiet --html " + (dir / (name + ".html")).string() + " -o " +
                                (dir / (name + ".txt")).string() + " --json");
    ASSERT_EQ(one.rc, 0) << one.err;
    ASSERT_EQ(two.rc, 0) << two.err;
    const std::string page = read_text_file((dir / (name + ".html")).string()).value();
    EXPECT_EQ(one.out, page) << name;
    EXPECT_EQ(page.find("--threads"), std::string::npos) << name;
    EXPECT_EQ(page.find(".html"), std::string::npos) << name;
    EXPECT_NE(page.find("data-command-line>$ clustertwin " + name + " " + kSource), std::string::npos) << name;
  }
}

// topology --json is --format json; --json beside --format dot is a usage error (before the
// fabric is built).
TEST(Topology, JsonFlagIsFormatJson) {
  const std::string spec = src("examples/lab-32.yaml");
  const Ran json = clustertwin("topology " + spec + " --json");
  const Ran format = clustertwin("topology " + spec + " --format json");
  ASSERT_EQ(json.rc, 0) << json.err;
  EXPECT_EQ(json.out, format.out);
  EXPECT_EQ(nlohmann::json::parse(json.out)["hosts"], 32);
  EXPECT_EQ(clustertwin("topology " + spec + " --json --format json").out, format.out);
  const Ran both = clustertwin("topology " + spec + " --json --format dot");
  EXPECT_EQ(both.rc, 2);
  EXPECT_NE(both.err.find("--json"), std::string::npos) << both.err;
  EXPECT_NE(both.err.find("--format dot"), std::string::npos) << both.err;
  EXPECT_EQ(both.out, "");
}

// topology --progress reports on stderr, ending at every vertex and link written; stdout is the
// same bytes as without it, and --quiet prints nothing.
TEST(Topology, ProgressOnStderrOnly) {
  const std::string args = "topology " + src("examples/lab-32.yaml");
  const Ran plain = clustertwin(args);
  const Ran progress = clustertwin(args + " --progress");
  const Ran quiet = clustertwin(args + " --progress --quiet");
  ASSERT_EQ(progress.rc, 0) << progress.err;
  EXPECT_EQ(progress.out, plain.out);
  EXPECT_EQ(quiet.out, plain.out);
  EXPECT_EQ(quiet.err, "");
  const nlohmann::json t = nlohmann::json::parse(plain.out);
  const std::size_t total = t["vertices"].size() + t["links"].size();
  EXPECT_NE(progress.err.find("topology: " + std::to_string(total) + " of " + std::to_string(total) + " vertices and links (100%)"),
            std::string::npos)
      << progress.err;
}

}  // namespace
}  // namespace ct
