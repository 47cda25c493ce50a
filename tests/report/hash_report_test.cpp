// The hash report over study_hash, the function the CLI calls: byte-identical for any thread
// count, and it states what the analyses found.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/hash_report.h"

#include <nlohmann/json.hpp>

#include "report/hash_json.h"
#include "analysis/hash_study.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The k = 4 fat tree of Al-Fares et al.: 16 single-NIC hosts, 4 pods of 2 edges and 2 aggs, 4
// cores; crc32 with the same seed on every switch.
constexpr const char* kFatTree4 =
    "name: ft4\n"
    "nodes: {model: homelab-node, count: 16}\n"
    "backend: {topology: fat-tree, k: 4, switch: sn2700, port_speed: 100G}\n"
    "routing:\n"
    "  ecmp: {hash: crc32, seed: 0x5EED, seed_mode: same}\n";

const Fabric& ft4() {
  static const Fabric fabric = [] {
    const Catalog catalog = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
    auto valid = validate_reading(read_spec("ft4.yaml", kFatTree4), catalog);
    EXPECT_TRUE(valid.ok()) << format_diagnostics(valid.errors());
    auto built = build_fabric(valid.value(), catalog);
    EXPECT_TRUE(built.ok()) << format_diagnostics(built.errors());
    return std::move(built).value();
  }();
  return fabric;
}

// The full report (paths, Monte Carlo, comparison) of 2 elephants from hosts 0 and 1 (edge 0,
// pod 0) to hosts 4 and 5 (the first edge of pod 1), with the trials on `threads` threads.
std::string render(unsigned threads) {
  HashStudyOptions o;
  o.from = {"host0", "host1"};
  o.to = {"host4", "host5"};
  o.seed = 5;
  o.trials = 300;
  o.compare = true;
  o.threads = threads;
  auto study = study_hash(ft4(), o);
  EXPECT_TRUE(study.ok()) << format_diagnostics(study.errors());
  return hash_report(study.value());
}

TEST(HashReport, IdenticalForOneAndFourThreads) { EXPECT_EQ(render(1), render(4)); }

// Expected content: edges hold 2-member up groups, aggs 2-member up groups; with one function and
// one seed everywhere, a 2-way hash-threshold choice takes the hash's top bit, so the agg repeats
// the edge's member index: the tier-2 up stage reaches 2 of its 4 links and is determined. The
// first-tier closed form for 2 flows on 2 members is 1 - 2!/(0! 2^2) = 0.5000; spraying leaves no
// link idle.
TEST(HashReport, StatesTheFindings) {
  const std::string r = render(2);
  EXPECT_THAT(r, HasSubstr("clustertwin hash: ft4 (ft4.yaml)"));
  EXPECT_THAT(r, HasSubstr("hash: crc32 over src_ip, dst_ip, protocol, src_port, dst_port; seed 0x5eed (same)"));
  EXPECT_THAT(r, HasSubstr("flow 0: host0/nic0 -> host4/nic0"));
  EXPECT_THAT(r, HasSubstr("only 2 of 4 tier-2 up links can carry these flows' traffic; the tier-2 choice is fully "
                           "determined by the tier-1 choice (same function crc32 and seed at both)"));
  EXPECT_THAT(r, HasSubstr("first-tier uplinks = the source leaves' up groups: 2 flows on 2"));
  EXPECT_THAT(r, HasSubstr("0.5000  1 - prod n!/((n-k)! n^k)"));
  EXPECT_THAT(r, HasSubstr("E[idle first-tier uplinks]"));
  EXPECT_THAT(r, ::testing::ContainsRegex("spray +[0-9.]+ +0.00 of"));
  EXPECT_THAT(r, HasSubstr("plane-split"));
}

// A failed cable and a forwarding table by name, through the fabric's name directory: a k = 4 fat
// tree has one cable between an edge and an agg of its pod, failed in the study's own forwarding
// state only (the fabric's stays healthy), and the named switch's table is printed.
TEST(HashStudy, ResolvesNamesThroughTheFabric) {
  HashStudyOptions o;
  o.fail = {"p0/pod0/leaf/0 -- p0/pod0/spine/0"};
  o.fib = {"p0/pod0/spine/0"};
  auto study = study_hash(ft4(), o);
  ASSERT_TRUE(study.ok()) << format_diagnostics(study.errors());
  ASSERT_EQ(study->failed.size(), 1u);
  EXPECT_TRUE(study->forwarding().failed(study->failed[0]));
  EXPECT_FALSE(ft4().forwarding().failed(study->failed[0]));
  const std::string r = hash_report(study.value());
  EXPECT_THAT(r, HasSubstr("Forwarding table of p0/pod0/spine/0"));
  EXPECT_THAT(r, HasSubstr(", 1 failed"));
}

// A fabric built from spec text (the catalog's sn2700 k = 4 fat tree with a routing block).
Fabric fabric(const std::string& routing) {
  const Catalog catalog = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
  const std::string text = std::string(
                               "name: ft4\n"
                               "nodes: {model: homelab-node, count: 16}\n"
                               "backend: {topology: fat-tree, k: 4, switch: sn2700, port_speed: 100G}\n"
                               "routing:\n") +
                           routing;
  auto valid = validate_reading(read_spec("ft4.yaml", text), catalog);
  EXPECT_TRUE(valid.ok()) << format_diagnostics(valid.errors());
  auto built = build_fabric(valid.value(), catalog);
  EXPECT_TRUE(built.ok()) << format_diagnostics(built.errors());
  return std::move(built).value();
}

// The hash reads the addresses only: every trial repeats one placement. Expected: the evidence
// says "no entropy: every trial identical" for the stages after the first (never "independent"),
// the Monte Carlo section warns and gives no closed form beside the repeated trial (a closed form
// 0.5000 for 2 flows on 2 uplinks would describe independent hashing, which these trials are not).
TEST(HashReport, AddressOnlyHashSaysNoEntropy) {
  const Fabric f = fabric("  ecmp: {hash: crc32, seed: 0x5EED, fields: [src_ip, dst_ip]}\n");
  HashStudyOptions o;
  o.from = {"host0", "host1"};
  o.to = {"host4", "host5"};
  o.trials = 20;
  o.threads = 1;
  auto study = study_hash(f, o);
  ASSERT_TRUE(study.ok()) << format_diagnostics(study.errors());
  const std::string r = hash_report(study.value());
  EXPECT_THAT(r, HasSubstr("no entropy: every trial identical (source port not hashed)"));
  EXPECT_THAT(r, Not(HasSubstr("independent of the previous decision")));
  EXPECT_THAT(r, HasSubstr("no entropy: every trial identical: the hash reads src_ip, dst_ip, not the source port"));
  EXPECT_THAT(r, Not(HasSubstr("0.5000  1 - prod")));
  EXPECT_THAT(r, HasSubstr("n/a: no entropy, every trial identical"));
}

// Every uplink of the source edge failed (a k = 4 edge has two, one to each agg of its pod).
// Expected: "no path: all uplinks of p0/pod0/leaf/0 are down" for both flows, and neither of the
// old explanations ("every flow stays on its leaf", "flows share NICs"). The JSON says the same of
// each flow: reason all_uplinks_down, culprit p0/pod0/leaf/0, the text's words.
TEST(HashReport, AllUplinksDownSaysNoPath) {
  HashStudyOptions o;
  o.fail = {"p0/pod0/leaf/0 -- p0/pod0/spine/0", "p0/pod0/leaf/0 -- p0/pod0/spine/1"};
  o.trials = 10;
  o.threads = 1;
  auto study = study_hash(ft4(), o);
  ASSERT_TRUE(study.ok()) << format_diagnostics(study.errors());
  const std::string r = hash_report(study.value());
  EXPECT_THAT(r, HasSubstr("2 of 2 flows have no path:\n  flows 0, 1: no path: all uplinks of p0/pod0/leaf/0 are down"));
  EXPECT_THAT(r, HasSubstr("n/a: 2 flows without a path"));
  EXPECT_THAT(r, Not(HasSubstr("every flow stays on its leaf")));
  EXPECT_THAT(r, Not(HasSubstr("share NICs")));
  const auto j = nlohmann::json::parse(hash_json(study.value()));
  ASSERT_EQ(j["flows"].size(), 2U);
  for (const auto& flow : j["flows"]) {
    EXPECT_FALSE(flow["reached"].get<bool>());
    EXPECT_EQ(flow["no_path"]["reason"], "all_uplinks_down");
    EXPECT_EQ(flow["no_path"]["culprit"], "p0/pod0/leaf/0");
    EXPECT_EQ(flow["no_path"]["message"], "no path: all uplinks of p0/pod0/leaf/0 are down");
  }
  // Healthy: every flow routed, no_path null.
  HashStudyOptions healthy = o;
  healthy.fail.clear();
  auto routed = study_hash(ft4(), healthy);
  ASSERT_TRUE(routed.ok()) << format_diagnostics(routed.errors());
  const auto all_routed = nlohmann::json::parse(hash_json(routed.value()));
  for (const auto& flow : all_routed["flows"]) {
    EXPECT_TRUE(flow["reached"].get<bool>());
    EXPECT_TRUE(flow["no_path"].is_null()) << flow["no_path"];
  }
}

// `hash: linux` with seed 0: one random key per host in the kernel, the same in every namespace,
// so the report warns; a non-zero seed (the sysctl set) gives no warning.
TEST(HashReport, LinuxSeedZeroWarns) {
  for (const char* seed : {"0", "7"}) {
    const Fabric f = fabric(std::string("  ecmp: {hash: linux, linux_policy: 1, seed: ") + seed + "}\n");
    auto study = study_hash(f, HashStudyOptions{});
    ASSERT_TRUE(study.ok()) << format_diagnostics(study.errors());
    const std::string r = hash_report(study.value());
    const std::string warning =
        "warning: hash: linux with seed 0 on 20 of 20 switches: with net.ipv4.fib_multipath_hash_seed = 0 the kernel "
        "hashes with one random key per host, drawn at boot and the same in every network namespace of that host";
    if (std::string(seed) == "0") {
      EXPECT_THAT(r, HasSubstr(warning));
    } else {
      EXPECT_THAT(r, Not(HasSubstr("warning:")));
    }
  }
}

// More default elephants than the first edge has ports: a k = 4 edge holds 2 hosts, so 4
// elephants leave from 2 NICs (2 each) and arrive at the 2 NICs of pod 1's first edge (2 each);
// 2 elephants fit, unless the user names a single source.
TEST(HashReport, SaysWhenElephantsShareNics) {
  HashStudyOptions o;
  o.elephants = 4;
  auto study = study_hash(ft4(), o);
  ASSERT_TRUE(study.ok()) << format_diagnostics(study.errors());
  const std::string r = hash_report(study.value());
  EXPECT_THAT(r, HasSubstr("note: 4 elephants but only 2 NICs under p0/pod0/leaf/0: NICs carry 2 each"));
  EXPECT_THAT(r, HasSubstr("note: 4 elephants but only 2 NICs under p0/pod1/leaf/0: destination NICs carry 2 each"));
  o.elephants = 2;
  EXPECT_THAT(hash_report(study_hash(ft4(), o).value()), Not(HasSubstr("note:")));
  // Sources given: 2 elephants from one NIC.
  o.from = {"host0"};
  EXPECT_THAT(hash_report(study_hash(ft4(), o).value()),
              HasSubstr("note: 2 elephants from 1 source NIC (--from): NICs carry 2 each"));
}

// Every bad name at once, located on the command line with the option as the field.
TEST(HashStudy, ReportsEveryBadName) {
  HashStudyOptions o;
  o.fail = {"p0/pod0/leaf/0 -- p0/pod9/spine/0"};
  o.fib = {"p0/pod0/spnie/0"};
  o.from = {"host99"};
  auto study = study_hash(ft4(), o);
  ASSERT_FALSE(study.ok());
  ASSERT_EQ(study.errors().size(), 3u) << format_diagnostics(study.errors());
  EXPECT_EQ(study.errors()[0].field, "--fail");
  EXPECT_EQ(study.errors()[1].field, "--fib");
  EXPECT_THAT(study.errors()[1].message, HasSubstr("did you mean 'p0/pod0/spine/0'"));
  EXPECT_EQ(study.errors()[2].field, "--from");
  EXPECT_THAT(study.errors()[2].message, HasSubstr("host0..host15"));
  EXPECT_EQ(format_diagnostic(study.errors()[2]).rfind("command line: error: --from: ", 0), 0u);
}

}  // namespace
}  // namespace ct
