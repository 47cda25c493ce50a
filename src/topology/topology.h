// The physical network built from a ValidSpec: a graph whose vertices are NIC ports (endpoints)
// and switches, and whose links are full-duplex cables with a capacity per direction and a
// latency. Stored as a struct of dense arrays indexed by VertexId / LinkId, with CSR adjacency;
// names are made on demand, outside the hot path.
//
// Vertex numbering (stable, relied on by golden files):
//   backend NIC ports first, ordered by (host, rail, plane): port vertex of host h, rail r, plane p
//   is  h * ports_per_host * planes + r * planes + p;
//   then backend switches by (plane, tier, pod, index); then frontend ports and switches.
// Link numbering: in construction order, documented in builder.h (the NIC-leaf link of backend
// port v has LinkId v; then leaf-spine, spine-core, extra and frontend links).
//
// Tiers: 0 = endpoint (NIC port), 1 = leaf, 2 = spine, 3 = core. A link's "tier" is the tier of
// its upper end (1: NIC-leaf, 2: leaf-spine, 3: spine-core).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/units.h"

namespace ct {

enum class VertexKind : std::uint8_t { kPort, kSwitch };
enum class Network : std::uint8_t { kBackend, kFrontend };

struct Adjacency {
  VertexId neighbor;
  LinkId link;
};

class Topology {
 public:
  // ---- vertices (struct of arrays; all of size vertex_count()) ----
  std::vector<VertexKind> kind;
  std::vector<Network> network;
  std::vector<std::uint16_t> plane;  // backend plane; 0 for the frontend
  std::vector<std::uint8_t> tier;    // 0 port, 1 leaf, 2 spine, 3 core
  std::vector<std::uint32_t> group;  // ports: host; switches: pod (0 for 2 tiers)
  std::vector<std::uint32_t> index;  // ports: rail (NIC index in the host); switches: index in (plane, tier, pod)
  std::vector<std::uint16_t> ports;  // switches: logical ports available; ports: 1

  // ---- links (all of size link_count()) ----
  std::vector<VertexId> link_a;  // lower end (toward the endpoints)
  std::vector<VertexId> link_b;  // upper end
  std::vector<BitsPerSecond> capacity;  // per direction
  std::vector<TimePs> latency;
  std::vector<std::int32_t> media;  // index into Catalog::optics chosen for this link, -1 unknown

  // ---- names of an imported fabric (optional) ----
  // One per vertex when the fabric was read from the wire rather than built from a spec (an
  // ibnetdiscover file: the nodes' descriptions, ib/simulation_fabric.h); vertex_name prints them
  // instead of the structural names below. Empty for a built fabric.
  std::vector<std::string> label;

  // ---- hosts ----
  long long host_count = 0;
  int ports_per_host = 0;  // backend NICs per host (rails)
  int planes = 1;
  int tiers = 2;
  int gpus_per_host = 0;
  // ---- frontend (a separate network; absent when frontend_ports_per_host == 0) ----
  int frontend_ports_per_host = 0;
  std::uint32_t frontend_begin = 0;  // first frontend vertex (its ports, then its switches)

  [[nodiscard]] std::size_t vertex_count() const { return kind.size(); }
  [[nodiscard]] std::size_t link_count() const { return link_a.size(); }

  // Backend port of (host, rail, plane).
  [[nodiscard]] VertexId port_of(HostId host, int rail, int plane_index) const {
    return VertexId((host.value() * static_cast<std::uint64_t>(ports_per_host) + rail) * planes + plane_index);
  }
  [[nodiscard]] std::size_t backend_port_count() const {
    return static_cast<std::size_t>(host_count) * ports_per_host * planes;
  }
  // Frontend port `port` of host. PRECONDITION: port < frontend_ports_per_host.
  [[nodiscard]] VertexId frontend_port_of(HostId host, int port) const {
    return VertexId(frontend_begin + host.value() * static_cast<std::uint64_t>(frontend_ports_per_host) + port);
  }

  // Neighbours of v with the link to each, in link-id order. PRECONDITION: finalize() was called.
  [[nodiscard]] std::span<const Adjacency> neighbors(VertexId v) const {
    return {adjacency_.data() + adjacency_offset_[v.value()],
            adjacency_.data() + adjacency_offset_[v.value() + 1]};
  }
  [[nodiscard]] VertexId other_end(LinkId l, VertexId v) const {
    return link_a[l.value()] == v ? link_b[l.value()] : link_a[l.value()];
  }

  // "host12/nic3/p1", "p0/leaf/12", "p1/pod3/spine/7", "p0/core/5", "fe/leaf/2".
  [[nodiscard]] std::string vertex_name(VertexId v) const;
  // vertex_name(v) at the end of `out` (no string of its own: for reports naming many vertices).
  void append_vertex_name(std::string& out, VertexId v) const;
  [[nodiscard]] std::string link_name(LinkId l) const;

  VertexId add_vertex(VertexKind k, Network n, int plane_index, int tier_index, std::uint32_t group_index,
                      std::uint32_t index_in_group, int port_count);
  LinkId add_link(VertexId lower, VertexId upper, BitsPerSecond cap, TimePs lat, std::int32_t media_index);
  // Capacity for this many vertices and links (no effect on the graph).
  void reserve(std::size_t vertices, std::size_t links);
  // Builds the CSR adjacency; call once after the last add_link.
  void finalize();

 private:
  std::vector<std::uint32_t> adjacency_offset_;
  std::vector<Adjacency> adjacency_;
};

// Links whose two ends are backend vertices of different planes (0 for a built topology: planes
// are disjoint), and links joining the backend to the frontend (0 as well).
std::size_t count_cross_plane_links(const Topology& topology);
std::size_t count_cross_network_links(const Topology& topology);

}  // namespace ct
