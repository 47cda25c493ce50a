#include "survival/published_requests.h"

#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "routing/port_address.h"

namespace ct {
namespace {

bool https_parent(const Manifests& m, const HttpRoute& r) {
  for (const auto& p : r.parents) {
    const std::string ns = p.ref.ns.empty() ? r.meta.ns : p.ref.ns;
    for (const auto& g : m.gateways) {
      if (g.meta.name != p.ref.name || g.meta.ns != ns) continue;
      for (const auto& l : g.listeners) {
        if (l.protocol == "HTTPS" && (p.section.empty() || p.section == l.name)) return true;
      }
    }
  }
  return false;
}

struct Client {
  std::string from;
  std::string label;
  std::string view;
};

std::vector<Client> clients(const FrontendModel& f) {
  if (!f.dns) return {Client{"203.0.113.1", "a client (no DNS views: 203.0.113.1)", ""}};
  std::vector<Client> out;
  for (const bool inside : {true, false}) {
    const auto c = representative_client(*f.dns, inside);
    if (!c) continue;
    const ViewChoice v = select_view(f.dns->conf, c->first);
    const std::string view = v.view ? f.dns->conf.views[*v.view].name : "";
    if (std::any_of(out.begin(), out.end(), [&](const Client& o) { return o.view == view; })) continue;
    out.push_back(Client{format_ipv4(c->first), fmt::format("{} ({})", inside ? "inside" : "outside", format_ipv4(c->first)), view});
  }
  return out;
}

void depend(const RequestTrace& t, PublishedRequest& p) {
  std::set<std::string> nodes, endpoints;
  for (const auto& h : t.hops) {
    for (const auto& c : h.choices) {
      // The storage hop's replicas and engine never decide the answer (hop 9 sets no status and
      // never fails): a node that only they name cannot change it.
      const bool storage = c.what == "replica" || c.what == "engine";
      for (const auto& o : c.options) {
        if (o.node.empty()) continue;
        if (!storage) nodes.insert(o.node);
        if (c.what == "gateway pod" || c.what == "endpoint" || c.what == "auth endpoint" || c.what == "pod") endpoints.insert(o.node);
        if (c.what == "next hop" && o.taken) p.landing_node = o.node;
      }
    }
  }
  p.nodes.assign(nodes.begin(), nodes.end());
  p.endpoint_nodes.assign(endpoints.begin(), endpoints.end());
  p.bgp_hold_s = t.bgp_hold_s;
}

}  // namespace

int traced_status(const Result<RequestTrace>& t) { return t ? t->http_status : 0; }

std::string failed_hop(const RequestTrace& t) {
  for (const auto& h : t.hops) {
    if (h.status == HopStatus::kFailed) return fmt::format("hop {} {}: {}", h.number, h.name, h.summary);
  }
  return "";
}

PublishedRequests published_requests(const FrontendModel& f) {
  PublishedRequests out;
  const auto who = clients(f);
  for (const auto& r : f.manifests.routes) {
    const std::string scheme = https_parent(f.manifests, r) ? "https" : "http";
    for (const auto& host : r.hostnames) {
      if (host.starts_with("*")) {
        ++out.wildcard_hosts_skipped;
        continue;
      }
      std::set<std::string> urls;
      for (const auto& rule : r.rules) {
        RouteMatch match;
        if (!rule.matches.empty()) match = rule.matches.front();
        if (match.path.type == PathMatch::Type::kRegularExpression) {
          ++out.regex_rules_skipped;
          continue;
        }
        std::string query;
        for (const auto& q : match.query) {
          if (q.type == "Exact") query += (query.empty() ? "?" : "&") + q.name + "=" + q.value;
        }
        const std::string url = fmt::format("{} {}://{}{}{}", match.method.empty() ? "GET" : match.method, scheme, host, match.path.value, query);
        if (!urls.insert(url).second) continue;
        for (const auto& c : who) {
          PublishedRequest p;
          p.app = object_label(r.meta);
          p.url = url;
          p.view = c.view;
          p.client_label = c.label;
          p.request.request = url;
          p.request.from = c.from;
          p.request.headers.push_back("Cookie: clustertwin=signed-in");
          for (const auto& h : match.headers) {
            if (h.type == "Exact") p.request.headers.push_back(h.name + ": " + h.value);
          }
          const auto t = trace_request(f, p.request);
          p.healthy_status = traced_status(t);
          if (t) depend(t.value(), p);
          out.requests.push_back(std::move(p));
        }
      }
    }
  }
  std::stable_sort(out.requests.begin(), out.requests.end(), [](const PublishedRequest& a, const PublishedRequest& b) {
    return std::tie(a.app, a.url) < std::tie(b.app, b.url);
  });
  return out;
}

}  // namespace ct
