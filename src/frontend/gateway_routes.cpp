#include "frontend/gateway_routes.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/suggest.h"
#include "core/text.h"
#include "frontend/auth_coverage.h"
#include "frontend/gateway_filters.h"

namespace ct {
namespace {

bool is_wildcard(const std::string& h) { return h.starts_with("*."); }

// Intersection of a listener hostname and a route hostname: the more specific of the two when one
// covers the other, else empty (no intersection). "" is any.
std::optional<std::string> intersect(const std::string& listener, const std::string& route) {
  if (listener.empty()) return route;
  if (route.empty()) return listener;
  if (hostname_matches(listener, route) || listener == route) return route;
  if (hostname_matches(route, listener)) return listener;
  if (is_wildcard(listener) && is_wildcard(route)) {
    if (route.substr(1).ends_with(listener.substr(1))) return route;
    if (listener.substr(1).ends_with(route.substr(1))) return listener;
  }
  return std::nullopt;
}

Condition cond(std::string type, bool status, std::string reason, std::string message = "") {
  return {std::move(type), status, std::move(reason), std::move(message)};
}

bool http_protocol(const std::string& p) { return p == "HTTP" || p == "HTTPS"; }


bool namespace_allowed(const Manifests& m, const Listener& l, const std::string& gateway_ns, const std::string& route_ns) {
  if (l.allowed_from == "All") return true;
  if (l.allowed_from == "Same") return route_ns == gateway_ns;
  const Namespace* ns = m.find_namespace(route_ns);
  Labels labels = ns ? ns->meta.labels : Labels{};
  labels["kubernetes.io/metadata.name"] = route_ns;  // set by the API server on every Namespace
  return l.allowed_selector.matches(labels);
}

bool kind_allowed(const Listener& l) {
  if (!l.allowed_kinds.empty()) {
    return std::find(l.allowed_kinds.begin(), l.allowed_kinds.end(), "HTTPRoute") != l.allowed_kinds.end();
  }
  return http_protocol(l.protocol);
}

// Strict weak order of the precedence rules (see the header).
bool precedes(const Manifests& m, const RouteEntry& a, const RouteEntry& b) {
  const auto& ra = m.routes[a.route].meta;
  const auto& rb = m.routes[b.route].meta;
  const auto key = [](const RouteEntry& e) {
    return std::make_tuple(!e.host_exact, ~e.host_length, !e.path_exact, !e.path_regex, ~e.path_length, !e.has_method, ~e.headers,
                           ~e.query);
  };
  if (key(a) != key(b)) return key(a) < key(b);
  // Oldest first; an unknown timestamp sorts after every known one.
  const std::string ta = ra.creation_timestamp.empty() ? "~" : ra.creation_timestamp;
  const std::string tb = rb.creation_timestamp.empty() ? "~" : rb.creation_timestamp;
  if (ta != tb) return ta < tb;
  const std::string na = ra.ns + "/" + ra.name, nb = rb.ns + "/" + rb.name;
  if (na != nb) return na < nb;
  return std::tie(a.rule, a.match) < std::tie(b.rule, b.match);
}

// Every path `inner` matches, `outer` matches too (sound, not complete: a regular expression covers
// only the same expression, and is covered only by it and by PathPrefix "/", which every path has).
bool path_covers(const PathMatch& outer, const PathMatch& inner) {
  using T = PathMatch::Type;
  if (outer.type == T::kExact) return inner.type == T::kExact && inner.value == outer.value;
  if (outer.type == T::kRegularExpression) return inner.type == T::kRegularExpression && inner.value == outer.value;
  if (inner.type == T::kExact || inner.type == T::kPathPrefix) return path_prefix_matches(outer.value, inner.value);
  return path_prefix_matches(outer.value, "/");
}

bool subset(const std::vector<NameValue>& small, const std::vector<NameValue>& big, bool case_insensitive_names) {
  return std::all_of(small.begin(), small.end(), [&](const NameValue& s) {
    return std::any_of(big.begin(), big.end(), [&](const NameValue& b) {
      const bool name = case_insensitive_names ? lower(s.name) == lower(b.name) : s.name == b.name;
      return name && s.value == b.value && s.type == b.type;
    });
  });
}

// Every request `inner` matches, `outer` matches too.
bool match_covers(const RouteMatch& outer, const RouteMatch& inner) {
  return path_covers(outer.path, inner.path) && (outer.method.empty() || outer.method == inner.method) &&
         subset(outer.headers, inner.headers, true) && subset(outer.query, inner.query, false);
}

bool value_matches(const NameValue& condition, const std::string& value) {
  if (condition.regex) return condition.regex->ok() && condition.regex->full_match(value);
  return condition.value == value;
}

bool match_accepts(const RouteMatch& match, const HttpRequest& r) {
  using T = PathMatch::Type;
  if (match.path.type == T::kExact && match.path.value != r.path) return false;
  if (match.path.type == T::kPathPrefix && !path_prefix_matches(match.path.value, r.path)) return false;
  if (match.path.type == T::kRegularExpression && !(match.path.regex && match.path.regex->ok() && match.path.regex->full_match(r.path))) {
    return false;
  }
  if (!match.method.empty() && match.method != r.method) return false;
  std::vector<std::string> seen;
  for (const auto& h : match.headers) {
    const std::string name = lower(h.name);
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;  // only the first entry counts
    seen.push_back(name);
    const auto it = std::find_if(r.headers.begin(), r.headers.end(), [&](const auto& kv) { return lower(kv.first) == name; });
    if (it == r.headers.end() || !value_matches(h, it->second)) return false;
  }
  for (const auto& q : match.query) {
    const auto it = std::find_if(r.query.begin(), r.query.end(), [&](const auto& kv) { return kv.first == q.name; });
    if (it == r.query.end() || !value_matches(q, it->second)) return false;
  }
  return true;
}

}  // namespace

namespace {

// Why a conformant controller would not accept the route at all (Accepted False), if it would not:
// the regular expressions' syntax and the filter rules (gateway_filters.h).
std::optional<Condition> route_invalid(const HttpRoute& route) {
  for (std::size_t ri = 0; ri < route.rules.size(); ++ri) {
    const RouteRule& rule = route.rules[ri];
    for (const auto& match : rule.matches) {
      std::vector<const RouteRegex*> regexes;
      if (match.path.regex) regexes.push_back(match.path.regex.get());
      for (const auto& h : match.headers) regexes.push_back(h.regex.get());
      for (const auto& q : match.query) regexes.push_back(q.regex.get());
      for (const RouteRegex* re : regexes) {
        if (re != nullptr && !re->ok()) {
          return cond("Accepted", false, "UnsupportedValue",
                      fmt::format("rule {} ({}): RE2 cannot compile a regular expression: {}", ri, where_text(match.where), re->error()));
        }
      }
    }
    if (auto invalid = filters_invalid(rule, ri)) return invalid;
  }
  return std::nullopt;
}

// Conflicted: another listener of the Gateway on the same port with an incompatible protocol, or
// with the same hostname.
Condition listener_conflict(const Gateway& g, std::size_t li) {
  const Listener& l = g.listeners[li];
  std::string conflict, conflict_msg;
  for (std::size_t o = 0; o < g.listeners.size(); ++o) {
    const Listener& x = g.listeners[o];
    if (o == li || x.port != l.port) continue;
    const bool compatible = (http_protocol(l.protocol) && http_protocol(x.protocol) && l.protocol == x.protocol) ||
                            (l.protocol == "TLS" && x.protocol == "HTTPS") || (l.protocol == "HTTPS" && x.protocol == "TLS");
    if (!compatible) {
      conflict = "ProtocolConflict";
      conflict_msg = fmt::format("port {} also has listener '{}' with protocol {}", l.port, x.name, x.protocol);
    } else if (lower(x.hostname) == lower(l.hostname) && conflict.empty()) {
      conflict = "HostnameConflict";
      conflict_msg = fmt::format("listener '{}' has the same port {} and hostname '{}'", x.name, l.port, l.hostname);
    }
  }
  if (conflict.empty()) return cond("Conflicted", false, "NoConflicts");
  return cond("Conflicted", true, conflict, conflict_msg);
}

// ResolvedRefs: the certificate references of a TLS-terminating listener (a Secret that exists,
// or that cert-manager issues; another namespace's only through a ReferenceGrant).
Condition listener_refs(const Manifests& m, const Gateway& g, const Listener& l) {
  const bool cert_manager = g.meta.annotations.contains("cert-manager.io/issuer") ||
                            g.meta.annotations.contains("cert-manager.io/cluster-issuer");
  std::string refs_reason = "ResolvedRefs", refs_msg;
  if (l.protocol == "HTTPS" && l.tls_mode == "Terminate" && l.certificate_refs.empty()) {
    refs_reason = "InvalidCertificateRef";
    refs_msg = "an HTTPS listener that terminates TLS needs tls.certificateRefs";
  }
  for (const auto& ref : l.certificate_refs) {
    const std::string ns = ref.ns.empty() ? g.meta.ns : ref.ns;
    if (ref.kind != "Secret" || !ref.group.empty()) {
      refs_reason = "InvalidCertificateRef";
      refs_msg = fmt::format("certificateRef kind {} is not a core Secret", ref.kind);
    } else if (ns != g.meta.ns && !grant_allows(m, "Gateway", "gateway.networking.k8s.io", g.meta.ns, "Secret", ns, ref.name)) {
      refs_reason = "RefNotPermitted";
      refs_msg = fmt::format("Secret {}/{} is in another namespace and no ReferenceGrant there allows it", ns, ref.name);
    } else if (!m.find_secret(ns, ref.name) && !m.certificate_for_secret(ns, ref.name) && !(cert_manager && ns == g.meta.ns)) {
      refs_reason = "InvalidCertificateRef";
      refs_msg = fmt::format("Secret {}/{} does not exist and no Certificate issues it", ns, ref.name);
    }
  }
  return cond("ResolvedRefs", refs_reason == "ResolvedRefs", refs_reason, refs_msg);
}

// The Gateway's listeners' statuses (appended to out.listeners) and its own conditions: Accepted
// stays True with reason ListenersNotValid when some listeners are invalid ("This can be the
// reason when 'Accepted' is 'True' or 'False'"), and Programmed is True while at least one
// listener is programmed.
void gateway_status(const Manifests& m, std::size_t gi, GatewayModel& out) {
  const Gateway& g = m.gateways[gi];
  const std::size_t first = out.listeners.size();
  std::vector<Condition> gc;
  const bool has_class = std::any_of(m.gateway_classes.begin(), m.gateway_classes.end(),
                                     [&](const GatewayClass& c) { return c.meta.name == g.class_name; });
  if (has_class) gc.push_back(cond("Accepted", true, "Accepted"));
  else gc.push_back(cond("Accepted", false, "Pending", "GatewayClass '" + g.class_name + "' not found"));
  for (std::size_t li = 0; li < g.listeners.size(); ++li) {
    ListenerStatus ls{gi, li, {}, 0};
    ls.conditions.push_back(cond("Accepted", true, "Accepted"));
    ls.conditions.push_back(listener_conflict(g, li));
    ls.conditions.push_back(listener_refs(m, g, g.listeners[li]));
    const bool ok = !ls.conditions[1].status && ls.conditions[2].status && has_class;
    ls.conditions.push_back(cond("Programmed", ok, ok ? "Programmed" : "Invalid"));
    out.listeners.push_back(std::move(ls));
  }
  const std::size_t programmed = static_cast<std::size_t>(std::count_if(
      out.listeners.begin() + static_cast<std::ptrdiff_t>(first), out.listeners.end(),
      [](const ListenerStatus& x) { return x.programmed(); }));
  if (has_class && programmed < g.listeners.size()) {
    gc.front() = cond("Accepted", true, "ListenersNotValid",
                      fmt::format("{} of {} listener(s) are invalid", g.listeners.size() - programmed, g.listeners.size()));
  }
  if (!has_class) gc.push_back(cond("Programmed", false, "Pending", "waiting for the GatewayClass"));
  else if (programmed > 0) gc.push_back(cond("Programmed", true, "Programmed"));
  else gc.push_back(cond("Programmed", false, "Invalid", "no listener is programmed"));
  out.gateway_conditions.push_back(std::move(gc));
}

// ResolvedRefs of a route (its rules' backendRefs and the filters' backends): the first reference
// that does not resolve. A property of the route, reported under every parent.
Condition route_refs(const Manifests& m, const GatewayModel& out, const HttpRoute& route) {
  Condition refs = cond("ResolvedRefs", true, "ResolvedRefs");
  for (const auto& rule : route.rules) {
    std::vector<const BackendRef*> refs_of_rule;
    for (const auto& b : rule.backends) refs_of_rule.push_back(&b);
    for (const BackendRef* b : filter_backends(rule)) refs_of_rule.push_back(b);
    for (const BackendRef* bp : refs_of_rule) {
      const BackendRef& b = *bp;
      const std::string ns = b.ref.ns.empty() ? route.meta.ns : b.ref.ns;
      const auto found = out.service_index.find(ns + "/" + b.ref.name);
      const Service* s = found == out.service_index.end() ? nullptr : &m.services[found->second];
      std::string reason, msg;
      if (b.ref.kind != "Service" || !b.ref.group.empty()) {
        reason = "InvalidKind";
        msg = fmt::format("backendRef kind {} is not supported", b.ref.kind);
      } else if (ns != route.meta.ns &&
                 !grant_allows(m, "HTTPRoute", "gateway.networking.k8s.io", route.meta.ns, "Service", ns, b.ref.name)) {
        reason = "RefNotPermitted";
        msg = fmt::format("Service {}/{} is in another namespace and no ReferenceGrant there allows it", ns, b.ref.name);
      } else if (s == nullptr) {
        reason = "BackendNotFound";
        msg = fmt::format("Service {}/{} not found", ns, b.ref.name);
      } else if (std::none_of(s->ports.begin(), s->ports.end(), [&](const ServicePort& p) { return p.port == b.port; })) {
        reason = "BackendNotFound";
        msg = fmt::format("Service {}/{} has no port {}", ns, b.ref.name, b.port);
      }
      if (!reason.empty() && refs.status) refs = cond("ResolvedRefs", false, reason, msg);
    }
  }
  return refs;
}

// The listeners of Gateway gi that parentRef p selects and that take the route, with the
// hostnames they share; `relevant` and `allowed` say whether any listener was selected, and
// whether any of those allowed the route's kind and namespace.
std::vector<ListenerAttachment> attachments(const Manifests& m, const HttpRoute& route, const ParentRef& p, std::size_t gi,
                                            bool& relevant, bool& allowed) {
  std::vector<ListenerAttachment> out;
  const Gateway& g = m.gateways[gi];
  for (std::size_t li = 0; li < g.listeners.size(); ++li) {
    const Listener& l = g.listeners[li];
    if (!p.section.empty() && l.name != p.section) continue;
    if (p.port != 0 && l.port != p.port) continue;
    relevant = true;
    if (!kind_allowed(l) || !namespace_allowed(m, l, g.meta.ns, route.meta.ns)) continue;
    allowed = true;
    ListenerAttachment a{gi, li, {}};
    if (route.hostnames.empty()) {
      a.hostnames.push_back(lower(l.hostname));
    } else {
      for (const auto& h : route.hostnames) {
        if (auto x = intersect(lower(l.hostname), lower(h))) {
          if (std::find(a.hostnames.begin(), a.hostnames.end(), *x) == a.hostnames.end()) a.hostnames.push_back(*x);
        }
      }
    }
    if (!a.hostnames.empty()) out.push_back(std::move(a));
  }
  return out;
}

// The status of one parentRef of a route: Accepted (or why not) and the listeners it attaches to,
// then the route's ResolvedRefs.
RouteParentStatus parent_status(const Manifests& m, std::size_t ri, std::size_t pi, const std::optional<Condition>& invalid,
                                const Condition& refs) {
  const HttpRoute& route = m.routes[ri];
  const ParentRef& p = route.parents[pi];
  RouteParentStatus ps{ri, pi, {}, {}};
  const std::string gns = p.ref.ns.empty() ? route.meta.ns : p.ref.ns;
  std::size_t gi = m.gateways.size();
  for (std::size_t g = 0; g < m.gateways.size(); ++g) {
    if (m.gateways[g].meta.ns == gns && m.gateways[g].meta.name == p.ref.name) gi = g;
  }
  if (p.ref.kind != "Gateway") {
    ps.conditions.push_back(cond("Accepted", false, "NoMatchingParent", "parentRef kind " + p.ref.kind + " is not a Gateway"));
  } else if (gi == m.gateways.size()) {
    ps.conditions.push_back(cond("Accepted", false, "NoMatchingParent", fmt::format("Gateway {}/{} not found", gns, p.ref.name)));
  } else {
    bool relevant = false, allowed = false;
    ps.attachments = attachments(m, route, p, gi, relevant, allowed);
    if (!relevant) {
      ps.conditions.push_back(cond("Accepted", false, "NoMatchingParent",
                                   fmt::format("Gateway {}/{} has no listener{}{}", gns, p.ref.name,
                                               p.section.empty() ? "" : " named '" + p.section + "'",
                                               p.port ? fmt::format(" on port {}", p.port) : "")));
    } else if (!allowed) {
      ps.conditions.push_back(cond("Accepted", false, "NotAllowedByListeners",
                                   fmt::format("no listener of Gateway {}/{} allows HTTPRoutes from namespace '{}'", gns,
                                               p.ref.name, route.meta.ns)));
    } else if (ps.attachments.empty()) {
      ps.conditions.push_back(cond("Accepted", false, "NoMatchingListenerHostname",
                                   "no hostname of the route intersects a listener hostname"));
    } else if (invalid) {
      ps.conditions.push_back(*invalid);
    } else {
      ps.conditions.push_back(cond("Accepted", true, "Accepted"));
    }
  }
  ps.conditions.push_back(refs);
  return ps;
}

// One entry per (hostname, rule, match) of route ri on a listener it attaches to.
void add_entries(const HttpRoute& route, std::size_t ri, const std::vector<std::string>& hostnames, ListenerTable& table) {
  for (const auto& host : hostnames) {
    for (std::size_t rule = 0; rule < route.rules.size(); ++rule) {
      for (std::size_t mi = 0; mi < route.rules[rule].matches.size(); ++mi) {
        const RouteMatch& match = route.rules[rule].matches[mi];
        RouteEntry e;
        e.route = ri;
        e.rule = rule;
        e.match = mi;
        e.hostname = host;
        e.host_exact = !host.empty() && !is_wildcard(host);
        e.host_length = host.size();
        e.path_exact = match.path.type == PathMatch::Type::kExact;
        e.path_regex = match.path.type == PathMatch::Type::kRegularExpression;
        e.path_length = e.path_exact ? 0 : match.path.value.size();
        e.has_method = !match.method.empty();
        e.headers = match.headers.size();
        e.query = match.query.size();
        table.entries.push_back(std::move(e));
      }
    }
  }
}

// Orders a listener's entries by precedence and indexes them by hostname.
void index_table(const Manifests& m, ListenerTable& table) {
  auto& es = table.entries;
  std::stable_sort(es.begin(), es.end(), [&](const RouteEntry& a, const RouteEntry& b) { return precedes(m, a, b); });
  // Hostname is the first key, so each hostname's entries are contiguous... per (exact, length)
  // class; group them by hostname with a stable partition inside each class.
  std::stable_sort(es.begin(), es.end(), [](const RouteEntry& a, const RouteEntry& b) {
    return std::make_tuple(!a.host_exact, ~a.host_length, a.hostname) < std::make_tuple(!b.host_exact, ~b.host_length, b.hostname);
  });
  for (std::uint32_t i = 0; i < es.size();) {
    std::uint32_t j = i;
    while (j < es.size() && es[j].hostname == es[i].hostname) ++j;
    if (es[i].hostname.empty()) table.any = {i, j};
    else if (is_wildcard(es[i].hostname)) table.wildcard[es[i].hostname.substr(1)] = {i, j};
    else table.exact[es[i].hostname] = {i, j};
    i = j;
  }
}

// The rules of an indexed table that no request reaches: every match is covered by an earlier
// entry of another rule for the same hostname (entries of one hostname are contiguous, so only
// that range is searched).
void find_shadowed(const Manifests& m, const ListenerTable& table, std::vector<ShadowedRule>& shadowed) {
  const auto& es = table.entries;
  std::map<std::pair<std::size_t, std::size_t>, std::pair<std::size_t, std::size_t>> shadow_of;  // (route, rule) -> by
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> unshadowed;
  std::size_t group_begin = 0;
  for (std::size_t j = 0; j < es.size(); ++j) {
    if (es[j].hostname != es[group_begin].hostname) group_begin = j;
    const RouteMatch& mj = m.routes[es[j].route].rules[es[j].rule].matches[es[j].match];
    bool found = false;
    for (std::size_t i = group_begin; i < j && !found; ++i) {
      if (es[i].route == es[j].route && es[i].rule == es[j].rule) continue;
      const RouteMatch& mi = m.routes[es[i].route].rules[es[i].rule].matches[es[i].match];
      if (match_covers(mi, mj)) {
        shadow_of.emplace(std::make_pair(es[j].route, es[j].rule), std::make_pair(es[i].route, es[i].rule));
        found = true;
      }
    }
    if (!found) ++unshadowed[{es[j].route, es[j].rule}];
  }
  for (const auto& [rr, by] : shadow_of) {
    if (unshadowed.contains(rr)) continue;
    shadowed.push_back({rr.first, rr.second, by.first, by.second, listener_label(m, table.gateway, table.listener)});
  }
}

}  // namespace

GatewayModel build_gateway_model(const Manifests& m) {
  GatewayModel out;
  for (std::size_t i = 0; i < m.services.size(); ++i) out.service_index.emplace(m.services[i].meta.ns + "/" + m.services[i].meta.name, i);
  std::vector<std::size_t> first_listener(m.gateways.size() + 1, 0);
  for (std::size_t gi = 0; gi < m.gateways.size(); ++gi) {
    first_listener[gi] = out.listeners.size();
    gateway_status(m, gi, out);
  }
  first_listener[m.gateways.size()] = out.listeners.size();
  out.tables.resize(out.listeners.size());
  for (std::size_t i = 0; i < out.listeners.size(); ++i) {
    out.tables[i].gateway = out.listeners[i].gateway;
    out.tables[i].listener = out.listeners[i].listener;
  }
  // Route attachment and references; an accepted parent's listeners get the route's entries.
  std::vector<bool> accepted_somewhere(m.routes.size(), false);
  for (std::size_t ri = 0; ri < m.routes.size(); ++ri) {
    const HttpRoute& route = m.routes[ri];
    const Condition refs = route_refs(m, out, route);
    const std::optional<Condition> invalid = route_invalid(route);
    for (std::size_t pi = 0; pi < route.parents.size(); ++pi) {
      RouteParentStatus ps = parent_status(m, ri, pi, invalid, refs);
      if (ps.accepted()) {
        accepted_somewhere[ri] = true;
        for (const auto& a : ps.attachments) {
          const std::size_t t = first_listener[a.gateway] + a.listener;
          ++out.listeners[t].attached_routes;
          add_entries(route, ri, a.hostnames, out.tables[t]);
        }
      }
      out.parents.push_back(std::move(ps));
    }
  }
  for (std::size_t ri = 0; ri < m.routes.size(); ++ri) {
    if (!accepted_somewhere[ri]) out.unattached_routes.push_back(ri);
  }
  for (auto& table : out.tables) {
    index_table(m, table);
    find_shadowed(m, table, out.shadowed);
  }
  cover_rules_with_auth(m, out);
  return out;
}

Result<HttpRequest> parse_request(const std::string& text, const std::vector<std::string>& headers, int port) {
  HttpRequest r;
  std::string url = text;
  if (const auto sp = text.find(' '); sp != std::string::npos) {
    r.method = text.substr(0, sp);
    url = text.substr(sp + 1);
    while (!url.empty() && url.front() == ' ') url.erase(0, 1);
  }
  const auto bad = [&](const std::string& why) { return Diagnostic{{"command line", 0, 0}, "--request", why + ": '" + text + "'"}; };
  const auto colon = url.find("://");
  if (colon == std::string::npos) return bad("expected [METHOD] http(s)://host[:port]/path[?query]");
  r.scheme = lower(url.substr(0, colon));
  if (r.scheme != "http" && r.scheme != "https") return bad("the scheme must be http or https");
  std::string rest = url.substr(colon + 3);
  const auto slash = rest.find_first_of("/?");
  std::string authority = rest.substr(0, slash);
  std::string target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (target.front() == '?') target = "/" + target;
  r.port = r.scheme == "https" ? 443 : 80;
  if (const auto pc = authority.rfind(':'); pc != std::string::npos) {
    int p = 0;
    const std::string ps = authority.substr(pc + 1);
    auto [ptr, ec] = std::from_chars(ps.data(), ps.data() + ps.size(), p);
    if (ec != std::errc() || ptr != ps.data() + ps.size() || p < 1 || p > 65535) return bad("bad port in the URL");
    r.port = p;
    authority = authority.substr(0, pc);
  }
  if (authority.empty()) return bad("no host in the URL");
  if (port != 0) r.port = port;
  r.host = lower(authority);
  if (r.scheme == "https") r.sni = r.host;
  const auto q = target.find('?');
  r.path = target.substr(0, q);
  if (q != std::string::npos) {
    std::string qs = target.substr(q + 1);
    std::size_t start = 0;
    while (start <= qs.size()) {
      std::size_t amp = qs.find('&', start);
      if (amp == std::string::npos) amp = qs.size();
      const std::string kv = qs.substr(start, amp - start);
      if (!kv.empty()) {
        const auto eq = kv.find('=');
        r.query.emplace_back(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
      }
      start = amp + 1;
    }
  }
  for (const auto& h : headers) {
    const auto c = h.find(':');
    if (c == std::string::npos || c == 0) return Diagnostic{{"command line", 0, 0}, "-H", "expected 'Name: value', got '" + h + "'"};
    std::string value = h.substr(c + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    const std::string name = h.substr(0, c);
    if (lower(name) == "host") {
      std::string host = lower(value);
      if (const auto pc = host.rfind(':'); pc != std::string::npos) host = host.substr(0, pc);  // port in Host is ignored
      r.host = host;
    }
    r.headers.emplace_back(name, value);
  }
  return r;
}

namespace {

// The listener of `gateway` that takes `host` on (port, protocol): the most specific hostname.
std::optional<std::size_t> pick_listener(const Manifests& m, const GatewayModel& g, std::size_t gateway, int port,
                                         const std::string& protocol, const std::string& host) {
  std::optional<std::size_t> best;
  std::tuple<int, std::size_t> best_key{-1, 0};
  for (std::size_t i = 0; i < g.listeners.size(); ++i) {
    if (g.listeners[i].gateway != gateway) continue;
    const Listener& l = m.gateways[gateway].listeners[g.listeners[i].listener];
    if (l.port != port || l.protocol != protocol || !g.listeners[i].programmed()) continue;
    if (!hostname_matches(l.hostname, host)) continue;
    const std::tuple<int, std::size_t> key{l.hostname.empty() ? 0 : (is_wildcard(l.hostname) ? 1 : 2), l.hostname.size()};
    if (key > best_key) {
      best_key = key;
      best = i;
    }
  }
  return best;
}

std::string entry_host_text(const RouteEntry& e) {
  if (e.hostname.empty()) return "any hostname";
  return "hostname " + e.hostname + (e.host_exact ? " (exact)" : " (wildcard)");
}

// Why `a` precedes `b` (both match the request): the first criterion that differs.
std::string why_precedes(const Manifests& m, const RouteEntry& a, const RouteEntry& b) {
  const RouteMatch& ma = m.routes[a.route].rules[a.rule].matches[a.match];
  const RouteMatch& mb = m.routes[b.route].rules[b.rule].matches[b.match];
  const std::string A = fmt::format("{} rule {}", route_label(m, a.route), a.rule);
  const std::string B = fmt::format("{} rule {}", route_label(m, b.route), b.rule);
  if (a.hostname != b.hostname) return fmt::format("{} beats {} (the more specific hostname wins)", entry_host_text(a), entry_host_text(b));
  static const char* kTypes[] = {"Exact", "PathPrefix", "RegularExpression"};
  const char* ta = kTypes[static_cast<int>(ma.path.type)];
  const char* tb = kTypes[static_cast<int>(mb.path.type)];
  if (a.path_exact != b.path_exact) return fmt::format("Exact {} beats {} {} ({} over {})", ma.path.value, tb, mb.path.value, A, B);
  if (a.path_regex != b.path_regex) {
    return fmt::format("RegularExpression {} beats PathPrefix {} (this model ranks regular expressions after Exact, before "
                       "PathPrefix) ({} over {})", ma.path.value, mb.path.value, A, B);
  }
  if (a.path_length != b.path_length) {
    return fmt::format("{} {} ({} characters) beats {} {} ({}) ({} over {})", ta, ma.path.value, a.path_length, tb, mb.path.value,
                       b.path_length, A, B);
  }
  if (a.has_method != b.has_method) return fmt::format("a method match ({}) beats none ({} over {})", ma.method, A, B);
  if (a.headers != b.headers) return fmt::format("{} header matches beat {} ({} over {})", a.headers, b.headers, A, B);
  if (a.query != b.query) return fmt::format("{} query matches beat {} ({} over {})", a.query, b.query, A, B);
  const auto& ra = m.routes[a.route].meta;
  const auto& rb = m.routes[b.route].meta;
  if (a.route != b.route) {
    if (ra.creation_timestamp != rb.creation_timestamp) {
      return fmt::format("both routes match with equal specificity; the older one wins ({} created {}, {} created {})",
                         route_label(m, a.route), ra.creation_timestamp.empty() ? "unknown" : ra.creation_timestamp,
                         route_label(m, b.route), rb.creation_timestamp.empty() ? "unknown" : rb.creation_timestamp);
    }
    return fmt::format("both routes match with equal specificity and age; {} sorts before {} alphabetically",
                       route_label(m, a.route), route_label(m, b.route));
  }
  return fmt::format("same route, equal specificity: the first rule in list order wins (rule {} before rule {})", a.rule, b.rule);
}

// The Gateway that takes the request: the one the hint names, else the first with a listener on
// the request's port. False (status 0, the connection refused) when none.
bool pick_gateway(const Manifests& m, const HttpRequest& r, const std::string& hint, RouteDecision& d) {
  std::vector<std::size_t> candidates;
  for (std::size_t gi = 0; gi < m.gateways.size(); ++gi) {
    const Gateway& gw = m.gateways[gi];
    if (!hint.empty() && hint != gw.meta.name && hint != gw.meta.ns + "/" + gw.meta.name) continue;
    if (std::any_of(gw.listeners.begin(), gw.listeners.end(), [&](const Listener& l) { return l.port == r.port; })) {
      candidates.push_back(gi);
    }
  }
  if (candidates.empty()) {
    d.status = 0;
    d.outcome = RouteOutcome::kConnectionRefused;
    d.reasons.push_back(fmt::format("no Gateway{} has a listener on port {}: the connection is refused",
                                    hint.empty() ? "" : " named '" + hint + "'", r.port));
    return false;
  }
  d.has_gateway = true;
  d.gateway = candidates.front();
  const Gateway& gw = m.gateways[d.gateway];
  if (candidates.size() > 1) {
    d.reasons.push_back(fmt::format("{} Gateways listen on port {}; taking the first, {}/{} (pick one with --gateway)",
                                    candidates.size(), r.port, gw.meta.ns, gw.meta.name));
  }
  return true;
}

// Why each listener of the Gateway on the request's port did not take it: another protocol,
// another hostname, or not programmed (with the conditions that say why), so that no 404 or failed
// handshake comes without its reason.
void explain_no_listener(const Manifests& m, const GatewayModel& g, std::size_t gateway, int port, const std::string& protocol,
                         const std::string& host, std::vector<std::string>& reasons) {
  for (std::size_t i = 0; i < g.listeners.size(); ++i) {
    if (g.listeners[i].gateway != gateway) continue;
    const Listener& l = m.gateways[gateway].listeners[g.listeners[i].listener];
    if (l.port != port) continue;
    const std::string name = fmt::format("listener '{}' ({})", l.name, where_text(l.where));
    if (l.protocol != protocol) {
      reasons.push_back(fmt::format("{} on port {} is {}, not {}", name, port, l.protocol, protocol));
    } else if (!hostname_matches(l.hostname, host)) {
      reasons.push_back(fmt::format("{} takes hostname '{}' only", name, l.hostname));
    } else if (!g.listeners[i].programmed()) {
      std::vector<std::string> why;
      for (const Condition& c : g.gateway_conditions[gateway]) {
        if (c.type == "Accepted" && !c.status) why.push_back(fmt::format("Gateway Accepted=False ({}): {}", c.reason, c.message));
      }
      for (const Condition& c : g.listeners[i].conditions) {
        const bool bad = c.type == "Conflicted" ? c.status : !c.status;
        if (bad && c.type != "Programmed") {
          why.push_back(fmt::format("{}={} ({}){}", c.type, c.status ? "True" : "False", c.reason, c.message.empty() ? "" : ": " + c.message));
        }
      }
      reasons.push_back(fmt::format("{} would match but is not programmed: {}", name, fmt::join(why, "; ")));
    }
  }
}

// The listener of the Gateway: by SNI for HTTPS, by Host for HTTP. False when none takes the
// request (the TLS handshake fails, or 404) or when Host would pick another listener than SNI
// (421).
bool pick_request_listener(const Manifests& m, const GatewayModel& g, const HttpRequest& r, RouteDecision& d) {
  const Gateway& gw = m.gateways[d.gateway];
  const std::string protocol = r.scheme == "https" ? "HTTPS" : "HTTP";
  const std::string selector_host = r.scheme == "https" ? r.sni : r.host;
  const auto li = pick_listener(m, g, d.gateway, r.port, protocol, selector_host);
  if (!li) {
    d.status = r.scheme == "https" ? 0 : 404;
    d.outcome = r.scheme == "https" ? RouteOutcome::kTlsHandshakeFailed : RouteOutcome::kNotFound;
    d.reasons.push_back(fmt::format("no programmed {} listener of Gateway {}/{} on port {} matches {} '{}'{}", protocol,
                                    gw.meta.ns, gw.meta.name, r.port, r.scheme == "https" ? "SNI" : "Host", selector_host,
                                    r.scheme == "https" ? ": the TLS handshake fails" : ""));
    if (d.outcome == RouteOutcome::kTlsHandshakeFailed) {
      d.tls_error = fmt::format("no programmed HTTPS listener of Gateway {}/{} on port {} takes SNI '{}'", gw.meta.ns,
                                gw.meta.name, r.port, selector_host);
    }
    explain_no_listener(m, g, d.gateway, r.port, protocol, selector_host, d.reasons);
    return false;
  }
  d.has_listener = true;
  d.listener = *li;
  const Listener& l = gw.listeners[g.listeners[*li].listener];
  d.reasons.push_back(fmt::format("listener '{}' (port {}, {}, hostname '{}') takes {} '{}': {}", l.name, l.port, l.protocol,
                                  l.hostname.empty() ? "*any*" : l.hostname, r.scheme == "https" ? "SNI" : "Host",
                                  selector_host,
                                  l.hostname.empty() ? "no more specific listener matches"
                                                     : (is_wildcard(l.hostname) ? "the most specific wildcard that matches"
                                                                                : "an exact hostname beats wildcards")));
  if (r.scheme == "https" && r.host != r.sni) {
    const auto by_host = pick_listener(m, g, d.gateway, r.port, protocol, r.host);
    if (by_host != li) {
      d.status = 421;
      d.outcome = RouteOutcome::kMisdirected;
      d.reasons.push_back(fmt::format("Host '{}' differs from SNI '{}' and would select another listener: 421 Misdirected Request",
                                      r.host, r.sni));
      return false;
    }
    d.reasons.push_back(fmt::format("Host '{}' differs from SNI '{}' but selects the same listener", r.host, r.sni));
  }
  return true;
}

// The entry that takes the request (the first that accepts it, walking the hostname groups in
// precedence order) and, for the explanation, the best entry of another route that accepts it
// too (or else another rule of the same route).
struct Winner {
  const RouteEntry* entry = nullptr;
  const RouteEntry* runner_up = nullptr;
};

Winner find_winner(const Manifests& m, const ListenerTable& t, const HttpRequest& r) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  if (auto it = t.exact.find(r.host); it != t.exact.end()) ranges.push_back(it->second);
  for (std::size_t dot = r.host.find('.', 0); dot != std::string::npos; dot = r.host.find('.', dot + 1)) {
    if (auto it = t.wildcard.find(r.host.substr(dot)); it != t.wildcard.end() && dot > 0) ranges.push_back(it->second);
  }
  ranges.push_back(t.any);
  const RouteEntry* winner = nullptr;
  const RouteEntry* other_route = nullptr;
  const RouteEntry* same_route = nullptr;
  for (const auto& [b, e] : ranges) {
    for (std::uint32_t i = b; i < e && other_route == nullptr; ++i) {
      const RouteEntry& entry = t.entries[i];
      const RouteMatch& match = m.routes[entry.route].rules[entry.rule].matches[entry.match];
      if (!match_accepts(match, r)) continue;
      if (winner == nullptr) winner = &entry;
      else if (entry.route != winner->route) other_route = &entry;
      else if (entry.rule != winner->rule && same_route == nullptr) same_route = &entry;
    }
    if (other_route) break;
  }
  return {winner, other_route ? other_route : same_route};
}

// The rule's backendRefs, each with its share of the weight and why it is invalid, if it is.
// Returns the weight of the valid ones.
int resolve_backends(const Manifests& m, const GatewayModel& g, const HttpRoute& route, const RouteRule& rule, RouteDecision& d) {
  int total = 0;
  for (const auto& b : rule.backends) total += b.weight;
  int valid_weight = 0;
  for (std::size_t bi = 0; bi < rule.backends.size(); ++bi) {
    const BackendRef& b = rule.backends[bi];
    BackendChoice c;
    c.ref = bi;
    const std::string ns = b.ref.ns.empty() ? route.meta.ns : b.ref.ns;
    c.service = ns + "/" + b.ref.name;
    c.port = b.port;
    c.weight = b.weight;
    c.share = total > 0 ? static_cast<double>(b.weight) / total : 0;
    const auto found = g.service_index.find(ns + "/" + b.ref.name);
    const Service* s = found == g.service_index.end() ? nullptr : &m.services[found->second];
    if (b.ref.kind != "Service") {
      c.valid = false;
      c.problem = "InvalidKind: " + b.ref.kind;
    } else if (ns != route.meta.ns &&
               !grant_allows(m, "HTTPRoute", "gateway.networking.k8s.io", route.meta.ns, "Service", ns, b.ref.name)) {
      c.valid = false;
      c.problem = "RefNotPermitted: no ReferenceGrant in namespace " + ns;
    } else if (s == nullptr) {
      c.valid = false;
      c.problem = "BackendNotFound: no Service " + c.service;
    } else if (std::none_of(s->ports.begin(), s->ports.end(), [&](const ServicePort& p) { return p.port == b.port; })) {
      c.valid = false;
      c.problem = fmt::format("BackendNotFound: Service {} has no port {}", c.service, b.port);
    }
    if (c.valid) valid_weight += b.weight;
    d.backends.push_back(std::move(c));
  }
  return valid_weight;
}

}  // namespace

RouteDecision resolve_request(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const std::string& hint) {
  RouteDecision d;
  if (!pick_gateway(m, r, hint, d) || !pick_request_listener(m, g, r, d)) return d;
  const Listener& l = m.gateways[d.gateway].listeners[g.listeners[d.listener].listener];
  const Winner winner = find_winner(m, g.tables[d.listener], r);
  if (winner.entry == nullptr) {
    d.status = 404;
    d.outcome = RouteOutcome::kNotFound;
    d.reasons.push_back(fmt::format("no rule attached to listener '{}' matches {} {} on host '{}': 404", l.name, r.method,
                                    r.path, r.host));
    return d;
  }
  const RouteEntry& entry = *winner.entry;
  d.has_entry = true;
  d.entry = entry;
  const HttpRoute& route = m.routes[entry.route];
  const RouteRule& rule = route.rules[entry.rule];
  const RouteMatch& matched = rule.matches[entry.match];
  d.reasons.push_back(fmt::format("HTTPRoute {} rule {} ({}) matches: {} on {}", route_label(m, entry.route), entry.rule,
                                  where_text(rule.where), describe_match(matched), entry_host_text(entry)));
  if (winner.runner_up) d.reasons.push_back(why_precedes(m, entry, *winner.runner_up));
  const int valid_weight = resolve_backends(m, g, route, rule, d);
  FilterEffect effect = apply_filters(m, g, route, rule, matched, r);
  d.reasons.insert(d.reasons.end(), effect.reasons.begin(), effect.reasons.end());
  d.mirrors = std::move(effect.mirrors);
  if (effect.redirect != nullptr) {
    apply_redirect(*effect.redirect, r, matched, l.port, d);
    return d;
  }
  if (!effect.failed.empty()) {
    d.status = 500;
    d.outcome = RouteOutcome::kBackendError;
    return d;
  }
  int total = 0;
  for (const auto& b : rule.backends) total += b.weight;
  if (rule.backends.empty()) {
    d.status = effect.responds ? 200 : 500;
    d.outcome = effect.responds ? RouteOutcome::kAnsweredByFilter : RouteOutcome::kBackendError;
    if (!effect.responds) d.reasons.push_back("the rule has no backendRefs and no filter that answers: 500");
  } else if (valid_weight == 0) {
    d.status = 500;
    d.outcome = RouteOutcome::kBackendError;
    d.reasons.push_back("every backendRef of the rule is invalid: 500");
  } else {
    d.status = 200;
    d.outcome = RouteOutcome::kForwarded;
    d.forwarded = true;
    if (valid_weight < total) {
      d.reasons.push_back(fmt::format("{:.0f}% of requests go to invalid backends and get 500",
                                      100.0 * (total - valid_weight) / total));
    }
  }
  d.upstream = std::move(effect.upstream);
  if (d.forwarded && describe_upstream_request(d.upstream) != describe_upstream_request(r)) {
    d.reasons.push_back("the request as it reaches the backend: " + describe_upstream_request(d.upstream));
  }
  return d;
}

std::string unknown_gateway(const Manifests& m, const std::string& gateway_hint) {
  if (gateway_hint.empty()) return "";
  std::vector<std::string> spellings;  // each Gateway as "ns/name" and as "name"
  std::vector<std::string> full;       // the "ns/name" of each spelling
  for (const Gateway& gw : m.gateways) {
    const std::string qualified = gw.meta.ns + "/" + gw.meta.name;
    if (gateway_hint == qualified || gateway_hint == gw.meta.name) return "";
    for (const std::string& spelling : {qualified, gw.meta.name}) {
      spellings.push_back(spelling);
      full.push_back(qualified);
    }
  }
  if (m.gateways.empty()) return fmt::format("no Gateway '{}': the manifests have none", gateway_hint);
  const std::string near = closest_match(gateway_hint, spellings);
  if (!near.empty()) {
    const auto at = static_cast<std::size_t>(std::find(spellings.begin(), spellings.end(), near) - spellings.begin());
    return fmt::format("no Gateway '{}' in the manifests (did you mean '{}'?)", gateway_hint, full[at]);
  }
  std::vector<std::string> all;
  for (std::size_t i = 0; i < full.size(); i += 2) all.push_back(full[i]);
  return fmt::format("no Gateway '{}' in the manifests (they have {})", gateway_hint, fmt::join(all, ", "));
}

}  // namespace ct
