#include "frontend/gateway_filters.h"

#include <algorithm>
#include <iterator>
#include <map>

#include <fmt/format.h>

#include "core/text.h"

namespace ct {
namespace {

using F = RouteFilter::Type;

// HTTPPathModifier: how a URLRewrite or RequestRedirect filter changes the path.
PathModifier read_path_modifier(ManifestReader& r, const YamlValue* v, const std::string& field) {
  PathModifier pm;
  if (!r.check(v, field, {"type", "replaceFullPath", "replacePrefixMatch"})) return pm;
  const std::string type = r.str(v->get("type"), field + ".type");
  if (type == "ReplaceFullPath") {
    pm.type = PathModifier::Type::kReplaceFullPath;
    pm.value = r.str(v->get("replaceFullPath"), field + ".replaceFullPath");
  } else if (type == "ReplacePrefixMatch") {
    pm.type = PathModifier::Type::kReplacePrefixMatch;
    pm.value = r.str(v->get("replacePrefixMatch"), field + ".replacePrefixMatch");
  } else {
    r.error(v->where, field + ".type", "expected ReplaceFullPath or ReplacePrefixMatch, got '" + type + "'");
  }
  if (!pm.value.empty() && !pm.value.starts_with("/")) r.error(v->where, field, "the path must start with '/'");
  return pm;
}

// The readers of each kind's configuration field `v` (at `f`, nullptr when absent).

void read_header_modifier(ManifestReader& r, const YamlValue* v, const std::string& field, RouteFilter& filter) {
  HeaderModifier& hm = filter.headers;
  if (!r.check(v, field, {"set", "add", "remove"})) return;
  for (const char* which : {"set", "add"}) {
    if (const YamlValue* xs = r.seq(v->get(which), field + "." + which)) {
      for (const auto& x : xs->items) {
        r.check(&x, field + "." + which + "[]", {"name", "value"});
        std::string name = r.str(x.get("name"), field + "." + which + "[].name");
        if (name.empty()) r.error(x.where, field + "." + which + "[].name", "is required");
        (std::string(which) == "set" ? hm.set : hm.add).emplace_back(std::move(name), r.str(x.get("value"), field + "." + which + "[].value"));
      }
    }
  }
  hm.remove = r.strings(v->get("remove"), field + ".remove");
}

void read_mirror(ManifestReader& r, const YamlValue* rm, const std::string& f, RouteFilter& filter) {
  if (!r.check(rm, f, {"backendRef", "percent", "fraction"})) return;
  if (const YamlValue* b = rm->get("backendRef")) {
    filter.mirror.ref = read_ref(r, *b, f + ".backendRef", "Service", {"group", "kind", "name", "namespace", "port"});
    filter.mirror.port = static_cast<int>(r.integer(b->get("port"), f + ".backendRef.port", 0, 1, 65535));
  } else {
    r.error(rm->where, f + ".backendRef", "is required");
  }
}

void read_redirect(ManifestReader& r, const YamlValue* rr, const std::string& f, RouteFilter& filter) {
  if (!r.check(rr, f, {"scheme", "hostname", "path", "port", "statusCode"})) return;
  filter.scheme = r.str(rr->get("scheme"), f + ".scheme");
  if (!filter.scheme.empty() && filter.scheme != "http" && filter.scheme != "https") {
    r.error(rr->get("scheme")->where, f + ".scheme", "expected http or https, got '" + filter.scheme + "'");
  }
  filter.hostname = r.str(rr->get("hostname"), f + ".hostname");
  filter.port = static_cast<int>(r.integer(rr->get("port"), f + ".port", 0, 1, 65535));
  filter.status_code = static_cast<int>(r.integer(rr->get("statusCode"), f + ".statusCode", 302, 301, 308));
  if (filter.status_code == 304 || filter.status_code == 305 || filter.status_code == 306) {
    r.error(rr->get("statusCode")->where, f + ".statusCode", "expected 301, 302, 303, 307 or 308");
  }
  filter.path = read_path_modifier(r, rr->get("path"), f + ".path");
}

void read_url_rewrite(ManifestReader& r, const YamlValue* u, const std::string& f, RouteFilter& filter) {
  if (!r.check(u, f, {"hostname", "path"})) return;
  filter.hostname = r.str(u->get("hostname"), f + ".hostname");
  filter.path = read_path_modifier(r, u->get("path"), f + ".path");
}

void read_extension(ManifestReader& r, const YamlValue* ext, const std::string& f, RouteFilter& filter) {
  if (!r.check(ext, f, {"group", "kind", "name"})) return;
  filter.extension_ref.where = ext->where;
  filter.extension_ref.group = r.str(ext->get("group"), f + ".group");
  filter.extension_ref.kind = r.str(ext->get("kind"), f + ".kind");
  filter.extension_ref.name = r.str(ext->get("name"), f + ".name");
  filter.extension = filter.extension_ref.kind + " " + filter.extension_ref.name;
}

// What each kind does to the request on its way to the backend (apply_filters).
struct FilterInput {
  const Manifests& m;
  const GatewayModel& g;
  const HttpRoute& route;
  const RouteMatch& matched;
  const HttpRequest& request;  // as it reached the Gateway
};

void apply_header_modifier(const FilterInput&, const RouteFilter& f, FilterEffect& e) {
  HttpRequest& up = e.upstream;
  const auto same = [](const std::string& x) { return [x](const auto& kv) { return lower(kv.first) == lower(x); }; };
  for (const auto& [name, value] : f.headers.set) {
    std::erase_if(up.headers, same(name));
    up.headers.emplace_back(name, value);
  }
  for (const auto& [name, value] : f.headers.add) {
    const auto it = std::find_if(up.headers.begin(), up.headers.end(), same(name));
    if (it == up.headers.end()) up.headers.emplace_back(name, value);
    else it->second += "," + value;
  }
  for (const auto& name : f.headers.remove) std::erase_if(up.headers, same(name));
  e.reasons.push_back(fmt::format("RequestHeaderModifier ({}): set {}, add {}, remove {}", where_text(f.where), f.headers.set.size(),
                                  f.headers.add.size(), f.headers.remove.size()));
}

void apply_response_header_modifier(const FilterInput&, const RouteFilter& f, FilterEffect& e) {
  e.reasons.push_back(fmt::format("ResponseHeaderModifier ({}) changes the response's headers, not the request's", where_text(f.where)));
}

void apply_mirror(const FilterInput& in, const RouteFilter& f, FilterEffect& e) {
  const std::string& route_ns = in.route.meta.ns;
  const std::string ns = f.mirror.ref.ns.empty() ? route_ns : f.mirror.ref.ns;
  BackendChoice c;
  c.service = ns + "/" + f.mirror.ref.name;
  c.port = f.mirror.port;
  const auto found = in.g.service_index.find(c.service);
  if (f.mirror.ref.kind != "Service") {
    c.valid = false;
    c.problem = "InvalidKind: " + f.mirror.ref.kind;
  } else if (ns != route_ns && !grant_allows(in.m, "HTTPRoute", "gateway.networking.k8s.io", route_ns, "Service", ns, f.mirror.ref.name)) {
    c.valid = false;
    c.problem = "RefNotPermitted: no ReferenceGrant in namespace " + ns;
  } else if (found == in.g.service_index.end()) {
    c.valid = false;
    c.problem = "BackendNotFound: no Service " + c.service;
  }
  e.reasons.push_back(fmt::format("RequestMirror ({}): a copy of the request goes to Service {} port {}, its responses ignored{}",
                                  where_text(f.where), c.service, c.port, c.valid ? "" : " -- but " + c.problem));
  e.mirrors.push_back(std::move(c));
}

// The redirect itself is answered after every filter has run (apply_redirect).
void apply_redirect_filter(const FilterInput&, const RouteFilter& f, FilterEffect& e) { e.redirect = &f; }

void apply_url_rewrite(const FilterInput& in, const RouteFilter& f, FilterEffect& e) {
  HttpRequest& up = e.upstream;
  if (!f.hostname.empty()) {
    up.host = lower(f.hostname);
    for (auto& [name, value] : up.headers) {
      if (lower(name) == "host") value = f.hostname;
    }
  }
  if (f.path.type == PathModifier::Type::kReplaceFullPath) up.path = f.path.value.empty() ? "/" : f.path.value;
  if (f.path.type == PathModifier::Type::kReplacePrefixMatch) up.path = replace_prefix_match(in.matched.path.value, f.path.value, up.path);
  e.reasons.push_back(fmt::format("URLRewrite ({}): Host {} -> {}, path {} -> {}", where_text(f.where), in.request.host, up.host,
                                  in.request.path, up.path));
}

void apply_extension(const FilterInput& in, const RouteFilter& f, FilterEffect& e) {
  const ObjectRef& ref = f.extension_ref;
  if (is_traefik_middleware(ref)) {
    const std::string ns = in.route.meta.ns;
    if (const AuthPolicy* p = in.m.find_auth_policy("Middleware", ns, ref.name)) {
      e.reasons.push_back(fmt::format("filter ExtensionRef Middleware {}/{} ({}): forwardAuth to {} ({}) before the backends: "
                                      "the authentication hop",
                                      ns, ref.name, where_text(f.where), p->address, where_text(p->where)));
      return;
    }
    const bool other = std::any_of(in.m.unknown.begin(), in.m.unknown.end(), [&](const UnknownObject& u) {
      return u.meta.kind == "Middleware" && u.meta.ns == ns && u.meta.name == ref.name;
    });
    if (!other) {
      // Gateway API HTTPRouteFilter: "If a reference to a custom filter type cannot be resolved,
      // the filter MUST NOT be skipped. Instead, requests that would have been processed by that
      // filter MUST receive a HTTP error response."
      e.failed = fmt::format("filter ExtensionRef Middleware {} ({}) resolves to nothing: no Middleware {}/{} (an ExtensionRef names "
                             "an object in the route's own namespace); the filter is not skipped: 500",
                             ref.name, where_text(f.where), ns, ref.name);
      e.reasons.push_back(e.failed);
      return;
    }
  }
  e.responds = true;
  e.reasons.push_back(fmt::format("filter ExtensionRef {} ({}) runs before the backends (implementation-specific, not modelled)",
                                  f.extension, where_text(f.where)));
}

// The filter kinds, in the order the reader's message lists them.
struct FilterKind {
  F type;
  const char* name;   // the type as written
  const char* field;  // the field that configures it
  bool repeatable;    // a rule may hold it more than once
  void (*read)(ManifestReader& r, const YamlValue* config, const std::string& field, RouteFilter& filter);
  void (*apply)(const FilterInput& in, const RouteFilter& f, FilterEffect& e);
};

constexpr FilterKind kFilterKinds[] = {
    {F::kRequestHeaderModifier, "RequestHeaderModifier", "requestHeaderModifier", false, read_header_modifier, apply_header_modifier},
    {F::kResponseHeaderModifier, "ResponseHeaderModifier", "responseHeaderModifier", false, read_header_modifier,
     apply_response_header_modifier},
    {F::kRequestMirror, "RequestMirror", "requestMirror", true, read_mirror, apply_mirror},
    {F::kRequestRedirect, "RequestRedirect", "requestRedirect", false, read_redirect, apply_redirect_filter},
    {F::kUrlRewrite, "URLRewrite", "urlRewrite", false, read_url_rewrite, apply_url_rewrite},
    {F::kExtensionRef, "ExtensionRef", "extensionRef", true, read_extension, apply_extension},
};

// Fields of HTTPRouteFilter the model reads no kind for (the schema check accepts them).
constexpr const char* kUnmodelledFields[] = {"cors", "externalAuth"};

// Kinds a rule may not hold together (IncompatibleFilters).
constexpr std::pair<F, F> kIncompatible[] = {{F::kUrlRewrite, F::kRequestRedirect}};

// Every RouteFilter::Type has its row.
const FilterKind& kind_of(F type) {
  return *std::find_if(std::begin(kFilterKinds), std::end(kFilterKinds), [&](const FilterKind& k) { return k.type == type; });
}

}  // namespace

RouteFilter read_filter(ManifestReader& r, const YamlValue& x, const std::string& f) {
  RouteFilter filter;
  filter.where = x.where;
  std::vector<const char*> fields{"type"};
  for (const FilterKind& k : kFilterKinds) fields.push_back(k.field);
  fields.insert(fields.end(), std::begin(kUnmodelledFields), std::end(kUnmodelledFields));
  r.check(&x, f, fields);
  filter.type_name = r.str(x.get("type"), f + ".type");
  const auto* kind = std::find_if(std::begin(kFilterKinds), std::end(kFilterKinds),
                                  [&](const FilterKind& k) { return filter.type_name == k.name; });
  if (kind == std::end(kFilterKinds)) {
    std::string names;
    for (std::size_t i = 0; i < std::size(kFilterKinds); ++i) {
      names += (i == 0 ? "" : (i + 1 == std::size(kFilterKinds) ? " or " : ", ")) + std::string(kFilterKinds[i].name);
    }
    r.error(x.where, f + ".type", "expected " + names + ", got '" + filter.type_name + "'");
    return filter;
  }
  filter.type = kind->type;
  kind->read(r, x.get(kind->field), f + "." + kind->field, filter);
  return filter;
}

std::optional<Condition> filters_invalid(const RouteRule& rule, std::size_t ri) {
  std::map<F, int> count;
  for (const auto& f : rule.filters) ++count[f.type];
  for (const auto& [a, b] : kIncompatible) {
    if (count[a] > 0 && count[b] > 0) {
      return Condition{"Accepted", false, "IncompatibleFilters",
                       fmt::format("rule {} ({}) has both {} and {}, which may not be combined", ri, where_text(rule.where),
                                   kind_of(a).name, kind_of(b).name)};
    }
  }
  for (const auto& f : rule.filters) {
    if (!kind_of(f.type).repeatable && count[f.type] > 1) {
      return Condition{"Accepted", false, "IncompatibleFilters",
                       fmt::format("rule {} ({}) has the filter {} {} times", ri, where_text(rule.where), f.type_name, count[f.type])};
    }
    if (f.path.type == PathModifier::Type::kReplacePrefixMatch) {
      for (const auto& match : rule.matches) {
        if (match.path.type != PathMatch::Type::kPathPrefix) {
          return Condition{"Accepted", false, "UnsupportedValue",
                           fmt::format("rule {} ({}): ReplacePrefixMatch is only compatible with a PathPrefix match, not {}", ri,
                                       where_text(f.where), describe_match(match))};
        }
      }
    }
  }
  return std::nullopt;
}

std::vector<const BackendRef*> filter_backends(const RouteRule& rule) {
  std::vector<const BackendRef*> out;
  for (const auto& f : rule.filters) {
    if (f.type == F::kRequestMirror) out.push_back(&f.mirror);
  }
  return out;
}

FilterEffect apply_filters(const Manifests& m, const GatewayModel& g, const HttpRoute& route, const RouteRule& rule,
                           const RouteMatch& matched, const HttpRequest& request) {
  FilterEffect e;
  e.upstream = request;
  const FilterInput in{m, g, route, matched, request};
  for (const RouteFilter& f : rule.filters) kind_of(f.type).apply(in, f, e);
  return e;
}

void apply_redirect(const RouteFilter& redirect, const HttpRequest& r, const RouteMatch& matched, int listener_port, RouteDecision& d) {
  const std::string scheme = redirect.scheme.empty() ? r.scheme : redirect.scheme;
  const int port = redirect.port != 0 ? redirect.port : (!redirect.scheme.empty() ? (scheme == "https" ? 443 : 80) : listener_port);
  std::string path = r.path;
  if (redirect.path.type == PathModifier::Type::kReplaceFullPath) path = redirect.path.value.empty() ? "/" : redirect.path.value;
  if (redirect.path.type == PathModifier::Type::kReplacePrefixMatch) path = replace_prefix_match(matched.path.value, redirect.path.value, path);
  const bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  d.location = scheme + "://" + (redirect.hostname.empty() ? r.host : lower(redirect.hostname)) +
               (default_port ? "" : ":" + std::to_string(port)) + path;
  for (std::size_t i = 0; i < r.query.size(); ++i) d.location += (i ? "&" : "?") + r.query[i].first + "=" + r.query[i].second;
  d.status = redirect.status_code;
  d.outcome = RouteOutcome::kRedirect;
  d.reasons.push_back(fmt::format("RequestRedirect ({}): {} Location: {} (no backend is called)", where_text(redirect.where),
                                  redirect.status_code, d.location));
}

bool is_traefik_middleware(const ObjectRef& ref) {
  return ref.kind == "Middleware" && (ref.group == "traefik.io" || ref.group == "traefik.containo.us");
}

std::string replace_prefix_match(const std::string& prefix, const std::string& replacement, const std::string& path) {
  std::string p = prefix;
  while (!p.empty() && p.back() == '/') p.pop_back();
  std::string v = replacement;
  while (!v.empty() && v.back() == '/') v.pop_back();
  const std::string rest = path.starts_with(p) ? path.substr(p.size()) : path;
  std::string out = v + rest;
  return out.empty() ? "/" : out;
}

}  // namespace ct
