#include "survival/spof.h"

#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "survival/cert_renewal.h"
#include "survival/volume_layout.h"

namespace ct {

int SpofReport::spof_count() const {
  return static_cast<int>(std::count_if(ranked.begin(), ranked.end(), [](const SpofCandidate& c) { return c.spof(); }));
}

std::string spof_cost(int apps_lost, int apps_for_ever, double app_seconds) {
  if (apps_lost == 0) return "no app";
  std::vector<std::string> parts;
  if (apps_for_ever > 0) parts.push_back(fmt::format("{} app(s) for ever", apps_for_ever));
  if (apps_lost > apps_for_ever) parts.push_back(fmt::format("{} app(s), {:g} app-seconds", apps_lost - apps_for_ever, app_seconds));
  return fmt::format("{}", fmt::join(parts, " + "));
}

namespace {

int kind_order(FailureKind k) {
  int i = 0;
  for (const FailureKind x : kFailureKinds) {
    if (x == k) return i;
    ++i;
  }
  return i;
}

bool worse(const SpofCandidate& a, const SpofCandidate& b) {
  return std::make_tuple(-a.apps_for_ever, -a.app_seconds, !a.data_lost, kind_order(a.element.kind), a.element.name) <
         std::make_tuple(-b.apps_for_ever, -b.app_seconds, !b.data_lost, kind_order(b.element.kind), b.element.name);
}

SpofCandidate candidate(const Failure& f, const FailureTimeline& t) {
  SpofCandidate c{f, static_cast<int>(t.apps.size()), t.apps_down_for_ever, t.total_downtime_s, 0, t.data_lost, {}};
  for (const auto& a : t.apps) {
    c.apps.push_back(a.app);
    if (a.downtime_s != kNever) c.longest_s = std::max(c.longest_s, a.downtime_s);
  }
  double first = kNever;
  for (const auto& x : t.certificates) {
    if (x.expires_s == kNever) continue;
    ++c.certificates_failing;
    first = std::min(first, x.expires_s);
  }
  if (c.certificates_failing > 0) c.first_expiry_s = first;
  std::sort(c.apps.begin(), c.apps.end());
  return c;
}

bool has_pdb(const Manifests& m, const KubeWorkload& w) {
  return std::any_of(m.disruption_budgets.begin(), m.disruption_budgets.end(),
                     [&](const PodDisruptionBudget& b) { return b.meta.ns == w.meta.ns && b.selector.present && b.selector.matches(w.pod_labels); });
}

bool selected_by(const Manifests& m, const KubeWorkload& w, const std::string& label) {
  return std::any_of(m.services.begin(), m.services.end(), [&](const Service& s) {
    if (s.meta.ns != w.meta.ns || s.selector.empty() || (!label.empty() && !s.meta.labels.contains(label))) return false;
    return std::all_of(s.selector.begin(), s.selector.end(), [&](const auto& kv) {
      const auto it = w.pod_labels.find(kv.first);
      return it != w.pod_labels.end() && it->second == kv.second;
    });
  });
}

bool is_login(const FrontendModel& f, std::size_t w) {
  return std::any_of(f.auth.begin(), f.auth.end(), [&](const AuthDependency& a) {
    return std::find(a.workloads.begin(), a.workloads.end(), w) != a.workloads.end();
  });
}

// What makes a workload's pods a SPOF: one pod, or every pod on one node; "" when neither.
std::string workload_spof(const FrontendModel& f, std::size_t wi, std::string* node) {
  const Manifests& m = f.manifests;
  const KubeWorkload& w = m.workloads[wi];
  std::set<std::string> nodes;
  int pods = 0;
  for (const auto& p : f.placement.pods) {
    if (p.workload != wi || p.node.empty()) continue;
    ++pods;
    nodes.insert(p.node);
  }
  if (nodes.size() != 1) return "";
  *node = *nodes.begin();
  const std::string name = w.meta.ns + "/" + w.meta.name;
  const std::string pdb = has_pdb(m, w) ? "" : " and no PodDisruptionBudget";
  if (selected_by(m, w, "gateway.networking.k8s.io/gateway-name")) {
    return pods == 1 ? fmt::format("the Gateway data plane {} has one replica{}", name, pdb) : fmt::format("every Gateway replica ({}) on {}", name, *node);
  }
  const std::string what = is_login(f, wi) ? fmt::format("the login app ({})", name) : name;
  return pods == 1 ? fmt::format("{} has one pod{}", what, pdb) : fmt::format("every pod of {} on {}", what, *node);
}

// Why a node is a SPOF: the workloads it holds every pod of.
std::string node_why(const FrontendModel& f, const std::string& n) {
  std::vector<std::string> why;
  for (std::size_t w = 0; w < f.manifests.workloads.size(); ++w) {
    std::string node;
    const std::string s = workload_spof(f, w, &node);
    if (!s.empty() && node == n) why.push_back(s);
  }
  return why.empty() ? "" : fmt::format(": {}", fmt::join(why, "; "));
}

std::string statement(const FrontendModel& f, const SpofCandidate& c, int elements_of_kind) {
  const std::string cost = spof_cost(c.apps_lost, c.apps_for_ever, c.app_seconds);
  const std::string lost = c.data_lost ? ", data LOST" : "";
  const std::string& n = c.element.name;
  switch (c.element.kind) {
    case FailureKind::kNode: return fmt::format("{}{} ({}{})", n, node_why(f, n), cost, lost);
    case FailureKind::kDisk: return fmt::format("the Longhorn disk of {} holds a volume's last replica ({}{})", n, cost, lost);
    case FailureKind::kSwitch: return fmt::format("{}{}: every node below it is cut off ({})", elements_of_kind == 1 ? "one frontend switch, " : "", n, cost);
    case FailureKind::kLink:
      return n.starts_with("host") ? fmt::format("the node's only frontend link, {} ({})", n, cost)
                                   : fmt::format("the only link up from a leaf, {} ({})", n, cost);
    case FailureKind::kBgpPeer: return fmt::format("{} border router (BGPPeer {}) ({})", elements_of_kind == 1 ? "one" : "the", n, cost);
    case FailureKind::kDnsServer: return fmt::format("{} name server ({}) for the zones ({})", elements_of_kind == 1 ? "one" : "the", n, cost);
    case FailureKind::kIssuer:
      return fmt::format("issuer {}: {} certificate(s) renew in its outage and fail, TLS failing from {} ({})", n, c.certificates_failing,
                         fmt::format("{:.0f} s ({:.1f} days)", c.first_expiry_s, c.first_expiry_s / 86400), cost);
    case FailureKind::kAddressPool: return fmt::format("{} address pool ({}) for the door's address ({})", elements_of_kind == 1 ? "one" : "the", n, cost);
  }
  return n;
}

void layers(const FrontendModel& f, SpofReport& r) {
  for (const FailureKind k : kFailureKinds) {
    SpofLayer l;
    l.layer = layer_of(k);
    l.elements = static_cast<int>(element_names(f, k).size());
    if ((k == FailureKind::kSwitch || k == FailureKind::kLink) && (!f.topology || f.topology->frontend_ports_per_host == 0)) {
      l.modelled = false;
      l.why_not = "no --spec with a frontend network";
    } else if (k == FailureKind::kDnsServer && !f.dns) {
      l.modelled = false;
      l.why_not = "no --dns";
    } else if (k == FailureKind::kIssuer && !certificates_dated(f.manifests)) {
      l.modelled = false;
      l.why_not = "no Certificate carries its dates (status.notAfter): a renewal in an outage cannot be placed";
    } else if (k == FailureKind::kIssuer && !f.now_ms) {
      l.modelled = false;
      l.why_not = "no --now to place the certificates' dates against";
    }
    for (const auto& c : r.ranked) {
      if (c.element.kind == k && c.spof()) l.spofs.push_back(statement(f, c, l.elements));
    }
    r.layers.push_back(std::move(l));
  }
  SpofLayer gw{"Gateway replica", 0, true, "", {}};
  SpofLayer apps{"app pods", 0, true, "", {}};
  for (std::size_t w = 0; w < f.manifests.workloads.size(); ++w) {
    std::string node;
    const std::string s = workload_spof(f, w, &node);
    const bool gateway = selected_by(f.manifests, f.manifests.workloads[w], "gateway.networking.k8s.io/gateway-name");
    ++(gateway ? gw : apps).elements;
    if (!s.empty() && selected_by(f.manifests, f.manifests.workloads[w], "")) (gateway ? gw : apps).spofs.push_back(s);
  }
  SpofLayer volumes{"volume", 0, true, "", {}};
  for (const auto& v : volume_layouts(f)) {
    ++volumes.elements;
    if (v.replica_nodes.size() == 1) volumes.spofs.push_back(fmt::format("{} has one replica (on {})", v.claim, v.replica_nodes.front()));
  }
  r.layers.push_back(std::move(gw));
  r.layers.push_back(std::move(apps));
  r.layers.push_back(std::move(volumes));
}

void pairs(const FrontendModel& f, const LifecycleTimers& timers, const PublishedRequests& published, const std::vector<VolumeLayout>& volumes,
           int top, SpofReport& r) {
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(std::max(top, 0)), r.ranked.size());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const SpofCandidate& a = r.ranked[i];
      const SpofCandidate& b = r.ranked[j];
      ++r.pairs_tried;
      const FailureTimeline t = failure_timeline(f, {a.element, b.element}, timers, published, volumes);
      SpofPair p{a.element, b.element, static_cast<int>(t.apps.size()), t.apps_down_for_ever, t.total_downtime_s, {}};
      for (const auto& app : t.apps) {
        const bool alone = std::binary_search(a.apps.begin(), a.apps.end(), app.app) || std::binary_search(b.apps.begin(), b.apps.end(), app.app);
        if (!alone) p.new_apps.push_back(app.app);
      }
      if (!p.new_apps.empty()) r.pairs.push_back(std::move(p));
    }
  }
  std::stable_sort(r.pairs.begin(), r.pairs.end(), [](const SpofPair& x, const SpofPair& y) {
    return std::make_tuple(-x.apps_for_ever, -static_cast<int>(x.new_apps.size()), -x.app_seconds) <
           std::make_tuple(-y.apps_for_ever, -static_cast<int>(y.new_apps.size()), -y.app_seconds);
  });
}

}  // namespace

SpofReport spof_study(const FrontendModel& f, const LifecycleTimers& timers, int pairs_top) {
  SpofReport r;
  const PublishedRequests published = published_requests(f);
  const std::vector<VolumeLayout> volumes = volume_layouts(f);
  r.requests = published.requests.size();
  std::set<std::string> apps;
  for (const auto& p : published.requests) apps.insert(p.app);
  r.apps_total = static_cast<int>(apps.size());
  for (const FailureKind k : kFailureKinds) {
    for (const auto& name : element_names(f, k)) {
      const Failure e{k, name, 0};
      r.ranked.push_back(candidate(e, failure_timeline(f, {e}, timers, published, volumes)));
    }
  }
  std::stable_sort(r.ranked.begin(), r.ranked.end(), worse);
  layers(f, r);
  pairs(f, timers, published, volumes, pairs_top, r);
  return r;
}

}  // namespace ct
