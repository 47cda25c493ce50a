// The requests a failure study re-traces: every published route's request from inside and outside
// the DNS views. A published route is an HTTPRoute rule with a hostname; its request is the rule's
// first match made concrete (the path of an Exact or PathPrefix match, its method, its Exact
// headers and query parameters; a rule whose first match is a regular expression is left out and
// counted), on https when a parent Gateway has an HTTPS listener, else http, carrying a Cookie so
// that an authentication step lets it on to the backend once its service answers (the trace takes
// a request with credentials as signed in: request_trace.h hop 6). A wildcard hostname is left out.
// Clients: request_trace.h representative_client for "inside" and "outside", each once when both
// select the same view; without DNS views, one client from the documentation range 203.0.113.0/24.
// Each request is traced once on the healthy model; its answer then is what a failure is measured
// against, and the nodes its hops chose among (RequestHop::choices) are what it depends on: all
// but the storage hop's replica and engine nodes, which never decide the answer (hop 9 reports,
// it sets no status; a volume's loss reaches the answer through its workload's pods, the endpoints).
#pragma once

#include <string>
#include <vector>

#include "frontend/request_trace.h"

namespace ct {

struct PublishedRequest {
  std::string app;   // "HTTPRoute ns/name": the app a route publishes
  std::string url;   // "GET https://api.example.com/v1"
  std::string view;  // the DNS view of the client ("" without DNS)
  std::string client_label;  // "inside (10.10.0.5)", "outside (203.0.113.1)"
  TraceRequest request;
  int healthy_status = 0;           // the healthy model's answer (0: never reached HTTP)
  std::string landing_node;         // the router's next hop for this flow ("" when not reached)
  int bgp_hold_s = 0;
  std::vector<std::string> nodes;   // every node its hops chose among but the storage hop's (its answer's), sorted
  std::vector<std::string> endpoint_nodes;  // the nodes of its Gateway pods, endpoints and auth endpoints
};

struct PublishedRequests {
  std::vector<PublishedRequest> requests;  // by app, then URL, then client
  int regex_rules_skipped = 0;
  int wildcard_hosts_skipped = 0;
};

PublishedRequests published_requests(const FrontendModel& model);

// The status a traced request gets (its follow-up's when redirected is not followed: the first answer).
int traced_status(const Result<RequestTrace>& trace);
// The first hop that failed, "hop N name: summary"; "" when none did.
std::string failed_hop(const RequestTrace& trace);

}  // namespace ct
