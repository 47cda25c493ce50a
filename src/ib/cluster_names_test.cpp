// Cluster names on a subnet built from a spec's fabric (ib/cluster_names.h): the subnet's own
// names pass, others go through the fabric's name directory, and a typo gets its did-you-mean.
#include "ib/cluster_names.h"

#include <gtest/gtest.h>

#include "ib/topology_to_ib.h"
#include "support/fabric_fixtures.h"

namespace ct {
namespace {

const SourceLocation kCommandLine{"command line", 0, 0};

// 2 leaves x 4 hosts, 2 spines, one plane: ports host0/nic0 .. host7/nic0, p0/leaf/0..1, p0/spine/0..1.
struct ClusterNamesTest : ::testing::Test {
  Topology t = fixtures::two_tier(2, 2, 4, 1);
  NameDirectory names{t};
  IbFabric subnet = fabric_from_topology(t, 0).value();
};

TEST_F(ClusterNamesTest, SubnetNamesPassAndClusterNamesAreTranslated) {
  EXPECT_EQ(ib_node_name(subnet, &names, "p0/leaf/1", kCommandLine, "src", false).value(), "p0/leaf/1");
  EXPECT_EQ(ib_node_name(subnet, &names, "host3", kCommandLine, "src", false).value(), "host3/nic0");
  EXPECT_EQ(ib_node_name(subnet, &names, "host3:1", kCommandLine, "src", false).value(), "host3/nic0:1");
  EXPECT_EQ(ib_node_name(subnet, &names, "12", kCommandLine, "dst", true).value(), "12");  // a LID
  // Without a fabric (an ibnetdiscover file) every name is the IB model's to judge.
  EXPECT_EQ(ib_node_name(subnet, nullptr, "host3", kCommandLine, "src", false).value(), "host3");
}

TEST_F(ClusterNamesTest, EveryBadFailureNameIsReportedWithItsDidYouMean) {
  auto ok = ib_failure_names(subnet, &names, {"host3,p0/leaf/0", "p0/spine/1"}, kCommandLine);
  ASSERT_TRUE(ok.ok()) << format_diagnostics(ok.errors());
  EXPECT_EQ(ok.value(), (std::vector<std::string>{"host3/nic0,p0/leaf/0", "p0/spine/1"}));
  auto bad = ib_failure_names(subnet, &names, {"p0/spnie/1", "host0,p0/laef/0"}, kCommandLine);
  ASSERT_FALSE(bad.ok());
  ASSERT_EQ(bad.errors().size(), 2U) << format_diagnostics(bad.errors());
  EXPECT_EQ(bad.errors()[0].field, "--fail");
  EXPECT_NE(bad.errors()[0].message.find("did you mean 'p0/spine/1'"), std::string::npos) << bad.errors()[0].message;
  EXPECT_NE(bad.errors()[1].message.find("did you mean 'p0/leaf/0'"), std::string::npos) << bad.errors()[1].message;
}

// One link syntax (issue 23): "A -- B" and a link id, as hash and simulate take them, are the IB
// model's NODE:PORT failures, one per cable. In two_tier(2, 2, 4, 1) p0/leaf/0 has its 4 NIC links
// (ids 0-3) on ports 1-4, then one uplink per spine: link 8 (to p0/spine/0) on port 5 and link 9
// (to p0/spine/1) on port 6; a NIC link is port 1 of its CA.
TEST_F(ClusterNamesTest, LinksAreNamedAsEveryCommandNamesThem) {
  auto ok = ib_failure_names(subnet, &names, {"p0/leaf/0 -- p0/spine/1", "2", "p0/spine/0--p0/leaf/0"}, kCommandLine);
  ASSERT_TRUE(ok.ok()) << format_diagnostics(ok.errors());
  EXPECT_EQ(ok.value(), (std::vector<std::string>{"p0/leaf/0:6", "host2/nic0:1", "p0/leaf/0:5"}));
  auto bad = ib_failure_names(subnet, &names, {"p0/leaf/0 -- p0/leaf/1", "p0/leaf/0 -- p0/spnie/1"}, kCommandLine);
  ASSERT_FALSE(bad.ok());
  ASSERT_EQ(bad.errors().size(), 2U) << format_diagnostics(bad.errors());
  EXPECT_NE(bad.errors()[0].message.find("no cable joins"), std::string::npos) << bad.errors()[0].message;
  EXPECT_NE(bad.errors()[1].message.find("did you mean 'p0/spine/1'"), std::string::npos) << bad.errors()[1].message;
  EXPECT_EQ(bad.errors()[1].field, "--fail");
  // Without a fabric (an ibnetdiscover file) "A -- B" is the IB model's "A,B".
  EXPECT_EQ(ib_failure_names(subnet, nullptr, {"L2 -- S2"}, kCommandLine).value(), std::vector<std::string>{"L2,S2"});
}

}  // namespace
}  // namespace ct
