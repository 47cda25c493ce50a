#include "report/lab_json.h"

#include <nlohmann/json.hpp>

#include "routing/port_address.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

Json header(const std::string& command, const std::string& prefix) {
  return Json{{"command", command}, {"prefix", prefix}};
}

std::string dump(const Json& j) { return j.dump(2) + "\n"; }

// "link" is the cable's name as every output gives it (NameDirectory::cable_name), "id" its link id.
Json link_json(const LabPlan& plan, const LabLink& l, const NameDirectory& names) {
  return Json{{"link", names.cable_name(l.link)},
              {"id", l.link.value()},
              {"device", l.device},
              {"lower", plan.namespaces.at(l.lower).name},
              {"upper", plan.namespaces.at(l.upper).name},
              {"lower_address", format_ipv4(l.lower_address)},
              {"upper_address", format_ipv4(l.upper_address)}};
}

const LabLink* find_link(const LabPlan& plan, LinkId link) {
  for (const LabLink& l : plan.links) {
    if (l.link == link) return &l;
  }
  return nullptr;
}

}  // namespace

std::string lab_up_json(const LabPlan& plan, const NameDirectory& names) {
  const Topology& topology = names.topology();
  Json j = header("up", plan.prefix);
  Json namespaces = Json::array();
  for (const LabNamespace& ns : plan.namespaces) {
    namespaces.push_back(Json{{"name", ns.name},
                              {"vertex", topology.vertex_name(ns.vertex)},
                              {"kind", ns.is_switch ? "switch" : "port"},
                              {"sysctls", ns.sysctls}});
  }
  Json links = Json::array();
  for (const LabLink& l : plan.links) links.push_back(link_json(plan, l, names));
  j["namespaces"] = std::move(namespaces);
  j["links"] = std::move(links);
  return dump(j);
}

std::string lab_run_json(const LabPlan& plan, const std::vector<LabFlowResult>& results, const Topology& topology) {
  Json j = header("run", plan.prefix);
  Json flows = Json::array();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const LabFlowResult& r = results[i];
    const FlowKey& k = r.flow.key;
    flows.push_back(Json{{"flow", i},
                         {"src", topology.vertex_name(r.flow.src)},
                         {"dst", topology.vertex_name(r.flow.dst)},
                         {"src_ip", format_ipv4(k.src_ip)},
                         {"dst_ip", format_ipv4(k.dst_ip)},
                         {"protocol", "udp"},
                         {"src_port", k.src_port},
                         {"dst_port", k.dst_port},
                         {"bytes", r.bytes},
                         {"seconds", r.seconds},
                         {"bits_per_second", r.bits_per_second}});
  }
  j["flows"] = std::move(flows);
  return dump(j);
}

std::string lab_counters_json(const LabPlan& plan, const std::vector<LabCounter>& counters, const Topology& topology) {
  Json j = header("counters", plan.prefix);
  Json list = Json::array();
  for (const LabCounter& c : counters) {
    const LabNamespace& ns = plan.namespaces.at(c.ns);
    list.push_back(Json{{"instance", topology.vertex_name(ns.vertex)},
                        {"namespace", ns.name},
                        {"device", c.device},
                        {"transmit_bytes", c.transmit_bytes},
                        {"receive_bytes", c.receive_bytes},
                        {"time_ms", c.time_ms}});
  }
  j["counters"] = std::move(list);
  return dump(j);
}

std::string lab_fail_json(const LabPlan& plan, const std::vector<LinkId>& links, const NameDirectory& names) {
  Json j = header("fail", plan.prefix);
  Json failed = Json::array();
  for (const LinkId l : links) {
    const LabLink* in_lab = find_link(plan, l);
    failed.push_back(in_lab != nullptr ? link_json(plan, *in_lab, names)
                                       : Json{{"link", names.cable_name(l)}, {"id", l.value()}});
  }
  j["failed"] = std::move(failed);
  return dump(j);
}

std::string lab_down_json(const std::string& prefix, const std::vector<std::string>& removed) {
  Json j = header("down", prefix);
  j["removed"] = removed;
  return dump(j);
}

}  // namespace ct
