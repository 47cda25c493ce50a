#include "report/topology_export.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/table.h"

namespace ct {
namespace {

using Json = nlohmann::ordered_json;

const char* network_name(Network n) { return n == Network::kBackend ? "backend" : "frontend"; }

Json vertex_json(const Topology& t, std::size_t v) {
  Json j;
  j["id"] = v;
  j["name"] = t.vertex_name(VertexId(v));
  j["kind"] = t.kind[v] == VertexKind::kPort ? "port" : "switch";
  j["network"] = network_name(t.network[v]);
  j["plane"] = t.plane[v];
  j["tier"] = t.tier[v];
  if (t.kind[v] == VertexKind::kPort) {
    j["host"] = t.group[v];
    j[t.network[v] == Network::kBackend ? "rail" : "port"] = t.index[v];
  } else {
    j["pod"] = t.group[v];
    j["index"] = t.index[v];
    j["ports"] = t.ports[v];
  }
  return j;
}

Json link_json(const Topology& t, const Catalog& catalog, std::size_t l) {
  Json j;
  j["id"] = l;
  j["a"] = t.link_a[l].value();
  j["b"] = t.link_b[l].value();
  j["capacity_bps"] = t.capacity[l].value();
  j["latency_ps"] = t.latency[l].value();
  const std::int32_t m = t.media[l];
  j["media"] = m < 0 ? Json(nullptr) : Json(catalog.optics[static_cast<std::size_t>(m)].id);
  return j;
}

// Elements written between two progress calls.
constexpr std::size_t kProgressEvery = 1 << 16;

// "[\n    e0,\n    e1\n  ]": one compact element per line; `progress` (when set) told
// (done_before + i, total) every kProgressEvery elements.
template <typename MakeElement>
void append_array(std::string& out, std::size_t count, MakeElement make, const ProgressCallback& progress = {},
                  std::uint64_t done_before = 0, std::uint64_t total = 0) {
  out += "[";
  for (std::size_t i = 0; i < count; ++i) {
    if (progress && i % kProgressEvery == 0) progress(done_before + i, total);
    out += i == 0 ? "\n    " : ",\n    ";
    out += make(i).dump();
  }
  out += count == 0 ? "]" : "\n  ]";
}

const char* tier_color(int tier) {
  switch (tier) {
    case 1: return "lightblue";
    case 2: return "palegreen";
    case 3: return "khaki";
    default: return "white";
  }
}

std::string dot_node(const Topology& t, std::size_t v) {
  if (t.kind[v] == VertexKind::kPort) {
    const char* prefix = t.network[v] == Network::kBackend ? "nic" : "fe";
    return fmt::format("v{} [label=\"{}{}\", shape=box, height=0.2, fontsize=8];", v, prefix, t.index[v]);
  }
  return fmt::format("v{} [label=\"{}\", shape=box, style=filled, fillcolor={}];", v, t.vertex_name(VertexId(v)),
                     tier_color(t.tier[v]));
}

// The vertices of one cluster (a backend plane, or the frontend), in id order.
std::vector<std::size_t> cluster_members(const Topology& t, Network net, int plane) {
  std::vector<std::size_t> members;
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] == net && t.plane[v] == plane) members.push_back(v);
  }
  return members;
}

void append_cluster(std::string& out, const Topology& t, Network net, int plane) {
  const auto members = cluster_members(t, net, plane);
  if (members.empty()) return;
  const std::string id = net == Network::kBackend ? fmt::format("plane{}", plane) : "frontend";
  out += fmt::format("  subgraph cluster_{} {{\n    label=\"{}\";\n", id,
                     net == Network::kBackend ? fmt::format("plane {}", plane) : "frontend");
  // Ports, one cluster per host; members are in id order, so a host's ports are contiguous.
  std::size_t i = 0;
  while (i < members.size() && t.kind[members[i]] == VertexKind::kPort) {
    const auto host = t.group[members[i]];
    out += fmt::format("    subgraph cluster_{}_host{} {{\n      label=\"host {}\";\n", id, host, host);
    for (; i < members.size() && t.kind[members[i]] == VertexKind::kPort && t.group[members[i]] == host; ++i) {
      out += "      " + dot_node(t, members[i]) + "\n";
    }
    out += "    }\n";
  }
  // Switches, one rank per tier.
  while (i < members.size()) {
    const auto tier = t.tier[members[i]];
    out += "    { rank=same;\n";
    for (; i < members.size() && t.tier[members[i]] == tier; ++i) out += "      " + dot_node(t, members[i]) + "\n";
    out += "    }\n";
  }
  out += "  }\n";
}

void append_edges(std::string& out, const Topology& t) {
  std::vector<std::size_t> order(t.link_count());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto key = [&](std::size_t l) { return std::pair(t.link_a[l].value(), t.link_b[l].value()); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && key(order[j]) == key(order[i])) ++j;
    const auto [a, b] = key(order[i]);
    std::string attributes;
    if (j - i > 1) attributes += fmt::format("label=\"x{}\"", j - i);
    if (t.tier[a] == t.tier[b]) attributes += attributes.empty() ? "constraint=false" : ", constraint=false";
    out += fmt::format("  v{} -- v{}{};\n", a, b, attributes.empty() ? "" : " [" + attributes + "]");
    i = j;
  }
}

// The aggregated view's group of a vertex: (network, plane, tier, pod); ports of a plane form one
// group whatever their host.
using GroupKey = std::tuple<int, int, int, std::uint32_t>;
GroupKey group_key(const Topology& t, std::size_t v) {
  const bool port = t.kind[v] == VertexKind::kPort;
  return {static_cast<int>(t.network[v]), t.plane[v], t.tier[v], port ? 0U : t.group[v]};
}

const char* tier_name(int tier) {
  switch (tier) {
    case 0: return "NIC ports";
    case 1: return "leaves";
    case 2: return "spines";
    default: return "cores";
  }
}

struct Group {
  GroupKey key;
  std::size_t first = 0;  // lowest vertex id: the group's order
  long long members = 0;
  int ports = 0;          // switches: logical ports of the first member
};

struct GroupEdge {
  long long links = 0;
  BitsPerSecond capacity;
  BitsPerSecond speed;  // of the first link
  bool mixed = false;   // links of different speeds
};

}  // namespace

std::string to_dot_aggregate(const Topology& topology, const std::string& comment) {
  const Topology& t = topology;
  std::map<GroupKey, std::size_t> index;
  std::vector<Group> groups;
  std::vector<std::size_t> group_of(t.vertex_count());
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    const GroupKey key = group_key(t, v);
    const auto [it, added] = index.try_emplace(key, groups.size());
    if (added) groups.push_back({key, v, 0, t.kind[v] == VertexKind::kSwitch ? t.ports[v] : 0});
    ++groups[it->second].members;
    group_of[v] = it->second;
  }
  std::map<std::pair<std::size_t, std::size_t>, GroupEdge> edges;
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    GroupEdge& e = edges[{group_of[t.link_a[l].value()], group_of[t.link_b[l].value()]}];
    if (e.links == 0) e.speed = t.capacity[l];
    e.mixed = e.mixed || t.capacity[l] != e.speed;
    ++e.links;
    e.capacity += t.capacity[l];
  }
  std::string out = "graph topology_aggregate {\n";
  if (!comment.empty()) out += "  // " + comment + "\n";
  out += "  graph [rankdir=BT, newrank=true, nodesep=0.3, ranksep=1.0, fontname=\"Helvetica\"];\n";
  out += "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=filled];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (int net = 0; net < 2; ++net) {
    for (int p = 0; p < (net == 0 ? t.planes : 1); ++p) {
      std::string body;
      for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto& [gnet, gplane, tier, pod] = groups[g].key;
        if (gnet != net || gplane != p) continue;
        const std::string where = t.tiers >= 3 && tier >= 1 && tier <= 2 ? fmt::format(" (pod {})", pod) : "";
        const std::string what = tier == 0 ? fmt::format("{} {}", count_text(groups[g].members), tier_name(0))
                                           : fmt::format("{} {}{}\\n{} ports each", count_text(groups[g].members),
                                                         tier_name(tier), where, groups[g].ports);
        body += fmt::format("    g{} [label=\"{}\", fillcolor={}];\n", g, what, tier_color(tier));
      }
      if (body.empty()) continue;
      const bool backend = net == static_cast<int>(Network::kBackend);
      out += fmt::format("  subgraph cluster_{} {{\n    label=\"{}\";\n", backend ? fmt::format("plane{}", p) : "frontend",
                         backend ? fmt::format("plane {}", p) : "frontend");
      out += body + "  }\n";
    }
  }
  for (const auto& [ends, e] : edges) {
    const std::string label = e.mixed ? fmt::format("{} links = {}", count_text(e.links), format_speed(e.capacity))
                                      : fmt::format("{} x {} = {}", count_text(e.links), format_speed(e.speed),
                                                    format_speed(e.capacity));
    const bool flat = std::get<2>(groups[ends.first].key) == std::get<2>(groups[ends.second].key);
    out += fmt::format("  g{} -- g{} [label=\"{}\"{}];\n", ends.first, ends.second, label,
                       flat ? ", constraint=false" : "");
  }
  out += "}\n";
  return out;
}

std::string to_json(const Topology& topology, const Catalog& catalog, const ProgressCallback& progress) {
  const Topology& t = topology;
  std::string out = "{\n";
  out += fmt::format("  \"hosts\": {},\n  \"ports_per_host\": {},\n  \"planes\": {},\n  \"tiers\": {},\n", t.host_count,
                     t.ports_per_host, t.planes, t.tiers);
  out += fmt::format("  \"gpus_per_host\": {},\n  \"frontend_ports_per_host\": {},\n", t.gpus_per_host,
                     t.frontend_ports_per_host);
  out += "  \"vertices\": ";
  const std::uint64_t total = t.vertex_count() + t.link_count();
  append_array(out, t.vertex_count(), [&](std::size_t v) { return vertex_json(t, v); }, progress, 0, total);
  out += ",\n  \"links\": ";
  append_array(out, t.link_count(), [&](std::size_t l) { return link_json(t, catalog, l); }, progress, t.vertex_count(), total);
  out += "\n}\n";
  if (progress) progress(total, total);
  return out;
}

std::string to_dot(const Topology& topology) {
  const Topology& t = topology;
  std::string out = "graph topology {\n";
  out += "  graph [rankdir=BT, newrank=true, nodesep=0.1, ranksep=1.0, fontname=\"Helvetica\"];\n";
  out += "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (int p = 0; p < t.planes; ++p) append_cluster(out, t, Network::kBackend, p);
  append_cluster(out, t, Network::kFrontend, 0);
  append_edges(out, t);
  out += "}\n";
  return out;
}

}  // namespace ct
