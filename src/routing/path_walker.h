// Walking a flow hop by hop through the forwarding state, as the switches' data planes forward
// its packets: from the source port over its NIC link to its leaf; then at each switch the group
// toward the destination's leaf (forwarding_state.h); a group of one member is taken as is,
// otherwise the switch hashes the flow's key (switch_hashes.h) and picks a member
// (member_select.h); at the destination leaf, the destination's NIC link. One hash and one
// member selection per multi-member group: a "flow-hop decision".
//
// A hop's direction: up when the flow leaves the link's lower end (link_a), down otherwise.
// Loads are counted per directed link, index 2 x link + (down ? 1 : 0), since a full-duplex cable
// carries each direction independently.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
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
  [[nodiscard]] std::uint32_t select(std::uint32_t n, std::uint32_t h) const {
    if (method_ == MemberSelection::kModulo) return h % n;
    const std::uint64_t x = (std::uint64_t{h} + 1) * n - n / 2;
    return static_cast<std::uint32_t>(((x + mask_) >> bits_) - 1);
  }

  [[nodiscard]] const ForwardingState& forwarding() const { return forwarding_; }
  [[nodiscard]] const SwitchHashes& hashes() const { return hashes_; }
  // The vertex a hop over link l from `from` arrives at.
  [[nodiscard]] VertexId next(LinkId l, VertexId from) const { return forwarding_.topology().other_end(l, from); }
  [[nodiscard]] bool is_up(LinkId l, VertexId from) const { return forwarding_.topology().link_a[l.value()] == from; }
  // Upper bound on the hops of any path (2 x highest tier).
  [[nodiscard]] std::uint32_t max_hops() const { return max_hops_; }

 private:
  const ForwardingState& forwarding_;
  const SwitchHashes& hashes_;
  MemberSelection method_;
  int bits_;
  std::uint64_t mask_;  // 2^bits - 1
  std::uint32_t max_hops_ = 2;
};

}  // namespace ct
