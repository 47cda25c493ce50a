#include "frontend/gateway_model.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.h"

namespace ct {

bool grant_allows(const Manifests& m, const std::string& from_kind, const std::string& from_group, const std::string& from_ns,
                  const std::string& to_kind, const std::string& to_ns, const std::string& to_name) {
  for (const auto& g : m.grants) {
    if (g.meta.ns != to_ns) continue;
    const bool from = std::any_of(g.from.begin(), g.from.end(), [&](const ReferenceGrant::From& f) {
      return f.kind == from_kind && f.group == from_group && f.ns == from_ns;
    });
    const bool to = std::any_of(g.to.begin(), g.to.end(), [&](const ReferenceGrant::To& t) {
      return t.kind == to_kind && t.group.empty() && (t.name.empty() || t.name == to_name);
    });
    if (from && to) return true;
  }
  return false;
}

std::string to_string(RouteOutcome o) {
  switch (o) {
    case RouteOutcome::kConnectionRefused: return "connection_refused";
    case RouteOutcome::kTlsHandshakeFailed: return "tls_handshake_failed";
    case RouteOutcome::kNotFound: return "not_found";
    case RouteOutcome::kMisdirected: return "misdirected";
    case RouteOutcome::kRedirect: return "redirect";
    case RouteOutcome::kForwarded: return "forwarded";
    case RouteOutcome::kAnsweredByFilter: return "answered_by_filter";
    case RouteOutcome::kBackendError: return "backend_error";
  }
  return "?";
}

bool ListenerStatus::programmed() const {
  return std::all_of(conditions.begin(), conditions.end(), [](const Condition& c) {
    return c.type == "Conflicted" ? !c.status : c.status;
  });
}

bool RouteParentStatus::accepted() const {
  return !conditions.empty() && conditions.front().type == "Accepted" && conditions.front().status;
}

bool hostname_matches(const std::string& pattern, const std::string& host) {
  if (pattern.empty()) return true;
  const std::string p = lower(pattern), h = lower(host);
  if (!p.starts_with("*.")) return p == h;  // not a wildcard
  const std::string suffix = p.substr(1);  // ".example.com"
  return h.size() > suffix.size() && h.ends_with(suffix) && h[h.size() - suffix.size() - 1] != '.';
}

bool path_prefix_matches(const std::string& prefix, const std::string& path) {
  std::string p = prefix;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  if (p == "/") return path.starts_with("/");
  if (!path.starts_with(p)) return false;
  return path.size() == p.size() || path[p.size()] == '/';
}

std::string listener_label(const Manifests& m, std::size_t gateway, std::size_t listener) {
  const Gateway& g = m.gateways[gateway];
  return fmt::format("{}/{}/{}", g.meta.ns, g.meta.name, g.listeners[listener].name);
}

std::string route_label(const Manifests& m, std::size_t route) {
  return m.routes[route].meta.ns + "/" + m.routes[route].meta.name;
}

std::string describe_match(const RouteMatch& match) {
  static const char* kTypes[] = {"Exact", "PathPrefix", "RegularExpression"};
  std::string s = fmt::format("{} {}", kTypes[static_cast<int>(match.path.type)], match.path.value);
  if (!match.method.empty()) s += " method " + match.method;
  // "=" an exact value, "~" a regular expression.
  for (const auto& h : match.headers) s += fmt::format(" header {}{}{}", h.name, h.regex ? "~" : "=", h.value);
  for (const auto& q : match.query) s += fmt::format(" query {}{}{}", q.name, q.regex ? "~" : "=", q.value);
  return s;
}

std::string describe_upstream_request(const HttpRequest& r) {
  std::string s = r.method + " " + r.path;
  for (std::size_t i = 0; i < r.query.size(); ++i) s += (i ? "&" : "?") + r.query[i].first + "=" + r.query[i].second;
  s += ", Host: " + r.host;
  for (const auto& [name, value] : r.headers) {
    if (lower(name) != "host") s += ", " + name + ": " + value;
  }
  return s;
}

}  // namespace ct
