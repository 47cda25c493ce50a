// Node death timelines worked by hand: each test sums the timers in its comment. Defaults: the
// node-monitor grace period G = 40 s, tolerationSeconds S = 300 s, the attach-detach controller's
// force detach F = 360 s, start-up U = 30 s, Longhorn's node-down pod deletion policy do-nothing.
#include "survival/node_lifecycle.h"

#include <gtest/gtest.h>

#include "frontend/manifest_parser.h"
#include "support/gateway_yaml.h"
#include "spec/spec_parser.h"

namespace ct {
namespace {

Manifests load(const std::string& text) { return testing_support::parsed_manifests(text); }

std::string nodes(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "---\napiVersion: v1\nkind: Node\nmetadata: {name: n" + std::to_string(i) + "}\n";
  return s;
}

std::string workload(const std::string& kind, const std::string& name, int replicas, const std::string& annotations,
                     const std::string& pod_spec, const std::string& spec = "") {
  return "---\napiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: " + name + ", annotations: {" + annotations + "}}\nspec:\n" +
         (kind == "DaemonSet" ? "" : "  replicas: " + std::to_string(replicas) + "\n") + spec + "  selector: {matchLabels: {app: " + name +
         "}}\n  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n      containers: [{name: c, image: i}]\n" + pod_spec;
}

const std::string kLonghorn =
    "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: longhorn, annotations: "
    "{storageclass.kubernetes.io/is-default-class: 'true'}}\nprovisioner: driver.longhorn.io\n"
    "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n"
    "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";

const AppOutage& app(const NodeDeath& d, const std::string& name) {
  for (const auto& a : d.apps) {
    if (a.name == name) return a;
  }
  ADD_FAILURE() << "no app " << name;
  return d.apps.front();
}

// Three nodes. web (1 replica, start-up 20 s) goes to n0; api (2 replicas) to n1 and n2.
// n0 dies: web-0 is evicted at G + S = 40 + 300 = 340 s, its replacement goes to n1 (n1 and n2 hold
// one pod each, name order) and is Ready at 340 + 20 = 360 s: web is down from 0 to 360 s.
// n1 dies instead: api keeps api-1 on n2, so it is never down; api-0's replacement is Ready at
// 40 + 300 + 30 = 370 s, when api is whole again.
TEST(NodeDeath, DeploymentWithoutVolume) {
  const Manifests m = load(nodes(3) + workload("Deployment", "web", 1, "clustertwin.io/startup-seconds: '20'", "") +
                           workload("Deployment", "api", 2, "", ""));
  const Placement p = place_pods(m);
  const NodeDeath d = node_death(m, p, "n0", LifecycleTimers{});
  ASSERT_EQ(d.pods.size(), 1u);
  EXPECT_EQ(d.pods[0].evicted_s, 340);
  EXPECT_EQ(d.pods[0].replacement_node, "n1");
  EXPECT_EQ(d.pods[0].ready_s, 360);
  EXPECT_EQ(app(d, "default/web").down_from_s, 0);
  EXPECT_EQ(app(d, "default/web").downtime_s(), 360);
  EXPECT_EQ(d.events.front().what, "dies: stops answering and posting status");
  EXPECT_EQ(d.events[1].what, "down: every pod was on n0");
  EXPECT_EQ(d.events[2].object, "node n0");
  EXPECT_EQ(d.events[2].at_s, 40);

  const NodeDeath d1 = node_death(m, p, "n1", LifecycleTimers{});
  const AppOutage& api = app(d1, "default/api");
  EXPECT_EQ(api.survivors, 1);
  EXPECT_EQ(api.downtime_s(), 0);
  EXPECT_EQ(api.degraded_to_s, 370);
}

// A Deployment of one pod mounting the ReadWriteOnce Longhorn claim `data` (the model API's shape):
//   default: 40 (G) + 300 (S) + 360 (force detach) + 30 (U) = 730 s down;
//   the pod tolerates unreachable for 30 s: 40 + 30 + 360 + 30 = 460 s;
//   Longhorn's policy delete-deployment-pod: the volume detaches at eviction: 40 + 300 + 30 = 370 s;
//   policy delete-statefulset-pod does not cover a Deployment: 730 s again.
TEST(NodeDeath, ReadWriteOnceVolumeWaitsForTheDetach) {
  const std::string volume = "      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]\n";
  const Manifests m = load(nodes(2) + kLonghorn + workload("Deployment", "model", 1, "", volume));
  const Placement p = place_pods(m);
  ASSERT_EQ(p.pods[0].node, "n0");
  EXPECT_EQ(app(node_death(m, p, "n0", LifecycleTimers{}), "default/model").downtime_s(), 730);
  LifecycleTimers deployment_policy;
  deployment_policy.longhorn_pod_deletion_policy = "delete-deployment-pod";
  EXPECT_EQ(app(node_death(m, p, "n0", deployment_policy), "default/model").downtime_s(), 370);
  LifecycleTimers statefulset_policy;
  statefulset_policy.longhorn_pod_deletion_policy = "delete-statefulset-pod";
  EXPECT_EQ(app(node_death(m, p, "n0", statefulset_policy), "default/model").downtime_s(), 730);

  const Manifests quick = load(nodes(2) + kLonghorn +
                               workload("Deployment", "model", 1, "",
                                        volume + "      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, "
                                                 "effect: NoExecute, tolerationSeconds: 30}]\n"));
  EXPECT_EQ(app(node_death(quick, place_pods(quick), "n0", LifecycleTimers{}), "default/model").downtime_s(), 460);
}

// A StatefulSet of one pod with a Longhorn volumeClaimTemplate: with do-nothing the old pod stays
// Terminating on the unreachable node and no replacement is made: down for ever. With
// delete-both-statefulset-and-deployment-pod Longhorn force-deletes it at 40 + 300 = 340 s, the
// replacement db-0 goes to n1, attaches the volume and is Ready at 340 + 30 = 370 s.
// The grace period overridden to 10 s: 10 + 300 + 30 = 340 s.
TEST(NodeDeath, StatefulSetStuckUnlessLonghornDeletesThePod) {
  const std::string tpl =
      "  volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]\n";
  const Manifests m = load(nodes(2) + kLonghorn + workload("StatefulSet", "db", 1, "", "", tpl));
  const Placement p = place_pods(m);
  const NodeDeath stuck = node_death(m, p, "n0", LifecycleTimers{});
  EXPECT_EQ(app(stuck, "default/db").down_to_s, kNever);
  EXPECT_EQ(stuck.pods[0].replacement_node, "");
  EXPECT_NE(stuck.pods[0].why.find("StatefulSet: no replacement"), std::string::npos);
  LifecycleTimers both;
  both.longhorn_pod_deletion_policy = "delete-both-statefulset-and-deployment-pod";
  const NodeDeath freed = node_death(m, p, "n0", both);
  EXPECT_EQ(freed.pods[0].replacement_node, "n1");
  EXPECT_EQ(app(freed, "default/db").downtime_s(), 370);
  both.node_monitor_grace_s = 10;
  EXPECT_EQ(app(node_death(m, p, "n0", both), "default/db").downtime_s(), 340);
}

// A DaemonSet's pod on the dead node tolerates the unreachable taint for ever: never evicted, never
// replaced; the DaemonSet keeps its pod on n1 (never down). A Deployment that fits nowhere else
// (nodeSelector on n0) is Pending with the scheduler's reason: down for ever.
TEST(NodeDeath, DaemonSetAndPendingReplacement) {
  const Manifests m = load(nodes(2) + workload("DaemonSet", "agent", 0, "", "") +
                           workload("Deployment", "pinned", 1, "", "      nodeSelector: {kubernetes.io/hostname: n0}\n"));
  const NodeDeath d = node_death(m, place_pods(m), "n0", LifecycleTimers{});
  ASSERT_EQ(d.pods.size(), 2u);
  EXPECT_EQ(d.pods[0].evicted_s, kNever);
  EXPECT_EQ(app(d, "default/agent").downtime_s(), 0);
  EXPECT_EQ(d.pods[1].why,
            "the replacement is Pending: 0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
            "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.");
  EXPECT_EQ(app(d, "default/pinned").down_to_s, kNever);
}

// The spec's survival block overrides the defaults; a policy Longhorn does not have is refused at
// its line, naming the four it has.
TEST(NodeDeath, TimersFromTheSpec) {
  auto spec = parse_spec("c.yaml", "name: x\nsurvival:\n  node_monitor_grace_s: 20\n  toleration_s: 60\n  force_detach_s: 120\n"
                                   "  startup_s: 90\n  longhorn_node_down_pod_deletion_policy: delete-deployment-pod\n");
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  auto t = lifecycle_timers(spec->survival);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->node_monitor_grace_s, 20);
  EXPECT_EQ(t->default_toleration_s, 60);
  EXPECT_EQ(t->force_detach_s, 120);
  EXPECT_EQ(t->startup_s, 90);
  EXPECT_EQ(t->longhorn_pod_deletion_policy, "delete-deployment-pod");
  auto bad = parse_spec("c.yaml", "name: x\nsurvival:\n  longhorn_node_down_pod_deletion_policy: delete-all\n");
  ASSERT_TRUE(bad.ok());
  auto refused = lifecycle_timers(bad->survival);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.errors()[0].where.line, 3);
  EXPECT_NE(refused.errors()[0].message.find("unknown policy 'delete-all': expected do-nothing, delete-statefulset-pod"), std::string::npos);
}

}  // namespace
}  // namespace ct
