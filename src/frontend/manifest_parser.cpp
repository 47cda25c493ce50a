// The manifest reader: each document's metadata, then the reader of its kind (frontend/manifest_parser.h).
#include "frontend/manifest_parser.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/clock_text.h"
#include "core/text.h"
#include "frontend/auth_manifests.h"
#include "frontend/gateway_filters.h"
#include "frontend/manifest_reader.h"
#include "frontend/manifest_values.h"
#include "frontend/manifest_yaml.h"
#include "frontend/volume_replicas.h"

namespace ct {

namespace {

bool cluster_scoped(const std::string& kind) {
  static const std::set<std::string> kKinds = {"Namespace", "Node", "GatewayClass", "ClusterIssuer", "StorageClass",
                                               "PersistentVolume", "ClusterRole", "ClusterRoleBinding",
                                               "CustomResourceDefinition"};
  return kKinds.contains(kind);
}

// An address the model reads as IPv4; an IPv6 address (with a ':') is left to the API's own check.
std::string ipv4_or_v6_problem(std::string_view text) {
  return text.find(':') != std::string_view::npos ? std::string() : ipv4_problem(text);
}

// A pod template's containers and initContainers: lists of containers, each named by a DNS label
// unique across both lists, with its ports (containerPort 1..65535, names unique) and resource
// quantities. The model runs no container; they are read so that what the API server refuses is
// refused here, where it is written. Returns the pod's effective requests, as the scheduler counts
// them: the containers' requests summed, raised to any initContainer's (they run one at a time,
// before the containers); a container's request defaults to its limit.
ResourceAmounts read_containers(ManifestReader& r, const YamlValue& pod, std::vector<ContainerPort>& declared) {
  std::map<std::string, int> names;  // container name -> line of the first
  ResourceAmounts sum, init_max;
  for (const char* which : {"containers", "initContainers"}) {
    ResourceAmounts& into = std::string_view(which) == "containers" ? sum : init_max;
    const std::string f = std::string("spec.template.spec.") + which;
    const YamlValue* cs = r.seq(pod.get(which), f);
    if (cs == nullptr) continue;
    for (std::size_t i = 0; i < cs->items.size(); ++i) {
      const YamlValue& c = cs->items[i];
      const std::string cf = fmt::format("{}[{}]", f, i);
      if (!c.is_map()) {
        r.error(c.where, cf, "expected a container (a mapping with name and image)");
        continue;
      }
      const std::string name = r.checked(c.get("name"), cf + ".name", dns_label_problem);
      if (name.empty()) {
        r.error(c.where, cf + ".name", "is required: every container is named");
      } else if (const auto [it, fresh] = names.emplace(name, c.get("name")->where.line); !fresh) {
        r.error(c.get("name")->where, cf + ".name",
                fmt::format("duplicate container name '{}' (first at line {}): names are unique across containers and initContainers",
                            name, it->second));
      }
      if (const YamlValue* ports = r.seq(c.get("ports"), cf + ".ports")) {
        for (std::size_t k = 0; k < ports->items.size(); ++k) {
          const YamlValue& p = ports->items[k];
          const std::string pf = fmt::format("{}.ports[{}]", cf, k);
          if (!p.is_map()) {
            r.error(p.where, pf, "expected a port (a mapping with containerPort)");
            continue;
          }
          const int number = static_cast<int>(r.integer(p.get("containerPort"), pf + ".containerPort", 0, 1, 65535));
          if (p.get("containerPort") == nullptr) r.error(p.where, pf + ".containerPort", "is required");
          declared.push_back({number, r.checked(p.get("name"), pf + ".name", dns_label_problem)});
        }
        r.unique(ports, cf + ".ports");
      }
      const YamlValue* res = c.get("resources");
      if (!r.check(res, cf + ".resources", {"requests", "limits", "claims"})) continue;
      ResourceAmounts mine;
      for (const char* kind : {"limits", "requests"}) {
        const YamlValue* amounts = res->get(kind);
        if (amounts == nullptr) continue;
        if (!amounts->is_map()) {
          r.error(amounts->where, cf + ".resources." + kind, "expected a mapping of resource names to quantities");
          continue;
        }
        for (const auto& [resource, amount] : amounts->entries) {
          const std::string text = r.checked(&amount, cf + ".resources." + kind + "." + resource, quantity_problem);
          if (const auto value = quantity_value(text)) mine[resource] = *value;
        }
      }
      for (const auto& [resource, value] : mine) {
        into[resource] = &into == &sum ? into[resource] + value : std::max(into[resource], value);
      }
    }
  }
  for (const auto& [resource, value] : init_max) sum[resource] = std::max(sum[resource], value);
  return sum;
}

// A Service's ports: the same port number and protocol twice is refused as the API server does.
void unique_port_numbers(ManifestReader& r, const YamlValue& list, const std::vector<ServicePort>& ports) {
  std::map<std::pair<int, std::string>, int> first;  // (port, protocol) -> line
  for (std::size_t i = 0; i < ports.size() && i < list.items.size(); ++i) {
    if (ports[i].port == 0) continue;
    const SourceLocation& where = list.items[i].get("port") ? list.items[i].get("port")->where : list.items[i].where;
    if (const auto [it, fresh] = first.emplace(std::make_pair(ports[i].port, ports[i].protocol), where.line); !fresh) {
      r.error(where, fmt::format("spec.ports[{}].port", i),
              fmt::format("duplicate port {}/{} (first at line {})", ports[i].port, ports[i].protocol, it->second));
    }
  }
}

// The address annotations the model reads (MetalLB's loadBalancerIPs, a comma-separated list, and
// clustertwin.io/public-address), checked where they are written.
void check_address_annotations(ManifestReader& r, const YamlValue& doc) {
  const YamlValue* md = doc.get("metadata");
  const YamlValue* annotations = md != nullptr && md->is_map() ? md->get("annotations") : nullptr;
  if (annotations == nullptr || !annotations->is_map()) return;
  for (const char* key : {"metallb.universe.tf/loadBalancerIPs", "clustertwin.io/public-address"}) {
    const YamlValue* v = annotations->get(key);
    if (v == nullptr || !v->is_scalar()) continue;
    for (std::size_t start = 0; start <= v->scalar.size();) {
      const std::size_t comma = std::min(v->scalar.find(',', start), v->scalar.size());
      const std::string one(trim(std::string_view(v->scalar).substr(start, comma - start)));
      if (const std::string problem = ipv4_or_v6_problem(one); !problem.empty()) {
        r.error(v->where, std::string("metadata.annotations.") + key, fmt::format("'{}': {}", one, problem));
      }
      start = comma + 1;
    }
  }
}

ObjectMeta read_meta(ManifestReader& r, const YamlValue& doc) {
  ObjectMeta m;
  m.where = doc.where;
  m.api_version = r.str(doc.get("apiVersion"), "apiVersion");
  m.kind = r.str(doc.get("kind"), "kind");
  const YamlValue* md = doc.get("metadata");
  if (r.check(md, "metadata",
              {"name", "namespace", "labels", "annotations", "creationTimestamp", "uid", "resourceVersion",
               "generation", "ownerReferences", "finalizers", "generateName", "managedFields"})) {
    // Namespaces and Services are named by DNS labels (they become DNS names themselves), other
    // kinds by DNS subdomains.
    const bool label_named = m.kind == "Namespace" || m.kind == "Service";
    m.name = r.checked(md->get("name"), "metadata.name", label_named ? dns_label_problem : dns_subdomain_problem);
    m.ns = r.checked(md->get("namespace"), "metadata.namespace", dns_label_problem);
    m.labels = r.labels(md->get("labels"), "metadata.labels");
    m.annotations = r.labels(md->get("annotations"), "metadata.annotations");
    m.creation_timestamp = r.str(md->get("creationTimestamp"), "metadata.creationTimestamp");
  }
  const bool longhorn_node = m.kind == "Node" && m.api_version.starts_with("longhorn.io/");
  if (cluster_scoped(m.kind) && !longhorn_node) m.ns.clear();
  else if (m.ns.empty()) m.ns = "default";
  return m;
}

void read_gateway(ManifestReader& r, const YamlValue& spec, Gateway& g) {
  r.check(&spec, "spec", {"gatewayClassName", "listeners", "addresses", "infrastructure", "backendTLS"});
  g.class_name = r.str(spec.get("gatewayClassName"), "spec.gatewayClassName");
  if (const YamlValue* ls = r.seq(spec.get("listeners"), "spec.listeners")) {
    for (const auto& l : ls->items) {
      const std::string f = "spec.listeners[]";
      r.check(&l, f, {"name", "hostname", "port", "protocol", "tls", "allowedRoutes"});
      Listener x;
      x.where = l.where;
      x.name = r.checked(l.get("name"), f + ".name", dns_subdomain_problem);
      if (x.name.empty()) r.error(l.where, f + ".name", "is required: a listener is named");
      x.hostname = r.checked(l.get("hostname"), f + ".hostname", [](std::string_view h) { return hostname_problem(h, true); });
      x.port = static_cast<int>(r.integer(l.get("port"), f + ".port", 0, 1, 65535));
      x.protocol = r.str(l.get("protocol"), f + ".protocol");
      if (const YamlValue* tls = l.get("tls"); r.check(tls, f + ".tls", {"mode", "certificateRefs", "options", "frontendValidation"})) {
        if (const YamlValue* mode = tls->get("mode")) x.tls_mode = r.str(mode, f + ".tls.mode");
        if (const YamlValue* refs = r.seq(tls->get("certificateRefs"), f + ".tls.certificateRefs")) {
          for (const auto& c : refs->items) {
            x.certificate_refs.push_back(read_ref(r, c, f + ".tls.certificateRefs[]", "Secret", {"group", "kind", "name", "namespace"}));
          }
        }
      }
      if (const YamlValue* ar = l.get("allowedRoutes"); r.check(ar, f + ".allowedRoutes", {"namespaces", "kinds"})) {
        if (const YamlValue* ns = ar->get("namespaces"); r.check(ns, f + ".allowedRoutes.namespaces", {"from", "selector"})) {
          if (const YamlValue* from = ns->get("from")) x.allowed_from = r.str(from, f + ".allowedRoutes.namespaces.from");
          x.allowed_selector = r.selector(ns->get("selector"), f + ".allowedRoutes.namespaces.selector");
          if (x.allowed_from != "All" && x.allowed_from != "Same" && x.allowed_from != "Selector") {
            r.error(ns->where, f + ".allowedRoutes.namespaces.from", "expected All, Same or Selector, got '" + x.allowed_from + "'");
          }
        }
        if (const YamlValue* kinds = r.seq(ar->get("kinds"), f + ".allowedRoutes.kinds")) {
          for (const auto& k : kinds->items) {
            r.check(&k, f + ".allowedRoutes.kinds[]", {"group", "kind"});
            x.allowed_kinds.push_back(r.str(k.get("kind"), f + ".allowedRoutes.kinds[].kind"));
          }
        }
      }
      g.listeners.push_back(std::move(x));
    }
    r.unique(ls, "spec.listeners");
  }
  if (const YamlValue* as = r.seq(spec.get("addresses"), "spec.addresses")) {
    for (const auto& a : as->items) {
      r.check(&a, "spec.addresses[]", {"type", "value"});
      const std::string type = r.str(a.get("type"), "spec.addresses[].type");
      g.addresses.push_back(type.empty() || type == "IPAddress"
                                ? r.checked(a.get("value"), "spec.addresses[].value", ipv4_or_v6_problem)
                                : r.str(a.get("value"), "spec.addresses[].value"));
    }
  }
}

void read_route(ManifestReader& r, const YamlValue& spec, HttpRoute& route) {
  r.check(&spec, "spec", {"parentRefs", "hostnames", "rules"});
  if (const YamlValue* ps = r.seq(spec.get("parentRefs"), "spec.parentRefs")) {
    for (const auto& p : ps->items) {
      ParentRef pr;
      pr.ref = read_ref(r, p, "spec.parentRefs[]", "Gateway", {"group", "kind", "namespace", "name", "sectionName", "port"});
      pr.section = r.str(p.get("sectionName"), "spec.parentRefs[].sectionName");
      pr.port = static_cast<int>(r.integer(p.get("port"), "spec.parentRefs[].port", 0, 1, 65535));
      route.parents.push_back(std::move(pr));
    }
  }
  route.hostnames = r.strings(spec.get("hostnames"), "spec.hostnames", [](std::string_view h) { return hostname_problem(h, true); });
  if (const YamlValue* rules = r.seq(spec.get("rules"), "spec.rules")) {
    for (const auto& ru : rules->items) {
      const std::string f = "spec.rules[]";
      r.check(&ru, f, {"name", "matches", "filters", "backendRefs", "timeouts", "retry", "sessionPersistence"});
      RouteRule rule;
      rule.where = ru.where;
      rule.name = r.checked(ru.get("name"), f + ".name", dns_subdomain_problem);
      if (const YamlValue* ms = r.seq(ru.get("matches"), f + ".matches")) {
        for (const auto& m : ms->items) {
          r.check(&m, f + ".matches[]", {"path", "headers", "queryParams", "method"});
          RouteMatch match;
          match.where = m.where;
          if (const YamlValue* p = m.get("path"); r.check(p, f + ".matches[].path", {"type", "value"})) {
            const std::string type = p->get("type") ? r.str(p->get("type"), f + ".matches[].path.type") : "PathPrefix";
            if (type == "Exact") match.path.type = PathMatch::Type::kExact;
            else if (type == "PathPrefix") match.path.type = PathMatch::Type::kPathPrefix;
            else if (type == "RegularExpression") match.path.type = PathMatch::Type::kRegularExpression;
            else r.error(p->get("type")->where, f + ".matches[].path.type", "expected Exact, PathPrefix or RegularExpression, got '" + type + "'");
            if (p->get("value")) match.path.value = r.str(p->get("value"), f + ".matches[].path.value");
            if (match.path.type == PathMatch::Type::kRegularExpression) {
              match.path.regex = std::make_shared<const RouteRegex>(match.path.value);
            } else if (!match.path.value.starts_with("/")) {
              r.error(p->where, f + ".matches[].path.value", "must start with '/'");
            }
          }
          for (const char* which : {"headers", "queryParams"}) {
            const std::string wf = f + ".matches[]." + which + "[]";
            if (const YamlValue* hs = r.seq(m.get(which), f + ".matches[]." + which)) {
              for (const auto& h : hs->items) {
                r.check(&h, wf, {"type", "name", "value"});
                NameValue nv{r.str(h.get("name"), wf + ".name"), r.str(h.get("value"), wf + ".value"), "Exact", nullptr};
                if (h.get("type")) nv.type = r.str(h.get("type"), wf + ".type");
                if (nv.type == "RegularExpression") nv.regex = std::make_shared<const RouteRegex>(nv.value);
                else if (nv.type != "Exact") r.error(h.get("type")->where, wf + ".type", "expected Exact or RegularExpression, got '" + nv.type + "'");
                if (nv.name.empty()) r.error(h.where, wf + ".name", "is required");
                (std::string(which) == "headers" ? match.headers : match.query).push_back(std::move(nv));
              }
            }
          }
          match.method = r.str(m.get("method"), f + ".matches[].method");
          rule.matches.push_back(std::move(match));
        }
      }
      if (const YamlValue* fs = r.seq(ru.get("filters"), f + ".filters")) {
        for (const auto& x : fs->items) {
          rule.filters.push_back(read_filter(r, x, f + ".filters[]"));
        }
      }
      if (const YamlValue* bs = r.seq(ru.get("backendRefs"), f + ".backendRefs")) {
        for (const auto& b : bs->items) {
          BackendRef br;
          br.ref = read_ref(r, b, f + ".backendRefs[]", "Service", {"group", "kind", "name", "namespace", "port", "weight", "filters"});
          br.port = static_cast<int>(r.integer(b.get("port"), f + ".backendRefs[].port", 0, 1, 65535));
          br.weight = static_cast<int>(r.integer(b.get("weight"), f + ".backendRefs[].weight", 1, 0, 1000000));
          rule.backends.push_back(std::move(br));
        }
      }
      if (rule.matches.empty()) {
        RouteMatch all;
        all.where = rule.where;
        rule.matches.push_back(all);
      }
      route.rules.push_back(std::move(rule));
    }
    r.unique(rules, "spec.rules");  // the names given (a rule's name is optional)
  }
  if (route.rules.empty()) {  // the API's default: one rule matching PathPrefix "/" with no backends
    RouteRule rule;
    rule.where = spec.where;
    RouteMatch all;
    all.where = spec.where;
    rule.matches.push_back(all);
    route.rules.push_back(std::move(rule));
  }
}

// A PersistentVolumeClaim's spec (also a StatefulSet's volumeClaimTemplates[].spec).
void read_claim_spec(ManifestReader& r, const YamlValue* spec, const std::string& f, PersistentVolumeClaim& c) {
  if (!r.check(spec, f, {"storageClassName", "accessModes", "resources", "volumeMode", "volumeName", "selector", "dataSource", "dataSourceRef"})) return;
  c.storage_class = r.str(spec->get("storageClassName"), f + ".storageClassName");
  c.access_modes = r.strings(spec->get("accessModes"), f + ".accessModes");
  if (const YamlValue* res = spec->get("resources"); res && res->get("requests")) {
    c.request = r.checked(res->get("requests")->get("storage"), f + ".resources.requests.storage", quantity_problem);
  }
}

// A pod's affinity: nodeAffinity (the first required nodeSelectorTerm; the preferred terms),
// podAffinity and podAntiAffinity (required and preferred terms).
void read_affinity(ManifestReader& r, const YamlValue* aff, KubeWorkload& w) {
  const std::string f = "spec.template.spec.affinity";
  if (!r.check(aff, f, {"nodeAffinity", "podAffinity", "podAntiAffinity"})) return;
  if (const YamlValue* na = aff->get("nodeAffinity")) {
    const YamlValue* req = na->get("requiredDuringSchedulingIgnoredDuringExecution");
    const YamlValue* terms = req ? req->get("nodeSelectorTerms") : nullptr;
    if (terms && terms->is_seq() && !terms->items.empty()) {
      w.required_node_affinity = r.requirements(terms->items[0].get("matchExpressions"), f + ".nodeAffinity...matchExpressions");
    }
    if (const YamlValue* pref = r.seq(na->get("preferredDuringSchedulingIgnoredDuringExecution"), f + ".nodeAffinity.preferred...")) {
      for (const auto& p : pref->items) {
        PreferredNodeTerm t;
        t.weight = static_cast<int>(r.integer(p.get("weight"), f + ".nodeAffinity.preferred[].weight", 1, 1, 100));
        if (const YamlValue* pt = p.get("preference")) t.expressions = r.requirements(pt->get("matchExpressions"), f + "...preference.matchExpressions");
        w.preferred_node_affinity.push_back(std::move(t));
      }
    }
  }
  for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
    const YamlValue* pa = aff->get(kind);
    if (pa == nullptr) continue;
    const bool anti = std::string_view(kind) == "podAntiAffinity";
    for (const bool required : {true, false}) {
      const char* when = required ? "requiredDuringSchedulingIgnoredDuringExecution" : "preferredDuringSchedulingIgnoredDuringExecution";
      const YamlValue* terms = r.seq(pa->get(when), f + "." + kind + "." + when);
      if (terms == nullptr) continue;
      for (const auto& item : terms->items) {
        PodAffinityTerm t;
        t.anti = anti;
        t.required = required;
        const YamlValue* term = &item;
        if (!required) {
          t.weight = static_cast<int>(r.integer(item.get("weight"), f + "." + kind + ".preferred[].weight", 1, 1, 100));
          term = item.get("podAffinityTerm");
          if (term == nullptr) continue;
        }
        t.topology_key = r.str(term->get("topologyKey"), f + "." + kind + "[].topologyKey");
        if (term->get("labelSelector")) t.selector = r.selector(term->get("labelSelector"), f + "." + kind + "[].labelSelector");
        t.namespaces = r.strings(term->get("namespaces"), f + "." + kind + "[].namespaces");
        if (anti && required && t.topology_key == "kubernetes.io/hostname") w.anti_affinity_per_host = true;
        w.pod_affinity.push_back(std::move(t));
      }
    }
  }
}

// spec.template.spec.tolerations.
std::vector<Toleration> read_tolerations(ManifestReader& r, const YamlValue* list) {
  std::vector<Toleration> out;
  const std::string f = "spec.template.spec.tolerations[]";
  const YamlValue* items = r.seq(list, "spec.template.spec.tolerations");
  if (items == nullptr) return out;
  for (const auto& v : items->items) {
    if (!r.check(&v, f, {"key", "operator", "value", "effect", "tolerationSeconds"})) continue;
    Toleration t;
    t.where = v.where;
    t.key = r.str(v.get("key"), f + ".key");
    if (v.get("operator")) t.op = r.str(v.get("operator"), f + ".operator");
    if (t.op != "Equal" && t.op != "Exists") r.error(v.get("operator")->where, f + ".operator", "expected Equal or Exists");
    t.value = r.str(v.get("value"), f + ".value");
    t.effect = r.str(v.get("effect"), f + ".effect");
    if (!t.effect.empty() && t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute") {
      r.error(v.get("effect")->where, f + ".effect", "expected NoSchedule, PreferNoSchedule or NoExecute");
    }
    t.seconds = r.integer(v.get("tolerationSeconds"), f + ".tolerationSeconds", -1, 0, 1LL << 40);
    out.push_back(std::move(t));
  }
  return out;
}

void read_workload(ManifestReader& r, const YamlValue& spec, KubeWorkload& w) {
  r.check(&spec, "spec", {"replicas", "selector", "template", "serviceName", "volumeClaimTemplates", "strategy",
                          "updateStrategy", "minReadySeconds", "revisionHistoryLimit", "podManagementPolicy",
                          "progressDeadlineSeconds", "persistentVolumeClaimRetentionPolicy", "ordinals", "paused"});
  w.where_replicas = spec.get("replicas") ? spec.get("replicas")->where : spec.where;
  w.replicas = static_cast<int>(r.integer(spec.get("replicas"), "spec.replicas", 1, 0, 100000));
  w.selector = r.selector(spec.get("selector"), "spec.selector");
  w.where_strategy = spec.where;
  for (const char* key : {"strategy", "updateStrategy"}) {
    const YamlValue* st = spec.get(key);
    if (st == nullptr || !st->is_map() || st->get("type") == nullptr) continue;
    w.strategy = r.str(st->get("type"), std::string("spec.") + key + ".type");
    w.where_strategy = st->get("type")->where;
  }
  if (const YamlValue* vcts = r.seq(spec.get("volumeClaimTemplates"), "spec.volumeClaimTemplates")) {
    for (const auto& v : vcts->items) {
      r.check(&v, "spec.volumeClaimTemplates[]", {"apiVersion", "kind", "metadata", "spec"});
      PersistentVolumeClaim c;
      c.meta.kind = "PersistentVolumeClaim";
      c.meta.where = v.where;
      if (const YamlValue* md = v.get("metadata")) c.meta.name = r.checked(md->get("name"), "spec.volumeClaimTemplates[].metadata.name", dns_subdomain_problem);
      if (c.meta.name.empty()) r.error(v.where, "spec.volumeClaimTemplates[].metadata.name", "is required");
      read_claim_spec(r, v.get("spec"), "spec.volumeClaimTemplates[].spec", c);
      w.claim_templates.push_back(std::move(c));
    }
  }
  const YamlValue* t = spec.get("template");
  if (!r.check(t, "spec.template", {"metadata", "spec"})) return;
  if (const YamlValue* md = t->get("metadata")) w.pod_labels = r.labels(md->get("labels"), "spec.template.metadata.labels");
  const YamlValue* ps = t->get("spec");
  if (ps == nullptr || !ps->is_map()) return;
  w.where_placement = ps->where;
  w.requests = read_containers(r, *ps, w.container_ports);
  r.unique(r.seq(ps->get("volumes"), "spec.template.spec.volumes"), "spec.template.spec.volumes");
  w.node_selector = r.labels(ps->get("nodeSelector"), "spec.template.spec.nodeSelector");
  read_affinity(r, ps->get("affinity"), w);
  w.tolerations = read_tolerations(r, ps->get("tolerations"));
  if (const YamlValue* tsc = r.seq(ps->get("topologySpreadConstraints"), "spec.template.spec.topologySpreadConstraints")) {
    for (const auto& c : tsc->items) {
      const std::string f = "spec.template.spec.topologySpreadConstraints[]";
      r.check(&c, f, {"maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains", "nodeAffinityPolicy",
                      "nodeTaintsPolicy", "matchLabelKeys"});
      TopologySpread s;
      s.max_skew = static_cast<int>(r.integer(c.get("maxSkew"), f + ".maxSkew", 1, 1, 1000));
      s.topology_key = r.str(c.get("topologyKey"), f + ".topologyKey");
      if (c.get("whenUnsatisfiable")) s.when_unsatisfiable = r.str(c.get("whenUnsatisfiable"), f + ".whenUnsatisfiable");
      if (s.when_unsatisfiable != "DoNotSchedule" && s.when_unsatisfiable != "ScheduleAnyway") {
        r.error(c.get("whenUnsatisfiable")->where, f + ".whenUnsatisfiable", "expected DoNotSchedule or ScheduleAnyway");
      }
      if (c.get("labelSelector")) s.selector = r.selector(c.get("labelSelector"), f + ".labelSelector");
      w.spread.push_back(s);
    }
  }
  if (const YamlValue* vols = r.seq(ps->get("volumes"), "spec.template.spec.volumes")) {
    for (const auto& v : vols->items) {
      if (const YamlValue* pvc = v.get("persistentVolumeClaim")) {
        w.claims.push_back(r.str(pvc->get("claimName"), "spec.template.spec.volumes[].persistentVolumeClaim.claimName"));
      }
    }
  }
}

void read_issuer(ManifestReader& r, const YamlValue& spec, Issuer& is) {
  r.check(&spec, "spec", {"selfSigned", "ca", "acme", "vault", "venafi"});
  if (spec.get("selfSigned")) is.type = Issuer::Type::kSelfSigned;
  if (const YamlValue* ca = spec.get("ca")) {
    is.type = Issuer::Type::kCa;
    r.check(ca, "spec.ca", {"secretName", "crlDistributionPoints", "ocspServers", "issuingCertificateURLs"});
    is.ca_secret = r.str(ca->get("secretName"), "spec.ca.secretName");
  }
  if (const YamlValue* acme = spec.get("acme")) {
    is.type = Issuer::Type::kAcme;
    r.check(acme, "spec.acme", {"server", "email", "privateKeySecretRef", "solvers", "skipTLSVerify", "externalAccountBinding",
                                "preferredChain", "caBundle", "disableAccountKeyGeneration", "enableDurationFeature", "profile"});
    is.acme_server = r.str(acme->get("server"), "spec.acme.server");
    if (const YamlValue* solvers = r.seq(acme->get("solvers"), "spec.acme.solvers")) {
      for (const auto& s : solvers->items) {
        if (const YamlValue* h = s.get("http01")) {
          is.http01 = true;
          const YamlValue* gw = h->get("gatewayHTTPRoute");
          const YamlValue* prs = gw ? gw->get("parentRefs") : nullptr;
          if (prs && prs->is_seq() && !prs->items.empty()) is.http01_gateway = r.str(prs->items[0].get("name"), "parentRefs[].name");
        }
        if (s.get("dns01")) is.dns01 = true;
      }
    }
  }
}

// One reader per kind: the kind's top-level fields, its spec, and the object appended to `out`.
// `spec` is the document's spec, or an empty mapping at the document when it has none.
struct KindInput {
  const YamlValue& doc;
  const YamlValue& spec;
  const ObjectMeta& meta;
};

void read_top(ManifestReader& r, const KindInput& in, std::initializer_list<const char*> known) { r.check(&in.doc, "", known); }

void read_namespace_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  Namespace n;
  n.meta = in.meta;
  out.namespaces.push_back(std::move(n));
}

// Longhorn's Node (longhorn.io/v1beta2 nodes.longhorn.io): spec.allowScheduling, spec.tags and
// spec.disks (each: path, storageReserved, allowScheduling, tags), and the disk sizes Longhorn
// reports in status.diskStatus.<disk>.storageMaximum / storageAvailable.
void read_longhorn_node(ManifestReader& r, const KindInput& in, Manifests& out) {
  r.check(&in.spec, "spec", {"allowScheduling", "disks", "tags", "evictionRequested", "name", "instanceManagerCPURequest"});
  LonghornNode n;
  n.meta = in.meta;
  n.allow_scheduling = r.boolean(in.spec.get("allowScheduling"), "spec.allowScheduling", true);
  n.tags = r.strings(in.spec.get("tags"), "spec.tags");
  const YamlValue* status = in.doc.get("status");
  const YamlValue* disk_status = status != nullptr && status->is_map() ? status->get("diskStatus") : nullptr;
  if (const YamlValue* disks = in.spec.get("disks")) {
    n.disks_given = true;
    if (!disks->is_map()) r.error(disks->where, "spec.disks", "expected a mapping of disk names to disks");
    for (const auto& [name, d] : disks->is_map() ? disks->entries : decltype(disks->entries){}) {
      const std::string f = "spec.disks." + name;
      if (!r.check(&d, f, {"path", "storageReserved", "allowScheduling", "tags", "evictionRequested", "diskType", "diskDriver"})) continue;
      LonghornDisk disk;
      disk.name = name;
      disk.where = d.where;
      disk.path = r.str(d.get("path"), f + ".path");
      if (disk.path.empty()) r.error(d.where, f + ".path", "is required (the disk's mount point on the node)");
      const std::string reserved = r.checked(d.get("storageReserved"), f + ".storageReserved", quantity_problem);
      disk.storage_reserved = quantity_value(reserved).value_or(0);
      disk.allow_scheduling = r.boolean(d.get("allowScheduling"), f + ".allowScheduling", true);
      disk.tags = r.strings(d.get("tags"), f + ".tags");
      const YamlValue* ds = disk_status != nullptr && disk_status->is_map() ? disk_status->get(name) : nullptr;
      if (ds != nullptr && ds->is_map()) {
        const std::string sf = "status.diskStatus." + name;
        disk.storage_maximum = quantity_value(r.checked(ds->get("storageMaximum"), sf + ".storageMaximum", quantity_problem)).value_or(-1);
        disk.storage_available = quantity_value(r.checked(ds->get("storageAvailable"), sf + ".storageAvailable", quantity_problem)).value_or(-1);
      }
      n.disks.push_back(std::move(disk));
    }
  }
  std::sort(n.disks.begin(), n.disks.end(), [](const LonghornDisk& a, const LonghornDisk& b) { return a.name < b.name; });
  out.longhorn_nodes.push_back(std::move(n));
}

void read_node_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  if (in.meta.api_version.starts_with("longhorn.io/")) {
    read_longhorn_node(r, in, out);
    return;
  }
  Node n;
  n.meta = in.meta;
  n.unschedulable = r.boolean(in.spec.get("unschedulable"), "spec.unschedulable", false);
  if (const YamlValue* st = in.doc.get("status"); st && st->get("addresses") && st->get("addresses")->is_seq()) {
    for (const auto& a : st->get("addresses")->items) {
      if (r.str(a.get("type"), "type") == "InternalIP") n.internal_ip = r.checked(a.get("address"), "status.addresses[].address", ipv4_or_v6_problem);
    }
  }
  if (auto it = in.meta.annotations.find("clustertwin.io/host"); it != in.meta.annotations.end()) n.host = it->second;
  if (const YamlValue* taints = r.seq(in.spec.get("taints"), "spec.taints")) {
    for (const auto& t : taints->items) {
      if (!r.check(&t, "spec.taints[]", {"key", "value", "effect", "timeAdded"})) continue;
      Taint taint{r.str(t.get("key"), "spec.taints[].key"), r.str(t.get("value"), "spec.taints[].value"), r.str(t.get("effect"), "spec.taints[].effect")};
      if (taint.key.empty()) r.error(t.where, "spec.taints[].key", "is required");
      if (taint.effect != "NoSchedule" && taint.effect != "PreferNoSchedule" && taint.effect != "NoExecute") {
        r.error(t.get("effect") ? t.get("effect")->where : t.where, "spec.taints[].effect", "expected NoSchedule, PreferNoSchedule or NoExecute");
      }
      n.taints.push_back(std::move(taint));
    }
  }
  if (const YamlValue* st = in.doc.get("status")) {
    if (const YamlValue* alloc = st->get("allocatable"); alloc && alloc->is_map()) {
      for (const auto& [resource, amount] : alloc->entries) {
        const std::string text = r.checked(&amount, "status.allocatable." + resource, quantity_problem);
        if (const auto value = quantity_value(text)) n.allocatable[resource] = *value;
      }
    }
    if (const YamlValue* cap = st->get("capacity"); cap && cap->is_map()) {
      for (const auto& [resource, amount] : cap->entries) {
        const std::string text = r.checked(&amount, "status.capacity." + resource, quantity_problem);
        if (const auto value = quantity_value(text)) n.capacity[resource] = *value;
      }
    }
    if (const YamlValue* conds = r.seq(st->get("conditions"), "status.conditions")) {
      for (const auto& c : conds->items) {
        if (r.str(c.get("type"), "status.conditions[].type") == "Ready") n.ready = r.str(c.get("status"), "status.conditions[].status");
      }
      if (n.ready != "True" && n.ready != "False" && n.ready != "Unknown") {
        r.error(st->get("conditions")->where, "status.conditions[].status", "the Ready condition's status is True, False or Unknown");
      }
    }
  }
  out.nodes.push_back(std::move(n));
}

void read_service_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  const YamlValue* spec = &in.spec;
  Service s;
  s.meta = in.meta;
  r.check(spec, "spec", {"type", "selector", "ports", "externalTrafficPolicy", "loadBalancerIP", "clusterIP",
                         "clusterIPs", "loadBalancerClass", "internalTrafficPolicy", "sessionAffinity",
                         "ipFamilies", "ipFamilyPolicy", "allocateLoadBalancerNodePorts", "publishNotReadyAddresses",
                         "externalIPs", "loadBalancerSourceRanges", "healthCheckNodePort", "externalName"});
  if (spec->get("type")) s.type = r.str(spec->get("type"), "spec.type");
  s.selector = r.labels(spec->get("selector"), "spec.selector");
  if (const YamlValue* ports = r.seq(spec->get("ports"), "spec.ports")) {
    for (const auto& p : ports->items) {
      r.check(&p, "spec.ports[]", {"name", "port", "targetPort", "protocol", "nodePort", "appProtocol"});
      ServicePort sp;
      sp.name = r.str(p.get("name"), "spec.ports[].name");
      sp.port = static_cast<int>(r.integer(p.get("port"), "spec.ports[].port", 0, 1, 65535));
      sp.target_port = p.get("targetPort") ? r.str(p.get("targetPort"), "spec.ports[].targetPort") : std::to_string(sp.port);
      if (p.get("protocol")) sp.protocol = r.str(p.get("protocol"), "spec.ports[].protocol");
      s.ports.push_back(std::move(sp));
    }
    r.unique(ports, "spec.ports");
    unique_port_numbers(r, *ports, s.ports);
  }
  if (const YamlValue* etp = spec->get("externalTrafficPolicy")) {
    s.external_traffic_policy = r.str(etp, "spec.externalTrafficPolicy");
    s.where_policy = etp->where;
    if (s.external_traffic_policy != "Cluster" && s.external_traffic_policy != "Local") {
      r.error(etp->where, "spec.externalTrafficPolicy", "expected Cluster or Local");
    }
  } else {
    s.where_policy = spec->where;
  }
  s.load_balancer_ip = r.checked(spec->get("loadBalancerIP"), "spec.loadBalancerIP", ipv4_or_v6_problem);
  check_address_annotations(r, in.doc);
  const Labels& annotations = in.meta.annotations;
  if (auto it = annotations.find("metallb.universe.tf/loadBalancerIPs"); it != annotations.end()) s.load_balancer_ip = it->second;
  if (auto it = annotations.find("metallb.universe.tf/address-pool"); it != annotations.end()) s.address_pool = it->second;
  out.services.push_back(std::move(s));
}

void read_secret_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "type", "data", "stringData", "immutable"});
  Secret sec;
  sec.meta = in.meta;
  sec.type = r.str(in.doc.get("type"), "type");
  out.secrets.push_back(std::move(sec));
}

void read_workload_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  KubeWorkload w;
  w.meta = in.meta;
  read_workload(r, in.spec, w);
  const YamlValue* md = in.doc.get("metadata");
  const YamlValue* an = md != nullptr && md->is_map() ? md->get("annotations") : nullptr;
  if (const YamlValue* v = an != nullptr && an->is_map() ? an->get("clustertwin.io/startup-seconds") : nullptr) {
    w.startup_s = static_cast<double>(r.integer(v, "metadata.annotations.clustertwin.io/startup-seconds", -1, 0, 86400));
  }
  out.workloads.push_back(std::move(w));
}

void read_gateway_class_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  r.check(&in.spec, "spec", {"controllerName", "parametersRef", "description"});
  GatewayClass gc;
  gc.meta = in.meta;
  gc.controller = r.str(in.spec.get("controllerName"), "spec.controllerName");
  out.gateway_classes.push_back(std::move(gc));
}

void read_gateway_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  Gateway g;
  g.meta = in.meta;
  read_gateway(r, in.spec, g);
  out.gateways.push_back(std::move(g));
}

void read_route_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  HttpRoute route;
  route.meta = in.meta;
  read_route(r, in.spec, route);
  out.routes.push_back(std::move(route));
}

void read_grant_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec"});
  const YamlValue* spec = &in.spec;
  ReferenceGrant g;
  g.meta = in.meta;
  r.check(spec, "spec", {"from", "to"});
  if (const YamlValue* from = r.seq(spec->get("from"), "spec.from")) {
    for (const auto& f : from->items) {
      r.check(&f, "spec.from[]", {"group", "kind", "namespace"});
      g.from.push_back({r.str(f.get("group"), "group"), r.str(f.get("kind"), "kind"), r.str(f.get("namespace"), "namespace")});
    }
  }
  if (const YamlValue* to = r.seq(spec->get("to"), "spec.to")) {
    for (const auto& t : to->items) {
      r.check(&t, "spec.to[]", {"group", "kind", "name"});
      g.to.push_back({r.str(t.get("group"), "group"), r.str(t.get("kind"), "kind"), r.str(t.get("name"), "name")});
    }
  }
  out.grants.push_back(std::move(g));
}

void read_issuer_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  Issuer is;
  is.meta = in.meta;
  read_issuer(r, in.spec, is);
  out.issuers.push_back(std::move(is));
}

// A Go duration ("2160h0m0s") of a Certificate's spec, in seconds; absent: nullopt.
std::optional<double> certificate_duration(ManifestReader& r, const YamlValue* v, const std::string& field) {
  if (v == nullptr) return std::nullopt;
  const std::string text = r.str(v, field);
  const auto s = go_duration_s(text);
  if (!s || *s < 0) {
    r.error(v->where, field, "'" + excerpt(text) + "' is not a duration: a Go duration such as 2160h, 2160h0m0s or 90m");
    return std::nullopt;
  }
  return s;
}

// An RFC 3339 time of a Certificate's status ("2026-12-06T09:00:00Z"); absent: nullopt.
std::optional<std::int64_t> certificate_time(ManifestReader& r, const YamlValue* v, const std::string& field) {
  if (v == nullptr) return std::nullopt;
  const std::string text = r.str(v, field);
  const auto ms = rfc3339_ms(text);
  if (!ms || *ms < 0 || *ms > kMaxTimeMs) {
    r.error(v->where, field, "'" + excerpt(text) + "' is not a time: RFC 3339 such as 2026-12-06T09:00:00Z, from 1970 to the year 9999");
    return std::nullopt;
  }
  return ms;
}

// spec.duration, spec.renewBefore and the status dates, range-checked as cert-manager's webhook
// checks the first two (a duration of at least 1 h, a renewBefore of at least 5 min and shorter
// than the duration) and as any issued certificate's dates are ordered.
void read_certificate_renewal(ManifestReader& r, const KindInput& in, Certificate& c) {
  const YamlValue* dv = in.spec.get("duration");
  const YamlValue* rv = in.spec.get("renewBefore");
  c.duration_s = certificate_duration(r, dv, "spec.duration");
  c.renew_before_s = certificate_duration(r, rv, "spec.renewBefore");
  if (c.duration_s && *c.duration_s < 3600) r.error(dv->where, "spec.duration", fmt::format("{:g} s is shorter than cert-manager's minimum, 1 h", *c.duration_s));
  if (c.renew_before_s && *c.renew_before_s < 300) {
    r.error(rv->where, "spec.renewBefore", fmt::format("{:g} s is shorter than cert-manager's minimum, 5 min", *c.renew_before_s));
  }
  if (c.duration_s && c.renew_before_s && *c.renew_before_s >= *c.duration_s) {
    r.error(rv->where, "spec.renewBefore", "must be shorter than spec.duration (cert-manager refuses the Certificate)");
  }
  const YamlValue* st = in.doc.get("status");
  if (st == nullptr || !st->is_map()) return;
  const YamlValue* nb = st->get("notBefore");
  const YamlValue* na = st->get("notAfter");
  const YamlValue* rt = st->get("renewalTime");
  c.not_before_ms = certificate_time(r, nb, "status.notBefore");
  c.not_after_ms = certificate_time(r, na, "status.notAfter");
  c.renewal_ms = certificate_time(r, rt, "status.renewalTime");
  if (c.not_before_ms && c.not_after_ms && *c.not_before_ms >= *c.not_after_ms) {
    r.error(na->where, "status.notAfter", "must be after status.notBefore");
  }
  if (c.renewal_ms && ((c.not_after_ms && *c.renewal_ms > *c.not_after_ms) || (c.not_before_ms && *c.renewal_ms < *c.not_before_ms))) {
    r.error(rt->where, "status.renewalTime", "must fall within [status.notBefore, status.notAfter]");
  }
}

void read_certificate_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  const YamlValue* spec = &in.spec;
  Certificate c;
  c.meta = in.meta;
  r.check(spec, "spec", {"secretName", "dnsNames", "commonName", "isCA", "issuerRef", "duration", "renewBefore",
                         "privateKey", "usages", "subject", "ipAddresses", "uris", "emailAddresses",
                         "secretTemplate", "keystores", "revisionHistoryLimit", "additionalOutputFormats"});
  c.secret_name = r.str(spec->get("secretName"), "spec.secretName");
  c.dns_names = r.strings(spec->get("dnsNames"), "spec.dnsNames", [](std::string_view h) { return hostname_problem(h, true); });
  c.common_name = r.str(spec->get("commonName"), "spec.commonName");
  c.is_ca = r.boolean(spec->get("isCA"), "spec.isCA", false);
  if (const YamlValue* ir = spec->get("issuerRef")) c.issuer = read_ref(r, *ir, "spec.issuerRef", "Issuer", {"group", "kind", "name"});
  else r.error(spec->where, "spec.issuerRef", "missing");
  if (c.secret_name.empty()) r.error(spec->where, "spec.secretName", "missing");
  read_certificate_renewal(r, in, c);
  out.certificates.push_back(std::move(c));
}

void read_address_pool_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  AddressPool p;
  p.meta = in.meta;
  r.check(&in.spec, "spec", {"addresses", "autoAssign", "avoidBuggyIPs", "serviceAllocation"});
  p.addresses = r.strings(in.spec.get("addresses"), "spec.addresses", pool_entry_problem);
  p.auto_assign = r.boolean(in.spec.get("autoAssign"), "spec.autoAssign", true);
  out.pools.push_back(std::move(p));
}

void read_bgp_advertisement_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  const YamlValue* spec = &in.spec;
  BgpAdvertisement a;
  a.meta = in.meta;
  r.check(spec, "spec", {"ipAddressPools", "ipAddressPoolSelectors", "nodeSelectors", "peers", "aggregationLength",
                         "aggregationLengthV6", "localPref", "communities"});
  a.pools = r.strings(spec->get("ipAddressPools"), "spec.ipAddressPools");
  if (const YamlValue* ns = r.seq(spec->get("nodeSelectors"), "spec.nodeSelectors")) {
    for (const auto& s : ns->items) a.node_selectors.push_back(r.selector(&s, "spec.nodeSelectors[]"));
  }
  a.peers = r.strings(spec->get("peers"), "spec.peers");
  out.bgp_advertisements.push_back(std::move(a));
}

void read_bgp_peer_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  const YamlValue* spec = &in.spec;
  BgpPeer p;
  p.meta = in.meta;
  r.check(spec, "spec", {"myASN", "peerASN", "peerAddress", "holdTime", "keepaliveTime", "nodeSelectors", "peerPort",
                         "sourceAddress", "routerID", "password", "passwordSecret", "bfdProfile", "ebgpMultiHop",
                         "vrf", "connectTime", "enableGracefulRestart", "disableMP", "dynamicASN", "interface"});
  p.my_asn = static_cast<std::uint32_t>(r.integer(spec->get("myASN"), "spec.myASN", 0, 1, 4294967295LL));
  p.peer_asn = static_cast<std::uint32_t>(r.integer(spec->get("peerASN"), "spec.peerASN", 0, 1, 4294967295LL));
  p.peer_address = r.checked(spec->get("peerAddress"), "spec.peerAddress", ipv4_or_v6_problem);
  for (const auto& [field, target] : {std::pair{"holdTime", &p.hold_time_s}, std::pair{"keepaliveTime", &p.keepalive_s}}) {
    if (const YamlValue* v = spec->get(field)) {
      std::string s = r.str(v, std::string("spec.") + field);
      if (s.ends_with("s")) s.pop_back();
      int x = 0;
      auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
      if (ec != std::errc() || ptr != s.data() + s.size() || x < 0 || x > 65535 || (x > 0 && x < 3 && field == std::string("holdTime"))) {
        r.error(v->where, std::string("spec.") + field, "expected a duration in whole seconds like 90s (0 or 3..65535)");
      } else {
        *target = x;
      }
    }
  }
  if (const YamlValue* ns = r.seq(spec->get("nodeSelectors"), "spec.nodeSelectors")) {
    for (const auto& s : ns->items) p.node_selectors.push_back(r.selector(&s, "spec.nodeSelectors[]"));
  }
  out.bgp_peers.push_back(std::move(p));
}

void read_l2_advertisement_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  L2Advertisement a;
  a.meta = in.meta;
  a.pools = r.strings(in.spec.get("ipAddressPools"), "spec.ipAddressPools");
  out.l2_advertisements.push_back(std::move(a));
}

void read_claim_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  PersistentVolumeClaim c;
  c.meta = in.meta;
  read_claim_spec(r, &in.spec, "spec", c);
  out.claims.push_back(std::move(c));
}

void read_storage_class_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "provisioner", "parameters", "reclaimPolicy", "allowVolumeExpansion",
                   "volumeBindingMode", "mountOptions", "allowedTopologies"});
  StorageClass sc;
  sc.meta = in.meta;
  sc.provisioner = r.str(in.doc.get("provisioner"), "provisioner");
  sc.parameters = r.labels(in.doc.get("parameters"), "parameters");
  auto it = in.meta.annotations.find("storageclass.kubernetes.io/is-default-class");
  sc.is_default = it != in.meta.annotations.end() && it->second == "true";
  out.storage_classes.push_back(std::move(sc));
}

// Envoy Gateway's SecurityPolicy and Traefik's Middleware; a kind of that name from another API
// group is someone else's and is listed as unknown.
void read_security_policy_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  if (!in.meta.api_version.starts_with("gateway.envoyproxy.io/")) {
    out.unknown.push_back(UnknownObject{in.meta});
    return;
  }
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  read_security_policy(r, in.doc, in.spec, in.meta, out);
}

void read_middleware_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  if (!in.meta.api_version.starts_with("traefik.io/") && !in.meta.api_version.starts_with("traefik.containo.us/")) {
    out.unknown.push_back(UnknownObject{in.meta});
    return;
  }
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec"});
  read_middleware(r, in.doc, in.spec, in.meta, out);
}

void read_ingress_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  read_ingress(r, in.doc, in.spec, in.meta, out);
}

void read_disruption_budget_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  read_top(r, in, {"apiVersion", "kind", "metadata", "spec", "status"});
  r.check(&in.spec, "spec", {"selector", "minAvailable", "maxUnavailable", "unhealthyPodEvictionPolicy"});
  PodDisruptionBudget b;
  b.meta = in.meta;
  b.selector = r.selector(in.spec.get("selector"), "spec.selector");
  b.min_available = r.str(in.spec.get("minAvailable"), "spec.minAvailable");
  b.max_unavailable = r.str(in.spec.get("maxUnavailable"), "spec.maxUnavailable");
  out.disruption_budgets.push_back(std::move(b));
}

// A Longhorn setting's value, checked when the model reads that setting (volume_replicas.h).
void add_longhorn_setting(ManifestReader& r, const std::string& name, const YamlValue& value, const std::string& field, Manifests& out) {
  const std::string text = r.str(&value, field);
  if (const std::string problem = longhorn_setting_problem(name, text); !problem.empty()) r.error(value.where, field, problem);
  out.longhorn_settings.push_back(LonghornSetting{name, text, value.where});
}

// settings.longhorn.io: metadata.name is the setting, `value` (top level) its value.
void read_longhorn_setting_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  if (!in.meta.api_version.starts_with("longhorn.io/")) {
    out.unknown.push_back(UnknownObject{in.meta});
    return;
  }
  read_top(r, in, {"apiVersion", "kind", "metadata", "value", "status"});
  const YamlValue* value = in.doc.get("value");
  if (value == nullptr) {
    r.error(in.doc.where, "value", "is required (the setting's value, a string)");
    return;
  }
  add_longhorn_setting(r, in.meta.name, *value, "value", out);
}

// The ConfigMap longhorn-default-setting (Longhorn's chart): data."default-setting.yaml" holds the
// settings as YAML, one `name: value` a line. Any other ConfigMap is not read.
void read_config_map_kind(ManifestReader& r, const KindInput& in, Manifests& out) {
  const YamlValue* data = in.doc.get("data");
  const YamlValue* text = in.meta.name == "longhorn-default-setting" && data != nullptr && data->is_map() ? data->get("default-setting.yaml") : nullptr;
  if (text == nullptr || !text->is_scalar()) {
    out.unknown.push_back(UnknownObject{in.meta});
    return;
  }
  auto docs = parse_yaml_documents(text->scalar, text->where.file);
  if (!docs) {
    r.error(text->where, "data.default-setting.yaml", docs.errors().front().message);
    return;
  }
  for (const YamlValue& doc : docs.value()) {
    if (!doc.is_map()) {
      r.error(text->where, "data.default-setting.yaml", "expected `setting-name: value` lines");
      continue;
    }
    for (const auto& [name, value] : doc.entries) {
      YamlValue located = value;  // located in the manifest: the block's first line is the one after its key
      located.where = SourceLocation{text->where.file, text->where.line + value.where.line, value.where.column};
      add_longhorn_setting(r, name, located, "data.default-setting.yaml." + name, out);
    }
  }
}

// The kinds the model reads; any other kind is kept as an UnknownObject.
struct KindReader {
  const char* kind;
  void (*read)(ManifestReader& r, const KindInput& in, Manifests& out);
};
constexpr KindReader kKindReaders[] = {
    {"Namespace", read_namespace_kind},
    {"Node", read_node_kind},
    {"Service", read_service_kind},
    {"Secret", read_secret_kind},
    {"Deployment", read_workload_kind},
    {"StatefulSet", read_workload_kind},
    {"DaemonSet", read_workload_kind},
    {"GatewayClass", read_gateway_class_kind},
    {"Gateway", read_gateway_kind},
    {"HTTPRoute", read_route_kind},
    {"ReferenceGrant", read_grant_kind},
    {"Issuer", read_issuer_kind},
    {"ClusterIssuer", read_issuer_kind},
    {"Certificate", read_certificate_kind},
    {"IPAddressPool", read_address_pool_kind},
    {"BGPAdvertisement", read_bgp_advertisement_kind},
    {"BGPPeer", read_bgp_peer_kind},
    {"L2Advertisement", read_l2_advertisement_kind},
    {"PersistentVolumeClaim", read_claim_kind},
    {"StorageClass", read_storage_class_kind},
    {"SecurityPolicy", read_security_policy_kind},
    {"Middleware", read_middleware_kind},
    {"Ingress", read_ingress_kind},
    {"PodDisruptionBudget", read_disruption_budget_kind},
    {"Setting", read_longhorn_setting_kind},
    {"ConfigMap", read_config_map_kind},
};

// The object's metadata, when the document is an object the model can take: a mapping with a
// kind (not List), a name, and no earlier object of the same kind, namespace and name.
std::optional<ObjectMeta> read_object_meta(ManifestReader& r, const YamlValue& doc, std::map<std::string, SourceLocation>& seen) {
  if (!doc.is_map()) {
    r.error(doc.where, "", "a manifest document must be a mapping");
    return std::nullopt;
  }
  if (doc.get("kind") == nullptr) {
    r.error(doc.where, "kind", "missing: every manifest document needs apiVersion and kind");
    return std::nullopt;
  }
  if (const YamlValue* kind = doc.get("kind"); !kind->is_scalar() || kind->scalar.empty()) {
    r.error(kind->where, "kind", "must be a non-empty kind name (Service, Gateway, ...)");
    return std::nullopt;
  }
  if (const YamlValue* api = doc.get("apiVersion"); api == nullptr || !api->is_scalar() || api->scalar.empty()) {
    r.error(api != nullptr ? api->where : doc.where, "apiVersion",
            "missing: every manifest document needs apiVersion (v1, apps/v1, gateway.networking.k8s.io/v1, ...) and kind");
  }
  if (doc.get("kind")->scalar == "List") {
    r.error(doc.where, "kind", "kind List is not read: write one document per object");
    return std::nullopt;
  }
  ObjectMeta meta = read_meta(r, doc);
  if (meta.name.empty()) {
    r.error(doc.where, "metadata.name", "missing");
    return std::nullopt;
  }
  const std::string key = meta.kind + "/" + meta.ns + "/" + meta.name;
  if (auto [it, fresh] = seen.emplace(key, meta.where); !fresh) {
    r.error(meta.where, "metadata.name",
            fmt::format("duplicate object {} (first defined at {})", object_label(meta), where_text(it->second)));
    return std::nullopt;
  }
  return meta;
}

Result<Manifests> parse_all(const std::vector<ManifestSource>& sources) {
  Manifests out;
  Diagnostics errors;
  ManifestReader r(errors, out.warnings);
  std::map<std::string, SourceLocation> seen;
  for (const auto& src : sources) {
    auto docs = parse_yaml_documents(src.text, src.path);
    if (!docs) {
      errors.insert(errors.end(), docs.errors().begin(), docs.errors().end());
      continue;
    }
    for (const YamlValue& doc : docs.value()) {
      std::optional<ObjectMeta> meta = read_object_meta(r, doc, seen);
      if (!meta) continue;
      YamlValue empty_spec;
      empty_spec.kind = YamlValue::Kind::kMapping;
      empty_spec.where = doc.where;
      const KindInput in{doc, doc.get("spec") ? *doc.get("spec") : empty_spec, *meta};
      const auto* reader = std::find_if(std::begin(kKindReaders), std::end(kKindReaders),
                                        [&](const KindReader& k) { return meta->kind == k.kind; });
      if (reader != std::end(kKindReaders)) {
        reader->read(r, in, out);
      } else {
        UnknownObject u;
        u.meta = *meta;
        out.unknown.push_back(std::move(u));
      }
    }
  }
  if (has_errors(errors)) return errors;
  return out;
}

}  // namespace

Result<Manifests> parse_manifests(const std::vector<ManifestSource>& sources) { return parse_all(sources); }

}  // namespace ct
