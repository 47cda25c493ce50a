// Failure timelines of examples/platform worked by hand. The platform: six nodes, the 60Gi volume
// ml/model-weights (StorageClass longhorn-3: 3 replicas among the disk nodes node-2..node-5, the
// first three by name: node-2, node-3, node-4), its one vllm pod on node-3, the login
// (auth/oauth2-proxy, one pod) on node-0, the frontend 100 Gb/s per node link. The timers are the
// defaults: node-monitor grace G = 40 s, tolerationSeconds S = 300 s, the force detach F = 360 s,
// start-up U = 30 s, Longhorn's replica replenishment wait W = 600 s.
#include "survival/failure_timeline.h"

#include <gtest/gtest.h>

#include "fabric/fabric.h"
#include "io/dns_files.h"
#include "io/loaders.h"
#include "io/manifest_files.h"
#include "support/test_paths.h"

namespace ct {
namespace {

const FrontendModel& platform() {
  static const FrontendModel model = [] {
    const std::string root = testing_support::source_dir() + "/examples/platform";
    auto catalog = load_catalog(testing_support::source_dir() + "/catalog");
    EXPECT_TRUE(catalog.ok());
    auto spec = load_spec(root + "/cluster.yaml", catalog.value());
    EXPECT_TRUE(spec.ok());
    auto fabric = build_fabric(spec.value(), catalog.value());
    EXPECT_TRUE(fabric.ok());
    return build_frontend_model(load_manifests({root + "/manifests"}).value(), load_dns(root + "/dns/named.conf").value(), fabric->topology());
  }();
  return model;
}

FailureTimeline run(std::vector<Failure> failures) { return failure_timeline(platform(), std::move(failures), LifecycleTimers{}); }

const AppDowntime* app(const FailureTimeline& t, const std::string& name) {
  for (const auto& a : t.apps) {
    if (a.app == name) return &a;
  }
  return nullptr;
}

const VolumeOutcome& weights(const FailureTimeline& t) {
  for (const auto& v : t.volumes) {
    if (v.claim == "ml/model-weights") return v;
  }
  ADD_FAILURE() << "no volume ml/model-weights";
  return t.volumes.front();
}

// node-3 dies. vllm-0 is evicted at G + S = 340 s; its replacement waits for the RWO volume's force
// detach, F = 360 s, and starts in U = 30 s: Ready at 340 + 360 + 30 = 730 s. The model API
// (api.example.com/v1 and /healthz) is down from 0 to 730 s. The volume loses node-3's replica
// (2 of 3 left: degraded, no data lost) and is unavailable from 0 until its pod is Ready at 730 s;
// the rebuild waits W = 600 s and for the attach: it starts at max(0 + 600, 730) = 730 s, copies
// 60 GiB = 64,424,509,440 bytes x 8 = 515,396,075,520 bits over 100 Gb/s links in 5.1539607552 s:
// done at 735.1539607552 s. The apps with a second pod elsewhere are never down.
TEST(FailureTimeline, Node3DiesTheModelVolumeSurvives) {
  const FailureTimeline t = run({{FailureKind::kNode, "node-3", 0}});
  ASSERT_NE(app(t, "HTTPRoute ml/vllm"), nullptr);
  EXPECT_EQ(app(t, "HTTPRoute ml/vllm")->downtime_s, 730);
  EXPECT_EQ(app(t, "HTTPRoute ml/vllm")->down.front().from_s, 0);
  EXPECT_EQ(app(t, "HTTPRoute apps/grafana"), nullptr);
  const VolumeOutcome& v = weights(t);
  EXPECT_EQ(v.replicas_left, 2);
  EXPECT_EQ(v.lost_s, kNever);
  EXPECT_FALSE(t.data_lost);
  ASSERT_EQ(v.unavailable.size(), 1u);
  EXPECT_EQ(v.unavailable[0].to_s, 730);
  EXPECT_EQ(v.rebuild_start_s, 730);
  EXPECT_NEAR(v.rebuild_end_s, 735.1539607552, 1e-6);
  EXPECT_EQ(v.rebuild_to, "node-5");
  EXPECT_NEAR(t.steady_s, 735.1539607552, 1e-6);
}

// node-0 holds the login's only pod (issue 28: the login hop as a dependency): every app behind the
// forward-auth Middleware fails until the login's replacement is Ready at G + S + U = 40 + 300 + 30
// = 370 s; the login's own route too. The vllm health check, which no login covers, stays up.
TEST(FailureTimeline, TheLoginsNodeTakesEveryCoveredAppDown) {
  const FailureTimeline t = run({{FailureKind::kNode, "node-0", 0}});
  for (const char* name : {"HTTPRoute apps/grafana", "HTTPRoute apps/wiki", "HTTPRoute ml/vllm", "HTTPRoute auth/login"}) {
    ASSERT_NE(app(t, name), nullptr) << name;
    EXPECT_EQ(app(t, name)->downtime_s, 370) << name;
  }
  EXPECT_EQ(app(t, "HTTPRoute ml/vllm-health"), nullptr);
  EXPECT_EQ(static_cast<int>(t.apps.size()), t.apps_total - 1);
}

// Every replica's node dies (node-2, node-3, node-4): faulted, the data LOST, and vllm never comes
// back (its replacement cannot attach a faulted volume). A leaf switch that cuts every node off
// instead: the replicas are unreachable, the data UNAVAILABLE but intact.
TEST(FailureTimeline, DataLostAgainstUnavailable) {
  const FailureTimeline lost = run({{FailureKind::kNode, "node-2", 0}, {FailureKind::kNode, "node-3", 0}, {FailureKind::kNode, "node-4", 0}});
  EXPECT_TRUE(lost.data_lost);
  EXPECT_EQ(weights(lost).lost_s, 0);
  ASSERT_NE(app(lost, "HTTPRoute ml/vllm"), nullptr);
  EXPECT_EQ(app(lost, "HTTPRoute ml/vllm")->downtime_s, kNever);
  const FailureTimeline cut = run({{FailureKind::kSwitch, "fe/leaf/0", 0}});
  EXPECT_FALSE(cut.data_lost);
  EXPECT_EQ(weights(cut).lost_s, kNever);
  ASSERT_EQ(weights(cut).unavailable.size(), 1u);
  EXPECT_EQ(weights(cut).unavailable[0].to_s, kNever);
  EXPECT_EQ(cut.apps_down_for_ever, cut.apps_total);
}

// Staggered: node-2's disk fails at 0, node-3 dies at 100 s. vllm is down from 100 s until
// 100 + G + S + F + U = 100 + 40 + 300 + 360 + 30 = 830 s. Two replicas are out (1 of 3 left); the
// one free disk node, node-5, gets a rebuild at max(0 + W, 830) = 830 s, the other replica has no
// node left.
TEST(FailureTimeline, StaggeredDiskThenNode) {
  const FailureTimeline t = run({{FailureKind::kNode, "node-3", 100}, {FailureKind::kDisk, "node-2", 0}});
  EXPECT_EQ(t.failures.front().kind, FailureKind::kDisk);
  ASSERT_NE(app(t, "HTTPRoute ml/vllm"), nullptr);
  EXPECT_EQ(app(t, "HTTPRoute ml/vllm")->down.front().from_s, 100);
  EXPECT_EQ(app(t, "HTTPRoute ml/vllm")->down.front().to_s, 830);
  EXPECT_EQ(weights(t).replicas_left, 1);
  EXPECT_EQ(weights(t).rebuild_start_s, 830);
  EXPECT_EQ(weights(t).rebuild_to, "node-5");
  EXPECT_NE(weights(t).verdict.find("never rebuilt"), std::string::npos);
}

// The only name server (ns1.example.com in both views) and the only BGP peer: every app fails from
// 0 for ever. An issuer fails no request.
TEST(FailureTimeline, DoorInfrastructure) {
  for (const Failure& f : {Failure{FailureKind::kDnsServer, "ns1.example.com", 0}, Failure{FailureKind::kBgpPeer, "router", 0},
                           Failure{FailureKind::kAddressPool, "vip", 0}}) {
    const FailureTimeline t = run({f});
    EXPECT_EQ(t.apps_down_for_ever, t.apps_total) << failure_label(f);
  }
  EXPECT_TRUE(run({{FailureKind::kIssuer, "letsencrypt", 0}}).apps.empty());
}

// Issue 25: certificate renewal windows (survival/cert_renewal.h). --now = 2026-12-06T00:00:00Z;
// two certificates of ClusterIssuer internal-ca carry dates, the others none:
//   grafana-tls     notBefore now - 60 d, notAfter now + 30 d, no renewBefore: lifetime 90 d,
//                   renewBefore 90 / 3 = 30 d, renewal at 30 - 30 = 0 d;
//   prometheus-tls  notBefore now - 10 d, notAfter now + 80 d, renewBefore 360h = 15 d: renewal at
//                   80 - 15 = 65 d = 5,616,000 s.
// internal-ca fails at 0 for ever: grafana's renewal at 0 fails and the certificate expires at
// 30 d = 2,592,000 s: the grafana app (its listener serves Secret infra/grafana-tls) is down from
// 2,592,000 s for ever; prometheus's renewal at 5,616,000 s fails, expiry at 80 d = 6,912,000 s.
// internal-ca failing at 10 d = 864,000 s instead: grafana renews at 0 (before the outage), its new
// certificate lasts the default 90 d (notAfter 7,776,000 s) and renews at 60 d = 5,184,000 s: that
// renewal fails, TLS fails from 7,776,000 s. The undated certificates are listed, not placed.
TEST(FailureTimeline, AnIssuerMattersWhenARenewalFallsInItsOutage) {
  FrontendModel m = platform();
  constexpr std::int64_t kNow = 1796515200000;  // 2026-12-06T00:00:00Z
  constexpr std::int64_t kDay = 86400000;
  m.now_ms = kNow;
  for (auto& c : m.manifests.certificates) {
    if (c.meta.name == "grafana-tls") {
      c.not_before_ms = kNow - 60 * kDay;
      c.not_after_ms = kNow + 30 * kDay;
    } else if (c.meta.name == "prometheus-tls") {
      c.not_before_ms = kNow - 10 * kDay;
      c.not_after_ms = kNow + 80 * kDay;
      c.renew_before_s = 360 * 3600.0;
    }
  }
  const FailureTimeline t = failure_timeline(m, {{FailureKind::kIssuer, "internal-ca", 0}}, LifecycleTimers{});
  ASSERT_GE(t.certificates.size(), 2u);
  EXPECT_EQ(t.certificates[0].certificate, "infra/grafana-tls");
  EXPECT_EQ(t.certificates[0].attempt_s, 0);
  EXPECT_EQ(t.certificates[0].expires_s, 2592000);
  EXPECT_EQ(t.certificates[1].certificate, "infra/prometheus-tls");
  EXPECT_EQ(t.certificates[1].attempt_s, 5616000);
  EXPECT_EQ(t.certificates[1].expires_s, 6912000);
  EXPECT_FALSE(t.certificates.back().dated);
  ASSERT_NE(app(t, "HTTPRoute apps/grafana"), nullptr);
  EXPECT_EQ(app(t, "HTTPRoute apps/grafana")->down.front().from_s, 2592000);
  EXPECT_EQ(app(t, "HTTPRoute apps/grafana")->downtime_s, kNever);
  ASSERT_NE(app(t, "HTTPRoute apps/prometheus"), nullptr);
  EXPECT_EQ(app(t, "HTTPRoute apps/prometheus")->down.front().from_s, 6912000);
  EXPECT_EQ(t.apps.size(), 2u);

  // The list is by expiry: prometheus-tls (6,912,000 s) now comes before grafana-tls.
  const FailureTimeline later = failure_timeline(m, {{FailureKind::kIssuer, "internal-ca", 864000}}, LifecycleTimers{});
  EXPECT_EQ(later.certificates[0].certificate, "infra/prometheus-tls");
  EXPECT_EQ(later.certificates[0].renewed_before, 0);
  EXPECT_EQ(later.certificates[1].certificate, "infra/grafana-tls");
  EXPECT_EQ(later.certificates[1].renewed_before, 1);
  EXPECT_EQ(later.certificates[1].attempt_s, 5184000);
  EXPECT_EQ(later.certificates[1].expires_s, 7776000);
  EXPECT_EQ(app(later, "HTTPRoute apps/grafana")->down.front().from_s, 7776000);

  // Without dates (the example as shipped) an issuer fails no request.
  EXPECT_TRUE(run({{FailureKind::kIssuer, "internal-ca", 0}}).apps.empty());
}

// Issue 25: every frontend port of a node is modelled. node-0 (host0) has two frontend ports (one
// ConnectX-6 Dx, 2 x 100G), both cabled to fe/leaf/0. One uplink's death leaves the other: node-0
// stays Ready and no app goes down. Both uplinks dead cut node-0 off: NotReady at G = 40 s, the
// login evicted at G + S = 340 s and Ready elsewhere at 370 s, as when node-0 dies: every covered
// app down 0 to 370 s; the disk keeps its data (node-0 holds no replica).
TEST(FailureTimeline, ANodeWithTwoUplinksSurvivesOne) {
  const FailureTimeline one = run({{FailureKind::kLink, "host0/fe0 -- fe/leaf/0", 0}});
  EXPECT_TRUE(one.apps.empty());
  EXPECT_TRUE(one.pods.empty());
  const FailureTimeline both = run({{FailureKind::kLink, "host0/fe0 -- fe/leaf/0", 0}, {FailureKind::kLink, "host0/fe1 -- fe/leaf/0", 0}});
  ASSERT_NE(app(both, "HTTPRoute apps/grafana"), nullptr);
  EXPECT_EQ(app(both, "HTTPRoute apps/grafana")->downtime_s, 370);
  EXPECT_EQ(both.apps.size(), 14u);
  EXPECT_FALSE(both.data_lost);
}

TEST(FailureTimeline, UnknownElementsGetADidYouMean) {
  const Diagnostics d = check_failures(platform(), {{FailureKind::kNode, "node-33", 0}, {FailureKind::kSwitch, "fe/leaf/9", 0}, {FailureKind::kNode, "node-1", -1}});
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].field, "--node");
  EXPECT_EQ(d[0].message, "no node 'node-33' (did you mean 'node-3'?)");
  EXPECT_EQ(d[1].message, "no frontend switch 'fe/leaf/9' (did you mean 'fe/leaf/0'?)");
  EXPECT_EQ(d[2].field, "--at");
}

}  // namespace
}  // namespace ct
