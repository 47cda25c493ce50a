#include "report/trace_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ct {

std::string trace_text(const RequestTrace& t) {
  const HttpRequest& r = t.request;
  std::string out = fmt::format("Trace: {} {}://{}{} from {}{}\n", r.method, r.scheme, r.sni.empty() ? r.host : r.sni, r.path, t.client,
                                t.client_why == "given" ? "" : " (" + t.client_why + ")");
  for (const auto& h : t.hops) {
    out += fmt::format("{}. {} [{}]", h.number, h.name, to_string(h.status));
    if (!h.summary.empty()) out += ": " + h.summary;
    out += "\n";
    if (!h.decided_by.empty()) out += fmt::format("   decided by {}{}\n", h.decided_by, h.where.empty() ? "" : " (" + h.where + ")");
    for (const auto& d : h.details) out += "   - " + d + "\n";
  }
  out += t.http_status == 0 ? "Result: no HTTP response (the request never reached HTTP)\n"
                            : fmt::format("Result: HTTP {}\n", t.http_status);
  return out;
}

std::string trace_json(const RequestTrace& t) {
  nlohmann::json j;
  j["request"] = {{"method", t.request.method}, {"scheme", t.request.scheme}, {"host", t.request.host},
                  {"sni", t.request.sni}, {"port", t.request.port}, {"path", t.request.path}};
  j["client"] = t.client;
  j["clientWhy"] = t.client_why;
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
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // bytes that are not UTF-8 become U+FFFD
}

}  // namespace ct
