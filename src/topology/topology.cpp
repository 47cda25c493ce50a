#include "topology/topology.h"

#include <cassert>
#include <charconv>

namespace ct {
namespace {
const char* tier_name(int tier) {
  switch (tier) {
    case 1: return "leaf";
    case 2: return "spine";
    case 3: return "core";
    default: return "port";
  }
}
}  // namespace

VertexId Topology::add_vertex(VertexKind k, Network n, int plane_index, int tier_index, std::uint32_t group_index,
                              std::uint32_t index_in_group, int port_count) {
  const VertexId id(kind.size());
  kind.push_back(k);
  network.push_back(n);
  plane.push_back(static_cast<std::uint16_t>(plane_index));
  tier.push_back(static_cast<std::uint8_t>(tier_index));
  group.push_back(group_index);
  index.push_back(index_in_group);
  ports.push_back(static_cast<std::uint16_t>(port_count));
  return id;
}

LinkId Topology::add_link(VertexId lower, VertexId upper, BitsPerSecond cap, TimePs lat, std::int32_t media_index) {
  assert(lower.value() < vertex_count() && upper.value() < vertex_count());
  const LinkId id(link_a.size());
  link_a.push_back(lower);
  link_b.push_back(upper);
  capacity.push_back(cap);
  latency.push_back(lat);
  media.push_back(media_index);
  return id;
}

void Topology::reserve(std::size_t vertices, std::size_t links) {
  kind.reserve(vertices);
  network.reserve(vertices);
  plane.reserve(vertices);
  tier.reserve(vertices);
  group.reserve(vertices);
  index.reserve(vertices);
  ports.reserve(vertices);
  link_a.reserve(links);
  link_b.reserve(links);
  capacity.reserve(links);
  latency.reserve(links);
  media.reserve(links);
}

void Topology::finalize() {
  // Counting sort of link ends by vertex: neighbours come out in link-id order.
  const std::size_t n = vertex_count();
  adjacency_offset_.assign(n + 1, 0);
  for (std::size_t l = 0; l < link_count(); ++l) {
    ++adjacency_offset_[link_a[l].value() + 1];
    ++adjacency_offset_[link_b[l].value() + 1];
  }
  for (std::size_t v = 0; v < n; ++v) adjacency_offset_[v + 1] += adjacency_offset_[v];
  adjacency_.resize(adjacency_offset_[n]);
  std::vector<std::uint32_t> cursor(adjacency_offset_.begin(), adjacency_offset_.end() - 1);
  for (std::size_t l = 0; l < link_count(); ++l) {
    const LinkId id(l);
    adjacency_[cursor[link_a[l].value()]++] = {link_b[l], id};
    adjacency_[cursor[link_b[l].value()]++] = {link_a[l], id};
  }
}

namespace {

// n in decimal at the end of out.
void append_number(std::string& out, std::uint32_t n) {
  char digits[10];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
  out.append(digits, end);
}

}  // namespace

// Written a piece at a time rather than through a format string: the diagnose and trace reports
// name hundreds of thousands of vertices at 32k GPUs.
void Topology::append_vertex_name(std::string& out, VertexId v) const {
  const auto i = v.value();
  if (!label.empty()) {
    out += label[i];
    return;
  }
  if (network[i] == Network::kFrontend) {
    if (kind[i] == VertexKind::kPort) {
      out += "host";
      append_number(out, group[i]);
      out += "/fe";
    } else {
      out += "fe/";
      out += tier_name(tier[i]);
      out += '/';
    }
    append_number(out, index[i]);
    return;
  }
  if (kind[i] == VertexKind::kPort) {
    out += "host";
    append_number(out, group[i]);
    out += "/nic";
    append_number(out, index[i]);
    if (planes > 1) {
      out += "/p";
      append_number(out, plane[i]);
    }
    return;
  }
  out += 'p';
  append_number(out, plane[i]);
  // Pods exist only below the core tier of a 3-tier fabric.
  if (tiers == 3 && tier[i] < 3) {
    out += "/pod";
    append_number(out, group[i]);
  }
  out += '/';
  out += tier_name(tier[i]);
  out += '/';
  append_number(out, index[i]);
}

std::string Topology::vertex_name(VertexId v) const {
  std::string out;
  out.reserve(24);
  append_vertex_name(out, v);
  return out;
}

std::string Topology::link_name(LinkId l) const {
  std::string out;
  out.reserve(48);
  append_vertex_name(out, link_a[l.value()]);
  out += " -- ";
  append_vertex_name(out, link_b[l.value()]);
  return out;
}

std::size_t count_cross_plane_links(const Topology& topology) {
  std::size_t count = 0;
  for (std::size_t l = 0; l < topology.link_count(); ++l) {
    const auto a = topology.link_a[l].value();
    const auto b = topology.link_b[l].value();
    const bool backend = topology.network[a] == Network::kBackend && topology.network[b] == Network::kBackend;
    if (backend && topology.plane[a] != topology.plane[b]) ++count;
  }
  return count;
}

std::size_t count_cross_network_links(const Topology& topology) {
  std::size_t count = 0;
  for (std::size_t l = 0; l < topology.link_count(); ++l) {
    if (topology.network[topology.link_a[l].value()] != topology.network[topology.link_b[l].value()]) ++count;
  }
  return count;
}

}  // namespace ct
