#include "frontend/request_trace.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <iterator>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/suggest.h"
#include "core/text.h"
#include "frontend/auth_coverage.h"
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
  f.auth = build_auth_dependencies(f.manifests, f.gateways, f.placement);
  return f;
}

Diagnostics kill_nodes(FrontendModel& f, const std::vector<std::string>& nodes) {
  Diagnostics errors;
  for (const auto& n : nodes) {
    if (f.manifests.find_node(n) == nullptr) {
      errors.push_back({{"command line", 0, 0}, "--dead-node",
                        "no Node '" + n + "' in the manifests" + did_you_mean(n, f.manifests.node_names())});
    }
  }
  if (!errors.empty()) return errors;
  const auto dead = [&](const std::string& n) { return std::find(nodes.begin(), nodes.end(), n) != nodes.end(); };
  for (auto& pod : f.placement.pods) {
    if (pod.node.empty() || !dead(pod.node)) continue;
    pod.why = fmt::format("node {} is dead: gone until the pod is rescheduled (not modelled)", pod.node);
    pod.node.clear();
  }
  std::erase_if(f.manifests.nodes, [&](const Node& n) { return dead(n.meta.name); });
  for (const auto& n : nodes) {
    if (std::find(f.dead_nodes.begin(), f.dead_nodes.end(), n) == f.dead_nodes.end()) f.dead_nodes.push_back(n);
  }
  f.auth = build_auth_dependencies(f.manifests, f.gateways, f.placement);
  return errors;
}

std::optional<long long> spec_host_of(std::string_view name) {
  if (!name.starts_with("host")) return std::nullopt;
  const std::string_view digits = name.substr(4);
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  long long host = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), host);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return host;
}

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

namespace {

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

// The client's address (--from), how it was chosen, and the address that stands for "outside"
// (the TLS check asks what an outside client resolves).
struct Client {
  std::uint32_t address = 0;
  std::string why;
  std::uint32_t outside = 0;
};

Result<Client> choose_client(const FrontendModel& f, const std::string& from) {
  Client c;
  if (from == "inside" || from == "outside") {
    if (!f.dns) return Diagnostic{{"command line", 0, 0}, "--from", "'" + from + "' needs the DNS views (--dns); or give an IPv4 address"};
    const auto rep = representative_client(*f.dns, from == "inside");
    if (!rep) return Diagnostic{{f.dns->conf.path, 0, 0}, "", "no address selects the " + from + " view (--from " + from + ")"};
    c.address = rep->first;
    c.why = rep->second;
  } else if (const auto ip = parse_ipv4(from)) {
    c.address = *ip;
    c.why = "given";
  } else {
    return Diagnostic{{"command line", 0, 0}, "--from",
                      "expected inside, outside or an IPv4 address, got '" + from + "'" + did_you_mean(from, {"inside", "outside"})};
  }
  c.outside = c.address;
  if (f.dns) {
    if (auto rep = representative_client(*f.dns, false)) c.outside = rep->first;
  }
  return c;
}

// What a stub resolver does with a CNAME answered alone: glibc's getaddrinfo (and musl's) takes no
// address from it and asks no more; one that chases CNAMEs itself (systemd-resolved) sends a
// second query for the target to the same server from the same address, so the same view answers.
std::string stub_after_cname(const DnsModel& dns, std::uint32_t client, const DnsAnswer& a) {
  const DnsAnswer again = resolve_dns(dns, client, a.chain_stops_at);
  const std::string& view = dns.conf.views[*a.view].name;
  std::string outcome;
  if (!again.addresses().empty()) outcome = fmt::format("{}", fmt::join(again.addresses(), ", "));
  else if (!again.chain_stops_at.empty()) outcome = "another CNAME alone, to " + again.chain_stops_at;
  else if (again.rcode == "RECURSIVE") outcome = "a recursive lookup outside the model";
  else outcome = again.rcode + " with no address";
  return fmt::format("a stub resolver: glibc's getaddrinfo finds no address in this answer and asks no more (the lookup fails); "
                     "one that follows CNAMEs itself (systemd-resolved) asks again for {}, and view \"{}\" answers that second "
                     "query too (views are chosen by the client's address): {}",
                     a.chain_stops_at, view, outcome);
}

// Hop 1: the address the client connects to; nullopt when the name resolves to none.
std::optional<std::uint32_t> dns_hop(const FrontendModel& f, const RequestTrace& t, std::uint32_t client, RequestHop& h) {
  const Manifests& m = f.manifests;
  const HttpRequest& req = t.request;
  if (const auto literal = parse_ipv4(req.sni.empty() ? req.host : req.sni)) {
    h.status = HopStatus::kSkipped;
    h.summary = "the URL names an address; no lookup";
    return *literal;
  }
  if (!f.dns) {
    h.status = HopStatus::kSkipped;
    h.summary = "no DNS views given (--dns): taking the Gateway's VIP";
    for (const auto& s : m.services) {
      if (s.type == "LoadBalancer" && parse_ipv4(s.load_balancer_ip) && gateway_of_service(m, s, *parse_ipv4(s.load_balancer_ip))) {
        return *parse_ipv4(s.load_balancer_ip);
      }
    }
    return 0;
  }
  const std::string name = req.sni.empty() ? req.host : req.sni;
  const DnsAnswer a = resolve_dns(*f.dns, client, name);
  h.details = a.reasons;
  HopChoice views{"view", "", {}};
  for (std::size_t i = 0; i < f.dns->conf.views.size(); ++i) {
    const DnsView& v = f.dns->conf.views[i];
    views.options.push_back(HopOption{v.name, where_text(v.where), "", a.view && *a.view == i});
  }
  h.choices.push_back(std::move(views));
  if (a.view) {
    const DnsView& v = f.dns->conf.views[*a.view];
    h.decided_by = "view \"" + v.name + "\"";
    h.where = where_text(v.where);
  }
  const auto addrs = a.addresses();
  if (addrs.empty()) {
    h.status = HopStatus::kFailed;
    h.summary = fmt::format("{} from {}: {} with no address", name, t.client, a.rcode);
    if (!a.chain_stops_at.empty()) {
      h.summary = fmt::format("{} from {}: NOERROR with the CNAME alone (to {}), no address", name, t.client, a.chain_stops_at);
      h.details.push_back(stub_after_cname(*f.dns, client, a));
    }
    if (a.rcode == "RECURSIVE") {
      h.summary = fmt::format("{} from {}: named resolves {} recursively, outside the model", name, t.client, a.recursive_lookup);
    }
    return std::nullopt;
  }
  if (!a.answer.empty()) h.where = where_text(a.answer.back().where);
  h.status = HopStatus::kOk;
  h.summary = fmt::format("{} -> {} (view \"{}\", TTL {})", name, addrs.front(), f.dns->conf.views[*a.view].name, a.answer.back().ttl);
  return *parse_ipv4(addrs.front());
}

// The VIP that takes the request and the node the router's ECMP choice lands it on.
struct Landing {
  VipAnnouncement vip;
  std::string node;
};

// Hop 2: nullopt when the address is no reachable VIP.
std::optional<Landing> vip_hop(const FrontendModel& f, const TraceRequest& tr, std::uint32_t client, std::uint32_t address,
                               RequestTrace& t) {
  RequestHop& h = t.hops[1];
  const HttpRequest& req = t.request;
  auto vip = find_vip(f.manifests, f.placement, address);
  if (!vip) {
    h.status = HopStatus::kFailed;
    h.summary = fmt::format("{} is not the address of a LoadBalancer Service of this cluster", format_ipv4(address));
    return std::nullopt;
  }
  h.decided_by = object_label(vip->service->meta);
  h.where = where_text(vip->service->meta.where);
  h.details = vip->reasons;
  if (!vip->problems.empty()) {
    h.status = HopStatus::kFailed;
    h.summary = vip->problems.front();
    h.details.insert(h.details.end(), vip->problems.begin(), vip->problems.end());
    return std::nullopt;
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
  h.details.push_back(fmt::format("router route {}/32: {} next hop(s): {}", format_ipv4(vip->vip), hops.size(), fmt::join(hops, ", ")));
  h.details.push_back(fmt::format("Linux multipath hash (policy {}, seed {}) of {}:{} -> {}:{} TCP = {:#010x}: next hop {} of {}",
                                  tr.router.policy, tr.router.seed, t.client, tr.source_port, format_ipv4(vip->vip), req.port,
                                  choice.hash, choice.index + 1, hops.size()));
  h.details.push_back(fmt::format("BGP hold time {} s: a speaker that stops is withdrawn within {} s", vip->hold_time_s, vip->hold_time_s));
  HopChoice next{"next hop", "", {}};
  for (std::size_t i = 0; i < vip->next_hops.size(); ++i) {
    next.options.push_back(HopOption{vip->next_hop_nodes[i], format_ipv4(vip->next_hops[i]), vip->next_hop_nodes[i], i == choice.index});
  }
  h.choices.push_back(std::move(next));
  t.bgp_hold_s = vip->hold_time_s;
  h.status = HopStatus::kOk;
  h.summary = fmt::format("{} announced by {} node(s); this flow lands on {} ({})", format_ipv4(vip->vip), hops.size(), landing,
                          format_ipv4(vip->next_hops[choice.index]));
  return Landing{std::move(*vip), landing};
}

// Hop 3: the frontend switches above the landing node (a warning, never a stop).
void network_hop(const FrontendModel& f, const std::string& landing, RequestHop& h) {
  if (!f.topology || f.topology->frontend_ports_per_host == 0) {
    h.status = HopStatus::kSkipped;
    h.summary = f.topology ? "the cluster spec has no frontend network" : "no cluster spec given (--spec)";
    return;
  }
  const Node* node = f.manifests.find_node(landing);
  const Topology& topo = *f.topology;
  const auto host = spec_host_of(node && !node->host.empty() ? node->host : landing);
  if (!host || *host >= topo.host_count) {
    h.status = HopStatus::kWarning;
    h.summary = fmt::format("node {} maps to no host of the spec (annotate it clustertwin.io/host: hostN)", landing);
    return;
  }
  const VertexId port = topo.frontend_port_of(HostId(*host), 0);
  const auto up = topo.neighbors(port);
  if (up.empty()) {
    h.status = HopStatus::kWarning;
    h.summary = "the node's frontend port is not cabled";
    return;
  }
  const VertexId leaf = up[0].neighbor;
  std::set<std::string> spines;
  std::size_t uplinks = 0;
  for (const auto& adj : topo.neighbors(leaf)) {
    if (topo.tier[adj.neighbor.value()] == 2) {
      spines.insert(topo.vertex_name(adj.neighbor));
      ++uplinks;
    }
  }
  h.status = HopStatus::kOk;
  h.decided_by = "cluster spec frontend";
  if (f.frontend_where.line > 0) h.where = where_text(f.frontend_where);
  h.summary = fmt::format("router -> {} -> {} -> {} ({})", spines.empty() ? "(no spine)" : fmt::format("{}", fmt::join(spines, " | ")),
                          topo.vertex_name(leaf), topo.vertex_name(port), landing);
  h.details.push_back(fmt::format("link {} ({:.0f} Gb/s)", topo.link_name(up[0].link), static_cast<double>(topo.capacity[up[0].link.value()].value()) / 1e9));
  h.details.push_back(fmt::format("{} has {} uplink(s) to {} spine(s); the spine's choice among them is not modelled here, "
                                  "nor the router's links to the spines (outside the spec)",
                                  topo.vertex_name(leaf), uplinks, spines.size()));
  h.details.push_back("the node's address is on its first frontend port (" + topo.vertex_name(port) + "); bonding is not modelled");
}

// Hop 4's data plane: the Gateway's pods that kube-proxy on the landing node may deliver to.
void gateway_pods(const FrontendModel& f, const Landing& in, RequestHop& h) {
  const auto endpoints = service_endpoints(f.manifests, f.placement, *in.vip.service);
  std::vector<std::string> local_pods, all_pods;
  for (const PlacedPod* p : endpoints) {
    all_pods.push_back(p->name + "@" + p->node);
    if (p->node == in.node) local_pods.push_back(p->name);
  }
  const bool local_policy = in.vip.service->external_traffic_policy == "Local";
  HopChoice pods{"gateway pod", object_label(in.vip.service->meta), {}};
  for (const PlacedPod* p : endpoints) pods.options.push_back(HopOption{p->name, "on " + p->node, p->node, !local_policy || p->node == in.node});
  h.choices.push_back(std::move(pods));
  if (local_policy) {
    h.details.push_back(fmt::format("externalTrafficPolicy Local: kube-proxy on {} delivers to its own data-plane pod ({})", in.node,
                                    local_pods.empty() ? "none: dropped" : fmt::format("{}", fmt::join(local_pods, ", "))));
  } else {
    h.details.push_back(fmt::format("externalTrafficPolicy Cluster: kube-proxy on {} forwards to any data-plane pod ({}), SNATing the client",
                                    in.node, fmt::join(all_pods, ", ")));
  }
}

// Hop 4: the Gateway, its listener and TLS. The route decision (hop 5's input), or nullopt when
// the request stops here.
std::optional<RouteDecision> gateway_hop(const FrontendModel& f, const Landing& in, std::uint32_t outside_client, RequestTrace& t) {
  const Manifests& m = f.manifests;
  const HttpRequest& req = t.request;
  RequestHop& h = t.hops[3];
  const Gateway* gw = gateway_of_service(m, *in.vip.service, in.vip.vip);
  if (gw == nullptr) {
    h.status = HopStatus::kFailed;
    h.summary = object_label(in.vip.service->meta) + " is not the data plane of any Gateway (label gateway.networking.k8s.io/gateway-name or Gateway spec.addresses)";
    return std::nullopt;
  }
  gateway_pods(f, in, h);
  const std::string hint = gw->meta.ns + "/" + gw->meta.name;
  RouteDecision d = resolve_request(m, f.gateways, req, hint);
  h.decided_by = "Gateway " + hint;
  h.where = where_text(gw->meta.where);
  if (!d.has_listener) {
    h.status = HopStatus::kFailed;
    h.summary = d.reasons.empty() ? "no listener" : d.reasons.back();
    h.details.insert(h.details.end(), d.reasons.begin(), d.reasons.end());
    t.http_status = d.status;
    return std::nullopt;
  }
  const Listener& l = gw->listeners[f.gateways.listeners[d.listener].listener];
  h.decided_by = fmt::format("Gateway {} listener {}", hint, l.name);
  h.where = where_text(l.where);
  h.details.push_back(d.reasons.front());
  h.status = HopStatus::kOk;
  h.summary = fmt::format("listener {} (port {}, {}, hostname {})", l.name, l.port, l.protocol, l.hostname.empty() ? "any" : l.hostname);
  if (l.protocol == "HTTPS") {
    const CertificateCheck c = check_listener_certificate(m, *gw, l, req.sni, f.dns ? &*f.dns : nullptr, outside_client);
    for (const auto& link : c.chain) h.details.push_back(fmt::format("TLS chain: {} ({}): {}", link.object, link.where, link.detail));
    h.details.insert(h.details.end(), c.reasons.begin(), c.reasons.end());
    for (const auto& p : c.problems) h.details.push_back("PROBLEM: " + p);
    if (!c.found || !c.covers_host || c.expired) {
      h.status = HopStatus::kFailed;
      h.summary += "; TLS fails: " + c.problems.front();
      return std::nullopt;
    }
    h.summary += fmt::format("; TLS Secret {} covers {}{}", c.secret, req.sni, c.issuable ? ", issuable" : "");
    if (!c.issuable) {
      h.status = HopStatus::kWarning;
      h.summary += " but cert-manager cannot issue or renew it";
    }
  }
  if (d.status == 421) {
    h.status = HopStatus::kFailed;
    h.summary += "; 421 Misdirected Request";
    h.details.insert(h.details.end(), d.reasons.begin() + 1, d.reasons.end());
    t.http_status = 421;
    return std::nullopt;
  }
  return d;
}

// Hop 5: the rule and its backends; the backend the trace follows (the heaviest valid one), or
// nullptr when the request goes to none.
const BackendChoice* route_hop(const Manifests& m, const RouteDecision& d, RequestTrace& t) {
  RequestHop& h = t.hops[4];
  t.http_status = d.status;
  h.details.assign(d.reasons.begin() + 1, d.reasons.end());
  if (!d.has_entry) {
    h.status = HopStatus::kFailed;
    h.summary = "no rule matches: " + std::to_string(d.status);
    return nullptr;
  }
  const HttpRoute& route = m.routes[d.entry.route];
  const RouteRule& rule = route.rules[d.entry.rule];
  h.decided_by = fmt::format("HTTPRoute {} rule {}", route_label(m, d.entry.route), d.entry.rule);
  h.where = where_text(rule.matches[d.entry.match].where);
  h.summary = fmt::format("{} -> {}", describe_match(rule.matches[d.entry.match]), d.status);
  h.status = d.status == 200 ? HopStatus::kOk : HopStatus::kFailed;
  if (!d.location.empty()) {
    // A RequestRedirect answers at the Gateway: the client follows the Location, no backend is called.
    h.status = HopStatus::kOk;
    h.summary += " Location: " + d.location;
    return nullptr;
  }
  const bool shown = std::any_of(h.details.begin(), h.details.end(),
                                 [](const std::string& x) { return x.starts_with("the request as it reaches the backend"); });
  if (d.forwarded && !shown) h.details.push_back("the request as it reaches the backend: " + describe_upstream_request(d.upstream));
  for (const auto& mirror : d.mirrors) {
    h.details.push_back(fmt::format("mirrored to {} port {} (responses ignored){}", mirror.service, mirror.port,
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
  h.choices.push_back(std::move(backends));
  if (backend == nullptr && !d.backends.empty()) {
    // Every backendRef is invalid: name each with its reason, as `route` does (BackendNotFound
    // and the missing Service, RefNotPermitted, InvalidKind).
    std::vector<std::string> problems;
    for (const auto& b : d.backends) {
      problems.push_back(fmt::format("{} port {}: {}", b.service, b.port, b.problem));
      h.details.push_back(fmt::format("backendRef {} port {} is invalid: {}", b.service, b.port, b.problem));
    }
    h.summary += fmt::format(" ({})", fmt::join(problems, "; "));
  }
  return d.forwarded ? backend : nullptr;  // not forwarded: a filter failed it (an unresolved ExtensionRef)
}

// "{app: vllm, tier: api}".
std::string labels_text(const Labels& labels) {
  std::vector<std::string> pairs;
  for (const auto& [k, v] : labels) pairs.push_back(k + ": " + v);
  return fmt::format("{{{}}}", fmt::join(pairs, ", "));
}

// The workloads of the Service's namespace whose pod template carries every label of its
// selector, placed or not (service_endpoints counts only placed pods).
std::vector<std::size_t> workloads_selected(const Manifests& m, const Service& svc) {
  std::vector<std::size_t> out;
  if (svc.selector.empty()) return out;
  for (std::size_t wi = 0; wi < m.workloads.size(); ++wi) {
    const KubeWorkload& w = m.workloads[wi];
    if (w.meta.ns != svc.meta.ns) continue;
    if (std::all_of(svc.selector.begin(), svc.selector.end(), [&](const auto& kv) {
          const auto it = w.pod_labels.find(kv.first);
          return it != w.pod_labels.end() && it->second == kv.second;
        })) {
      out.push_back(wi);
    }
  }
  return out;
}

// Hop 7 when the Service selects a workload none of whose pods runs: the workload decides, at
// `replicas: 0`, or with its pods Pending and why each node refuses them (pod_placement.h).
void unplaced_pods_hop(const FrontendModel& f, std::size_t workload, RequestHop& h) {
  const KubeWorkload& w = f.manifests.workloads[workload];
  h.decided_by = object_label(w.meta);
  h.status = HopStatus::kFailed;
  std::vector<const PlacedPod*> pending;
  for (const auto& p : f.placement.pods) {
    if (p.workload == workload) pending.push_back(&p);
  }
  if (pending.empty()) {
    h.where = where_text(w.where_replicas);
    h.summary = w.meta.kind == "DaemonSet"
                    ? fmt::format("{} runs no pod: no node satisfies its nodeSelector/affinity: 503", object_label(w.meta))
                    : fmt::format("{} has replicas: 0: no pod to serve: 503", object_label(w.meta));
  } else {
    h.where = where_text(w.where_placement);
    std::vector<std::string> rules;
    if (!w.node_selector.empty()) rules.push_back("nodeSelector " + labels_text(w.node_selector));
    if (!w.required_node_affinity.empty()) rules.push_back("its required nodeAffinity");
    const std::size_t feasible = static_cast<std::size_t>(std::count_if(
        f.manifests.nodes.begin(), f.manifests.nodes.end(), [&](const Node& n) { return node_infeasible(w, n).empty(); }));
    h.summary = fmt::format("{} pod(s) of {} Pending: {}: 503", pending.size(), object_label(w.meta),
                            f.manifests.nodes.empty() ? std::string("the manifests have no Node")
                            : feasible == 0 ? fmt::format("none of the {} node(s) satisfies {}", f.manifests.nodes.size(),
                                                          rules.empty() ? std::string("its placement") : fmt::format("{}", fmt::join(rules, " and ")))
                                            : pending.front()->why.substr(pending.front()->why.find(": ") + 2));
    for (const auto& n : f.manifests.nodes) {
      if (const std::string why = node_infeasible(w, n); !why.empty()) h.details.push_back(fmt::format("{}: {}", n.meta.name, why));
    }
  }
  HopChoice pod_choice{"pod", object_label(w.meta), {}};
  for (const PlacedPod* p : pending) {
    h.details.insert(h.details.begin() + static_cast<std::ptrdiff_t>(pod_choice.options.size()), p->name + ": " + p->why);
    pod_choice.options.push_back(HopOption{p->name, "Pending", "", false});
  }
  h.choices.push_back(std::move(pod_choice));
}

// Hop 6: the backend Service's endpoints (empty: 503, the request stops).
std::vector<const PlacedPod*> service_hop(const FrontendModel& f, const RouteDecision& d, const BackendChoice& backend, RequestTrace& t) {
  RequestHop& h = t.hops[6];
  const Manifests& m = f.manifests;
  const auto slash = backend.service.find('/');
  const Service* svc = m.find_service(backend.service.substr(0, slash), backend.service.substr(slash + 1));
  h.decided_by = object_label(svc->meta);
  h.where = where_text(svc->meta.where);
  auto eps = service_endpoints(m, f.placement, *svc);
  std::string target = std::to_string(backend.port);
  for (const auto& p : svc->ports) {
    if (p.port == backend.port) target = p.target_port;
  }
  HopChoice endpoint_choice{"endpoint", backend.service, {}};
  for (const PlacedPod* p : eps) endpoint_choice.options.push_back(HopOption{p->name, "on " + p->node, p->node, true});
  h.choices.push_back(std::move(endpoint_choice));
  if (d.backends.size() > 1) h.details.push_back(fmt::format("the rule has {} backends; following the heaviest, {} ({:.0f}%)", d.backends.size(),
                                                             backend.service, 100 * backend.share));
  if (eps.empty()) {
    t.http_status = 503;
    const std::vector<std::size_t> selected = workloads_selected(m, *svc);
    if (selected.empty()) {
      h.status = HopStatus::kFailed;
      h.summary = fmt::format("{} port {} has no endpoints: no workload's pods carry its selector {}: 503", backend.service,
                              backend.port, labels_text(svc->selector));
      return eps;
    }
    // The Service is right; the pods it selects are not running: the workload is to blame (hop 7).
    h.status = HopStatus::kWarning;
    std::vector<std::string> names;
    for (std::size_t wi : selected) names.push_back(object_label(m.workloads[wi].meta));
    h.summary = fmt::format("{} port {} selects the pods of {}, none of them running: 0 endpoints", backend.service,
                            backend.port, fmt::join(names, ", "));
    unplaced_pods_hop(f, selected.front(), t.hops[7]);
    return eps;
  }
  h.status = HopStatus::kOk;
  h.summary = fmt::format("{} port {} -> targetPort {} on {} endpoint(s)", backend.service, backend.port, target, eps.size());
  return eps;
}

// Hop 7: the endpoints' pods and nodes; the workload of the first endpoint.
// PRECONDITION: eps is not empty.
const KubeWorkload& pod_hop(const FrontendModel& f, const std::vector<const PlacedPod*>& eps, RequestHop& h) {
  std::set<std::size_t> workloads;
  std::vector<std::string> pods;
  for (const PlacedPod* p : eps) {
    pods.push_back(p->name + " on " + p->node);
    h.details.push_back(fmt::format("{} on {}: {}", p->name, p->node, p->why));
    workloads.insert(p->workload);
  }
  const KubeWorkload& w = f.manifests.workloads[*workloads.begin()];
  h.decided_by = object_label(w.meta);
  h.where = where_text(w.meta.where);
  h.status = HopStatus::kOk;
  h.summary = fmt::format("the Gateway balances over {}: {}", pods.size(), fmt::join(pods, ", "));
  HopChoice pod_choice{"pod", object_label(w.meta), {}};
  for (const auto& p : f.placement.pods) {
    if (p.workload != *workloads.begin()) continue;
    const bool endpoint = std::any_of(eps.begin(), eps.end(), [&](const PlacedPod* e) { return e == &p; });
    pod_choice.options.push_back(HopOption{p.name, p.node.empty() ? "Pending" : "on " + p.node, p.node, endpoint});
    if (p.node.empty()) {
      h.status = HopStatus::kWarning;
      h.details.push_back(p.name + ": " + p.why);
    }
  }
  h.choices.push_back(std::move(pod_choice));
  return w;
}

// Hop 8: the volumes of the pod the trace follows.
void storage_hop(const Manifests& m, const Placement& placement, const KubeWorkload& w, const PlacedPod& pod, RequestHop& h) {
  // The pod mounts the workload's claims and, for a StatefulSet pod NAME-i, the claim
  // TEMPLATE-NAME-i of each volumeClaimTemplate (a manifest of that name, else the template).
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
    h.status = HopStatus::kSkipped;
    h.summary = "the pods mount no PersistentVolumeClaim";
    return;
  }
  h.status = HopStatus::kOk;
  for (const auto& [claim, tpl] : claims) {
    const VolumeReport v = tpl != nullptr ? describe_claim_volume(m, placement, *tpl, pod.node)
                                          : describe_volume(m, placement, w.meta.ns, claim, pod.node);
    if (v.claim) {
      h.decided_by = tpl != nullptr ? fmt::format("{} volumeClaimTemplates {}", object_label(w.meta),
                                                  claim.substr(0, claim.size() - pod.name.size() - 1))
                                    : object_label(v.claim->meta);
      h.where = where_text(v.claim->meta.where);
    }
    if (tpl != nullptr) h.details.push_back(fmt::format("{} is made by the StatefulSet from its volumeClaimTemplates", claim));
    h.details.insert(h.details.end(), v.reasons.begin(), v.reasons.end());
    for (const auto& p : v.problems) h.details.push_back("PROBLEM: " + p);
    h.details.insert(h.details.end(), v.survival.begin(), v.survival.end());
    if (!v.candidate_nodes.empty()) {
      HopChoice replicas{"replica", claim, {}};
      for (const auto& c : v.candidate_nodes) {
        const bool holds = std::find(v.replica_nodes.begin(), v.replica_nodes.end(), c) != v.replica_nodes.end();
        replicas.options.push_back(HopOption{c, holds ? "replica" : "", c, holds});
      }
      h.choices.push_back(std::move(replicas));
    }
    if (!v.engine_node.empty() && !v.candidate_nodes.empty()) h.choices.push_back(HopChoice{"engine", claim, {HopOption{v.engine_node, "", v.engine_node, true}}});
    if (!v.problems.empty()) h.status = HopStatus::kWarning;
    h.summary += (h.summary.empty() ? "" : "; ") +
                 fmt::format("{} ({}): engine on {}, {} replica(s) on {}", claim, v.claim ? v.claim->request : "?", v.engine_node,
                             v.replica_nodes.size(), fmt::join(v.replica_nodes, ", "));
  }
}

// Does the request carry credentials the authentication step could accept? The model checks none.
bool carries_credentials(const HttpRequest& r) {
  return std::any_of(r.headers.begin(), r.headers.end(), [](const auto& h) {
    const std::string name = lower(h.first);
    return name == "cookie" || name == "authorization";
  });
}

// The authentication step as data, from the policy and what it depends on.
TraceAuth trace_auth_of(const Manifests& m, const RuleAuth& ra, const AuthDependency& a) {
  const AuthPolicy& p = m.auth_policies[ra.policy];
  TraceAuth x;
  x.policy = auth_policy_label(p);
  x.where = where_text(p.where);
  x.via = ra.via;
  x.service = a.service;
  x.port = a.port;
  x.endpoints = a.endpoints;
  x.down_status = a.down_status;
  x.down_why = a.down_why;
  x.loop = a.loop;
  x.login_route = a.login_route;
  x.login_listener = a.login_listener;
  x.login_certificate = a.login_certificate;
  return x;
}

// Hop 6: the authentication step of the rule; false when the request stops here.
bool auth_hop(const FrontendModel& f, const RouteDecision& d, RequestTrace& t) {
  RequestHop& h = t.hops[5];
  const Manifests& m = f.manifests;
  const RuleAuth* ra = find_rule_auth(f.gateways, d.entry.route, d.entry.rule, d.listener);
  if (ra == nullptr || !ra->covered) {
    h.status = HopStatus::kSkipped;
    h.summary = "no authentication step covers this rule";
    return true;
  }
  const AuthDependency& a = f.auth[ra->policy];
  t.auth = trace_auth_of(m, *ra, a);
  TraceAuth& x = *t.auth;
  h.decided_by = x.policy;
  h.where = x.where;
  h.details.push_back(fmt::format("{} covers HTTPRoute {} rule {} ({})", x.policy, route_label(m, d.entry.route), d.entry.rule, ra->via));
  for (const auto& o : ra->overridden) h.details.push_back("overrides " + o);
  h.details.push_back(a.service.empty() ? "asks " + a.reached
                                        : fmt::format("asks Service {} port {} ({})", a.service, a.port, a.reached));
  HopChoice eps{"auth endpoint", a.service, {}};
  std::vector<std::string> where;
  for (const auto& e : a.endpoints) {
    eps.options.push_back(HopOption{e.pod, "on " + e.node, e.node, true});
    where.push_back(e.pod + " on " + e.node);
  }
  if (!a.service.empty()) h.choices.push_back(std::move(eps));
  h.details.push_back(fmt::format("with no ready endpoint: {} ({})", a.down_status, a.down_why));
  if (!a.login_route.empty()) {
    h.details.push_back(fmt::format("sign-in page {}: listener {}, {}{}, served by {}", a.sign_in, a.login_listener, a.login_route,
                                    a.login_certificate.empty() ? "" : ", certificate Secret " + a.login_certificate,
                                    a.login_service.empty() ? "no backend" : a.login_service));
  }
  const bool down = !a.service_problem.empty() || (!a.service.empty() && a.endpoints.empty());
  if (down && m.auth_policies[ra->policy].type == AuthPolicy::Type::kOidc) {
    // The provider is asked by the client (the redirect) and at the callback, not per request: a
    // session cookie still passes, and the sign-in fails at the provider (the followed request).
    h.details.push_back(fmt::format("PROBLEM: the provider {} has no ready endpoint: a session still passes, a sign-in fails there",
                                    a.service.empty() ? a.reached : a.service));
  } else if (down) {
    const std::string why = !a.service_problem.empty() ? a.service_problem : fmt::format("Service {} has no ready endpoint", a.service);
    for (const auto& pod : f.placement.pods) {
      if (pod.node.empty() && std::find(a.workloads.begin(), a.workloads.end(), pod.workload) != a.workloads.end()) {
        h.details.push_back(fmt::format("{} of {}: {}", pod.name, object_label(m.workloads[pod.workload].meta), pod.why));
      }
    }
    for (std::size_t wi : a.workloads) {
      if (m.workloads[wi].replicas == 0 && m.workloads[wi].meta.kind != "DaemonSet") {
        h.details.push_back(fmt::format("{} has replicas: 0 ({})", object_label(m.workloads[wi].meta), where_text(m.workloads[wi].where_replicas)));
      }
    }
    h.status = a.fail_open ? HopStatus::kWarning : HopStatus::kFailed;
    h.summary = fmt::format("{}: {}: {} ({})", x.policy, why, a.down_status, a.down_why);
    if (!a.fail_open) {
      x.status = a.down_status;
      t.http_status = a.down_status;
      return false;
    }
    return true;
  }
  const std::string on = a.service.empty() ? a.reached
                         : where.empty()   ? fmt::format("{} port {} (no ready endpoint)", a.service, a.port)
                                           : fmt::format("{} port {} on {}", a.service, a.port, fmt::join(where, ", "));
  if (carries_credentials(t.request)) {
    x.authenticated = true;
    h.status = a.service.empty() || down ? HopStatus::kWarning : HopStatus::kOk;
    h.summary = fmt::format("{} asks {}: the request carries credentials (Cookie or Authorization), taken as accepted (2xx): it goes on",
                            x.policy, on);
    h.details.push_back("the model checks no credential: a request with a Cookie or Authorization header is taken as authenticated");
    return true;
  }
  x.status = a.unauthenticated_status;
  t.http_status = a.unauthenticated_status;
  h.status = down ? HopStatus::kWarning : HopStatus::kOk;
  if (!a.sign_in.empty()) {
    x.location = expand_request_variables(a.sign_in, t.request);
    h.summary = fmt::format("{} asks {}: no credentials: {} Location: {}", x.policy, on, a.unauthenticated_status, x.location);
  } else {
    h.summary = fmt::format("{} asks {}: no credentials: {}", x.policy, on, a.unauthenticated_status);
  }
  h.details.push_back(fmt::format("unauthenticated: {}", a.unauthenticated_why));
  if (a.loop) {
    h.status = HopStatus::kFailed;
    h.summary += ": a redirect loop";
    h.details.push_back("PROBLEM: " + a.loop_why);
  }
  return false;
}

// The nine hops, each with its choices (trace_request adds the survival table). A hop that
// fails returns the trace as it stands: the hops after it keep their status "not reached". At
// depth 0 an unauthenticated request's sign-in request is traced too (depth 1, not followed).
Result<RequestTrace> trace_hops(const FrontendModel& f, const TraceRequest& tr, int depth) {
  auto parsed = parse_request(tr.request, tr.headers, 0);
  if (!parsed) return parsed.errors();
  RequestTrace t;
  t.request = parsed.value();
  const char* kNames[] = {"DNS", "VIP (BGP + ECMP)", "frontend network", "Gateway listener + TLS", "HTTPRoute rule",
                          "authentication", "Service + endpoints", "pod + node", "storage"};
  t.hops.resize(std::size(kNames));
  for (std::size_t i = 0; i < t.hops.size(); ++i) {
    t.hops[i].number = static_cast<int>(i) + 1;
    t.hops[i].name = kNames[i];
  }
  const auto client = choose_client(f, tr.from);
  if (!client) return client.errors();
  t.client = format_ipv4(client->address);
  t.client_why = client->why;
  const auto address = dns_hop(f, t, client->address, t.hops[0]);
  if (!address) return t;
  const auto landing = vip_hop(f, tr, client->address, *address, t);
  if (!landing) return t;
  network_hop(f, landing->node, t.hops[2]);
  const auto decision = gateway_hop(f, *landing, client->outside, t);
  if (!decision) return t;
  const BackendChoice* backend = route_hop(f.manifests, *decision, t);
  if (backend == nullptr) return t;
  if (!auth_hop(f, *decision, t)) {
    if (depth == 0 && t.auth && !t.auth->location.empty()) {
      TraceRequest next = tr;
      next.request = "GET " + t.auth->location;
      next.headers.clear();
      auto follow = trace_hops(f, next, depth + 1);
      if (follow) t.follow_up.push_back(std::move(follow).value());
    }
    return t;
  }
  const auto eps = service_hop(f, *decision, *backend, t);
  if (eps.empty()) return t;
  const KubeWorkload& w = pod_hop(f, eps, t.hops[7]);
  storage_hop(f.manifests, f.placement, w, *eps.front(), t.hops[8]);
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
        } else if (c.what == "auth endpoint") {
          const int down = t.auth ? t.auth->down_status : 500;
          touch(node, fmt::format("authentication endpoint {} of {}", fmt::join(names, ", "), c.of),
                left == 0 ? fmt::format("no endpoint of the authentication Service {} left: every request it covers gets {} until the pods are "
                                        "rescheduled", c.of, down)
                          : fmt::format("{} endpoint(s) of the authentication Service {} left", left, c.of),
                left == 0 && down != 200);
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
  auto t = trace_hops(f, tr, 0);
  if (t) {
    t->dead_nodes = f.dead_nodes;
    t->survival = node_survival(t.value());
    for (auto& follow : t->follow_up) follow.survival = node_survival(follow);
  }
  return t;
}

}  // namespace ct
