// The hash report: byte-identical for any thread count, and it states what the analyses found.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/hash_report.h"
#include "support/ecmp_test_support.h"
#include "support/fabric_fixtures.h"
#include "traffic/flow_generator.h"

namespace ct {
namespace {

using ::testing::HasSubstr;
using testing_support::EcmpFabric;

// Renders the full report (paths, Monte Carlo, comparison) of 2 elephants on the 4-ary fat tree
// with crc32 and the same seed everywhere, with the trials on `threads` threads.
std::string render(unsigned threads) {
  const EcmpFabric f(fixtures::fat_tree_4(), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  ElephantOptions e;
  e.count = 2;
  const std::vector<Flow> flows = elephant_flows(*f.topology, e, 5);
  std::vector<RouteRequest> requests;
  for (const Flow& x : flows) requests.push_back(RouteRequest{x.src, x.dst, x.key, 1});
  const DecisionCoupling coupling(*f.walker, requests, 5, 256);
  const HashScenario scenario = analyze_hash_scenario(*f.walker, requests, coupling);
  const MonteCarloResult mc = run_ecmp_monte_carlo(*f.walker, requests, coupling, {300, 5, threads});
  ComparisonOptions c;
  c.trials = 300;
  c.threads = threads;
  c.seed = 5;
  const std::vector<SchemeRow> rows = compare_schemes(*f.walker, requests, {}, c);
  HashReportInput in;
  in.spec_name = "ft4";
  in.spec_file = "ft4.yaml";
  in.topology = f.topology.get();
  in.forwarding = f.forwarding.get();
  in.hashes = f.hashes.get();
  in.flows = flows;
  in.flow_source = "2 elephants";
  in.scenario = &scenario;
  in.coupling = &coupling;
  in.coupling_samples = 256;
  in.monte_carlo = &mc;
  in.seed = 5;
  in.comparison = &rows;
  in.comparison_trials = 300;
  return hash_report(in);
}

TEST(HashReport, IdenticalForOneAndFourThreads) { EXPECT_EQ(render(1), render(4)); }

// System: the 4-ary fat tree; the default elephants go from hosts 0 and 1 (edge 16, pod 0) to hosts
// 4 and 5 (edge 18, pod 1). Expected content: edges hold 2-member up groups (8 edges), aggs
// 2-member up groups; the tier-2 up stage reaches 2 of its 4 links and is determined (same function
// and seed); the first-tier closed form for 2 flows on 2 members is 0.5000; spraying leaves no
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

}  // namespace
}  // namespace ct
