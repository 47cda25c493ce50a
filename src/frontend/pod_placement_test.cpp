// The scheduling model worked by hand on small clusters: resources against allocatable, taints and
// tolerations, topology spread over zones, hard pod anti-affinity on three workers, pod affinity,
// readiness, and the tolerationSeconds that drive eviction. Each test's comment places the pods
// one at a time with the filters and keys of pod_placement.h.
#include "frontend/pod_placement.h"

#include <gtest/gtest.h>

#include "frontend/manifest_parser.h"
#include "support/gateway_yaml.h"

namespace ct {
namespace {

Manifests load(const std::string& text) { return testing_support::parsed_manifests(text); }

// Node n<i> with extra metadata labels, spec and status fields (YAML flow text).
std::string node(int i, const std::string& labels, const std::string& spec = "", const std::string& status = "") {
  return "---\napiVersion: v1\nkind: Node\nmetadata: {name: n" + std::to_string(i) + ", labels: {kubernetes.io/hostname: n" +
         std::to_string(i) + (labels.empty() ? "" : ", " + labels) + "}}\nspec: {" + spec + "}\nstatus: {" + status + "}\n";
}

// A Deployment `name` with `replicas`, pod label app=<name>, and `pod_spec` lines (indented 6); one
// container unless `pod_spec` lists them.
std::string deployment(const std::string& name, int replicas, const std::string& pod_spec) {
  return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + "}\nspec:\n  replicas: " + std::to_string(replicas) +
         "\n  selector: {matchLabels: {app: " + name + "}}\n  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n" +
         (pod_spec.find("containers:") == std::string::npos ? "      containers: [{name: c, image: i}]\n" : "") + pod_spec;
}

std::vector<std::string> nodes_of(const Placement& p) {
  std::vector<std::string> out;
  for (const auto& pod : p.pods) out.push_back(pod.node);
  return out;
}

// Three nodes of 2 CPU and 4Gi; 7 replicas of 1 CPU, 1Gi. Each pod goes to the node with the fewest
// replicas, then by name: n0, n1, n2, then n0, n1, n2 (each node now at 2 of 2 CPU); the seventh
// fits nowhere: all three nodes say "Insufficient cpu" (memory 2Gi of 4Gi still fits).
// A second workload asks 3Gi of memory and 0.5 CPU on nodes that are full of CPU: the first failing
// filter (NodeResourcesFit) lists both resources for each node.
// A third node of allocatable pods: 1 takes one pod; the second is "Too many pods".
TEST(Scheduling, RequestsAgainstAllocatable) {
  const std::string alloc = "allocatable: {cpu: '2', memory: 4Gi}";
  const std::string res = "        resources: {requests: {cpu: '1', memory: 1Gi}}\n";
  std::string text = node(0, "", "", alloc) + node(1, "", "", alloc) + node(2, "", "", alloc);
  text += deployment("a", 7, "      containers:\n      - name: c\n        image: i\n" + res);
  text += deployment("b", 1, "      containers:\n      - name: c\n        image: i\n        resources: {requests: {cpu: 500m, memory: 3Gi}}\n");
  const Placement p = place_pods(load(text));
  ASSERT_EQ(p.pods.size(), 8u);
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n0", "n1", "n2", "n0", "n1", "n2", "", ""}));
  EXPECT_EQ(p.pods[6].why, "Pending: 0/3 nodes are available: 3 Insufficient cpu.");
  EXPECT_EQ(p.pods[7].why, "Pending: 0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.");

  const Placement q = place_pods(load(node(0, "", "", "allocatable: {pods: '1'}") + deployment("a", 2, "")));
  EXPECT_EQ(q.pods[0].node, "n0");
  EXPECT_EQ(q.pods[1].why, "Pending: 0/1 nodes are available: 1 Too many pods.");
}

// n0 tainted dedicated=gpu:NoSchedule, n1 soft=x:PreferNoSchedule, n2 clean.
//   a (2 replicas, no toleration): n0 is filtered out; n1 and n2 pass, n2 has no PreferNoSchedule
//     taint and wins both times (the first key decides before spreading): n2, n2.
//   b (1 replica, tolerates dedicated=gpu): all pass; n0 and n2 have no PreferNoSchedule taint;
//     fewest replicas of b tie at 0, fewest pods: n0 (0) before n2 (2): n0.
//   c (nodeSelector kubernetes.io/hostname=n0, no toleration): n0 fails at TaintToleration, n1 and
//     n2 at NodeAffinity: "1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match
//     Pod's node affinity/selector" (sorted as strings).
TEST(Scheduling, TaintsAndTolerations) {
  std::string text = node(0, "", "taints: [{key: dedicated, value: gpu, effect: NoSchedule}]") +
                     node(1, "", "taints: [{key: soft, value: x, effect: PreferNoSchedule}]") + node(2, "");
  text += deployment("a", 2, "");
  text += deployment("b", 1, "      tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]\n");
  text += deployment("c", 1, "      nodeSelector: {kubernetes.io/hostname: n0}\n");
  const Placement p = place_pods(load(text));
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n2", "n2", "n0", ""}));
  EXPECT_EQ(p.pods[3].why,
            "Pending: 0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, "
            "2 node(s) didn't match Pod's node affinity/selector.");
  EXPECT_EQ(node_infeasible(load(text).workloads[2], load(text).nodes[0]), "untolerated taint dedicated=gpu:NoSchedule");
}

// Zones: n0, n1 in zone a; n2 in zone b; n3 has no zone label. Workload w, 5 replicas, one
// DoNotSchedule constraint on topology.kubernetes.io/zone, maxSkew 1, selecting app=w.
// n3 always fails (missing required label). Counts (a, b) before each pod, min over a and b:
//   w-0 (0,0): every zone node passes; fewest replicas tie, name: n0          -> (1,0)
//   w-1 (1,0) min 0: zone a gives 1+1-0 = 2 > 1, refused; n2 gives 1: n2       -> (1,1)
//   w-2 (1,1) min 1: all give 1; fewest replicas of w: n1 (0)                  -> (2,1)
//   w-3 (2,1) min 1: zone a gives 2, refused; n2                                -> (2,2)
//   w-4 (2,2) min 2: all pass; replicas n0 1, n1 1, n2 2: n0 by name            -> (3,2)
// Workload x (nodeSelector n3, same kind of constraint) fails on n0..n2 at NodeAffinity and on n3
// at PodTopologySpread: "1 ... (missing required label), 3 ... node affinity/selector".
TEST(Scheduling, SpreadOverZones) {
  std::string text = node(0, "topology.kubernetes.io/zone: a") + node(1, "topology.kubernetes.io/zone: a") +
                     node(2, "topology.kubernetes.io/zone: b") + node(3, "");
  const std::string spread = "      topologySpreadConstraints:\n      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, "
                             "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: ";
  text += deployment("w", 5, spread + "w}}}\n");
  text += deployment("x", 1, spread + "x}}}\n      nodeSelector: {kubernetes.io/hostname: n3}\n");
  const Placement p = place_pods(load(text));
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n0", "n2", "n1", "n2", "n0", ""}));
  EXPECT_EQ(p.pods[5].why,
            "Pending: 0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), "
            "3 node(s) didn't match Pod's node affinity/selector.");
}

// A constraint without labelSelector counts no pod (the API's nil selector): skew is always 0 and
// nothing is refused; the workload still spreads by the last keys: n0, n1, n0.
TEST(Scheduling, SpreadWithoutSelectorConstrainsNothing) {
  const Placement p = place_pods(load(node(0, "") + node(1, "") +
                                      deployment("w", 3, "      topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname}]\n")));
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n0", "n1", "n0"}));
}

// Three workers, 4 replicas with required podAntiAffinity on kubernetes.io/hostname against their
// own label: one per node, n0, n1, n2; the fourth finds a replica on every node:
// "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."
// Then `cache` (1 replica, no rules of its own) meets db's anti-affinity against app=cache: db
// (placed first, on n0 by name) refuses it on n0 ("existing pods anti-affinity"), so it goes to n1
// (n1 and n2 empty, name order); on a one-node cluster it is Pending for that reason.
TEST(Scheduling, ThreeWorkersHardAntiAffinity) {
  const std::string anti =
      "      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
      "[{labelSelector: {matchLabels: {app: ";
  std::string text = node(0, "") + node(1, "") + node(2, "");
  text += deployment("w", 4, anti + "w}}, topologyKey: kubernetes.io/hostname}]}}\n");
  const Placement p = place_pods(load(text));
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n0", "n1", "n2", ""}));
  EXPECT_EQ(p.pods[3].why, "Pending: 0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");

  const std::string text2 = node(0, "") + node(1, "") + node(2, "") + deployment("db", 1, anti + "cache}}, topologyKey: kubernetes.io/hostname}]}}\n") +
                            deployment("cache", 1, "");
  EXPECT_EQ(nodes_of(place_pods(load(text2))), (std::vector<std::string>{"n0", "n1"}));
  const std::string text3 = node(0, "") + deployment("db", 1, anti + "cache}}, topologyKey: kubernetes.io/hostname}]}}\n") +
                            deployment("cache", 1, "");
  EXPECT_EQ(place_pods(load(text3)).pods[1].why, "Pending: 0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules.");
}

// Required podAffinity: `web` wants a pod app=cache on its node. cache's one pod lands on n0 (name);
// web follows it to n0 although n1 and n2 are emptier. `lonely` wants app=lonely pods: none exists
// and the pod matches its own term, so the first one is placed (n1: fewest pods); `orphan` wants
// app=nobody: "3 node(s) didn't match pod affinity rules". Preferred nodeAffinity (weight 50 for
// disk=ssd on n2) draws `pref` to n2 although n1 has fewer pods.
TEST(Scheduling, PodAffinityAndPreferredTerms) {
  const std::string aff = "      affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: ";
  std::string text = node(0, "") + node(1, "") + node(2, "disk: ssd") + deployment("cache", 1, "");
  text += deployment("web", 1, aff + "cache}}, topologyKey: kubernetes.io/hostname}]}}\n");
  text += deployment("lonely", 1, aff + "lonely}}, topologyKey: kubernetes.io/hostname}]}}\n");
  text += deployment("orphan", 1, aff + "nobody}}, topologyKey: kubernetes.io/hostname}]}}\n");
  text += deployment("pref", 1,
                     "      affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: "
                     "[{weight: 50, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}]}}\n");
  const Placement p = place_pods(load(text));
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n0", "n0", "n1", "", "n2"}));
  EXPECT_EQ(p.pods[3].why, "Pending: 0/3 nodes are available: 3 node(s) didn't match pod affinity rules.");
}

// Readiness: n1's Ready condition is Unknown, so it carries node.kubernetes.io/unreachable
// NoSchedule and NoExecute. `a` (2 replicas) cannot go there: n0, n0. `t` tolerates every taint
// (operator Exists, no key) and spreads to n1 (fewest pods), where it is placed but not Ready, so
// the Service selecting app=t has one endpoint, not two.
TEST(Scheduling, PodOnNotReadyNodeIsNoEndpoint) {
  std::string text = node(0, "") + node(1, "", "", "conditions: [{type: Ready, status: Unknown}]");
  text += deployment("a", 2, "");
  text += deployment("t", 2, "      tolerations: [{operator: Exists}]\n");
  text += "---\napiVersion: v1\nkind: Service\nmetadata: {name: t}\nspec: {selector: {app: t}, ports: [{port: 80}]}\n";
  const Manifests m = load(text);
  const Placement p = place_pods(m);
  EXPECT_EQ(nodes_of(p), (std::vector<std::string>{"n0", "n0", "n1", "n0"}));
  EXPECT_FALSE(p.pods[2].ready);
  EXPECT_TRUE(p.pods[3].ready);
  const auto eps = service_endpoints(m, p, m.services[0]);
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0]->name, "t-1");
}

// tolerationSeconds for not-ready/unreachable: none written -> the admission default 300 s; an
// own toleration of 30 s -> 30; a DaemonSet's pods tolerate both for ever (-1).
TEST(Scheduling, TolerationSecondsForEviction) {
  std::string text = deployment("plain", 1, "") +
                     deployment("quick", 1, "      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}]\n") +
                     "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec:\n  selector: {matchLabels: {app: ds}}\n"
                     "  template:\n    metadata: {labels: {app: ds}}\n    spec: {containers: [{name: c, image: i}]}\n";
  const Manifests m = load(text);
  EXPECT_EQ(toleration_seconds(m.workloads[0], "node.kubernetes.io/unreachable"), 300);
  EXPECT_EQ(toleration_seconds(m.workloads[1], "node.kubernetes.io/unreachable"), 30);
  EXPECT_EQ(toleration_seconds(m.workloads[1], "node.kubernetes.io/not-ready"), 300);
  EXPECT_EQ(toleration_seconds(m.workloads[2], "node.kubernetes.io/unreachable"), -1);
}

}  // namespace
}  // namespace ct
