// Longhorn's replica scheduler worked by hand on small clusters (volume_replicas.h): hard node
// anti-affinity on three workers, three replicas on two workers (Degraded for ever), zones,
// disk space against the minimal-available and over-provisioning percentages, data locality,
// and the settings read from Setting objects and the longhorn-default-setting ConfigMap. Each
// test's comment places the replicas one at a time.
#include "frontend/volume_replicas.h"

#include <gtest/gtest.h>

#include "frontend/manifest_parser.h"
#include "support/gateway_yaml.h"

namespace ct {
namespace {

Manifests load(const std::string& text) { return testing_support::parsed_manifests(text); }

// Node n<i> with extra labels (YAML flow text) and status fields.
std::string node(int i, const std::string& labels = "", const std::string& status = "") {
  return "---\napiVersion: v1\nkind: Node\nmetadata: {name: n" + std::to_string(i) + ", labels: {kubernetes.io/hostname: n" +
         std::to_string(i) + (labels.empty() ? "" : ", " + labels) + "}}\nstatus: {" + status + "}\n";
}

// A Longhorn Node n<i> with one disk `d` of `maximum` (status.diskStatus) and the disk fields.
std::string longhorn_node(int i, const std::string& maximum, const std::string& disk = "") {
  return "---\napiVersion: longhorn.io/v1beta2\nkind: Node\nmetadata: {name: n" + std::to_string(i) +
         ", namespace: longhorn-system}\nspec:\n  disks:\n    d: {path: /mnt/d" + (disk.empty() ? "" : ", " + disk) +
         "}\nstatus:\n  diskStatus:\n    d: {storageMaximum: " + maximum + "}\n";
}

std::string storage_class(int replicas, const std::string& extra = "") {
  return "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: lh, annotations: "
         "{storageclass.kubernetes.io/is-default-class: 'true'}}\nprovisioner: driver.longhorn.io\nparameters: {numberOfReplicas: '" +
         std::to_string(replicas) + "'" + (extra.empty() ? "" : ", " + extra) + "}\n";
}

std::string claim(const std::string& name, const std::string& size) {
  return "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + "}\nspec: {resources: {requests: {storage: " + size +
         "}}}\n";
}

std::string setting(const std::string& name, const std::string& value) {
  return "---\napiVersion: longhorn.io/v1beta2\nkind: Setting\nmetadata: {name: " + name + ", namespace: longhorn-system}\nvalue: '" + value +
         "'\n";
}

using Nodes = std::vector<std::string>;

// Three workers, three replicas, hard node anti-affinity (the default): each replica goes to a node
// without one; sizes unknown, so the tie goes to the node with fewest replicas, then the name: n0,
// n1, n2. A second volume of 4 replicas gets n0, n1, n2 (each node now holds 1, so name order
// again) and its fourth fits nowhere: every disk's node already holds a replica of it.
TEST(LonghornScheduling, ThreeWorkersHardAntiAffinity) {
  const std::string text = node(0) + node(1) + node(2) + storage_class(3) + claim("a", "10Gi") +
                           "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: four}\nprovisioner: driver.longhorn.io\n"
                           "parameters: {numberOfReplicas: '4'}\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: b}\n"
                           "spec: {storageClassName: four, resources: {requests: {storage: 1Gi}}}\n";
  const Manifests m = load(text);
  const LonghornSchedule s = schedule_longhorn(m, place_pods(m));
  ASSERT_EQ(s.volumes.size(), 2u);
  EXPECT_EQ(s.volumes[0].replica_nodes, (Nodes{"n0", "n1", "n2"}));
  EXPECT_TRUE(s.volumes[0].unscheduled.empty());
  EXPECT_EQ(s.volumes[1].replica_nodes, (Nodes{"n0", "n1", "n2"}));
  EXPECT_EQ(s.volumes[1].unscheduled, "replica scheduling failed: hard affinity cannot be satisfied (3 disk(s))");
}

// Two workers, three replicas: n0, n1, then nothing: the volume is Degraded for ever (2 of 3). With
// replica-soft-anti-affinity true the third goes to a node that already has one: n0 (the disk with
// the most usable space is a tie, so the node with fewest replicas: both hold 1, then the name),
// the volume is healthy but survives one node death only.
TEST(LonghornScheduling, TwoWorkersThreeReplicasDegradedForEver) {
  const std::string base = node(0) + node(1) + storage_class(3) + claim("data", "10Gi");
  const Manifests m = load(base);
  const VolumeReport v = describe_volume(m, place_pods(m), "default", "data", "");
  EXPECT_EQ(v.replica_nodes, (Nodes{"n0", "n1"}));
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_EQ(v.problems[0], "only 2 of 3 replica(s) scheduled (replica scheduling failed: hard affinity cannot be satisfied (2 disk(s))): "
                           "the volume is Degraded for ever");

  const Manifests soft = load(base + setting("replica-soft-anti-affinity", "true"));
  const VolumeReport w = describe_volume(soft, place_pods(soft), "default", "data", "");
  EXPECT_EQ(w.replica_nodes, (Nodes{"n0", "n1", "n0"}));
  EXPECT_TRUE(w.problems.empty());
  EXPECT_EQ(w.survival.back(), "the data survives the loss of any 1 node(s) at once");
}

// Zones: n0, n1, n2 in zone a, n3 in zone b. Two replicas: n0 (all new, name order), then the only
// node in a new zone: n3. Three replicas: n0, n3, then (zone soft, the default) a new node in a used
// zone: n1. With replica-zone-soft-anti-affinity false the third fits nowhere (every node left is
// in a used zone): Degraded for ever.
TEST(LonghornScheduling, Zones) {
  const std::string nodes = node(0, "topology.kubernetes.io/zone: a") + node(1, "topology.kubernetes.io/zone: a") +
                            node(2, "topology.kubernetes.io/zone: a") + node(3, "topology.kubernetes.io/zone: b");
  const Manifests two = load(nodes + storage_class(2) + claim("v", "1Gi"));
  EXPECT_EQ(schedule_longhorn(two, place_pods(two)).volumes[0].replica_nodes, (Nodes{"n0", "n3"}));
  const Manifests three = load(nodes + storage_class(3) + claim("v", "1Gi"));
  EXPECT_EQ(schedule_longhorn(three, place_pods(three)).volumes[0].replica_nodes, (Nodes{"n0", "n3", "n1"}));
  const Manifests hard = load(nodes + storage_class(3) + claim("v", "1Gi") + setting("replica-zone-soft-anti-affinity", "false"));
  const LonghornSchedule s = schedule_longhorn(hard, place_pods(hard));
  EXPECT_EQ(s.volumes[0].replica_nodes, (Nodes{"n0", "n3"}));
  EXPECT_EQ(s.volumes[0].unscheduled, "replica scheduling failed: hard affinity cannot be satisfied (4 disk(s))");
}

// Disk space. Two nodes, each one Longhorn disk of 100Gi, nothing reserved, one replica per volume.
// Volumes of 60Gi in file order, each checked against
//   over-provisioning  scheduled + 60 <= (100 - 0) x 100% = 100Gi
//   minimal available  100 - 60 = 40 > 100 x 25% = 25Gi (always true for 60Gi)
// v1 -> n0 (tie, name), v2 -> n1 (n0 has 40Gi usable left, n1 100), v3: 120 > 100 on both:
// "insufficient storage", never healthy. With storage-over-provisioning-percentage 200, the limit is
// 200Gi: v3 fits on n0 (tie at 40Gi usable, fewest replicas: tie, name). An 80Gi volume never fits:
// 100 - 80 = 20 <= 25 (minimal available), whatever the over-provisioning.
TEST(LonghornScheduling, DiskSpaceAndOverProvisioning) {
  const std::string disks = node(0) + node(1) + longhorn_node(0, "100Gi") + longhorn_node(1, "100Gi") + storage_class(1);
  const std::string vols = claim("v1", "60Gi") + claim("v2", "60Gi") + claim("v3", "60Gi");
  const Manifests m = load(disks + vols);
  const LonghornSchedule s = schedule_longhorn(m, place_pods(m));
  ASSERT_EQ(s.volumes.size(), 3u);
  EXPECT_EQ(s.volumes[0].replica_nodes, Nodes{"n0"});
  EXPECT_EQ(s.volumes[1].replica_nodes, Nodes{"n1"});
  EXPECT_TRUE(s.volumes[2].replica_nodes.empty());
  EXPECT_EQ(s.volumes[2].unscheduled, "replica scheduling failed: insufficient storage (2 disk(s))");
  const VolumeReport v3 = describe_volume(m, place_pods(m), "default", "v3", "");
  ASSERT_EQ(v3.problems.size(), 1u);
  EXPECT_NE(v3.problems[0].find("never healthy"), std::string::npos);

  const Manifests over = load(disks + vols + setting("storage-over-provisioning-percentage", "200"));
  EXPECT_EQ(schedule_longhorn(over, place_pods(over)).volumes[2].replica_nodes, Nodes{"n0"});
  const Manifests big = load(disks + claim("big", "80Gi") + setting("storage-over-provisioning-percentage", "200"));
  EXPECT_EQ(schedule_longhorn(big, place_pods(big)).volumes[0].unscheduled, "replica scheduling failed: insufficient storage (2 disk(s))");
}

// The default disk takes its size from the node's ephemeral-storage capacity and reserves 30% of it
// (storage-reserved-percentage-for-default-disk): 100Gi -> (100 - 30) x 100% = 70Gi schedulable. A
// 60Gi volume fits, a second one does not (120 > 70). A disk with allowScheduling false, or a tag
// the class's diskSelector wants and the disk lacks, takes nothing.
TEST(LonghornScheduling, DefaultDiskReserveTagsAndAllowScheduling) {
  const Manifests m = load(node(0, "", "capacity: {ephemeral-storage: 100Gi}") + storage_class(1) + claim("a", "60Gi") + claim("b", "60Gi"));
  const LonghornSchedule s = schedule_longhorn(m, place_pods(m));
  ASSERT_EQ(s.disks.size(), 1u);
  EXPECT_EQ(s.disks[0].path, "/var/lib/longhorn/");
  EXPECT_DOUBLE_EQ(s.disks[0].reserved, 30.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(s.volumes[0].replica_nodes, Nodes{"n0"});
  EXPECT_EQ(s.volumes[1].unscheduled, "replica scheduling failed: insufficient storage (1 disk(s))");

  const Manifests t = load(node(0) + node(1) + longhorn_node(0, "100Gi", "tags: [ssd]") + longhorn_node(1, "100Gi", "allowScheduling: false") +
                           storage_class(2, "diskSelector: ssd") + claim("a", "1Gi"));
  const LonghornSchedule u = schedule_longhorn(t, place_pods(t));
  EXPECT_EQ(u.volumes[0].replica_nodes, Nodes{"n0"});
  EXPECT_EQ(u.volumes[0].unscheduled, "replica scheduling failed: disks are unavailable (1 disk(s)); hard affinity cannot be satisfied (1 disk(s))");
}

// Data locality. best-effort, engine on n2 of n0..n3: the first replica on n2, the second n0.
// strict-local, one replica, engine on n3: on n3. strict-local with the engine on a node without a
// disk (n9 is no node): nowhere. strict-local with 2 replicas: Longhorn refuses it.
TEST(LonghornScheduling, DataLocality) {
  const std::string nodes = node(0) + node(1) + node(2) + node(3);
  const Manifests be = load(nodes + storage_class(2, "dataLocality: best-effort") + claim("v", "1Gi"));
  EXPECT_EQ(describe_volume(be, place_pods(be), "default", "v", "n2").replica_nodes, (Nodes{"n2", "n0"}));
  const Manifests sl = load(nodes + storage_class(1, "dataLocality: strict-local") + claim("v", "1Gi"));
  const VolumeReport on3 = describe_volume(sl, place_pods(sl), "default", "v", "n3");
  EXPECT_EQ(on3.replica_nodes, Nodes{"n3"});
  EXPECT_EQ(on3.candidate_nodes, Nodes{"n3"});
  const VolumeReport away = describe_volume(sl, place_pods(sl), "default", "v", "n9");
  EXPECT_TRUE(away.replica_nodes.empty());
  ASSERT_EQ(away.problems.size(), 1u);
  EXPECT_EQ(away.problems[0], "only 0 of 1 replica(s) scheduled (replica scheduling failed: no Longhorn disk on any node [strict-local: "
                              "only the engine's node n9 may hold the replica]): the volume is never healthy (faulted on creation)");
  const Manifests two = load(nodes + storage_class(2, "dataLocality: strict-local") + claim("v", "1Gi"));
  const VolumeReport bad = describe_volume(two, place_pods(two), "default", "v", "n0");
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0], "dataLocality strict-local needs numberOfReplicas 1 (Longhorn refuses 2 replicas)");
}

// Issue 25: create-default-disk-labeled-nodes defaults to false (longhorn-manager
// types/setting.go), so a node label alone changes nothing: n0 is labelled
// node.longhorn.io/create-default-disk=true, n1 and n2 are not, and every node gets the default
// disk: three replicas on n0, n1, n2. With the Setting true, only n0 has a disk: one replica, the
// other two fit nowhere ("no Longhorn disk" on n1 and n2 is no candidate at all).
TEST(LonghornScheduling, TheDefaultDiskLabelMeansNothingByDefault) {
  const std::string base = node(0, "node.longhorn.io/create-default-disk: 'true'") + node(1) + node(2) + storage_class(3) + claim("a", "10Gi");
  const Manifests plain = load(base);
  const LonghornSchedule s = schedule_longhorn(plain, place_pods(plain));
  EXPECT_FALSE(s.labeled_nodes_only);
  EXPECT_EQ(s.volumes.at(0).replica_nodes, (Nodes{"n0", "n1", "n2"}));
  const Manifests labeled = load(base + setting("create-default-disk-labeled-nodes", "true"));
  const LonghornSchedule t = schedule_longhorn(labeled, place_pods(labeled));
  EXPECT_TRUE(t.labeled_nodes_only);
  EXPECT_EQ(t.volumes.at(0).replica_nodes, (Nodes{"n0"}));
}

// Settings: a Setting object, and the chart's ConfigMap (its default-setting.yaml lines), read; the
// first one given wins. default-replica-count 2 applies to a class without numberOfReplicas.
// A bad value is an error at its line.
TEST(LonghornScheduling, SettingsFromObjectsAndConfigMap) {
  const std::string cm =
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: longhorn-default-setting, namespace: longhorn-system}\ndata:\n"
      "  default-setting.yaml: |\n    default-replica-count: 2\n    replica-replenishment-wait-interval: 300\n";
  const std::string sc = "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: lh, annotations: "
                         "{storageclass.kubernetes.io/is-default-class: 'true'}}\nprovisioner: driver.longhorn.io\n";
  const Manifests m = load(node(0) + node(1) + node(2) + cm + sc + claim("v", "1Gi"));
  const LonghornSettings st = longhorn_settings(m);
  EXPECT_EQ(st.default_replica_count, 2);
  EXPECT_DOUBLE_EQ(st.replenishment_wait_s, 300);
  EXPECT_EQ(schedule_longhorn(m, place_pods(m)).volumes[0].replica_nodes, (Nodes{"n0", "n1"}));
  ASSERT_EQ(st.from_manifests.size(), 2u);
  EXPECT_EQ(st.from_manifests[0], "default-replica-count=2 (t.yaml:22)");

  auto bad = parse_manifests({{"m.yaml", setting("replica-soft-anti-affinity", "yes")}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors()[0].field, "value");
  EXPECT_EQ(bad.errors()[0].where.line, 5);
  EXPECT_EQ(bad.errors()[0].message, "expected true or false");
}

}  // namespace
}  // namespace ct
