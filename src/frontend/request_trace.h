// One request traced through the front door, hop by hop, each hop naming the object and the
// file:line that decided it:
//   1 DNS       the view that answers this client (dns_views.h) and the record
//   2 VIP       the MetalLB pool and advertisement, the announcing nodes, the router's ECMP choice
//               for this flow (bgp_vip.h, routing/linux_multipath.h)
//   3 network   the frontend switches and the link into the chosen node (the cluster spec's
//               frontend network, topology/builder.h), when a spec is given
//   4 gateway   the Gateway's data-plane pod on that node, the listener, TLS: the Secret, the
//               Certificate and Issuer chain, name coverage and issuability (cert_chain.h)
//   5 route     the HTTPRoute rule and why it wins (gateway_routes.h); when every backendRef is
//               invalid (500), each is named with its reason (BackendNotFound and the Service, ...)
//   6 auth      the authentication step that covers the rule (auth_coverage.h) and what it
//               depends on (auth_dependency.h): the authentication Service, its endpoints, pods
//               and nodes. The model checks no credential: a request with a Cookie or an
//               Authorization header is taken as authenticated and goes on; one without gets the
//               step's answer (302 to the sign-in URL, or the refusal), and the sign-in request
//               is traced too, from the same client (RequestTrace::follow_up; not followed
//               further). No ready endpoint: the implementation's documented status (403, 500),
//               never 200 unless the step fails open. The sign-in page behind the same step is a
//               redirect loop. No step: skipped.
//   7 service   the backend Service and its endpoints; a Service that selects a workload none of
//               whose pods runs is a warning, and hop 8 fails instead, decided by that workload
//   8 pod       the pods and their nodes (pod_placement.h); or why the selected workload runs no
//               pod: `replicas: 0`, or its pods Pending and why each node refuses them
//   9 storage   the pods' volumes: PVC -> StorageClass -> Longhorn engine and replicas
//               (volume_replicas.h)
// A hop that fails stops the request; the hops after it are "not reached".
//
// Each hop also lists the alternatives it chose among (HopChoice): the views, the router's next
// hops, the Gateway's data-plane pods, the rule's backends, the Service's endpoints, the
// workload's pods, the Longhorn candidate nodes of each claim. From them the trace derives what
// the death of each node it touched does to the same request (NodeSurvival), one node at a time:
//   router next hop   the router withdraws it within the BGP hold time and rehashes over the next
//                     hops left (this flow's own next hop: cut until then); none left: the VIP is
//                     unreachable;
//   Gateway pod       the node's data-plane pods go; none left: the Gateway answers nothing;
//   endpoint          the node's endpoints leave the Service; none left: 503 until the pods are
//                     rescheduled (the timers until then: survival/node_lifecycle.h);
//   auth endpoint     the same for the authentication Service; none left: every covered request
//                     gets the step's documented status (AuthDependency::down_status);
//   replica           one replica fewer of the claim (Degraded until rebuilt); none left: the data
//                     is lost; the engine's node: the volume reattaches where the pod reschedules.
// "served" means the request still gets its answer once the failover above has happened.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/auth_dependency.h"
#include "frontend/dns_views.h"
#include "frontend/gateway_routes.h"
#include "frontend/manifests.h"
#include "frontend/pod_placement.h"
#include "routing/linux_multipath.h"
#include "topology/topology.h"

namespace ct {

// The inputs of a trace, with the derived tables built once.
struct FrontendModel {
  Manifests manifests;
  GatewayModel gateways;
  Placement placement;
  std::optional<DnsModel> dns;
  std::optional<Topology> topology;  // the cluster spec's (with its frontend network)
  SourceLocation frontend_where;     // the spec's `frontend:` key (hop 3 cites it)
  std::vector<AuthDependency> auth;  // per Manifests::auth_policies: what a covered request depends on
  std::vector<std::string> dead_nodes;  // kill_nodes
  // The wall-clock time of a failure study's t = 0 (break and spof --now; ms since 1970): the
  // certificates' dates are placed against it (survival/cert_renewal.h).
  std::optional<std::int64_t> now_ms;
};

FrontendModel build_frontend_model(Manifests manifests, std::optional<DnsModel> dns, std::optional<Topology> topology);

// The cluster just after `nodes` die, before anything is rescheduled or any timeout runs out: their
// pods are gone (Pending, no endpoint, no Gateway data plane), and they are no Node any more (no
// BGP speaker, no next hop). Rescheduling is not modelled. Errors: a name that is no Node.
Diagnostics kill_nodes(FrontendModel& model, const std::vector<std::string>& nodes);

struct TraceRequest {
  std::string request;               // "[METHOD] https://host/path?query"
  std::vector<std::string> headers;  // "Name: value"
  std::string from = "inside";       // inside | outside | an IPv4 address
  std::uint16_t source_port = 40000;
  LinuxMultipathConfig router;       // the upstream router's multipath hash settings
};

enum class HopStatus { kOk, kWarning, kFailed, kNotReached, kSkipped };
std::string to_string(HopStatus s);

// One alternative of a hop's decision.
struct HopOption {
  std::string name;    // "node-0", "edge-envoy-0", "ml/vllm", "vllm-0"
  std::string detail;  // "192.0.2.11", "weight 1 (100%)", "engine"
  std::string node;    // the node it lives on ("" when not on a node, or Pending)
  bool taken = false;  // the request (or its data) goes there; several: it is balanced over them
};

// The alternatives of one decision, `what` from a fixed vocabulary: "view", "next hop",
// "gateway pod", "backend", "endpoint", "auth endpoint", "pod", "replica" (`of` names the claim,
// the Service of an endpoint).
struct HopChoice {
  std::string what;
  std::string of;  // the object the choice belongs to (the claim of "replica"), else ""
  std::vector<HopOption> options;
};

struct ReplicasLeft {
  std::string claim;
  int left = 0;
  int of = 0;
};

// What the death of one node does to the same request (the header's rules).
struct NodeSurvival {
  std::string node;
  std::vector<std::string> roles;  // "next hop of this flow", "Gateway pod edge-envoy-0", ...
  bool served = true;
  std::string effect;
  std::vector<ReplicasLeft> replicas;  // per claim with a replica on the node
};

struct RequestHop {
  int number = 0;
  std::string name;
  HopStatus status = HopStatus::kNotReached;
  std::string decided_by;  // the object that decided the hop
  std::string where;       // its file:line
  std::string summary;
  std::vector<std::string> details;
  std::vector<HopChoice> choices;
};

// The authentication hop as data (hop 6; `trace --json` "auth").
struct TraceAuth {
  std::string policy;  // "Middleware apps/forward-auth (forwardAuth)"
  std::string where;   // the field that configures it
  std::string via;     // how it covers the rule
  std::string service;  // "ns/name" ("" outside the cluster)
  int port = 0;
  std::vector<AuthEndpoint> endpoints;
  bool authenticated = false;  // the request carries credentials (Cookie or Authorization)
  int status = 0;              // what the request got here; 0 = it went on to the backend
  std::string location;        // the sign-in URL of a 302
  int down_status = 0;         // what a covered request gets with no ready endpoint
  std::string down_why;
  bool loop = false;
  std::string login_route;     // the sign-in page's rule, listener and certificate
  std::string login_listener;
  std::string login_certificate;
};

struct RequestTrace {
  HttpRequest request;
  std::string client;      // the client's address
  std::string client_why;  // how it was chosen (inside / outside)
  std::vector<RequestHop> hops;
  int http_status = 0;     // 0: never reached HTTP
  int bgp_hold_s = 0;      // the VIP's hold time (hop 2), when reached
  std::vector<NodeSurvival> survival;  // per node touched, by name
  std::vector<std::string> dead_nodes;  // the nodes taken as dead (kill_nodes)
  std::optional<TraceAuth> auth;       // hop 6 when a step covers the rule
  std::vector<RequestTrace> follow_up;  // the sign-in request an unauthenticated one is sent to (0 or 1)
};

// The spec host a node names (its clustertwin.io/host annotation, else its name): "hostN" with N
// one or more decimal digits and nothing else -> N; nullopt for any other text (a sign, a space,
// a trailing character, a number past 2^63 - 1). Hop 3 then says the node maps to no host.
std::optional<long long> spec_host_of(std::string_view name);

// A representative client address for "inside" (selects the first view that does not match
// everyone) or "outside" (selects the last view), tried over the first addresses of each prefix in
// the configuration and the documentation ranges; with how it was chosen.
std::optional<std::pair<std::uint32_t, std::string>> representative_client(const DnsModel& dns, bool inside);

// Errors: a malformed request or --from.
Result<RequestTrace> trace_request(const FrontendModel& model, const TraceRequest& request);

}  // namespace ct
