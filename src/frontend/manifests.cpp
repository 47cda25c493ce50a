// Reading Kubernetes manifests into the frontend model. Only the fields the model decides on are
// read; every other field of a known kind is checked against the kind's schema (the field names
// of the upstream API types, as far as the model goes) and warned about when unknown, as
// `kubectl apply --validate=warn` does.
#include "frontend/manifests.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <set>

#include <fmt/format.h>


namespace ct {

std::string object_label(const ObjectMeta& m) {
  return m.ns.empty() ? m.kind + " " + m.name : m.kind + " " + m.ns + "/" + m.name;
}

std::string where_text(const SourceLocation& where) {
  if (where.line == 0) return where.file;
  return fmt::format("{}:{}", where.file, where.line);
}

bool LabelSelector::matches(const Labels& labels) const {
  for (const auto& [k, v] : match_labels) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const auto& r : expressions) {
    auto it = labels.find(r.key);
    const bool has = it != labels.end();
    const bool in = has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end();
    if (r.op == "In" && !in) return false;
    if (r.op == "NotIn" && in) return false;
    if (r.op == "Exists" && !has) return false;
    if (r.op == "DoesNotExist" && has) return false;
  }
  return true;
}

bool Toleration::tolerates(const Taint& t) const {
  if (!effect.empty() && effect != t.effect) return false;
  if (key.empty()) return op == "Exists";
  if (key != t.key) return false;
  return op == "Exists" || value == t.value;
}

namespace {

template <typename T>
const T* find_named(const std::vector<T>& v, const std::string& ns, const std::string& name) {
  for (const auto& x : v) {
    if (x.meta.ns == ns && x.meta.name == name) return &x;
  }
  return nullptr;
}

}  // namespace

const Namespace* Manifests::find_namespace(const std::string& name) const { return find_named(namespaces, "", name); }
const Service* Manifests::find_service(const std::string& ns, const std::string& name) const {
  return find_named(services, ns, name);
}
const Gateway* Manifests::find_gateway(const std::string& ns, const std::string& name) const {
  return find_named(gateways, ns, name);
}
const Secret* Manifests::find_secret(const std::string& ns, const std::string& name) const {
  return find_named(secrets, ns, name);
}
const Node* Manifests::find_node(const std::string& name) const { return find_named(nodes, "", name); }
std::vector<std::string> Manifests::node_names() const {
  std::vector<std::string> out;
  for (const Node& n : nodes) out.push_back(n.meta.name);
  return out;
}
const Issuer* Manifests::find_issuer(const std::string& kind, const std::string& ns, const std::string& name) const {
  for (const auto& i : issuers) {
    if (i.meta.kind != kind || i.meta.name != name) continue;
    if (kind == "ClusterIssuer" || i.meta.ns == ns) return &i;
  }
  return nullptr;
}
const Certificate* Manifests::certificate_for_secret(const std::string& ns, const std::string& secret) const {
  for (const auto& c : certificates) {
    if (c.meta.ns == ns && c.secret_name == secret) return &c;
  }
  return nullptr;
}
const PersistentVolumeClaim* Manifests::find_claim(const std::string& ns, const std::string& name) const {
  return find_named(claims, ns, name);
}
const StorageClass* Manifests::find_storage_class(const std::string& name) const {
  return find_named(storage_classes, "", name);
}
const AuthPolicy* Manifests::find_auth_policy(const std::string& kind, const std::string& ns, const std::string& name) const {
  for (const auto& p : auth_policies) {
    if (p.meta.kind == kind && p.meta.ns == ns && p.meta.name == name) return &p;
  }
  return nullptr;
}

}  // namespace ct
