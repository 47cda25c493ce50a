// The Kubernetes objects the frontend model reads, as their manifests say (no cluster state beyond
// what the files give): core (Namespace, Node, Service, Secret, workloads, PVC, StorageClass),
// Gateway API v1 (GatewayClass, Gateway, HTTPRoute; ReferenceGrant v1beta1), cert-manager v1
// (Issuer, ClusterIssuer, Certificate) and MetalLB (IPAddressPool, BGPAdvertisement, BGPPeer,
// L2Advertisement), and the authentication step in front of a route (frontend/auth_manifests.h):
// Envoy Gateway SecurityPolicy, Traefik Middleware forwardAuth, ingress-nginx auth-url on a
// networking.k8s.io/v1 Ingress. Every object keeps the file:line of its document, and the fields the model
// decides on keep theirs. Field defaults are the API's (e.g. a Listener's allowedRoutes is Same).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <cstdint>

#include "core/diagnostic.h"
#include "core/result.h"
#include "frontend/route_regex.h"

namespace ct {

using Labels = std::map<std::string, std::string>;

struct ObjectMeta {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string ns;  // empty for cluster-scoped kinds
  Labels labels;
  Labels annotations;
  std::string creation_timestamp;  // RFC 3339 as written; empty = unknown (sorts last)
  SourceLocation where;            // the document's first line
};

// "Kind ns/name" (or "Kind name" when cluster-scoped).
std::string object_label(const ObjectMeta& m);
// "file:line".
std::string where_text(const SourceLocation& where);

// A label selector's matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist).
struct LabelRequirement {
  std::string key;
  std::string op;  // In | NotIn | Exists | DoesNotExist
  std::vector<std::string> values;
};
struct LabelSelector {
  bool present = false;
  Labels match_labels;
  std::vector<LabelRequirement> expressions;
  // An empty (present) selector matches everything.
  [[nodiscard]] bool matches(const Labels& labels) const;
};

struct Namespace {
  ObjectMeta meta;
};

// Resource amounts in the API's base units (a Quantity's value): cpu in cores, memory and
// ephemeral-storage in bytes, pods and extended resources as counts.
using ResourceAmounts = std::map<std::string, double>;

// A node taint (spec.taints[]); effect NoSchedule | PreferNoSchedule | NoExecute.
struct Taint {
  std::string key;
  std::string value;
  std::string effect;
};

// A pod toleration (spec.tolerations[]): operator Equal (key and value) or Exists (any value; an
// empty key with Exists tolerates every taint); an empty effect matches every effect.
// `seconds` is tolerationSeconds (NoExecute only): how long the pod stays bound after the taint
// appears; -1 when absent (forever).
struct Toleration {
  std::string key;
  std::string op = "Equal";
  std::string value;
  std::string effect;
  long long seconds = -1;
  SourceLocation where;
  [[nodiscard]] bool tolerates(const Taint& t) const;
};

struct Node {
  ObjectMeta meta;
  std::string internal_ip;
  bool unschedulable = false;
  std::string host;  // cluster-spec host (annotation clustertwin.io/host), empty = by name
  ResourceAmounts allocatable;  // status.allocatable; a resource it does not list is not limited
  ResourceAmounts capacity;     // status.capacity (ephemeral-storage sizes Longhorn's default disk)
  std::vector<Taint> taints;    // spec.taints
  // status.conditions[type=Ready].status: "True" (or absent), "False" or "Unknown".
  std::string ready = "True";
};

struct ServicePort {
  std::string name;
  int port = 0;
  std::string target_port;
  std::string protocol = "TCP";
};

struct Service {
  ObjectMeta meta;
  std::string type = "ClusterIP";
  Labels selector;
  std::vector<ServicePort> ports;
  std::string external_traffic_policy = "Cluster";
  std::string load_balancer_ip;  // spec.loadBalancerIP or metallb.universe.tf/loadBalancerIPs
  std::string address_pool;      // metallb.universe.tf/address-pool
  SourceLocation where_policy;
};

struct Secret {
  ObjectMeta meta;
  std::string type;
};

struct TopologySpread {
  int max_skew = 1;
  std::string topology_key;
  std::string when_unsatisfiable = "DoNotSchedule";
  LabelSelector selector;  // the pods counted; absent = none (the API's nil selector)
};

// A preferred nodeAffinity term: its weight (1..100) and its matchExpressions.
struct PreferredNodeTerm {
  int weight = 1;
  std::vector<LabelRequirement> expressions;
};

// A podAffinity or podAntiAffinity term, required or preferred (weight 1..100): the pods its
// selector matches, in `namespaces` (empty = the pod's own), on nodes with the same value of
// `topology_key` as the candidate node.
struct PodAffinityTerm {
  bool anti = false;
  bool required = true;
  int weight = 0;
  LabelSelector selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
};

struct PersistentVolumeClaim {
  ObjectMeta meta;
  std::string storage_class;  // empty = the default StorageClass
  std::string request;        // e.g. 60Gi
  std::vector<std::string> access_modes;
};

// A port a container declares (containerPort, and its name when named).
struct ContainerPort {
  int number = 0;
  std::string name;
};

struct KubeWorkload {  // Deployment, StatefulSet, DaemonSet
  ObjectMeta meta;
  int replicas = 1;  // ignored for DaemonSet
  // Deployment spec.strategy.type (RollingUpdate, the API's default, or Recreate); StatefulSet
  // and DaemonSet spec.updateStrategy.type (RollingUpdate or OnDelete).
  std::string strategy = "RollingUpdate";
  SourceLocation where_strategy;  // the strategy's type, else the spec
  std::vector<ContainerPort> container_ports;  // of every container of the pod template
  LabelSelector selector;
  Labels pod_labels;
  Labels node_selector;
  std::vector<LabelRequirement> required_node_affinity;  // one nodeSelectorTerm, ANDed
  bool anti_affinity_per_host = false;  // required podAntiAffinity on kubernetes.io/hostname
  std::vector<PreferredNodeTerm> preferred_node_affinity;
  std::vector<PodAffinityTerm> pod_affinity;  // podAffinity and podAntiAffinity, required and preferred
  std::vector<TopologySpread> spread;
  std::vector<Toleration> tolerations;
  // Image pull and start-up of a new pod, seconds (annotation clustertwin.io/startup-seconds, an
  // integer in [0, 86400]); -1 = the node lifecycle model's default (survival/node_lifecycle.h).
  double startup_s = -1;
  ResourceAmounts requests;  // one pod's: the containers' requests summed, at least each initContainer's
  std::vector<std::string> claims;       // PVC names mounted by the pods
  // StatefulSet volumeClaimTemplates: pod NAME-i mounts the claim TEMPLATE-NAME-i made from each.
  std::vector<PersistentVolumeClaim> claim_templates;
  SourceLocation where_replicas;
  SourceLocation where_placement;
};

struct GatewayClass {
  ObjectMeta meta;
  std::string controller;
};

struct ObjectRef {  // a reference as written: group, kind, namespace (empty = the referrer's), name
  std::string group;
  std::string kind;
  std::string ns;
  std::string name;
  SourceLocation where;
};

struct Listener {
  std::string name;
  std::string hostname;  // empty = any
  int port = 0;
  std::string protocol;  // HTTP | HTTPS | TLS | TCP | UDP
  std::string tls_mode = "Terminate";
  std::vector<ObjectRef> certificate_refs;
  std::string allowed_from = "Same";  // All | Same | Selector
  LabelSelector allowed_selector;
  std::vector<std::string> allowed_kinds;  // empty = the protocol's default (HTTPRoute for HTTP/S)
  SourceLocation where;
};

struct Gateway {
  ObjectMeta meta;
  std::string class_name;
  std::vector<Listener> listeners;
  std::vector<std::string> addresses;  // spec.addresses[].value
};

struct PathMatch {
  enum class Type { kExact, kPathPrefix, kRegularExpression };
  Type type = Type::kPathPrefix;
  std::string value = "/";
  std::shared_ptr<const RouteRegex> regex;  // kRegularExpression (may not have compiled: ok())
};

struct NameValue {
  std::string name;
  std::string value;
  std::string type = "Exact";               // Exact | RegularExpression
  std::shared_ptr<const RouteRegex> regex;  // RegularExpression
};

struct RouteMatch {
  PathMatch path;
  std::string method;  // empty = any
  std::vector<NameValue> headers;
  std::vector<NameValue> query;
  SourceLocation where;
};

struct BackendRef {
  ObjectRef ref;  // kind defaults to Service
  int port = 0;
  int weight = 1;
};

// HTTPPathModifier: how a URLRewrite or RequestRedirect filter changes the path.
struct PathModifier {
  enum class Type { kNone, kReplaceFullPath, kReplacePrefixMatch };
  Type type = Type::kNone;
  std::string value;
};

// HTTPHeaderFilter (RequestHeaderModifier, ResponseHeaderModifier).
struct HeaderModifier {
  std::vector<std::pair<std::string, std::string>> set, add;
  std::vector<std::string> remove;
};

// One HTTPRouteFilter of a rule, as written (the fields of its type; the others stay empty).
struct RouteFilter {
  enum class Type { kRequestHeaderModifier, kResponseHeaderModifier, kRequestRedirect, kUrlRewrite, kRequestMirror, kExtensionRef };
  Type type = Type::kExtensionRef;
  std::string type_name;  // as written: RequestRedirect, URLRewrite, ...
  SourceLocation where;
  // RequestRedirect: scheme, hostname, port, statusCode, path; URLRewrite: hostname, path.
  std::string scheme;
  std::string hostname;
  int port = 0;  // 0 = derived (the scheme's well-known port, else the listener's)
  int status_code = 302;
  PathModifier path;
  HeaderModifier headers;  // Request/ResponseHeaderModifier
  BackendRef mirror;       // RequestMirror.backendRef
  std::string extension;   // ExtensionRef: "Kind name"
  ObjectRef extension_ref;  // ExtensionRef: group, kind, name (always in the route's namespace)
};

struct RouteRule {
  std::string name;
  std::vector<RouteMatch> matches;  // empty in the file = one PathPrefix "/" match
  std::vector<BackendRef> backends;
  std::vector<RouteFilter> filters;  // in list order
  SourceLocation where;
};

struct ParentRef {
  ObjectRef ref;  // kind Gateway
  std::string section;
  int port = 0;
};

struct HttpRoute {
  ObjectMeta meta;
  std::vector<ParentRef> parents;
  std::vector<std::string> hostnames;
  std::vector<RouteRule> rules;
};

struct ReferenceGrant {
  ObjectMeta meta;
  struct From {
    std::string group, kind, ns;
  };
  struct To {
    std::string group, kind, name;
  };
  std::vector<From> from;
  std::vector<To> to;
};

struct Issuer {  // Issuer or ClusterIssuer
  ObjectMeta meta;
  enum class Type { kSelfSigned, kCa, kAcme, kUnknown };
  Type type = Type::kUnknown;
  std::string ca_secret;  // kCa
  std::string acme_server;
  bool http01 = false;
  bool dns01 = false;
  std::string http01_gateway;  // solvers[].http01.gatewayHTTPRoute.parentRefs[0].name
};

struct Certificate {
  ObjectMeta meta;
  std::string secret_name;
  std::vector<std::string> dns_names;
  std::string common_name;
  bool is_ca = false;
  ObjectRef issuer;  // kind Issuer (default) or ClusterIssuer
  // Renewal (what `kubectl get certificate -o yaml` carries): spec.duration and spec.renewBefore
  // (Go durations, in seconds; absent: cert-manager's defaults, survival/cert_renewal.h) and the
  // dates of the certificate issued last, status.notBefore / notAfter / renewalTime (ms since
  // 1970). Range-checked by the parser: duration >= 1 h, 5 min <= renewBefore < duration,
  // notBefore < notAfter, renewalTime within [notBefore, notAfter].
  std::optional<double> duration_s, renew_before_s;
  std::optional<std::int64_t> not_before_ms, not_after_ms, renewal_ms;
  // Set by a failure study's fork (survival/failure_set.h): its renewal failed and notAfter passed.
  bool expired = false;
};

struct AddressPool {
  ObjectMeta meta;
  std::vector<std::string> addresses;  // CIDRs or "a-b" ranges, IPv4
  bool auto_assign = true;
};

struct BgpAdvertisement {
  ObjectMeta meta;
  std::vector<std::string> pools;  // empty = every pool
  std::vector<LabelSelector> node_selectors;  // empty = every node
  std::vector<std::string> peers;  // empty = every peer
};

struct BgpPeer {
  ObjectMeta meta;
  std::uint32_t my_asn = 0;
  std::uint32_t peer_asn = 0;
  std::string peer_address;
  int hold_time_s = 90;
  int keepalive_s = 0;  // 0 = hold / 3
  std::vector<LabelSelector> node_selectors;
};

struct L2Advertisement {
  ObjectMeta meta;
  std::vector<std::string> pools;
};

struct StorageClass {
  ObjectMeta meta;
  std::string provisioner;
  Labels parameters;
  bool is_default = false;
};

// One authentication step as configured (frontend/auth_manifests.h reads it, auth_coverage.h
// decides what it covers, auth_dependency.h what it depends on).
struct AuthTarget {  // a SecurityPolicy targetRef (always in the policy's namespace)
  std::string group;
  std::string kind;  // Gateway | HTTPRoute
  std::string name;
  std::string section;  // a listener name (Gateway) or a rule name (HTTPRoute); empty = all
  SourceLocation where;
};

struct AuthPolicy {
  enum class Type { kExtAuthHttp, kExtAuthGrpc, kOidc, kForwardAuth, kNginxAuthUrl };
  ObjectMeta meta;  // the SecurityPolicy, the Middleware or the Ingress
  Type type = Type::kExtAuthHttp;
  std::vector<AuthTarget> targets;  // SecurityPolicy only (a Middleware is named by ExtensionRef)
  // The authentication service asked, when it is a Service of the cluster ("" otherwise).
  std::string service_ns;
  std::string service_name;
  int port = 0;
  std::string address;  // the URL asked, as written (forwardAuth address, auth-url, OIDC issuer)
  std::string path;     // extAuth.http.path
  // Where an unauthenticated request is sent (302): auth-signin, the OIDC authorization endpoint,
  // or the clustertwin.io/sign-in-url annotation (what the auth service itself answers); "" = the
  // auth service's own refusal is returned (401).
  std::string sign_in;
  bool fail_open = false;  // extAuth.failOpen
  SourceLocation where;    // the field that configures the step
};

// networking.k8s.io/v1 Ingress, as far as the authentication model reads it: hosts, paths,
// backend Services and TLS (no Ingress controller is modelled).
struct IngressPath {
  std::string path = "/";
  std::string type;  // Exact | Prefix | ImplementationSpecific
  std::string service;
  int port = 0;
  std::string port_name;
  SourceLocation where;
};

struct IngressRule {
  std::string host;  // empty = any
  std::vector<IngressPath> paths;
  SourceLocation where;
};

struct IngressTls {
  std::vector<std::string> hosts;
  std::string secret;
};

struct Ingress {
  ObjectMeta meta;
  std::string class_name;
  std::vector<IngressRule> rules;
  std::vector<IngressTls> tls;
  std::string default_service;
};

// policy/v1 PodDisruptionBudget: evictions (a drain) leave at least minAvailable, or at most
// maxUnavailable unavailable, of the pods its selector matches in its namespace.
struct PodDisruptionBudget {
  ObjectMeta meta;
  LabelSelector selector;
  std::string min_available;    // as written (an integer or a percentage), empty = unset
  std::string max_unavailable;  // as written, empty = unset
};

// Longhorn (longhorn.io/v1beta2) objects the replica scheduler reads (frontend/volume_replicas.h):
// a Longhorn Node (kind Node in the longhorn.io group, namespaced, named after the Kubernetes
// node) with its disks, and a Setting (settings.longhorn.io: metadata.name and a top-level value;
// or one key of the longhorn-default-setting ConfigMap's data."default-setting.yaml").
struct LonghornDisk {
  std::string name;  // the key under spec.disks
  std::string path;
  double storage_reserved = 0;  // bytes, spec.disks.<name>.storageReserved
  bool allow_scheduling = true;
  std::vector<std::string> tags;
  double storage_maximum = -1;    // status.diskStatus.<name>.storageMaximum, bytes; -1 = not given
  double storage_available = -1;  // status.diskStatus.<name>.storageAvailable, bytes; -1 = not given
  SourceLocation where;
};

struct LonghornNode {
  ObjectMeta meta;
  bool allow_scheduling = true;  // spec.allowScheduling
  bool disks_given = false;      // spec.disks written (an empty map: no disk at all)
  std::vector<LonghornDisk> disks;  // by name
  std::vector<std::string> tags;    // spec.tags
};

struct LonghornSetting {
  std::string name;
  std::string value;
  SourceLocation where;
};

struct UnknownObject {
  ObjectMeta meta;
};

// Everything loaded from a set of manifest files, in file order within each kind.
struct Manifests {
  std::vector<Namespace> namespaces;
  std::vector<Node> nodes;
  std::vector<Service> services;
  std::vector<Secret> secrets;
  std::vector<KubeWorkload> workloads;
  std::vector<GatewayClass> gateway_classes;
  std::vector<Gateway> gateways;
  std::vector<HttpRoute> routes;
  std::vector<ReferenceGrant> grants;
  std::vector<Issuer> issuers;
  std::vector<Certificate> certificates;
  std::vector<AddressPool> pools;
  std::vector<BgpAdvertisement> bgp_advertisements;
  std::vector<BgpPeer> bgp_peers;
  std::vector<L2Advertisement> l2_advertisements;
  std::vector<PersistentVolumeClaim> claims;
  std::vector<StorageClass> storage_classes;
  std::vector<AuthPolicy> auth_policies;
  std::vector<Ingress> ingresses;
  std::vector<PodDisruptionBudget> disruption_budgets;
  std::vector<LonghornNode> longhorn_nodes;
  std::vector<LonghornSetting> longhorn_settings;  // Setting objects, then the ConfigMap's keys
  std::vector<UnknownObject> unknown;  // kinds the model does not read, listed and ignored
  Diagnostics warnings;                // unknown fields of known kinds (as kubectl --validate warns)

  [[nodiscard]] const Namespace* find_namespace(const std::string& name) const;
  [[nodiscard]] const Service* find_service(const std::string& ns, const std::string& name) const;
  [[nodiscard]] const Gateway* find_gateway(const std::string& ns, const std::string& name) const;
  [[nodiscard]] const Secret* find_secret(const std::string& ns, const std::string& name) const;
  [[nodiscard]] const Node* find_node(const std::string& name) const;
  // The Nodes' names in file order: what --node and --dead-node take (and suggest from).
  [[nodiscard]] std::vector<std::string> node_names() const;
  // An Issuer in ns (kind Issuer) or a ClusterIssuer.
  [[nodiscard]] const Issuer* find_issuer(const std::string& kind, const std::string& ns, const std::string& name) const;
  [[nodiscard]] const Certificate* certificate_for_secret(const std::string& ns, const std::string& secret) const;
  [[nodiscard]] const PersistentVolumeClaim* find_claim(const std::string& ns, const std::string& name) const;
  [[nodiscard]] const StorageClass* find_storage_class(const std::string& name) const;
  // The policy of that kind (SecurityPolicy, Middleware, Ingress) in ns.
  [[nodiscard]] const AuthPolicy* find_auth_policy(const std::string& kind, const std::string& ns, const std::string& name) const;
};

// The text of one manifest file, as the io/ loader read it.
struct ManifestSource {
  std::string path;
  std::string text;
};

// The reader that fills a Manifests from these: frontend/manifest_parser.h.

}  // namespace ct
