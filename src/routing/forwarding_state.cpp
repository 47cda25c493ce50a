#include "routing/forwarding_state.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <iterator>
#include <map>
#include <span>
#include <utility>

namespace ct {
namespace {

constexpr std::uint32_t kInfinite = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool is_backend_switch(const Topology& t, std::uint32_t v) {
  return t.kind[v] == VertexKind::kSwitch && t.network[v] == Network::kBackend;
}

}  // namespace

// Builds the groups of one plane from sparse distance rows. A row is a switch's distance toward
// every destination leaf of the plane, stored as its most common value (the fallback) plus the
// destinations where it differs, ascending (cells). down(s) of a leaf differs from its fallback at
// one destination (itself), a spine's at the leaves below it, a core's nowhere: rows hold
// O(pod) cells, not O(leaves). Three passes, each visiting only the cells of a switch's neighbours:
// down() in ascending tiers, dist() in descending tiers, then the groups switch by switch in vertex
// order (local ids 0 = local, 1 = no route, 2.. = the switch's own member lists in order of first
// use over ascending destinations), numbered and compressed into windows. Outside the cells of a
// switch and of its neighbours every distance is a fallback, so one group (the switch's fallback
// group) answers all those destinations at once.
class ForwardingState::PlaneBuilder {
 public:
  PlaneBuilder(ForwardingState& state, int plane) : s_(state), t_(*state.topology_), plane_(plane) {}

  void run() {
    collect();
    if (switches_.empty() || destinations_.empty()) return;
    const std::size_t n = switches_.size();
    down_rows_.resize(n);
    dist_rows_.resize(n);
    for (Gather* g : {&gather_down_, &gather_up_}) g->slot.assign(destinations_.size(), kNone);
    stamp_.assign(std::max(down_.link.size(), up_.link.size()), 0);
    down_class_.assign(n, kNone);
    dist_class_.assign(n, kNone);
    for (std::uint32_t i = 0; i < n; ++i) share_down(i);
    for (std::uint32_t i = static_cast<std::uint32_t>(n); i-- > 0;) share_dist(i);
    emit();
  }

 private:
  struct Cell {  // a destination where a row differs from its fallback
    std::uint32_t position;  // index into destinations_
    std::uint32_t value;
  };
  struct Distances {
    std::uint32_t fallback = kInfinite;
    std::uint32_t begin = 0;  // cells [begin, end) of the row's pool, ascending positions
    std::uint32_t end = 0;
  };
  struct Neighbors {  // CSR by local switch index
    std::vector<std::uint32_t> begin;
    std::vector<std::uint32_t> local;
    std::vector<std::uint32_t> link;
  };
  struct Entry {  // a neighbour's cell, by the switch's edge
    std::uint32_t edge;
    std::uint32_t value;
  };
  // The cells of a switch's neighbours over one side, bucketed by destination: positions ascending,
  // each bucket's entries in edge order.
  struct Gather {
    std::vector<std::uint32_t> slot;       // per destination: index into positions, kNone if absent
    std::vector<std::uint32_t> positions;  // ascending
    std::vector<std::uint32_t> start;      // positions.size() + 1 bucket offsets
    std::vector<Entry> entries;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> counted;  // (position, entries) while gathering
    [[nodiscard]] std::span<const Entry> bucket(std::uint32_t position) const {
      const std::uint32_t k = slot[position];
      if (k == kNone) return {};
      return {entries.data() + start[k], entries.data() + start[k + 1]};
    }
  };

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
    target_of_.assign(switches_.size(), kNone);
    for (std::uint32_t o = 0; o < s_.leaves_.size(); ++o) {
      if (t_.plane[s_.leaves_[o].value()] != plane_) continue;
      target_of_[local_[s_.leaves_[o].value()]] = static_cast<std::uint32_t>(destinations_.size());
      destinations_.push_back(o);
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

  [[nodiscard]] std::span<const Cell> cells(const std::vector<Cell>& pool, const Distances& r) const {
    return {pool.data() + r.begin, pool.data() + r.end};
  }

  // Buckets the cells of the rows of i's neighbours on `side` by destination, plus the positions of
  // `own` (with no entries).
  void gather(Gather& g, const Neighbors& side, std::uint32_t i, const std::vector<Distances>& rows,
              const std::vector<Cell>& pool, std::initializer_list<std::span<const Cell>> own) {
    g.counted.clear();
    auto touch = [&](std::uint32_t position, std::uint32_t add) {
      std::uint32_t& k = g.slot[position];
      if (k == kNone) {
        k = static_cast<std::uint32_t>(g.counted.size());
        g.counted.emplace_back(position, 0);
      }
      g.counted[k].second += add;
    };
    for (const std::span<const Cell> list : own) {
      for (const Cell& c : list) touch(c.position, 0);
    }
    for (std::uint32_t e = side.begin[i]; e < side.begin[i + 1]; ++e) {
      for (const Cell& c : cells(pool, rows[side.local[e]])) touch(c.position, 1);
    }
    std::sort(g.counted.begin(), g.counted.end());
    g.positions.clear();
    g.start.assign(1, 0);
    for (std::uint32_t k = 0; k < g.counted.size(); ++k) {
      g.slot[g.counted[k].first] = k;
      g.positions.push_back(g.counted[k].first);
      g.start.push_back(g.start.back() + g.counted[k].second);
    }
    g.entries.resize(g.start.back());
    fill_.assign(g.start.begin(), g.start.end() - 1);
    for (std::uint32_t e = side.begin[i]; e < side.begin[i + 1]; ++e) {
      for (const Cell& c : cells(pool, rows[side.local[e]])) g.entries[fill_[g.slot[c.position]]++] = {e, c.value};
    }
  }

  void release(Gather& g) {
    for (const std::uint32_t p : g.positions) g.slot[p] = kNone;
  }

  // i's edges on `side` ordered by their neighbour's fallback (ties: edge order).
  void order_by_fallback(const Neighbors& side, std::uint32_t i, const std::vector<Distances>& rows,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) const {
    out.clear();
    for (std::uint32_t e = side.begin[i]; e < side.begin[i + 1]; ++e) out.emplace_back(rows[side.local[e]].fallback, e);
    std::sort(out.begin(), out.end());
  }

  // The least neighbour value at one destination: the bucket's cells, and the fallback of the first
  // edge (by fallback) that has no cell there.
  std::uint32_t least(std::span<const Entry> bucket, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& by_fallback) {
    ++generation_;
    std::uint32_t best = kInfinite;
    for (const Entry& x : bucket) {
      stamp_[x.edge] = generation_;
      best = std::min(best, x.value);
    }
    for (const auto& [fallback, e] : by_fallback) {
      if (stamp_[e] == generation_) continue;
      best = std::min(best, fallback);
      break;
    }
    return best;
  }

  static std::uint32_t plus_one(std::uint32_t v) { return v == kInfinite ? kInfinite : v + 1; }

  // Stores `values` (one per position of `at`, the rest equal to `fallback`) as row r, with the
  // most common value as its fallback.
  void store(Distances& r, std::vector<Cell>& pool, std::uint32_t fallback, std::span<const std::uint32_t> at,
             std::span<const std::uint32_t> values) {
    const auto total = static_cast<std::uint32_t>(destinations_.size());
    std::uint32_t common = fallback;
    std::uint32_t common_count = total - static_cast<std::uint32_t>(at.size());
    tally_.clear();
    for (std::size_t k = 0; k < at.size(); ++k) {
      if (values[k] == fallback) ++common_count;
      else tally_.push_back(values[k]);
    }
    std::sort(tally_.begin(), tally_.end());
    for (std::size_t a = 0; a < tally_.size();) {
      std::size_t b = a;
      while (b < tally_.size() && tally_[b] == tally_[a]) ++b;
      if (b - a > common_count) {
        common = tally_[a];
        common_count = static_cast<std::uint32_t>(b - a);
      }
      a = b;
    }
    r.fallback = common;
    r.begin = static_cast<std::uint32_t>(pool.size());
    if (common == fallback) {
      for (std::size_t k = 0; k < at.size(); ++k) {
        if (values[k] != common) pool.push_back({at[k], values[k]});
      }
    } else {  // the row is mostly cells: every other destination becomes a cell
      std::size_t k = 0;
      for (std::uint32_t p = 0; p < total; ++p) {
        const std::uint32_t v = k < at.size() && at[k] == p ? values[k++] : fallback;
        if (v != common) pool.push_back({p, v});
      }
    }
    r.end = static_cast<std::uint32_t>(pool.size());
  }

  // down(i) = 0 at i itself, else 1 + the least down() of its children.
  void compute_down(std::uint32_t i) {
    const Cell self{target_of_[i], 0};
    const std::span<const Cell> own = self.position == kNone ? std::span<const Cell>{} : std::span<const Cell>(&self, 1);
    gather(gather_down_, down_, i, down_rows_, down_pool_, {own});
    order_by_fallback(down_, i, down_rows_, by_fallback_);
    const std::uint32_t fallback = plus_one(by_fallback_.empty() ? kInfinite : by_fallback_.front().first);
    values_.clear();
    for (const std::uint32_t p : gather_down_.positions) {
      values_.push_back(p == self.position ? 0 : plus_one(least(gather_down_.bucket(p), by_fallback_)));
    }
    store(down_rows_[i], down_pool_, fallback, gather_down_.positions, values_);
    release(gather_down_);
  }

  // dist(i) = down(i) where finite, else 1 + the least dist() of its parents.
  void compute_dist(std::uint32_t i) {
    const Distances& own = down_rows_[i];
    gather(gather_up_, up_, i, dist_rows_, dist_pool_, {cells(down_pool_, own)});
    order_by_fallback(up_, i, dist_rows_, by_fallback_);
    const std::uint32_t up_fallback = plus_one(by_fallback_.empty() ? kInfinite : by_fallback_.front().first);
    const std::uint32_t fallback = own.fallback != kInfinite ? own.fallback : up_fallback;
    values_.clear();
    const std::span<const Cell> down_cells = cells(down_pool_, own);
    std::size_t c = 0;
    for (const std::uint32_t p : gather_up_.positions) {
      while (c < down_cells.size() && down_cells[c].position < p) ++c;
      const std::uint32_t down = c < down_cells.size() && down_cells[c].position == p ? down_cells[c].value : own.fallback;
      values_.push_back(down != kInfinite ? down : plus_one(least(gather_up_.bucket(p), by_fallback_)));
    }
    store(dist_rows_[i], dist_pool_, fallback, gather_up_.positions, values_);
    release(gather_up_);
  }

  // The members of i's group on `side` toward one destination: the edges whose neighbour is at
  // `want` there (its cell in `bucket`, else its fallback), in edge order; then the kind marker.
  void members(const Neighbors& side, std::uint32_t want, std::span<const Entry> bucket,
               const std::vector<std::pair<std::uint32_t, std::uint32_t>>& by_fallback, bool go_down) {
    ++generation_;
    for (const Entry& x : bucket) stamp_[x.edge] = generation_;
    auto at = std::lower_bound(by_fallback.begin(), by_fallback.end(), std::pair{want, 0u});
    const auto end = std::upper_bound(at, by_fallback.end(), std::pair{want, kNone});
    buffer_.clear();
    std::size_t b = 0;
    while (true) {
      while (b < bucket.size() && bucket[b].value != want) ++b;
      while (at != end && stamp_[at->second] == generation_) ++at;
      const std::uint32_t from_bucket = b < bucket.size() ? bucket[b].edge : kNone;
      const std::uint32_t from_fallback = at != end ? at->second : kNone;
      if (from_bucket == kNone && from_fallback == kNone) break;
      if (from_bucket < from_fallback) {
        buffer_.push_back(from_bucket - side.begin[current_]);
        ++b;
      } else {
        buffer_.push_back(from_fallback - side.begin[current_]);
        ++at;
      }
    }
    assert(!buffer_.empty());
    buffer_.push_back(go_down ? 1u : 0u);  // the kind is part of the group's identity
  }

  // The local group id of the member list in buffer_: interned in order of first use.
  std::uint32_t intern() {
    // Consecutive destinations mostly share a group (every leaf not below a switch gets the same
    // up-links): one comparison before the map.
    if (last_ >= 2 && lists_[last_ - 2] == buffer_) return last_;
    auto it = interned_.find(buffer_);
    if (it != interned_.end()) return last_ = it->second;
    const auto id = static_cast<std::uint32_t>(lists_.size()) + 2;
    interned_.emplace(buffer_, id);
    lists_.push_back(buffer_);
    return last_ = id;
  }

  // The local group of i toward a destination where down(i) and dist(i) are given and its
  // neighbours' distances are the buckets' cells, else their fallbacks.
  std::uint32_t group_at(std::uint32_t down, std::uint32_t dist, std::span<const Entry> down_bucket,
                         std::span<const Entry> up_bucket) {
    if (down == 0) return 0;
    if (down != kInfinite) {
      members(down_, down - 1, down_bucket, by_down_, true);
    } else if (dist != kInfinite) {
      members(up_, dist - 1, up_bucket, by_up_, false);
    } else {
      return 1;
    }
    return intern();
  }

  // The local group ids of switch i toward every destination: at positions_, groups_; at every
  // other destination, fallback_group_ (kNone if there is none); its member lists (edge offsets on
  // their side, then the kind) in lists_.
  void route_switch(std::uint32_t i) {
    current_ = i;
    const Distances& down_row = down_rows_[i];
    const Distances& dist_row = dist_rows_[i];
    const std::span<const Cell> down_cells = cells(down_pool_, down_row);
    const std::span<const Cell> dist_cells = cells(dist_pool_, dist_row);
    gather(gather_down_, down_, i, down_rows_, down_pool_, {down_cells, dist_cells});
    gather(gather_up_, up_, i, dist_rows_, dist_pool_, {down_cells, dist_cells});
    order_by_fallback(down_, i, down_rows_, by_down_);
    order_by_fallback(up_, i, dist_rows_, by_up_);
    interned_.clear();
    lists_.clear();
    last_ = 0;
    const auto total = static_cast<std::uint32_t>(destinations_.size());
    fallback_group_ = kNone;
    auto visit_gap = [&] {
      if (fallback_group_ == kNone) fallback_group_ = group_at(down_row.fallback, dist_row.fallback, {}, {});
    };
    positions_.clear();
    std::merge(gather_down_.positions.begin(), gather_down_.positions.end(), gather_up_.positions.begin(),
               gather_up_.positions.end(), std::back_inserter(positions_));
    positions_.erase(std::unique(positions_.begin(), positions_.end()), positions_.end());
    groups_.clear();
    std::size_t dc = 0;
    std::size_t uc = 0;
    std::uint32_t next = 0;  // the first destination not yet visited
    for (const std::uint32_t p : positions_) {
      if (p > next) visit_gap();
      while (dc < down_cells.size() && down_cells[dc].position < p) ++dc;
      while (uc < dist_cells.size() && dist_cells[uc].position < p) ++uc;
      const std::uint32_t down = dc < down_cells.size() && down_cells[dc].position == p ? down_cells[dc].value : down_row.fallback;
      const std::uint32_t dist = uc < dist_cells.size() && dist_cells[uc].position == p ? dist_cells[uc].value : dist_row.fallback;
      groups_.push_back(group_at(down, dist, gather_down_.bucket(p), gather_up_.bucket(p)));
      next = p + 1;
    }
    if (next < total) visit_gap();
    release(gather_down_);
    release(gather_up_);
  }

  // Symmetry. A switch's rows are functions of its inputs alone: down() of its own destination
  // and its children's down() rows; dist() of its down() row and its parents' dist() rows; its
  // groups (as edge offsets) and its row of local group ids of its down() and dist() rows and its
  // neighbours' rows, edge by edge. Switches with the same inputs (the spines of a pod, the cores of
  // a plane in a built fabric) share one computation: a row's class is the first switch that had
  // its inputs, and the key is the list of the input classes. Every output is what each switch's
  // own computation gives, in O(edges) per switch besides the distinct computations.
  using Memo = std::map<std::vector<std::uint32_t>, std::uint32_t>;

  void share_down(std::uint32_t i) {
    key_.assign({target_of_[i]});
    for (std::uint32_t e = down_.begin[i]; e < down_.begin[i + 1]; ++e) key_.push_back(down_class_[down_.local[e]]);
    const auto [it, fresh] = down_memo_.try_emplace(key_, i);
    if (fresh) {
      compute_down(i);
    } else {
      down_rows_[i] = down_rows_[it->second];
    }
    down_class_[i] = it->second;
  }

  void share_dist(std::uint32_t i) {
    key_.assign({down_class_[i]});
    for (std::uint32_t e = up_.begin[i]; e < up_.begin[i + 1]; ++e) key_.push_back(dist_class_[up_.local[e]]);
    const auto [it, fresh] = dist_memo_.try_emplace(key_, i);
    if (fresh) {
      compute_dist(i);
    } else {
      dist_rows_[i] = dist_rows_[it->second];
    }
    dist_class_[i] = it->second;
  }

  // A switch's groups and compressed row in local terms: member lists as edge offsets plus the kind,
  // the fallback's local id, and the local ids of destination positions first .. last.
  struct Routed {
    std::vector<std::vector<std::uint32_t>> lists;
    std::uint32_t fallback = 0;
    std::uint32_t first = 0;
    std::vector<std::uint32_t> window;  // empty: every destination takes the fallback
  };

  const Routed& routed(std::uint32_t i) {
    key_.assign({down_class_[i], dist_class_[i], down_.begin[i + 1] - down_.begin[i]});
    for (std::uint32_t e = down_.begin[i]; e < down_.begin[i + 1]; ++e) key_.push_back(down_class_[down_.local[e]]);
    for (std::uint32_t e = up_.begin[i]; e < up_.begin[i + 1]; ++e) key_.push_back(dist_class_[up_.local[e]]);
    const auto [it, fresh] = route_memo_.try_emplace(key_, static_cast<std::uint32_t>(routed_.size()));
    if (fresh) {
      route_switch(i);
      Routed r;
      r.lists = std::move(lists_);
      compress(r);
      routed_.push_back(std::move(r));
    }
    return routed_[it->second];
  }

  // Numbers the groups switch by switch in vertex order and writes each row's window.
  void emit() {
    std::vector<std::uint32_t> by_vertex(switches_.size());
    for (std::uint32_t i = 0; i < switches_.size(); ++i) by_vertex[i] = i;
    std::sort(by_vertex.begin(), by_vertex.end(), [&](auto a, auto b) { return switches_[a] < switches_[b]; });
    std::vector<std::uint32_t> global;
    for (std::uint32_t i : by_vertex) {
      const Routed& r = routed(i);
      const std::uint32_t v = switches_[i];
      s_.owned_[v] = {static_cast<std::uint32_t>(s_.kind_.size()), static_cast<std::uint32_t>(r.lists.size())};
      global.assign({kLocalGroup, kNoRouteGroup});
      for (const auto& list : r.lists) {
        global.push_back(static_cast<std::uint32_t>(s_.kind_.size()));
        const bool down = list.back() == 1;
        const Neighbors& side = down ? down_ : up_;
        s_.kind_.push_back(down ? GroupKind::kDown : GroupKind::kUp);
        s_.owner_.push_back(VertexId(v));
        for (std::size_t m = 0; m + 1 < list.size(); ++m) s_.members_.push_back(LinkId(side.link[side.begin[i] + list[m]]));
        s_.member_offset_.push_back(static_cast<std::uint32_t>(s_.members_.size()));
      }
      write_row(s_.rows_[v], r, global);
    }
  }

  // Fallback = the most frequent group of the row (ties: the smaller id; global ids grow with local
  // ones); the window spans every other entry. In O(positions + window), not O(destinations).
  void compress(Routed& r) const {
    const auto total = static_cast<std::uint32_t>(destinations_.size());
    const auto gaps = total - static_cast<std::uint32_t>(positions_.size());
    std::vector<std::uint32_t> counts(r.lists.size() + 2, 0);
    for (const std::uint32_t g : groups_) ++counts[g];
    if (gaps > 0) counts[fallback_group_] += gaps;
    r.fallback = static_cast<std::uint32_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    std::uint32_t first = total;
    std::uint32_t last = 0;
    if (gaps > 0 && fallback_group_ != r.fallback) {  // the gaps are in the window: the first and the last
      std::uint32_t p = 0;
      while (p < positions_.size() && positions_[p] == p) ++p;
      first = p;
      std::uint32_t q = total;
      for (std::size_t k = positions_.size(); k > 0 && positions_[k - 1] == q - 1; --k) --q;
      last = q - 1;
    }
    for (std::size_t k = 0; k < positions_.size(); ++k) {
      if (groups_[k] == r.fallback) continue;
      first = std::min(first, positions_[k]);
      last = std::max(last, positions_[k]);
    }
    if (first == total) return;
    r.first = first;
    r.window.assign(last - first + 1, gaps > 0 ? fallback_group_ : kNone);
    for (std::size_t k = 0; k < positions_.size(); ++k) {
      if (positions_[k] >= first && positions_[k] <= last) r.window[positions_[k] - first] = groups_[k];
    }
  }

  void write_row(Row& row, const Routed& r, const std::vector<std::uint32_t>& global) {
    row.fallback = global[r.fallback];
    if (r.window.empty()) return;
    // Destination ordinals of a plane are contiguous (leaves are numbered in vertex order and a
    // plane's switches are contiguous), so window offsets are ordinal offsets.
    const std::uint32_t last = r.first + static_cast<std::uint32_t>(r.window.size()) - 1;
    row.lo = destinations_[r.first];
    row.width = destinations_[last] - destinations_[r.first] + 1;
    row.base = static_cast<std::uint32_t>(s_.window_.size());
    s_.window_.resize(s_.window_.size() + row.width, row.fallback);
    for (std::uint32_t d = r.first; d <= last; ++d) {
      s_.window_[row.base + destinations_[d] - row.lo] = global[r.window[d - r.first]];
    }
  }

  ForwardingState& s_;
  const Topology& t_;
  int plane_;
  std::vector<std::uint32_t> switches_;      // local index -> vertex, ascending tier
  std::vector<std::uint32_t> local_;         // vertex -> local index (kNone: not a switch of this plane)
  std::vector<std::uint32_t> destinations_;  // leaf ordinals of this plane, ascending
  std::vector<std::uint32_t> target_of_;     // local index -> its position in destinations_ (kNone: not a leaf)
  Neighbors up_;
  Neighbors down_;
  std::vector<Distances> down_rows_;  // down() per local switch
  std::vector<Cell> down_pool_;
  std::vector<Distances> dist_rows_;  // dist() per local switch
  std::vector<Cell> dist_pool_;
  // Scratch of one switch at a time.
  Gather gather_down_;
  Gather gather_up_;
  std::vector<std::uint32_t> fill_;
  std::vector<std::uint32_t> stamp_;  // per edge of a side: the generation it was last seen in
  std::uint32_t generation_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_fallback_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_down_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_up_;
  std::vector<std::uint32_t> values_;
  std::vector<std::uint32_t> tally_;
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint32_t> groups_;  // local group id per position of positions_
  std::uint32_t fallback_group_ = kNone;
  std::map<std::vector<std::uint32_t>, std::uint32_t> interned_;
  std::vector<std::vector<std::uint32_t>> lists_;  // member links + kind
  std::uint32_t last_ = 0;  // the group intern returned last (0: none yet)
  std::vector<std::uint32_t> buffer_;
  std::uint32_t current_ = 0;  // the switch route_switch is computing
  // Shared computations (share_down, share_dist, routed).
  std::vector<std::uint32_t> key_;
  std::vector<std::uint32_t> down_class_;
  std::vector<std::uint32_t> dist_class_;
  Memo down_memo_;
  Memo dist_memo_;
  Memo route_memo_;
  std::vector<Routed> routed_;
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
