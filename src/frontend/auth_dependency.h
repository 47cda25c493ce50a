// What every request behind an authentication step depends on: the authentication Service, its
// endpoints, pods and nodes (the same placement as the apps, pod_placement.h), the sign-in page an
// unauthenticated request is sent to (its Gateway listener, HTTPRoute rule and certificate), and
// what a request gets when the authentication Service has no ready endpoint. One per policy of
// Manifests::auth_policies; data for the trace and for any study of the survival of the login.
//   Where the step is asked. extAuth: its backendRef Service. forwardAuth and auth-url: the URL's
//   host when it is a cluster Service name (NAME.NS.svc or NAME.NS.svc.cluster.local; the port from
//   the URL, else the scheme's); any other host goes out through the front door, and the Service
//   is the backend of the HTTPRoute rule that takes it (as the trace resolves any request). OIDC:
//   the provider's issuer, the same way (a provider outside the cluster is outside the model).
//   Unauthenticated. 302 to the sign-in URL when one is known (auth-signin; the OIDC authorization
//   endpoint, else the issuer it is discovered from; clustertwin.io/sign-in-url, what the auth
//   service itself answers); else the auth service's refusal: 401 (HTTP), 403 (Envoy, gRPC
//   service: "the request will be denied normally with 403 (Forbidden)").
//   No ready endpoint, as each implementation documents it:
//     Envoy Gateway extAuth  403, Envoy's ext_authz status_on_error default ("Sets the HTTP status
//                            that is returned to the client when there is a network error between
//                            the filter and the authorization server. The default status is HTTP
//                            403 Forbidden"; envoy api v3 ext_authz.proto), because failOpen
//                            (failure_mode_allow) defaults to false; failOpen true: the request goes
//                            on unauthenticated (200, flagged).
//     Traefik forwardAuth    500: the call to the address fails (a Service without endpoints
//                            refuses the connection) and Traefik answers 500 Internal Server Error
//                            (pkg/middlewares/auth/forward.go; its docs say only that a non-2XX
//                            answer is returned).
//     ingress-nginx auth-url 500: nginx's auth_request, "If the subrequest returns a 2xx response
//                            code, the access is allowed. If it returns 401 or 403, the access is
//                            denied with the corresponding error code. Any other response code
//                            returned by the subrequest is considered an error" (nginx.org
//                            ngx_http_auth_request_module), and an error is 500.
//     OIDC                   the redirect to the provider still happens (302) and a session cookie
//                            still passes (the provider is asked at sign-in, not per request); the
//                            sign-in then fails at the provider (the followed request says how).
//   Loop. The sign-in page behind the same step: every unauthenticated request is redirected to a
//   page that redirects it again.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "frontend/gateway_model.h"
#include "frontend/manifests.h"
#include "frontend/pod_placement.h"

namespace ct {

struct AuthEndpoint {
  std::string pod;
  std::string node;
};

struct AuthDependency {
  std::size_t policy = 0;         // index into Manifests::auth_policies
  std::string service;            // "ns/name" of the authentication Service; "" outside the cluster
  int port = 0;
  std::string reached;            // how the step reaches it (cluster DNS name, the Gateway, outside)
  std::string service_problem;    // no such Service, no such port
  std::vector<AuthEndpoint> endpoints;  // its ready endpoints (every placed pod is taken as ready)
  std::vector<std::size_t> workloads;   // the workloads selected by the Service (index into Manifests::workloads)
  int unauthenticated_status = 401;
  std::string sign_in;            // the Location of the 302 ("" = no redirect)
  std::string unauthenticated_why;
  int down_status = 500;          // what a covered request gets when no endpoint is ready
  std::string down_why;           // the implementation's documented behaviour, cited
  bool fail_open = false;
  // The sign-in request through the front door (when the URL names a host the Gateway takes).
  bool login_routed = false;
  std::string login_route;        // "HTTPRoute auth/login rule 0 (file:line)"
  std::size_t login_route_index = 0;
  std::size_t login_rule_index = 0;
  std::string login_listener;     // "ns/gateway/listener"
  std::string login_certificate;  // the listener's Secret "ns/name" ("" for HTTP)
  std::string login_service;      // the backend the sign-in page is served by
  bool loop = false;
  std::string loop_why;
};

std::vector<AuthDependency> build_auth_dependencies(const Manifests& m, const GatewayModel& g, const Placement& p);

// The URL with nginx's variables of the request filled in ($host, $scheme, $request_uri,
// $escaped_request_uri); other text unchanged.
std::string expand_request_variables(const std::string& url, const HttpRequest& request);

}  // namespace ct
