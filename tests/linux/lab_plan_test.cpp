// The lab's plan, checked without root against the fat tree it is built from
// (examples/lab/fat-tree-4.yaml: k = 4, 3 tiers, 8 single-NIC hosts in pods 0 and 1):
//   namespaces: 4 pods x (2 edge + 2 aggregation) + 4 cores = 20 switches, plus 8 host ports = 28;
//   links: 8 NIC links + 4 pods x 4 edge-aggregation + 16 aggregation-core = 40 veth pairs;
//   the edge p0/pod0/leaf/0 reaches host4 (pod 1) over its 2 uplinks: a 2-next-hop route in member
//   order; every router gets the spec's policy (1) and seed: with seed_mode same all 20 seeds are
//   equal, with per-switch they are 20 distinct values.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "io/loaders.h"
#include "lab/lab_plan.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/test_paths.h"

namespace ct {
namespace {

Result<Fabric> fabric_from(const std::string& relative, const std::string& extra = "") {
  static const Catalog catalog = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
  std::ifstream in(ct::testing_support::source_dir() + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  auto valid = validate_reading(read_spec(relative, s.str() + extra), catalog);
  if (!valid) return valid.errors();
  return build_fabric(valid.value(), catalog);
}

std::set<std::string> seeds(const LabPlan& plan) {
  std::set<std::string> out;
  for (const LabNamespace& ns : plan.namespaces) {
    for (const std::string& s : ns.sysctls) {
      if (s.rfind("net.ipv4.fib_multipath_hash_seed=", 0) == 0) out.insert(s);
    }
  }
  return out;
}

TEST(LabPlan, MapsTheFatTreeOntoNamespaces) {
  auto f = fabric_from("examples/lab/fat-tree-4.yaml");
  ASSERT_TRUE(f.ok()) << format_diagnostics(f.errors());
  auto plan = plan_lab(f.value(), "ctlab-t-");
  ASSERT_TRUE(plan.ok()) << format_diagnostics(plan.errors());
  EXPECT_EQ(plan->namespaces.size(), 28u);
  EXPECT_EQ(plan->links.size(), 40u);
  EXPECT_EQ(seeds(plan.value()), std::set<std::string>{"net.ipv4.fib_multipath_hash_seed=24301"});  // 0x5EED
  const auto edge = f->names().vertex("p0/pod0/leaf/0", {}, "t").value();
  const LabNamespace& ns = plan->namespaces[static_cast<std::size_t>(plan->namespace_of_vertex[edge.value()])];
  EXPECT_NE(std::find(ns.sysctls.begin(), ns.sysctls.end(), "net.ipv4.fib_multipath_hash_policy=1"), ns.sysctls.end());
  int multipath = 0;
  for (const std::string& c : ns.commands) {
    if (c.rfind("route add 10.0.0.4/32 nexthop", 0) == 0) {
      ++multipath;
      std::size_t hops = 0;
      for (std::size_t at = c.find(" nexthop "); at != std::string::npos; at = c.find(" nexthop ", at + 1)) ++hops;
      EXPECT_EQ(hops, 2u) << c;
    }
  }
  EXPECT_EQ(multipath, 1);
  const std::string map = lab_port_map(plan.value(), f->topology());
  EXPECT_NE(map.find("p0/pod0/leaf/0,l8,p0/pod0/leaf/0,p0/pod0/spine/0,0\n"), std::string::npos) << map;
}

TEST(LabPlan, PerSwitchSeedsGiveEveryRouterItsOwnSeed) {
  auto f = fabric_from("examples/lab/fat-tree-4-per-switch.yaml");
  ASSERT_TRUE(f.ok()) << format_diagnostics(f.errors());
  auto plan = plan_lab(f.value(), "ctlab-t-");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(seeds(plan.value()).size(), 20u);
}

TEST(LabPlan, RefusesAHashTheKernelCannotCompute) {
  auto f = fabric_from("examples/homelab.yaml");
  ASSERT_TRUE(f.ok());
  auto plan = plan_lab(f.value(), "ctlab-t-");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.errors()[0].field, "routing.ecmp.hash");
  EXPECT_NE(plan.errors()[0].message.find("crc32"), std::string::npos) << plan.errors()[0].message;
}

}  // namespace
}  // namespace ct
