#include "report/trace_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace ct {

namespace {

std::string indented(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    out += prefix + text.substr(start, end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

nlohmann::json auth_json(const TraceAuth& a) {
  nlohmann::json endpoints = nlohmann::json::array();
  for (const auto& e : a.endpoints) endpoints.push_back({{"pod", e.pod}, {"node", e.node}});
  return {{"policy", a.policy}, {"where", a.where}, {"via", a.via}, {"service", a.service}, {"port", a.port},
          {"endpoints", std::move(endpoints)}, {"authenticated", a.authenticated}, {"status", a.status},
          {"location", a.location}, {"downStatus", a.down_status}, {"downWhy", a.down_why}, {"loop", a.loop},
          {"login", {{"route", a.login_route}, {"listener", a.login_listener}, {"certificate", a.login_certificate}}}};
}

}  // namespace

std::string trace_text(const RequestTrace& t) {
  const HttpRequest& r = t.request;
  std::string out = fmt::format("Trace: {} {}://{}{} from {}{}\n", r.method, r.scheme, r.sni.empty() ? r.host : r.sni, r.path, t.client,
                                t.client_why == "given" ? "" : " (" + t.client_why + ")");
  if (!t.dead_nodes.empty()) {
    out += fmt::format("Dead nodes: {} (their pods gone, not yet rescheduled; no BGP speaker)\n", fmt::join(t.dead_nodes, ", "));
  }
  for (const auto& h : t.hops) {
    out += fmt::format("{}. {} [{}]", h.number, h.name, to_string(h.status));
    if (!h.summary.empty()) out += ": " + h.summary;
    out += "\n";
    if (!h.decided_by.empty()) out += fmt::format("   decided by {}{}\n", h.decided_by, h.where.empty() ? "" : " (" + h.where + ")");
    for (const auto& d : h.details) out += "   - " + d + "\n";
  }
  out += t.http_status == 0 ? "Result: no HTTP response (the request never reached HTTP)\n"
                            : fmt::format("Result: HTTP {}{}\n", t.http_status,
                                          t.auth && !t.auth->location.empty() ? " Location: " + t.auth->location : "");
  for (const auto& follow : t.follow_up) {
    out += "The client follows the Location (the sign-in request, same client):\n" + indented(trace_text(follow), "  ");
  }
  return out;
}

namespace {

nlohmann::json trace_object(const RequestTrace& t) {
  nlohmann::json j;
  j["request"] = {{"method", t.request.method}, {"scheme", t.request.scheme}, {"host", t.request.host},
                  {"sni", t.request.sni}, {"port", t.request.port}, {"path", t.request.path}};
  j["client"] = t.client;
  j["clientWhy"] = t.client_why;
  j["deadNodes"] = t.dead_nodes;
  j["hops"] = nlohmann::json::array();
  for (const auto& h : t.hops) {
    nlohmann::json choices = nlohmann::json::array();
    for (const auto& c : h.choices) {
      nlohmann::json options = nlohmann::json::array();
      for (const auto& o : c.options) options.push_back({{"name", o.name}, {"detail", o.detail}, {"node", o.node}, {"taken", o.taken}});
      choices.push_back({{"what", c.what}, {"of", c.of}, {"options", std::move(options)}});
    }
    j["hops"].push_back({{"hop", h.number}, {"name", h.name}, {"status", to_string(h.status)}, {"decidedBy", h.decided_by},
                         {"where", h.where}, {"summary", h.summary}, {"details", h.details}, {"choices", std::move(choices)}});
  }
  j["httpStatus"] = t.http_status;
  j["survival"] = nlohmann::json::array();
  for (const auto& n : t.survival) {
    nlohmann::json replicas = nlohmann::json::array();
    for (const auto& r : n.replicas) replicas.push_back({{"claim", r.claim}, {"left", r.left}, {"of", r.of}});
    j["survival"].push_back({{"node", n.node}, {"roles", n.roles}, {"served", n.served}, {"effect", n.effect}, {"replicasLeft", std::move(replicas)}});
  }
  j["auth"] = t.auth ? auth_json(*t.auth) : nlohmann::json(nullptr);
  j["followUp"] = t.follow_up.empty() ? nlohmann::json(nullptr) : trace_object(t.follow_up.front());
  return j;
}

}  // namespace

std::string trace_json(const RequestTrace& t) {
  const nlohmann::json j = trace_object(t);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // bytes that are not UTF-8 become U+FFFD
}

}  // namespace ct
