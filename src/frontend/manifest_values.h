// The grammars of the values the Kubernetes API server checks before it stores an object, as the
// manifest reader (manifest_reader.h) checks them where they are written. Each function returns
// "" when the value is valid, else the rule it breaks, worded for a diagnostic. Sources:
//   Quantity     k8s.io/apimachinery/pkg/api/resource/quantity.go:
//                  <quantity> ::= <signedNumber><suffix>; <number> ::= <digits> | <digits>.<digits>
//                  | <digits>. | .<digits>; <suffix> ::= <binarySI> | <decimalExponent> |
//                  <decimalSI>; binarySI Ki Mi Gi Ti Pi Ei; decimalSI n u m "" k M G T P E;
//                  decimalExponent "e" or "E" and a signed integer. One suffix only ("1e400Gi" is
//                  refused). The value must also fit the API's int64 (Quantity.Value(), at most
//                  2^63 - 1), and resources here may not be negative.
//   Names        k8s.io/apimachinery/pkg/util/validation: a DNS-1123 label is at most 63
//                characters of [a-z0-9-], starting and ending with [a-z0-9]; a DNS-1123 subdomain
//                is at most 253 characters, labels of that form joined by '.'.
//   Hostname     gateway-api apis/v1 shared_types.go Hostname: an RFC 1123 subdomain (as above),
//                optionally prefixed by "*." when `wildcard` is allowed; no IP address, no port.
//   IPv4         a dotted quad, each octet 0..255 (routing/port_address.h parse_ipv4).
//   URL          an absolute http or https URL as the authentication configurations take it
//                (Traefik forwardAuth.address, ingress-nginx auth-url / auth-signin, Envoy Gateway
//                OIDC issuer): scheme "http://" or "https://", a host (letters, digits, '.', '-',
//                and for ingress-nginx its '$' variables such as $host), an optional ":port"
//                1..65535, then an optional path starting with '/'.
//   Pool entry   MetalLB IPAddressPool spec.addresses: a CIDR "a.b.c.d/n" (n 0..32) or a range
//                "a.b.c.d-e.f.g.h" whose first address is not above its last. IPv6 entries (with a
//                ':') are not modelled and not checked.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ct {

std::string quantity_problem(std::string_view text);
// The value of a valid quantity ("500m" -> 0.5, "60Gi" -> 64424509440); nullopt when
// quantity_problem refuses it.
std::optional<double> quantity_value(std::string_view text);
std::string dns_label_problem(std::string_view text);
std::string dns_subdomain_problem(std::string_view text);
std::string hostname_problem(std::string_view text, bool wildcard);
std::string ipv4_problem(std::string_view text);
std::string pool_entry_problem(std::string_view text);
std::string url_problem(std::string_view text);

}  // namespace ct
