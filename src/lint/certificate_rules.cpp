// Lint rules of the certificates family: a listener's certificate that does not cover its names,
// a Certificate whose issuer does not exist, a certificate Secret in another namespace without a
// ReferenceGrant, and HTTP-01 challenges that the split-horizon DNS keeps from completing.
#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/cert_chain.h"
#include "frontend/gateway_routes.h"
#include "lint/lint_checks.h"
#include "lint/lint_query.h"
#include "routing/port_address.h"

namespace ct {

namespace {

// The names a listener must serve: its hostname when exact, else the hostnames routes attach with.
std::vector<std::string> listener_names(const LintContext& c, std::size_t table_index) {
  const ListenerTable& t = c.model.gateways.tables[table_index];
  const Listener& l = c.model.manifests.gateways[t.gateway].listeners[t.listener];
  if (!l.hostname.empty() && !l.hostname.starts_with("*.")) return {l.hostname};
  std::vector<std::string> out;
  for (const auto& [host, range] : t.exact) out.push_back(host);
  return out;
}

// The addresses that reach Gateway `g` from a client: its spec.addresses, its data-plane Services'
// VIPs, and (through the border's NAT) their public addresses.
struct GatewayAddresses {
  std::set<std::uint32_t> vips;
  std::set<std::uint32_t> public_addresses;
};
GatewayAddresses gateway_addresses(const Manifests& m, const Gateway& g) {
  GatewayAddresses out;
  for (const auto& a : g.addresses) {
    if (auto ip = parse_ipv4(a)) out.vips.insert(*ip);
  }
  for (const DataPlane& d : gateway_data_planes(m)) {
    if (d.gateway != &g) continue;
    if (auto ip = parse_ipv4(d.service->load_balancer_ip)) out.vips.insert(*ip);
    auto pub = d.service->meta.annotations.find("clustertwin.io/public-address");
    if (pub != d.service->meta.annotations.end()) {
      if (auto ip = parse_ipv4(pub->second)) out.public_addresses.insert(*ip);
    }
  }
  return out;
}

const Gateway* find_gateway_by_name(const Manifests& m, const std::string& name) {
  for (const auto& g : m.gateways) {
    if (g.meta.name == name) return &g;
  }
  return nullptr;
}

// Why the self-check (from inside) or the ACME server (from outside) cannot reach the solver for
// `name`; empty when it can.
std::string http01_problem(const DnsModel& dns, std::uint32_t client, const std::string& name, const GatewayAddresses& ga,
                           bool inside) {
  const DnsAnswer a = resolve_dns(dns, client, name);
  const auto addrs = a.addresses();
  const std::string view = a.view ? "view \"" + dns.conf.views[*a.view].name + "\"" : std::string("no view");
  if (addrs.empty()) return fmt::format("{} answers {} {} ({})", view, name, a.rcode == "NOERROR" ? "no address" : a.rcode, format_ipv4(client));
  for (const auto& s : addrs) {
    const auto ip = parse_ipv4(s);
    if (!ip) continue;
    if (ga.vips.contains(*ip) && inside) return "";
    if ((ga.vips.contains(*ip) || ga.public_addresses.contains(*ip)) && !inside) return "";
  }
  const bool hairpin = std::any_of(addrs.begin(), addrs.end(), [&](const std::string& s) {
    const auto ip = parse_ipv4(s);
    return ip && ga.public_addresses.contains(*ip);
  });
  return fmt::format("{} answers {} -> {}{}", view, name, fmt::join(addrs, ", "),
                     hairpin ? ": the public address, reachable from inside only if the border hairpins" : ": not the solver Gateway");
}

}  // namespace

void check_cert_name_mismatch(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  const std::uint32_t outside = c.outside_client.value_or(0);
  for (std::size_t t = 0; t < c.model.gateways.tables.size(); ++t) {
    const ListenerTable& table = c.model.gateways.tables[t];
    const Gateway& g = m.gateways[table.gateway];
    const Listener& l = g.listeners[table.listener];
    if (l.protocol != "HTTPS" || l.tls_mode != "Terminate") continue;
    std::vector<std::string> uncovered;
    std::string secret, where_names;
    SourceLocation cert_where = l.where;
    std::string cert_label;
    for (const auto& host : listener_names(c, t)) {
      const CertificateCheck k = check_listener_certificate(m, g, l, host, nullptr, outside);
      if (!k.found || k.static_secret || k.covers_host) continue;
      uncovered.push_back(host);
      secret = k.secret;
      where_names = fmt::format("{}", fmt::join(k.dns_names, ", "));
      if (const Certificate* cert = m.certificate_for_secret(g.meta.ns, l.certificate_refs.empty() ? "" : l.certificate_refs[0].name)) {
        cert_where = cert->meta.where;
        cert_label = object_label(cert->meta);
      }
    }
    if (uncovered.empty()) continue;
    std::vector<LintObject> objects{{cert_label.empty() ? "Secret " + secret : cert_label, cert_where},
                                    {fmt::format("Gateway {}/{} listener {}", g.meta.ns, g.meta.name, l.name), l.where}};
    out.push_back(rule.finding(
        fmt::format("listener {} serves {} for [{}], whose names [{}] do not cover it", listener_label(m, table.gateway, table.listener),
                    secret, fmt::join(uncovered, ", "), where_names),
        std::move(objects), "browsers and clients refuse the TLS handshake for these names (certificate name mismatch)",
        fmt::format("add to the Certificate's spec.dnsNames: {}", fmt::join(uncovered, ", "))));
  }
}

void check_cert_missing_issuer(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const auto& cert : m.certificates) {
    const std::string kind = cert.issuer.kind.empty() ? "Issuer" : cert.issuer.kind;
    if (m.find_issuer(kind, cert.meta.ns, cert.issuer.name) != nullptr) continue;
    std::vector<std::string> known;
    for (const auto& is : m.issuers) {
      if (is.meta.kind == "ClusterIssuer" || is.meta.ns == cert.meta.ns) known.push_back(is.meta.kind + " " + is.meta.name);
    }
    out.push_back(rule.finding(
        fmt::format("{} names {} {}{}, which does not exist", object_label(cert.meta), kind, cert.issuer.name,
                    kind == "Issuer" ? " in namespace " + cert.meta.ns : ""),
        {{object_label(cert.meta), cert.issuer.where.line > 0 ? cert.issuer.where : cert.meta.where}},
        fmt::format("cert-manager never issues Secret {}/{}: the listeners serving it fail the TLS handshake", cert.meta.ns,
                    cert.secret_name),
        known.empty() ? std::string("create the issuer")
                      : fmt::format("point issuerRef at one that exists ({}), or create it", fmt::join(known, ", "))));
  }
}

void check_cert_cross_namespace(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const auto& g : m.gateways) {
    for (const auto& l : g.listeners) {
      for (const auto& ref : l.certificate_refs) {
        if (ref.ns.empty() || ref.ns == g.meta.ns) continue;
        if (grant_allows(m, "Gateway", "gateway.networking.k8s.io", g.meta.ns, "Secret", ref.ns, ref.name)) continue;
        out.push_back(rule.finding(
            fmt::format("Gateway {}/{} listener {} uses Secret {}/{} from another namespace, and no ReferenceGrant in {} allows it",
                        g.meta.ns, g.meta.name, l.name, ref.ns, ref.name, ref.ns),
            {{fmt::format("Gateway {}/{} listener {}", g.meta.ns, g.meta.name, l.name), ref.where.line > 0 ? ref.where : l.where}},
            "the listener is not programmed (ResolvedRefs False, RefNotPermitted): its TLS handshakes fail",
            fmt::format("add a ReferenceGrant in namespace {}: from [{{group: gateway.networking.k8s.io, kind: Gateway, namespace: {}}}] "
                        "to [{{group: \"\", kind: Secret, name: {}}}]",
                        ref.ns, g.meta.ns, ref.name)));
      }
    }
  }
}

void check_acme_http01_split_horizon(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  if (!c.model.dns || !c.inside_client) return;
  const Manifests& m = c.model.manifests;
  const DnsModel& dns = *c.model.dns;
  for (const auto& cert : m.certificates) {
    const Issuer* is = m.find_issuer(cert.issuer.kind.empty() ? "Issuer" : cert.issuer.kind, cert.meta.ns, cert.issuer.name);
    if (is == nullptr || is->type != Issuer::Type::kAcme || !is->http01 || is->dns01) continue;
    const Gateway* solver = find_gateway_by_name(m, is->http01_gateway);
    if (solver == nullptr) continue;
    const GatewayAddresses ga = gateway_addresses(m, *solver);
    std::vector<std::string> problems;
    for (const auto& name : cert.dns_names) {
      if (name.starts_with("*.")) continue;
      if (auto p = http01_problem(dns, *c.inside_client, name, ga, true); !p.empty()) problems.push_back("self-check from inside: " + p);
      if (c.outside_client) {
        if (auto p = http01_problem(dns, *c.outside_client, name, ga, false); !p.empty()) problems.push_back("ACME server from outside: " + p);
      }
    }
    if (problems.empty()) continue;
    out.push_back(rule.finding(
        fmt::format("{} (HTTP-01 through Gateway {}) cannot complete its challenges: {}", object_label(cert.meta), solver->meta.name,
                    fmt::join(problems, "; ")),
        {{object_label(cert.meta), cert.meta.where}, {object_label(is->meta), is->meta.where}},
        "cert-manager's self-check (it resolves the name from inside the cluster, through the inside view) never sees its "
        "own challenge answer, so it never asks the ACME server to validate; the certificate is not issued or renewed and "
        "expires",
        "answer the solver Gateway's VIP for these names in the inside view (a CNAME to the Gateway's name), or use a DNS-01 "
        "solver"));
  }
}

}  // namespace ct
