// The certificate behind a Gateway listener and whether cert-manager could have issued it.
//
// The listener's certificateRefs name a Secret; cert-manager writes that Secret for the
// Certificate whose spec.secretName names it (in the same namespace), or, with the Gateway
// annotation cert-manager.io/issuer or cert-manager.io/cluster-issuer, for a Certificate its
// gateway-shim creates with the listeners' hostnames as dnsNames. The chain follows issuerRef:
// an Issuer (same namespace) or ClusterIssuer; a CA issuer signs with the key pair of the Secret
// in spec.ca.secretName (for a ClusterIssuer, in the cluster resource namespace, cert-manager by
// default), itself written by another Certificate; the chain ends at a selfSigned or ACME issuer.
// Name coverage is that of TLS (RFC 6125 section 6.4.3): a dNSName "*.example.com" covers exactly
// one more label (a.example.com, not a.b.example.com, not example.com).
// Issuance (cert-manager ACME docs): an HTTP-01 challenge is answered on port 80 of the name, so
// it needs an HTTP listener on port 80 of the solver's Gateway and the name must resolve to it from
// the public internet; a wildcard name can only be validated by DNS-01.
#pragma once

#include <string>
#include <vector>

#include "frontend/dns_views.h"
#include "frontend/manifests.h"

namespace ct {

struct ChainLink {
  std::string object;  // "Certificate infra/grafana-tls", "ClusterIssuer internal-ca"
  std::string where;
  std::string detail;
};

struct CertificateCheck {
  std::string secret;            // ns/name
  bool found = false;            // a Certificate or the gateway-shim issues it (or a static Secret exists)
  bool static_secret = false;    // a Secret manifest, no Certificate: names unknown
  std::vector<std::string> dns_names;
  std::vector<ChainLink> chain;  // Certificate, Issuer, (CA Certificate, Issuer)...
  bool covers_host = false;
  bool issuable = false;
  bool expired = false;          // its Certificate's notAfter passed (a failure study's fork)
  std::vector<std::string> problems;
  std::vector<std::string> reasons;
};

bool tls_name_covers(const std::string& dns_name, const std::string& host);

// `outside_client`: an address the DNS model places outside (for the HTTP-01 reachability check);
// dns may be null (then reachability from outside is not checked, and said so).
CertificateCheck check_listener_certificate(const Manifests& m, const Gateway& gateway, const Listener& listener,
                                            const std::string& host, const DnsModel* dns, std::uint32_t outside_client);

}  // namespace ct
