#include "frontend/request_trace.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/bgp_vip.h"
#include "frontend/cert_chain.h"
#include "frontend/volume_replicas.h"
#include "routing/port_address.h"

namespace ct {

std::string to_string(HopStatus s) {
  switch (s) {
    case HopStatus::kOk: return "ok";
    case HopStatus::kWarning: return "warning";
    case HopStatus::kFailed: return "FAILED";
    case HopStatus::kNotReached: return "not reached";
    case HopStatus::kSkipped: return "skipped";
  }
  return "?";
}

FrontendModel build_frontend_model(Manifests manifests, std::optional<DnsModel> dns, std::optional<Topology> topology) {
  FrontendModel f;
  f.manifests = std::move(manifests);
  f.gateways = build_gateway_model(f.manifests);
  f.placement = place_pods(f.manifests);
  f.dns = std::move(dns);
  f.topology = std::move(topology);
  return f;
}

namespace {

// A representative client address for "inside" (selects the first view that does not match
// everyone) or "outside" (selects the last view), tried over the first addresses of each prefix in
// the configuration and the documentation ranges.
std::optional<std::pair<std::uint32_t, std::string>> representative_client(const DnsModel& dns, bool inside) {
  std::vector<std::uint32_t> candidates;
  const std::function<void(const std::vector<AddressMatchElement>&)> collect = [&](const std::vector<AddressMatchElement>& list) {
    for (const auto& e : list) {
      if (e.kind == AddressMatchElement::Kind::kPrefix && !e.negated) {
        const std::uint32_t mask = e.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - e.prefix);
        candidates.push_back(e.prefix >= 31 ? e.address : ((e.address & mask) | 5));
      }
      if (e.kind == AddressMatchElement::Kind::kList) collect(e.list);
    }
  };
  for (const auto& a : dns.conf.acls) collect(a.elements);
  for (const auto& v : dns.conf.views) collect(v.match_clients);
  for (const char* s : {"203.0.113.200", "198.51.100.200", "192.0.2.200", "100.64.0.5"}) candidates.push_back(*parse_ipv4(s));
  if (dns.conf.views.empty()) return std::nullopt;
  const std::size_t last = dns.conf.views.size() - 1;
  for (std::uint32_t c : candidates) {
    const auto v = select_view(dns.conf, c).view;
    if (!v) continue;
    if (inside && *v != last) return std::make_pair(c, fmt::format("'inside' = {}, a client of view \"{}\"", format_ipv4(c), dns.conf.views[*v].name));
    if (!inside && *v == last) {
      return std::make_pair(c, fmt::format("'outside' = {}, a client of view \"{}\" (the last view)", format_ipv4(c), dns.conf.views[*v].name));
    }
  }
  return std::nullopt;
}

const Gateway* gateway_of_service(const Manifests& m, const Service& s, std::uint32_t vip) {
  if (auto it = s.meta.labels.find("gateway.networking.k8s.io/gateway-name"); it != s.meta.labels.end()) {
    if (const Gateway* g = m.find_gateway(s.meta.ns, it->second)) return g;
  }
  for (const auto& g : m.gateways) {
    for (const auto& a : g.addresses) {
      if (parse_ipv4(a) == vip) return &g;
    }
  }
  return nullptr;
}

// The eight hops, each with its choices (trace_request adds the survival table).
Result<RequestTrace> trace_hops(const FrontendModel& f, const TraceRequest& tr) {
  const Manifests& m = f.manifests;
  auto parsed = parse_request(tr.request, tr.headers, 0);
  if (!parsed) return parsed.errors();
  RequestTrace t;
  t.request = parsed.value();
  const HttpRequest& req = t.request;
  t.hops.resize(8);
  const char* kNames[] = {"DNS", "VIP (BGP + ECMP)", "frontend network", "Gateway listener + TLS", "HTTPRoute rule",
                          "Service + endpoints", "pod + node", "storage"};
  for (int i = 0; i < 8; ++i) {
    t.hops[i].number = i + 1;
    t.hops[i].name = kNames[i];
  }
  // The client.
  std::uint32_t client = 0;
  if (tr.from == "inside" || tr.from == "outside") {
    if (!f.dns) return Diagnostic{{}, "--from", "'" + tr.from + "' needs the DNS views (--dns); or give an IPv4 address"};
    const auto rep = representative_client(*f.dns, tr.from == "inside");
    if (!rep) return Diagnostic{{}, "--from", "no address selects the " + tr.from + " view of " + f.dns->conf.path};
    client = rep->first;
    t.client_why = rep->second;
  } else if (const auto ip = parse_ipv4(tr.from)) {
    client = *ip;
    t.client_why = "given";
  } else {
    return Diagnostic{{}, "--from", "expected inside, outside or an IPv4 address, got '" + tr.from + "'"};
  }
  t.client = format_ipv4(client);
  std::uint32_t outside_client = client;
  if (f.dns) {
    if (auto rep = representative_client(*f.dns, false)) outside_client = rep->first;
  }
  const auto stop = [&](int hop) {
    for (int i = hop; i < 8; ++i) t.hops[i].status = HopStatus::kNotReached;
  };

  // 1. DNS.
  std::uint32_t address = 0;
  RequestHop& h1 = t.hops[0];
  if (const auto literal = parse_ipv4(req.sni.empty() ? req.host : req.sni)) {
    address = *literal;
    h1.status = HopStatus::kSkipped;
    h1.summary = "the URL names an address; no lookup";
  } else if (!f.dns) {
    h1.status = HopStatus::kSkipped;
    h1.summary = "no DNS views given (--dns): taking the Gateway's VIP";
    for (const auto& s : m.services) {
      if (s.type == "LoadBalancer" && parse_ipv4(s.load_balancer_ip) && gateway_of_service(m, s, *parse_ipv4(s.load_balancer_ip))) {
        address = *parse_ipv4(s.load_balancer_ip);
        break;
      }
    }
  } else {
    const std::string name = req.sni.empty() ? req.host : req.sni;
    const DnsAnswer a = resolve_dns(*f.dns, client, name);
    h1.details = a.reasons;
    HopChoice views{"view", "", {}};
    for (std::size_t i = 0; i < f.dns->conf.views.size(); ++i) {
      const DnsView& v = f.dns->conf.views[i];
      views.options.push_back(HopOption{v.name, where_text(v.where), "", a.view && *a.view == i});
    }
    h1.choices.push_back(std::move(views));
    if (a.view) {
      const DnsView& v = f.dns->conf.views[*a.view];
      h1.decided_by = "view \"" + v.name + "\"";
      h1.where = where_text(v.where);
    }
    const auto addrs = a.addresses();
    if (addrs.empty()) {
      h1.status = HopStatus::kFailed;
      h1.summary = fmt::format("{} from {}: {} with no address", name, t.client, a.rcode);
      stop(1);
      return t;
    }
    address = *parse_ipv4(addrs.front());
    if (!a.answer.empty()) h1.where = where_text(a.answer.back().where);
    h1.status = HopStatus::kOk;
    h1.summary = fmt::format("{} -> {} (view \"{}\", TTL {})", name, addrs.front(), f.dns->conf.views[*a.view].name, a.answer.back().ttl);
  }

  // 2. The VIP.
  RequestHop& h2 = t.hops[1];
  const auto vip = find_vip(m, f.placement, address);
  if (!vip) {
    h2.status = HopStatus::kFailed;
    h2.summary = fmt::format("{} is not the address of a LoadBalancer Service of this cluster", format_ipv4(address));
    stop(2);
    return t;
  }
  h2.decided_by = object_label(vip->service->meta);
  h2.where = where_text(vip->service->meta.where);
  h2.details = vip->reasons;
  if (!vip->problems.empty()) {
    h2.status = HopStatus::kFailed;
    h2.summary = vip->problems.front();
    h2.details.insert(h2.details.end(), vip->problems.begin(), vip->problems.end());
    stop(2);
    return t;
  }
  FlowKey flow;
  flow.src_ip = client;
  flow.dst_ip = vip->vip;
  flow.protocol = kIpProtoTcp;
  flow.src_port = tr.source_port;
  flow.dst_port = static_cast<std::uint16_t>(req.port);
  const EcmpChoice choice = router_choice(*vip, flow, tr.router);
  const std::string landing = vip->next_hop_nodes[choice.index];
  std::vector<std::string> hops;
  for (std::size_t i = 0; i < vip->next_hops.size(); ++i) hops.push_back(format_ipv4(vip->next_hops[i]) + " (" + vip->next_hop_nodes[i] + ")");
  h2.details.push_back(fmt::format("router route {}/32: {} next hop(s): {}", format_ipv4(vip->vip), hops.size(), fmt::join(hops, ", ")));
  h2.details.push_back(fmt::format("Linux multipath hash (policy {}, seed {}) of {}:{} -> {}:{} TCP = {:#010x}: next hop {} of {}",
                                   tr.router.policy, tr.router.seed, t.client, tr.source_port, format_ipv4(vip->vip), req.port,
                                   choice.hash, choice.index + 1, hops.size()));
  h2.details.push_back(fmt::format("BGP hold time {} s: a speaker that stops is withdrawn within {} s", vip->hold_time_s, vip->hold_time_s));
  HopChoice next{"next hop", "", {}};
  for (std::size_t i = 0; i < vip->next_hops.size(); ++i) {
    next.options.push_back(HopOption{vip->next_hop_nodes[i], format_ipv4(vip->next_hops[i]), vip->next_hop_nodes[i], i == choice.index});
  }
  h2.choices.push_back(std::move(next));
  t.bgp_hold_s = vip->hold_time_s;
  h2.status = HopStatus::kOk;
  h2.summary = fmt::format("{} announced by {} node(s); this flow lands on {} ({})", format_ipv4(vip->vip), hops.size(), landing,
                           format_ipv4(vip->next_hops[choice.index]));

  // 3. The frontend network.
  RequestHop& h3 = t.hops[2];
  const Node* node = m.find_node(landing);
  if (!f.topology || f.topology->frontend_ports_per_host == 0) {
    h3.status = HopStatus::kSkipped;
    h3.summary = f.topology ? "the cluster spec has no frontend network" : "no cluster spec given (--spec)";
  } else {
    std::string host_name = node && !node->host.empty() ? node->host : landing;
    long long host = -1;
    if (host_name.starts_with("host")) {
      try {
        host = std::stoll(host_name.substr(4));
      } catch (...) {
        host = -1;
      }
    }
    const Topology& topo = *f.topology;
    if (host < 0 || host >= topo.host_count) {
      h3.status = HopStatus::kWarning;
      h3.summary = fmt::format("node {} maps to no host of the spec (annotate it clustertwin.io/host: hostN)", landing);
    } else {
      const VertexId port = topo.frontend_port_of(HostId(static_cast<std::uint64_t>(host)), 0);
      const auto up = topo.neighbors(port);
      if (up.empty()) {
        h3.status = HopStatus::kWarning;
        h3.summary = "the node's frontend port is not cabled";
      } else {
        const VertexId leaf = up[0].neighbor;
        std::set<std::string> spines;
        std::size_t uplinks = 0;
        for (const auto& adj : topo.neighbors(leaf)) {
          if (topo.tier[adj.neighbor.value()] == 2) {
            spines.insert(topo.vertex_name(adj.neighbor));
            ++uplinks;
          }
        }
        h3.status = HopStatus::kOk;
        h3.decided_by = "cluster spec frontend";
        if (f.frontend_where.line > 0) h3.where = where_text(f.frontend_where);
        h3.summary = fmt::format("router -> {} -> {} -> {} ({})", spines.empty() ? "(no spine)" : fmt::format("{}", fmt::join(spines, " | ")),
                                 topo.vertex_name(leaf), topo.vertex_name(port), landing);
        h3.details.push_back(fmt::format("link {} ({:.0f} Gb/s)", topo.link_name(up[0].link), static_cast<double>(topo.capacity[up[0].link.value()].value()) / 1e9));
        h3.details.push_back(fmt::format("{} has {} uplink(s) to {} spine(s); the spine's choice among them is not modelled here, "
                                         "nor the router's links to the spines (outside the spec)",
                                         topo.vertex_name(leaf), uplinks, spines.size()));
        h3.details.push_back("the node's address is on its first frontend port (" + topo.vertex_name(port) + "); bonding is not modelled");
      }
    }
  }

  // 4. Gateway listener and TLS.
  RequestHop& h4 = t.hops[3];
  const Gateway* gw = gateway_of_service(m, *vip->service, vip->vip);
  if (gw == nullptr) {
    h4.status = HopStatus::kFailed;
    h4.summary = object_label(vip->service->meta) + " is not the data plane of any Gateway (label gateway.networking.k8s.io/gateway-name or Gateway spec.addresses)";
    stop(4);
    return t;
  }
  const auto endpoints = service_endpoints(m, f.placement, *vip->service);
  std::vector<std::string> local_pods, all_pods;
  for (const PlacedPod* p : endpoints) {
    all_pods.push_back(p->name + "@" + p->node);
    if (p->node == landing) local_pods.push_back(p->name);
  }
  const bool local_policy = vip->service->external_traffic_policy == "Local";
  HopChoice gateway_pods{"gateway pod", object_label(vip->service->meta), {}};
  for (const PlacedPod* p : endpoints) gateway_pods.options.push_back(HopOption{p->name, "on " + p->node, p->node, !local_policy || p->node == landing});
  h4.choices.push_back(std::move(gateway_pods));
  if (local_policy) {
    h4.details.push_back(fmt::format("externalTrafficPolicy Local: kube-proxy on {} delivers to its own data-plane pod ({})", landing,
                                     local_pods.empty() ? "none: dropped" : fmt::format("{}", fmt::join(local_pods, ", "))));
  } else {
    h4.details.push_back(fmt::format("externalTrafficPolicy Cluster: kube-proxy on {} forwards to any data-plane pod ({}), SNATing the client",
                                     landing, fmt::join(all_pods, ", ")));
  }
  const std::string hint = gw->meta.ns + "/" + gw->meta.name;
  const RouteDecision d = resolve_request(m, f.gateways, req, hint);
  h4.decided_by = "Gateway " + hint;
  h4.where = where_text(gw->meta.where);
  if (!d.has_listener) {
    h4.status = HopStatus::kFailed;
    h4.summary = d.reasons.empty() ? "no listener" : d.reasons.back();
    h4.details.insert(h4.details.end(), d.reasons.begin(), d.reasons.end());
    stop(4);
    t.http_status = d.status;
    return t;
  }
  const Listener& l = gw->listeners[f.gateways.listeners[d.listener].listener];
  h4.decided_by = fmt::format("Gateway {} listener {}", hint, l.name);
  h4.where = where_text(l.where);
  h4.details.push_back(d.reasons.front());
  h4.status = HopStatus::kOk;
  h4.summary = fmt::format("listener {} (port {}, {}, hostname {})", l.name, l.port, l.protocol, l.hostname.empty() ? "any" : l.hostname);
  if (l.protocol == "HTTPS") {
    const CertificateCheck c = check_listener_certificate(m, *gw, l, req.sni, f.dns ? &*f.dns : nullptr, outside_client);
    for (const auto& link : c.chain) h4.details.push_back(fmt::format("TLS chain: {} ({}): {}", link.object, link.where, link.detail));
    h4.details.insert(h4.details.end(), c.reasons.begin(), c.reasons.end());
    for (const auto& p : c.problems) h4.details.push_back("PROBLEM: " + p);
    if (!c.found || !c.covers_host) {
      h4.status = HopStatus::kFailed;
      h4.summary += "; TLS fails: " + c.problems.front();
      stop(4);
      return t;
    }
    h4.summary += fmt::format("; TLS Secret {} covers {}{}", c.secret, req.sni, c.issuable ? ", issuable" : "");
    if (!c.issuable) {
      h4.status = HopStatus::kWarning;
      h4.summary += " but cert-manager cannot issue or renew it";
    }
  }
  if (d.status == 421) {
    h4.status = HopStatus::kFailed;
    h4.summary += "; 421 Misdirected Request";
    h4.details.insert(h4.details.end(), d.reasons.begin() + 1, d.reasons.end());
    t.http_status = 421;
    stop(4);
    return t;
  }

  // 5. The route.
  RequestHop& h5 = t.hops[4];
  t.http_status = d.status;
  h5.details.assign(d.reasons.begin() + 1, d.reasons.end());
  if (!d.has_entry) {
    h5.status = HopStatus::kFailed;
    h5.summary = "no rule matches: " + std::to_string(d.status);
    stop(5);
    return t;
  }
  const HttpRoute& route = m.routes[d.entry.route];
  const RouteRule& rule = route.rules[d.entry.rule];
  h5.decided_by = fmt::format("HTTPRoute {} rule {}", route_label(m, d.entry.route), d.entry.rule);
  h5.where = where_text(rule.matches[d.entry.match].where);
  h5.summary = fmt::format("{} -> {}", describe_match(rule.matches[d.entry.match]), d.status);
  h5.status = d.status == 200 ? HopStatus::kOk : HopStatus::kFailed;
  if (!d.location.empty()) {
    // A RequestRedirect answers at the Gateway: the client follows the Location, no backend is called.
    h5.status = HopStatus::kOk;
    h5.summary += " Location: " + d.location;
    stop(5);
    return t;
  }
  const bool shown = std::any_of(h5.details.begin(), h5.details.end(),
                                 [](const std::string& x) { return x.starts_with("the request as it reaches the backend"); });
  if (d.forwarded && !shown) h5.details.push_back("the request as it reaches the backend: " + describe_upstream_request(d.upstream));
  for (const auto& mirror : d.mirrors) {
    h5.details.push_back(fmt::format("mirrored to {} port {} (responses ignored){}", mirror.service, mirror.port,
                                     mirror.valid ? "" : ": " + mirror.problem));
  }
  const BackendChoice* backend = nullptr;
  for (const auto& b : d.backends) {
    if (b.valid && (backend == nullptr || b.weight > backend->weight)) backend = &b;
  }
  HopChoice backends{"backend", "", {}};
  for (const auto& b : d.backends) {
    backends.options.push_back(HopOption{b.service, fmt::format("port {}, weight {} ({:.0f}%){}", b.port, b.weight, 100 * b.share,
                                                                b.valid ? "" : ": " + b.problem),
                                         "", &b == backend});
  }
  h5.choices.push_back(std::move(backends));
  if (backend == nullptr) {
    stop(5);
    return t;
  }

  // 6. Service and endpoints.
  RequestHop& h6 = t.hops[5];
  const auto slash = backend->service.find('/');
  const Service* svc = m.find_service(backend->service.substr(0, slash), backend->service.substr(slash + 1));
  h6.decided_by = object_label(svc->meta);
  h6.where = where_text(svc->meta.where);
  const auto eps = service_endpoints(m, f.placement, *svc);
  std::string target = std::to_string(backend->port);
  for (const auto& p : svc->ports) {
    if (p.port == backend->port) target = p.target_port;
  }
  HopChoice endpoint_choice{"endpoint", backend->service, {}};
  for (const PlacedPod* p : eps) endpoint_choice.options.push_back(HopOption{p->name, "on " + p->node, p->node, true});
  h6.choices.push_back(std::move(endpoint_choice));
  if (d.backends.size() > 1) h6.details.push_back(fmt::format("the rule has {} backends; following the heaviest, {} ({:.0f}%)", d.backends.size(),
                                                              backend->service, 100 * backend->share));
  if (eps.empty()) {
    h6.status = HopStatus::kFailed;
    h6.summary = fmt::format("{} port {} has no endpoints (no placed pod matches its selector): 503", backend->service, backend->port);
    t.http_status = 503;
    stop(6);
    return t;
  }
  h6.status = HopStatus::kOk;
  h6.summary = fmt::format("{} port {} -> targetPort {} on {} endpoint(s)", backend->service, backend->port, target, eps.size());

  // 7. Pods and nodes.
  RequestHop& h7 = t.hops[6];
  std::set<std::size_t> workloads;
  std::vector<std::string> pods;
  for (const PlacedPod* p : eps) {
    pods.push_back(p->name + " on " + p->node);
    h7.details.push_back(fmt::format("{} on {}: {}", p->name, p->node, p->why));
    workloads.insert(p->workload);
  }
  const KubeWorkload& w = m.workloads[*workloads.begin()];
  h7.decided_by = object_label(w.meta);
  h7.where = where_text(w.meta.where);
  h7.status = HopStatus::kOk;
  h7.summary = fmt::format("the Gateway balances over {}: {}", pods.size(), fmt::join(pods, ", "));
  HopChoice pod_choice{"pod", object_label(w.meta), {}};
  for (const auto& p : f.placement.pods) {
    if (p.workload != *workloads.begin()) continue;
    const bool endpoint = std::any_of(eps.begin(), eps.end(), [&](const PlacedPod* e) { return e == &p; });
    pod_choice.options.push_back(HopOption{p.name, p.node.empty() ? "Pending" : "on " + p.node, p.node, endpoint});
    if (p.node.empty()) {
      h7.status = HopStatus::kWarning;
      h7.details.push_back(p.name + ": " + p.why);
    }
  }
  h7.choices.push_back(std::move(pod_choice));

  // 8. Storage.
  RequestHop& h8 = t.hops[7];
  // The pod the hop follows mounts the workload's claims and, for a StatefulSet pod NAME-i, the
  // claim TEMPLATE-NAME-i of each volumeClaimTemplate (a manifest of that name, else the template).
  const PlacedPod& pod = *eps.front();
  std::vector<std::pair<std::string, const PersistentVolumeClaim*>> claims;
  std::vector<PersistentVolumeClaim> from_templates;
  from_templates.reserve(w.claim_templates.size());
  for (const auto& c : w.claims) claims.emplace_back(c, nullptr);
  for (const auto& tpl : w.claim_templates) {
    const std::string name = tpl.meta.name + "-" + pod.name;
    if (m.find_claim(w.meta.ns, name) != nullptr) {
      claims.emplace_back(name, nullptr);
      continue;
    }
    PersistentVolumeClaim c = tpl;
    c.meta.name = name;
    c.meta.ns = w.meta.ns;
    from_templates.push_back(std::move(c));
    claims.emplace_back(name, &from_templates.back());
  }
  if (claims.empty()) {
    h8.status = HopStatus::kSkipped;
    h8.summary = "the pods mount no PersistentVolumeClaim";
    return t;
  }
  h8.status = HopStatus::kOk;
  for (const auto& [claim, tpl] : claims) {
    const VolumeReport v = tpl != nullptr ? describe_claim_volume(m, *tpl, pod.node) : describe_volume(m, w.meta.ns, claim, pod.node);
    if (v.claim) {
      h8.decided_by = tpl != nullptr ? fmt::format("{} volumeClaimTemplates {}", object_label(w.meta),
                                                   claim.substr(0, claim.size() - pod.name.size() - 1))
                                     : object_label(v.claim->meta);
      h8.where = where_text(v.claim->meta.where);
    }
    if (tpl != nullptr) h8.details.push_back(fmt::format("{} is made by the StatefulSet from its volumeClaimTemplates", claim));
    h8.details.insert(h8.details.end(), v.reasons.begin(), v.reasons.end());
    for (const auto& p : v.problems) h8.details.push_back("PROBLEM: " + p);
    h8.details.insert(h8.details.end(), v.survival.begin(), v.survival.end());
    if (!v.candidate_nodes.empty()) {
      HopChoice replicas{"replica", claim, {}};
      for (const auto& c : v.candidate_nodes) {
        const bool holds = std::find(v.replica_nodes.begin(), v.replica_nodes.end(), c) != v.replica_nodes.end();
        replicas.options.push_back(HopOption{c, holds ? "replica" : "", c, holds});
      }
      h8.choices.push_back(std::move(replicas));
    }
    if (!v.engine_node.empty() && !v.candidate_nodes.empty()) h8.choices.push_back(HopChoice{"engine", claim, {HopOption{v.engine_node, "", v.engine_node, true}}});
    if (!v.problems.empty()) h8.status = HopStatus::kWarning;
    h8.summary += (h8.summary.empty() ? "" : "; ") +
                  fmt::format("{} ({}): engine on {}, {} replica(s) on {}", claim, v.claim ? v.claim->request : "?", v.engine_node,
                              v.replica_nodes.size(), fmt::join(v.replica_nodes, ", "));
  }
  return t;
}

// What the death of each node the trace touched does to the request (request_trace.h).
std::vector<NodeSurvival> node_survival(const RequestTrace& t) {
  std::map<std::string, NodeSurvival> nodes;
  std::map<std::string, std::vector<std::string>> effects;
  const auto touch = [&](const std::string& node, std::string role, std::string effect, bool fatal) {
    NodeSurvival& n = nodes[node];
    n.node = node;
    n.roles.push_back(std::move(role));
    effects[node].push_back(std::move(effect));
    if (fatal) n.served = false;
  };
  for (const RequestHop& h : t.hops) {
    for (const HopChoice& c : h.choices) {
      // The nodes of the options that count (every next hop, Gateway pod and endpoint; the taken replicas).
      std::map<std::string, std::vector<const HopOption*>> on;
      std::size_t counted = 0;
      for (const HopOption& o : c.options) {
        if (c.what == "replica" && !o.taken) continue;
        ++counted;
        if (!o.node.empty()) on[o.node].push_back(&o);
      }
      for (const auto& [node, here] : on) {
        std::vector<std::string> names;
        for (const HopOption* o : here) names.push_back(o->name);
        const std::size_t left = counted - here.size();
        if (c.what == "next hop") {
          const bool mine = here.front()->taken;
          if (left == 0) {
            touch(node, mine ? "this flow's next hop" : "router next hop", "the VIP's only next hop: unreachable until another node announces it", true);
          } else {
            touch(node, mine ? "this flow's next hop" : "router next hop",
                  mine ? fmt::format("this flow is cut until the router withdraws the next hop (within the {} s BGP hold "
                                     "time), then hashed over the {} next hop(s) left", t.bgp_hold_s, left)
                       : fmt::format("withdrawn within the {} s BGP hold time; the router hashes over the {} next hop(s) left",
                                     t.bgp_hold_s, left),
                  false);
          }
        } else if (c.what == "gateway pod") {
          touch(node, fmt::format("Gateway pod {}", fmt::join(names, ", ")),
                left == 0 ? std::string("no Gateway data-plane pod left: nothing answers on the VIP")
                          : fmt::format("{} Gateway pod(s) left", left),
                left == 0);
        } else if (c.what == "endpoint") {
          touch(node, fmt::format("endpoint {} of {}", fmt::join(names, ", "), c.of),
                left == 0 ? fmt::format("no endpoint of {} left: 503 until the pods are rescheduled", c.of)
                          : fmt::format("{} endpoint(s) of {} left", left, c.of),
                left == 0);
        } else if (c.what == "replica") {
          nodes[node].replicas.push_back(ReplicasLeft{c.of, static_cast<int>(left), static_cast<int>(counted)});
          touch(node, "replica of " + c.of,
                left == 0 ? fmt::format("the last replica of {}: the data is lost", c.of)
                          : fmt::format("{} Degraded: {} of {} replica(s) until Longhorn rebuilds one", c.of, left, counted),
                left == 0);
        } else if (c.what == "engine") {
          touch(node, "volume engine of " + c.of, c.of + " reattaches where the pod is rescheduled", false);
        }
      }
    }
  }
  std::vector<NodeSurvival> out;
  for (auto& [node, n] : nodes) {
    n.effect = fmt::format("{}", fmt::join(effects[node], "; "));
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace

Result<RequestTrace> trace_request(const FrontendModel& f, const TraceRequest& tr) {
  auto t = trace_hops(f, tr);
  if (t) t->survival = node_survival(t.value());
  return t;
}

}  // namespace ct
