#include "frontend/cert_chain.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.h"
#include "frontend/bgp_vip.h"
#include "routing/port_address.h"

namespace ct {

bool tls_name_covers(const std::string& dns_name, const std::string& host) {
  const std::string n = lower(dns_name), h = lower(host);
  if (!n.starts_with("*.")) return n == h;
  const auto dot = h.find('.');
  return dot != std::string::npos && dot > 0 && h.substr(dot) == n.substr(1);
}

namespace {

// Who issues the listener's Secret: the Certificate that writes it (nullptr for the
// gateway-shim's), and the issuerRef the chain starts from.
struct Issuance {
  const Certificate* cert = nullptr;
  std::string issuer_kind;
  std::string issuer_name;
};

// The Certificate behind Secret ns/ref.name: one in the manifests, or the one cert-manager's
// gateway-shim creates from the Gateway's annotation (its dnsNames the hostnames of the listeners
// using the Secret). Sets c.found, c.dns_names and the chain's first link.
Issuance find_certificate(const Manifests& m, const Gateway& g, const ObjectRef& ref, const std::string& ns, CertificateCheck& c) {
  Issuance out;
  out.cert = m.certificate_for_secret(ns, ref.name);
  if (const Certificate* cert = out.cert) {
    c.found = true;
    c.dns_names = cert->dns_names;
    if (c.dns_names.empty() && !cert->common_name.empty()) c.dns_names.push_back(cert->common_name);
    if (cert->expired) {
      c.expired = true;
      c.problems.push_back(object_label(cert->meta) + " has expired (notAfter passed): its renewal failed while its issuer is down");
    }
    c.chain.push_back({object_label(cert->meta), where_text(cert->meta.where),
                       fmt::format("secretName {}, dnsNames [{}]", cert->secret_name, fmt::join(c.dns_names, ", "))});
    out.issuer_kind = cert->issuer.kind;
    out.issuer_name = cert->issuer.name;
    return out;
  }
  if (auto it = g.meta.annotations.find("cert-manager.io/cluster-issuer"); it != g.meta.annotations.end() && ns == g.meta.ns) {
    c.found = true;
    out.issuer_kind = "ClusterIssuer";
    out.issuer_name = it->second;
  } else if (auto it2 = g.meta.annotations.find("cert-manager.io/issuer"); it2 != g.meta.annotations.end() && ns == g.meta.ns) {
    c.found = true;
    out.issuer_kind = "Issuer";
    out.issuer_name = it2->second;
  }
  if (c.found) {
    for (const auto& x : g.listeners) {
      if (!x.hostname.empty() && std::any_of(x.certificate_refs.begin(), x.certificate_refs.end(),
                                             [&](const ObjectRef& r) { return r.name == ref.name; })) {
        c.dns_names.push_back(x.hostname);
      }
    }
    c.chain.push_back({"Certificate " + c.secret + " (created by cert-manager's gateway-shim)", where_text(g.meta.where),
                       fmt::format("from the Gateway annotation; dnsNames [{}] (the hostnames of the listeners using it)",
                                   fmt::join(c.dns_names, ", "))});
  }
  return out;
}

// No Certificate writes the Secret: a Secret manifest (its names unknown, taken as covering), or
// no certificate at all.
void without_certificate(const Manifests& m, const Gateway& g, const ObjectRef& ref, const std::string& ns, CertificateCheck& c) {
  if (m.find_secret(ns, ref.name)) {
    c.found = c.static_secret = true;
    c.reasons.push_back("Secret " + c.secret + " is given as a manifest, not issued by cert-manager: its names are not known here");
    c.covers_host = true;
    c.issuable = true;
    return;
  }
  const bool shim = g.meta.annotations.contains("cert-manager.io/cluster-issuer") || g.meta.annotations.contains("cert-manager.io/issuer");
  if (shim && ns != g.meta.ns) {
    // cert-manager's gateway-shim creates Certificates only for certificateRefs in the Gateway's
    // own namespace; a reference to another namespace is skipped.
    c.problems.push_back(fmt::format("no Certificate writes Secret {}: cert-manager's gateway-shim issues only Secrets in the "
                                     "Gateway's namespace ({}), and this one is in {}", c.secret, g.meta.ns, ns));
    return;
  }
  c.problems.push_back("no Certificate writes Secret " + c.secret + " and no Secret manifest exists: the listener has no certificate");
}

// HTTP-01 for name n: a port-80 HTTP listener on the solver's Gateway, and the name resolves to
// this cluster from outside.
void check_http01(const Manifests& m, const Gateway& g, const Issuer& is, const std::string& n, const DnsModel* dns,
                  std::uint32_t outside_client, CertificateCheck& c) {
  const Gateway* solver = is.http01_gateway.empty() ? &g : nullptr;
  for (const auto& x : m.gateways) {
    if (x.meta.name == is.http01_gateway) solver = &x;
  }
  const bool port80 = solver && std::any_of(solver->listeners.begin(), solver->listeners.end(), [&](const Listener& x) {
    return x.port == 80 && x.protocol == "HTTP" && (x.hostname.empty() || tls_name_covers(x.hostname, n) || x.hostname == n);
  });
  if (!port80) {
    c.issuable = false;
    c.problems.push_back(fmt::format("HTTP-01 for {} needs an HTTP listener on port 80 of Gateway {}", n,
                                     solver ? solver->meta.name : is.http01_gateway));
    return;
  }
  if (dns == nullptr) {
    c.reasons.push_back(fmt::format("HTTP-01 for {}: port 80 listener present (public DNS not checked: no --dns)", n));
    return;
  }
  const DnsAnswer a = resolve_dns(*dns, outside_client, n);
  const auto addrs = a.addresses();
  bool reaches = false;
  for (const auto& addr : addrs) {
    const auto ip = parse_ipv4(addr);
    for (const auto& s : m.services) {
      if (!ip || s.type != "LoadBalancer") continue;
      auto pub = s.meta.annotations.find("clustertwin.io/public-address");
      if (parse_ipv4(s.load_balancer_ip) == ip || (pub != s.meta.annotations.end() && parse_ipv4(pub->second) == ip)) reaches = true;
    }
  }
  if (!reaches) {
    c.issuable = false;
    c.problems.push_back(fmt::format("HTTP-01 for {}: from outside ({}) the name {} — the ACME server cannot reach the Gateway", n,
                                     format_ipv4(outside_client), addrs.empty() ? "does not resolve (" + a.rcode + ")"
                                                                                : "resolves to " + fmt::format("{}", fmt::join(addrs, ", ")) + ", not this cluster"));
  }
}

// An ACME issuer, the chain's end: every name needs a solver that can validate it.
void check_acme(const Manifests& m, const Gateway& g, const Issuer& is, const std::vector<std::string>& names, const DnsModel* dns,
                std::uint32_t outside_client, CertificateCheck& c) {
  c.chain.push_back({object_label(is.meta), where_text(is.meta.where),
                     fmt::format("ACME {} (solvers:{}{})", is.acme_server, is.http01 ? " HTTP-01" : "", is.dns01 ? " DNS-01" : "")});
  for (const auto& n : names) {
    if (n.starts_with("*.")) {
      if (!is.dns01) {
        c.issuable = false;
        c.problems.push_back(fmt::format("{} is a wildcard: ACME validates wildcards only by DNS-01, and {} has no DNS-01 solver", n,
                                         is.meta.name));
      }
      continue;
    }
    if (!is.http01) {
      if (!is.dns01) {
        c.issuable = false;
        c.problems.push_back("the ACME issuer has no solver");
      }
      continue;
    }
    check_http01(m, g, is, n, dns, outside_client, c);
  }
  if (c.issuable) c.reasons.push_back("cert-manager can complete the ACME challenges for every name");
}

// A CA issuer: the Certificate that writes its key pair's Secret, whose issuer the chain follows
// next; nullptr when the chain ends here (a Secret manifest, or no key pair).
const Certificate* check_ca(const Manifests& m, const Issuer& is, CertificateCheck& c) {
  const std::string secret_ns = is.meta.kind == "ClusterIssuer" ? "cert-manager" : is.meta.ns;
  const Certificate* ca = m.certificate_for_secret(secret_ns, is.ca_secret);
  c.chain.push_back({object_label(is.meta), where_text(is.meta.where), fmt::format("CA with the key pair in Secret {}/{}", secret_ns, is.ca_secret)});
  if (ca == nullptr) {
    if (m.find_secret(secret_ns, is.ca_secret)) {
      c.chain.push_back({"Secret " + secret_ns + "/" + is.ca_secret, "", "a CA key pair given as a manifest"});
      return nullptr;
    }
    c.issuable = false;
    c.problems.push_back(fmt::format("the CA Secret {}/{} is neither a manifest nor written by a Certificate", secret_ns, is.ca_secret));
    return nullptr;
  }
  if (!ca->is_ca) c.problems.push_back(fmt::format("{} signs certificates but is not isCA: clients will not accept the chain", object_label(ca->meta)));
  c.chain.push_back({object_label(ca->meta), where_text(ca->meta.where), ca->is_ca ? "isCA" : "NOT isCA"});
  return ca;
}

// The issuer chain from `from` (at most 8 issuers): whether cert-manager can issue the names.
void follow_issuers(const Manifests& m, const Gateway& g, const Issuance& from, const std::string& ns, const DnsModel* dns,
                    std::uint32_t outside_client, CertificateCheck& c) {
  c.issuable = true;
  std::string issuer_kind = from.issuer_kind;
  std::string issuer_name = from.issuer_name;
  std::string cert_ns = from.cert ? from.cert->meta.ns : ns;
  std::vector<std::string> names = c.dns_names;
  for (int depth = 0; depth < 8; ++depth) {
    const Issuer* is = m.find_issuer(issuer_kind, cert_ns, issuer_name);
    if (is == nullptr) {
      c.issuable = false;
      c.problems.push_back(fmt::format("{} {}{} not found: cert-manager cannot issue", issuer_kind,
                                       issuer_kind == "Issuer" ? cert_ns + "/" : "", issuer_name));
      return;
    }
    if (is->type == Issuer::Type::kSelfSigned) {
      c.chain.push_back({object_label(is->meta), where_text(is->meta.where), "selfSigned: the chain's root"});
      return;
    }
    if (is->type == Issuer::Type::kAcme) {
      check_acme(m, g, *is, names, dns, outside_client, c);
      return;
    }
    if (is->type == Issuer::Type::kCa) {
      const Certificate* ca = check_ca(m, *is, c);
      if (ca == nullptr) return;
      issuer_kind = ca->issuer.kind;
      issuer_name = ca->issuer.name;
      cert_ns = ca->meta.ns;
      names = ca->dns_names;
      continue;
    }
    c.issuable = false;
    c.problems.push_back(object_label(is->meta) + ": issuer type not modelled");
    return;
  }
  c.problems.push_back("issuer chain longer than 8");
}

}  // namespace

CertificateCheck check_listener_certificate(const Manifests& m, const Gateway& g, const Listener& l, const std::string& host,
                                            const DnsModel* dns, std::uint32_t outside_client) {
  CertificateCheck c;
  if (l.certificate_refs.empty()) {
    c.problems.push_back("the listener has no certificateRefs");
    return c;
  }
  const ObjectRef& ref = l.certificate_refs[0];
  const std::string ns = ref.ns.empty() ? g.meta.ns : ref.ns;
  c.secret = ns + "/" + ref.name;
  const Issuance issuance = find_certificate(m, g, ref, ns, c);
  if (!c.found) {
    without_certificate(m, g, ref, ns, c);
    return c;
  }
  for (const auto& n : c.dns_names) c.covers_host = c.covers_host || tls_name_covers(n, host);
  if (c.covers_host) c.reasons.push_back(fmt::format("the certificate's names [{}] cover {}", fmt::join(c.dns_names, ", "), host));
  else c.problems.push_back(fmt::format("the certificate's names [{}] do not cover {}: clients reject the TLS handshake", fmt::join(c.dns_names, ", "), host));
  follow_issuers(m, g, issuance, ns, dns, outside_client, c);
  return c;
}

}  // namespace ct
