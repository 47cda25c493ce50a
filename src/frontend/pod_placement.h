// Where the pods of each workload run, as the default kube-scheduler would place them, one pod at a
// time in file order (workloads) and ordinal order (replicas), each pod seeing the pods placed
// before it. Sources: kubernetes.io "Assigning Pods to Nodes", "Taints and Tolerations", "Pod
// Topology Spread Constraints", "Resource Management for Pods and Containers", and the default
// profile's filter plugins in kube-scheduler's order (pkg/scheduler/framework/plugins):
//   NodeUnschedulable  spec.unschedulable, unless the pod tolerates node.kubernetes.io/unschedulable
//   TaintToleration    each NoSchedule/NoExecute taint must be tolerated; a node whose Ready
//                      condition is False carries node.kubernetes.io/not-ready, Unknown carries
//                      node.kubernetes.io/unreachable (both NoSchedule and NoExecute), as the node
//                      lifecycle controller sets them
//   NodeAffinity       nodeSelector and the first required nodeSelectorTerm
//   NodeResourcesFit   the pod's requests (containers summed, raised to any initContainer's) plus
//                      those of the pods already on the node within status.allocatable, and one
//                      pod more within allocatable.pods; a resource the Node does not list is not
//                      limited
//   PodTopologySpread  each DoNotSchedule constraint: on nodes that pass NodeAffinity and carry the
//                      topologyKey, the pods its labelSelector matches (same namespace) per domain;
//                      placing here must keep count(domain) + 1 - min(count) <= maxSkew; a node
//                      without the key fails (a nil labelSelector matches no pod, as the API's)
//   InterPodAffinity   this pod's required affinity (a term that matches no pod yet is satisfied
//                      by the first pod that matches it itself), its required anti-affinity, then
//                      the placed pods' required anti-affinity against it
// A node that fails a filter gets that filter's reason, worded as the plugin words it; a pod that
// fits no node is Pending with the scheduler's FitError message, "0/N nodes are available:"
// followed by each reason with its node count, sorted, joined by ", " and ended by ".".
// Among the nodes that pass, the model orders by these keys in turn (kube-scheduler adds the
// plugins' normalised, weighted scores instead; the order agrees when one key decides):
//   fewest untolerated PreferNoSchedule taints; highest sum of the matched preferred nodeAffinity
//   weights; highest preferred pod (anti-)affinity sum (+weight per term with a matching pod in
//   the node's domain, -weight for anti); the lowest count in the node's domain summed over the
//   ScheduleAnyway constraints; then spreading as the scheduler does on empty nodes: fewest
//   replicas of the workload, fewest pods of any workload, the node name.
// A node's kubernetes.io/hostname label is its name when the manifest leaves it out (the kubelet
// sets it on every node).
// A DaemonSet runs one pod on every node that passes the filters with the tolerations the
// DaemonSet controller adds (not-ready and unreachable NoExecute; disk-, memory-, pid-pressure and
// unschedulable NoSchedule).
// A pod is Ready (an endpoint of the Services selecting it) when it is placed and its node's Ready
// condition is True. Not modelled: PriorityClass and preemption (a Pending pod evicts nobody; the
// FitError's "preemption:" sentence is left out), image locality, nodeName, hostPorts, volume
// topology, minDomains, matchLabelKeys, more than one nodeSelectorTerm, readiness probes
// (a pod on a Ready node is Ready), EndpointSlices written in the manifests.
#pragma once

#include <string>
#include <vector>

#include "frontend/manifests.h"

namespace ct {

struct PlacedPod {
  std::size_t workload = 0;
  std::string name;  // <workload>-<ordinal>
  std::string node;  // empty = Pending (no feasible node)
  std::string why;   // the placement reason, or "Pending: " and the scheduler's message
  bool ready = false;  // placed on a node whose Ready condition is True: an endpoint
};

struct Placement {
  std::vector<PlacedPod> pods;  // workloads in file order, replicas in ordinal order
};

Placement place_pods(const Manifests& m);

// Does `node` satisfy the workload's node constraints (cordon, untolerated taints, nodeSelector,
// required nodeAffinity)? Empty when yes, else the reason with the label or taint named.
std::string node_infeasible(const KubeWorkload& w, const Node& node);

// The taints a node carries: spec.taints and those of its Ready condition (header).
std::vector<Taint> node_taints(const Node& node);

// How long a pod of `w` stays bound to a node with the NoExecute taint `key`
// (node.kubernetes.io/not-ready or unreachable): its own toleration's tolerationSeconds, else the
// `default_seconds` that the DefaultTolerationSeconds admission plugin adds to every pod (300 s,
// kube-apiserver --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds);
// -1 when it tolerates the taint for ever (a DaemonSet's pods, or a toleration without seconds).
long long toleration_seconds(const KubeWorkload& w, const std::string& key, long long default_seconds = 300);

// After a failure: the pods `lost` (indices into before.pods) scheduled again on `m` (the manifests
// as they are now, a dead node's Ready condition Unknown), every other placed pod of `before`
// staying where it is. The new pods in the order of `lost`, each keeping its name. The nodes named in
// `unreachable` are taken as Ready Unknown whatever `m` says (a failure study's gone nodes, without
// a copy of the manifests per study).
std::vector<PlacedPod> replace_pods(const Manifests& m, const Placement& before, const std::vector<std::size_t>& lost,
                                    const std::vector<std::string>& unreachable = {});

// Ready pods whose labels match the Service's selector (the Service's endpoints).
std::vector<const PlacedPod*> service_endpoints(const Manifests& m, const Placement& p, const Service& s);

}  // namespace ct
