// One name directory for a built topology: every name a user may type ("host3/gpu0", "gpu26",
// "host0/nic1", "host0/nic1/p0", "10.1.0.7", "p0/spine/3", "p1/pod2/leaf/0", "fe/leaf/2", a link
// id or "p0/leaf/0 -- p0/spine/1") resolved in one place, with the same messages everywhere:
// did-you-mean for near misses (core/suggest.h) and, when the name is well formed but the fabric is
// simply smaller ("host40" in a 32-host fabric), a message that says how large it is.
//
// Names are the ones Topology::vertex_name and cable_name print (a cable with parallel twins:
// "A -- B #k"), so every name the tool prints can be fed back. Lookups are hash-map finds, never
// linear scans; the maps are built on the first lookup (thread-safe), so a fabric of millions of
// ports that is only planned never pays for them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "topology/cable_index.h"
#include "topology/topology.h"

namespace ct {

class NameDirectory {
 public:
  // PRECONDITION: topology.finalize() was called; the topology outlives the directory.
  explicit NameDirectory(const Topology& topology);

  // Any vertex by its printed name (ports, switches, frontend). `where` and `field` say where the
  // user typed it (a file:line or the command line; e.g. "--fail", "scenario.faults[2].switch"),
  // for the diagnostic.
  [[nodiscard]] Result<VertexId> vertex(std::string_view name, const SourceLocation& where, std::string_view field) const;
  // A backend switch by name.
  [[nodiscard]] Result<VertexId> backend_switch(std::string_view name, const SourceLocation& where, std::string_view field) const;
  // A backend port: "host12/nic3/p1", "host12/nic3" (plane 0), "host12" (NIC 0, plane 0) or its
  // IPv4 address (routing/port_address.h).
  [[nodiscard]] Result<VertexId> backend_port(std::string_view name, const SourceLocation& where, std::string_view field) const;
  // A backend port by the port grammar alone, as written: "host12/nic3/p1", "host12/nic3" (plane
  // 0) or "host12" (NIC 0, plane 0); nullopt for anything else (no trimming, no address, no
  // diagnostic: backend_port gives those). For readers with their own messages and hot paths.
  [[nodiscard]] std::optional<VertexId> port_spelled(std::string_view name) const;
  // port_spelled for a name that names its NIC ("host12/nic3/p1", "host12/nic3"); nullopt for
  // "host12" alone (a reader's other rules may give it another meaning) and anything else.
  [[nodiscard]] std::optional<VertexId> nic_port_spelled(std::string_view name) const {
    if (!name.starts_with("host") || name.find("/nic") == std::string_view::npos) return std::nullopt;
    return port_spelled(name);
  }
  // " (did you mean 'host0/nic0'?)" for a misspelt port name ("host0/nci0", "hots0/nic0",
  // "host0/nic"): the nearest of the names of the ports of the host whose number the name holds
  // (core/suggest.h), so that no index of every port is built; "" when none is near, or on an
  // imported fabric (its ports go by their labels: vertex() suggests those). For readers with
  // their own messages (flow tables); backend_port() gives it.
  [[nodiscard]] std::string port_hint(std::string_view name) const;
  // A GPU by its global id g = host x gpus_per_host + local: "host3/gpu2", "gpu26" or "26".
  [[nodiscard]] Result<std::uint32_t> gpu(std::string_view name, const SourceLocation& where, std::string_view field) const;
  // A backend port or switch by the exact name Topology::vertex_name prints ("host3/nic1/p0",
  // "p0/pod2/leaf/5", "p1/spine/7"), parsed into its parts and indexed through the topology's
  // vertex numbering: no hashing, no allocation, no index of every name. VertexId::invalid() for
  // anything else (another spelling, a frontend name, a vertex the fabric lacks): vertex() then
  // resolves it or gives the diagnostic. For the hot paths of large inputs (pinned routes).
  [[nodiscard]] VertexId printed_vertex(std::string_view name) const;
  // A link id, "A -- B" (every parallel cable between A and B, in id order) or "A -- B #k" (the
  // one cable cable_name prints so: the k-th of them, from 0; a k past the bundle is an error that
  // gives the bundle's size).
  [[nodiscard]] Result<std::vector<LinkId>> links(std::string_view name, const SourceLocation& where, std::string_view field) const;
  // The one reader of a cable number: "A -- B #k" split into "A -- B" (trimmed) and k; k is
  // nullopt when no '#' is written, ok false when '#' is not followed by a number. For readers
  // with their own vertex lookups (pinned routes); links() uses it.
  struct CableSpelling {
    std::string_view bundle;
    std::optional<std::size_t> k;
    bool ok = true;
  };
  [[nodiscard]] static CableSpelling split_cable_number(std::string_view name);
  // The message for a cable number past its bundle ("... cable #3 does not exist (2 cable(s) join
  // them, #0..#1)"). PRECONDITION: bundle_size > 0.
  [[nodiscard]] static std::string cable_number_error(std::string_view name, std::size_t k, std::size_t bundle_size);
  // The cables joining two vertices (topology/cable_index.h), indexed on first use (thread-safe).
  // For the hot paths of large inputs (pinned routes): "A -- B #k" is cable_index().cable(a, b, k).
  [[nodiscard]] const CableIndex& cable_index() const {
    if (!cables_ready_.load(std::memory_order_acquire)) index_cables();
    return *cable_index_;
  }

  // A cable's printed name, the one every output of a run gives it (a queue, a link's row, a hop
  // of a route, a channel of a credit loop): "A -- B" as Topology::link_name prints it, followed by
  // " #k" when other cables join A and B too, k its place among them in link-id order (from 0), so
  // that parallel cables are told apart and links() and cable_index().cable(a, b, k) read the name
  // back to this cable. Appended to `out`; the other returns it.
  void append_cable_name(std::string& out, LinkId l) const;
  [[nodiscard]] std::string cable_name(LinkId l) const;

  [[nodiscard]] const Topology& topology() const { return *topology_; }

 private:
  [[nodiscard]] Diagnostic unknown(std::string_view name, const SourceLocation& where, std::string_view field,
                                   bool switches_only) const;
  void index() const;
  void index_switches() const;
  void index_cables() const;
  const Topology* topology_;
  mutable std::once_flag indexed_;
  mutable std::unordered_map<std::string, VertexId> vertex_by_name_;
  mutable std::once_flag cables_indexed_;
  mutable std::atomic<bool> cables_ready_{false};  // set when cables_indexed_ has run: cable_index() tests it inline
  mutable std::unique_ptr<CableIndex> cable_index_;
  // Backend switches by (plane, tier, pod): the first vertex and the count of each group, for
  // printed_vertex (the topology numbers them by (plane, tier, pod, index)).
  mutable std::once_flag switches_indexed_;
  mutable std::atomic<bool> switches_ready_{false};
  mutable std::uint32_t switch_pods_ = 0;
  mutable std::vector<std::uint32_t> switch_first_;
  mutable std::vector<std::uint32_t> switch_count_;
};

}  // namespace ct
