// The clustertwin binary run as a process: the CLI's rules that no single command owns (issue 10
// items 5, 7, 8, 22, 23). Each test states the rule it holds the binary to:
//   - outputs: every file of a run is written, or none (io/output_set.h);
//   - ranges: thread counts, seeds and flow counts are refused with their range, never wrapped,
//     truncated or crashed on;
//   - exit codes: 1 for bad input (files and values), 2 for usage (README "Exit codes");
//   - --json carries the numbers the text prints (both parsed here, independently);
//   - progress goes to stderr only, and stdout is the same bytes with or without it.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
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

const std::string kSource = ct::testing_support::source_dir();
const std::string kLab32 = kSource + "/examples/lab-32.yaml";
const std::string kRoce = kSource + "/examples/lab-32-roce.yaml";

using Ran = ct::testing_support::CliRun;

fs::path work_dir(const std::string& name) {
  const fs::path dir = fs::path(ct::testing_support::binary_dir()) / "tests" / "cli" / "work" / ("hardening_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Ran clustertwin(const std::string& args, const std::string& prefix = "") {
  return ct::testing_support::run_clustertwin(args, prefix);
}

void write(const fs::path& path, const std::string& text) { ASSERT_TRUE(write_file_atomic(path.string(), text).ok()); }
std::string slurp(const fs::path& path) { return read_text_file(path.string()).value(); }
std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}
std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// A run that fails: exit code `rc`, and each of `says` somewhere on stderr.
void expect_fails(const Ran& r, int rc, const std::vector<std::string>& says) {
  EXPECT_EQ(r.rc, rc) << r.err;
  for (const std::string& s : says) EXPECT_NE(r.err.find(s), std::string::npos) << "no \"" << s << "\" in: " << r.err;
}

// `clustertwin ARGS` and `clustertwin ARGS --json`, both exiting 0: the text and the parsed JSON.
struct TextAndJson {
  std::string text;
  nlohmann::json json;
};
void run_text_and_json(const std::string& args, TextAndJson& out) {
  const Ran text = clustertwin(args);
  const Ran json = clustertwin(args + " --json");
  ASSERT_EQ(text.rc, 0) << text.err;
  ASSERT_EQ(json.rc, 0) << json.err;
  out = TextAndJson{text.out, nlohmann::json::parse(json.out)};
}

// ---- item 5: all outputs or none ----------------------------------------------------------------

// simulate writes --csv-links, --csv-flows and -o; -o names a folder, so the run fails: the CSV that
// existed keeps its bytes, the one that did not is not created, and no temporary is left behind.
TEST(Outputs, SimulateWritesNoneWhenTheLastOutputFails) {
  const fs::path dir = work_dir("simulate");
  write(dir / "links.csv", "old links\n");
  fs::create_directories(dir / "report");
  const Ran r = clustertwin("simulate " + kLab32 + " --collective all-reduce --bytes 1MiB --csv-links " +
                            q(dir / "links.csv") + " --csv-flows " + q(dir / "flows.csv") + " -o " + q(dir / "report"));
  expect_fails(r, 1, {"report", "is a folder"});
  EXPECT_EQ(slurp(dir / "links.csv"), "old links\n");
  EXPECT_FALSE(fs::exists(dir / "flows.csv"));
  EXPECT_EQ(entries(dir), 2U);  // links.csv and the folder: no temporaries, no backups
  EXPECT_TRUE(fs::is_empty(dir / "report"));
  // The control: with a writable -o every file is written.
  const Ran ok = clustertwin("simulate " + kLab32 + " --collective all-reduce --bytes 1MiB --csv-links " +
                             q(dir / "links.csv") + " --csv-flows " + q(dir / "flows.csv") + " -o " + q(dir / "out.txt"));
  ASSERT_EQ(ok.rc, 0) << ok.err;
  EXPECT_NE(slurp(dir / "links.csv"), "old links\n");
  EXPECT_TRUE(fs::exists(dir / "flows.csv"));
  EXPECT_TRUE(fs::exists(dir / "out.txt"));
  EXPECT_EQ(entries(dir), 4U);
}

// ib route --lft L -o OUT: an -o in a folder that does not exist leaves no LFT file either.
TEST(Outputs, IbRouteWritesNoLftWhenTheReportCannotBeWritten) {
  const fs::path dir = work_dir("ib_route");
  expect_fails(clustertwin("ib route " + kLab32 + " --lft " + q(dir / "lfts.dump") + " -o " + q(dir / "no" / "r.txt")), 1,
               {"nothing was written"});
  EXPECT_EQ(entries(dir), 0U);
}

// export dns -o FOLDER: one of the files to write is a folder there; none of the others appears.
TEST(Outputs, ExportWritesNoFileWhenOneCannotBeWritten) {
  const fs::path dir = work_dir("export");
  const Ran all = clustertwin("export dns " + kSource + "/examples/platform/dns/named.conf --json");
  ASSERT_EQ(all.rc, 0) << all.err;
  const auto files = nlohmann::json::parse(all.out);
  ASSERT_GE(files.size(), 2U);
  const std::string last = files.back()["name"];
  fs::create_directories(dir / last);
  expect_fails(clustertwin("export dns " + kSource + "/examples/platform/dns/named.conf -o " + q(dir)), 1, {});
  EXPECT_EQ(entries(dir), 1U);  // only the folder standing in the way
}

// topology -o FOLDER: refused, the folder untouched.
TEST(Outputs, TopologyRefusesAFolderAsOutput) {
  const fs::path dir = work_dir("topology");
  expect_fails(clustertwin("topology " + kLab32 + " -o " + q(dir)), 1, {"is a folder"});
  EXPECT_EQ(entries(dir), 0U);
}

// ---- item 7: ranges ----------------------------------------------------------------------------

TEST(Ranges, ThreadCountAboveTheLimitIsAValueError) {
  expect_fails(clustertwin("hash " + kRoce + " --trials 10 --threads 100000"), 1, {"--threads", "1024"});
}

// 1000 threads of 8 MiB stacks do not fit in 2 GB of address space, nor do 1000 workers' working
// memory: the indices beyond the thread cap share threads (and any thread the system refuses runs
// its share on the calling thread), and the result is the same bytes as with one thread. Before the
// cap, this run died of std::bad_alloc in about one of eight tries when the machine was busy.
TEST(Ranges, ThreadsTheSystemRefusesDoNotChangeTheResult) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of shadow memory: no ASan binary starts under ulimit -v";
#endif
  const std::string args = "hash " + kRoce + " --elephants 8 --trials 3000 --seed 3";
  const Ran one = clustertwin(args + " --threads 1");
  ASSERT_EQ(one.rc, 0) << one.err;
  const Ran many = clustertwin(args + " --threads 1000", "ulimit -v 2000000;");
  ASSERT_EQ(many.rc, 0) << many.err;
  EXPECT_EQ(many.out, one.out);
}

TEST(Ranges, SeedsOutsideSixtyFourBitsAreRefused) {
  for (const std::string seed : {"-1", "18446744073709551616", "1e3", "0x"}) {
    for (const std::string& command : {"hash " + kRoce + " --trials 0", "reliability " + kLab32 + " --trials 1",
                                       "ib route " + kLab32, "simulate " + kLab32 + " --collective all-reduce --bytes 1MiB"}) {
      SCOPED_TRACE(command + " --seed " + seed);
      expect_fails(clustertwin(command + " --seed " + seed), 1, {"18446744073709551615"});
    }
  }
  const Ran max = clustertwin("hash " + kRoce + " --trials 0 --seed 18446744073709551615");
  EXPECT_EQ(max.rc, 0) << max.err;
  const Ran hex = clustertwin("hash " + kRoce + " --trials 0 --seed 0xffffffffffffffff");
  EXPECT_EQ(hex.rc, 0) << hex.err;
  EXPECT_EQ(hex.out, max.out);
}

// With seed_mode: same the base seed is every switch's 32-bit seed: 0x100000001 would hash as 1.
TEST(Ranges, SpecSeedAboveThirtyTwoBitsIsRefusedWhereItIsRead) {
  const fs::path dir = work_dir("spec_seed");
  std::string spec = slurp(kSource + "/examples/lab/fat-tree-4.yaml");
  const auto at = spec.find("seed: 0x5EED");
  ASSERT_NE(at, std::string::npos);
  const int line = 1 + static_cast<int>(std::count(spec.begin(), spec.begin() + static_cast<long>(at), '\n'));
  spec.replace(at, 12, "seed: 0x100000001");
  write(dir / "seed.yaml", spec);
  expect_fails(clustertwin("plan " + q(dir / "seed.yaml")), 1,
               {"seed.yaml:" + std::to_string(line) + ":", "routing.ecmp.seed", "0xffffffff"});
  spec.replace(at, 17, "seed: 0xFFFFFFFF");
  write(dir / "seed.yaml", spec);
  EXPECT_EQ(clustertwin("plan " + q(dir / "seed.yaml")).rc, 0);
}

TEST(Ranges, ElephantsAboveTheCouplingBudgetAreRefusedWithTheReason) {
  expect_fails(clustertwin("hash " + kRoce + " --elephants 1000000 --trials 0"), 1, {"32768", "2^20 walks"});
}

// ---- item 8: one exit-code rule ---------------------------------------------------------------

TEST(ExitCodes, BadValuesExitOneUsageExitsTwo) {
  struct Case {
    std::string args;
    int rc;
  };
  const std::vector<Case> cases = {
      // bad values: out of range, not a number, not a member, names nothing
      {"ib route " + kLab32 + " --lmc 8", 1},
      {"ib route " + kLab32 + " --lmc -1", 1},
      {"ib export " + kLab32 + " --lids --lmc 9", 1},
      {"ib route " + kLab32 + " --engine frob", 1},
      {"ib route " + kLab32 + " --shifts -1", 1},
      {"hash " + kRoce + " --trials -1", 1},
      {"hash " + kRoce + " --size lots", 1},
      {"hash " + kRoce + " --fail nosuchlink --trials 0", 1},
      {"reliability " + kLab32 + " --trials 0", 1},
      {"reliability " + kLab32 + " --threads 2000", 1},
      {"simulate " + kLab32 + " --top x --collective all-reduce --bytes 1MiB", 1},
      {"topology " + kLab32 + " --format svg", 1},
      {"simulate " + kLab32 + " --engine frob --collective all-reduce --bytes 1MiB", 1},
      {"simulate " + kLab32 + " --engine packet --collective all-reduce --bytes 1MiB", 1},
      {"plan /nonexistent/spec.yaml", 1},
      {"alerts " + kSource + "/examples/lab/fat-tree-4.yaml --for 10", 1},
      {"alerts " + kSource + "/examples/lab/fat-tree-4.yaml --source snm", 1},
      {"route " + kSource + "/examples/platform/manifests --request https://api.example.com/ --gateway edg", 1},
      // usage: unknown command or option, missing argument or value
      {"frob", 2},
      {"plan", 2},
      {"plan " + kLab32 + " --frob", 2},
      {"ib route " + kLab32 + " --lmc", 2},
      {"ib route", 2},
      {"ib", 2},
      {"hash " + kRoce + " extra-flows.csv surplus", 2},
      {"ib roue", 2},
      {"routes " + kSource + "/examples/platform/manifests --bogus x", 2},
      // a flag that needs another: usage, either way round
      {"simulate " + kLab32 + " --bytes 1MiB", 2},
      {"simulate " + kLab32 + " --collective all-reduce", 2},
  };
  for (const Case& c : cases) {
    const Ran r = clustertwin(c.args);
    EXPECT_EQ(r.rc, c.rc) << "clustertwin " << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
    EXPECT_FALSE(r.err.empty()) << c.args;
  }
}

// ---- issue 26: simulate --engine flow|packet ------------------------------------------------------

// The packet engine needs its switch figures: the lab's qm9700 has none in the catalog (not
// published), so without --switch-latency the run is bad input (exit 1), one located diagnostic
// names the flag, no output file and nothing on stdout. With the figures it runs, adds its own
// section to the flow engine's report, and writes the same bytes twice. `--engine flow` is the
// default: the same bytes with and without it.
TEST(Engine, PacketNeedsSwitchFiguresAndFlowIsTheDefault) {
  const fs::path dir = work_dir("engine");
  const std::string run = "simulate " + kLab32 + " --collective all-reduce --bytes 1MiB";
  const Ran refused = clustertwin(run + " --engine packet -o " + (dir / "r.txt").string());
  expect_fails(refused, 1, {"the packet engine needs the switches' port-to-port latency", "--switch-latency"});
  EXPECT_TRUE(refused.out.empty());
  EXPECT_FALSE(fs::exists(dir / "r.txt"));
  const std::string packet_run = run + " --engine packet --switch-latency 300ns --switch-buffer 64KiB --forwarding cut-through";
  const Ran packet = clustertwin(packet_run);
  ASSERT_EQ(packet.rc, 0) << packet.err;
  EXPECT_NE(packet.out.find("Packet engine: MTU 4096 B"), std::string::npos);
  EXPECT_NE(packet.out.find("drops 0"), std::string::npos);
  EXPECT_EQ(clustertwin(packet_run).out, packet.out);
  const Ran plain = clustertwin(run);
  const Ran flow = clustertwin(run + " --engine flow");
  ASSERT_EQ(plain.rc, 0) << plain.err;
  ASSERT_EQ(flow.rc, 0) << flow.err;
  EXPECT_FALSE(plain.out.empty());
  EXPECT_EQ(flow.out, plain.out);
}

// ---- issue 26 review item 1: a printed cable name is read back ---------------------------------

// twin-uplinks has two cables from each rail leaf to the spine; the reports name them "p0/leaf/0
// -- p0/spine/0 #0" and "#1". A NIC-to-NIC transfer from leaf 0 to leaf 1 hashes onto #1. That name,
// pasted into a scenario fault, downs that one cable: the flow is rerouted onto #0 and finishes.
// Without "#k" the fault downs both (the flow stalls); a k past the bundle names its size.
TEST(Names, APrintedParallelCableNameFailsThatOneCable) {
  const fs::path dir = work_dir("cable_names");
  const auto run = [&](const std::string& link) {
    write(dir / "s.yaml", "scenario:\n  name: cut\n  transfers:\n    - {name: t0, src: host0/nic0, dst: host1/nic1, "
                          "bytes: 1MiB}\n  faults:\n    - {kind: down, link: \"" + link + "\", at: 0us}\n");
    return clustertwin("simulate " + kSource + "/examples/twin-uplinks.yaml --scenario " + q(dir / "s.yaml"));
  };
  const Ran healthy = run("p0/leaf/2 -- p0/spine/0 #1");
  ASSERT_EQ(healthy.rc, 0) << healthy.err;
  ASSERT_NE(healthy.out.find("p0/leaf/0 -- p0/spine/0 #1 up"), std::string::npos) << healthy.out;
  const Ran one = run("p0/leaf/0 -- p0/spine/0 #1");
  ASSERT_EQ(one.rc, 0) << one.err;
  EXPECT_NE(one.out.find("1 flows rerouted"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("p0/leaf/0 -- p0/spine/0 #0 up"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("p0/leaf/0 -- p0/spine/0 #1 up"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("never finish"), std::string::npos) << one.out;
  const Ran bundle = run("p0/leaf/0 -- p0/spine/0");
  ASSERT_EQ(bundle.rc, 0) << bundle.err;
  EXPECT_NE(bundle.out.find("1 of 1 flows never finish"), std::string::npos) << bundle.out;
  expect_fails(run("p0/leaf/0 -- p0/spine/0 #2"), 1,
               {"scenario.faults[0].link", "cable #2 does not exist (2 cable(s) join them, #0..#1)"});
}

// ---- issue 23 item 9: --version, and usage lines that do not name the build folder -------------

// --version exits 0 with "clustertwin X.Y.Z (commit C[-dirty])" on stdout, where C names a commit of
// this source tree's history that HEAD contains (in a fresh clone, as CI builds, HEAD itself; a
// binary built before the latest commits names an ancestor), and "unknown" only outside a git
// checkout. A made-up or truncated hash is no commit of the history and fails.
TEST(Version, NamesTheVersionAndTheCommitItWasBuiltFrom) {
  const Ran r = clustertwin("--version");
  EXPECT_EQ(r.rc, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.out, m, std::regex(R"(clustertwin [0-9]+\.[0-9]+\.[0-9]+ \(commit ([^ ()]+)\)\n)")))
      << r.out;
  const std::string inside = "git -C '" + kSource + "' rev-parse --is-inside-work-tree >/dev/null 2>&1";
  if (std::system(inside.c_str()) != 0) {
    EXPECT_EQ(m[1].str(), "unknown");
    return;
  }
  std::string commit = m[1].str();
  if (commit.ends_with("-dirty")) commit.resize(commit.size() - std::string("-dirty").size());
  ASSERT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{12}"))) << r.out;
  const std::string ancestor = "git -C '" + kSource + "' merge-base --is-ancestor " + commit + " HEAD >/dev/null 2>&1";
  EXPECT_EQ(std::system(ancestor.c_str()), 0) << commit << " is not a commit that HEAD contains";
}

TEST(Version, UsageLinesSayClustertwinNotThePathOfTheBinary) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--help", "Usage: clustertwin [OPTIONS] SUBCOMMAND"},
      {"plan --help", "Usage: clustertwin plan [OPTIONS] spec"},
      {"ib route --help", "Usage: clustertwin ib route [OPTIONS]"},
  };
  for (const auto& [args, usage] : cases) {
    const Ran r = clustertwin(args);
    EXPECT_EQ(r.rc, 0) << args << "\n" << r.err;
    EXPECT_NE(r.out.find(usage), std::string::npos) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find(ct::testing_support::clustertwin_binary()), std::string::npos) << args << "\n" << r.out;
  }
}

// ---- item 22: --json everywhere, with the text's numbers -------------------------------------

TEST(Json, EveryCommandOffersJson) {
  for (const std::string command : {"catalog", "diagnose", "hash", "plan", "reliability", "route", "routes", "simulate",
                                    "trace", "traffic", "ib route", "ib trace", "ib export", "export dns",
                                    "export bgp", "lab up", "lab run", "lab counters", "lab fail", "lab down"}) {
    const Ran r = clustertwin(command + " --help");
    EXPECT_EQ(r.rc, 0) << command;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << command << " has no --json";
  }
  // topology's output is JSON by default (--format json).
  EXPECT_NE(clustertwin("topology --help").out.find("json"), std::string::npos);
}

double number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(text, m, std::regex(pattern))) << pattern;
  return m.empty() ? -1 : std::stod(m[1].str());
}

TEST(Json, HashCarriesTheTextsNumbers) {
  TextAndJson run;
  ASSERT_NO_FATAL_FAILURE(run_text_and_json("hash " + kRoce + " --elephants 8 --trials 400 --seed 7 --threads 2 --compare", run));
  const auto& j = run.json;
  const std::string& t = run.text;
  EXPECT_EQ(j["flows"].size(), 8U);
  EXPECT_EQ(j["collisions"].size(), static_cast<std::size_t>(number(t, R"(Collisions: (\d+))")));
  EXPECT_NEAR(j["loads"]["slowest_bps"].get<double>() / 1e9, number(t, R"(slowest flow ([0-9.]+) Gb/s)"), 0.05);
  EXPECT_NEAR(j["loads"]["mean_bps"].get<double>() / 1e9, number(t, R"(slowest flow [0-9.]+ Gb/s, mean ([0-9.]+) Gb/s)"), 0.05);
  EXPECT_EQ(j["loads"]["uplinks"]["links"].get<double>(), number(t, R"(uplinks in play: (\d+))"));
  // Every link the text lists, with its flow count, by the cable's name (the JSON's "link"):
  // "p0/leaf/1 -- p0/spine/1 #7 down      2".
  const std::regex row(R"(^(\S+ -- \S+(?: #\d+)?) (up|down) +([0-9.]+)$)");
  std::size_t rows = 0;
  std::istringstream lines(t);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    bool found = false;
    for (const auto& l : j["loads"]["links"]) {
      if (l["link"].get<std::string>() == m[1].str() && l["direction"].get<std::string>() == m[2].str()) {
        EXPECT_FALSE(found) << "two JSON links named " << m[1].str() << " " << m[2].str();
        found = true;
        EXPECT_DOUBLE_EQ(l["flows"].get<double>(), std::stod(m[3].str()));
      }
    }
    EXPECT_TRUE(found) << line;
    ++rows;
  }
  EXPECT_EQ(rows, j["loads"]["links"].size());
  const auto& mc = j["monte_carlo"];
  EXPECT_EQ(mc["trials"].get<int>(), 400);
  EXPECT_NEAR(mc["p_first_collision"]["simulated"].get<double>(),
              number(t, R"(P\(collision on first-tier uplinks\) +([0-9.]+) ±)"), 5e-5);
  EXPECT_NEAR(mc["p_any_collision"]["simulated"].get<double>(),
              number(t, R"(P\(collision anywhere on the paths\) +([0-9.]+) ±)"), 5e-5);
  EXPECT_NEAR(mc["idle_first_tier_uplinks"]["simulated"].get<double>(),
              number(t, R"(E\[idle first-tier uplinks\] +([0-9.]+) ±)"), 5e-4);
  ASSERT_FALSE(j["comparison"]["schemes"].empty());
  for (const auto& scheme : j["comparison"]["schemes"]) {
    EXPECT_NE(t.find("\n" + scheme["scheme"].get<std::string>() + " "), std::string::npos) << scheme["scheme"];
  }
  EXPECT_NEAR(j["comparison"]["schemes"][0]["busiest"].get<double>(), number(t, R"(\nhash +([0-9.]+) )"), 5e-3);
}

TEST(Json, IbRouteCarriesTheTextsNumbers) {
  TextAndJson run;
  ASSERT_NO_FATAL_FAILURE(run_text_and_json("ib route " + kLab32 + " --engine updn --fail p0/spine/3", run));
  const auto& j = run.json;
  const std::string& t = run.text;
  EXPECT_EQ(j["subnet"]["switches"].get<double>(), number(t, R"(\): (\d+) switches)"));
  EXPECT_EQ(j["subnet"]["cables"].get<double>(), number(t, R"((\d+) cables\n)"));
  const auto& h = j["healthy"];
  EXPECT_EQ(h["lids"].get<double>(), number(t, R"(LMC \d+: (\d+) LIDs)"));
  EXPECT_EQ(h["reachability"]["delivered"].get<double>(), number(t, R"(Reachability: (\d+) of)"));
  EXPECT_EQ(h["reachability"]["pairs"].get<double>(), number(t, R"(Reachability: \d+ of (\d+))"));
  EXPECT_EQ(h["credit_loops"]["dependencies"].get<double>(), number(t, R"(none \((\d+) channel dependencies)"));
  EXPECT_EQ(h["shift_permutations"]["worst_max_load"].get<double>(),
            number(t, R"(Shift permutations \(\d+\): worst max link load (\d+))"));
  EXPECT_NEAR(h["random_permutations"]["mean_max_load"].get<double>(),
              number(t, R"(Random permutations \(\d+, seed \d+\): worst max link load \d+, mean ([0-9.]+))"), 5e-3);
  const auto& after = j["after_failures"];
  EXPECT_EQ(after["cables_left"].get<double>(), number(t, R"(cable\(s\): (\d+) cables left)"));
  const auto second = t.rfind("Shift permutations");
  EXPECT_EQ(after["routed"]["shift_permutations"]["worst_max_load"].get<double>(),
            number(t.substr(second), R"(worst max link load (\d+))"));
}

TEST(Json, IbTraceAndExportParse) {
  const Ran trace = clustertwin("ib trace host0/nic0 host20/nic3 --spec " + kLab32 + " --json");
  ASSERT_EQ(trace.rc, 0) << trace.err;
  const auto t = nlohmann::json::parse(trace.out);
  EXPECT_TRUE(t["healthy"]["delivered"].get<bool>());
  EXPECT_EQ(t["healthy"]["hops"][0]["node"].get<std::string>(), "host0/nic0");
  EXPECT_EQ(t["healthy"]["to"]["node"].get<std::string>(), "host20/nic3");
  TextAndJson run;
  ASSERT_NO_FATAL_FAILURE(run_text_and_json("ib export " + kLab32 + " --lids", run));
  const auto& e = run.json;
  EXPECT_EQ(e["ibnetdiscover"].get<std::string>(), run.text);
  EXPECT_EQ(e["lids"].size(), e["switches"].get<std::size_t>() + e["cas"].get<std::size_t>());
}

// A real lab (needs root, iproute2, netns and fib_multipath_hash_seed: skipped otherwise, as the
// lab says why). examples/lab/leaf-spine-4.yaml: 12 switches + 8 NIC ports = 20 namespaces,
// 8 x 4 + 8 = 40 links. `run --flows 2 --packets 50 --payload 100`: hosts 0 and 1 send to hosts 4 and
// 5, each 50 x (100 + 8 UDP + 20 IPv4) = 6,400 bytes; the JSON's addresses and ports are the
// CSV's (a second run: same flows), its rate is bytes x 8 / seconds. Counters are read as text,
// then as JSON: the same interfaces, and never fewer bytes (counters only grow).
class LabGuard {
 public:
  LabGuard(std::string spec, std::string prefix) : spec_(std::move(spec)), prefix_(std::move(prefix)) {}
  ~LabGuard() { clustertwin("lab down " + spec_ + " --prefix " + prefix_); }
  LabGuard(const LabGuard&) = delete;
  LabGuard& operator=(const LabGuard&) = delete;

 private:
  std::string spec_;
  std::string prefix_;
};

TEST(Json, LabSaysWhatItDidWithItsTextsNumbers) {
  const std::string spec = kSource + "/examples/lab/leaf-spine-4.yaml";
  const std::string prefix = "ctcli" + std::to_string(::getpid() % 100000) + "-";
  const std::string lab = " " + spec + " --prefix " + prefix;
  const LabGuard guard(spec, prefix);
  const Ran up = clustertwin("lab up" + lab + " --json");
  if (up.rc != 0 && up.err.find("lab: error: lab: ") != std::string::npos) GTEST_SKIP() << up.err;
  ASSERT_EQ(up.rc, 0) << up.err;
  const auto u = nlohmann::json::parse(up.out);
  EXPECT_EQ(u["command"], "up");
  EXPECT_EQ(u["namespaces"].size(), 20U);
  EXPECT_EQ(u["links"].size(), 40U);

  const std::string run = "lab run" + lab + " --flows 2 --packets 50 --payload 100";
  const Ran csv = clustertwin(run);
  const Ran json = clustertwin(run + " --json");
  ASSERT_EQ(csv.rc, 0) << csv.err;
  ASSERT_EQ(json.rc, 0) << json.err;
  const auto r = nlohmann::json::parse(json.out);
  ASSERT_EQ(r["flows"].size(), 2U);
  std::istringstream rows(csv.out);
  std::string row;
  std::getline(rows, row);
  for (const auto& f : r["flows"]) {
    ASSERT_TRUE(std::getline(rows, row));
    const std::string expected = f["src_ip"].get<std::string>() + "," + f["dst_ip"].get<std::string>() + ",udp," +
                                 std::to_string(f["src_port"].get<int>()) + "," + std::to_string(f["dst_port"].get<int>()) + ",";
    EXPECT_EQ(row.rfind(expected, 0), 0U) << row << " vs " << f;
    EXPECT_EQ(f["bytes"].get<std::uint64_t>(), 6400U) << f;
    ASSERT_GT(f["seconds"].get<double>(), 0) << f;
    EXPECT_DOUBLE_EQ(f["bits_per_second"].get<double>(), 6400 * 8 / f["seconds"].get<double>());
  }
  EXPECT_EQ(r["flows"][0]["src"], "host0/nic0");
  EXPECT_EQ(r["flows"][1]["dst"], "host5/nic0");

  const Ran text = clustertwin("lab counters" + lab);
  const Ran counters = clustertwin("lab counters" + lab + " --json");
  ASSERT_EQ(text.rc, 0) << text.err;
  ASSERT_EQ(counters.rc, 0) << counters.err;
  const auto c = nlohmann::json::parse(counters.out);
  const std::regex sample(R"re(^node_network_transmit_bytes_total\{device="([^"]+)",instance="([^"]+)"\} ([0-9]+) )re");
  std::size_t samples = 0;
  std::istringstream lines(text.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, sample)) continue;
    ++samples;
    bool found = false;
    for (const auto& k : c["counters"]) {
      if (k["device"] != m[1].str() || k["instance"] != m[2].str()) continue;
      found = true;
      EXPECT_GE(k["transmit_bytes"].get<std::uint64_t>(), std::stoull(m[3].str())) << line;
    }
    EXPECT_TRUE(found) << line;
  }
  EXPECT_EQ(samples, c["counters"].size());
  EXPECT_EQ(samples, 80U);  // both ends of 40 links

  const Ran fail = clustertwin("lab fail" + lab + " 'p0/leaf/0 -- p0/spine/0' --json");
  ASSERT_EQ(fail.rc, 0) << fail.err;
  EXPECT_EQ(nlohmann::json::parse(fail.out)["failed"].size(), 1U);
  const Ran down = clustertwin("lab down" + lab + " --json");
  ASSERT_EQ(down.rc, 0) << down.err;
  EXPECT_EQ(nlohmann::json::parse(down.out)["removed"].size(), 20U);
}

// ---- item 23: progress on stderr only -----------------------------------------------------------

// Each command with long work, plain, with --progress, and with --progress --quiet: stdout the same
// bytes every time; forced progress on stderr as whole lines (not a terminal) ending at 100 %;
// nothing without --progress, and --quiet wins. ib route counts its steps: the routing and five
// checks per fabric (ib/ib_study.h), so 6, and 12 with a failure (healthy, then degraded).
TEST(Progress, ForcedProgressGoesToStderrAndLeavesStdoutAlone) {
  struct Case {
    std::string args;
    std::string unit;
    std::vector<std::string> says;
  };
  const std::vector<Case> cases = {
      {"hash " + kRoce + " --elephants 8 --trials 3000 --seed 3 --threads 2 --compare", "trials",
       {"hash: ", "of 6000 trials", "6000 of 6000 trials (100%)"}},  // Monte Carlo + comparison
      {"reliability " + kLab32 + " --repair-hours 24 --trials 50 --threads 2", "trials",
       {"reliability: ", "200 of 200 trials (100%)"}},
      {"ib route " + kLab32, "steps", {"ib route: ", "6 of 6 steps (100%)"}},
      {"ib route " + kLab32 + " --engine updn --fail p0/spine/3", "steps", {"ib route: ", "12 of 12 steps (100%)"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const Ran plain = clustertwin(c.args);
    const Ran shown = clustertwin(c.args + " --progress");
    const Ran quiet = clustertwin(c.args + " --progress --quiet");
    ASSERT_EQ(plain.rc, 0) << plain.err;
    ASSERT_EQ(shown.rc, 0) << shown.err;
    EXPECT_EQ(shown.out, plain.out);
    EXPECT_EQ(quiet.out, plain.out);
    for (const std::string& s : c.says) EXPECT_NE(shown.err.find(s), std::string::npos) << shown.err;
    EXPECT_EQ(shown.err.find('\r'), std::string::npos);  // not a terminal: whole lines
    EXPECT_EQ(quiet.err, plain.err);
    // Not a terminal and not asked: nothing.
    EXPECT_EQ(plain.err.find(c.unit + " ("), std::string::npos) << plain.err;
  }
}

}  // namespace
}  // namespace ct
