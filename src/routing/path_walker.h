// Walking a flow hop by hop through the forwarding state, as the switches' data planes forward
// its packets: from the source port over its NIC link to its leaf; then at each switch the group
// toward the destination's leaf (forwarding_state.h); a group of one member is taken as is,
// otherwise the switch hashes the flow's key (switch_hashes.h) and picks a member
// (member_select.h); at the destination leaf, the destination's NIC link. One hash and one
// member selection per multi-member group: a "flow-hop decision".
//
// Arrival. A switch's group toward its own leaf is always the local one (forwarding_state.h), so a
// walk that reaches the destination's leaf (the far end of the destination's NIC link) takes the
// NIC hop at once instead of looking that group up: the same hops, one table look-up and one step
// fewer per flow (half of a two-tier flow's four hops are the NIC links).
//
// A hop's direction: up when the flow leaves the link's lower end (link_a), down otherwise.
// Loads are counted per directed link, index 2 x link + (down ? 1 : 0), since a full-duplex cable
// carries each direction independently.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <vector>

#include "core/ids.h"
#include "routing/crc_clmul.h"
#include "routing/flow_key.h"
#include "routing/forwarding_state.h"
#include "routing/member_select.h"
#include "routing/switch_hashes.h"

namespace ct {

inline constexpr std::uint32_t kNoGroup = 0xFFFFFFFFu;

struct PathHop {
  LinkId link;
  VertexId from;                  // the vertex the flow leaves over `link`
  std::uint32_t group = kNoGroup;  // the ECMP group `link` was chosen from (kNoGroup: NIC links)
  std::uint32_t member = 0;        // its index in the group
  bool up = true;

  [[nodiscard]] std::uint32_t directed() const { return 2 * link.value() + (up ? 0u : 1u); }
};

inline std::uint32_t directed_link(LinkId l, bool up) { return 2 * l.value() + (up ? 0u : 1u); }

class PathWalker {
 public:
  // Both must outlive the walker.
  PathWalker(const ForwardingState& forwarding, const SwitchHashes& hashes);

  // Clears `out` and appends the flow's hops. Returns false when the destination is unreachable
  // (different plane, failed NIC link, no route): `out` then holds the hops up to where it stops.
  // PRECONDITION: src and dst are backend ports.
  bool walk(VertexId src, VertexId dst, const FlowKey& key, std::vector<PathHop>& out) const;

  // Walks many flows, each exactly as walk() does, kLanes at a time with their hops interleaved:
  // the table look-ups of one flow's path depend on each other, those of different flows do not.
  // Each step makes three passes over the lanes: the group toward the destination (switch row,
  // window), then the group's span and the member choice, then the chosen member's link and far
  // end. The loads of one pass are independent and each lane's work in a pass is short, so the core
  // keeps all lanes' loads in flight at once instead of waiting on one flow's chain after another.
  // Request has members src, dst and key (RouteRequest); sink(i, reached, hops) receives flow i's
  // result, in flow order, with `hops` valid during the call only. A key's hash is computed once
  // per walk (SwitchHashes::base), by carry-less multiplication where the CPU and the function
  // allow it (crc_clmul.h): the walk is then built for that CPU as a whole, since a function built
  // for it cannot be inlined into one built without.
  template <class Request, class Sink>
  void walk_all(std::span<const Request> flows, Sink&& sink) const;

  // The member switch sw picks from group g for key (0 for a one-member group).
  [[nodiscard]] std::uint32_t choose(VertexId sw, std::uint32_t g, const FlowKey& key) const {
    const std::uint32_t n = forwarding_.size(g);
    return n == 1 ? 0 : select(n, hashes_.hash(sw, key));
  }

  // Member of an n-way equal-weight group for hash h, exactly as MemberSelector(n, method, bits)
  // picks it. Hash-threshold in closed form: member i owns h <= ub_i = floor(((i+1) 2^b +
  // floor(n/2)) / n) - 1 (member_select.h), i.e. (h+1) n <= (i+1) 2^b + floor(n/2), so
  //   i = ceil(((h+1) n - floor(n/2)) / 2^b) - 1,
  // one multiply and one shift (checked against MemberSelector in routing_forwarding_test).
  [[nodiscard]] std::uint32_t select(std::uint32_t n, std::uint32_t h) const { return selection_.select(n, h); }

  [[nodiscard]] const ForwardingState& forwarding() const { return forwarding_; }
  [[nodiscard]] const SwitchHashes& hashes() const { return hashes_; }
  // The vertex a hop over link l from `from` arrives at.
  [[nodiscard]] VertexId next(LinkId l, VertexId from) const { return forwarding_.topology().other_end(l, from); }
  [[nodiscard]] bool is_up(LinkId l, VertexId from) const { return forwarding_.topology().link_a[l.value()] == from; }
  // Upper bound on the hops of any path (2 x highest tier).
  [[nodiscard]] std::uint32_t max_hops() const { return max_hops_; }

  static constexpr std::size_t kLanes = 16;
  static constexpr std::size_t kMaxPathHops = 16;  // > 1 + max_hops(): checked at construction

 private:
  // The per-walk hash of a key (SwitchHashes::base) by the tables; kAffine: every switch's hash
  // is it XOR the switch's offset.
  struct TableBase {
    static constexpr bool kAffine = false;
    const SwitchHashes& hashes;
    [[nodiscard]] std::uint32_t hash(const FlowKey& key) const { return hashes.base(key); }
  };
#if CT_CRC_CLMUL
  struct ClmulBase : ClmulHasher {
    static constexpr bool kAffine = true;
    using ClmulHasher::ClmulHasher;
  };
  template <class Request, class Sink>
  [[gnu::target("pclmul,ssse3")]] void walk_all_clmul(std::span<const Request> flows, Sink& sink) const {
    walk_lanes(flows, sink, ClmulBase(hashes_.reference()));
  }
#endif
  template <class Request, class Sink, class Base>
  [[gnu::always_inline]] inline void walk_lanes(std::span<const Request> flows, Sink& sink, const Base& base) const;

  // The member selection of select(), by value.
  struct Selection {
    MemberSelection method;
    int bits;
    std::uint64_t mask;  // 2^bits - 1
    [[nodiscard]] std::uint32_t select(std::uint32_t n, std::uint32_t h) const {
      if (method == MemberSelection::kModulo) return h % n;
      const std::uint64_t x = (std::uint64_t{h} + 1) * n - n / 2;
      return static_cast<std::uint32_t>(((x + mask) >> bits) - 1);
    }
  };
  // What the batch walk reads at every hop, copied into its frame once per call: the tables'
  // addresses and the selection's parameters then stay in registers or one load away, instead of
  // two or three dependent loads through this object and its vectors at each use.
  struct Hot {
    ForwardingState::Tables tables;
    SwitchHashes::AffineOffsets offsets;  // meaningful when the hash is affine
    Selection selection;
    std::uint32_t max_hops;
  };
  [[nodiscard]] Hot hot() const {
    return {forwarding_.tables(), hashes_.affine_offsets(), selection_, max_hops_};
  }

  enum class LaneState : std::uint8_t { kWalking, kReached, kStopped };
  struct Lane {
    VertexId at;
    VertexId dst;
    VertexId dst_leaf;  // where the walk ends with the NIC hop (invalid: the port has no leaf)
    std::uint32_t destination = 0;
    std::uint32_t base = 0;
    const FlowKey* key = nullptr;
    std::uint32_t count = 0;
    std::uint32_t group = 0;   // this step's group (locate)
    std::uint32_t entry = 0;   // this step's chosen member entry (decide, when it returned true)
    std::uint32_t member = 0;
    LaneState state = LaneState::kStopped;
    bool dst_failed = false;  // the destination's NIC link is failed
    bool up = false;          // this step's group is an up group
    bool taking = false;      // decide returned true this step
  };
  // Field by field: a PathHop built whole and copied makes the compiler assemble it on the stack
  // and reload it at once, a store-forwarding stall on every hop.
  static void put(PathHop& hop, LinkId link, VertexId from, std::uint32_t group, std::uint32_t member, bool up) {
    hop.link = link;
    hop.from = from;
    hop.group = group;
    hop.member = member;
    hop.up = up;
  }
  // The steps of walk(): the first hop (over the source's NIC link), then one hop per call.
  // Both ports' entries are read once, here (ForwardingState::PortEntry).
  void begin_lane(const Hot& hot, VertexId src, VertexId dst, const FlowKey& key, std::uint32_t base, Lane& lane,
                  PathHop* hops) const {
    const ForwardingState::PortEntry& from = forwarding_.port(src);
    const ForwardingState::PortEntry& to = forwarding_.port(dst);
    lane.count = 0;
    lane.state = LaneState::kStopped;
    if (from.plane != to.plane || src == dst || from.nic_failed != 0) return;
    lane.at = from.attached;
    lane.dst = dst;
    lane.dst_leaf = to.destination != ForwardingState::kNoDestination ? to.attached : VertexId::invalid();
    lane.dst_failed = to.nic_failed != 0;
    lane.destination = to.destination;
    lane.base = base;
    lane.key = &key;
    put(hops[lane.count++], LinkId(src.value()), src, kNoGroup, 0, true);
    lane.state = LaneState::kWalking;
    arrive(hot, lane, hops, 0);
  }
  // After a hop taken in step `step` (0 for the NIC hop): at the destination's leaf, the NIC hop
  // down, or the stop when that link is failed; walk() would make it in step + 1, so only while
  // that step is within max_hops().
  static void arrive(const Hot& hot, Lane& lane, PathHop* hops, std::uint32_t step) {
    if (lane.at != lane.dst_leaf || step >= hot.max_hops) return;
    if (lane.dst_failed) {
      lane.state = LaneState::kStopped;
      return;
    }
    put(hops[lane.count++], LinkId(lane.dst.value()), lane.at, kNoGroup, 0, false);
    lane.state = LaneState::kReached;
  }
  // A step of walk(), in three passes (walk_all): the group at the lane's switch ...
  static void locate(const Hot& hot, Lane& lane) { lane.group = hot.tables.group(lane.at, lane.destination); }
  // ... the hop when it is the last or the group has one member, else the member choice (returns
  // true: the hop is taken by take()) ...
  template <bool kAffine>
  bool decide(const Hot& hot, Lane& lane, PathHop* hops, std::uint32_t step) const {
    const std::uint32_t g = lane.group;
    if (g == ForwardingState::kLocalGroup) {
      if (lane.dst_failed) {
        lane.state = LaneState::kStopped;
        return false;
      }
      put(hops[lane.count++], LinkId(lane.dst.value()), lane.at, kNoGroup, 0, false);
      lane.state = LaneState::kReached;
      return false;
    }
    if (g == ForwardingState::kNoRouteGroup) {
      lane.state = LaneState::kStopped;
      return false;
    }
    const GroupSpan& span = hot.tables.span(g);
    if (span.size == 1) {
      put(hops[lane.count++], span.first_link, lane.at, g, 0, span.kind == GroupKind::kUp);
      lane.at = span.first_next;
      arrive(hot, lane, hops, step + 1);
      return false;
    }
    lane.member = hot.selection.select(span.size, kAffine ? hot.offsets.of(lane.at, lane.base)
                                                          : hashes_.from_base(lane.at, lane.base, *lane.key));
    lane.entry = span.offset + lane.member;
    lane.up = span.kind == GroupKind::kUp;
    return true;
  }
  // ... and the chosen member's hop.
  static void take(const Hot& hot, Lane& lane, PathHop* hops, std::uint32_t step) {
    put(hops[lane.count++], hot.tables.member_link(lane.entry), lane.at, lane.group, lane.member, lane.up);
    lane.at = hot.tables.member_next(lane.entry);
    arrive(hot, lane, hops, step + 1);
  }

  const ForwardingState& forwarding_;
  const SwitchHashes& hashes_;
  Selection selection_;
  std::uint32_t max_hops_ = 2;
};

template <class Request, class Sink>
void PathWalker::walk_all(std::span<const Request> flows, Sink&& sink) const {
#if CT_CRC_CLMUL
  if (hashes_.clmul()) {
    walk_all_clmul(flows, sink);
    return;
  }
#endif
  walk_lanes(flows, sink, TableBase{hashes_});
}

template <class Request, class Sink, class Base>
void PathWalker::walk_lanes(std::span<const Request> flows, Sink& sink, const Base& base) const {
  const Hot hot = this->hot();
  // Left uninitialised: begin_lane and put write every field before it is read, and the default
  // member initialisers of 16 lanes and 16 x 16 hops were 5.6 KB of stores per call, as much as
  // the walk of 10 two-tier flows.
  alignas(Lane) std::byte lane_bytes[sizeof(Lane) * kLanes];
  alignas(PathHop) std::byte hop_bytes[sizeof(PathHop) * kLanes * kMaxPathHops];
  Lane* const lanes = std::launder(reinterpret_cast<Lane*>(lane_bytes));
  PathHop* const hop_rows = std::launder(reinterpret_cast<PathHop*>(hop_bytes));
  const auto hops = [hop_rows](std::size_t l) { return hop_rows + l * kMaxPathHops; };
  for (std::size_t first = 0; first < flows.size(); first += kLanes) {
    const std::size_t n = std::min(kLanes, flows.size() - first);
    for (std::size_t l = 0; l < n; ++l) {
      const Request& r = flows[first + l];
      begin_lane(hot, r.src, r.dst, r.key, base.hash(r.key), lanes[l], hops(l));
    }
    // The next batch's port entries arrive while this batch walks.
    for (std::size_t l = first + kLanes; l < std::min(first + 2 * kLanes, flows.size()); ++l) {
      __builtin_prefetch(&forwarding_.port(flows[l].src));
      __builtin_prefetch(&forwarding_.port(flows[l].dst));
    }
    for (std::uint32_t step = 0; step < hot.max_hops; ++step) {
      bool walking = false;
      for (std::size_t l = 0; l < n; ++l) {
        if (lanes[l].state != LaneState::kWalking) continue;
        locate(hot, lanes[l]);
        walking = true;
      }
      if (!walking) break;
      bool taking = false;
      for (std::size_t l = 0; l < n; ++l) {
        Lane& lane = lanes[l];
        lane.taking = lane.state == LaneState::kWalking && decide<Base::kAffine>(hot, lane, hops(l), step);
        taking = taking || lane.taking;
      }
      if (!taking) continue;
      for (std::size_t l = 0; l < n; ++l) {
        if (lanes[l].taking) take(hot, lanes[l], hops(l), step);
      }
    }
    for (std::size_t l = 0; l < n; ++l) {
      sink(first + l, lanes[l].state == LaneState::kReached, std::span<const PathHop>(hops(l), lanes[l].count));
    }
  }
}

}  // namespace ct
