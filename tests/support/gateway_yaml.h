// Manifest text for the frontend's tests (src/frontend/gateway_routes_test.cpp,
// frontend_model_test.cpp): the Gateway API and cert-manager documents they build again and again,
// one call a document, so that each test reads as its data. Header only, tests only.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "frontend/manifest_parser.h"

namespace ct::testing_support {

// The manifests of one file, "t.yaml", holding `text`; a parse error fails the calling test.
inline Manifests parsed_manifests(const std::string& text) {
  auto m = parse_manifests({{"t.yaml", text}});
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_diagnostics(m.errors()));
  return std::move(m).value();
}

// One YAML document: "---", apiVersion, kind, metadata (a flow mapping's inside) and `body` (the
// lines after metadata, each ending in a newline).
inline std::string document(const std::string& api_version, const std::string& kind, const std::string& metadata,
                            const std::string& body) {
  return "---\napiVersion: " + api_version + "\nkind: " + kind + "\nmetadata: {" + metadata + "}\n" + body;
}

// Gateway "gw" in namespace `ns` of GatewayClass `class_name` with these listeners (each a flow
// mapping); `metadata_extra` follows the namespace inside metadata (", annotations: {...}").
inline std::string gateway(const std::vector<std::string>& listeners, const std::string& ns = "infra",
                           const std::string& class_name = "cls", const std::string& metadata_extra = "") {
  std::string body = "spec:\n  gatewayClassName: " + class_name + "\n  listeners:\n";
  for (const std::string& l : listeners) body += "  - " + l + "\n";
  return document("gateway.networking.k8s.io/v1", "Gateway", "name: gw, namespace: " + ns + metadata_extra, body);
}

// cert-manager documents: a ClusterIssuer and a Certificate (flow-mapping specs).
inline std::string cluster_issuer(const std::string& name, const std::string& spec) {
  return document("cert-manager.io/v1", "ClusterIssuer", "name: " + name, "spec: " + spec + "\n");
}
inline std::string certificate(const std::string& name, const std::string& ns, const std::string& spec) {
  return document("cert-manager.io/v1", "Certificate", "name: " + name + ", namespace: " + ns, "spec: " + spec + "\n");
}
// The ACME issuer "le" of the tests, answering HTTP-01 through the Gateway "gw".
inline std::string acme_http01_issuer() {
  return cluster_issuer("le", "{acme: {server: https://acme.example/dir, solvers: [{http01: {gatewayHTTPRoute: "
                              "{parentRefs: [{name: gw}]}}}]}}");
}

// An HTTPRoute rule in block style: its matches, filters and backendRefs (each the inside of a flow
// list; an empty one is left out).
inline std::string rule(const std::string& matches, const std::string& backend_refs, const std::string& filters = "") {
  std::string s;
  const auto item = [&s](const std::string& key, const std::string& list) {
    if (list.empty()) return;
    s += (s.empty() ? "  - " : "    ") + key + ": [" + list + "]\n";
  };
  item("matches", matches);
  item("filters", filters);
  item("backendRefs", backend_refs);
  return s;
}
// "  rules:" and the rules.
inline std::string rules(const std::vector<std::string>& each) {
  std::string s = "  rules:\n";
  for (const std::string& r : each) s += r;
  return s;
}
// The backendRef of Service `name` on port 80.
inline std::string to(const std::string& name) { return "{name: " + name + ", port: 80}"; }

}  // namespace ct::testing_support
