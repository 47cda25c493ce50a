#include "platform_generator.h"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "frontend/manifest_parser.h"

namespace ct::bench {

namespace {

std::string nodes_yaml(const PlatformSize& s) {
  std::string out;
  for (int i = 0; i < s.nodes; ++i) {
    out += fmt::format("---\napiVersion: v1\nkind: Node\nmetadata: {{name: node-{0}, labels: {{kubernetes.io/hostname: node-{0}{1}, "
                       "node.longhorn.io/create-default-disk: \"true\"}}}}\nstatus: {{addresses: [{{type: InternalIP, address: 10.20.{2}.{3}}}]}}\n",
                       i, i < 4 ? ", ingress: \"true\"" : "", i / 250, 1 + i % 250);
  }
  return out;
}

std::string door_yaml() {
  return R"(---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: envoy}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: envoy
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
  - {name: https, port: 443, protocol: HTTPS, hostname: "*.example.com", tls: {certificateRefs: [{name: wild-tls}]}, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: v1
kind: Service
metadata: {name: edge-envoy, namespace: infra, labels: {gateway.networking.k8s.io/gateway-name: edge}, annotations: {clustertwin.io/public-address: 203.0.113.10}}
spec: {type: LoadBalancer, loadBalancerIP: 198.51.100.10, externalTrafficPolicy: Local, selector: {app: edge-envoy}, ports: [{name: https, port: 443}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: edge-envoy, namespace: infra}
spec:
  replicas: 4
  selector: {matchLabels: {app: edge-envoy}}
  template:
    metadata: {labels: {app: edge-envoy}}
    spec:
      nodeSelector: {ingress: "true"}
      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: edge-envoy}}, topologyKey: kubernetes.io/hostname}]}}
      containers: [{name: envoy, image: envoy}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: edge-envoy, namespace: infra}
spec: {maxUnavailable: 1, selector: {matchLabels: {app: edge-envoy}}}
---
apiVersion: metallb.io/v1beta1
kind: IPAddressPool
metadata: {name: vip, namespace: metallb-system}
spec: {addresses: [198.51.100.10/32]}
---
apiVersion: metallb.io/v1beta1
kind: BGPAdvertisement
metadata: {name: vip, namespace: metallb-system}
spec: {ipAddressPools: [vip], nodeSelectors: [{matchLabels: {ingress: "true"}}]}
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: {name: router-a, namespace: metallb-system}
spec: {myASN: 64513, peerASN: 64512, peerAddress: 10.20.255.1}
---
apiVersion: metallb.io/v1beta2
kind: BGPPeer
metadata: {name: router-b, namespace: metallb-system}
spec: {myASN: 64513, peerASN: 64512, peerAddress: 10.20.255.2}
---
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: {name: selfsigned}
spec: {selfSigned: {}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: root-ca, namespace: cert-manager}
spec: {isCA: true, commonName: root, secretName: root-ca, issuerRef: {name: selfsigned, kind: ClusterIssuer}}
---
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: {name: internal-ca}
spec: {ca: {secretName: root-ca}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: wild-tls, namespace: infra}
spec: {secretName: wild-tls, dnsNames: ["*.example.com"], issuerRef: {name: internal-ca, kind: ClusterIssuer}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: longhorn, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: driver.longhorn.io
parameters: {numberOfReplicas: "3"}
)";
}

std::string apps_yaml(const PlatformSize& s) {
  std::string out;
  const int stateless = s.routes - s.volumes;
  const int left = s.pods - s.volumes;  // the stateless apps' share
  for (int i = 0; i < s.routes; ++i) {
    const bool stateful = i < s.volumes;
    const int k = i - s.volumes;
    const int replicas = stateful ? 1 : left / stateless + (k < left % stateless ? 1 : 0);
    out += fmt::format(
        "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {{name: app-{0}, namespace: apps}}\n"
        "spec: {{parentRefs: [{{name: edge, namespace: infra, sectionName: https}}], hostnames: [app-{0}.example.com], "
        "rules: [{{backendRefs: [{{name: app-{0}, port: 8080}}]}}]}}\n"
        "---\napiVersion: v1\nkind: Service\nmetadata: {{name: app-{0}, namespace: apps}}\n"
        "spec: {{selector: {{app: app-{0}}}, ports: [{{port: 8080, targetPort: http}}]}}\n"
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: app-{0}, namespace: apps}}\n"
        "spec:\n  replicas: {1}\n{2}  selector: {{matchLabels: {{app: app-{0}}}}}\n  template:\n    metadata: {{labels: {{app: app-{0}}}}}\n"
        "    spec:\n      topologySpreadConstraints: [{{maxSkew: 1, topologyKey: kubernetes.io/hostname}}]\n"
        "      containers: [{{name: app, image: app, ports: [{{name: http, containerPort: 8080}}]}}]\n{3}",
        i, replicas, stateful ? "  strategy: {type: Recreate}\n" : "",
        stateful ? fmt::format("      volumes: [{{name: data, persistentVolumeClaim: {{claimName: data-{}}}}}]\n", i) : "");
    if (stateful) {
      out += fmt::format("---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data-{}, namespace: apps}}\n"
                         "spec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 10Gi}}}}}}\n",
                         i);
    }
  }
  return out;
}

}  // namespace

GeneratedPlatform generate_platform(const PlatformSize& s) {
  GeneratedPlatform p;
  p.manifests.push_back({"gen/00-nodes.yaml", nodes_yaml(s)});
  p.manifests.push_back({"gen/10-door.yaml", door_yaml()});
  p.manifests.push_back({"gen/50-apps.yaml", apps_yaml(s)});
  for (int v = 0; v < s.views; ++v) {
    const bool last = v + 1 == s.views;
    const std::string name = last ? "external" : fmt::format("inside-{}", v);
    p.named_conf += fmt::format("view \"{}\" {{\n  match-clients {{ {}; }};\n  zone \"example.com\" {{ type primary; file \"{}.db\"; }};\n}};\n",
                                name, last ? std::string("any") : fmt::format("10.{}.0.0/16", 10 + 10 * v), name);
    std::string zone = "$TTL 300\n@ IN SOA ns1 hostmaster 1 3600 600 604800 300\n  IN NS ns1\nns1 IN A 10.20.255.53\n";
    zone += last ? "" : "gw IN A 198.51.100.10\n";
    for (int i = 0; i < s.routes; ++i) zone += last ? fmt::format("app-{} IN A 203.0.113.10\n", i) : fmt::format("app-{} IN CNAME gw\n", i);
    p.zones[name + ".db"] = std::move(zone);
  }
  return p;
}

FrontendModel parse_generated_platform(const GeneratedPlatform& p) {
  auto m = parse_manifests(p.manifests);
  auto conf = parse_named_conf(p.named_conf, "gen/named.conf");
  if (!m || !conf) {
    std::fprintf(stderr, "generated platform does not parse: %s\n", format_diagnostics(m ? conf.errors() : m.errors()).c_str());
    std::abort();
  }
  DnsModel dns;
  dns.conf = std::move(conf).value();
  for (const auto& v : dns.conf.views) {
    dns.zones.emplace_back();
    for (const auto& z : v.zones) {
      auto zone = parse_zone(p.zones.at(z.file), z.name, "gen/" + z.file);
      if (!zone) std::abort();
      dns.zones.back().push_back(std::move(zone).value());
    }
  }
  return build_frontend_model(std::move(m).value(), std::move(dns), std::nullopt);
}

}  // namespace ct::bench
