#include "survival/node_lifecycle.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ct {

namespace {

constexpr const char* kUnreachable = "node.kubernetes.io/unreachable";

// The claims a pod mounts: the workload's, and for a StatefulSet pod NAME-i the claim
// TEMPLATE-NAME-i of each volumeClaimTemplate (its access modes are the template's).
struct MountedClaim {
  std::string name;
  std::vector<std::string> access_modes;
  std::string storage_class;  // as written; empty = the default class
};

std::vector<MountedClaim> mounted_claims(const Manifests& m, const KubeWorkload& w, const std::string& pod) {
  std::vector<MountedClaim> out;
  for (const auto& c : w.claims) {
    const PersistentVolumeClaim* claim = m.find_claim(w.meta.ns, c);
    out.push_back(MountedClaim{c, claim ? claim->access_modes : std::vector<std::string>{}, claim ? claim->storage_class : ""});
  }
  for (const auto& tpl : w.claim_templates) {
    out.push_back(MountedClaim{tpl.meta.name + "-" + pod, tpl.access_modes, tpl.storage_class});
  }
  return out;
}

bool is_longhorn(const Manifests& m, const MountedClaim& c) {
  const StorageClass* sc = nullptr;
  if (!c.storage_class.empty()) {
    sc = m.find_storage_class(c.storage_class);
  } else {
    for (const auto& s : m.storage_classes) {
      if (s.is_default) sc = &s;
    }
  }
  return sc != nullptr && sc->provisioner == "driver.longhorn.io";
}

// Does Longhorn's node-down pod deletion policy force-delete a pod of this kind?
bool longhorn_deletes(const std::string& policy, const std::string& kind) {
  if (policy == "delete-both-statefulset-and-deployment-pod") return kind == "StatefulSet" || kind == "Deployment";
  if (policy == "delete-statefulset-pod") return kind == "StatefulSet";
  if (policy == "delete-deployment-pod") return kind == "Deployment";
  return false;
}

std::string seconds(double s) { return s == kNever ? "never" : fmt::format("{:g} s", s); }

class Timeline {
 public:
  Timeline(const Manifests& m, const Placement& before, const std::string& node, const LifecycleTimers& t, const std::vector<std::string>& also_gone)
      : m_(m), before_(before), t_(t), also_gone_(also_gone) {
    d_.node = node;
    d_.timers = t;
  }

  NodeDeath run();

 private:
  void event(double at, const std::string& object, const std::string& what) { d_.events.push_back({at, object, what}); }
  bool needs_replacement(const PlacedPod& p, PodFate& fate);
  void replacement(const PlacedPod& p, const PlacedPod& placed, PodFate& fate);
  void apps();

  const Manifests& m_;
  const Placement& before_;
  const LifecycleTimers& t_;
  const std::vector<std::string>& also_gone_;
  NodeDeath d_;
};

// Sets the eviction time; false (with the reason) when no replacement will be made.
bool Timeline::needs_replacement(const PlacedPod& p, PodFate& fate) {
  const KubeWorkload& w = m_.workloads[p.workload];
  const std::string pod = "pod " + w.meta.ns + "/" + p.name;
  const long long s = toleration_seconds(w, kUnreachable, static_cast<long long>(t_.default_toleration_s));
  if (s < 0) {
    fate.why = w.meta.kind == "DaemonSet" ? "a DaemonSet pod: it tolerates the unreachable taint for ever and runs again only when the node returns"
                                          : "tolerates node.kubernetes.io/unreachable for ever: never evicted, never replaced";
    return false;
  }
  fate.evicted_s = t_.node_monitor_grace_s + static_cast<double>(s);
  event(fate.evicted_s, pod, fmt::format("evicted at G + S = {:g} + {} s (tolerationSeconds{}): Terminating; the dead kubelet never confirms it",
                                         t_.node_monitor_grace_s, s, w.tolerations.empty() ? ", the admission default" : ""));
  if (w.meta.kind == "StatefulSet") {
    const auto claims = mounted_claims(m_, w, p.name);
    const bool longhorn = std::any_of(claims.begin(), claims.end(), [&](const MountedClaim& c) { return is_longhorn(m_, c); });
    if (!longhorn || !longhorn_deletes(t_.longhorn_pod_deletion_policy, w.meta.kind)) {
      fate.why = fmt::format("StatefulSet: no replacement while the old pod is Terminating on the unreachable node{}: down until the node "
                             "returns or someone force-deletes the pod",
                             longhorn ? fmt::format(" (Longhorn's node-down pod deletion policy is {})", t_.longhorn_pod_deletion_policy) : "");
      event(fate.evicted_s, pod, fate.why);
      return false;
    }
  }
  return true;
}

void Timeline::replacement(const PlacedPod& p, const PlacedPod& placed, PodFate& fate) {
  const KubeWorkload& w = m_.workloads[p.workload];
  const std::string pod = "pod " + w.meta.ns + "/" + p.name;
  if (placed.node.empty()) {
    fate.why = "the replacement is " + placed.why;
    event(fate.evicted_s, pod, fate.why);
    return;
  }
  fate.replacement_node = placed.node;
  event(fate.evicted_s, pod, "replacement scheduled on " + placed.node);
  double start = fate.evicted_s;
  std::vector<std::string> parts{fmt::format("evicted {}", seconds(fate.evicted_s))};
  for (const auto& c : mounted_claims(m_, w, p.name)) {
    if (std::find(c.access_modes.begin(), c.access_modes.end(), "ReadWriteOnce") == c.access_modes.end()) continue;
    const bool longhorn = is_longhorn(m_, c);
    if (longhorn && longhorn_deletes(t_.longhorn_pod_deletion_policy, w.meta.kind)) {
      event(fate.evicted_s, "volume " + w.meta.ns + "/" + c.name,
            fmt::format("Longhorn force-deletes the Terminating pod ({}): detached from {}, attaches on {}", t_.longhorn_pod_deletion_policy,
                        d_.node, placed.node));
      continue;
    }
    start = std::max(start, fate.evicted_s + t_.force_detach_s);
    event(fate.evicted_s, pod, fmt::format("ContainerCreating: ReadWriteOnce volume {} is still attached to {}", c.name, d_.node));
    event(fate.evicted_s + t_.force_detach_s, "volume " + w.meta.ns + "/" + c.name,
          fmt::format("force-detached from {} {:g} s after the pod's deletion (attach-detach controller); attaches on {}", d_.node,
                      t_.force_detach_s, placed.node));
  }
  if (start > fate.evicted_s) parts.push_back(fmt::format("+ force detach {:g} s", t_.force_detach_s));
  const double startup = w.startup_s >= 0 ? w.startup_s : t_.startup_s;
  parts.push_back(fmt::format("+ start-up {:g} s{}", startup, w.startup_s >= 0 ? " (clustertwin.io/startup-seconds)" : " (default)"));
  fate.ready_s = start + startup;
  fate.why = fmt::format("{} = Ready at {}", fmt::format("{}", fmt::join(parts, " ")), seconds(fate.ready_s));
  event(fate.ready_s, pod, "replacement Ready on " + placed.node);
}

void Timeline::apps() {
  std::vector<std::size_t> workloads;
  for (const auto& f : d_.pods) {
    if (std::find(workloads.begin(), workloads.end(), f.workload) == workloads.end()) workloads.push_back(f.workload);
  }
  std::sort(workloads.begin(), workloads.end());
  for (std::size_t wi : workloads) {
    const KubeWorkload& w = m_.workloads[wi];
    AppOutage a;
    a.workload = wi;
    a.name = w.meta.ns + "/" + w.meta.name;
    for (const auto& p : before_.pods) {
      if (p.workload != wi || p.node.empty()) continue;
      ++a.pods;
      if (p.node != d_.node && p.ready) ++a.survivors;
    }
    double first = kNever, last = 0;
    for (const auto& f : d_.pods) {
      if (f.workload != wi) continue;
      first = std::min(first, f.ready_s);
      last = std::max(last, f.ready_s);
    }
    a.degraded_to_s = last;
    const std::string app = "app " + a.name;
    if (a.survivors == 0) {
      a.down_from_s = 0;
      a.down_to_s = first;
      event(0, app, "down: every pod was on " + d_.node);
      if (first != kNever) event(first, app, fmt::format("up again after {:g} s", first));
    } else {
      event(0, app, fmt::format("degraded: {} of {} endpoint(s) dead but listed until G = {:g} s", a.pods - a.survivors, a.pods,
                                t_.node_monitor_grace_s));
      if (last != kNever) event(last, app, "every pod Ready again");
    }
    d_.apps.push_back(std::move(a));
  }
}

NodeDeath Timeline::run() {
  const std::string node = "node " + d_.node;
  event(0, node, "dies: stops answering and posting status");
  event(t_.node_monitor_grace_s, node,
        fmt::format("NotReady (Ready Unknown) after the node-monitor grace period G = {:g} s; tainted node.kubernetes.io/unreachable; "
                    "its pods leave the endpoints",
                    t_.node_monitor_grace_s));
  std::vector<std::size_t> lost, replace;
  for (std::size_t i = 0; i < before_.pods.size(); ++i) {
    const PlacedPod& p = before_.pods[i];
    if (p.node != d_.node) continue;
    lost.push_back(i);
    PodFate f{p.workload, p.name, t_.node_monitor_grace_s, kNever, "", kNever, ""};
    if (needs_replacement(p, f)) replace.push_back(i);
    d_.pods.push_back(std::move(f));
  }
  std::vector<std::string> unreachable = also_gone_;
  unreachable.push_back(d_.node);
  const std::vector<PlacedPod> placed = replace_pods(m_, before_, replace, unreachable);
  for (std::size_t k = 0; k < replace.size(); ++k) {
    const auto at = std::find(lost.begin(), lost.end(), replace[k]) - lost.begin();
    replacement(before_.pods[replace[k]], placed[k], d_.pods[static_cast<std::size_t>(at)]);
  }
  apps();
  std::stable_sort(d_.events.begin(), d_.events.end(), [](const LifecycleEvent& a, const LifecycleEvent& b) { return a.at_s < b.at_s; });
  return std::move(d_);
}

}  // namespace

Result<LifecycleTimers> lifecycle_timers(const SurvivalSpec& spec) {
  LifecycleTimers t;
  if (spec.node_monitor_grace_s.present) t.node_monitor_grace_s = spec.node_monitor_grace_s.value;
  if (spec.toleration_s.present) t.default_toleration_s = spec.toleration_s.value;
  if (spec.force_detach_s.present) t.force_detach_s = spec.force_detach_s.value;
  if (spec.startup_s.present) t.startup_s = spec.startup_s.value;
  if (spec.longhorn_pod_deletion_policy.present) {
    static const std::vector<std::string> kPolicies = {"do-nothing", "delete-statefulset-pod", "delete-deployment-pod",
                                                       "delete-both-statefulset-and-deployment-pod"};
    const std::string& p = spec.longhorn_pod_deletion_policy.value;
    if (std::find(kPolicies.begin(), kPolicies.end(), p) == kPolicies.end()) {
      return Diagnostic{spec.longhorn_pod_deletion_policy.where, "survival.longhorn_node_down_pod_deletion_policy",
                        fmt::format("unknown policy '{}': expected {}", p, fmt::join(kPolicies, ", "))};
    }
    t.longhorn_pod_deletion_policy = p;
  }
  return t;
}

NodeDeath node_death(const Manifests& m, const Placement& before, const std::string& node, const LifecycleTimers& timers,
                     const std::vector<std::string>& also_gone) {
  return Timeline(m, before, node, timers, also_gone).run();
}

}  // namespace ct
