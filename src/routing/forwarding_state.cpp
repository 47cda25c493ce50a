#include "routing/forwarding_state.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>

namespace ct {
namespace {

constexpr std::uint32_t kInfinite = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool is_backend_switch(const Topology& t, std::uint32_t v) {
  return t.kind[v] == VertexKind::kSwitch && t.network[v] == Network::kBackend;
}

}  // namespace

// Builds the groups of one plane: distances per destination leaf, groups interned per switch
// (local ids 0 = local, 1 = no route, 2.. = the switch's own member lists), then numbered
// switch by switch and compressed into windows.
class ForwardingState::PlaneBuilder {
 public:
  PlaneBuilder(ForwardingState& state, int plane) : s_(state), t_(*state.topology_), plane_(plane) {}

  void run() {
    collect();
    if (switches_.empty() || destinations_.empty()) return;
    matrix_.assign(switches_.size() * destinations_.size(), 0);
    interned_.resize(switches_.size());
    lists_.resize(switches_.size());
    last_.assign(switches_.size(), 0);
    reach_.resize(switches_.size());
    dist_.resize(switches_.size());
    for (std::size_t d = 0; d < destinations_.size(); ++d) route_toward(d);
    emit();
  }

 private:
  // The plane's switches by tier, each switch's local index, and its destination leaves.
  void collect() {
    local_.assign(t_.vertex_count(), kNone);
    std::vector<std::uint32_t> all;
    for (std::uint32_t v = 0; v < t_.vertex_count(); ++v) {
      if (is_backend_switch(t_, v) && t_.plane[v] == plane_) all.push_back(v);
    }
    std::stable_sort(all.begin(), all.end(), [&](auto a, auto b) { return t_.tier[a] < t_.tier[b]; });
    for (std::uint32_t v : all) {
      local_[v] = static_cast<std::uint32_t>(switches_.size());
      switches_.push_back(v);
    }
    for (std::uint32_t o = 0; o < s_.leaves_.size(); ++o) {
      if (t_.plane[s_.leaves_[o].value()] == plane_) destinations_.push_back(o);
    }
    // Working links between the plane's switches, split by direction, in link-id order.
    up_.begin.assign(1, 0);
    down_.begin.assign(1, 0);
    for (std::uint32_t v : switches_) {
      for (const Adjacency& a : t_.neighbors(VertexId(v))) {
        const std::uint32_t n = local_[a.neighbor.value()];
        if (s_.failed_[a.link.value()] || n == kNone || t_.tier[a.neighbor.value()] == t_.tier[v]) continue;
        Neighbors& side = t_.tier[a.neighbor.value()] > t_.tier[v] ? up_ : down_;
        side.local.push_back(n);
        side.link.push_back(a.link.value());
      }
      up_.begin.push_back(static_cast<std::uint32_t>(up_.local.size()));
      down_.begin.push_back(static_cast<std::uint32_t>(down_.local.size()));
    }
  }

  void route_toward(std::size_t d) {
    const std::uint32_t target = local_[s_.leaves_[destinations_[d]].value()];
    const auto count = static_cast<std::uint32_t>(switches_.size());
    std::fill(reach_.begin(), reach_.end(), kInfinite);
    reach_[target] = 0;
    // Ascending tiers: children are settled before their parents.
    for (std::uint32_t i = 0; i < count; ++i) {
      std::uint32_t best = reach_[i];
      for (std::uint32_t e = down_.begin[i]; e < down_.begin[i + 1]; ++e) {
        const std::uint32_t c = reach_[down_.local[e]];
        if (c != kInfinite && c + 1 < best) best = c + 1;
      }
      reach_[i] = best;
    }
    // Descending tiers: parents are settled before their children.
    dist_ = reach_;
    for (std::uint32_t i = count; i-- > 0;) {
      if (dist_[i] != kInfinite) continue;
      std::uint32_t best = kInfinite;
      for (std::uint32_t e = up_.begin[i]; e < up_.begin[i + 1]; ++e) {
        const std::uint32_t u = dist_[up_.local[e]];
        if (u != kInfinite && u + 1 < best) best = u + 1;
      }
      dist_[i] = best;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      matrix_[i * destinations_.size() + d] = i == target ? 0 : group_of(i);
    }
  }

  // The local group id of switch i toward the current destination.
  std::uint32_t group_of(std::uint32_t i) {
    const bool go_down = reach_[i] != kInfinite;
    if (!go_down && dist_[i] == kInfinite) return 1;
    const Neighbors& side = go_down ? down_ : up_;
    const std::vector<std::uint32_t>& level = go_down ? reach_ : dist_;
    const std::uint32_t want = level[i] - 1;
    buffer_.clear();
    for (std::uint32_t e = side.begin[i]; e < side.begin[i + 1]; ++e) {
      if (level[side.local[e]] == want) buffer_.push_back(side.link[e]);
    }
    assert(!buffer_.empty());
    buffer_.push_back(go_down ? 1u : 0u);  // the kind is part of the group's identity
    // Most destinations in a row get the switch's previous group (every leaf not below it, the same
    // up-links): one comparison instead of a walk of the map.
    if (last_[i] >= 2 && lists_[i][last_[i] - 2] == buffer_) return last_[i];
    auto it = interned_[i].find(buffer_);
    if (it != interned_[i].end()) return last_[i] = it->second;
    const auto id = static_cast<std::uint32_t>(lists_[i].size()) + 2;
    interned_[i].emplace(buffer_, id);
    lists_[i].push_back(buffer_);
    return last_[i] = id;
  }

  // Numbers the groups switch by switch in vertex order and compresses each row.
  void emit() {
    std::vector<std::uint32_t> by_vertex(switches_.size());
    for (std::uint32_t i = 0; i < switches_.size(); ++i) by_vertex[i] = i;
    std::sort(by_vertex.begin(), by_vertex.end(), [&](auto a, auto b) { return switches_[a] < switches_[b]; });
    std::vector<std::uint32_t> global;
    std::vector<std::uint32_t> row(destinations_.size());
    for (std::uint32_t i : by_vertex) {
      const std::uint32_t v = switches_[i];
      Row& r = s_.rows_[v];
      s_.owned_[v] = {static_cast<std::uint32_t>(s_.kind_.size()), static_cast<std::uint32_t>(lists_[i].size())};
      global.assign({kLocalGroup, kNoRouteGroup});
      for (const auto& list : lists_[i]) {
        global.push_back(static_cast<std::uint32_t>(s_.kind_.size()));
        s_.kind_.push_back(list.back() == 1 ? GroupKind::kDown : GroupKind::kUp);
        s_.owner_.push_back(VertexId(v));
        for (std::size_t m = 0; m + 1 < list.size(); ++m) s_.members_.push_back(LinkId(list[m]));
        s_.member_offset_.push_back(static_cast<std::uint32_t>(s_.members_.size()));
      }
      for (std::size_t d = 0; d < destinations_.size(); ++d) row[d] = global[matrix_[i * destinations_.size() + d]];
      compress(r, row);
    }
  }

  // Fallback = the most frequent group (ties: the smaller id); the window spans every other entry.
  void compress(Row& r, const std::vector<std::uint32_t>& row) {
    std::map<std::uint32_t, std::uint32_t> counts;
    for (std::uint32_t g : row) ++counts[g];
    auto best = std::max_element(counts.begin(), counts.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    r.fallback = best->first;
    std::size_t first = row.size();
    std::size_t last = 0;
    for (std::size_t d = 0; d < row.size(); ++d) {
      if (row[d] == r.fallback) continue;
      first = std::min(first, d);
      last = d;
    }
    if (first == row.size()) return;
    // Destination ordinals of a plane are contiguous (leaves are numbered in vertex order and a
    // plane's switches are contiguous), so window offsets are ordinal offsets.
    r.lo = destinations_[first];
    r.width = destinations_[last] - destinations_[first] + 1;
    r.base = static_cast<std::uint32_t>(s_.window_.size());
    s_.window_.resize(s_.window_.size() + r.width, r.fallback);
    for (std::size_t d = first; d <= last; ++d) s_.window_[r.base + destinations_[d] - r.lo] = row[d];
  }

  ForwardingState& s_;
  const Topology& t_;
  int plane_;
  std::vector<std::uint32_t> switches_;      // local index -> vertex, ascending tier
  std::vector<std::uint32_t> local_;         // vertex -> local index (kNone: not a switch of this plane)
  std::vector<std::uint32_t> destinations_;  // leaf ordinals of this plane, ascending
  std::vector<std::uint32_t> matrix_;        // [switch][destination] local group id
  std::vector<std::map<std::vector<std::uint32_t>, std::uint32_t>> interned_;
  std::vector<std::vector<std::vector<std::uint32_t>>> lists_;  // per switch: member links + kind
  std::vector<std::uint32_t> last_;  // per switch: the group group_of returned last (0: none yet)
  struct Neighbors {  // CSR by local switch index
    std::vector<std::uint32_t> begin;
    std::vector<std::uint32_t> local;
    std::vector<std::uint32_t> link;
  };
  Neighbors up_;
  Neighbors down_;
  std::vector<std::uint32_t> reach_;  // down(s) toward the current destination
  std::vector<std::uint32_t> dist_;
  std::vector<std::uint32_t> buffer_;
};

ForwardingState::ForwardingState(const Topology& topology, std::span<const LinkId> failed_links)
    : topology_(&topology) {
  const Topology& t = topology;
  failed_.assign(t.link_count(), 0);
  for (LinkId l : failed_links) failed_[l.value()] = 1;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (is_backend_switch(t, v) && t.tier[v] == 1) leaves_.push_back(VertexId(v));
  }
  std::vector<std::uint32_t> ordinal(t.vertex_count(), kNoDestination);
  for (std::uint32_t o = 0; o < leaves_.size(); ++o) ordinal[leaves_[o].value()] = o;
  ports_.assign(t.backend_port_count(), PortEntry{});
  for (std::uint32_t p = 0; p < t.backend_port_count(); ++p) {
    PortEntry& e = ports_[p];
    for (const Adjacency& a : t.neighbors(VertexId(p))) e.destination = ordinal[a.neighbor.value()];
    e.plane = t.plane[p];
    if (p < t.link_count()) {
      e.attached = t.other_end(LinkId(p), VertexId(p));
      e.nic_failed = failed_[p];
    }
  }
  rows_.assign(t.vertex_count(), Row{});
  owned_.assign(t.vertex_count(), Owned{});
  member_offset_ = {0, 0, 0};
  kind_ = {GroupKind::kLocal, GroupKind::kNoRoute};
  owner_ = {VertexId::invalid(), VertexId::invalid()};
  for (int p = 0; p < t.planes; ++p) PlaneBuilder(*this, p).run();
  for (std::uint32_t g = 0; g < kind_.size(); ++g) {
    assert(size(g) < 65536);
    GroupSpan span{member_offset_[g], static_cast<std::uint16_t>(size(g)), kind_[g], LinkId::invalid(), VertexId::invalid()};
    for (std::uint32_t e = member_offset_[g]; e < member_offset_[g + 1]; ++e) {
      hops_.push_back(MemberHop{members_[e], t.other_end(members_[e], owner_[g])});
    }
    if (span.size > 0) {
      span.first_link = hops_[span.offset].link;
      span.first_next = hops_[span.offset].next;
    }
    span_.push_back(span);
  }
}

}  // namespace ct
