#include "survival/failure_timeline.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "frontend/auth_dependency.h"
#include "survival/cert_renewal.h"
#include "survival/volume_layout.h"

namespace ct {

double span_length(const std::vector<Span>& spans) {
  double sum = 0;
  for (const auto& s : spans) {
    if (s.to_s == kNever) return kNever;
    sum += s.to_s - s.from_s;
  }
  return sum;
}

namespace {

// Seconds as {:g} writes them, whole from a million on (not "2.592e+06 s").
std::string secs(double s) { return s == kNever ? "never" : s >= 1e6 ? fmt::format("{:.0f} s", s) : fmt::format("{:g} s", s); }

// Sorted, overlapping or touching spans merged (the first one's reason kept).
std::vector<Span> union_of(std::vector<Span> spans) {
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from_s < b.from_s; });
  std::vector<Span> out;
  for (auto& s : spans) {
    if (!out.empty() && s.from_s <= out.back().to_s) {
      out.back().to_s = std::max(out.back().to_s, s.to_s);
    } else {
      out.push_back(std::move(s));
    }
  }
  return out;
}

bool covered(const std::vector<Span>& spans, double t) {
  return std::any_of(spans.begin(), spans.end(), [&](const Span& s) { return s.from_s <= t && t < s.to_s; });
}

struct PodKey {
  std::size_t workload = 0;
  std::string name;
};

struct RebuildJob {
  std::size_t volume = 0;
  Rebuild rebuild;
};

class Study {
 public:
  Study(const FrontendModel& m, std::vector<Failure> failures, const LifecycleTimers& t, const PublishedRequests& published,
        const std::vector<VolumeLayout>& volumes)
      : m_(m), volumes_(volumes) {
    std::stable_sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) { return a.at_s < b.at_s; });
    r_.failures = std::move(failures);
    r_.timers = t;
    r_.published = published;
  }
  FailureTimeline run();

 private:
  void event(double at, std::string object, std::string what) { r_.events.push_back({at, std::move(object), std::move(what)}); }
  void elements();
  void certificates(const Failure& f);
  void lifecycle();
  double disk_loss(const std::string& node) const;
  double out_at(const std::string& node) const;
  double reattach(const VolumeLayout& v) const;
  void volume(const VolumeLayout& v, std::vector<RebuildJob>& jobs);
  void rebuild(const VolumeLayout& v, VolumeOutcome& o, std::vector<RebuildJob>& jobs);
  void finish_rebuilds(std::vector<RebuildJob>& jobs);
  FrontendModel fork(double t) const;
  std::vector<double> epochs() const;
  bool affected(const PublishedRequest& p) const;
  void requests();
  void request_spans(std::size_t i, const std::vector<double>& times, const std::vector<std::pair<int, std::string>>& answers);
  void apps();

  const FrontendModel& m_;
  const std::vector<VolumeLayout>& volumes_;
  FailureTimeline r_;
  std::map<std::string, double> gone_at_;
  std::set<std::string> cut_;
  std::vector<PodKey> keys_;  // parallel to r_.pods
  std::vector<std::pair<std::size_t, double>> broken_;  // workloads whose volume is lost, from when
  std::vector<RebuildLink> links_;
};

void Study::elements() {
  std::set<double> times;
  for (const auto& f : r_.failures) times.insert(f.at_s);
  for (const auto& f : r_.failures) {
    event(f.at_s, to_string(f.kind) + " " + f.name, "fails");
    if (f.kind == FailureKind::kIssuer) certificates(f);
    if (f.kind == FailureKind::kBgpPeer) event(f.at_s, "bgp-peer " + f.name, "its sessions drop: the router withdraws the routes it learnt");
  }
  for (const double t : times) {
    const FailedState s = failed_at(m_, r_.failures, t);
    for (const auto& n : s.dead_nodes) gone_at_.emplace(n, t);
    for (const auto& n : s.cut_nodes) {
      if (!gone_at_.emplace(n, t).second) continue;
      cut_.insert(n);
      event(t, "node " + n, "cut off the frontend network: its disk keeps its data, but it cannot be reached");
    }
    if (!m_.dns || s.dns_servers.empty()) continue;
    for (std::size_t v = 0; v < m_.dns->zones.size(); ++v) {
      for (const auto& z : m_.dns->zones[v]) {
        const auto ns = zone_name_servers(z);
        const bool all = !ns.empty() && std::all_of(ns.begin(), ns.end(), [&](const std::string& n) {
          return std::find(s.dns_servers.begin(), s.dns_servers.end(), n) != s.dns_servers.end();
        });
        if (all) event(t, fmt::format("zone {} (view \"{}\")", z.origin, m_.dns->conf.views[v].name), "every name server is down: its names stop resolving");
      }
    }
  }
}

// The certificates of a failed issuer: renewed before the outage, then a renewal in it that fails,
// and TLS failing from the notAfter of the certificate in place (cert_renewal.h).
void Study::certificates(const Failure& f) {
  int dated = 0, undated = 0;
  for (const auto& c : certificate_renewals(m_.manifests, m_.now_ms)) {
    if (c.issuer != f.name) continue;
    CertificateOutcome o{c.certificate, c.issuer, c.secret, c.dated, c.undated_why, 0, kNever, kNever};
    const std::string obj = "certificate " + c.certificate;
    if (!c.dated) {
      ++undated;
      r_.certificates.push_back(std::move(o));
      continue;
    }
    ++dated;
    const RenewalFailure rf = renewal_in_outage(c, f.at_s);
    o.renewed_before = rf.renewed_before;
    o.attempt_s = rf.attempt_s;
    o.expires_s = rf.expires_s;
    event(rf.attempt_s, obj,
          fmt::format("renewal due ({}renewBefore {} before notAfter): FAILS, issuer {} is down; cert-manager retries in vain",
                      rf.renewed_before > 0 ? fmt::format("renewed {} time(s) before the outage; ", rf.renewed_before) : "", secs(c.renew_before_s),
                      c.issuer));
    event(rf.expires_s, obj, fmt::format("expires (notAfter): every listener serving Secret {} fails the TLS handshake", c.secret));
    r_.certificates.push_back(std::move(o));
  }
  std::string what = dated + undated == 0 ? "no Certificate names it: no request depends on it"
                     : fmt::format("{} certificate(s) renew through it and fail in the outage", dated);
  if (undated > 0) what += fmt::format("; {} certificate(s) without dates cannot be placed (status.notAfter and --now): they fail no request", undated);
  event(f.at_s, "issuer " + f.name, what);
  std::stable_sort(r_.certificates.begin(), r_.certificates.end(),
                   [](const CertificateOutcome& a, const CertificateOutcome& b) { return a.expires_s < b.expires_s; });
}

void Study::lifecycle() {
  std::vector<std::pair<double, std::string>> order;
  std::vector<std::string> gone;  // every node going during the study: Ready Unknown for the scheduler
  for (const auto& [n, t] : gone_at_) {
    order.emplace_back(t, n);
    gone.push_back(n);
  }
  std::sort(order.begin(), order.end());
  for (const auto& [a, n] : order) {
    const NodeDeath d = node_death(m_.manifests, m_.placement, n, r_.timers, gone);
    for (const auto& e : d.events) {
      const bool cut_death = cut_.contains(n) && e.object == "node " + n && e.at_s == 0;
      if (!cut_death) event(a + e.at_s, e.object, e.what);
    }
    for (const auto& f : d.pods) {
      const KubeWorkload& w = m_.manifests.workloads[f.workload];
      PodOutcome p{w.meta.ns + "/" + f.name, object_label(w.meta), n, a, a + f.not_ready_s, a + f.evicted_s,
                   f.replacement_node, a + f.ready_s, f.why};
      r_.pods.push_back(std::move(p));
      keys_.push_back({f.workload, f.name});
    }
  }
}

double Study::disk_loss(const std::string& node) const {
  double t = kNever;
  for (const auto& f : r_.failures) {
    if ((f.kind == FailureKind::kNode || f.kind == FailureKind::kDisk) && f.name == node) t = std::min(t, f.at_s);
  }
  return t;
}

double Study::out_at(const std::string& node) const {
  double t = disk_loss(node);
  if (cut_.contains(node)) t = std::min(t, gone_at_.at(node));
  return t;
}

// When the volume is attached on a live node again: at once when its engine's node stays, at the
// replacement pod's Ready when it went (kNever: never), kNever when detached.
double Study::reattach(const VolumeLayout& v) const {
  if (v.engine_node.empty()) return kNever;
  if (!gone_at_.contains(v.engine_node)) return 0;
  for (const auto& p : r_.pods) {
    if (p.pod == v.pod) return p.ready_s;
  }
  return kNever;
}

void Study::volume(const VolumeLayout& v, std::vector<RebuildJob>& jobs) {
  VolumeOutcome o;
  o.claim = v.claim;
  o.size = v.size;
  o.replicas_wanted = v.replicas_wanted;
  o.replica_nodes = v.replica_nodes;
  const std::string obj = "volume " + v.claim;
  double lost = v.replica_nodes.empty() ? kNever : 0, all_out = v.replica_nodes.empty() ? kNever : 0;
  std::vector<std::pair<double, std::string>> outs;
  for (const auto& n : v.replica_nodes) {
    const double t = out_at(n);
    lost = std::max(lost, disk_loss(n));
    all_out = std::max(all_out, t);
    if (t == kNever) {
      ++o.replicas_left;
    } else {
      outs.emplace_back(t, n);
    }
  }
  std::sort(outs.begin(), outs.end());
  int left = static_cast<int>(v.replica_nodes.size());
  for (const auto& [t, n] : outs) {
    --left;
    o.degraded_s = std::min(o.degraded_s, t);
    event(t, obj, fmt::format("replica on {} {}: {} of {} left{}", n, disk_loss(n) == t ? "lost with its disk" : "unreachable (node cut off)",
                              left, v.replicas_wanted, left > 0 ? ": degraded" : ""));
  }
  o.lost_s = lost;
  if (lost != kNever) {
    r_.data_lost = true;
    event(lost, obj, "faulted: every replica's disk is gone: the data is LOST");
    if (v.mounted) broken_.emplace_back(v.workload, lost);
    for (auto& p : r_.pods) {
      if (p.pod != v.pod || p.ready_s == kNever) continue;
      p.ready_s = kNever;
      p.why += "; but volume " + v.claim + " is faulted (data lost): the replacement never starts";
    }
    o.verdict = "faulted: data LOST";
  } else if (all_out != kNever) {
    o.unavailable.push_back({all_out, kNever, "every replica unreachable (the data is intact on the cut-off nodes)"});
    event(all_out, obj, "every replica unreachable: the data is UNAVAILABLE, not lost");
    o.verdict = "unavailable: every replica unreachable, data intact";
  }
  if (!v.engine_node.empty() && gone_at_.contains(v.engine_node) && lost == kNever) {
    const double back = reattach(v);
    o.unavailable.push_back({gone_at_.at(v.engine_node), back, "the engine's node " + v.engine_node + " is gone; reattached where the pod is Ready again"});
    event(gone_at_.at(v.engine_node), obj, fmt::format("UNAVAILABLE: its engine ran on {} (the data is intact)", v.engine_node));
    if (back != kNever) event(back, obj, "attached again with its pod's replacement: available");
  }
  o.unavailable = union_of(o.unavailable);
  if (o.verdict.empty() && !outs.empty()) rebuild(v, o, jobs);
  if (o.verdict.empty()) o.verdict = o.unavailable.empty() ? "healthy" : "healthy, unavailable while reattaching";
  r_.volumes.push_back(std::move(o));
}

void Study::rebuild(const VolumeLayout& v, VolumeOutcome& o, std::vector<RebuildJob>& jobs) {
  const double attach = reattach(v);
  if (attach == kNever) {
    o.verdict = v.engine_node.empty() ? "degraded: detached, so no rebuild (Longhorn's offline rebuilding is off by default)"
                                      : "degraded: never attached again, so no rebuild";
    return;
  }
  std::string source;
  for (const auto& n : v.replica_nodes) {
    if (out_at(n) == kNever && source.empty()) source = n;
  }
  std::vector<std::string> targets;
  for (const auto& c : v.candidate_nodes) {
    if (std::find(v.replica_nodes.begin(), v.replica_nodes.end(), c) == v.replica_nodes.end() && !gone_at_.contains(c) && disk_loss(c) == kNever) targets.push_back(c);
  }
  if (targets.empty()) {
    o.verdict = fmt::format("degraded for ever: no node left for a replica ({} of {}, one replica per node)", o.replicas_left, v.replicas_wanted);
    event(o.degraded_s, "volume " + v.claim, o.verdict);
    return;
  }
  std::vector<double> outs;
  for (const auto& n : v.replica_nodes) {
    if (out_at(n) != kNever) outs.push_back(out_at(n));
  }
  std::sort(outs.begin(), outs.end());
  const std::size_t count = std::min(outs.size(), targets.size());
  if (count < outs.size()) o.verdict_note = fmt::format("; {} replica(s) never rebuilt: no node left for them", outs.size() - count);
  for (std::size_t k = 0; k < count; ++k) {
    const double start = std::max(outs[k] + kReplicaReplenishmentWaitS, attach);
    o.rebuild_start_s = std::min(o.rebuild_start_s, start);
    o.rebuild_from = source;
    o.rebuild_to += (k > 0 ? ", " : "") + targets[k];
    event(start, "volume " + v.claim,
          fmt::format("rebuild starts: {} -> {} ({}; after the {:g} s replica replenishment wait, once attached)", source, targets[k], v.size,
                      kReplicaReplenishmentWaitS));
    const auto path = rebuild_path(m_, source, targets[k]);
    if (path.empty()) {
      o.verdict = "degraded, rebuilding (no --spec frontend network: the rebuild's time is not computed)";
      continue;
    }
    Rebuild rb{v.claim, v.bytes, start, {}};
    if (o.rebuild_bits_per_s == 0) o.rebuild_bits_per_s = kNever;
    for (const auto& l : path) {
      auto it = std::find_if(links_.begin(), links_.end(), [&](const RebuildLink& x) { return x.name == l.name; });
      if (it == links_.end()) it = links_.insert(links_.end(), l);
      rb.links.push_back(static_cast<std::size_t>(it - links_.begin()));
      o.rebuild_bits_per_s = std::min(o.rebuild_bits_per_s, l.bits_per_s);
    }
    jobs.push_back({r_.volumes.size(), std::move(rb)});
  }
}

void Study::finish_rebuilds(std::vector<RebuildJob>& jobs) {
  if (jobs.empty()) return;
  std::vector<Rebuild> rebuilds;
  for (const auto& j : jobs) rebuilds.push_back(j.rebuild);
  const auto done = rebuild_finish_times(links_, rebuilds);
  for (auto& o : r_.volumes) o.rebuild_end_s = o.rebuild_start_s == kNever ? kNever : 0;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    VolumeOutcome& o = r_.volumes[jobs[k].volume];
    o.rebuild_end_s = std::max(o.rebuild_end_s, done[k]);
  }
  std::set<std::size_t> told;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    VolumeOutcome& o = r_.volumes[jobs[k].volume];
    if (done[k] != o.rebuild_end_s || !told.insert(jobs[k].volume).second) continue;
    o.verdict = fmt::format("degraded from {}, rebuilt by {} (data never lost){}", secs(o.degraded_s), secs(done[k]), o.verdict_note);
    if (done[k] != kNever) event(done[k], "volume " + o.claim, fmt::format("rebuild done on {}: {}", o.rebuild_to, o.verdict_note.empty() ? "healthy again" : "still degraded" + o.verdict_note));
  }
}

// The model at t: the failures by then, the replacements Ready by then on their nodes, the pods
// of workloads whose volume is lost gone.
FrontendModel Study::fork(double t) const {
  FrontendModel f = fork_model(m_, failed_at(m_, r_.failures, t));
  for (std::size_t k = 0; k < r_.pods.size(); ++k) {
    const PodOutcome& p = r_.pods[k];
    if (p.ready_s > t || p.replacement_node.empty()) continue;
    const auto gone = gone_at_.find(p.replacement_node);
    if (gone != gone_at_.end() && gone->second <= t) continue;
    for (auto& pod : f.placement.pods) {
      if (pod.workload != keys_[k].workload || pod.name != keys_[k].name) continue;
      pod.node = p.replacement_node;
      pod.ready = true;
      pod.why = "the replacement, Ready at " + secs(p.ready_s);
    }
  }
  for (const auto& [w, from] : broken_) {
    if (from > t) continue;
    for (auto& pod : f.placement.pods) {
      if (pod.workload != w) continue;
      pod.node.clear();
      pod.ready = false;
    }
  }
  f.auth = build_auth_dependencies(f.manifests, f.gateways, f.placement);
  return f;
}

// The times where the forked model changes: a failure, a replacement Ready, a volume lost (the
// lifecycle's other steps, NotReady and eviction, change no answer: the fork drops a gone node's
// pods at once and the windows before G come from the healthy trace).
std::vector<double> Study::epochs() const {
  std::set<double> t{0};
  for (const auto& f : r_.failures) t.insert(f.at_s);
  for (const auto& p : r_.pods) {
    if (p.ready_s != kNever) t.insert(p.ready_s);
  }
  for (const auto& b : broken_) t.insert(b.second);
  for (const auto& c : r_.certificates) {
    if (c.expires_s != kNever) t.insert(c.expires_s);
  }
  return {t.begin(), t.end()};
}

// Can the failures change this request's answer? Only through a node it chose among (gone, or
// holding a pod of a workload whose volume is lost) unless a BGP peer, a name server or an address
// pool failed, or a certificate expires.
bool Study::affected(const PublishedRequest& p) const {
  for (const auto& f : r_.failures) {
    if (f.kind == FailureKind::kBgpPeer || f.kind == FailureKind::kDnsServer || f.kind == FailureKind::kAddressPool) return true;
  }
  if (std::any_of(r_.certificates.begin(), r_.certificates.end(), [](const CertificateOutcome& c) { return c.expires_s != kNever; })) return true;
  if (std::any_of(p.nodes.begin(), p.nodes.end(), [&](const std::string& n) { return gone_at_.contains(n); })) return true;
  // A disk matters only through a volume it loses: the pods of that workload are gone.
  return std::any_of(broken_.begin(), broken_.end(), [&](const auto& b) {
    for (const auto& pod : m_.placement.pods) {
      if (pod.workload == b.first && std::find(p.nodes.begin(), p.nodes.end(), pod.node) != p.nodes.end()) return true;
    }
    return false;
  });
}

void Study::requests() {
  const auto times = epochs();
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < r_.published.requests.size(); ++i) {
    if (affected(r_.published.requests[i])) todo.push_back(i);
  }
  if (todo.empty()) return;
  std::vector<std::vector<std::pair<int, std::string>>> answers(todo.size());
  for (const double t : times) {
    const FrontendModel f = fork(t);
    for (std::size_t k = 0; k < todo.size(); ++k) {
      const PublishedRequest& p = r_.published.requests[todo[k]];
      const auto trace = trace_request(f, p.request);
      const int status = traced_status(trace);
      std::string why;
      if (status != p.healthy_status) {
        why = trace ? failed_hop(trace.value()) : "";
        if (why.empty()) why = fmt::format("HTTP {} instead of {}", status, p.healthy_status);
      }
      answers[k].emplace_back(status, std::move(why));
    }
  }
  for (std::size_t k = 0; k < todo.size(); ++k) request_spans(todo[k], times, answers[k]);
}

void Study::request_spans(std::size_t i, const std::vector<double>& times, const std::vector<std::pair<int, std::string>>& answers) {
  const PublishedRequest& p = r_.published.requests[i];
  RequestOutcome o;
  o.request = i;
  for (std::size_t e = 0; e < times.size(); ++e) {
    if (answers[e].first == p.healthy_status) continue;
    if (!o.failed.empty() && o.failed.back().to_s == times[e]) {
      o.failed.back().to_s = e + 1 < times.size() ? times[e + 1] : kNever;
    } else {
      o.failed.push_back({times[e], e + 1 < times.size() ? times[e + 1] : kNever, answers[e].second});
    }
  }
  o.failed = union_of(o.failed);
  if (const auto g = gone_at_.find(p.landing_node); g != gone_at_.end() && p.bgp_hold_s > 0 && !covered(o.failed, g->second)) {
    o.degraded.push_back({g->second, g->second + p.bgp_hold_s,
                          fmt::format("the router still sends this flow (and the others hashed to {}) there until the BGP hold time ({} s) "
                                      "withdraws it",
                                      p.landing_node, p.bgp_hold_s)});
  }
  for (const auto& n : p.endpoint_nodes) {
    const auto g = gone_at_.find(n);
    if (g == gone_at_.end() || covered(o.failed, g->second)) continue;
    o.degraded.push_back({g->second, g->second + r_.timers.node_monitor_grace_s,
                          fmt::format("a Gateway pod or endpoint on {} stays listed until the node is NotReady: part of the requests fail", n)});
  }
  o.degraded = union_of(o.degraded);
  if (o.failed.empty() && o.degraded.empty()) return;
  const std::string obj = p.url + " from " + p.client_label;
  for (const auto& s : o.failed) {
    event(s.from_s, obj, "FAILS: " + s.why);
    if (s.to_s != kNever) event(s.to_s, obj, "served again");
  }
  for (const auto& s : o.degraded) event(s.from_s, obj, "degraded until " + secs(s.to_s) + ": " + s.why);
  r_.requests.push_back(std::move(o));
}

void Study::apps() {
  std::map<std::string, AppDowntime> by_app;
  for (const auto& p : r_.published.requests) by_app[p.app].app = p.app;
  r_.apps_total = static_cast<int>(by_app.size());
  for (const auto& o : r_.requests) {
    if (o.failed.empty()) continue;
    const PublishedRequest& p = r_.published.requests[o.request];
    AppDowntime& a = by_app[p.app];
    if (std::find(a.urls.begin(), a.urls.end(), p.url) == a.urls.end()) a.urls.push_back(p.url);
    a.down.insert(a.down.end(), o.failed.begin(), o.failed.end());
  }
  for (auto& [name, a] : by_app) {
    if (a.down.empty()) continue;
    a.down = union_of(a.down);
    a.downtime_s = span_length(a.down);
    if (a.downtime_s == kNever) {
      ++r_.apps_down_for_ever;
    } else {
      r_.total_downtime_s += a.downtime_s;
    }
    r_.apps.push_back(std::move(a));
  }
  std::stable_sort(r_.apps.begin(), r_.apps.end(), [](const AppDowntime& a, const AppDowntime& b) { return a.downtime_s > b.downtime_s; });
}

FailureTimeline Study::run() {
  elements();
  lifecycle();
  std::vector<RebuildJob> jobs;
  for (const auto& v : volumes_) volume(v, jobs);
  finish_rebuilds(jobs);
  requests();
  apps();
  std::stable_sort(r_.events.begin(), r_.events.end(), [](const TimelineEvent& a, const TimelineEvent& b) { return a.at_s < b.at_s; });
  for (const auto& e : r_.events) {
    if (e.at_s != kNever) r_.steady_s = std::max(r_.steady_s, e.at_s);
  }
  if (r_.published.regex_rules_skipped > 0) {
    r_.notes.push_back(fmt::format("{} rule(s) whose first match is a regular expression not traced", r_.published.regex_rules_skipped));
  }
  if (r_.published.wildcard_hosts_skipped > 0) {
    r_.notes.push_back(fmt::format("{} wildcard hostname(s) not traced", r_.published.wildcard_hosts_skipped));
  }
  return std::move(r_);
}

}  // namespace

FailureTimeline failure_timeline(const FrontendModel& model, std::vector<Failure> failures, const LifecycleTimers& timers,
                                 const PublishedRequests& published, const std::vector<VolumeLayout>& volumes) {
  return Study(model, std::move(failures), timers, published, volumes).run();
}

FailureTimeline failure_timeline(const FrontendModel& model, std::vector<Failure> failures, const LifecycleTimers& timers,
                                 const PublishedRequests& published) {
  return failure_timeline(model, std::move(failures), timers, published, volume_layouts(model));
}

FailureTimeline failure_timeline(const FrontendModel& model, std::vector<Failure> failures, const LifecycleTimers& timers) {
  return failure_timeline(model, std::move(failures), timers, published_requests(model));
}

}  // namespace ct
