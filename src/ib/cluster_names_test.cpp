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

}  // namespace
}  // namespace ct
