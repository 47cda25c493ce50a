// Alternatives to per-flow hashing compared on the same flows, with the expected rows worked out
// by hand on small fabrics.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analysis/link_loads.h"
#include "analysis/scheme_comparison.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/ecmp_test_support.h"
#include "support/fabric_fixtures.h"
#include "topology/builder.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using testing_support::EcmpFabric;

// The row of scheme s; a missing row fails the test (never another scheme's row in its place).
const SchemeRow& row(const std::vector<SchemeRow>& rows, Scheme s) {
  for (const SchemeRow& r : rows) {
    if (r.scheme == s) return r;
  }
  ADD_FAILURE() << "no row for scheme " << scheme_name(s);
  throw std::runtime_error("missing scheme row");
}

// System: two_tier(2 leaves, 8 spines, 8 hosts per leaf), one cable per pair, 400G; 8 flows
// host i -> host 8+i all enter leaf 16's 8-way up group (the spines' down groups have 1 member).
// Expected: spraying puts 1/8 of every flow on every uplink: each carries 8 x 1/8 = 1 flow, so the
// busiest equals the mean (1), nothing is idle and every flow runs at its NIC's 400G. Adaptive
// placement fills the 8 uplinks one flow each: busiest 1, never worse than hashing. Hashing
// collides with probability 1 - 8!/8^8 = 1 - 40320/16777216 = 0.9976: its busiest is 2 or more in
// nearly every trial. One plane: plane split not applicable.
TEST(SchemeComparison, SprayEqualisesAndAdaptiveNeverLoses) {
  const EcmpFabric f(fixtures::two_tier(2, 8, 8), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  std::vector<RouteRequest> flows;
  for (std::uint32_t i = 0; i < 8; ++i) flows.push_back(f.request(i, 8 + i, 0));
  ComparisonOptions o;
  o.trials = 50;
  o.threads = 2;
  const auto rows = compare_schemes(*f.walker, flows, {}, o);
  ASSERT_EQ(rows.size(), 6u);
  const SchemeRow& spray = row(rows, Scheme::kSpray);
  EXPECT_NEAR(spray.busiest, 1.0, 1e-12);
  EXPECT_NEAR(spray.idle, 0.0, 1e-12);
  EXPECT_NEAR(spray.links, 8.0, 1e-12);
  EXPECT_NEAR(spray.slowest, 400e9, 1.0);
  const SchemeRow& adaptive = row(rows, Scheme::kAdaptive);
  const SchemeRow& hash = row(rows, Scheme::kHash);
  EXPECT_NEAR(adaptive.busiest, 1.0, 1e-12);
  EXPECT_LE(adaptive.busiest, hash.busiest);
  EXPECT_GT(hash.busiest, 1.5);  // 2 or more on its busiest uplink in nearly every trial
  EXPECT_GE(adaptive.slowest, hash.slowest);
  EXPECT_FALSE(row(rows, Scheme::kPlaneSplit).applicable);
  // Identical for any thread count.
  o.threads = 1;
  const auto again = compare_schemes(*f.walker, flows, {}, o);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].busiest, again[i].busiest);
    EXPECT_EQ(rows[i].slowest, again[i].slowest);
  }
}

// Two flows whose hashes collide on one of leaf 8's 2 uplinks (two_tier(2, 2, 4)): hashing gives
// busiest 2 and 1 idle uplink, each flow 200G; adaptive sends the second flow to the idle member:
// busiest 1, both at 400G.
TEST(SchemeComparison, AdaptiveSeparatesAHashCollision) {
  const EcmpFabric f(fixtures::two_tier(2, 2, 4), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  const std::vector<RouteRequest> flows = f.colliding_pair(0, 4, 1, 5);
  const LoadSummary hash = summarize_loads(route_flows(Scheme::kHash, *f.walker, flows, {}), *f.forwarding);
  const LoadSummary adaptive = summarize_loads(route_flows(Scheme::kAdaptive, *f.walker, flows, {}), *f.forwarding);
  EXPECT_EQ(hash.uplinks.busiest, 2.0);
  EXPECT_EQ(hash.uplinks.idle, 1u);
  EXPECT_DOUBLE_EQ(hash.slowest, 200e9);
  EXPECT_EQ(adaptive.uplinks.busiest, 1.0);
  EXPECT_EQ(adaptive.uplinks.idle, 0u);
  EXPECT_DOUBLE_EQ(adaptive.slowest, 400e9);
}

// The same collision routed without the entered groups (SchemeOptions::entered_groups false, as a
// simulation routes): the same sub-flows, links and fractions under every scheme a simulation
// uses, and no groups; with them, the source leaf's 2-way up group is the one group both flows enter
// (the spines' down groups have one member: not entered).
TEST(SchemeComparison, EnteredGroupsOnlyWhenAsked) {
  const EcmpFabric f(fixtures::two_tier(2, 2, 4), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  const std::vector<RouteRequest> flows = f.colliding_pair(0, 4, 1, 5);
  for (const Scheme s : {Scheme::kHash, Scheme::kSpray, Scheme::kAdaptive}) {
    SCOPED_TRACE(std::string(scheme_name(s)));
    const FlowRoutes with = route_flows(s, *f.walker, flows, {});
    const FlowRoutes without = route_flows(s, *f.walker, flows, {.entered_groups = false});
    EXPECT_EQ(with.entered_groups.size(), 1u);
    EXPECT_TRUE(without.entered_groups.empty());
    EXPECT_EQ(with.owner, without.owner);
    EXPECT_EQ(with.begin, without.begin);
    EXPECT_EQ(with.link, without.link);
    EXPECT_EQ(with.fraction, without.fraction);
    EXPECT_EQ(with.reached, without.reached);
  }
}

// Flowlets and QPs conserve traffic: in two_tier(2, 2, 4) one flow host0 -> host4 with 4 bursts
// (4 flowlets, 4 epochs) or 4 QPs puts a total load of exactly 1 flow on leaf 8's two uplinks.
TEST(SchemeComparison, FlowletsAndQpsConserveLoad) {
  const EcmpFabric f(fixtures::two_tier(2, 2, 4), testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame));
  RouteRequest r = f.request(0, 4, 50000);
  r.flowlets = 4;
  const std::vector<RouteRequest> flows = {r};
  for (Scheme s : {Scheme::kFlowlet, Scheme::kMoreQps}) {
    const FlowRoutes routes = route_flows(s, *f.walker, flows, {4, 1, 0});
    const std::vector<double> load = routes.link_loads(f.topology->link_count());
    EXPECT_NEAR(load[directed_link(LinkId(8u), true)] + load[directed_link(LinkId(9u), true)], 1.0, 1e-12)
        << scheme_name(s);
    EXPECT_EQ(routes.epochs, s == Scheme::kFlowlet ? 4u : 1u);
  }
}

// System: 16 HGX B300 on 2 planes (ConnectX-8 800G split into 2 x 400G; SN5600 at 400G), 2 tiers.
// One flow host0/nic0 -> host1/nic1 alone in the fabric: hashed, it runs on its plane-0 port at
// 400G; split over both planes it runs 400G on each: 800G.
TEST(SchemeComparison, PlaneSplitDoublesALoneFlow) {
  auto catalog = load_catalog(ct::testing_support::source_dir() + "/catalog");
  ASSERT_TRUE(catalog.ok());
  auto spec = parse_spec("p.yaml",
                         "name: p\nnodes: {model: hgx-b300, count: 16}\n"
                         "backend: {topology: rail-optimized, planes: 2, tiers: 2, switch: sn5600}\n");
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  auto valid = validate(spec.value(), catalog.value());
  ASSERT_TRUE(valid.ok()) << format_diagnostics(valid.errors());
  const EcmpFabric f(build_topology(valid.value(), catalog.value()), EcmpConfig{});
  const Topology& t = *f.topology;
  const std::vector<RouteRequest> flows = {
      f.request(t.port_of(HostId(0u), 0, 0).value(), t.port_of(HostId(1u), 1, 0).value(), 50000)};
  const auto rows = compare_schemes(*f.walker, flows, {}, ComparisonOptions{});
  EXPECT_TRUE(row(rows, Scheme::kPlaneSplit).applicable);
  EXPECT_NEAR(row(rows, Scheme::kHash).slowest, 400e9, 1.0);
  EXPECT_NEAR(row(rows, Scheme::kPlaneSplit).slowest, 800e9, 1.0);
}

}  // namespace
}  // namespace ct
