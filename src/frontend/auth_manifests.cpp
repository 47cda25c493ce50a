#include "frontend/auth_manifests.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/manifest_values.h"

namespace ct {
namespace {

constexpr const char* kGatewayGroup = "gateway.networking.k8s.io";
constexpr const char* kSignInAnnotation = "clustertwin.io/sign-in-url";

// The value of metadata.annotations[key], or nullptr.
const YamlValue* annotation(const YamlValue& doc, const std::string& key) {
  const YamlValue* md = doc.get("metadata");
  const YamlValue* a = md != nullptr && md->is_map() ? md->get("annotations") : nullptr;
  return a != nullptr && a->is_map() ? a->get(key) : nullptr;
}

// An error for each field of `map` that the schema has and the model does not follow.
void refuse(ManifestReader& r, const YamlValue* map, const std::string& path, std::initializer_list<const char*> fields,
            const std::string& why) {
  if (map == nullptr || !map->is_map()) return;
  for (const char* f : fields) {
    if (const YamlValue* v = map->get(f)) {
      r.error(v->where, path.empty() ? f : path + "." + f, "not modelled: " + why);
    }
  }
}

AuthTarget read_target(ManifestReader& r, const YamlValue& v, const std::string& f) {
  AuthTarget t;
  t.where = v.where;
  if (!r.check(&v, f, {"group", "kind", "name", "sectionName"})) return t;
  t.group = r.str(v.get("group"), f + ".group");
  t.kind = r.str(v.get("kind"), f + ".kind");
  t.name = r.checked(v.get("name"), f + ".name", dns_subdomain_problem);
  t.section = r.checked(v.get("sectionName"), f + ".sectionName", dns_subdomain_problem);
  if (t.group != kGatewayGroup) {
    r.error(v.get("group") ? v.get("group")->where : v.where, f + ".group", fmt::format("expected {}, got '{}'", kGatewayGroup, t.group));
  }
  if (t.kind != "Gateway" && t.kind != "HTTPRoute") {
    r.error(v.get("kind") ? v.get("kind")->where : v.where, f + ".kind",
            t.kind == "GRPCRoute" || t.kind == "TCPRoute" ? "not modelled: " + t.kind + " (the model routes HTTPRoutes)"
                                                          : "expected Gateway or HTTPRoute, got '" + t.kind + "'");
  }
  if (t.name.empty()) r.error(v.where, f + ".name", "is required");
  return t;
}

// extAuth.http/grpc: exactly one backend, a Service with a port.
void read_auth_backend(ManifestReader& r, const YamlValue& service, const std::string& f, const ObjectMeta& meta, AuthPolicy& p) {
  std::vector<const YamlValue*> refs;
  if (const YamlValue* one = service.get("backendRef")) refs.push_back(one);
  if (const YamlValue* many = r.seq(service.get("backendRefs"), f + ".backendRefs")) {
    for (const auto& b : many->items) refs.push_back(&b);
  }
  if (refs.size() != 1) {
    r.error(service.where, f + ".backendRefs",
            refs.empty() ? std::string("is required: the authorization service")
                         : fmt::format("{} backends: not modelled (one authorization Service is)", refs.size()));
    return;
  }
  const YamlValue& b = *refs.front();
  const ObjectRef ref = read_ref(r, b, f + ".backendRef", "Service", {"group", "kind", "name", "namespace", "port", "weight", "fallback"});
  if (ref.kind != "Service" || !ref.group.empty()) {
    r.error(b.where, f + ".backendRef.kind", fmt::format("not modelled: {} {} (a Service is)", ref.group.empty() ? "core" : ref.group, ref.kind));
    return;
  }
  p.service_ns = ref.ns.empty() ? meta.ns : ref.ns;
  p.service_name = ref.name;
  p.port = static_cast<int>(r.integer(b.get("port"), f + ".backendRef.port", 0, 1, 65535));
  if (b.get("port") == nullptr) r.error(b.where, f + ".backendRef.port", "is required for a Service");
  p.address = fmt::format("{}/{}:{}", p.service_ns, p.service_name, p.port);
}

void read_ext_auth(ManifestReader& r, const YamlValue& ea, const ObjectMeta& meta, AuthPolicy& p) {
  const std::string f = "spec.extAuth";
  r.check(&ea, f, {"http", "grpc", "headersToExtAuth", "failOpen", "bodyToExtAuth", "recomputeRoute", "contextExtensions", "timeout"});
  p.where = ea.where;
  p.fail_open = r.boolean(ea.get("failOpen"), f + ".failOpen", false);
  const YamlValue* http = ea.get("http");
  const YamlValue* grpc = ea.get("grpc");
  if ((http == nullptr) == (grpc == nullptr)) {
    r.error(ea.where, f, "expected exactly one of http and grpc");
    return;
  }
  if (http != nullptr && r.check(http, f + ".http", {"backendRef", "backendRefs", "path", "headersToBackend"})) {
    p.type = AuthPolicy::Type::kExtAuthHttp;
    read_auth_backend(r, *http, f + ".http", meta, p);
    p.path = r.str(http->get("path"), f + ".http.path");
    if (!p.path.empty() && !p.path.starts_with("/")) r.error(http->get("path")->where, f + ".http.path", "must start with '/'");
  }
  if (grpc != nullptr && r.check(grpc, f + ".grpc", {"backendRef", "backendRefs"})) {
    p.type = AuthPolicy::Type::kExtAuthGrpc;
    read_auth_backend(r, *grpc, f + ".grpc", meta, p);
  }
}

void read_oidc(ManifestReader& r, const YamlValue& o, AuthPolicy& p) {
  const std::string f = "spec.oidc";
  r.check(&o, f, {"provider", "clientID", "clientIDRef", "clientSecret", "redirectURL", "logoutPath", "scopes", "resources",
                  "cookieNames", "cookieConfig", "cookieDomain", "forwardAccessToken", "defaultTokenTTL", "refreshToken",
                  "defaultRefreshTokenTTL", "passThroughAuthHeader", "denyRedirect", "csrfTokenTTL", "disableTokenEncryption"});
  refuse(r, &o, f, {"denyRedirect"}, "requests it matches get 401 instead of the redirect");
  p.type = AuthPolicy::Type::kOidc;
  p.where = o.where;
  const YamlValue* pr = o.get("provider");
  if (r.check(pr, f + ".provider", {"issuer", "authorizationEndpoint", "tokenEndpoint", "endSessionEndpoint", "backendRef",
                                     "backendRefs", "backendSettings"})) {
    p.address = r.checked(pr->get("issuer"), f + ".provider.issuer", url_problem);
    if (p.address.empty()) r.error(pr->where, f + ".provider.issuer", "is required");
    p.sign_in = r.checked(pr->get("authorizationEndpoint"), f + ".provider.authorizationEndpoint", url_problem);
    r.checked(pr->get("tokenEndpoint"), f + ".provider.tokenEndpoint", url_problem);
  } else {
    r.error(o.where, f + ".provider", "is required");
  }
  if (p.sign_in.empty()) p.sign_in = p.address;  // the authorization endpoint is discovered from the issuer
  if (o.get("clientID") == nullptr && o.get("clientIDRef") == nullptr) r.error(o.where, f + ".clientID", "is required (or clientIDRef)");
  r.str(o.get("clientID"), f + ".clientID");
  if (o.get("clientSecret") == nullptr) r.error(o.where, f + ".clientSecret", "is required");
  r.checked(o.get("redirectURL"), f + ".redirectURL", url_problem);
  r.strings(o.get("scopes"), f + ".scopes");
  r.boolean(o.get("forwardAccessToken"), f + ".forwardAccessToken", false);
}

// clustertwin.io/sign-in-url: where the auth service itself redirects an unauthenticated request.
std::string read_sign_in_annotation(ManifestReader& r, const YamlValue& doc) {
  return r.checked(annotation(doc, kSignInAnnotation), std::string("metadata.annotations.") + kSignInAnnotation, url_problem);
}

}  // namespace

void read_security_policy(ManifestReader& r, const YamlValue& doc, const YamlValue& spec, const ObjectMeta& meta, Manifests& out) {
  r.check(&spec, "spec", {"targetRef", "targetRefs", "targetSelectors", "extAuth", "oidc", "cors", "basicAuth", "jwt",
                          "apiKeyAuth", "authorization"});
  refuse(r, &spec, "spec", {"targetSelectors"}, "name the targets with targetRefs");
  refuse(r, &spec, "spec", {"basicAuth", "jwt", "apiKeyAuth", "authorization"}, "it decides who is let in, and the model does not follow it");
  AuthPolicy p;
  p.meta = meta;
  p.where = spec.where;
  if (const YamlValue* one = spec.get("targetRef")) p.targets.push_back(read_target(r, *one, "spec.targetRef"));
  if (const YamlValue* many = r.seq(spec.get("targetRefs"), "spec.targetRefs")) {
    for (std::size_t i = 0; i < many->items.size(); ++i) p.targets.push_back(read_target(r, many->items[i], fmt::format("spec.targetRefs[{}]", i)));
  }
  if (p.targets.empty() && spec.get("targetSelectors") == nullptr) r.error(spec.where, "spec.targetRefs", "is required: the Gateway or HTTPRoute it covers");
  const YamlValue* ea = spec.get("extAuth");
  const YamlValue* oidc = spec.get("oidc");
  if (ea != nullptr && oidc != nullptr) {
    r.error(oidc->where, "spec.oidc", "not modelled: extAuth and oidc in one SecurityPolicy");
    return;
  }
  if (ea != nullptr) {
    read_ext_auth(r, *ea, meta, p);
    p.sign_in = read_sign_in_annotation(r, doc);
  }
  else if (oidc != nullptr) read_oidc(r, *oidc, p);
  if (ea == nullptr && oidc == nullptr) {
    out.unknown.push_back(UnknownObject{meta});  // cors only: no authentication step
    return;
  }
  out.auth_policies.push_back(std::move(p));
}

void read_middleware(ManifestReader& r, const YamlValue& doc, const YamlValue& spec, const ObjectMeta& meta, Manifests& out) {
  r.check(&spec, "spec", {"addPrefix", "basicAuth", "buffering", "chain", "circuitBreaker", "compress", "contentType",
                          "digestAuth", "errors", "forwardAuth", "grpcWeb", "headers", "inFlightReq", "ipAllowList",
                          "ipWhiteList", "passTLSClientCert", "plugin", "rateLimit", "redirectRegex", "redirectScheme",
                          "replacePath", "replacePathRegex", "retry", "stripPrefix", "stripPrefixRegex"});
  const YamlValue* fa = spec.get("forwardAuth");
  if (fa == nullptr) {
    out.unknown.push_back(UnknownObject{meta});  // not an authentication step
    return;
  }
  refuse(r, &spec, "spec", {"basicAuth", "digestAuth", "chain"}, "beside forwardAuth, it decides who is let in");
  AuthPolicy p;
  p.meta = meta;
  p.type = AuthPolicy::Type::kForwardAuth;
  p.where = fa->where;
  const std::string f = "spec.forwardAuth";
  if (r.check(fa, f, {"address", "tls", "trustForwardHeader", "authResponseHeaders", "authResponseHeadersRegex",
                      "authRequestHeaders", "addAuthCookiesToResponse", "headerField", "forwardBody", "maxBodySize",
                      "preserveLocationHeader", "preserveRequestMethod", "maxResponseBodySize"})) {
    p.address = r.checked(fa->get("address"), f + ".address", url_problem);
    if (p.address.empty()) r.error(fa->where, f + ".address", "is required: the authentication server's URL");
    r.boolean(fa->get("trustForwardHeader"), f + ".trustForwardHeader", false);
    r.boolean(fa->get("forwardBody"), f + ".forwardBody", false);
    r.strings(fa->get("authResponseHeaders"), f + ".authResponseHeaders");
    r.strings(fa->get("authRequestHeaders"), f + ".authRequestHeaders");
    r.integer(fa->get("maxBodySize"), f + ".maxBodySize", -1, -1, 1LL << 40);
  }
  p.sign_in = read_sign_in_annotation(r, doc);
  out.auth_policies.push_back(std::move(p));
}

namespace {

// An IngressBackend: a Service with a port number or name (a resource backend is refused).
void read_ingress_backend(ManifestReader& r, const YamlValue* b, const std::string& f, IngressPath& p) {
  if (!r.check(b, f, {"service", "resource"})) return;
  refuse(r, b, f, {"resource"}, "a resource backend (a Service is)");
  const YamlValue* s = b->get("service");
  if (!r.check(s, f + ".service", {"name", "port"})) return;
  p.service = r.checked(s->get("name"), f + ".service.name", dns_label_problem);
  if (p.service.empty()) r.error(s->where, f + ".service.name", "is required");
  if (const YamlValue* port = s->get("port"); r.check(port, f + ".service.port", {"number", "name"})) {
    p.port = static_cast<int>(r.integer(port->get("number"), f + ".service.port.number", 0, 1, 65535));
    p.port_name = r.checked(port->get("name"), f + ".service.port.name", dns_label_problem);
    if ((port->get("number") == nullptr) == (port->get("name") == nullptr)) {
      r.error(port->where, f + ".service.port", "expected exactly one of number and name");
    }
  }
}

IngressPath read_ingress_path(ManifestReader& r, const YamlValue& v, const std::string& f) {
  IngressPath p;
  p.where = v.where;
  if (!r.check(&v, f, {"path", "pathType", "backend"})) return p;
  if (v.get("path")) p.path = r.str(v.get("path"), f + ".path");
  if (!p.path.starts_with("/")) r.error(v.get("path") ? v.get("path")->where : v.where, f + ".path", "must start with '/'");
  p.type = r.str(v.get("pathType"), f + ".pathType");
  if (p.type != "Exact" && p.type != "Prefix" && p.type != "ImplementationSpecific") {
    r.error(v.get("pathType") ? v.get("pathType")->where : v.where, f + ".pathType",
            p.type.empty() ? std::string("is required (Exact, Prefix or ImplementationSpecific)")
                           : "expected Exact, Prefix or ImplementationSpecific, got '" + p.type + "'");
  }
  if (v.get("backend") == nullptr) r.error(v.where, f + ".backend", "is required");
  read_ingress_backend(r, v.get("backend"), f + ".backend", p);
  return p;
}

// The ingress-nginx annotations of the external authentication (auth-url, auth-signin).
void read_nginx_auth(ManifestReader& r, const YamlValue& doc, const ObjectMeta& meta, Manifests& out) {
  const std::string prefix = "nginx.ingress.kubernetes.io/";
  for (const char* unsupported : {"auth-type", "auth-tls-verify-client"}) {
    if (const YamlValue* v = annotation(doc, prefix + unsupported)) {
      r.error(v->where, "metadata.annotations." + prefix + unsupported, "not modelled: it decides who is let in (auth-url is)");
    }
  }
  const YamlValue* url = annotation(doc, prefix + "auth-url");
  if (url == nullptr) return;
  AuthPolicy p;
  p.meta = meta;
  p.type = AuthPolicy::Type::kNginxAuthUrl;
  p.where = url->where;
  p.address = r.checked(url, "metadata.annotations." + prefix + "auth-url", url_problem);
  if (p.address.empty()) r.error(url->where, "metadata.annotations." + prefix + "auth-url", "is empty");
  p.sign_in = r.checked(annotation(doc, prefix + "auth-signin"), "metadata.annotations." + prefix + "auth-signin", url_problem);
  out.auth_policies.push_back(std::move(p));
}

}  // namespace

void read_ingress(ManifestReader& r, const YamlValue& doc, const YamlValue& spec, const ObjectMeta& meta, Manifests& out) {
  if (meta.api_version != "networking.k8s.io/v1") {
    r.error(doc.get("apiVersion") ? doc.get("apiVersion")->where : doc.where, "apiVersion",
            "expected networking.k8s.io/v1 for an Ingress (v1beta1 was removed in Kubernetes 1.22), got '" + meta.api_version + "'");
    return;
  }
  r.check(&spec, "spec", {"ingressClassName", "defaultBackend", "rules", "tls"});
  Ingress in;
  in.meta = meta;
  in.class_name = r.checked(spec.get("ingressClassName"), "spec.ingressClassName", dns_subdomain_problem);
  if (in.class_name.empty()) {
    if (auto it = meta.annotations.find("kubernetes.io/ingress.class"); it != meta.annotations.end()) in.class_name = it->second;
  }
  if (const YamlValue* db = spec.get("defaultBackend")) {
    IngressPath p;
    read_ingress_backend(r, db, "spec.defaultBackend", p);
    in.default_service = p.service;
  }
  if (const YamlValue* rules = r.seq(spec.get("rules"), "spec.rules")) {
    for (std::size_t i = 0; i < rules->items.size(); ++i) {
      const YamlValue& ru = rules->items[i];
      const std::string f = fmt::format("spec.rules[{}]", i);
      IngressRule rule;
      rule.where = ru.where;
      if (!r.check(&ru, f, {"host", "http"})) continue;
      rule.host = r.checked(ru.get("host"), f + ".host", [](std::string_view h) { return hostname_problem(h, true); });
      if (const YamlValue* http = ru.get("http"); r.check(http, f + ".http", {"paths"})) {
        if (const YamlValue* paths = r.seq(http->get("paths"), f + ".http.paths")) {
          for (std::size_t k = 0; k < paths->items.size(); ++k) {
            rule.paths.push_back(read_ingress_path(r, paths->items[k], fmt::format("{}.http.paths[{}]", f, k)));
          }
        }
        if (rule.paths.empty()) r.error(http->where, f + ".http.paths", "is required: at least one path");
      }
      in.rules.push_back(std::move(rule));
    }
  }
  if (const YamlValue* tls = r.seq(spec.get("tls"), "spec.tls")) {
    for (std::size_t i = 0; i < tls->items.size(); ++i) {
      const YamlValue& t = tls->items[i];
      const std::string f = fmt::format("spec.tls[{}]", i);
      if (!r.check(&t, f, {"hosts", "secretName"})) continue;
      in.tls.push_back(IngressTls{r.strings(t.get("hosts"), f + ".hosts", [](std::string_view h) { return hostname_problem(h, true); }),
                                  r.checked(t.get("secretName"), f + ".secretName", dns_subdomain_problem)});
    }
  }
  read_nginx_auth(r, doc, meta, out);
  out.ingresses.push_back(std::move(in));
}

}  // namespace ct
