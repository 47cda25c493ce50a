// The forwarding state of the built backend fabric: for every switch, the ECMP group (the set of
// equal-cost next-hop links) toward every destination leaf, as the switches' FIBs would hold it
// after BGP (RFC 7938) or any shortest-path protocol has converged, with failed links removed.
//
// Model: up/down (valley-free) shortest paths. For destination leaf d of a plane, with switch
// tiers 1 (leaf) < 2 (spine) < 3 (core) and only links that are not failed:
//   down(s) = 0 for s = d; otherwise 1 + min over links from s to a lower-tier switch c of down(c)
//             (infinite when d is not below s);
//   dist(s) = down(s) when finite, else 1 + min over links from s to a higher-tier switch u of
//             dist(u): a path climbs until a switch that has d below it, then descends.
// The group of s toward d: the local delivery marker when s = d; else every down link to a
// child c with down(c) = down(s) - 1 when down(s) is finite; else every up link to a parent u
// with dist(u) = dist(s) - 1; else no route. Every parallel cable is its own member (each is an
// L3 interface with its own BGP session), so a leaf with 32 uplinks to 4 spines, 8 cables each,
// has a 32-way group, and a spine reaches a leaf over an 8-way group of its parallel cables.
// Links between switches of the same tier (spec `backend.links`) are not on up/down paths and
// are not used. Ports (tier 0) are reached from their leaf over their single NIC link.
//
// Storage (compact; many destinations share a group): groups are interned per switch (the same
// member list is one group, as a switch's next-hop group table holds it) and numbered switch by
// switch in vertex order. Each switch keeps a dense window of group ids over a range of
// destination-leaf ordinals plus one fallback group for every destination outside it (the most
// common group of its row): a healthy leaf stores one entry (itself: local) and falls back to its
// up group; a spine stores one entry per leaf below it. Lookup is one subtraction, one compare
// and one load. Building visits, for each switch, only the destination leaves where its or its
// neighbours' distances differ from their most common value (about one pod's worth): near-linear in
// the plane's links, not O(L x E) (forwarding_state.cpp). Switches whose inputs are the same (the
// spines of a pod, the cores of a plane) share one computation of their rows and groups, so a core
// costs its edges plus the copy of its window, not a search per destination leaf.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "topology/topology.h"

namespace ct {

enum class GroupKind : std::uint8_t { kUp, kDown, kLocal, kNoRoute };

// Where a group's members lie (one 16-byte load on the hot path): entries offset .. offset+size-1
// of the member arrays; and member 0's link and far end inline, so that a walk through a group of
// one member (a spine's cable down to a leaf: most groups of a 3-tier fabric) makes no second,
// dependent load.
struct GroupSpan {
  std::uint32_t offset = 0;
  std::uint16_t size = 0;
  GroupKind kind = GroupKind::kUp;
  LinkId first_link;
  VertexId first_next;
};

class ForwardingState {
 public:
  static constexpr std::uint32_t kLocalGroup = 0;    // s is the destination leaf: deliver to the port
  static constexpr std::uint32_t kNoRouteGroup = 1;  // the destination cannot be reached from s
  static constexpr std::uint32_t kNoDestination = 0xFFFFFFFFu;

  // PRECONDITION: topology.finalize() was called; the topology outlives this object.
  explicit ForwardingState(const Topology& topology, std::span<const LinkId> failed_links = {});

  [[nodiscard]] const Topology& topology() const { return *topology_; }

  // ---- destinations: backend leaves, numbered in vertex order ----
  [[nodiscard]] std::uint32_t leaf_count() const { return static_cast<std::uint32_t>(leaves_.size()); }
  [[nodiscard]] VertexId leaf(std::uint32_t ordinal) const { return leaves_[ordinal]; }
  // The destination key of a backend port: the ordinal of the leaf its NIC link goes to.
  [[nodiscard]] std::uint32_t destination_of(VertexId port) const { return ports_[port.value()].destination; }
  [[nodiscard]] VertexId leaf_of(VertexId port) const { return leaves_[ports_[port.value()].destination]; }
  // What a walk reads of a backend port, side by side in one 12-byte entry (one cache line for the
  // source and one for the destination of a walk, instead of one per array): the vertex its NIC
  // link (LinkId = the port's id, builder.h) leads to, its destination key, its plane, and whether
  // that NIC link is failed.
  struct PortEntry {
    VertexId attached;
    std::uint32_t destination = kNoDestination;
    std::uint16_t plane = 0;
    std::uint8_t nic_failed = 0;
  };
  // PRECONDITION: port is a backend port.
  [[nodiscard]] const PortEntry& port(VertexId port) const { return ports_[port.value()]; }

  // ---- the hot path ----
  // The four look-ups of a walk live in Tables (below), which holds the arrays' addresses: a loop
  // keeps a copy in registers (on its stack) instead of reaching them through this object and its
  // vectors at every use (the path walker's batch walk). Valid while this object lives unchanged.
  class Tables;
  [[nodiscard]] Tables tables() const;
  // PRECONDITION: sw is a backend switch; destination < leaf_count().
  [[nodiscard]] std::uint32_t group(VertexId sw, std::uint32_t destination) const;
  [[nodiscard]] const GroupSpan& span(std::uint32_t g) const { return span_[g]; }
  // Member entry e (= span.offset + member index): its link and the vertex it leads to.
  [[nodiscard]] LinkId member_link(std::uint32_t e) const { return hops_[e].link; }
  [[nodiscard]] VertexId member_next(std::uint32_t e) const { return hops_[e].next; }
  [[nodiscard]] std::span<const LinkId> members(std::uint32_t g) const {
    return {members_.data() + member_offset_[g], members_.data() + member_offset_[g + 1]};
  }
  [[nodiscard]] std::uint32_t size(std::uint32_t g) const { return member_offset_[g + 1] - member_offset_[g]; }
  [[nodiscard]] GroupKind kind(std::uint32_t g) const { return kind_[g]; }
  [[nodiscard]] VertexId owner(std::uint32_t g) const { return owner_[g]; }
  [[nodiscard]] bool failed(LinkId l) const { return failed_[l.value()] != 0; }

  // ---- inspection ----
  [[nodiscard]] std::size_t group_count() const { return kind_.size(); }
  // The groups of switch sw (ids first .. first + count - 1), excluding local and no-route.
  [[nodiscard]] std::uint32_t first_group(VertexId sw) const { return owned_[sw.value()].first; }
  [[nodiscard]] std::uint32_t group_count(VertexId sw) const { return owned_[sw.value()].count; }
  // Group ids stored in all windows (the table's size beyond one fallback per switch).
  [[nodiscard]] std::size_t window_entries() const { return window_.size(); }

 private:
  struct Row {  // 16 bytes: four rows per cache line
    std::uint32_t lo = 0;     // first destination ordinal of the window
    std::uint32_t width = 0;  // window length
    std::uint32_t base = 0;   // offset of the window in window_
    std::uint32_t fallback = kNoRouteGroup;
  };
  struct Owned {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  class PlaneBuilder;

  const Topology* topology_;
  std::vector<std::uint8_t> failed_;                // per link
  std::vector<VertexId> leaves_;                    // by ordinal
  std::vector<PortEntry> ports_;                    // per backend port
  std::vector<Row> rows_;                           // per vertex (switch rows only are meaningful)
  std::vector<Owned> owned_;                        // per vertex: the switch's groups
  std::vector<std::uint32_t> window_;
  std::vector<std::uint32_t> member_offset_;        // CSR, group_count() + 1 entries
  std::vector<LinkId> members_;
  struct MemberHop {  // link and far end side by side: one cache line on the hot path
    LinkId link;
    VertexId next;
  };
  std::vector<MemberHop> hops_;                     // per member entry
  std::vector<GroupSpan> span_;                     // per group
  std::vector<GroupKind> kind_;
  std::vector<VertexId> owner_;
};

class ForwardingState::Tables {
 public:
  [[nodiscard]] std::uint32_t group(VertexId sw, std::uint32_t destination) const {
    const Row& r = rows_[sw.value()];
    const std::uint32_t offset = destination - r.lo;  // wraps for destination < lo
    return offset < r.width ? window_[r.base + offset] : r.fallback;
  }
  [[nodiscard]] const GroupSpan& span(std::uint32_t g) const { return span_[g]; }
  [[nodiscard]] LinkId member_link(std::uint32_t e) const { return hops_[e].link; }
  [[nodiscard]] VertexId member_next(std::uint32_t e) const { return hops_[e].next; }

 private:
  friend class ForwardingState;
  const Row* rows_;
  const std::uint32_t* window_;
  const GroupSpan* span_;
  const MemberHop* hops_;
};

inline ForwardingState::Tables ForwardingState::tables() const {
  Tables t;
  t.rows_ = rows_.data();
  t.window_ = window_.data();
  t.span_ = span_.data();
  t.hops_ = hops_.data();
  return t;
}

inline std::uint32_t ForwardingState::group(VertexId sw, std::uint32_t destination) const {
  return tables().group(sw, destination);
}

}  // namespace ct
