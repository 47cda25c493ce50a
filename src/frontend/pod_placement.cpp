#include "frontend/pod_placement.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ct {

namespace {

constexpr const char* kNotReady = "node.kubernetes.io/not-ready";
constexpr const char* kUnreachable = "node.kubernetes.io/unreachable";

// The tolerations the DaemonSet controller adds to its pods (kubernetes.io "DaemonSet",
// "Taints and tolerations").
const std::vector<Toleration>& daemonset_tolerations() {
  static const std::vector<Toleration> kTolerations = [] {
    std::vector<Toleration> t;
    for (const char* key : {kNotReady, kUnreachable}) t.push_back(Toleration{key, "Exists", "", "NoExecute", -1, {}});
    for (const char* key : {"node.kubernetes.io/disk-pressure", "node.kubernetes.io/memory-pressure",
                            "node.kubernetes.io/pid-pressure", "node.kubernetes.io/unschedulable"}) {
      t.push_back(Toleration{key, "Exists", "", "NoSchedule", -1, {}});
    }
    return t;
  }();
  return kTolerations;
}

std::vector<Toleration> tolerations_of(const KubeWorkload& w) {
  std::vector<Toleration> t = w.tolerations;
  if (w.meta.kind == "DaemonSet") t.insert(t.end(), daemonset_tolerations().begin(), daemonset_tolerations().end());
  return t;
}

bool tolerated(const std::vector<Toleration>& tolerations, const Taint& taint) {
  return std::any_of(tolerations.begin(), tolerations.end(), [&](const Toleration& t) { return t.tolerates(taint); });
}

// A node's label (nullptr when it has none); kubernetes.io/hostname defaults to the node's name (the
// kubelet sets it). A pointer into the node, not a copy: the spread and affinity counts ask for it
// once per placed pod and candidate node.
const std::string* label_of(const Node& n, const std::string& key) {
  const auto it = n.meta.labels.find(key);
  if (it == n.meta.labels.end()) return key == "kubernetes.io/hostname" ? &n.meta.name : nullptr;
  return &it->second;
}

bool same_domain(const Node& a, const Node& b, const std::string& key) {
  if (&a == &b) return label_of(a, key) != nullptr;
  const std::string* va = label_of(a, key);
  const std::string* vb = va != nullptr ? label_of(b, key) : nullptr;
  return vb != nullptr && *va == *vb;
}

bool node_affinity_matches(const KubeWorkload& w, const Node& n) {
  for (const auto& [k, v] : w.node_selector) {
    const std::string* l = label_of(n, k);
    if (l == nullptr || *l != v) return false;
  }
  LabelSelector affinity;
  affinity.expressions = w.required_node_affinity;
  return affinity.matches(n.meta.labels);
}

// Does `term` of a pod in namespace `ns` select a pod of workload `w`?
bool term_selects(const PodAffinityTerm& term, const std::string& ns, const KubeWorkload& w) {
  const bool in_ns = term.namespaces.empty() ? w.meta.ns == ns
                                             : std::find(term.namespaces.begin(), term.namespaces.end(), w.meta.ns) != term.namespaces.end();
  return in_ns && term.selector.present && term.selector.matches(w.pod_labels);
}

bool spread_selects(const TopologySpread& c, const KubeWorkload& owner, const KubeWorkload& w) {
  return w.meta.ns == owner.meta.ns && c.selector.present && c.selector.matches(w.pod_labels);
}

// The scheduler's state while it places pods one at a time.
class Scheduler {
 public:
  explicit Scheduler(const Manifests& m, const std::vector<std::string>& unreachable = {}) : m_(m) {
    for (const auto& n : m.nodes) {
      if (std::find(unreachable.begin(), unreachable.end(), n.meta.name) == unreachable.end() || n.ready == "Unknown") {
        nodes_.push_back(&n);
        continue;
      }
      Node& marked = marked_.emplace_back(n);
      marked.ready = "Unknown";
      nodes_.push_back(&marked);
    }
    std::sort(nodes_.begin(), nodes_.end(), [](const Node* a, const Node* b) { return a->meta.name < b->meta.name; });
  }

  Placement run();
  std::vector<PlacedPod> replace(const Placement& before, const std::vector<std::size_t>& lost);

 private:
  struct Bound {
    std::size_t workload;
    const Node* node;
  };

  std::vector<std::string> filter(const KubeWorkload& w, const Node& n) const;
  std::vector<std::string> resources_fit(const KubeWorkload& w, const Node& n) const;
  std::optional<std::string> spread_fit(const KubeWorkload& w, const Node& n) const;
  std::optional<std::string> inter_pod_fit(const KubeWorkload& w, const Node& n) const;
  int count_in_domain(const void* term, const std::function<bool(const KubeWorkload&)>& selects, const Node& n, const std::string& key,
                      const KubeWorkload* eligible_for) const;
  bool anti_affinity_refuses(const KubeWorkload& w, const Node& n) const;
  std::tuple<int, int, int, int> preference(const KubeWorkload& w, const Node& n) const;
  void bind(std::size_t wi, const Node& n);
  PlacedPod place_one(std::size_t wi, int ordinal);

  const Manifests& m_;
  std::deque<Node> marked_;  // copies of the unreachable nodes, Ready Unknown
  std::vector<const Node*> nodes_;
  std::vector<Bound> bound_;
  std::map<std::string, ResourceAmounts> used_;
  std::map<std::string, int> total_;                 // pods per node
  std::map<std::pair<std::size_t, std::string>, int> mine_;  // (workload, node) -> pods
  // spread_fit's smallest domain count per constraint of the pod being placed: the same for every
  // candidate node, so counted once per pod (valid while bound_ keeps its size and the workload).
  mutable const KubeWorkload* min_for_ = nullptr;
  mutable std::size_t min_bound_ = 0;
  mutable std::vector<std::optional<int>> spread_min_;
  // count_in_domain's counts per domain, one pass over the bound pods per term (a spread constraint
  // or an affinity term, by address), valid while bound_ keeps its size (it only grows).
  struct DomainCounts {
    const void* term;
    std::unordered_map<std::string_view, int> counts;
  };
  mutable std::size_t counts_bound_ = 0;
  mutable std::vector<DomainCounts> counts_;
  // The placed pods whose required anti-affinity selects the pod being placed: (their term's
  // topology key, their node), for the same pod and bound_ size.
  mutable const KubeWorkload* anti_for_ = nullptr;
  mutable std::size_t anti_bound_ = 0;
  mutable std::vector<std::pair<const std::string*, const Node*>> anti_;
};

std::vector<std::string> Scheduler::resources_fit(const KubeWorkload& w, const Node& n) const {
  std::vector<std::string> out;
  const auto used = used_.find(n.meta.name);
  if (const auto pods = n.allocatable.find("pods"); pods != n.allocatable.end()) {
    const auto t = total_.find(n.meta.name);
    if ((t == total_.end() ? 0 : t->second) + 1 > pods->second) out.push_back("Too many pods");
  }
  for (const auto& [resource, amount] : w.requests) {
    const auto cap = n.allocatable.find(resource);
    if (amount <= 0 || cap == n.allocatable.end() || resource == "pods") continue;
    double taken = 0;
    if (used != used_.end()) {
      if (const auto u = used->second.find(resource); u != used->second.end()) taken = u->second;
    }
    if (taken + amount > cap->second * (1 + 1e-12)) out.push_back("Insufficient " + resource);
  }
  return out;
}

// Pods selected by `selects` (the pods `term` of the workload being placed selects) on nodes in
// `n`'s domain of `key`; with `eligible_for`, only on nodes that pass its NodeAffinity
// (PodTopologySpread's nodeAffinityPolicy: Honor). Counted per domain value once per term and
// bound pods, then looked up for each candidate node.
int Scheduler::count_in_domain(const void* term, const std::function<bool(const KubeWorkload&)>& selects, const Node& n,
                               const std::string& key, const KubeWorkload* eligible_for) const {
  const std::string* domain = label_of(n, key);
  if (domain == nullptr) return 0;
  if (counts_bound_ != bound_.size()) {
    counts_bound_ = bound_.size();
    counts_.clear();
  }
  auto c = std::find_if(counts_.begin(), counts_.end(), [&](const DomainCounts& d) { return d.term == term; });
  if (c == counts_.end()) {
    c = counts_.insert(counts_.end(), DomainCounts{term, {}});
    for (const Bound& b : bound_) {
      const std::string* value = label_of(*b.node, key);
      if (value == nullptr || !selects(m_.workloads[b.workload])) continue;
      if (eligible_for != nullptr && !node_affinity_matches(*eligible_for, *b.node)) continue;
      ++c->counts[*value];
    }
  }
  const auto it = c->counts.find(*domain);
  return it == c->counts.end() ? 0 : it->second;
}

// Does a placed pod's required anti-affinity keep a pod of `w` off `n` (a pod it selects in the
// same domain)? The placed pods whose terms select `w` are gathered once per pod and bound pods.
bool Scheduler::anti_affinity_refuses(const KubeWorkload& w, const Node& n) const {
  if (anti_for_ != &w || anti_bound_ != bound_.size()) {
    anti_for_ = &w;
    anti_bound_ = bound_.size();
    anti_.clear();
    for (const Bound& b : bound_) {
      const KubeWorkload& other = m_.workloads[b.workload];
      for (const auto& t : other.pod_affinity) {
        if (t.anti && t.required && term_selects(t, other.meta.ns, w)) anti_.emplace_back(&t.topology_key, b.node);
      }
    }
  }
  return std::any_of(anti_.begin(), anti_.end(), [&](const auto& a) { return same_domain(n, *a.second, *a.first); });
}

std::optional<std::string> Scheduler::spread_fit(const KubeWorkload& w, const Node& n) const {
  for (const auto& c : w.spread) {
    if (c.when_unsatisfiable != "DoNotSchedule") continue;
    if (!label_of(n, c.topology_key)) return "node(s) didn't match pod topology spread constraints (missing required label)";
    const auto selects = [&](const KubeWorkload& other) { return spread_selects(c, w, other); };
    if (min_for_ != &w || min_bound_ != bound_.size() || spread_min_.size() != w.spread.size()) {
      min_for_ = &w;
      min_bound_ = bound_.size();
      spread_min_.assign(w.spread.size(), std::nullopt);
    }
    std::optional<int>& cached = spread_min_[static_cast<std::size_t>(&c - w.spread.data())];
    if (!cached) {
      int least = -1;
      for (const Node* d : nodes_) {
        if (!label_of(*d, c.topology_key) || !node_affinity_matches(w, *d)) continue;
        const int k = count_in_domain(&c, selects, *d, c.topology_key, &w);
        least = least < 0 ? k : std::min(least, k);
      }
      cached = least;
    }
    const int min = *cached;
    const int self = selects(w) ? 1 : 0;
    if (count_in_domain(&c, selects, n, c.topology_key, &w) + self - std::max(min, 0) > c.max_skew) {
      return "node(s) didn't match pod topology spread constraints";
    }
  }
  return std::nullopt;
}

// In the plugin's order: this pod's required affinity, its required anti-affinity, then the placed
// pods' required anti-affinity against it.
std::optional<std::string> Scheduler::inter_pod_fit(const KubeWorkload& w, const Node& n) const {
  for (const auto& t : w.pod_affinity) {
    if (!t.required || t.anti) continue;
    const auto selects = [&](const KubeWorkload& other) { return term_selects(t, w.meta.ns, other); };
    const bool any = std::any_of(bound_.begin(), bound_.end(), [&](const Bound& b) { return selects(m_.workloads[b.workload]); });
    if (!any && selects(w)) continue;
    if (!label_of(n, t.topology_key) || count_in_domain(&t, selects, n, t.topology_key, nullptr) == 0) return "node(s) didn't match pod affinity rules";
  }
  for (const auto& t : w.pod_affinity) {
    if (!t.required || !t.anti) continue;
    const auto selects = [&](const KubeWorkload& other) { return term_selects(t, w.meta.ns, other); };
    if (count_in_domain(&t, selects, n, t.topology_key, nullptr) > 0) return "node(s) didn't match pod anti-affinity rules";
  }
  if (anti_affinity_refuses(w, n)) return "node(s) didn't satisfy existing pods anti-affinity rules";
  return std::nullopt;
}

// The reasons `n` refuses a pod of `w`, from the first filter that fails (none: it fits).
std::vector<std::string> Scheduler::filter(const KubeWorkload& w, const Node& n) const {
  const std::vector<Toleration> tolerations = tolerations_of(w);
  if (n.unschedulable && !tolerated(tolerations, Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"})) {
    return {"node(s) were unschedulable"};
  }
  for (const Taint& t : node_taints(n)) {
    if (t.effect != "PreferNoSchedule" && !tolerated(tolerations, t)) return {fmt::format("node(s) had untolerated taint {{{}: {}}}", t.key, t.value)};
  }
  if (!node_affinity_matches(w, n)) return {"node(s) didn't match Pod's node affinity/selector"};
  if (auto r = resources_fit(w, n); !r.empty()) return r;
  if (auto r = spread_fit(w, n)) return {*r};
  if (auto r = inter_pod_fit(w, n)) return {*r};
  return {};
}

// The preference keys of the header, each negated where lower is better, so that the largest
// tuple wins.
std::tuple<int, int, int, int> Scheduler::preference(const KubeWorkload& w, const Node& n) const {
  const std::vector<Toleration> tolerations = tolerations_of(w);
  int prefer_no = 0;
  for (const Taint& t : node_taints(n)) prefer_no += t.effect == "PreferNoSchedule" && !tolerated(tolerations, t) ? 1 : 0;
  int node_weight = 0;
  for (const auto& p : w.preferred_node_affinity) {
    LabelSelector s;
    s.expressions = p.expressions;
    if (s.matches(n.meta.labels)) node_weight += p.weight;
  }
  int pod_weight = 0;
  for (const auto& t : w.pod_affinity) {
    if (t.required) continue;
    const auto selects = [&](const KubeWorkload& other) { return term_selects(t, w.meta.ns, other); };
    if (count_in_domain(&t, selects, n, t.topology_key, nullptr) > 0) pod_weight += t.anti ? -t.weight : t.weight;
  }
  int soft_skew = 0;
  for (const auto& c : w.spread) {
    if (c.when_unsatisfiable != "ScheduleAnyway" || !label_of(n, c.topology_key)) continue;
    soft_skew += count_in_domain(&c, [&](const KubeWorkload& other) { return spread_selects(c, w, other); }, n, c.topology_key, &w);
  }
  return {-prefer_no, node_weight, pod_weight, -soft_skew};
}

void Scheduler::bind(std::size_t wi, const Node& n) {
  bound_.push_back(Bound{wi, &n});
  for (const auto& [resource, amount] : m_.workloads[wi].requests) used_[n.meta.name][resource] += amount;
  ++total_[n.meta.name];
  ++mine_[{wi, n.meta.name}];
}

// kube-scheduler's FitError: "0/N nodes are available: " and the reasons' histogram, sorted.
std::string fit_error(std::size_t nodes, const std::map<std::string, int>& reasons) {
  std::vector<std::string> parts;
  for (const auto& [reason, count] : reasons) parts.push_back(fmt::format("{} {}", count, reason));
  std::sort(parts.begin(), parts.end());
  if (parts.empty()) return fmt::format("0/{} nodes are available.", nodes);
  return fmt::format("0/{} nodes are available: {}.", nodes, fmt::join(parts, ", "));
}

PlacedPod Scheduler::place_one(std::size_t wi, int ordinal) {
  const KubeWorkload& w = m_.workloads[wi];
  PlacedPod p{wi, fmt::format("{}-{}", w.meta.name, ordinal), "", "", false};
  std::map<std::string, int> reasons;
  const Node* best = nullptr;
  std::tuple<int, int, int, int, int, int> best_key{};
  int feasible = 0;
  for (const Node* n : nodes_) {
    const std::vector<std::string> why = filter(w, *n);
    for (const auto& r : why) ++reasons[r];
    if (!why.empty()) continue;
    ++feasible;
    const auto [a, b, c, d] = preference(w, *n);
    const auto mine = mine_.find({wi, n->meta.name});
    const auto total = total_.find(n->meta.name);
    const std::tuple<int, int, int, int, int, int> key{a, b, c, d, -(mine == mine_.end() ? 0 : mine->second),
                                                       -(total == total_.end() ? 0 : total->second)};
    if (best == nullptr || key > best_key) {
      best = n;
      best_key = key;
    }
  }
  if (best == nullptr) {
    p.why = "Pending: " + fit_error(nodes_.size(), reasons);
    return p;
  }
  p.node = best->meta.name;
  p.ready = best->ready == "True";
  const auto [a, b, c, d, mine, total] = best_key;
  const std::string preferred = (a != 0 || b != 0 || c != 0 || d != 0)
                                    ? fmt::format("preferred: PreferNoSchedule taints {}, node affinity weight {}, pod affinity weight {}, "
                                                  "ScheduleAnyway count {}; then ", -a, b, c, -d)
                                    : "";
  p.why = fmt::format("{} feasible node(s); {}spread: fewest replicas of {} ({}), then fewest pods ({}), then name", feasible,
                      preferred, w.meta.name, -mine, -total);
  bind(wi, *best);
  return p;
}

Placement Scheduler::run() {
  Placement out;
  for (std::size_t wi = 0; wi < m_.workloads.size(); ++wi) {
    const KubeWorkload& w = m_.workloads[wi];
    if (w.meta.kind != "DaemonSet") {
      for (int r = 0; r < w.replicas; ++r) out.pods.push_back(place_one(wi, r));
      continue;
    }
    for (const Node* n : nodes_) {
      if (!filter(w, *n).empty()) continue;
      out.pods.push_back({wi, fmt::format("{}-{}", w.meta.name, n->meta.name), n->meta.name, "DaemonSet: one pod per feasible node",
                          n->ready == "True"});
      bind(wi, *n);
    }
  }
  return out;
}

std::vector<PlacedPod> Scheduler::replace(const Placement& before, const std::vector<std::size_t>& lost) {
  std::unordered_map<std::string_view, const Node*> by_name;
  for (const Node* n : nodes_) by_name.emplace(n->meta.name, n);
  for (std::size_t i = 0; i < before.pods.size(); ++i) {
    const PlacedPod& p = before.pods[i];
    if (p.node.empty() || std::find(lost.begin(), lost.end(), i) != lost.end()) continue;
    if (const auto n = by_name.find(p.node); n != by_name.end()) bind(p.workload, *n->second);
  }
  std::vector<PlacedPod> out;
  for (std::size_t i : lost) {
    PlacedPod p = place_one(before.pods[i].workload, 0);
    p.name = before.pods[i].name;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::vector<PlacedPod> replace_pods(const Manifests& m, const Placement& before, const std::vector<std::size_t>& lost,
                                    const std::vector<std::string>& unreachable) {
  return Scheduler(m, unreachable).replace(before, lost);
}

std::vector<Taint> node_taints(const Node& node) {
  std::vector<Taint> out = node.taints;
  if (node.ready != "True") {
    const char* key = node.ready == "False" ? kNotReady : kUnreachable;
    out.push_back(Taint{key, "", "NoSchedule"});
    out.push_back(Taint{key, "", "NoExecute"});
  }
  return out;
}

long long toleration_seconds(const KubeWorkload& w, const std::string& key, long long default_seconds) {
  const Taint taint{key, "", "NoExecute"};
  for (const auto& t : tolerations_of(w)) {
    if (t.tolerates(taint)) return t.seconds;
  }
  return default_seconds;
}

std::string node_infeasible(const KubeWorkload& w, const Node& node) {
  const std::vector<Toleration> tolerations = tolerations_of(w);
  if (node.unschedulable && !tolerated(tolerations, Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"})) return "unschedulable (cordoned)";
  for (const Taint& t : node_taints(node)) {
    if (t.effect != "PreferNoSchedule" && !tolerated(tolerations, t)) {
      return fmt::format("untolerated taint {}{}{}:{}", t.key, t.value.empty() ? "" : "=", t.value, t.effect);
    }
  }
  for (const auto& [k, v] : w.node_selector) {
    const std::string* l = label_of(node, k);
    if (l == nullptr || *l != v) return fmt::format("no label {}={} (nodeSelector)", k, v);
  }
  if (!node_affinity_matches(w, node)) return "fails the required nodeAffinity";
  return "";
}

Placement place_pods(const Manifests& m) { return Scheduler(m).run(); }

std::vector<const PlacedPod*> service_endpoints(const Manifests& m, const Placement& p, const Service& s) {
  std::vector<const PlacedPod*> out;
  if (s.selector.empty()) return out;
  for (const auto& pod : p.pods) {
    const KubeWorkload& w = m.workloads[pod.workload];
    if (w.meta.ns != s.meta.ns || pod.node.empty() || !pod.ready) continue;
    const bool match = std::all_of(s.selector.begin(), s.selector.end(), [&](const auto& kv) {
      auto it = w.pod_labels.find(kv.first);
      return it != w.pod_labels.end() && it->second == kv.second;
    });
    if (match) out.push_back(&pod);
  }
  return out;
}

}  // namespace ct
