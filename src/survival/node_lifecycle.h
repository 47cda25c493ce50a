// What the death of one node does to the workloads, on a timeline from the death (t = 0) to the
// steady state, with Kubernetes' node lifecycle timers and Longhorn's node-down handling:
//   grace      the node stops posting status; after the node-monitor grace period G the node
//              lifecycle controller sets its Ready condition Unknown, marks its pods not Ready
//              (they leave the Services' endpoints) and taints it node.kubernetes.io/unreachable
//              (NoSchedule, NoExecute). Until G the dead pods are still endpoints: requests sent
//              to them fail. G: kube-controller-manager --node-monitor-grace-period, 40 s
//              (kubernetes.io "kube-controller-manager" reference; "Nodes", node controller).
//   eviction   a pod that tolerates the NoExecute taint for S seconds is evicted at G + S: its
//              own toleration's tolerationSeconds, else the DefaultTolerationSeconds admission
//              plugin's 300 s (kubernetes.io "Taints and Tolerations", taint-based evictions).
//              A DaemonSet's pods tolerate the taint for ever and are never replaced.
//   replace    a Deployment's ReplicaSet makes a replacement at once (a Terminating pod does not
//              count); the scheduler places it on the cluster without the dead node
//              (pod_placement.h replace_pods), or it stays Pending with the scheduler's reason.
//              A StatefulSet makes no replacement while the old pod object exists, and on an
//              unreachable node its deletion never completes (kubernetes.io "Force Delete
//              StatefulSet Pods"): the pod is gone until the node returns, unless Longhorn
//              force-deletes it (below).
//   volume     a replacement that mounts a ReadWriteOnce volume attached to the dead node stays
//              ContainerCreating until the volume is detached: the attach-detach controller
//              force-detaches F after the old pod's deletion (maxWaitForUnmountDuration, 6 min);
//              with Longhorn's "Pod Deletion Policy When Node is Down"
//              (node-down-pod-deletion-policy: do-nothing, the default, delete-statefulset-pod,
//              delete-deployment-pod, delete-both-statefulset-and-deployment-pod; longhorn.io
//              "Node Failure Handling") covering the pod's kind, Longhorn force-deletes the
//              terminating pod at eviction and the volume detaches then, which also frees a
//              StatefulSet to make its replacement.
//   start-up   a replacement is Ready U after it can start: image pull and start-up, per workload
//              from the annotation clustertwin.io/startup-seconds, else the timers' default (30 s,
//              this model's assumption: Kubernetes has no such figure).
// A workload (an app) is down while none of its pods is Ready and alive; degraded while some of its
// endpoints are dead but still listed (0..G) or fewer pods than wanted are Ready.
// Not modelled: the node returning, PodDisruptionBudgets (they do not block taint evictions),
// readiness probes' own delays, Longhorn replica rebuilds (docs/models/node-lifecycle.md).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "core/result.h"
#include "frontend/manifests.h"
#include "frontend/pod_placement.h"
#include "spec/spec.h"

namespace ct {

struct LifecycleTimers {
  double node_monitor_grace_s = 40;
  double default_toleration_s = 300;
  double force_detach_s = 360;
  double startup_s = 30;
  std::string longhorn_pod_deletion_policy = "do-nothing";
};

// The timers of the spec's `survival:` block over the defaults above; an unknown Longhorn policy is
// an error at its field, naming the four values.
Result<LifecycleTimers> lifecycle_timers(const SurvivalSpec& spec);

constexpr double kNever = std::numeric_limits<double>::infinity();

// One step of the timeline.
struct LifecycleEvent {
  double at_s = 0;
  std::string object;  // "node node-3", "pod ml/vllm-0", "app ml/vllm"
  std::string what;
};

// One pod of the dead node and what becomes of it.
struct PodFate {
  std::size_t workload = 0;
  std::string name;
  double not_ready_s = 0;    // out of the endpoints (G)
  double evicted_s = kNever;  // G + S; kNever: never (DaemonSet, toleration for ever, StatefulSet stuck)
  std::string replacement_node;  // empty: none (Pending, stuck, or DaemonSet)
  double ready_s = kNever;       // the replacement is Ready
  std::string why;               // how ready_s is made up, or why there is no replacement
};

// One workload with a pod on the dead node.
struct AppOutage {
  std::size_t workload = 0;
  std::string name;             // ns/name
  int pods = 0;                 // pods wanted (placed before the death)
  int survivors = 0;            // Ready pods on other nodes
  double down_from_s = kNever;  // no Ready pod alive from then (kNever: never down)
  double down_to_s = 0;         // until a replacement is Ready (kNever: for ever)
  double degraded_to_s = 0;     // every wanted pod Ready again (kNever: never)
  [[nodiscard]] double downtime_s() const { return down_from_s == kNever ? 0 : down_to_s - down_from_s; }
};

struct NodeDeath {
  std::string node;
  LifecycleTimers timers;
  std::vector<PodFate> pods;
  std::vector<AppOutage> apps;
  std::vector<LifecycleEvent> events;  // by time, then as produced
};

// PRECONDITION: `node` names a Node of m. The nodes in `also_gone` (gone in the same study) are
// taken as Ready Unknown as well when the replacements are scheduled.
NodeDeath node_death(const Manifests& m, const Placement& before, const std::string& node, const LifecycleTimers& timers,
                     const std::vector<std::string>& also_gone = {});

}  // namespace ct
