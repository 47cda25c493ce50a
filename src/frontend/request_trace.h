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
//   6 service   the backend Service and its endpoints; a Service that selects a workload none of
//               whose pods runs is a warning, and hop 7 fails instead, decided by that workload
//   7 pod       the pods and their nodes (pod_placement.h); or why the selected workload runs no
//               pod: `replicas: 0`, or its pods Pending and why each node refuses them
//   8 storage   the pods' volumes: PVC -> StorageClass -> Longhorn engine and replicas
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
//   replica           one replica fewer of the claim (Degraded until rebuilt); none left: the data
//                     is lost; the engine's node: the volume reattaches where the pod reschedules.
// "served" means the request still gets its answer once the failover above has happened.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
};

FrontendModel build_frontend_model(Manifests manifests, std::optional<DnsModel> dns, std::optional<Topology> topology);

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
// "gateway pod", "backend", "endpoint", "pod", "replica" (`of` names the claim).
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

struct RequestTrace {
  HttpRequest request;
  std::string client;      // the client's address
  std::string client_why;  // how it was chosen (inside / outside)
  std::vector<RequestHop> hops;
  int http_status = 0;     // 0: never reached HTTP
  int bgp_hold_s = 0;      // the VIP's hold time (hop 2), when reached
  std::vector<NodeSurvival> survival;  // per node touched, by name
};

// The spec host a node names (its clustertwin.io/host annotation, else its name): "hostN" with N
// one or more decimal digits and nothing else -> N; nullopt for any other text (a sign, a space,
// a trailing character, a number past 2^63 - 1). Hop 3 then says the node maps to no host.
std::optional<long long> spec_host_of(std::string_view name);

// Errors: a malformed request or --from.
Result<RequestTrace> trace_request(const FrontendModel& model, const TraceRequest& request);

}  // namespace ct
