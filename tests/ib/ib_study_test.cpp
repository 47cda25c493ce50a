// The `ib route` and `ib trace` studies (ib_study.h), the functions the CLI calls, on the smallest
// fat tree: 2 leaves x 2 spines, 2 hosts per leaf (make_fat_tree_fabric's default shape).
//
// Worked by hand: 4 switches, 4 CAs, 4 host cables + 2 x 2 leaf-spine cables = 8 cables. Every CA
// port sends to the 3 other CAs' LIDs: 4 x 3 = 12 (source port, destination LID) pairs. Removing
// the cable pod0/leaf0 -- pod0/spine0 leaves 7 cables; up/down still reaches everything through
// pod0/spine1 (leaf 0's only uplink left), so the 12 pairs are delivered and a trace from leaf 0's
// first host to leaf 1's climbs to pod0/spine1. ftree refuses the degraded fabric (the spines'
// down port groups differ and no roots are given), and the healthy result stands beside the error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ib/fat_tree_fabric.h"
#include "ib/ib_study.h"
#include "report/ib_report.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

IbSubnet two_by_two() { return IbSubnet{make_fat_tree_fabric({}), "2x2", "2x2.net"}; }

TEST(IbRouteStudy, ReroutesAroundAFailedCable) {
  IbRouteStudyOptions o;
  o.routing.engine = IbEngine::kUpDown;
  o.failures = {"pod0/leaf0,pod0/spine0"};
  auto s = study_ib_route(two_by_two(), o);
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  EXPECT_EQ(s->healthy.fabric.cable_count(), 8u);
  EXPECT_EQ(s->healthy.reach.pairs, 12u);
  EXPECT_TRUE(s->healthy.reach.ok());
  EXPECT_TRUE(s->healthy.loops.ok());
  EXPECT_EQ(s->removed, 1u);
  EXPECT_EQ(s->cables_left, 7u);
  ASSERT_TRUE(s->degraded.has_value());
  EXPECT_TRUE(s->degraded_errors.empty());
  EXPECT_EQ(s->degraded->reach.pairs, 12u);
  EXPECT_TRUE(s->degraded->reach.ok());
  const std::string r = ib_route_report(s.value());
  EXPECT_THAT(r, HasSubstr("InfiniBand subnet (2x2): 4 switches, 4 CAs, 8 cables"));
  EXPECT_THAT(r, HasSubstr("After removing 1 cable(s): 7 cables left"));
}

TEST(IbRouteStudy, KeepsTheHealthyResultWhenTheDegradedFabricIsRefused) {
  IbRouteStudyOptions o;
  o.routing.engine = IbEngine::kFatTree;
  o.failures = {"pod0/leaf0,pod0/spine0"};
  auto s = study_ib_route(two_by_two(), o);
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  EXPECT_TRUE(s->healthy.reach.ok());
  EXPECT_FALSE(s->degraded.has_value());
  ASSERT_FALSE(s->degraded_errors.empty());
  EXPECT_THAT(s->degraded_errors[0].message, HasSubstr("not a fat tree"));
  EXPECT_FALSE(s->degraded_errors[0].where.file.empty());
}

TEST(IbRouteStudy, BadCableNamesAreCommandLineErrors) {
  IbRouteStudyOptions o;
  o.failures = {"pod0/leaf9"};
  auto s = study_ib_route(two_by_two(), o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.errors()[0].where.file, "command line");
  EXPECT_EQ(s.errors()[0].field, "--fail");
}

TEST(IbTraceStudy, ClimbsTheRemainingSpine) {
  IbTraceOptions o;
  o.routing.engine = IbEngine::kUpDown;
  o.source = "pod0/leaf0/host0";
  o.destination = "pod0/leaf1/host0";
  o.failures = {"pod0/leaf0,pod0/spine0"};
  auto s = study_ib_trace(two_by_two(), o);
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  EXPECT_TRUE(s->healthy.trace.delivered);
  EXPECT_EQ(s->healthy.trace.hops.size(), 5u);  // the CA, leaf 0, a spine, leaf 1, the destination CA
  ASSERT_TRUE(s->degraded.has_value());
  const Trace& after = s->degraded->trace;
  ASSERT_TRUE(after.delivered) << after.problem;
  ASSERT_EQ(after.hops.size(), 5u);
  EXPECT_EQ(s->degraded->fabric.label(after.hops[2].node), "pod0/spine1");
  EXPECT_THAT(ib_trace_report(s.value()), HasSubstr("After removing 1 cable(s):"));
}

TEST(IbTraceStudy, AnUnknownSourceIsACommandLineError) {
  IbTraceOptions o;
  o.source = "pod0/leaf0/host9";
  o.destination = "pod0/leaf1/host0";
  auto s = study_ib_trace(two_by_two(), o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(format_diagnostic(s.errors()[0]).rfind("command line: error: src: ", 0), 0u)
      << format_diagnostic(s.errors()[0]);
}

}  // namespace
}  // namespace ct
