// The frontend's smaller models worked by hand: pod placement, the MetalLB VIP, the cert-manager
// chain, Longhorn replicas, and the trace that strings them together on examples/platform.
#include <fstream>

#include <gtest/gtest.h>

#include "frontend/bgp_vip.h"
#include "frontend/cert_chain.h"
#include "frontend/manifest_parser.h"
#include "support/gateway_yaml.h"
#include "frontend/pod_placement.h"
#include "frontend/request_trace.h"
#include "frontend/volume_replicas.h"
#include "io/dns_files.h"
#include "io/manifest_files.h"
#include "report/trace_report.h"
#include "routing/port_address.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using testing_support::acme_http01_issuer;
using testing_support::certificate;
using testing_support::cluster_issuer;
using testing_support::document;
using testing_support::gateway;

Manifests load(const std::string& text) {
  auto m = parse_manifests({{"t.yaml", text}});
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_diagnostics(m.errors()));
  return std::move(m).value();
}

// examples/platform (its manifests and `extra` files, its DNS) as one frontend model.
void load_platform(const std::vector<std::string>& extra, FrontendModel& out) {
  std::vector<std::string> files{ct::testing_support::source_dir() + "/examples/platform/manifests"};
  files.insert(files.end(), extra.begin(), extra.end());
  auto m = load_manifests(files);
  ASSERT_TRUE(m.ok()) << format_diagnostics(m.errors());
  auto dns = load_dns(ct::testing_support::source_dir() + "/examples/platform/dns/named.conf");
  ASSERT_TRUE(dns.ok()) << format_diagnostics(dns.errors());
  out = build_frontend_model(std::move(m).value(), std::move(dns).value(), std::nullopt);
}

std::string nodes(int n, const std::string& labels_of_first_two) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += "---\napiVersion: v1\nkind: Node\nmetadata: {name: n" + std::to_string(i) + ", labels: {" + (i < 2 ? labels_of_first_two : "") +
         "}}\nstatus: {addresses: [{type: InternalIP, address: 192.0.2." + std::to_string(20 - i) + "}]}\n";
  }
  return s;
}

// Four nodes, n0 and n1 labelled edge=yes. Workload "a" (3 replicas, nodeSelector edge=yes, one per
// node): a-0 -> n0, a-1 -> n1, a-2 Pending (n2 and n3 fail the nodeSelector, n0 and n1 the
// anti-affinity). Workload "b" (3 replicas, no
// constraints) spreads by fewest pods: n2, n3 (0 pods each, name order), then n0 (1 pod, name order).
TEST(PodPlacement, SelectorAntiAffinityAndSpread) {
  const Manifests m = load(nodes(4, "edge: 'yes'") + R"(---
apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
spec:
  replicas: 3
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      nodeSelector: {edge: 'yes'}
      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: a}}, topologyKey: kubernetes.io/hostname}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: b}
spec:
  replicas: 3
  template: {metadata: {labels: {app: b}}}
)");
  const Placement p = place_pods(m);
  ASSERT_EQ(p.pods.size(), 6u);
  EXPECT_EQ(p.pods[0].node, "n0");
  EXPECT_EQ(p.pods[1].node, "n1");
  EXPECT_EQ(p.pods[2].node, "");
  EXPECT_EQ(p.pods[2].why,
            "Pending: 0/4 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, "
            "2 node(s) didn't match pod anti-affinity rules.");
  EXPECT_EQ(p.pods[3].node, "n2");
  EXPECT_EQ(p.pods[4].node, "n3");
  EXPECT_EQ(p.pods[5].node, "n0");
}

// MetalLB: pool 198.51.100.0/28 contains .10; the advertisement selects edge nodes (n0, n1); the
// peer has hold 30 s and the router 9 s: negotiated min = 9. With Local and the one endpoint on n1,
// only n1 announces; with Cluster both do, next hops ordered by address (n1 192.0.2.19 before n0
// 192.0.2.20).
TEST(BgpVip, LocalAndClusterAnnouncers) {
  const std::string base = nodes(3, "edge: 'yes'") + R"(---
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: {name: p, namespace: metallb-system}
spec: {addresses: [198.51.100.0/28]}
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: {name: adv, namespace: metallb-system}
spec: {ipAddressPools: [p], nodeSelectors: [{matchLabels: {edge: 'yes'}}]}
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: {name: r, namespace: metallb-system}
spec: {myASN: 64513, peerASN: 64512, peerAddress: 192.0.2.1, holdTime: 30s}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: gw}
spec:
  replicas: 1
  template:
    metadata: {labels: {app: gw}}
    spec: {nodeSelector: {kubernetes.io/hostname: n1}}
)";
  const auto svc = [](const std::string& policy) {
    return "---\napiVersion: v1\nkind: Service\nmetadata: {name: gw}\nspec: {type: LoadBalancer, loadBalancerIP: 198.51.100.10, "
           "externalTrafficPolicy: " + policy + ", selector: {app: gw}, ports: [{port: 443}]}\n";
  };
  std::string with_label = base;
  with_label.replace(with_label.find("name: n1, labels: {"), 19, "name: n1, labels: {kubernetes.io/hostname: n1, ");
  const Manifests local = load(with_label + svc("Local"));
  const auto a = find_vip(local, place_pods(local), parse_ipv4("198.51.100.10").value(), 9);
  ASSERT_TRUE(a && a->problems.empty());
  EXPECT_EQ(a->eligible_nodes, (std::vector<std::string>{"n0", "n1"}));
  EXPECT_EQ(a->announcing_nodes, std::vector<std::string>{"n1"});
  EXPECT_EQ(a->hold_time_s, 9);
  const Manifests cluster = load(with_label + svc("Cluster"));
  const auto c = find_vip(cluster, place_pods(cluster), parse_ipv4("198.51.100.10").value());
  ASSERT_TRUE(c && c->problems.empty());
  EXPECT_EQ(c->next_hop_nodes, (std::vector<std::string>{"n1", "n0"}));
  EXPECT_EQ(c->hold_time_s, 30);
  EXPECT_FALSE(find_vip(cluster, place_pods(cluster), parse_ipv4("198.51.100.99").value()).has_value());
}

// RFC 6125 6.4.3: "*.example.com" covers a.example.com only (one label).
TEST(CertChain, TlsWildcardCoversOneLabel) {
  EXPECT_TRUE(tls_name_covers("*.example.com", "a.example.com"));
  EXPECT_FALSE(tls_name_covers("*.example.com", "a.b.example.com"));
  EXPECT_FALSE(tls_name_covers("*.example.com", "example.com"));
  EXPECT_TRUE(tls_name_covers("A.example.com", "a.EXAMPLE.com"));
}

// A Gateway without a port-80 listener, a wildcard Certificate and an HTTP-01-only ACME issuer:
// two problems, each named: the wildcard needs DNS-01; a plain name needs port 80.
TEST(CertChain, AcmeNeedsPort80ForHttp01AndDns01ForWildcards) {
  const Manifests m = load(
      gateway({"{name: https, port: 443, protocol: HTTPS, hostname: '*.example.com', tls: {certificateRefs: [{name: wild}]}}"}, "infra", "c") +
      certificate("wild", "infra", "{secretName: wild, dnsNames: ['*.example.com', example.com], issuerRef: {name: le, kind: ClusterIssuer}}") +
      acme_http01_issuer());
  const Gateway& g = m.gateways[0];
  const CertificateCheck c = check_listener_certificate(m, g, g.listeners[0], "a.example.com", nullptr, 0);
  EXPECT_TRUE(c.covers_host);
  EXPECT_FALSE(c.issuable);
  ASSERT_EQ(c.problems.size(), 2u);
  EXPECT_NE(c.problems[0].find("*.example.com is a wildcard: ACME validates wildcards only by DNS-01"), std::string::npos);
  EXPECT_NE(c.problems[1].find("HTTP-01 for example.com needs an HTTP listener on port 80"), std::string::npos);
  EXPECT_FALSE(check_listener_certificate(m, g, g.listeners[0], "a.b.example.com", nullptr, 0).covers_host);
}

// HTTP-01 "needs a port-80 listener reachable from outside": the ACME server fetches
// http://NAME/.well-known/acme-challenge/... from the internet, so NAME must resolve, for an outside
// client, to an address that reaches the Gateway. One view for everyone: pub.example.com ->
// 198.51.100.10 (the Gateway Service's loadBalancerIP): reachable; int.example.com -> 10.0.0.5 (no
// address of this cluster): not issuable, and the problem names the answer.
TEST(CertChain, Http01NeedsTheNameToReachTheGatewayFromOutside) {
  const Manifests m = load(
      gateway({"{name: http, port: 80, protocol: HTTP}",
               "{name: https, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: site}]}}"},
              "infra", "c") +
      document("v1", "Service", "name: gw-envoy, namespace: infra",
               "spec: {type: LoadBalancer, loadBalancerIP: 198.51.100.10, ports: [{port: 443}]}\n") +
      certificate("site", "infra", "{secretName: site, dnsNames: [pub.example.com, int.example.com], issuerRef: {name: le, kind: ClusterIssuer}}") +
      acme_http01_issuer());
  auto conf = parse_named_conf("view \"all\" { match-clients { any; }; zone \"example.com\" { type primary; file \"z\"; }; };\n", "n.conf");
  ASSERT_TRUE(conf.ok());
  auto zone = parse_zone("$TTL 60\n@ IN SOA ns h 1 2 3 4 5\npub IN A 198.51.100.10\nint IN A 10.0.0.5\n", "example.com", "z");
  ASSERT_TRUE(zone.ok()) << format_diagnostics(zone.errors());
  DnsModel dns;
  dns.conf = std::move(conf).value();
  dns.zones.push_back({std::move(zone).value()});
  const Gateway& g = m.gateways[0];
  const CertificateCheck c = check_listener_certificate(m, g, g.listeners[1], "pub.example.com", &dns, *parse_ipv4("203.0.113.99"));
  EXPECT_TRUE(c.covers_host);
  EXPECT_FALSE(c.issuable);
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_NE(c.problems[0].find("HTTP-01 for int.example.com"), std::string::npos) << c.problems[0];
  EXPECT_NE(c.problems[0].find("resolves to 10.0.0.5, not this cluster"), std::string::npos) << c.problems[0];
}

// "Secret in the Gateway's namespace": cert-manager's gateway-shim (the Gateway annotation
// cert-manager.io/cluster-issuer) creates a Certificate for each certificateRef in the Gateway's
// namespace only. A ref to Secret other/x (even with a ReferenceGrant) gets no certificate; a ref
// to infra/y does (dnsNames: the listener's hostname).
TEST(CertChain, GatewayShimIssuesOnlyInTheGatewayNamespace) {
  const Manifests m = load(
      gateway({"{name: a, port: 443, protocol: HTTPS, hostname: a.example.com, tls: {certificateRefs: [{name: x, namespace: other}]}}",
               "{name: b, port: 443, protocol: HTTPS, hostname: b.example.com, tls: {certificateRefs: [{name: y}]}}"},
              "infra", "c", ", annotations: {cert-manager.io/cluster-issuer: ca}") +
      cluster_issuer("ca", "{selfSigned: {}}"));
  const Gateway& g = m.gateways[0];
  const CertificateCheck a = check_listener_certificate(m, g, g.listeners[0], "a.example.com", nullptr, 0);
  EXPECT_FALSE(a.found);
  ASSERT_EQ(a.problems.size(), 1u);
  EXPECT_NE(a.problems[0].find("issues only Secrets in the Gateway's namespace (infra)"), std::string::npos) << a.problems[0];
  const CertificateCheck b = check_listener_certificate(m, g, g.listeners[1], "b.example.com", nullptr, 0);
  EXPECT_TRUE(b.found);
  EXPECT_TRUE(b.covers_host);
  EXPECT_TRUE(b.issuable);
  EXPECT_EQ(b.dns_names, std::vector<std::string>{"b.example.com"});
}

// Longhorn: numberOfReplicas 2 over storage nodes n0..n3 (all unlabelled: every schedulable node),
// dataLocality best-effort with the engine on n2: replicas n2 (local) then n0. Death of n2: 1 of 2
// left and the engine moves; the data survives the loss of any 1 node.
TEST(VolumeReplicas, ReplicasLocalityAndSurvival) {
  const Manifests m = load(nodes(4, "") + R"(---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: lh, annotations: {storageclass.kubernetes.io/is-default-class: 'true'}}
provisioner: driver.longhorn.io
parameters: {numberOfReplicas: '2', dataLocality: best-effort}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {resources: {requests: {storage: 10Gi}}}
)");
  const VolumeReport v = describe_volume(m, place_pods(m), "default", "data", "n2");
  ASSERT_TRUE(v.problems.empty());
  EXPECT_EQ(v.replica_nodes, (std::vector<std::string>{"n2", "n0"}));
  ASSERT_EQ(v.survival.size(), 3u);
  EXPECT_EQ(v.survival[1], "if n2 dies: 1 of 2 replica(s) left, Degraded until Longhorn rebuilds a replica on another node; "
                           "the engine goes with the node: the volume reattaches where the pod is rescheduled");
  EXPECT_EQ(v.survival[2], "the data survives the loss of any 1 node(s) at once");
}

// The request both trace tests follow: the api models endpoint, the router's Linux policy 1, seed 1,
// with the login's session cookie (the route is behind forward-auth: without it, 302 to sign in).
TraceRequest api_models_request() {
  TraceRequest r;
  r.request = "GET https://api.example.com/v1/models";
  r.headers = {"Cookie: _oauth2_proxy=session"};
  r.router.policy = 1;
  r.router.seed = 1;
  return r;
}

// The example, traced from inside to api.example.com/v1/models. By hand: the internal view answers
// (10.10.0.5 is in "inside"); api -> CNAME gw -> 198.51.100.10; edge-envoy (placed first, on
// node-0 and node-1 by spreading over the ingress nodes) announces from node-0 and node-1 only
// (Local); the listener is https-public (*.example.com); the route ml/vllm rule 0 (PathPrefix /v1);
// Middleware ml/forward-auth passes the cookie (hop 6); vllm-0 runs on a gpu node; the claim
// model-weights has 3 replicas on node-2, node-3, node-4
// (storage nodes 2..5, name order). The router's pick is checked against the kernel in
// tests/frontend/bgp_vip_test.cpp.
TEST(RequestTrace, ExamplePlatformFromInside) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({}, f));
  TraceRequest r = api_models_request();
  auto t = trace_request(f, r);
  ASSERT_TRUE(t.ok());
  const auto& h = t->hops;
  EXPECT_EQ(t->client, "10.10.0.5");
  EXPECT_EQ(h[0].decided_by, "view \"internal\"");
  EXPECT_NE(h[0].summary.find("198.51.100.10"), std::string::npos);
  EXPECT_NE(h[1].details[3].find("192.0.2.11 (node-0), 192.0.2.12 (node-1)"), std::string::npos) << h[1].details[3];
  EXPECT_EQ(h[2].status, HopStatus::kSkipped);
  EXPECT_EQ(h[3].decided_by, "Gateway infra/edge listener https-public");
  EXPECT_EQ(h[4].decided_by, "HTTPRoute ml/vllm rule 0");
  EXPECT_EQ(h[5].decided_by, "Middleware ml/forward-auth (forwardAuth)");
  EXPECT_NE(h[7].summary.find("vllm-0 on node-"), std::string::npos);
  EXPECT_NE(h[8].summary.find("3 replica(s) on node-2, node-3, node-4"), std::string::npos);
  EXPECT_EQ(t->http_status, 200);
  // From the guest Wi-Fi (negated in the ACL): the external view, the public address, NATed.
  r.from = "10.10.99.7";
  auto g = trace_request(f, r);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->hops[0].decided_by, "view \"external\"");
  EXPECT_NE(g->hops[1].details[0].find("public address"), std::string::npos);
  // An internal name from outside: NXDOMAIN stops the trace at hop 1.
  r.request = "GET https://grafana.apps.example.com/";
  auto x = trace_request(f, r);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->hops[0].status, HopStatus::kFailed);
  EXPECT_EQ(x->hops[1].status, HopStatus::kNotReached);
  EXPECT_EQ(x->http_status, 0);
}

// A CNAME into a zone the inside view does not hold (ext.example.com -> www.example.org, added to
// the example's internal zone), with recursion off as the example has it: named answers the
// CNAME alone; the trace fails at hop 1 and says what a stub resolver then does: glibc asks no
// more, one that follows CNAMEs asks again, and the same view ("internal") refuses that query.
TEST(RequestTrace, CnameOutOfTheViewSaysWhatTheStubDoes) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({}, f));
  Zone& internal = f.dns->zones[0][0];
  DnsRecord ext = internal.records.back();
  ext.name = "ext.example.com";
  ext.type = "CNAME";
  ext.data = "www.example.org";
  internal.records.push_back(ext);
  TraceRequest r = api_models_request();
  r.request = "GET https://ext.example.com/";
  auto t = trace_request(f, r);
  ASSERT_TRUE(t.ok());
  const RequestHop& h = t->hops[0];
  EXPECT_EQ(h.status, HopStatus::kFailed);
  EXPECT_EQ(h.summary, "ext.example.com from 10.10.0.5: NOERROR with the CNAME alone (to www.example.org), no address");
  ASSERT_FALSE(h.details.empty());
  EXPECT_NE(h.details.back().find("glibc's getaddrinfo finds no address in this answer and asks no more"), std::string::npos);
  EXPECT_NE(h.details.back().find("asks again for www.example.org, and view \"internal\" answers that second query too"),
            std::string::npos) << h.details.back();
  EXPECT_NE(h.details.back().find(": REFUSED with no address"), std::string::npos) << h.details.back();
}

// The same trace's choices and what each node's death does, by hand from the example: the router
// has two next hops, node-0 (this flow's, hash index 0) and node-1, each with one edge-envoy pod;
// ml/vllm has one endpoint, vllm-0 on node-3; model-weights has 3 replicas among the 4 Longhorn
// candidates node-2..node-5 (node-2, node-3, node-4), engine on node-3; the login oauth2-proxy
// (one replica, placed last: fewest pods, then name) runs on node-0. So five nodes are touched
// (node-5 holds nothing): losing node-1 leaves the other next hop and its Gateway pod (served);
// losing node-0 does too (after the 9 s hold time for this flow) but takes the login's only
// endpoint: every covered request gets Traefik's 500 (not served); node-2 and node-4 leave 2 of 3
// replicas (served); node-3 takes the only endpoint (503: not served), a replica (2 of 3 left)
// and the engine.
TEST(RequestTrace, ChoicesAndWhatEachNodesDeathDoes) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({}, f));
  TraceRequest r = api_models_request();
  auto t = trace_request(f, r);
  ASSERT_TRUE(t.ok());
  const auto& next = t->hops[1].choices.at(0);
  EXPECT_EQ(next.what, "next hop");
  ASSERT_EQ(next.options.size(), 2u);
  EXPECT_EQ(next.options[0].name, "node-0");
  EXPECT_EQ(next.options[0].detail, "192.0.2.11");
  EXPECT_TRUE(next.options[0].taken);
  EXPECT_FALSE(next.options[1].taken);
  const auto& replicas = t->hops[8].choices.at(0);
  EXPECT_EQ(replicas.what, "replica");
  EXPECT_EQ(replicas.of, "model-weights");
  ASSERT_EQ(replicas.options.size(), 4u);
  EXPECT_EQ(replicas.options[3].name, "node-5");
  EXPECT_FALSE(replicas.options[3].taken);
  EXPECT_EQ(t->bgp_hold_s, 9);

  const auto& s = t->survival;
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].node, "node-0");
  EXPECT_EQ(s[0].roles, (std::vector<std::string>{"this flow's next hop", "Gateway pod edge-envoy-0",
                                                  "authentication endpoint oauth2-proxy-0 of auth/oauth2-proxy"}));
  EXPECT_FALSE(s[0].served);
  EXPECT_EQ(s[0].effect, "this flow is cut until the router withdraws the next hop (within the 9 s BGP hold time), then "
                         "hashed over the 1 next hop(s) left; 1 Gateway pod(s) left; no endpoint of the authentication Service "
                         "auth/oauth2-proxy left: every request it covers gets 500 until the pods are rescheduled");
  EXPECT_EQ(s[1].roles[0], "router next hop");
  EXPECT_TRUE(s[1].served);
  EXPECT_TRUE(s[2].served);
  ASSERT_EQ(s[2].replicas.size(), 1u);
  EXPECT_EQ(s[2].replicas[0].left, 2);
  EXPECT_EQ(s[2].replicas[0].of, 3);
  EXPECT_EQ(s[3].node, "node-3");
  EXPECT_EQ(s[3].roles, (std::vector<std::string>{"endpoint vllm-0 of ml/vllm", "replica of model-weights",
                                                  "volume engine of model-weights"}));
  EXPECT_FALSE(s[3].served);
  EXPECT_EQ(s[3].effect.rfind("no endpoint of ml/vllm left: 503", 0), 0u) << s[3].effect;
  EXPECT_EQ(s[4].node, "node-4");
  EXPECT_TRUE(s[4].served);
}

// A request stopped at DNS touches no node: no survival rows.
TEST(RequestTrace, NoSurvivalBeforeTheVip) {
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({}, f));
  TraceRequest r;
  r.request = "GET https://grafana.apps.example.com/";
  r.from = "outside";
  auto t = trace_request(f, r);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->hops[0].status, HopStatus::kFailed);
  EXPECT_TRUE(t->survival.empty());
}

// A StatefulSet's pods mount the claims made from its volumeClaimTemplates: Kubernetes names the
// claim of pod pg-0 from template "data" "data-pg-0" ("<template>-<statefulset>-<ordinal>"). Its
// StorageClass longhorn-3 (the example's, numberOfReplicas 3) gives 3 replicas; the size is the
// template's 20Gi. The claim exists in no manifest: the hop names the template instead.
TEST(RequestTrace, StatefulSetClaimFromTemplate) {
  const std::string extra = testing::TempDir() + "/ct-statefulset.yaml";
  {
    std::ofstream out(extra);
    out << R"(apiVersion: v1
kind: Service
metadata: {name: pg, namespace: ml}
spec: {selector: {app: pg}, ports: [{port: 5432}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec: {containers: [{name: pg, image: postgres}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {storageClassName: longhorn-3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pg, namespace: ml}
spec:
  parentRefs: [{name: edge, namespace: infra, sectionName: https-public}]
  hostnames: [api.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /db}}]
    backendRefs: [{name: pg, port: 5432}]
)";
  }
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({extra}, f));
  ASSERT_EQ(f.manifests.workloads.back().claim_templates.size(), 1u);
  EXPECT_EQ(f.manifests.workloads.back().claim_templates[0].request, "20Gi");
  TraceRequest r;
  r.request = "GET https://api.example.com/db";
  auto t = trace_request(f, r);
  ASSERT_TRUE(t.ok()) << format_diagnostics(t.errors());
  const RequestHop& h8 = t->hops[8];
  EXPECT_EQ(h8.status, HopStatus::kOk) << h8.summary;
  EXPECT_EQ(h8.decided_by, "StatefulSet ml/pg volumeClaimTemplates data");
  EXPECT_NE(h8.where.find("ct-statefulset.yaml:"), std::string::npos) << h8.where;
  EXPECT_EQ(h8.summary.rfind("data-pg-0 (20Gi): engine on node-", 0), 0u) << h8.summary;
  EXPECT_NE(h8.summary.find("3 replica(s)"), std::string::npos) << h8.summary;
}

// The trace blames the object that broke the request (issue 22 item 11), on the example plus three
// broken apps of ml on api.example.com:
//   /gpu    Service gpu selects Deployment gpu, whose nodeSelector gpu: h100 no node of the example
//           carries: hop 7 is a warning (the Service is right, 0 endpoints), hop 8 FAILED decided by
//           Deployment ml/gpu: 1 pod Pending, none of the 6 nodes satisfies the nodeSelector, 503;
//   /idle   Service idle selects Deployment idle at replicas: 0: hop 8 FAILED decided by the
//           Deployment, "replicas: 0", 503;
//   /ghost  the rule's only backendRef names Service ghost, which no manifest defines: hop 5 FAILED,
//           500, its summary naming BackendNotFound and ml/ghost as `route` does.
TEST(RequestTrace, BlamesTheWorkloadOrTheMissingService) {
  const std::string extra = testing::TempDir() + "/ct-broken-apps.yaml";
  {
    std::ofstream out(extra);
    for (const char* app : {"gpu", "idle"}) {
      out << "apiVersion: v1\nkind: Service\nmetadata: {name: " << app << ", namespace: ml}\nspec: {selector: {app: " << app
          << "}, ports: [{port: 80}]}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " << app
          << ", namespace: ml}\nspec:\n  replicas: " << (std::string(app) == "idle" ? 0 : 1) << "\n  selector: {matchLabels: {app: "
          << app << "}}\n  template:\n    metadata: {labels: {app: " << app << "}}\n    spec:\n"
          << (std::string(app) == "gpu" ? "      nodeSelector: {gpu: h100}\n" : "") << "      containers: [{name: " << app
          << ", image: x}]\n---\n";
    }
    out << R"(apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: broken, namespace: ml}
spec:
  parentRefs: [{name: edge, namespace: infra, sectionName: https-public}]
  hostnames: [api.example.com]
  rules:
  - matches: [{path: {value: /gpu}}]
    backendRefs: [{name: gpu, port: 80}]
  - matches: [{path: {value: /idle}}]
    backendRefs: [{name: idle, port: 80}]
  - matches: [{path: {value: /ghost}}]
    backendRefs: [{name: ghost, port: 80}]
)";
  }
  FrontendModel f;
  ASSERT_NO_FATAL_FAILURE(load_platform({extra}, f));
  TraceRequest r = api_models_request();
  r.request = "GET https://api.example.com/gpu";
  auto gpu = trace_request(f, r);
  ASSERT_TRUE(gpu.ok()) << format_diagnostics(gpu.errors());
  EXPECT_EQ(gpu->hops[6].status, HopStatus::kWarning) << gpu->hops[6].summary;
  EXPECT_EQ(gpu->hops[7].status, HopStatus::kFailed);
  EXPECT_EQ(gpu->hops[7].decided_by, "Deployment ml/gpu");
  EXPECT_EQ(gpu->hops[7].summary,
            "1 pod(s) of Deployment ml/gpu Pending: none of the 6 node(s) satisfies nodeSelector {gpu: h100}: 503");
  EXPECT_EQ(gpu->http_status, 503);
  r.request = "GET https://api.example.com/idle";
  auto idle = trace_request(f, r);
  ASSERT_TRUE(idle.ok());
  EXPECT_EQ(idle->hops[7].status, HopStatus::kFailed);
  EXPECT_EQ(idle->hops[7].decided_by, "Deployment ml/idle");
  EXPECT_EQ(idle->hops[7].summary, "Deployment ml/idle has replicas: 0: no pod to serve: 503");
  EXPECT_NE(idle->hops[7].where.find("ct-broken-apps.yaml:"), std::string::npos) << idle->hops[7].where;
  r.request = "GET https://api.example.com/ghost";
  auto ghost = trace_request(f, r);
  ASSERT_TRUE(ghost.ok());
  EXPECT_EQ(ghost->hops[4].status, HopStatus::kFailed);
  EXPECT_EQ(ghost->hops[4].summary, "PathPrefix /ghost -> 500 (ml/ghost port 80: BackendNotFound: no Service ml/ghost)");
  EXPECT_EQ(ghost->hops[5].status, HopStatus::kNotReached);
  EXPECT_EQ(ghost->http_status, 500);
}

// A zone file may hold bytes that are not UTF-8 (BIND's master files are octets); JSON strings may
// not. `trace --json` writes such a byte as U+FFFD (EF BF BD) instead of aborting (the fuzz test's
// zone kind found the abort).
TEST(RequestTrace, JsonReplacesBytesThatAreNotUtf8) {
  RequestTrace t;
  t.client = "10.10.0.5";
  RequestHop h;
  h.number = 1;
  h.name = "DNS";
  h.summary = "api.example.com -> gw\xff";
  t.hops.push_back(h);
  const std::string j = trace_json(t);
  EXPECT_NE(j.find("gw\xef\xbf\xbd"), std::string::npos) << j;
}

// Hop 3 maps a node to the spec's host by "hostN": N is one or more decimal digits and nothing
// else. Every other text maps to no host (the hop's warning), where std::stoll used to read a
// leading number out of "host+3", "host 3" or "host3a", and threw past 2^63 - 1.
TEST(RequestTrace, SpecHostOfReadsHostAndDigitsOnly) {
  EXPECT_EQ(spec_host_of("host0"), 0);
  EXPECT_EQ(spec_host_of("host7"), 7);
  EXPECT_EQ(spec_host_of("host31"), 31);
  EXPECT_EQ(spec_host_of("host007"), 7);
  EXPECT_EQ(spec_host_of("host9223372036854775807"), 9223372036854775807LL);
  for (const char* bad : {"host", "host-1", "host+3", "host 3", " host3", "host3 ", "host3a", "host3/nic0", "Host3", "node-0",
                          "", "host9223372036854775808", "host99999999999999999999"}) {
    EXPECT_EQ(spec_host_of(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace ct
