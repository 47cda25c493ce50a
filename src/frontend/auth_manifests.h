// The readers of the authentication step in front of a route, one per configuration people use,
// each field range-checked where it is read. A field of the real schema that decides who is let in
// and that the model does not follow is an error at that field ("not modelled"), so that a trace
// never answers for a configuration it did not read; a field the schema does not have is a warning,
// as for every kind (manifest_reader.h). Sources, and the versions followed:
//   Envoy Gateway SecurityPolicy, gateway.envoyproxy.io/v1alpha1, Envoy Gateway v1.5
//     (https://gateway.envoyproxy.io/v1.5/concepts/gateway_api_extensions/security-policy/ and the
//     v1.5 API reference): targetRefs (group gateway.networking.k8s.io, kind Gateway or HTTPRoute,
//     name, sectionName; always in the policy's namespace; the deprecated single targetRef is read
//     as one of them), extAuth (http or grpc, one backendRef or backendRefs[] to a Service with a
//     port; http.path; failOpen, default false), oidc (provider.issuer, required;
//     provider.authorizationEndpoint; clientID or clientIDRef; clientSecret; redirectURL).
//     Refused: targetSelectors, basicAuth, jwt, apiKeyAuth, authorization, oidc.denyRedirect,
//     a backendRef of kind Backend, extAuth and oidc together. cors is read as not authentication.
//     What the authorization service answers an unauthenticated request is its own (Envoy returns
//     an HTTP service's denial as it is, a gRPC service's as 403 unless it says otherwise); the
//     annotation clustertwin.io/sign-in-url says where it redirects.
//   Traefik Middleware forwardAuth, traefik.io/v1alpha1 (and traefik.containo.us/v1alpha1),
//     Traefik v3.3 (https://doc.traefik.io/traefik/v3.3/reference/routing-configuration/http/middlewares/forwardauth/):
//     address (required, a URL). "If the service answers with a 2XX code, access is granted, and
//     the original request is performed. Otherwise, the response from the authentication server is
//     returned." What that server answers an unauthenticated request is its own business; the
//     annotation clustertwin.io/sign-in-url says where it redirects (302), else its refusal (401)
//     is taken. A Middleware of another type (stripPrefix, headers, ...) is not an authentication
//     step and is kept as an UnknownObject; basicAuth, digestAuth and chain are refused when they
//     sit beside forwardAuth.
//   ingress-nginx, networking.k8s.io/v1 Ingress with the annotations
//     nginx.ingress.kubernetes.io/auth-url and auth-signin, ingress-nginx v1.11
//     (https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/annotations/#external-authentication):
//     auth-url is asked for every path of the Ingress; a 401 answer becomes a 302 to auth-signin
//     when it is set. Refused: auth-type (basic, digest), auth-tls-verify-client, an Ingress path
//     backend that is a `resource`. The Ingress itself is read as far as the model needs it
//     (rules, hosts, paths with pathType, backend Services, TLS hosts and Secrets); only
//     networking.k8s.io/v1 (v1beta1 was removed in Kubernetes 1.22).
#pragma once

#include "frontend/manifest_reader.h"
#include "frontend/manifests.h"

namespace ct {

// One document of each kind: `doc` the whole document, `spec` its spec (an empty mapping at the
// document when it has none), `meta` its metadata as already read. Appends to out.auth_policies
// (and out.ingresses, out.unknown).
void read_security_policy(ManifestReader& r, const YamlValue& doc, const YamlValue& spec, const ObjectMeta& meta, Manifests& out);
void read_middleware(ManifestReader& r, const YamlValue& doc, const YamlValue& spec, const ObjectMeta& meta, Manifests& out);
void read_ingress(ManifestReader& r, const YamlValue& doc, const YamlValue& spec, const ObjectMeta& meta, Manifests& out);

}  // namespace ct
