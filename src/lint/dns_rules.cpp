// Lint rules of the dns family: an inside view that answers a public address (the request must
// hairpin through the border), and a view that matches every client and so hides the views after
// it. Views are selected as named does (frontend/dns_views.h select_view); "every client" is
// judged over probe addresses: the first and last address of every prefix the configuration
// names, and one address of each documentation range.
#include <functional>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/lint_checks.h"
#include "lint/lint_query.h"
#include "routing/port_address.h"

namespace ct {

namespace {

bool view_accepts(const NamedConf& conf, std::size_t v, std::uint32_t client) {
  const DnsView& view = conf.views[v];
  return !view.has_match_clients || match_address_list(conf, view.match_clients, client).match == AclMatch::kAccept;
}

// Does view v match every probe?
bool view_matches_all(const NamedConf& conf, std::size_t v, const std::vector<std::uint32_t>& probes) {
  return std::all_of(probes.begin(), probes.end(), [&](std::uint32_t p) { return view_accepts(conf, v, p); });
}

std::set<std::uint32_t> public_addresses(const Manifests& m) {
  std::set<std::uint32_t> out;
  for (const auto& s : m.services) {
    auto pub = s.meta.annotations.find("clustertwin.io/public-address");
    if (pub == s.meta.annotations.end()) continue;
    if (auto ip = parse_ipv4(pub->second)) out.insert(*ip);
  }
  return out;
}

}  // namespace

void check_dns_inside_public_address(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  if (!c.model.dns || !c.inside_client) return;
  const DnsModel& dns = *c.model.dns;
  const auto view = select_view(dns.conf, *c.inside_client).view;
  if (!view || view_matches_all(dns.conf, *view, dns_probe_addresses(dns.conf))) return;  // no split horizon for the inside
  const std::set<std::uint32_t> pub = public_addresses(c.model.manifests);
  std::vector<std::string> names;
  std::vector<LintObject> objects{{"view \"" + dns.conf.views[*view].name + "\"", dns.conf.views[*view].where}};
  std::string address;
  for (const auto& name : dns_names(dns)) {
    const DnsAnswer a = resolve_dns(dns, *c.inside_client, name);
    if (a.view != view || a.answer.empty()) continue;
    for (const auto& s : a.addresses()) {
      const auto ip = parse_ipv4(s);
      if (!ip || !pub.contains(*ip)) continue;
      names.push_back(name);
      address = s;
      objects.push_back({name + " A " + s, a.answer.back().where});
      break;
    }
  }
  if (names.empty()) return;
  out.push_back(rule.finding(
      fmt::format("the inside view \"{}\" answers [{}] with the public address {}", dns.conf.views[*view].name, fmt::join(names, ", "),
                  address),
      std::move(objects),
      "inside clients leave through the border router and must come back in through its NAT (hairpin): without NAT "
      "loopback they time out, with it the Gateway sees the router's address instead of the client's",
      "in the inside view's zone, answer these names with the VIP (a CNAME to the Gateway's name, as the other names do)"));
}

void check_dns_view_hides_later(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  if (!c.model.dns) return;
  const NamedConf& conf = c.model.dns->conf;
  const std::vector<std::uint32_t> probes = dns_probe_addresses(conf);
  for (std::size_t v = 0; v + 1 < conf.views.size(); ++v) {
    if (!view_matches_all(conf, v, probes)) continue;
    std::vector<std::string> hidden;
    std::vector<LintObject> objects{{"view \"" + conf.views[v].name + "\"", conf.views[v].where}};
    for (std::size_t later = v + 1; later < conf.views.size(); ++later) {
      hidden.push_back("\"" + conf.views[later].name + "\"");
      objects.push_back({"view \"" + conf.views[later].name + "\"", conf.views[later].where});
    }
    out.push_back(rule.finding(
        fmt::format("view \"{}\" matches every client ({}), so named never uses view(s) {} after it", conf.views[v].name,
                    conf.views[v].has_match_clients ? "its match-clients accept every address tried" : "it has no match-clients",
                    fmt::join(hidden, ", ")),
        std::move(objects),
        fmt::format("every client gets view \"{}\"'s answers: the split horizon is gone, and the names only the later views "
                    "hold do not resolve",
                    conf.views[v].name),
        fmt::format("put view \"{}\" last, or narrow its match-clients to the clients it is meant for", conf.views[v].name)));
    return;  // the views after it are hidden: what they would hide is moot
  }
}

}  // namespace ct
