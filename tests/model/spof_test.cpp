// spof on examples/platform-ha, the platform with every single point of failure the manifests can
// remove removed (two BGP peers, two name servers, two login pods with a PodDisruptionBudget, the
// model server a StatefulSet of two pods with a 3-replica volume each, the Gateway's two replicas
// on two nodes), without the spec (so the frontend switches and links are not modelled):
//   - no element downs an app but the one address pool the door's Service pins its address to
//     (loadBalancerIP and the pool's annotation: its deletion takes the address, every app down for
//     ever), and every other modelled layer says none;
//   - with one SPOF planted (the login back to one pod), that SPOF is named first after the pool:
//     the login's node downs the 14 apps behind it for G + S + U = 40 + 300 + 30 = 370 s each
//     (14 x 370 = 5,180 app-seconds) and nothing else downs an app; the app-pods layer names "the
//     login app (auth/oauth2-proxy) has one pod" (the PodDisruptionBudget stays: it does not keep a
//     pod alive).
// And on examples/platform itself: the login's node outranks the model server's (issue 28: one login
// replica above any single app's replica).
#include "survival/spof.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "io/dns_files.h"
#include "io/manifest_files.h"
#include "support/test_paths.h"

namespace ct {
namespace {

FrontendModel load(const std::string& example, int login_replicas = 0) {
  const std::string root = testing_support::source_dir() + "/examples/" + example;
  Manifests m = load_manifests({root + "/manifests"}).value();
  if (login_replicas > 0) {
    for (auto& w : m.workloads) {
      if (w.meta.name == "oauth2-proxy") w.replicas = login_replicas;
    }
  }
  return build_frontend_model(std::move(m), load_dns(root + "/dns/named.conf").value(), std::nullopt);
}

const SpofLayer& layer(const SpofReport& r, const std::string& name) {
  for (const auto& l : r.layers) {
    if (l.layer == name) return l;
  }
  ADD_FAILURE() << "no layer " << name;
  return r.layers.front();
}

TEST(Spof, NoneLeftAtEachModelledLayer) {
  const SpofReport r = spof_study(load("platform-ha"), LifecycleTimers{}, 0);
  EXPECT_EQ(r.spof_count(), 1);
  for (const auto& l : r.layers) {
    if (l.layer == "address pool") continue;
    EXPECT_TRUE(l.spofs.empty()) << l.layer << ": " << (l.spofs.empty() ? "" : l.spofs.front());
  }
  EXPECT_FALSE(layer(r, "frontend switch").modelled);
  EXPECT_TRUE(layer(r, "node").modelled);
  EXPECT_EQ(layer(r, "BGP peer").elements, 2);
  EXPECT_EQ(layer(r, "DNS server").elements, 2);
}

TEST(Spof, OnePlantedSpofIsNamedFirst) {
  const FrontendModel m = load("platform-ha", 1);
  const SpofReport r = spof_study(m, LifecycleTimers{}, 0);
  ASSERT_EQ(r.spof_count(), 2);
  EXPECT_EQ(r.ranked.front().element.kind, FailureKind::kAddressPool);
  const SpofCandidate& top = r.ranked[1];
  EXPECT_EQ(top.element.kind, FailureKind::kNode);
  EXPECT_EQ(top.apps_lost, 14);
  EXPECT_EQ(top.app_seconds, 14 * 370);
  ASSERT_EQ(layer(r, "app pods").spofs.size(), 1u);
  EXPECT_EQ(layer(r, "app pods").spofs[0], "the login app (auth/oauth2-proxy) has one pod");
  ASSERT_EQ(layer(r, "node").spofs.size(), 1u);
  EXPECT_NE(layer(r, "node").spofs[0].find("the login app (auth/oauth2-proxy) has one pod"), std::string::npos);
}

// examples/platform: node-0 (the login's only pod: 14 apps x 370 s) above node-3 (the model server:
// 2 routes x 730 s); the login's line says it has no PodDisruptionBudget.
TEST(Spof, TheLoginOutranksAnySingleApp) {
  const SpofReport r = spof_study(load("platform"), LifecycleTimers{}, 3);
  std::vector<std::string> nodes;
  for (const auto& c : r.ranked) {
    if (c.element.kind == FailureKind::kNode && c.spof()) nodes.push_back(c.element.name);
  }
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0], "node-0");
  EXPECT_EQ(nodes[1], "node-3");
  const auto& apps = layer(r, "app pods").spofs;
  EXPECT_NE(std::find(apps.begin(), apps.end(), "the login app (auth/oauth2-proxy) has one pod and no PodDisruptionBudget"), apps.end());
  EXPECT_EQ(r.pairs_tried, 3);
}

// Issue 25: spof removes the MetalLB address pools as break --address-pool does. The door's
// Service takes 198.51.100.10 from pool vip only (loadBalancerIP and the pool annotation), so the
// pool's removal leaves the Gateway without an address: every one of the 15 published apps down for
// ever, ranked first, and the pool layer names it.
TEST(Spof, RemovesTheAddressPools) {
  const SpofReport r = spof_study(load("platform-ha"), LifecycleTimers{}, 0);
  const auto pool = std::find_if(r.ranked.begin(), r.ranked.end(), [](const SpofCandidate& c) { return c.element.kind == FailureKind::kAddressPool; });
  ASSERT_NE(pool, r.ranked.end());
  EXPECT_EQ(pool->element.name, "vip");
  EXPECT_EQ(pool->apps_for_ever, r.apps_total);
  EXPECT_EQ(pool, r.ranked.begin());
  const SpofLayer& pools = layer(r, "address pool");
  EXPECT_TRUE(pools.modelled);
  EXPECT_EQ(pools.elements, 1);
  ASSERT_EQ(pools.spofs.size(), 1u);
  EXPECT_EQ(pools.spofs[0].rfind("one address pool (vip)", 0), 0u) << pools.spofs[0];
}

// Issue 25: an issuer is ranked by the certificates whose renewal falls in its outage. examples/
// platform with grafana-tls dated (notBefore now - 60 d, notAfter now + 30 d: renewal at 0 d, as
// in failure_timeline_test) and --now: ClusterIssuer internal-ca downs the grafana app for ever
// from 30 d; without --now, or without dates, the issuer layer is not modelled.
TEST(Spof, AnIssuerIsRankedByItsCertificatesRenewals) {
  FrontendModel m = load("platform");
  EXPECT_FALSE(layer(spof_study(m, LifecycleTimers{}, 0), "issuer").modelled);
  constexpr std::int64_t kNow = 1796515200000;  // 2026-12-06T00:00:00Z
  for (auto& c : m.manifests.certificates) {
    if (c.meta.name != "grafana-tls") continue;
    c.not_before_ms = kNow - 60LL * 86400000;
    c.not_after_ms = kNow + 30LL * 86400000;
  }
  EXPECT_EQ(layer(spof_study(m, LifecycleTimers{}, 0), "issuer").why_not, "no --now to place the certificates' dates against");
  m.now_ms = kNow;
  const SpofReport r = spof_study(m, LifecycleTimers{}, 0);
  const auto ca = std::find_if(r.ranked.begin(), r.ranked.end(), [](const SpofCandidate& c) { return c.element.name == "internal-ca"; });
  ASSERT_NE(ca, r.ranked.end());
  EXPECT_EQ(ca->apps, (std::vector<std::string>{"HTTPRoute apps/grafana"}));
  EXPECT_EQ(ca->apps_for_ever, 1);
  EXPECT_EQ(ca->first_expiry_s, 2592000);
  const SpofLayer& issuers = layer(r, "issuer");
  ASSERT_EQ(issuers.spofs.size(), 1u);
  EXPECT_EQ(issuers.spofs[0],
            "issuer internal-ca: 1 certificate(s) renew in its outage and fail, TLS failing from 2592000 s (30.0 days) (1 app(s) for ever)");
}

}  // namespace
}  // namespace ct
