// The JSON and DOT exports of built example topologies.
#include <optional>
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/loaders.h"
#include "report/topology_export.h"
#include "topology/builder.h"
#include "support/test_paths.h"

namespace ct {
namespace {

struct Built {
  Catalog catalog;
  Topology topology;
};

// The example built with the bundled catalog, or nullopt after reporting why not.
std::optional<Built> build_example(const std::string& name) {
  auto catalog = load_catalog(ct::testing_support::source_dir() + "/catalog");
  if (!catalog) {
    ADD_FAILURE() << format_diagnostics(catalog.errors());
    return std::nullopt;
  }
  auto spec = load_spec(ct::testing_support::source_dir() + "/examples/" + name, catalog.value());
  if (!spec) {
    ADD_FAILURE() << format_diagnostics(spec.errors());
    return std::nullopt;
  }
  Topology t = build_topology(spec.value(), catalog.value());
  return Built{std::move(catalog).value(), std::move(t)};
}

std::size_t count_matches(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

TEST(TopologyExport, DotCollapsesParallelCables) {
  // lab-32: 256 NIC-leaf cables (one edge each) and 8 leaves x 4 spines pairs of 8 cables each:
  // 256 + 32 = 288 edges, 32 of them labelled x8; one cluster per host plus the plane's.
  const auto built = build_example("lab-32.yaml");
  ASSERT_TRUE(built);
  const Built& b = *built;
  const std::string dot = to_dot(b.topology);
  EXPECT_EQ(count_matches(dot, R"( v\d+ -- v\d+)"), 288U);
  EXPECT_EQ(count_matches(dot, R"(label="x8")"), 32U);
  EXPECT_EQ(count_matches(dot, R"(subgraph cluster_plane0_host\d+ )"), 32U);
  EXPECT_EQ(count_matches(dot, R"(subgraph cluster_plane0 )"), 1U);
  EXPECT_EQ(dot, to_dot(b.topology));
}

TEST(TopologyExport, DotHasOneClusterPerPlaneAndTheFrontend) {
  const auto built = build_example("b300-dual-plane.yaml");
  ASSERT_TRUE(built);
  const Built& b = *built;
  const std::string dot = to_dot(b.topology);
  EXPECT_EQ(count_matches(dot, R"(subgraph cluster_plane\d )"), 2U);
  EXPECT_EQ(count_matches(dot, R"(subgraph cluster_frontend )"), 1U);
}

TEST(TopologyExport, JsonListsEveryVertexAndLinkInIdOrder) {
  // b300-dual-plane: 1,024 hosts x 8 NICs x 2 planes = 16,384 ports; per plane 128 leaves (16 SUs
  // of 64 hosts x 8 rails) and 64 spines (smallest S | 64 with 128 S >= 128 x 64). Frontend:
  // 2 BlueField-3 x 2 ports = 4 per host = 4,096 ports; 200G on 256 ports, 3:1 -> 64 up, 192 down
  // = 48 hosts per leaf, 22 leaves, 8 spines (smallest S | 64 with 256 S >= 22 x 64).
  // Vertices 16,384 + 384 + 4,096 + 30 = 20,894; links 16,384 + 2 x 128 x 64 + 4,096 + 22 x 64
  // = 38,272.
  const auto built = build_example("b300-dual-plane.yaml");
  ASSERT_TRUE(built);
  const Built& b = *built;
  const auto json = nlohmann::json::parse(to_json(b.topology, b.catalog));
  ASSERT_EQ(json["vertices"].size(), 20894U);
  ASSERT_EQ(json["links"].size(), 38272U);
  EXPECT_EQ(json["planes"], 2);
  EXPECT_EQ(json["frontend_ports_per_host"], 4);
  for (std::size_t i = 0; i < json["links"].size(); ++i) ASSERT_EQ(json["links"][i]["id"], i);
  const auto& port = json["vertices"][b.topology.port_of(HostId(7), 3, 1).value()];
  EXPECT_EQ(port["name"], "host7/nic3/p1");
  EXPECT_EQ(port["host"], 7);
  EXPECT_EQ(port["rail"], 3);
  EXPECT_EQ(port["plane"], 1);
  const auto& fe = json["vertices"][b.topology.frontend_port_of(HostId(7), 2).value()];
  EXPECT_EQ(fe["network"], "frontend");
  EXPECT_EQ(fe["port"], 2);
  for (std::size_t l = 0; l < b.topology.link_count(); ++l) {
    const auto m = b.topology.media[l];
    if (m < 0) {
      ASSERT_TRUE(json["links"][l]["media"].is_null());
    } else {
      ASSERT_EQ(json["links"][l]["media"], b.catalog.optics[static_cast<std::size_t>(m)].id);
    }
  }
}

}  // namespace
}  // namespace ct
