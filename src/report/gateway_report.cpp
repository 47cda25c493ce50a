#include "report/gateway_report.h"

#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/text_lines.h"
#include "frontend/auth_coverage.h"
#include "report/table.h"

namespace ct {

std::string result_word(const RouteDecision& d) {
  if (d.outcome == RouteOutcome::kTlsHandshakeFailed) return "no HTTP response: the TLS handshake fails";
  return status_word(d.status);
}

std::string status_word(int status) {
  switch (status) {
    case 0: return "no connection: nothing listens on the port";
    case 200: return "200 forwarded";
    case 404: return "404 Not Found";
    case 421: return "421 Misdirected Request";
    case 500: return "500 Internal Server Error";
    case 301: return "301 Moved Permanently (redirect)";
    case 302: return "302 Found (redirect)";
    case 303: return "303 See Other (redirect)";
    case 307: return "307 Temporary Redirect";
    case 308: return "308 Permanent Redirect";
    default: return std::to_string(status);
  }
}

std::string conditions_text(const std::vector<Condition>& cs) {
  std::string s;
  for (const auto& c : cs) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{}={} ({})", c.type, c.status ? "True" : "False", c.reason);
  }
  return s;
}

std::string rule_backends_text(const RouteRule& rule) {
  std::string backends;
  for (const auto& b : rule.backends) {
    if (!backends.empty()) backends += ", ";
    backends += fmt::format("{}:{}", b.ref.name, b.port);
    if (rule.backends.size() > 1) backends += fmt::format(" w{}", b.weight);
  }
  if (backends.empty()) backends = rule.filters.empty() ? "(none: 500)" : "(filters only)";
  return backends;
}

namespace {

nlohmann::json conditions_json(const std::vector<Condition>& cs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : cs) {
    a.push_back({{"type", c.type}, {"status", c.status ? "True" : "False"}, {"reason", c.reason}, {"message", c.message}});
  }
  return a;
}

}  // namespace

namespace {

// The authentication column of a route table row: the policy, "-" for none, or the problem.
std::string rule_auth_text(const Manifests& m, const GatewayModel& g, const RouteEntry& e, std::size_t listener) {
  const RuleAuth* a = find_rule_auth(g, e.route, e.rule, listener);
  if (a == nullptr) return "-";
  if (!a->covered) return "FAILS (500): unresolved ExtensionRef";
  return object_label(m.auth_policies[a->policy].meta);
}

nlohmann::json rule_auth_json(const Manifests& m, const GatewayModel& g, const RouteEntry& e, std::size_t listener) {
  const RuleAuth* a = find_rule_auth(g, e.route, e.rule, listener);
  if (a == nullptr) return nullptr;
  nlohmann::json j = {{"covered", a->covered}, {"via", a->via}, {"problem", a->problem}, {"overridden", a->overridden}};
  if (a->covered) {
    const AuthPolicy& p = m.auth_policies[a->policy];
    j["policy"] = object_label(p.meta);
    j["type"] = to_string(p.type);
    j["where"] = where_text(p.where);
  }
  return j;
}

// The (route, rule) pairs each policy covers, over every listener.
std::vector<std::set<std::pair<std::size_t, std::size_t>>> covered_rules(const Manifests& m, const GatewayModel& g) {
  std::vector<std::set<std::pair<std::size_t, std::size_t>>> out(m.auth_policies.size());
  for (const RuleAuth& a : g.rule_auth) {
    if (a.covered) out[a.policy].emplace(a.route, a.rule);
  }
  return out;
}

std::string auth_text(const Manifests& m, const GatewayModel& g) {
  if (m.auth_policies.empty() && g.auth_findings.empty()) return "";
  std::string out = "Authentication:\n";
  const auto covered = covered_rules(m, g);
  for (std::size_t i = 0; i < m.auth_policies.size(); ++i) {
    const AuthPolicy& p = m.auth_policies[i];
    if (p.meta.kind == "Ingress") continue;
    out += fmt::format("  {} ({}): covers {} rule(s); asks {}{}\n", auth_policy_label(p), where_text(p.where), covered[i].size(),
                       p.address, p.sign_in.empty() ? "" : "; sign-in " + p.sign_in);
  }
  static const char* kWords[] = {"Unprotected", "Covers nothing", "Conflict"};
  for (const auto& f : g.auth_findings) {
    out += fmt::format("  {}: {}{}\n", kWords[static_cast<int>(f.kind)], f.subject.empty() ? "" : f.subject + " ", f.message);
  }
  return out;
}

nlohmann::json auth_policies_json(const Manifests& m, const GatewayModel& g) {
  nlohmann::json out = nlohmann::json::array();
  const auto covered = covered_rules(m, g);
  for (std::size_t i = 0; i < m.auth_policies.size(); ++i) {
    const AuthPolicy& p = m.auth_policies[i];
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& [route, rule] : covered[i]) rules.push_back({{"route", route_label(m, route)}, {"rule", rule}});
    out.push_back({{"policy", object_label(p.meta)}, {"type", to_string(p.type)}, {"where", where_text(p.where)},
                   {"address", p.address}, {"signIn", p.sign_in}, {"failOpen", p.fail_open}, {"covers", std::move(rules)}});
  }
  return out;
}

// Ingress rules with the ingress-nginx auth-url that covers each (no Ingress controller is modelled).
std::string ingress_text(const Manifests& m) {
  if (m.ingresses.empty()) return "";
  std::string out = "Ingresses (read for their authentication; no Ingress controller is modelled):\n";
  for (const Ingress& in : m.ingresses) {
    const AuthPolicy* p = m.find_auth_policy("Ingress", in.meta.ns, in.meta.name);
    out += fmt::format("  {} ({}) class {}: auth {}\n", object_label(in.meta), where_text(in.meta.where),
                       in.class_name.empty() ? "(default)" : in.class_name,
                       p == nullptr ? "none" : p->address + (p->sign_in.empty() ? "" : ", sign-in " + p->sign_in));
    for (const auto& r : in.rules) {
      for (const auto& path : r.paths) {
        out += fmt::format("    {} {} {} -> {}:{}\n", r.host.empty() ? "*any*" : r.host, path.type, path.path, path.service,
                           path.port != 0 ? std::to_string(path.port) : path.port_name);
      }
    }
  }
  return out;
}

nlohmann::json ingresses_json(const Manifests& m) {
  nlohmann::json out = nlohmann::json::array();
  for (const Ingress& in : m.ingresses) {
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& r : in.rules) {
      for (const auto& path : r.paths) {
        paths.push_back({{"host", r.host}, {"type", path.type}, {"path", path.path}, {"service", path.service}, {"port", path.port},
                         {"portName", path.port_name}});
      }
    }
    const AuthPolicy* p = m.find_auth_policy("Ingress", in.meta.ns, in.meta.name);
    out.push_back({{"ingress", object_label(in.meta)}, {"class", in.class_name}, {"paths", std::move(paths)},
                   {"authUrl", p == nullptr ? "" : p->address}, {"authSignin", p == nullptr ? "" : p->sign_in}});
  }
  return out;
}

}  // namespace

std::string request_text(const HttpRequest& r) {
  std::string q;
  for (const auto& [k, v] : r.query) q += (q.empty() ? "?" : "&") + k + "=" + v;
  return fmt::format("{} {}://{}{}{} (port {}{}, Host {})", r.method, r.scheme, r.sni.empty() ? r.host : r.sni, r.path, q,
                     r.port, r.sni.empty() ? "" : ", SNI " + r.sni, r.host);
}

std::string route_decision_text(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d) {
  std::string out = "Request:  " + request_text(r) + "\n";
  if (d.has_gateway) {
    const Gateway& gw = m.gateways[d.gateway];
    out += fmt::format("Gateway:  {}/{} ({})\n", gw.meta.ns, gw.meta.name, where_text(gw.meta.where));
  }
  if (d.has_listener) {
    const auto& ls = g.listeners[d.listener];
    const Listener& l = m.gateways[ls.gateway].listeners[ls.listener];
    out += fmt::format("Listener: {} (port {}, {}, hostname {}) ({})\n", l.name, l.port, l.protocol,
                       l.hostname.empty() ? "any" : l.hostname, where_text(l.where));
  }
  if (d.has_entry) {
    const RouteRule& rule = m.routes[d.entry.route].rules[d.entry.rule];
    out += fmt::format("Route:    {} rule {}: {} ({})\n", route_label(m, d.entry.route), d.entry.rule,
                       describe_match(rule.matches[d.entry.match]), where_text(rule.matches[d.entry.match].where));
  }
  if (d.has_entry && d.has_listener) {
    if (const RuleAuth* a = find_rule_auth(g, d.entry.route, d.entry.rule, d.listener)) {
      out += a->covered ? fmt::format("Auth:     {} ({}), {}\n", auth_policy_label(m.auth_policies[a->policy]),
                                      where_text(m.auth_policies[a->policy].where), a->via)
                        : "Auth:     " + a->problem + "\n";
    }
  }
  out += "Result:   " + result_word(d) + "\n";
  if (!d.location.empty()) out += "Location: " + d.location + "\n";
  if (d.forwarded) out += "Upstream: " + describe_upstream_request(d.upstream) + "\n";
  for (const auto& mirror : d.mirrors) out += fmt::format("Mirror:   {} port {}{}\n", mirror.service, mirror.port, mirror.valid ? "" : " (" + mirror.problem + ")");
  if (!d.backends.empty()) {
    TextTable t({{"backend"}, {"port", Align::kRight}, {"weight", Align::kRight}, {"share", Align::kRight}, {"status"}}, "Backends:");
    for (const auto& b : d.backends) {
      t.add_row({b.service, std::to_string(b.port), std::to_string(b.weight), fmt::format("{:.0f}%", 100 * b.share),
                 b.valid ? "ok" : b.problem});
    }
    out += t.render();
  }
  out += "Why:\n";
  for (std::size_t i = 0; i < d.reasons.size(); ++i) out += fmt::format("  {}. {}\n", i + 1, d.reasons[i]);
  return out;
}

std::string route_decision_json(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d) {
  nlohmann::json j;
  j["request"] = {{"method", r.method}, {"scheme", r.scheme}, {"host", r.host}, {"sni", r.sni}, {"port", r.port}, {"path", r.path}};
  j["status"] = d.status;  // 0: no HTTP response; "outcome" says which way
  j["outcome"] = to_string(d.outcome);
  if (!d.tls_error.empty()) j["tlsError"] = d.tls_error;
  if (d.has_gateway) j["gateway"] = m.gateways[d.gateway].meta.ns + "/" + m.gateways[d.gateway].meta.name;
  if (d.has_listener) {
    const auto& ls = g.listeners[d.listener];
    j["listener"] = m.gateways[ls.gateway].listeners[ls.listener].name;
  }
  if (d.has_entry) {
    const RouteRule& rule = m.routes[d.entry.route].rules[d.entry.rule];
    j["route"] = {{"name", route_label(m, d.entry.route)}, {"rule", d.entry.rule}, {"match", d.entry.match},
                  {"hostname", d.entry.hostname}, {"where", where_text(rule.matches[d.entry.match].where)},
                  {"description", describe_match(rule.matches[d.entry.match])}};
    if (d.has_listener) j["auth"] = rule_auth_json(m, g, d.entry, d.listener);
  }
  j["backends"] = nlohmann::json::array();
  for (const auto& b : d.backends) {
    j["backends"].push_back({{"service", b.service}, {"port", b.port}, {"weight", b.weight}, {"share", b.share},
                             {"valid", b.valid}, {"problem", b.problem}});
  }
  if (!d.location.empty()) j["location"] = d.location;
  if (d.forwarded) {
    nlohmann::json headers = nlohmann::json::array();
    for (const auto& [name, value] : d.upstream.headers) headers.push_back({{"name", name}, {"value", value}});
    j["upstream"] = {{"method", d.upstream.method}, {"host", d.upstream.host}, {"path", d.upstream.path}, {"headers", headers},
                     {"text", describe_upstream_request(d.upstream)}};
  }
  j["mirrors"] = nlohmann::json::array();
  for (const auto& b : d.mirrors) j["mirrors"].push_back({{"service", b.service}, {"port", b.port}, {"valid", b.valid}, {"problem", b.problem}});
  j["reasons"] = d.reasons;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // bytes that are not UTF-8 become U+FFFD
}

std::string route_table_text(const Manifests& m, const GatewayModel& g) {
  std::string out;
  for (std::size_t gi = 0; gi < m.gateways.size(); ++gi) {
    const Gateway& gw = m.gateways[gi];
    out += fmt::format("Gateway {}/{} ({}): {}\n", gw.meta.ns, gw.meta.name, where_text(gw.meta.where),
                       conditions_text(g.gateway_conditions[gi]));
    for (std::size_t t = 0; t < g.listeners.size(); ++t) {
      const auto& ls = g.listeners[t];
      if (ls.gateway != gi) continue;
      const Listener& l = gw.listeners[ls.listener];
      out += fmt::format("  Listener {} (port {}, {}, hostname {}) ({}): {}; {} attached route(s)\n", l.name, l.port,
                         l.protocol, l.hostname.empty() ? "any" : l.hostname, where_text(l.where),
                         conditions_text(ls.conditions), ls.attached_routes);
      for (const auto& c : ls.conditions) {
        if (!c.message.empty()) out += fmt::format("    {} {}: {}\n", c.type, c.reason, c.message);
      }
      const auto& entries = g.tables[t].entries;
      if (entries.empty()) continue;
      TextTable table({{"#", Align::kRight}, {"hostname"}, {"match"}, {"route"}, {"rule", Align::kRight}, {"backends"}, {"auth"}});
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const RouteEntry& e = entries[i];
        const RouteRule& rule = m.routes[e.route].rules[e.rule];
        table.add_row({std::to_string(i + 1), e.hostname.empty() ? "*any*" : e.hostname, describe_match(rule.matches[e.match]),
                       route_label(m, e.route), std::to_string(e.rule), rule_backends_text(rule), rule_auth_text(m, g, e, t)});
      }
      const std::string rendered = table.render();
      LineCursor lines(rendered);
      std::string_view line;
      while (lines.next(line)) out += "    " + std::string(line) + "\n";
    }
  }
  out += "Routes:\n";
  for (const auto& p : g.parents) {
    const HttpRoute& r = m.routes[p.route];
    const ParentRef& pr = r.parents[p.parent];
    out += fmt::format("  {} ({}) -> {}/{}{}: {}\n", route_label(m, p.route), where_text(r.meta.where),
                       pr.ref.ns.empty() ? r.meta.ns : pr.ref.ns, pr.ref.name, pr.section.empty() ? "" : "/" + pr.section,
                       conditions_text(p.conditions));
    for (const auto& c : p.conditions) {
      if (!c.message.empty()) out += fmt::format("    {} {}: {}\n", c.type, c.reason, c.message);
    }
  }
  if (!g.shadowed.empty()) {
    out += "Shadowed rules (no request can reach them):\n";
    for (const auto& s : g.shadowed) {
      out += fmt::format("  {} rule {} ({}) on {}: every request it matches goes to {} rule {} ({})\n", route_label(m, s.route),
                         s.rule, where_text(m.routes[s.route].rules[s.rule].where), s.listener, route_label(m, s.by_route),
                         s.by_rule, where_text(m.routes[s.by_route].rules[s.by_rule].where));
    }
  }
  if (!g.unattached_routes.empty()) {
    out += "Routes attached nowhere:\n";
    for (auto r : g.unattached_routes) out += fmt::format("  {} ({})\n", route_label(m, r), where_text(m.routes[r].meta.where));
  }
  out += auth_text(m, g);
  out += ingress_text(m);
  out += unknown_kinds_text(m);
  return out;
}

std::string route_table_json(const Manifests& m, const GatewayModel& g) {
  nlohmann::json j;
  j["gateways"] = nlohmann::json::array();
  for (std::size_t gi = 0; gi < m.gateways.size(); ++gi) {
    const Gateway& gw = m.gateways[gi];
    nlohmann::json jg = {{"name", gw.meta.ns + "/" + gw.meta.name}, {"where", where_text(gw.meta.where)},
                         {"conditions", conditions_json(g.gateway_conditions[gi])}, {"listeners", nlohmann::json::array()}};
    for (std::size_t t = 0; t < g.listeners.size(); ++t) {
      const auto& ls = g.listeners[t];
      if (ls.gateway != gi) continue;
      const Listener& l = gw.listeners[ls.listener];
      nlohmann::json jl = {{"name", l.name}, {"port", l.port}, {"protocol", l.protocol}, {"hostname", l.hostname},
                           {"conditions", conditions_json(ls.conditions)}, {"attachedRoutes", ls.attached_routes},
                           {"table", nlohmann::json::array()}};
      for (const auto& e : g.tables[t].entries) {
        const RouteRule& rule = m.routes[e.route].rules[e.rule];
        jl["table"].push_back({{"hostname", e.hostname}, {"match", describe_match(rule.matches[e.match])},
                               {"route", route_label(m, e.route)}, {"rule", e.rule}, {"auth", rule_auth_json(m, g, e, t)}});
      }
      jg["listeners"].push_back(std::move(jl));
    }
    j["gateways"].push_back(std::move(jg));
  }
  j["routes"] = nlohmann::json::array();
  for (const auto& p : g.parents) {
    const HttpRoute& r = m.routes[p.route];
    j["routes"].push_back({{"route", route_label(m, p.route)}, {"parent", r.parents[p.parent].ref.name},
                           {"conditions", conditions_json(p.conditions)}});
  }
  j["shadowed"] = nlohmann::json::array();
  for (const auto& s : g.shadowed) {
    j["shadowed"].push_back({{"route", route_label(m, s.route)}, {"rule", s.rule}, {"listener", s.listener},
                             {"byRoute", route_label(m, s.by_route)}, {"byRule", s.by_rule}});
  }
  j["unattached"] = nlohmann::json::array();
  for (auto r : g.unattached_routes) j["unattached"].push_back(route_label(m, r));
  j["authPolicies"] = auth_policies_json(m, g);
  j["authFindings"] = nlohmann::json::array();
  for (const auto& f : g.auth_findings) {
    static const char* kKinds[] = {"unprotected", "coversNothing", "conflict"};
    j["authFindings"].push_back({{"kind", kKinds[static_cast<int>(f.kind)]}, {"subject", f.subject}, {"message", f.message}});
  }
  j["ingresses"] = ingresses_json(m);
  j["unknownKinds"] = nlohmann::json::array();
  for (const auto& u : m.unknown) j["unknownKinds"].push_back({{"object", object_label(u.meta)}, {"where", where_text(u.meta.where)}});
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // bytes that are not UTF-8 become U+FFFD
}

std::string unknown_kinds_text(const Manifests& m) {
  if (m.unknown.empty()) return "";
  std::string out = "Unknown kinds (ignored):\n";
  for (const auto& u : m.unknown) out += fmt::format("  {} ({})\n", object_label(u.meta), where_text(u.meta.where));
  return out;
}

}  // namespace ct
