// Longhorn rebuilds over the spec's frontend network worked by hand (survival/volume_rebuild.h
// plan_rebuilds). The spec: 10 homelab nodes, each with one ConnectX-6 Dx (2 x 100G) on a 100G
// SN2700 frontend at oversubscription 1. The SN2700 has 32 ports at 100G: a leaf has 16 down and
// 16 up, so 8 hosts (16 ports) per leaf, top of rack: host0..host7 on fe/leaf/0, host8 and host9 on
// fe/leaf/1, and one spine (the smallest S with 32 S >= 2 leaves x 16 uplinks), 16 cables from each
// leaf. A rebuild may leave and enter a node by either of its two frontend ports (a bond or two
// uplinks); every link is 100 Gb/s each way.
#include <gtest/gtest.h>

#include "fabric/name_directory.h"
#include "frontend/manifest_parser.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/gateway_yaml.h"
#include "support/shipped_catalog.h"
#include "survival/volume_rebuild.h"
#include "topology/builder.h"

namespace ct {
namespace {

using testing_support::real_catalog;

constexpr double kGi = 1024.0 * 1024 * 1024;

Topology ten_homelab_nodes() {
  const std::string yaml =
      "name: t\nnodes: {model: homelab-node, count: 10}\nbackend:\n  topology: leaf-spine\n  planes: 1\n  tiers: 2\n  switch: sn2700\n"
      "  port_speed: 100G\n  oversubscription: [1]\nfrontend:\n  nic: connectx-6-dx\n  speed: 100G\n  switch: sn2700\n  oversubscription: 1\n";
  auto spec = parse_spec("t.yaml", yaml);
  EXPECT_TRUE(spec.ok());
  auto valid = validate(spec.value(), real_catalog());
  EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : format_diagnostics(valid.errors()));
  return build_topology(valid.value(), real_catalog());
}

// Node `name` on spec host `host`, with a Longhorn disk of `gi` Gi (nothing reserved).
std::string storage_node(const std::string& name, int host, int gi) {
  return "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + name + ", annotations: {clustertwin.io/host: host" + std::to_string(host) +
         "}}\n---\napiVersion: longhorn.io/v1beta2\nkind: Node\nmetadata: {name: " + name +
         ", namespace: longhorn-system}\nspec: {disks: {d: {path: /mnt/d}}}\nstatus: {diskStatus: {d: {storageMaximum: " + std::to_string(gi) +
         "Gi}}}\n";
}

std::string two_replica_volumes(const std::vector<std::pair<std::string, std::string>>& claims) {
  std::string text =
      "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: lh, annotations: {storageclass.kubernetes.io/is-default-class: "
      "'true'}}\nprovisioner: driver.longhorn.io\nparameters: {numberOfReplicas: '2'}\n";
  for (const auto& [name, size] : claims) {
    text += "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + "}\nspec: {resources: {requests: {storage: " + size +
            "}}}\n";
  }
  return text;
}

// n0 (host0), n1 (host1), n2 (host8), equal 1000Gi disks; one 60Gi volume of 2 replicas: n0, n1 (the
// tie goes by name). n1 dies at t = 0: the new replica goes to the only node without one, n2, copied
// from n0, after the 600 s replenishment wait. The path: host0's port up to fe/leaf/0, up to the
// spine, down to fe/leaf/1, down to host8's port: 4 links of 100 Gb/s, so alone it runs at 100 Gb/s:
// 60 x 2^30 x 8 / 1e11 = 5.1539607552 s, finishing at 605.1539607552 s.
TEST(RebuildPlan, OneRebuildOverASpecPath) {
  const Topology t = ten_homelab_nodes();
  const Manifests m = testing_support::parsed_manifests(storage_node("n0", 0, 1000) + storage_node("n1", 1, 1000) +
                                                        storage_node("n2", 8, 1000) + two_replica_volumes({{"model", "60Gi"}}));
  DeadElements dead;
  dead.nodes = {"n1"};
  const auto plan = plan_rebuilds(m, place_pods(m), &t, dead);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].volume, "default/model");
  EXPECT_EQ(to_string(plan[0].after.health), "degraded");
  ASSERT_EQ(plan[0].rebuilds.size(), 1u);
  const PlannedRebuild& r = plan[0].rebuilds[0];
  EXPECT_EQ(r.from_node, "n0");
  EXPECT_EQ(r.to_node, "n2");
  ASSERT_EQ(r.path.size(), 4u);
  EXPECT_EQ(r.path[0].substr(0, 10), "host0/fe0 ");
  EXPECT_NE(r.path[1].find("fe/spine/0"), std::string::npos);
  EXPECT_NE(r.path[3].find("host8/fe0"), std::string::npos);
  EXPECT_TRUE(r.path[3].ends_with(" down"));
  // Each leaf's 16 cables to the spine are named as every output names a cable: the first in
  // link-id order, which the breadth-first walk takes, is "#0" (from 0), and the name reads back
  // through the name directory to that one cable (the bare "fe/leaf/0 -- fe/spine/0" names all 16).
  EXPECT_EQ(r.path[1], "fe/leaf/0 -- fe/spine/0 #0 up");
  EXPECT_EQ(r.path[2], "fe/leaf/1 -- fe/spine/0 #0 down");
  const NameDirectory names(t);
  for (const std::string& hop : {r.path[1], r.path[2]}) {
    const auto back = names.links(hop.substr(0, hop.rfind(' ')), {}, "test");
    ASSERT_TRUE(back.ok()) << hop;
    EXPECT_EQ(back->size(), 1u) << hop;
  }
  EXPECT_DOUBLE_EQ(r.start_s, 600);
  EXPECT_NEAR(r.finish_s, 605.1539607552, 1e-9);
}

// Issue 25: every frontend port of a node is modelled. As OneRebuildOverASpecPath, with the link of
// host0's first port (host0/fe0 -- fe/leaf/0) dead too: the copy leaves n0 by its second port,
// host0/fe1, on the same 4 links' length at the same 100 Gb/s (5.1539607552 s after the wait). With
// both of host0's links dead, n0 is cut off and the rebuild has no path.
TEST(RebuildPlan, ARebuildLeavesByTheSecondPortWhenTheFirstIsDead) {
  const Topology t = ten_homelab_nodes();
  const Manifests m = testing_support::parsed_manifests(storage_node("n0", 0, 1000) + storage_node("n1", 1, 1000) +
                                                        storage_node("n2", 8, 1000) + two_replica_volumes({{"model", "60Gi"}}));
  DeadElements dead;
  dead.nodes = {"n1"};
  std::vector<LinkId> host0;
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    const std::string name = t.link_name(LinkId(static_cast<std::uint32_t>(l)));
    if (name.starts_with("host0/fe")) host0.push_back(LinkId(static_cast<std::uint32_t>(l)));
  }
  ASSERT_EQ(host0.size(), 2u);
  EXPECT_EQ(t.link_name(host0[0]), "host0/fe0 -- fe/leaf/0");
  dead.links = {host0[0]};
  const auto plan = plan_rebuilds(m, place_pods(m), &t, dead);
  ASSERT_EQ(plan.at(0).rebuilds.size(), 1u);
  const PlannedRebuild& r = plan[0].rebuilds[0];
  EXPECT_EQ(r.from_node, "n0");
  ASSERT_EQ(r.path.size(), 4u);
  EXPECT_EQ(r.path[0].substr(0, 10), "host0/fe1 ");
  EXPECT_NEAR(r.finish_s, 605.1539607552, 1e-9);

  dead.links = host0;
  const auto cut = plan_rebuilds(m, place_pods(m), &t, dead);
  EXPECT_EQ(cut.at(0).rebuilds.at(0).finish_s, std::numeric_limits<double>::infinity());
}

// Two rebuilds share one uplink. n0, n1 (hosts 0, 1) have 1000Gi disks, n2, n3 (hosts 2, 3) 100Gi.
// Volume a (60Gi) goes to the disks with the most usable space: n0, n1; then b (30Gi): n0 and n1
// have 940Gi usable, so n0, n1 again. n1 dies: a's new replica: n2 or n3 (100Gi each, no replicas):
// n2 by name; b's: n2 has 40Gi usable left, n3 100Gi: n3. Both copy from n0, the only live replica,
// so both go up host0's uplink (100 Gb/s) and down different leaf ports: 50 Gb/s each until b's
// 30Gi is done at 30 x 2^30 x 8 / 5e10 = 5.1539607552 s after the wait, then a alone at 100 Gb/s for
// its last 30Gi, 2.5769803776 s more: 7.7309411328 s after the wait.
TEST(RebuildPlan, TwoConcurrentRebuildsShareOneUplink) {
  const Topology t = ten_homelab_nodes();
  const Manifests m = testing_support::parsed_manifests(storage_node("n0", 0, 1000) + storage_node("n1", 1, 1000) + storage_node("n2", 2, 100) +
                                                        storage_node("n3", 3, 100) + two_replica_volumes({{"a", "60Gi"}, {"b", "30Gi"}}));
  DeadElements dead;
  dead.nodes = {"n1"};
  dead.at_s = 10;
  const auto plan = plan_rebuilds(m, place_pods(m), &t, dead);
  ASSERT_EQ(plan.size(), 2u);
  const PlannedRebuild& a = plan[0].rebuilds.at(0);
  const PlannedRebuild& b = plan[1].rebuilds.at(0);
  EXPECT_EQ(a.to_node, "n2");
  EXPECT_EQ(b.to_node, "n3");
  EXPECT_EQ(a.from_node, "n0");
  EXPECT_EQ(b.from_node, "n0");
  EXPECT_EQ(a.path.front(), b.path.front());
  EXPECT_NEAR(b.finish_s, 610 + 5.1539607552, 1e-9);
  EXPECT_NEAR(a.finish_s, 610 + 7.7309411328, 1e-9);
}

// Where no disk fits, the volume stays Degraded with Longhorn's reason; where every replica was on
// the dead nodes the data is lost and nothing is rebuilt; without a spec the rebuild is placed but
// not timed; with the only path's leaf dead it never finishes.
TEST(RebuildPlan, NoRoomLostDataNoSpecAndNoPath) {
  const Topology t = ten_homelab_nodes();
  const Manifests two = testing_support::parsed_manifests(storage_node("n0", 0, 1000) + storage_node("n1", 1, 1000) +
                                                          two_replica_volumes({{"v", "1Gi"}}));
  DeadElements one;
  one.nodes = {"n1"};
  const auto no_room = plan_rebuilds(two, place_pods(two), &t, one);
  ASSERT_EQ(no_room.at(0).rebuilds.size(), 1u);
  EXPECT_EQ(no_room[0].rebuilds[0].never, "replica scheduling failed: hard affinity cannot be satisfied (1 disk(s)); nodes are unavailable (1 disk(s))");
  EXPECT_EQ(no_room[0].rebuilds[0].finish_s, std::numeric_limits<double>::infinity());

  DeadElements both;
  both.nodes = {"n0", "n1"};
  const auto lost = plan_rebuilds(two, place_pods(two), &t, both);
  EXPECT_TRUE(lost.at(0).after.data_lost);
  EXPECT_TRUE(lost[0].rebuilds.empty());

  const Manifests three = testing_support::parsed_manifests(storage_node("n0", 0, 1000) + storage_node("n1", 1, 1000) +
                                                            storage_node("n2", 8, 1000) + two_replica_volumes({{"v", "1Gi"}}));
  const auto untimed = plan_rebuilds(three, place_pods(three), nullptr, one);
  EXPECT_EQ(untimed.at(0).rebuilds.at(0).to_node, "n2");
  EXPECT_EQ(untimed[0].rebuilds[0].never, "no frontend network in the cluster spec: the rebuild is not timed");

  DeadElements leaf = one;
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.vertex_name(VertexId(static_cast<std::uint32_t>(v))) == "fe/leaf/1") leaf.switches.push_back(VertexId(static_cast<std::uint32_t>(v)));
  }
  ASSERT_EQ(leaf.switches.size(), 1u);
  const auto cut = plan_rebuilds(three, place_pods(three), &t, leaf);
  EXPECT_EQ(cut.at(0).rebuilds.at(0).never, "no frontend path from a live replica's node to n2");
}

}  // namespace
}  // namespace ct
