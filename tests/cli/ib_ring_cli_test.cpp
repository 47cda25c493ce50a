// A credit loop through the CLI (issue 26): `simulate --ibnetdiscover` on the shipped ring of five
// switches (examples/ring-5.net, one host each, 4xNDR cables) with the traffic of
// examples/scenarios/shift2-ring5.yaml (each host sends 1 MiB to the host two switches ahead
// clockwise), both commands run as processes:
//   - min-hop: `ib route` reports a credit loop; the packet run stops in a deadlock and names the
//     same channels (a channel is a cable direction: the checker's 'X'[p] leaves switch X by port p;
//     the report's "X -- Y up" leaves X, "X -- Y down" leaves Y). A deadlock is a result, so the
//     run exits 0 and its report names the cycle.
//   - min-hop with a sixth transfer a-b (HA -> HB, one switch hop: HA -> A, A -> B, B -> HB): the
//     same loop. Worked by hand: the buffer at the far end of each clockwise cable X -> Y fills with
//     packets of the flow entering the ring at X (they go on over Y -> Z, which waits), so flows
//     0-4 hold the cycle's buffers (in the loop); a-b's packets that cross A -> B leave B for HB at
//     once, the rest wait at A for A -> B in HA -> A's buffer, off the cycle: flow 5 is blocked
//     behind the loop. The text, the JSON and the page say which is which.
//   - up/down: no loop, and every flow completes.
//   - flow engine, min-hop: each clockwise cable carries two flows (one's first switch hop, the
//     other's second), so each flow gets 200 Gb/s and ends at 1 MiB x 8 / 200 Gb/s = 41.943 us
//     (links have no latency in a net file).
//   - --compare-engines: each of the five operations done by the flow engine, stalled by the
//     packet engine, with the deadlock as its first reason.
//   - one fabric source (SPEC or --ibnetdiscover) and --ib-routing only with --ibnetdiscover are
//     usage rules (exit 2); a cable without a rate and a host the file lacks are bad input (exit 1).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ib/ibnetdiscover.h"
#include "io/files.h"
#include "support/cli_runner.h"
#include "support/test_paths.h"

namespace ct {
namespace {

namespace fs = std::filesystem;

const std::string kSource = ct::testing_support::source_dir();
const std::string kRing = kSource + "/examples/ring-5.net";
const std::string kShift2 = kSource + "/examples/scenarios/shift2-ring5.yaml";
const std::string kFigures = " --switch-latency 200ns --switch-buffer 8KiB --forwarding store-and-forward";

using Ran = ct::testing_support::CliRun;

fs::path work_dir() {
  const fs::path dir = fs::path(ct::testing_support::binary_dir()) / "tests" / "cli" / "work" / "ib_ring";
  fs::create_directories(dir);
  return dir;
}

Ran clustertwin(const std::string& args, const std::string& prefix = "") {
  return ct::testing_support::run_clustertwin(args, prefix);
}

Ran simulate(const std::string& routing, const std::string& more) {
  return clustertwin("simulate --ibnetdiscover '" + kRing + "' --ib-routing " + routing + " --scenario '" + kShift2 +
                     "' " + more);
}

// The channels of `ib route`'s credit loop as "X -> Y" (the switch, then the far end of its port).
std::set<std::string> checker_cycle(const std::string& engine) {
  const Ran r = clustertwin("ib route --ibnetdiscover '" + kRing + "' --engine " + engine + " --json");
  EXPECT_EQ(r.rc, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  const auto net = parse_ibnetdiscover(read_text_file(kRing).value(), kRing);
  EXPECT_TRUE(net.ok());
  std::set<std::string> out;
  for (const auto& c : json.at("healthy").at("credit_loops").at("cycle")) {
    const std::string channel = c.get<std::string>();  // 'A'[2]
    const auto close = channel.find('\'', 1);
    const std::string node = channel.substr(1, close - 1);
    const int port = std::stoi(channel.substr(close + 2));
    const auto n = net->find(node);
    EXPECT_TRUE(n.has_value()) << channel;
    out.insert(node + " -> " + net->label(net->remote(*n, port).node));
  }
  return out;
}

// The report's cycle ("X -- Y up" / "X -- Y down") as "X -> Y".
std::set<std::string> report_cycle(const nlohmann::json& cycle) {
  std::set<std::string> out;
  for (const auto& c : cycle) {
    const std::string name = c.get<std::string>();
    const auto dash = name.find(" -- ");
    const auto space = name.rfind(' ');
    const std::string a = name.substr(0, dash);
    const std::string b = name.substr(dash + 4, space - dash - 4);
    out.insert(name.substr(space + 1) == "up" ? a + " -> " + b : b + " -> " + a);
  }
  return out;
}

TEST(IbRingCli, MinHopDeadlocksWhereTheCheckerSays) {
  const std::set<std::string> checker = checker_cycle("minhop");
  ASSERT_EQ(checker.size(), 5U);
  const Ran r = simulate("minhop", "--engine packet --json" + kFigures);
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(report_cycle(json.at("packet").at("deadlock")), checker);
  const Ran text = simulate("minhop", "--engine packet" + kFigures);
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("DEADLOCK: a credit loop of 5 channels"), std::string::npos) << text.out;
}

TEST(IbRingCli, DeadlockTellsFlowsInTheLoopFromThoseBehindIt) {
  const fs::path dir = work_dir();
  const fs::path scenario = dir / "shift2-and-a-b.yaml";
  std::string text = read_text_file(kShift2).value();
  text += "    - {name: a-b, src: HA, dst: HB, bytes: 1MiB, group: shift2}\n";
  ASSERT_TRUE(write_file_atomic(scenario.string(), text).ok());
  const fs::path page = dir / "shift2-and-a-b.html";
  fs::remove(page);
  const std::string run = "simulate --ibnetdiscover '" + kRing + "' --ib-routing minhop --scenario '" + scenario.string() +
                          "' --engine packet" + kFigures;
  const Ran json = clustertwin(run + " --json --html '" + page.string() + "'");
  ASSERT_EQ(json.rc, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(report_cycle(j.at("packet").at("deadlock")), checker_cycle("minhop"));
  EXPECT_EQ(j.at("packet").at("deadlock_flows").at("in_loop"), nlohmann::json::array({0, 1, 2, 3, 4}));
  EXPECT_EQ(j.at("packet").at("deadlock_flows").at("behind"), nlohmann::json::array({5}));
  ASSERT_EQ(j.at("unfinished").size(), 6U);
  for (const auto& u : j.at("unfinished")) {
    const bool behind = u.at("flow").get<int>() == 5;
    EXPECT_EQ(u.at("why").get<std::string>().starts_with(behind ? "blocked behind the credit loop" : "in the credit loop"),
              true)
        << u.dump();
  }
  const Ran plain = clustertwin(run);
  ASSERT_EQ(plain.rc, 0) << plain.err;
  EXPECT_NE(plain.out.find("in the loop (their packets hold the cycle's buffers): 5 flow(s): 0, 1, 2, 3, 4\n"),
            std::string::npos)
      << plain.out;
  EXPECT_NE(plain.out.find("blocked behind it (waiting upstream of the cycle): 1 flow(s): 5\n"), std::string::npos)
      << plain.out;
  EXPECT_NE(plain.out.find("5 hold buffers of a credit loop with their packets and 1 is blocked behind it"), std::string::npos)
      << plain.out;
  const std::string html = read_text_file(page.string()).value();
  EXPECT_NE(html.find("flows blocked behind it (waiting upstream of the cycle)"), std::string::npos);
  EXPECT_NE(html.find("1: 5"), std::string::npos);
  EXPECT_NE(html.find("5: 0, 1, 2, 3, 4"), std::string::npos);
}

TEST(IbRingCli, UpDownHasNoLoopAndEveryFlowCompletes) {
  const Ran route = clustertwin("ib route --ibnetdiscover '" + kRing + "' --engine updn --json");
  ASSERT_EQ(route.rc, 0) << route.err;
  EXPECT_FALSE(nlohmann::json::parse(route.out).at("healthy").at("credit_loops").at("found").get<bool>());
  const Ran r = simulate("updn", "--engine packet --csv-flows - -o /dev/null" + kFigures);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out.find("stalled"), std::string::npos) << r.out;
  const Ran json = simulate("updn", "--engine packet --json" + kFigures);
  ASSERT_EQ(json.rc, 0) << json.err;
  const auto deadlock = nlohmann::json::parse(json.out).at("packet").at("deadlock");
  EXPECT_TRUE(deadlock.is_null() || deadlock.empty()) << deadlock.dump();
}

TEST(IbRingCli, FlowEngineFollowsTheLfts) {
  const Ran r = simulate("minhop", "--json");
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_NEAR(json.at("makespan_s").get<double>(), 8.0 * (1 << 20) / 200e9, 1e-12);
}

TEST(IbRingCli, CompareEnginesNamesTheDeadlockFirst) {
  const Ran r = simulate("minhop", "--compare-engines --json" + kFigures);
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(report_cycle(json.at("packet").at("deadlock")), checker_cycle("minhop"));
  ASSERT_EQ(json.at("operations").size(), 5U);  // one per transfer
  for (const auto& op : json.at("operations")) {
    EXPECT_GT(op.at("flow_s").get<double>(), 0);
    EXPECT_TRUE(op.at("packet_s").is_null()) << op.dump();
    EXPECT_FALSE(op.at("agree").get<bool>());
    EXPECT_EQ(op.at("reasons").at(0).at("kind"), "deadlock");
  }
}

TEST(IbRingCli, OneFabricSourceAndBadInput) {
  const std::string lab = "'" + kSource + "/examples/lab-32.yaml'";
  // Every exit code is checked with what the run printed, so a failure says why.
  const Ran both = clustertwin("simulate " + lab + " --ibnetdiscover '" + kRing + "' --scenario '" + kShift2 + "'");
  EXPECT_EQ(both.rc, 2) << both.err;
  const Ran neither = clustertwin("simulate --scenario '" + kShift2 + "'");
  EXPECT_EQ(neither.rc, 2) << neither.err;
  const Ran routing = clustertwin("simulate " + lab + " --ib-routing minhop --collective all-reduce --bytes 1MiB");
  EXPECT_EQ(routing.rc, 2) << routing.err;
  const fs::path dir = work_dir();
  const fs::path no_rate = dir / "no-rate.net";
  std::string text = read_text_file(kRing).value();
  for (const std::string line : {"[2] \"C\"[3] # \"C\"", "[3] \"B\"[2] # \"B\""}) {  // B's port 2, C's port 3
    const std::string rated = line + " 4xNDR";
    text.replace(text.find(rated), rated.size(), line);
  }
  ASSERT_TRUE(write_file_atomic(no_rate.string(), text).ok());
  const Ran rate = clustertwin("simulate --ibnetdiscover '" + no_rate.string() + "' --ib-routing updn --scenario '" + kShift2 + "'");
  EXPECT_EQ(rate.rc, 1) << rate.err;
  EXPECT_NE(rate.err.find("no-rate.net:"), std::string::npos) << rate.err;
  EXPECT_NE(rate.err.find("port.rate"), std::string::npos) << rate.err;
  const fs::path typo = dir / "typo.yaml";
  ASSERT_TRUE(write_file_atomic(typo.string(), "scenario:\n  transfers:\n    - {src: HA, dst: HX, bytes: 1MiB}\n").ok());
  const Ran host = clustertwin("simulate --ibnetdiscover '" + kRing + "' --ib-routing updn --scenario '" + typo.string() + "'");
  EXPECT_EQ(host.rc, 1) << host.err;
  EXPECT_NE(host.err.find("typo.yaml:3"), std::string::npos) << host.err;
  EXPECT_NE(host.err.find("'HX'"), std::string::npos) << host.err;
  const Ran engine = simulate("fattree", "");  // a bad value, as every other: exit 1, the set named
  EXPECT_EQ(engine.rc, 1) << engine.err;
  EXPECT_NE(engine.err.find("--ib-routing: fattree not in {ftree,updn,minhop}"), std::string::npos) << engine.err;
  // The LFTs give one path per pair: spraying (either engine) is refused at the scenario, not
  // done over the ECMP walk of the imported cables.
  for (const std::string kind : {"flow", "packet"}) {
    const Ran spray = simulate("updn", "--paths spray --engine " + kind);
    EXPECT_EQ(spray.rc, 1) << kind << ": " << spray.err;
    EXPECT_NE(spray.err.find("shift2-ring5.yaml:"), std::string::npos) << spray.err;
    EXPECT_NE(spray.err.find("paths 'spray' on a fabric routed by the subnet manager's LFTs"), std::string::npos)
        << spray.err;
  }
}

}  // namespace
}  // namespace ct
