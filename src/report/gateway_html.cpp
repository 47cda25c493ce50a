#include "report/gateway_html.h"

#include <algorithm>

#include <map>
#include <utility>

#include <fmt/format.h>

#include "report/gateway_report.h"
#include "report/html/html_document.h"
#include "report/html/page_numbers.h"
#include "report/html/svg_chart.h"
#include "report/table.h"

namespace ct {
namespace {

// A condition that reports a problem: Conflicted=True, or any other type False.
bool is_problem(const Condition& c) { return c.type == "Conflicted" ? c.status : !c.status; }

// Conditions as a page's table cell: healthy ones by name in one short line ("healthy: Accepted,
// Programmed, ResolvedRefs, not Conflicted"; a reason other than the type's own name kept, as in
// "Accepted (ListenersNotValid)"), problems in full (type=status (reason)) first.
std::string conditions_cell(const std::vector<Condition>& cs) {
  std::string problems, healthy;
  for (const Condition& c : cs) {
    if (is_problem(c)) {
      problems += (problems.empty() ? "" : ", ") + fmt::format("{}={} ({})", c.type, c.status ? "True" : "False", c.reason);
    } else {
      const std::string name = c.status ? c.type : "not " + c.type;
      healthy += (healthy.empty() ? "" : ", ") + (c.status && c.reason != c.type ? name + " (" + c.reason + ")" : name);
    }
  }
  if (problems.empty()) return healthy.empty() ? "none" : "healthy: " + healthy;
  return healthy.empty() ? problems : problems + "; healthy: " + healthy;
}

std::string problem_kind(const std::string& object, const Condition& c) {
  return fmt::format("{}: {} {}", object, c.type, c.reason);
}

std::string listener_name(const Manifests& m, const ListenerStatus& ls) {
  const Gateway& gw = m.gateways[ls.gateway];
  return gw.meta.ns + "/" + gw.meta.name + "/" + gw.listeners[ls.listener].name;
}

void table_plots(const GatewayModel& g, const std::string& command_line, HtmlDocument& doc) {
  // Rules per effective hostname, in the order the tables first name them.
  BarChart hosts;
  hosts.frame = PlotFrame{"rules-per-hostname", "Route-table entries per hostname", "effective hostname",
                          "entries (rule matches)", command_line};
  hosts.slant_labels = true;
  std::map<std::string, std::size_t> host_index;
  BarSeries entries{"entries", {}};
  for (const ListenerTable& t : g.tables) {
    for (const RouteEntry& e : t.entries) {
      const std::string host = e.hostname.empty() ? "*any*" : e.hostname;
      auto [it, fresh] = host_index.emplace(host, hosts.categories.size());
      if (fresh) hosts.categories.push_back(host), entries.values.push_back(0);
      entries.values[it->second] += 1;
    }
  }
  hosts.series.push_back(std::move(entries));
  doc.add_section("Rules per hostname", "hostnames");
  if (hosts.categories.empty()) {
    doc.add_paragraph("No listener has an attached rule.");
  } else {
    doc.add_figure(render_bar_chart(hosts));
  }
  // Problems by kind, in the order first met: Gateways, listeners, routes, shadowed, unattached.
  BarChart problems;
  problems.frame = PlotFrame{"problems", "Conflicts and problems by kind", "kind (object: condition reason)", "objects",
                             command_line};
  problems.slant_labels = true;
  std::map<std::string, std::size_t> kind_index;
  BarSeries count{"objects", {}};
  const auto add = [&](const std::string& kind) {
    auto [it, fresh] = kind_index.emplace(kind, problems.categories.size());
    if (fresh) problems.categories.push_back(kind), count.values.push_back(0);
    count.values[it->second] += 1;
  };
  for (const auto& cs : g.gateway_conditions) {
    for (const Condition& c : cs) {
      if (is_problem(c)) add(problem_kind("gateway", c));
    }
  }
  for (const ListenerStatus& ls : g.listeners) {
    for (const Condition& c : ls.conditions) {
      if (is_problem(c)) add(problem_kind("listener", c));
    }
  }
  for (const RouteParentStatus& p : g.parents) {
    for (const Condition& c : p.conditions) {
      if (is_problem(c)) add(problem_kind("route", c));
    }
  }
  for (std::size_t i = 0; i < g.shadowed.size(); ++i) add("rule: shadowed");
  for (std::size_t i = 0; i < g.unattached_routes.size(); ++i) add("route: attached nowhere");
  problems.series.push_back(std::move(count));
  doc.add_section("Conflicts and problems", "problems");
  if (problems.categories.empty()) {
    doc.add_paragraph("No conflict, no condition False, no shadowed rule, no route attached nowhere.");
  } else {
    doc.add_figure(render_bar_chart(problems));
  }
}

}  // namespace

std::string route_table_html(const Manifests& m, const GatewayModel& g, const std::string& command_line) {
  HtmlDocument doc("routes: the Gateway API route table", command_line);
  std::size_t programmed = 0, conflicted = 0, entries = 0, accepted = 0;
  for (const ListenerStatus& ls : g.listeners) {
    programmed += ls.programmed() ? 1 : 0;
    for (const Condition& c : ls.conditions) conflicted += c.type == "Conflicted" && c.status ? 1 : 0;
  }
  for (const ListenerTable& t : g.tables) entries += t.entries.size();
  for (const RouteParentStatus& p : g.parents) accepted += p.accepted() ? 1 : 0;
  doc.add_section("Summary", "summary");
  doc.add_facts("summary", {{"Gateways", std::to_string(m.gateways.size())},
                            {"listeners", std::to_string(g.listeners.size())},
                            {"listeners programmed", std::to_string(programmed)},
                            {"listeners conflicted", std::to_string(conflicted)},
                            {"HTTPRoutes", std::to_string(m.routes.size())},
                            {"route parentRefs", std::to_string(g.parents.size())},
                            {"route parentRefs accepted", std::to_string(accepted)},
                            {"route-table entries", std::to_string(entries)},
                            {"shadowed rules", std::to_string(g.shadowed.size())},
                            {"routes attached nowhere", std::to_string(g.unattached_routes.size())},
                            {"unknown kinds ignored", std::to_string(m.unknown.size())}});
  table_plots(g, command_line, doc);

  doc.add_section("Listeners", "listeners");
  TextTable listeners({{"listener"}, {"port", Align::kRight}, {"protocol"}, {"hostname"}, {"conditions"},
                       {"attached routes", Align::kRight}, {"where"}});
  for (const ListenerStatus& ls : g.listeners) {
    const Listener& l = m.gateways[ls.gateway].listeners[ls.listener];
    listeners.add_row({listener_name(m, ls), std::to_string(l.port), l.protocol, l.hostname.empty() ? "any" : l.hostname,
                       conditions_cell(ls.conditions), std::to_string(ls.attached_routes), where_text(l.where)});
  }
  doc.add_table(listeners, "listeners");
  for (std::size_t gi = 0; gi < m.gateways.size(); ++gi) {
    doc.add_paragraph(fmt::format("Gateway {}/{} ({}): {}", m.gateways[gi].meta.ns, m.gateways[gi].meta.name,
                                  where_text(m.gateways[gi].meta.where), conditions_text(g.gateway_conditions[gi])));
  }
  for (const ListenerStatus& ls : g.listeners) {
    for (const Condition& c : ls.conditions) {
      if (!c.message.empty()) doc.add_paragraph(fmt::format("{}: {} {}: {}", listener_name(m, ls), c.type, c.reason, c.message));
    }
  }

  doc.add_section("Route table", "route-table");
  doc.add_paragraph("Each listener's entries in precedence order: the first that a request satisfies takes it.");
  TextTable table({{"listener"}, {"#", Align::kRight}, {"hostname"}, {"match"}, {"route"}, {"rule", Align::kRight}, {"backends"}});
  for (std::size_t t = 0; t < g.tables.size(); ++t) {
    const auto& rows = g.tables[t].entries;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const RouteEntry& e = rows[i];
      const RouteRule& rule = m.routes[e.route].rules[e.rule];
      table.add_row({listener_name(m, g.listeners[t]), std::to_string(i + 1), e.hostname.empty() ? "*any*" : e.hostname,
                     describe_match(rule.matches[e.match]), route_label(m, e.route), std::to_string(e.rule), rule_backends_text(rule)});
    }
  }
  doc.add_table(table, "route-table");

  doc.add_section("Routes", "routes");
  TextTable routes({{"route"}, {"parent"}, {"accepted"}, {"conditions"}, {"where"}});
  for (const RouteParentStatus& p : g.parents) {
    const HttpRoute& r = m.routes[p.route];
    const ParentRef& pr = r.parents[p.parent];
    routes.add_row({route_label(m, p.route),
                    fmt::format("{}/{}{}", pr.ref.ns.empty() ? r.meta.ns : pr.ref.ns, pr.ref.name, pr.section.empty() ? "" : "/" + pr.section),
                    p.accepted() ? "yes" : "no", conditions_cell(p.conditions), where_text(r.meta.where)});
  }
  doc.add_table(routes, "routes");
  for (const RouteParentStatus& p : g.parents) {
    for (const Condition& c : p.conditions) {
      if (!c.message.empty()) doc.add_paragraph(fmt::format("{}: {} {}: {}", route_label(m, p.route), c.type, c.reason, c.message));
    }
  }

  doc.add_section("Shadowed rules and routes attached nowhere", "shadowed");
  TextTable shadowed({{"route"}, {"rule", Align::kRight}, {"where"}, {"listener"}, {"taken by route"}, {"taken by rule", Align::kRight}},
                     "Shadowed rules (no request can reach them)");
  for (const ShadowedRule& s : g.shadowed) {
    shadowed.add_row({route_label(m, s.route), std::to_string(s.rule), where_text(m.routes[s.route].rules[s.rule].where), s.listener,
                      route_label(m, s.by_route), std::to_string(s.by_rule)});
  }
  doc.add_table(shadowed, "shadowed");
  TextTable unattached({{"route"}, {"where"}}, "Routes attached nowhere");
  for (const std::size_t r : g.unattached_routes) unattached.add_row({route_label(m, r), where_text(m.routes[r].meta.where)});
  doc.add_table(unattached, "unattached");
  if (!m.unknown.empty()) {
    TextTable unknown({{"object"}, {"where"}}, "Unknown kinds (ignored)");
    for (const auto& u : m.unknown) unknown.add_row({object_label(u.meta), where_text(u.meta.where)});
    doc.add_table(unknown, "unknown-kinds");
  }
  doc.add_section("Text report", "text");
  doc.add_preformatted(route_table_text(m, g));
  return doc.render();
}

namespace {

// The decision's facts: the request, the status and what was chosen on the way.
std::vector<std::pair<std::string, std::string>> decision_facts(const Manifests& m, const GatewayModel& g, const HttpRequest& r,
                                                                const RouteDecision& d) {
  std::vector<std::pair<std::string, std::string>> facts{{"request", request_text(r)}, {"status", std::to_string(d.status)},
                                                         {"result", result_word(d)}};
  if (d.has_gateway) facts.emplace_back("Gateway", m.gateways[d.gateway].meta.ns + "/" + m.gateways[d.gateway].meta.name);
  if (d.has_listener) {
    const auto& ls = g.listeners[d.listener];
    facts.emplace_back("listener", m.gateways[ls.gateway].listeners[ls.listener].name);
  }
  if (d.has_entry) {
    const RouteRule& rule = m.routes[d.entry.route].rules[d.entry.rule];
    facts.emplace_back("route rule", fmt::format("{} rule {}", route_label(m, d.entry.route), d.entry.rule));
    facts.emplace_back("match", describe_match(rule.matches[d.entry.match]));
    facts.emplace_back("rule defined at", where_text(rule.matches[d.entry.match].where));
  }
  if (!d.location.empty()) facts.emplace_back("Location", d.location);
  if (d.forwarded) facts.emplace_back("upstream request", describe_upstream_request(d.upstream));
  for (const auto& mirror : d.mirrors) {
    facts.emplace_back("mirror", fmt::format("{} port {}{}", mirror.service, mirror.port, mirror.valid ? "" : " (" + mirror.problem + ")"));
  }
  return facts;
}

// The path: each step ok (green) up to the one that decided a failure (vermillion); later steps
// not reached (dashed). A redirect answers at the rule: the backends are skipped.
StepDiagram decision_path(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d,
                          const std::string& command_line) {
  const bool answered = d.status == 200 || !d.location.empty();
  const bool misdirected = d.status == 421;
  enum class Outcome { kOk, kFailed, kNotReached, kSkipped };
  Outcome gateway = d.has_gateway ? Outcome::kOk : Outcome::kFailed;
  Outcome listener_step = !d.has_gateway ? Outcome::kNotReached : (d.has_listener && !misdirected ? Outcome::kOk : Outcome::kFailed);
  Outcome rule_step = listener_step != Outcome::kOk ? Outcome::kNotReached : (d.has_entry ? Outcome::kOk : Outcome::kFailed);
  Outcome backends_step = rule_step != Outcome::kOk    ? Outcome::kNotReached
                          : !d.location.empty()       ? Outcome::kSkipped
                          : d.status == 200           ? Outcome::kOk
                                                      : Outcome::kFailed;
  const auto group = [](Outcome o) { return o == Outcome::kOk ? 2 : o == Outcome::kFailed ? 5 : o == Outcome::kSkipped ? 4 : 7; };
  const auto word = [](Outcome o) {
    return o == Outcome::kOk ? "ok" : o == Outcome::kFailed ? "FAILED" : o == Outcome::kSkipped ? "skipped" : "not reached";
  };
  const auto step = [&](std::string id, std::string label, Outcome o, std::string detail) {
    return Step{std::move(id), std::move(label), word(o), std::move(detail), group(o), o == Outcome::kNotReached || o == Outcome::kSkipped, {}};
  };
  const std::string rule_text = d.has_entry ? fmt::format("{} rule {}", route_label(m, d.entry.route), d.entry.rule) : "";
  StepDiagram path;
  path.frame = PlotFrame{"decision-path", "The decision path", "steps of the decision (marked: what was chosen)", "", command_line};
  path.steps.push_back(step("request", "request", Outcome::kOk, request_text(r)));
  path.steps.back().choices.push_back(StepChoice{"port", {StepOption{std::to_string(r.port), r.scheme, true}}});
  path.steps.push_back(step("gateway", "Gateway", gateway, d.has_gateway ? where_text(m.gateways[d.gateway].meta.where) : ""));
  if (d.has_gateway) {
    path.steps.back().choices.push_back(
        StepChoice{"gateway", {StepOption{m.gateways[d.gateway].meta.ns + "/" + m.gateways[d.gateway].meta.name, "", true}}});
  }
  path.steps.push_back(step("listener", "listener", listener_step, misdirected ? "421 Misdirected Request" : ""));
  if (d.has_gateway) {
    StepChoice on_port{fmt::format("on port {}", r.port), {}};
    for (std::size_t i = 0; i < g.listeners.size(); ++i) {
      const ListenerStatus& ls = g.listeners[i];
      const Listener& l = m.gateways[ls.gateway].listeners[ls.listener];
      if (ls.gateway != d.gateway || l.port != r.port) continue;
      on_port.options.push_back(StepOption{l.name, fmt::format("{}, hostname {}", l.protocol, l.hostname.empty() ? "any" : l.hostname),
                                           d.has_listener && d.listener == i});
    }
    path.steps.back().choices.push_back(std::move(on_port));
  }
  path.steps.push_back(step("rule", "HTTPRoute rule", rule_step, rule_text));
  if (d.has_entry) {
    const RouteRule& rule = m.routes[d.entry.route].rules[d.entry.rule];
    path.steps.back().choices.push_back(StepChoice{"rule", {StepOption{rule_text, describe_match(rule.matches[d.entry.match]), true}}});
  }
  path.steps.push_back(step("backends", "backends", backends_step, d.location.empty() ? "" : "redirect: " + d.location));
  if (!d.backends.empty()) {
    StepChoice backends{"backend", {}};
    for (const auto& b : d.backends) {
      backends.options.push_back(StepOption{b.service, fmt::format("port {}, weight {} ({:.0f}%){}", b.port, b.weight, 100 * b.share,
                                                                   b.valid ? "" : ": " + b.problem),
                                            b.valid && b.weight > 0});
    }
    path.steps.back().choices.push_back(std::move(backends));
  }
  const Outcome result = answered ? Outcome::kOk : Outcome::kFailed;
  path.steps.push_back(step("result", result_word(d), result, ""));
  for (const Outcome o : {Outcome::kOk, Outcome::kFailed, Outcome::kSkipped, Outcome::kNotReached}) {
    for (const Step& st : path.steps) {
      if (st.group == group(o)) {
        path.legend.push_back(StepLegendItem{word(o), group(o)});
        break;
      }
    }
  }
  return path;
}

// The backends the rule offers, with their weights' shares of the requests.
void add_backends(const RouteDecision& d, const std::string& command_line, HtmlDocument& doc) {
  doc.add_section("Backends", "backends");
  TextTable backends({{"backend"}, {"port", Align::kRight}, {"weight", Align::kRight}, {"share", Align::kRight}, {"status"}});
  for (const auto& b : d.backends) {
    backends.add_row({b.service, std::to_string(b.port), std::to_string(b.weight), page_percent(b.share),
                      b.valid ? "ok" : b.problem});
  }
  doc.add_table(backends, "backends");
  if (!d.backends.empty()) {
    BarChart shares;
    shares.frame = PlotFrame{"backend-shares", "Share of the requests per backend", "backend (Service)", "share of requests (%)",
                             command_line};
    // A backend that cannot serve (no such Service: the request gets a 500) is its own series, in
    // vermillion: its share is what fails, not what is served.
    BarSeries served{"served (weight / total)", {}};
    BarSeries failed{fmt::format("fails: backend missing or invalid (HTTP {})", d.status), {}, 5};
    for (const auto& b : d.backends) {
      shares.categories.push_back(b.service);
      served.values.push_back(b.valid ? 100 * b.share : 0.0);
      failed.values.push_back(b.valid ? 0.0 : 100 * b.share);
    }
    const bool any_failed = std::any_of(d.backends.begin(), d.backends.end(), [](const auto& b) { return !b.valid; });
    shares.series.push_back(std::move(served));
    if (any_failed) shares.series.push_back(std::move(failed));
    doc.add_figure(render_bar_chart(shares));
  } else {
    doc.add_paragraph("No backend: the request is not forwarded.");
  }
}

}  // namespace

std::string route_decision_html(const Manifests& m, const GatewayModel& g, const HttpRequest& r, const RouteDecision& d,
                                const std::string& command_line) {
  HtmlDocument doc(fmt::format("route: {} {}://{}{}", r.method, r.scheme, r.sni.empty() ? r.host : r.sni, r.path), command_line);
  doc.add_section("Decision", "decision");
  doc.add_facts("decision", decision_facts(m, g, r, d));
  doc.add_section("Decision path", "path");
  doc.add_figure(render_step_diagram(decision_path(m, g, r, d, command_line)));
  add_backends(d, command_line, doc);
  doc.add_section("Why", "why");
  TextTable reasons({{"#", Align::kRight}, {"reason"}});
  for (std::size_t i = 0; i < d.reasons.size(); ++i) reasons.add_row({std::to_string(i + 1), d.reasons[i]});
  doc.add_table(reasons, "reasons");
  doc.add_section("Text report", "text");
  doc.add_preformatted(route_decision_text(m, g, r, d));
  return doc.render();
}

}  // namespace ct
