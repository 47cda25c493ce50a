// Every lint rule fires on a small platform with its trap planted, and stays quiet on a near miss;
// the publishing checklist finds each of its five objects missing in turn.
//
// The fixture, clean by construction (no rule fires on it): three nodes n0..n2 (no Longhorn disk
// labels, so all three hold replicas), Gateway infra/edge with an HTTP listener and one HTTPS
// listener for app.example.com, its Envoy data plane (2 replicas, anti-affinity per host, a
// PodDisruptionBudget) behind LoadBalancer 198.51.100.10 (externalTrafficPolicy Local, public
// address 203.0.113.10), two BGP peers, the ACME issuer le (HTTP-01 through edge) and Certificate
// app-tls for app.example.com, HTTPRoute apps/app -> Service app (targetPort http) -> Deployment
// app (2 replicas, containerPort 8080 named http), Deployment store (1 replica, Recreate) with a
// ReadWriteOnce claim on Longhorn (3 replicas), and DNS views internal (192.0.2.0/24, 10/8:
// app CNAME gw -> the VIP) then external (any: app A 203.0.113.10).
#include "lint/lint.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "frontend/manifest_parser.h"

namespace ct {
namespace {

struct Fixture {
  std::map<std::string, std::string> docs;  // name -> YAML document
  std::string conf, internal, external;
  std::optional<Topology> topology;  // the spec's frontend network (lint --spec), when set

  Fixture() {
    for (int i = 0; i < 3; ++i) {
      const std::string n = "n" + std::to_string(i);
      docs["node-" + n] = "apiVersion: v1\nkind: Node\nmetadata: {name: " + n + ", labels: {kubernetes.io/hostname: " + n +
                          ", ingress: \"true\"}, annotations: {clustertwin.io/host: host" + std::to_string(i) + "}}\nstatus: {addresses: [{type: InternalIP, address: 192.0.2.1" + std::to_string(i) + "}]}\n";
    }
    docs["ns-apps"] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: apps}\n";
    docs["class"] = "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {name: envoy}\nspec: {controllerName: x/y}\n";
    docs["gateway"] =
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: edge, namespace: infra}\nspec:\n"
        "  gatewayClassName: envoy\n  listeners:\n"
        "  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}\n"
        "  - {name: https-app, port: 443, protocol: HTTPS, hostname: app.example.com, tls: {certificateRefs: [{name: app-tls}]}, "
        "allowedRoutes: {namespaces: {from: All}}}\n";
    docs["edge-svc"] =
        "apiVersion: v1\nkind: Service\nmetadata: {name: edge-envoy, namespace: infra, labels: {gateway.networking.k8s.io/gateway-name: edge},"
        " annotations: {clustertwin.io/public-address: 203.0.113.10}}\n"
        "spec: {type: LoadBalancer, loadBalancerIP: 198.51.100.10, externalTrafficPolicy: Local, selector: {app: edge-envoy}, "
        "ports: [{name: https, port: 443}]}\n";
    docs["edge-deploy"] =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: edge-envoy, namespace: infra}\nspec:\n  replicas: 2\n"
        "  selector: {matchLabels: {app: edge-envoy}}\n  template:\n    metadata: {labels: {app: edge-envoy}}\n    spec:\n"
        "      PLACEMENT\n      containers: [{name: envoy, image: envoy}]\n";
    docs["edge-pdb"] = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: edge, namespace: infra}\n"
                       "spec: {maxUnavailable: 1, selector: {matchLabels: {app: edge-envoy}}}\n";
    docs["pool"] = "apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata: {name: vip, namespace: metallb-system}\n"
                   "spec: {addresses: [198.51.100.10/32]}\n";
    docs["adv"] = "apiVersion: metallb.io/v1beta1\nkind: BGPAdvertisement\nmetadata: {name: vip, namespace: metallb-system}\nspec: {}\n";
    docs["peer-a"] = "apiVersion: metallb.io/v1beta2\nkind: BGPPeer\nmetadata: {name: a, namespace: metallb-system}\n"
                     "spec: {myASN: 64513, peerASN: 64512, peerAddress: 192.0.2.1}\n";
    docs["peer-b"] = "apiVersion: metallb.io/v1beta2\nkind: BGPPeer\nmetadata: {name: b, namespace: metallb-system}\n"
                     "spec: {myASN: 64513, peerASN: 64512, peerAddress: 192.0.2.2}\n";
    docs["issuer"] = "apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata: {name: le}\n"
                     "spec: {acme: {server: https://acme.example/dir, solvers: [{http01: {gatewayHTTPRoute: {parentRefs: [{name: edge}]}}}]}}\n";
    docs["cert"] = "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: app-tls, namespace: infra}\n"
                   "spec: {secretName: app-tls, dnsNames: [app.example.com], issuerRef: {name: le, kind: ClusterIssuer}}\n";
    docs["route"] = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: app, namespace: apps}\n"
                    "spec:\n  parentRefs: [{name: edge, namespace: infra, sectionName: https-app}]\n  hostnames: [app.example.com]\n"
                    "  rules:\n  - backendRefs: [{name: app, port: 8080}]\n";
    docs["app-svc"] = "apiVersion: v1\nkind: Service\nmetadata: {name: app, namespace: apps}\n"
                      "spec: {selector: {app: app}, ports: [{port: 8080, targetPort: http}]}\n";
    docs["app-deploy"] = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app, namespace: apps}\nspec:\n  replicas: 2\n"
                         "  selector: {matchLabels: {app: app}}\n  template:\n    metadata: {labels: {app: app}}\n    spec:\n"
                         "      containers: [{name: app, image: app, ports: [{name: http, containerPort: 8080}]}]\n";
    docs["store-deploy"] = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: store, namespace: apps}\nspec:\n  replicas: 1\n"
                           "  strategy: {type: Recreate}\n  selector: {matchLabels: {app: store}}\n  template:\n"
                           "    metadata: {labels: {app: store}}\n    spec:\n      containers: [{name: s, image: s}]\n"
                           "      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]\n";
    docs["claim"] = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: apps}\n"
                    "spec: {storageClassName: longhorn, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";
    docs["sc"] = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: longhorn}\nprovisioner: driver.longhorn.io\n"
                 "parameters: {numberOfReplicas: \"3\"}\n";
    conf = "view \"internal\" {\n  match-clients { 192.0.2.0/24; 10.0.0.0/8; };\n  zone \"example.com\" { type primary; file \"int.db\"; };\n};\n"
           "view \"external\" {\n  match-clients { any; };\n  zone \"example.com\" { type primary; file \"ext.db\"; };\n};\n";
    internal = "$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\ngw IN A 198.51.100.10\napp IN CNAME gw\n";
    external = "$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\napp IN A 203.0.113.10\n";
    set_placement("affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                  "[{labelSelector: {matchLabels: {app: edge-envoy}}, topologyKey: kubernetes.io/hostname}]}}");
  }

  void set_placement(const std::string& line) {
    std::string& d = docs["edge-deploy"];
    const auto at = d.find("PLACEMENT");
    if (at != std::string::npos) d.replace(at, 9, line);
  }
  void replace(const std::string& doc, const std::string& from, const std::string& to) {
    std::string& d = docs.at(doc);
    const auto at = d.find(from);
    ASSERT_NE(at, std::string::npos) << doc << ": " << from;
    d.replace(at, from.size(), to);
  }

  LintReport lint() const {
    std::string text;
    for (const auto& [name, d] : docs) text += "---\n" + d;
    auto m = parse_manifests({{"m.yaml", text}});
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_diagnostics(m.errors()));
    DnsModel dns;
    auto c = parse_named_conf(conf, "named.conf");
    EXPECT_TRUE(c.ok());
    dns.conf = c.value();
    for (const auto& v : dns.conf.views) {
      dns.zones.emplace_back();
      for (const auto& z : v.zones) dns.zones.back().push_back(parse_zone(z.file == "int.db" ? internal : external, z.name, z.file).value());
    }
    const FrontendModel model = build_frontend_model(std::move(m).value(), std::move(dns), topology);
    return run_lint(model);
  }
};

int count(const LintReport& r, const std::string& rule) {
  return static_cast<int>(std::count_if(r.findings.begin(), r.findings.end(), [&](const LintFinding& f) { return f.rule == rule; }));
}

std::string rules_of(const LintReport& r) {
  std::string s;
  for (const auto& f : r.findings) s += f.rule + ": " + f.title + "\n";
  return s;
}

TEST(Lint, FixtureIsClean) {
  const LintReport r = Fixture().lint();
  EXPECT_TRUE(r.findings.empty()) << rules_of(r);
  ASSERT_EQ(r.checklist.size(), 1U);
  EXPECT_TRUE(r.checklist[0].complete());
}


// One trap planted: the rule fires (at least once); the near miss: it does not.
void expect_fires(const Fixture& f, const std::string& rule) {
  const LintReport r = f.lint();
  EXPECT_GE(count(r, rule), 1) << rule << " did not fire; findings:\n" << rules_of(r);
}
void expect_quiet(const Fixture& f, const std::string& rule) {
  const LintReport r = f.lint();
  EXPECT_EQ(count(r, rule), 0) << rule << " fired on a near miss:\n" << rules_of(r);
}

const char* kNewerRoute =
    "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: app2, namespace: apps, creationTimestamp: "
    "\"2030-01-01T00:00:00Z\"}\nspec:\n  parentRefs: [{name: edge, namespace: infra, sectionName: https-app}]\n"
    "  hostnames: [app.example.com]\n  rules:\n  - MATCHbackendRefs: [{name: app, port: 8080}]\n";

TEST(LintRoutes, ShadowedFiresOnTheSameMatchAndNotOnALongerPrefix) {
  // A newer route with the same PathPrefix / loses every request to the older one (its rule is
  // shadowed); with PathPrefix /api it is longer and wins its own requests.
  Fixture f;
  f.docs["route2"] = kNewerRoute;
  f.replace("route2", "MATCH", "");
  expect_fires(f, "route-shadowed");
  Fixture g;
  g.docs["route2"] = kNewerRoute;
  g.replace("route2", "MATCH", "matches: [{path: {type: PathPrefix, value: /api}}]\n    ");
  expect_quiet(g, "route-shadowed");
}

TEST(LintRoutes, HostnameNoListenerAccepts) {
  Fixture f;
  f.docs["route2"] = kNewerRoute;
  f.replace("route2", "MATCH", "");
  f.replace("route2", "hostnames: [app.example.com]", "hostnames: [other.example.com]");
  expect_fires(f, "route-hostname-unaccepted");
  Fixture g;  // the same route on the HTTP listener, which takes any hostname
  g.docs["route2"] = kNewerRoute;
  g.replace("route2", "MATCH", "");
  g.replace("route2", "sectionName: https-app", "sectionName: http");
  g.replace("route2", "hostnames: [app.example.com]", "hostnames: [other.example.com]");
  expect_quiet(g, "route-hostname-unaccepted");
}

TEST(LintCertificates, NameMismatch) {
  Fixture f;
  f.replace("cert", "dnsNames: [app.example.com]", "dnsNames: [www.example.com]");
  expect_fires(f, "cert-name-mismatch");
  Fixture g;
  g.replace("cert", "dnsNames: [app.example.com]", "dnsNames: [www.example.com, app.example.com]");
  expect_quiet(g, "cert-name-mismatch");
}

TEST(LintCertificates, MissingIssuer) {
  Fixture f;  // kind Issuer is looked up in the Certificate's namespace: there is none
  f.replace("cert", "kind: ClusterIssuer", "kind: Issuer");
  expect_fires(f, "cert-missing-issuer");
  Fixture g;  // the same ref with an Issuer le in infra
  g.replace("cert", "kind: ClusterIssuer", "kind: Issuer");
  g.replace("issuer", "kind: ClusterIssuer\nmetadata: {name: le}", "kind: Issuer\nmetadata: {name: le, namespace: infra}");
  expect_quiet(g, "cert-missing-issuer");
}

TEST(LintCertificates, CrossNamespaceSecretNeedsAReferenceGrant) {
  Fixture f;
  f.replace("gateway", "certificateRefs: [{name: app-tls}]", "certificateRefs: [{name: app-tls, namespace: apps}]");
  f.replace("cert", "namespace: infra", "namespace: apps");
  expect_fires(f, "cert-cross-namespace");
  Fixture g = f;
  g.docs["grant"] = "apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata: {name: tls, namespace: apps}\n"
                    "spec: {from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: infra}], to: [{group: \"\", kind: Secret, name: app-tls}]}\n";
  expect_quiet(g, "cert-cross-namespace");
}

TEST(LintCertificates, Http01BehindSplitHorizon) {
  // The inside view sends app.example.com to an old host: cert-manager's self-check, which
  // resolves from a node (192.0.2.10, view internal), never reaches the solver on the Gateway.
  Fixture f;
  f.internal = "$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\ngw IN A 198.51.100.10\napp IN A 192.0.2.30\n";
  expect_fires(f, "acme-http01-split-horizon");
  Fixture g;  // the same certificate from a DNS-01 issuer: no HTTP challenge to reach
  g.internal = f.internal;
  g.replace("issuer", "http01: {gatewayHTTPRoute: {parentRefs: [{name: edge}]}}", "dns01: {webhook: {groupName: x, solverName: y}}");
  expect_quiet(g, "acme-http01-split-horizon");
}

TEST(LintDns, InsideViewAnswersThePublicAddress) {
  Fixture f;
  f.internal = "$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\ngw IN A 198.51.100.10\napp IN A 203.0.113.10\n";
  expect_fires(f, "dns-inside-public-address");
  expect_quiet(Fixture(), "dns-inside-public-address");  // the VIP, through gw
}

TEST(LintDns, FirstViewMatchingEveryClientHidesTheRest) {
  Fixture f;
  f.conf.replace(f.conf.find("192.0.2.0/24; 10.0.0.0/8;"), 24, "any;");
  expect_fires(f, "dns-view-hides-later");
  Fixture g;  // "any" only in the last view
  expect_quiet(g, "dns-view-hides-later");
}

TEST(LintBgp, ExternalTrafficPolicyLocalOnOneNode) {
  Fixture f;
  f.replace("edge-deploy", "replicas: 2", "replicas: 1");
  expect_fires(f, "etp-local-one-node");
  Fixture g;  // the same single pod with Cluster: every node announces
  g.replace("edge-deploy", "replicas: 2", "replicas: 1");
  g.replace("edge-svc", "externalTrafficPolicy: Local", "externalTrafficPolicy: Cluster");
  expect_quiet(g, "etp-local-one-node");
}

TEST(LintBgp, SinglePeer) {
  Fixture f;
  f.docs.erase("peer-b");
  expect_fires(f, "bgp-single-peer");
  expect_quiet(Fixture(), "bgp-single-peer");
}

TEST(LintStorage, MoreReplicasThanNodes) {
  // 4 replicas on distinct nodes, 3 nodes: never healthy. 3 on 3: healthy.
  Fixture f;
  f.replace("sc", "numberOfReplicas: \"3\"", "numberOfReplicas: \"4\"");
  expect_fires(f, "longhorn-replicas-exceed-nodes");
  Fixture cordoned;  // a cordoned node holds no replica: 3 on 2
  cordoned.replace("node-n2", "status:", "spec: {unschedulable: true}\nstatus:");
  expect_fires(cordoned, "longhorn-replicas-exceed-nodes");
  expect_quiet(Fixture(), "longhorn-replicas-exceed-nodes");
}

// The real disk model: n2's only disk is 10Gi and the claim 10Gi: 10 - 10 = 0 is not above 25% of
// 10Gi (storage-minimal-available-percentage), so only n0 and n1 can hold a replica of the 3 wanted.
// The near miss: a 100Gi disk (100 - 10 = 90 > 25).
TEST(LintStorage, MoreReplicasThanNodesWithDiskSpace) {
  const auto disk = [](const std::string& size) {
    return "apiVersion: longhorn.io/v1beta2\nkind: Node\nmetadata: {name: n2, namespace: longhorn-system}\n"
           "spec: {disks: {d: {path: /mnt/d}}}\nstatus: {diskStatus: {d: {storageMaximum: " + size + "}}}\n";
  };
  Fixture small;
  small.replace("claim", "storage: 1Gi", "storage: 10Gi");
  small.docs["lh-node-n2"] = disk("10Gi");
  expect_fires(small, "longhorn-replicas-exceed-nodes");
  const LintReport r = small.lint();
  EXPECT_NE(rules_of(r).find("only 2 node(s) can hold one (n0, n1)"), std::string::npos) << rules_of(r);
  Fixture roomy;
  roomy.replace("claim", "storage: 1Gi", "storage: 10Gi");
  roomy.docs["lh-node-n2"] = disk("100Gi");
  expect_quiet(roomy, "longhorn-replicas-exceed-nodes");
}

// Zones: n0..n2 all in zone a: the three replicas share it. The near miss: n2 in zone b (Longhorn
// puts a replica there first), and nodes without a zone label (the zone is unknown, not one).
TEST(LintStorage, ReplicasAllInOneZone) {
  Fixture one;
  for (const char* n : {"node-n0", "node-n1", "node-n2"}) one.replace(n, "ingress: \"true\"", "ingress: \"true\", topology.kubernetes.io/zone: a");
  expect_fires(one, "longhorn-replicas-one-zone");
  Fixture two = one;
  two.replace("node-n2", "zone: a", "zone: b");
  expect_quiet(two, "longhorn-replicas-one-zone");
  expect_quiet(Fixture(), "longhorn-replicas-one-zone");
}

// A frontend of hosts host0..host2, one port each, on the leaves `leaf_of` (fe/leaf/i), every leaf
// cabled to each of `spines` spines.
Topology frontend(const std::vector<int>& leaf_of, int spines) {
  Topology t;
  t.host_count = static_cast<long long>(leaf_of.size());
  t.frontend_ports_per_host = 1;
  t.frontend_begin = 0;
  for (std::size_t h = 0; h < leaf_of.size(); ++h) t.add_vertex(VertexKind::kPort, Network::kFrontend, 0, 0, static_cast<std::uint32_t>(h), 0, 1);
  const int leaves = *std::max_element(leaf_of.begin(), leaf_of.end()) + 1;
  const auto first_leaf = static_cast<std::uint32_t>(t.vertex_count());
  for (int l = 0; l < leaves; ++l) t.add_vertex(VertexKind::kSwitch, Network::kFrontend, 0, 1, 0, static_cast<std::uint32_t>(l), 32);
  const auto first_spine = static_cast<std::uint32_t>(t.vertex_count());
  for (int s = 0; s < spines; ++s) t.add_vertex(VertexKind::kSwitch, Network::kFrontend, 0, 2, 0, static_cast<std::uint32_t>(s), 32);
  const BitsPerSecond cap(100'000'000'000LL);
  for (std::size_t h = 0; h < leaf_of.size(); ++h) t.add_link(VertexId(static_cast<std::uint32_t>(h)), VertexId(first_leaf + leaf_of[h]), cap, TimePs(0), -1);
  for (int l = 0; l < leaves; ++l) {
    for (int s = 0; s < spines; ++s) t.add_link(VertexId(first_leaf + l), VertexId(first_spine + s), cap, TimePs(0), -1);
  }
  t.finalize();
  return t;
}

// Every node on fe/leaf/0 under one spine: both switches carry every node. Two leaves under one
// spine: only the spine. The near miss: two leaves, two spines. Without --spec the rule says nothing.
TEST(LintNetwork, OneFrontendSwitchCarriesEveryNode) {
  Fixture one;
  one.topology = frontend({0, 0, 0}, 1);
  const LintReport r = one.lint();
  EXPECT_EQ(count(r, "frontend-one-switch"), 2) << rules_of(r);
  EXPECT_NE(rules_of(r).find("frontend switch fe/leaf/0 carries every node's frontend ports (3 node(s))"), std::string::npos) << rules_of(r);
  Fixture spine;
  spine.topology = frontend({0, 0, 1}, 1);
  const LintReport q = spine.lint();
  EXPECT_EQ(count(q, "frontend-one-switch"), 1) << rules_of(q);
  EXPECT_NE(rules_of(q).find("fe/spine/0 is the only spine"), std::string::npos) << rules_of(q);
  Fixture redundant;
  redundant.topology = frontend({0, 0, 1}, 2);
  expect_quiet(redundant, "frontend-one-switch");
  expect_quiet(Fixture(), "frontend-one-switch");
}

TEST(LintStorage, ReadWriteOnceUnderRollingUpdateOrReplicas) {
  Fixture rolling;
  rolling.replace("store-deploy", "  strategy: {type: Recreate}\n", "");
  expect_fires(rolling, "rwo-multi-attach");
  Fixture two;
  two.replace("store-deploy", "replicas: 1", "replicas: 2");
  expect_fires(two, "rwo-multi-attach");
  Fixture many;  // ReadWriteMany under RollingUpdate: fine
  many.replace("store-deploy", "  strategy: {type: Recreate}\n", "");
  many.replace("claim", "ReadWriteOnce", "ReadWriteMany");
  expect_quiet(many, "rwo-multi-attach");
}

TEST(LintStorage, OneReplicaVolume) {
  Fixture f;
  f.replace("sc", "numberOfReplicas: \"3\"", "numberOfReplicas: \"1\"");
  expect_fires(f, "volume-one-replica");
  Fixture g;
  g.replace("sc", "numberOfReplicas: \"3\"", "numberOfReplicas: \"2\"");
  expect_quiet(g, "volume-one-replica");
}

TEST(LintWorkloads, EveryGatewayReplicaOnOneNode) {
  Fixture f;
  f.docs["edge-deploy"] = Fixture().docs["edge-deploy"];
  f.replace("edge-deploy", "affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                           "[{labelSelector: {matchLabels: {app: edge-envoy}}, topologyKey: kubernetes.io/hostname}]}}",
            "nodeSelector: {kubernetes.io/hostname: n0}");
  expect_fires(f, "gateway-one-node");
  expect_quiet(Fixture(), "gateway-one-node");
}

TEST(LintWorkloads, NoDisruptionBudgetForTheDoor) {
  Fixture f;
  f.docs.erase("edge-pdb");
  expect_fires(f, "door-no-pdb");
  Fixture other;  // a budget for other pods does not count
  other.replace("edge-pdb", "matchLabels: {app: edge-envoy}", "matchLabels: {app: app}");
  expect_fires(other, "door-no-pdb");
  expect_quiet(Fixture(), "door-no-pdb");
}

// The app's route behind a Traefik forwardAuth step that asks Service apps/login (4180), served
// by Deployment login with `replicas` pods spread by required anti-affinity; `sign_in`, when given,
// is where an unauthenticated request is sent (the clustertwin.io/sign-in-url annotation).
Fixture behind_login(int replicas, const std::string& sign_in = "") {
  Fixture f;
  const std::string annotations = sign_in.empty() ? "" : ", annotations: {clustertwin.io/sign-in-url: \"" + sign_in + "\"}";
  f.docs["login-mw"] = "apiVersion: traefik.io/v1alpha1\nkind: Middleware\nmetadata: {name: fa, namespace: apps" + annotations +
                       "}\nspec: {forwardAuth: {address: \"http://login.apps.svc:4180/auth\"}}\n";
  f.docs["login-svc"] = "apiVersion: v1\nkind: Service\nmetadata: {name: login, namespace: apps}\n"
                        "spec: {selector: {app: login}, ports: [{port: 4180}]}\n";
  f.docs["login-deploy"] =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: login, namespace: apps}\nspec:\n  replicas: " + std::to_string(replicas) +
      "\n  selector: {matchLabels: {app: login}}\n  template:\n    metadata: {labels: {app: login}}\n    spec:\n"
      "      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
      "[{labelSelector: {matchLabels: {app: login}}, topologyKey: kubernetes.io/hostname}]}}\n"
      "      containers: [{name: login, image: login, ports: [{containerPort: 4180}]}]\n";
  f.replace("route", "  - backendRefs:",
            "  - filters: [{type: ExtensionRef, extensionRef: {group: traefik.io, kind: Middleware, name: fa}}]\n    backendRefs:");
  return f;
}

TEST(LintAuth, TheLoginOnOneNode) {
  expect_fires(behind_login(1), "login-one-node");
  const LintReport r = behind_login(1).lint();
  ASSERT_EQ(count(r, "login-one-node"), 1) << rules_of(r);
  for (const LintFinding& f : r.findings) {
    if (f.rule == "login-one-node") {
      EXPECT_NE(f.title.find("apps/login (1 pod(s))"), std::string::npos) << f.title;
    }
  }
  expect_quiet(behind_login(2), "login-one-node");  // two pods on two nodes
  expect_quiet(Fixture(), "login-one-node");        // no login at all
}

TEST(LintAuth, TheLoginWithoutADisruptionBudget) {
  expect_fires(behind_login(2), "login-no-pdb");  // two pods on two nodes, nothing stops a drain
  Fixture budget = behind_login(2);
  budget.docs["login-pdb"] = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: login, namespace: apps}\n"
                             "spec: {maxUnavailable: 1, selector: {matchLabels: {app: login}}}\n";
  expect_quiet(budget, "login-no-pdb");
  Fixture elsewhere = behind_login(2);  // a budget in another namespace does not count
  elsewhere.docs["login-pdb"] = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: login, namespace: infra}\n"
                                "spec: {maxUnavailable: 1, selector: {matchLabels: {app: login}}}\n";
  expect_fires(elsewhere, "login-no-pdb");
  expect_quiet(behind_login(1), "login-no-pdb");  // one node: login-one-node says it
  expect_quiet(Fixture(), "login-no-pdb");
}

TEST(LintAuth, ASignInPageBehindItsOwnLogin) {
  expect_fires(behind_login(2, "https://app.example.com/oauth2/start"), "login-redirect-loop");
  expect_quiet(behind_login(2), "login-redirect-loop");  // no redirect: the login answers 401 itself
}

TEST(LintWorkloads, ServiceSelectsNothing) {
  Fixture f;
  f.replace("app-svc", "selector: {app: app}", "selector: {app: ap}");
  expect_fires(f, "service-selects-nothing");
  Fixture g;  // a Service without a selector (endpoints managed by hand) is not a trap
  g.docs["manual"] = "apiVersion: v1\nkind: Service\nmetadata: {name: manual, namespace: apps}\nspec: {ports: [{port: 80}]}\n";
  expect_quiet(g, "service-selects-nothing");
}

TEST(LintWorkloads, TargetPortNoContainerExposes) {
  Fixture named;
  named.replace("app-svc", "targetPort: http", "targetPort: web");
  expect_fires(named, "service-target-port");
  Fixture number;  // 9090, and the container declares only 8080
  number.replace("app-svc", "targetPort: http", "targetPort: 9090");
  expect_fires(number, "service-target-port");
  Fixture undeclared;  // a number with no declared ports: anything may listen there
  undeclared.replace("app-svc", "targetPort: http", "targetPort: 9090");
  undeclared.replace("app-deploy", ", ports: [{name: http, containerPort: 8080}]", "");
  expect_quiet(undeclared, "service-target-port");
  expect_quiet(Fixture(), "service-target-port");
}

// The checklist with each of its five objects removed in turn: that step is missing (the app is
// still listed: its certificate names it when the route is gone), with a line to add.
const ChecklistStep& step(const LintReport& r, const std::string& name) {
  EXPECT_EQ(r.checklist.size(), 1U);
  const auto& steps = r.checklist.at(0).steps;
  return *std::find_if(steps.begin(), steps.end(), [&](const ChecklistStep& s) { return s.step == name; });
}

TEST(LintChecklist, EachOfTheFiveRemovedInTurn) {
  {
    Fixture f;
    f.docs.erase("app-deploy");
    const LintReport r = f.lint();
    EXPECT_EQ(step(r, "workload").status, ChecklistStatus::kMissing);
    EXPECT_NE(step(r, "workload").add.find("{app: app}"), std::string::npos) << step(r, "workload").add;
    EXPECT_EQ(count(r, "checklist-workload"), 1);
  }
  {
    Fixture f;
    f.docs.erase("app-svc");
    const LintReport r = f.lint();
    EXPECT_EQ(step(r, "service").status, ChecklistStatus::kMissing);
    EXPECT_NE(step(r, "service").add.find("Service app in apps"), std::string::npos) << step(r, "service").add;
    EXPECT_EQ(count(r, "checklist-service"), 1);
  }
  {
    Fixture f;
    f.docs.erase("route");
    const LintReport r = f.lint();
    EXPECT_EQ(step(r, "route").status, ChecklistStatus::kMissing);
    EXPECT_NE(step(r, "route").add.find("sectionName: https-app"), std::string::npos) << step(r, "route").add;
    EXPECT_NE(step(r, "route").add.find("{name: app, port: 8080}"), std::string::npos) << step(r, "route").add;
    EXPECT_EQ(count(r, "checklist-route"), 1);
  }
  {
    Fixture f;  // the route names the host, so the app is still listed
    f.docs.erase("cert");
    const LintReport r = f.lint();
    EXPECT_EQ(step(r, "certificate").status, ChecklistStatus::kMissing);
    EXPECT_NE(step(r, "certificate").add.find("dnsNames: [app.example.com]"), std::string::npos) << step(r, "certificate").add;
    EXPECT_EQ(count(r, "checklist-certificate"), 1);
  }
  {
    Fixture f;
    f.external = "$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\nwww IN A 203.0.113.10\n";
    const LintReport r = f.lint();
    EXPECT_EQ(step(r, "dns").status, ChecklistStatus::kMissing);
    EXPECT_NE(step(r, "dns").detail.find("\"external\""), std::string::npos) << step(r, "dns").detail;
    EXPECT_EQ(count(r, "checklist-dns"), 1);
  }
}

TEST(LintRanking, ExpectedHoursThenSeverityThenRule) {
  // 1 x 2 h (high) before 0.3 x 4 h = 1.2 h (medium) before 0.5 x 1 h (low).
  std::vector<LintFinding> fs(3);
  fs[0] = {"door-no-pdb", LintSeverity::kLow, "", {}, "", "", 0.5, 1};
  fs[1] = {"bgp-single-peer", LintSeverity::kMedium, "", {}, "", "", 0.3, 4};
  fs[2] = {"gateway-one-node", LintSeverity::kHigh, "", {}, "", "", 1, 2};
  rank_findings(fs);
  EXPECT_EQ(fs[0].rule, "gateway-one-node");
  EXPECT_EQ(fs[1].rule, "bgp-single-peer");
  EXPECT_EQ(fs[2].rule, "door-no-pdb");
}

TEST(LintRules, EveryRuleHasAUniqueIdAndItsAssumptions) {
  std::set<std::string> ids;
  for (const LintRule& r : lint_rules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_GT(r.likelihood, 0);
    EXPECT_LE(r.likelihood, 1);
    EXPECT_GT(r.hours, 0);
    EXPECT_NE(std::string(r.basis), "");
  }
}

}  // namespace
}  // namespace ct
