#include "frontend/auth_coverage.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/gateway_filters.h"

namespace ct {
namespace {

// The precedence levels of a SecurityPolicy target, most specific last.
enum Level { kNone = 0, kGateway = 1, kListener = 2, kRoute = 3, kRule = 4 };
constexpr const char* kLevelNames[] = {"", "Gateway", "listener", "HTTPRoute", "HTTPRoute rule"};

struct Candidate {
  std::size_t policy = 0;
  Level level = kNone;
  const AuthTarget* target = nullptr;
};

// The level at which `t` of policy `p` targets rule `rule` of route `route` reached through
// listener table `lt`; kNone when it does not.
Level target_level(const Manifests& m, const AuthPolicy& p, const AuthTarget& t, const HttpRoute& route, const RouteRule& rule,
                   const ListenerTable& lt) {
  if (t.kind == "HTTPRoute") {
    if (route.meta.ns != p.meta.ns || route.meta.name != t.name) return kNone;
    if (t.section.empty()) return kRoute;
    return t.section == rule.name ? kRule : kNone;
  }
  if (t.kind == "Gateway") {
    const Gateway& gw = m.gateways[lt.gateway];
    if (gw.meta.ns != p.meta.ns || gw.meta.name != t.name) return kNone;
    if (t.section.empty()) return kGateway;
    return t.section == gw.listeners[lt.listener].name ? kListener : kNone;
  }
  return kNone;
}

// Oldest first, then namespace/name (the order Envoy Gateway resolves a tie in).
bool older(const AuthPolicy& a, const AuthPolicy& b) {
  const std::string ta = a.meta.creation_timestamp.empty() ? "~" : a.meta.creation_timestamp;
  const std::string tb = b.meta.creation_timestamp.empty() ? "~" : b.meta.creation_timestamp;
  return std::tie(ta, a.meta.ns, a.meta.name) < std::tie(tb, b.meta.ns, b.meta.name);
}

std::string target_text(const AuthTarget& t) {
  return fmt::format("targetRef {} {}{} at {}", t.kind, t.name, t.section.empty() ? "" : " sectionName " + t.section, where_text(t.where));
}

// The SecurityPolicies that target the rule through `lt`, most specific first, ties oldest first.
std::vector<Candidate> security_candidates(const Manifests& m, const HttpRoute& route, const RouteRule& rule, const ListenerTable& lt) {
  std::vector<Candidate> out;
  for (std::size_t pi = 0; pi < m.auth_policies.size(); ++pi) {
    const AuthPolicy& p = m.auth_policies[pi];
    if (p.meta.kind != "SecurityPolicy") continue;
    Candidate best{pi, kNone, nullptr};
    for (const AuthTarget& t : p.targets) {
      const Level l = target_level(m, p, t, route, rule, lt);
      if (l > best.level) best = Candidate{pi, l, &t};
    }
    if (best.level != kNone) out.push_back(best);
  }
  std::sort(out.begin(), out.end(), [&](const Candidate& a, const Candidate& b) {
    if (a.level != b.level) return a.level > b.level;
    return older(m.auth_policies[a.policy], m.auth_policies[b.policy]);
  });
  return out;
}

// The step of one rule through one listener; nullopt when none covers it and nothing fails.
std::optional<RuleAuth> cover_rule(const Manifests& m, std::size_t ri, std::size_t ki, std::size_t t, const ListenerTable& lt,
                                   std::set<std::string>& conflicts) {
  const HttpRoute& route = m.routes[ri];
  const RouteRule& rule = route.rules[ki];
  RuleAuth a;
  a.route = ri;
  a.rule = ki;
  a.listener = t;
  for (const RouteFilter& f : rule.filters) {
    if (f.type != RouteFilter::Type::kExtensionRef || !is_traefik_middleware(f.extension_ref) || a.covered) continue;
    const AuthPolicy* p = m.find_auth_policy("Middleware", route.meta.ns, f.extension_ref.name);
    if (p != nullptr) {
      a.covered = true;
      a.policy = static_cast<std::size_t>(p - m.auth_policies.data());
      a.via = fmt::format("ExtensionRef filter at {}", where_text(f.where));
    } else if (std::none_of(m.unknown.begin(), m.unknown.end(), [&](const UnknownObject& u) {
                 return u.meta.kind == "Middleware" && u.meta.ns == route.meta.ns && u.meta.name == f.extension_ref.name;
               })) {
      a.problem = fmt::format("ExtensionRef Middleware {} ({}) resolves to nothing in namespace {}: 500", f.extension_ref.name,
                              where_text(f.where), route.meta.ns);
    }
  }
  const std::vector<Candidate> sp = security_candidates(m, route, rule, lt);
  for (std::size_t i = 0; i < sp.size(); ++i) {
    const AuthPolicy& p = m.auth_policies[sp[i].policy];
    const std::string text = fmt::format("{} ({}, {} level)", auth_policy_label(p), target_text(*sp[i].target), kLevelNames[sp[i].level]);
    if (!a.covered && a.problem.empty()) {
      a.covered = true;
      a.policy = sp[i].policy;
      a.via = fmt::format("{}, {} level", target_text(*sp[i].target), kLevelNames[sp[i].level]);
      continue;
    }
    a.overridden.push_back(text);
    if (i > 0 && sp[i].level == sp[0].level) {  // a tie at the most specific level: the older won
      conflicts.insert(fmt::format("{} and {} both target {} {} at the {} level: the older, {}, applies", auth_policy_label(m.auth_policies[sp[0].policy]),
                                   auth_policy_label(p), route_label(m, ri), fmt::format("rule {}", ki), kLevelNames[sp[i].level],
                                   auth_policy_label(m.auth_policies[sp[0].policy])));
    }
  }
  if (!a.covered && a.problem.empty()) return std::nullopt;
  return a;
}

// Why a policy covers nothing.
std::string idle_reason(const Manifests& m, const GatewayModel& g, const AuthPolicy& p) {
  if (p.meta.kind == "Middleware") return "no ExtensionRef filter of an attached HTTPRoute rule in its namespace names it";
  std::vector<std::string> why;
  for (const AuthTarget& t : p.targets) {
    bool exists = false;
    if (t.kind == "Gateway") exists = m.find_gateway(p.meta.ns, t.name) != nullptr;
    for (const auto& r : m.routes) exists = exists || (t.kind == "HTTPRoute" && r.meta.ns == p.meta.ns && r.meta.name == t.name);
    if (!exists) {
      why.push_back(fmt::format("{}: no {} {}/{}", target_text(t), t.kind, p.meta.ns, t.name));
      continue;
    }
    const bool overridden = std::any_of(g.rule_auth.begin(), g.rule_auth.end(), [&](const RuleAuth& a) {
      return std::any_of(a.overridden.begin(), a.overridden.end(), [&](const std::string& o) { return o.starts_with(auth_policy_label(p) + " "); });
    });
    why.push_back(overridden ? fmt::format("{}: every rule it reaches is covered by another step (more specific, or older at the same level)", target_text(t))
                             : fmt::format("{}: no attached rule it reaches", target_text(t)));
  }
  return fmt::format("{}", fmt::join(why, "; "));
}

// Uncovered rules on a hostname where every other rule is covered.
void find_unprotected(const Manifests& m, GatewayModel& g) {
  std::set<std::pair<std::size_t, std::size_t>> shadowed;
  for (const auto& s : g.shadowed) shadowed.emplace(s.route, s.rule);
  for (std::size_t t = 0; t < g.tables.size(); ++t) {
    std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> by_host;
    for (const RouteEntry& e : g.tables[t].entries) {
      auto& rules = by_host[e.hostname];
      if (shadowed.contains({e.route, e.rule})) continue;
      if (std::find(rules.begin(), rules.end(), std::make_pair(e.route, e.rule)) == rules.end()) rules.emplace_back(e.route, e.rule);
    }
    for (const auto& [host, rules] : by_host) {
      if (rules.size() < 2) continue;
      std::vector<std::pair<std::size_t, std::size_t>> open;
      std::vector<std::string> covered;
      for (const auto& [ri, ki] : rules) {
        const RuleAuth* a = find_rule_auth(g, ri, ki, t);
        if (a == nullptr) open.emplace_back(ri, ki);
        else if (a->covered) covered.push_back(fmt::format("{} rule {} by {}", route_label(m, ri), ki, auth_policy_label(m.auth_policies[a->policy])));
      }
      if (open.size() != 1 || covered.size() + 1 != rules.size()) continue;
      const auto [ri, ki] = open.front();
      g.auth_findings.push_back(AuthFinding{
          AuthFinding::Kind::kUnprotected, fmt::format("{} rule {} ({})", route_label(m, ri), ki, where_text(m.routes[ri].rules[ki].where)),
          fmt::format("on {} (listener {}): no authentication, while every other rule there has one ({}): probably meant to be protected",
                      host.empty() ? "any hostname" : host, listener_label(m, g.tables[t].gateway, g.tables[t].listener), fmt::join(covered, "; "))});
    }
  }
}

}  // namespace

std::string to_string(AuthPolicy::Type t) {
  switch (t) {
    case AuthPolicy::Type::kExtAuthHttp: return "extAuth HTTP";
    case AuthPolicy::Type::kExtAuthGrpc: return "extAuth gRPC";
    case AuthPolicy::Type::kOidc: return "OIDC";
    case AuthPolicy::Type::kForwardAuth: return "forwardAuth";
    case AuthPolicy::Type::kNginxAuthUrl: return "auth-url";
  }
  return "?";
}

std::string auth_policy_label(const AuthPolicy& p) { return fmt::format("{} ({})", object_label(p.meta), to_string(p.type)); }

const RuleAuth* find_rule_auth(const GatewayModel& g, std::size_t route, std::size_t rule, std::size_t listener) {
  for (const RuleAuth& a : g.rule_auth) {
    if (a.route == route && a.rule == rule && a.listener == listener) return &a;
  }
  return nullptr;
}

void cover_rules_with_auth(const Manifests& m, GatewayModel& g) {
  std::set<std::string> conflicts;
  for (std::size_t t = 0; t < g.tables.size(); ++t) {
    std::set<std::pair<std::size_t, std::size_t>> seen;
    for (const RouteEntry& e : g.tables[t].entries) {
      if (!seen.emplace(e.route, e.rule).second) continue;
      if (auto a = cover_rule(m, e.route, e.rule, t, g.tables[t], conflicts)) g.rule_auth.push_back(std::move(*a));
    }
  }
  for (const auto& c : conflicts) g.auth_findings.push_back(AuthFinding{AuthFinding::Kind::kConflict, "", c});
  for (std::size_t pi = 0; pi < m.auth_policies.size(); ++pi) {
    const AuthPolicy& p = m.auth_policies[pi];
    if (p.meta.kind == "Ingress") continue;
    const bool used = std::any_of(g.rule_auth.begin(), g.rule_auth.end(), [&](const RuleAuth& a) { return a.covered && a.policy == pi; });
    if (!used) {
      g.auth_findings.push_back(AuthFinding{AuthFinding::Kind::kIdlePolicy, fmt::format("{} ({})", auth_policy_label(p), where_text(p.meta.where)),
                                            idle_reason(m, g, p)});
    }
  }
  find_unprotected(m, g);
}

}  // namespace ct
