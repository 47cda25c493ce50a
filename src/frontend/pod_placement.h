// Where the pods of each workload run, as the default kube-scheduler would place them on empty,
// identical nodes: a node is feasible when it is schedulable, carries every nodeSelector label and
// satisfies the one required nodeAffinity term; with required podAntiAffinity on
// kubernetes.io/hostname a node takes at most one replica. Among feasible nodes the scheduler's
// spreading (PodTopologySpread and NodeResourcesBalancedAllocation on empty nodes) puts each replica
// on the node with the fewest replicas of the workload, then the fewest pods of any workload
// placed so far; ties go to the node name in order. A DaemonSet runs one pod per feasible node.
// Not modelled: resource requests and capacity, taints and tolerations, preferred (soft) terms,
// zones, image locality, readiness (every placed pod is taken as ready).
#pragma once

#include <string>
#include <vector>

#include "frontend/manifests.h"

namespace ct {

struct PlacedPod {
  std::size_t workload = 0;
  std::string name;  // <workload>-<ordinal>
  std::string node;  // empty = Pending (no feasible node)
  std::string why;   // the placement reason
};

struct Placement {
  std::vector<PlacedPod> pods;  // workloads in file order, replicas in ordinal order
};

Placement place_pods(const Manifests& m);

// Does `node` satisfy the workload's node constraints? Empty when yes, else the reason.
std::string node_infeasible(const KubeWorkload& w, const Node& node);

// Pods whose labels match the Service's selector (the Service's endpoints).
std::vector<const PlacedPod*> service_endpoints(const Manifests& m, const Placement& p, const Service& s);

}  // namespace ct
