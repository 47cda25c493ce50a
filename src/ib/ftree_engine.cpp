// Fat-tree routing (Zahavi, Johnson, Kerbyson, Lang, "Optimized InfiniBand fat-tree routing for
// shift all-to-all communication patterns", Concurrency Computat.: Pract. Exper. 22(2), 2010;
// OpenSM osm_ucast_ftree.c). Written from the published algorithm and OpenSM's documented
// behaviour; the code is our own.
//
// Shape. Compute nodes (CNs) are all CAs, or the given list. Leaves are the switches with a CN.
// Ranks come from the roots (given, or detected: ib_ranking.h); ports to the same neighbour form a
// port group; a group is up (neighbour of lower rank), down (higher rank or a CA) or sibling (same
// rank: not used, as OpenSM uses them only for fallback). The fabric is a fat tree, and routed,
// only when every switch is ranked, every leaf is at the deepest rank and there are at least two
// ranks; and, when the roots were not given (OpenSM checks a "pure" fat tree only without a root
// file: fabric_validate_topology, errors AB09-AB0C), when at each rank every switch has the same
// number of up groups and of ports per up group and, above the leaves, the same number of down
// groups and of ports per down group as the first switch of that rank. So missing hosts are
// always allowed; a missing cable makes both OpenSM and us refuse ftree unless roots are given
// (OpenSM then falls back to minhop), and with roots both route around it.
//
// Routing, for each leaf in node GUID order (OpenSM orders leaves by the tuples of its fabric
// indexing; GUID order keeps the result independent of the input file's order, and is the
// builder's fabric order), for each CN port in port order, for each of its LIDs
// (route-down-by-going-up; counters live on the ports and groups of the lower switch of a cable):
//   at switch s (first the leaf): give every switch below s that has no shorter route yet a route
//   up to s, choosing within a down group the port least used by such upward routes (count it when
//   the subtree holds a CA); unless s is a root, pick the up group with the fewest downward routes
//   (ties: the neighbour with the lowest GUID), its least used port (ties: lowest port), count
//   both, point the upper switch's LFT down that cable and continue from the upper switch. The
//   other up groups (in that load order) of the leaf and, recursively, of every switch reached
//   that way get an uncounted downward route too, so every switch can reach every CN.
//   Leaves with fewer CNs than the fullest leaf route "dummy" destinations: the same main path up
//   to a root, counted at every level, with no LFT written, so all leaves keep the pattern of the
//   full tree (OpenSM's dummy HCAs).
// Then non-CN CAs the same way (counted, switches in GUID order), then the switches' own LIDs by up/down on the same ranks
// (uncounted; OpenSM routes them by secondary ftree paths and leaves some root-to-root LIDs out).
// All routes are up*/down* on the ranks, so there is no credit loop. On an intact k-ary fat tree
// each up group carries the same number of destinations and shift permutations are contention-free.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "ib/routing_engines.h"

namespace ct {
namespace {

constexpr std::uint8_t kNoHops = 0xFF;

struct GroupPort {
  std::uint8_t port = 0;
  std::uint8_t remote_port = 0;
  std::uint32_t counter_up = 0;
  std::uint32_t counter_down = 0;
};

struct PortGroup {
  std::uint32_t remote = SwitchGraph::kNone;  // switch index; kNone for a CA
  std::uint32_t begin = 0;                    // into FatTree::ports
  std::uint32_t end = 0;
  std::uint32_t counter_up = 0;
  std::uint32_t counter_down = 0;
};

class FatTree {
 public:
  FatTree(const IbFabric& fabric, const SwitchGraph& graph, const IbRanks& ranks, IbRouting& routing)
      : fabric_(fabric), graph_(graph), ranks_(ranks), routing_(routing) {}

  // `strict`: also require a pure fat tree (same port groups at each rank), as OpenSM does only
  // when no root file is given.
  Diagnostics build(const std::vector<bool>& is_cn, bool strict) {
    is_cn_ = is_cn;
    make_groups();
    return validate(strict);
  }

  void route(int threads) {
    // Routing works destination by destination, so its tables are LID-major (one contiguous row
    // of switches per LID); the LFTs are filled from them at the end.
    hops_.assign(static_cast<std::size_t>(graph_.size()) * routing_.stride(), kNoHops);
    lft_.assign(static_cast<std::size_t>(graph_.size()) * routing_.stride(), IbRouting::kNoPath);
    const int lids = routing_.lids.lids_per_port();
    std::size_t max_cn = 0;
    for (const auto leaf : leaves_) max_cn = std::max(max_cn, cn_ports(leaf).size());
    for (const auto leaf : leaves_) {
      const auto cns = cn_ports(leaf);
      for (const auto& ca : cns) {
        const auto base = routing_.lids.base_lid(ca.ca, ca.ca_port);
        for (int i = 0; i < lids && base != 0; ++i) route_target(leaf, ca.port, base + static_cast<std::uint32_t>(i));
      }
      for (std::size_t j = cns.size() * static_cast<std::size_t>(lids); j < max_cn * static_cast<std::size_t>(lids); ++j) {
        down_by_going_up(leaf, SwitchGraph::kNone, 0, false, true, 0);
      }
    }
    for (const std::uint32_t s : graph_.guid_order()) {
      for (const auto& ca : graph_.cas(s)) {
        if (is_cn_[ca.ca.value()]) continue;
        const auto base = routing_.lids.base_lid(ca.ca, ca.ca_port);
        for (int i = 0; i < lids && base != 0; ++i) route_target(s, ca.port, base + static_cast<std::uint32_t>(i));
      }
    }
    store_lfts();
    std::vector<LftTarget> switch_targets;
    for (const auto& t : make_targets(graph_, routing_.lids)) {
      if (t.is_switch) switch_targets.push_back(t);
    }
    fill_updn(fabric_, graph_, ranks_, switch_targets, threads, routing_);
  }

 private:
  std::vector<SwitchGraph::CaPort> cn_ports(std::uint32_t s) const {
    std::vector<SwitchGraph::CaPort> out;
    for (const auto& ca : graph_.cas(s)) {
      if (is_cn_[ca.ca.value()]) out.push_back(ca);
    }
    return out;
  }

  void make_groups() {
    const std::uint32_t n = graph_.size();
    up_.assign(n, {});
    down_.assign(n, {});
    for (std::uint32_t s = 0; s < n; ++s) {
      std::map<std::uint32_t, std::uint32_t> by_peer;  // neighbour switch -> group
      for (const auto& link : graph_.links(s)) {
        const int rs = ranks_.rank[s];
        const int rr = ranks_.rank[link.peer];
        if (rs == rr) continue;
        auto [it, inserted] = by_peer.try_emplace(link.peer, static_cast<std::uint32_t>(groups_.size()));
        if (inserted) {
          groups_.push_back({link.peer, 0, 0, 0, 0});
          (rr < rs ? up_ : down_)[s].push_back(it->second);
        }
        group_links_.push_back({it->second, link.port, link.peer_port});
      }
      for (const auto& ca : graph_.cas(s)) {
        down_[s].push_back(static_cast<std::uint32_t>(groups_.size()));
        groups_.push_back({SwitchGraph::kNone, 0, 0, 0, 0});
        group_links_.push_back({static_cast<std::uint32_t>(groups_.size() - 1), ca.port, ca.ca_port});
      }
    }
    has_ca_.assign(n, false);
    down_switch_begin_.assign(1, 0);
    for (std::uint32_t s = 0; s < n; ++s) {
      for (const auto gi : down_[s]) {
        if (groups_[gi].remote == SwitchGraph::kNone) has_ca_[s] = true;
        else down_switches_.push_back(gi);
      }
      down_switch_begin_.push_back(static_cast<std::uint32_t>(down_switches_.size()));
    }
    // Ports of each group, contiguous, in port order.
    std::stable_sort(group_links_.begin(), group_links_.end(),
                     [](const GroupLink& a, const GroupLink& b) { return a.group < b.group; });
    for (const auto& gl : group_links_) {
      PortGroup& g = groups_[gl.group];
      if (g.end == 0) g.begin = g.end = static_cast<std::uint32_t>(ports_.size());
      ports_.push_back({gl.port, gl.remote_port, 0, 0});
      g.end = static_cast<std::uint32_t>(ports_.size());
    }
  }

  std::string name(std::uint32_t s) const { return fmt::format("'{}'", fabric_.label(graph_.node(s))); }

  Diagnostics validate(bool strict) {
    // Located at the switch at fault (its line in the fabric's file), or at the whole fabric.
    auto fail = [&](std::uint32_t at, std::string what) {
      const IbNodeId node = at == SwitchGraph::kNone ? IbNodeId::invalid() : graph_.node(at);
      return Diagnostics{fabric_diagnostic(fabric_, node, "engine",
                                           "ftree: the fabric is not a fat tree: " + what +
                                               ". OpenSM's ftree refuses it too when no root file is given and falls "
                                               "back to minhop; name the roots (--roots) to route it anyway, or use "
                                               "--engine updn or minhop")};
    };
    for (const std::uint32_t s : graph_.guid_order()) {
      if (ranks_.rank[s] == IbRanks::kUnranked) return fail(s, fmt::format("switch {} is not connected to the root switches", name(s)));
      if (!cn_ports(s).empty()) leaves_.push_back(s);
    }
    if (leaves_.empty()) return fail(SwitchGraph::kNone, "no switch has a compute node");
    for (const auto leaf : leaves_) {
      if (ranks_.rank[leaf] != ranks_.max_rank) {
        return fail(leaf, fmt::format("leaf switch {} (it has compute nodes) is at rank {}, but the tree is {} ranks deep",
                                name(leaf), ranks_.rank[leaf], ranks_.max_rank + 1));
      }
    }
    if (ranks_.max_rank < 1) return fail(SwitchGraph::kNone, "a fat tree needs at least two switch ranks (leaves below roots)");
    if (!strict) return {};
    std::vector<std::uint32_t> reference(static_cast<std::size_t>(ranks_.max_rank) + 1, SwitchGraph::kNone);
    auto size = [&](std::uint32_t g) { return groups_[g].end - groups_[g].begin; };
    for (const std::uint32_t s : graph_.guid_order()) {
      const int r = ranks_.rank[s];
      auto& ref = reference[static_cast<std::size_t>(r)];
      if (ref == SwitchGraph::kNone) {
        ref = s;
        continue;
      }
      const bool leaf_rank = r == ranks_.max_rank;
      if (up_[s].size() != up_[ref].size()) {
        return fail(s, fmt::format("switches of rank {} differ in up port groups: {} has {}, {} has {} (a missing cable?)", r,
                                name(ref), up_[ref].size(), name(s), up_[s].size()));
      }
      if (!leaf_rank && down_[s].size() != down_[ref].size()) {
        return fail(s, fmt::format("switches of rank {} differ in down port groups: {} has {}, {} has {} (a missing cable?)", r,
                                name(ref), down_[ref].size(), name(s), down_[s].size()));
      }
      for (const auto g : up_[s]) {
        if (!up_[ref].empty() && size(g) != size(up_[ref][0])) {
          return fail(s, fmt::format("up port groups of rank {} differ in size: {} has {} ports to a neighbour, {} has {}", r,
                                  name(ref), size(up_[ref][0]), name(s), size(g)));
        }
      }
      for (const auto g : down_[s]) {
        if (!leaf_rank && !down_[ref].empty() && size(g) != size(down_[ref][0])) {
          return fail(s, fmt::format("down port groups of rank {} differ in size: {} has {} ports to a neighbour, {} has {}", r,
                                  name(ref), size(down_[ref][0]), name(s), size(g)));
        }
      }
    }
    return {};
  }

  std::uint8_t& hops(std::uint32_t s, std::uint32_t lid) { return hops_[static_cast<std::size_t>(lid) * graph_.size() + s]; }
  void set_port(std::uint32_t s, std::uint32_t lid, std::uint8_t port) {
    lft_[static_cast<std::size_t>(lid) * graph_.size() + s] = port;
  }

  // Copies the LID-major table into the switch-major LFTs, a block of LIDs at a time.
  void store_lfts() {
    const std::uint32_t n = graph_.size();
    constexpr std::uint32_t kBlock = 64;
    for (std::uint32_t first = 0; first < routing_.stride(); first += kBlock) {
      const std::uint32_t last = std::min(routing_.stride(), first + kBlock);
      for (std::uint32_t s = 0; s < n; ++s) {
        std::uint8_t* row = routing_.row(s);
        for (std::uint32_t lid = first; lid < last; ++lid) {
          const std::uint8_t port = lft_[static_cast<std::size_t>(lid) * n + s];
          if (port != IbRouting::kNoPath) row[lid] = port;
        }
      }
    }
  }

  void route_target(std::uint32_t sw, std::uint8_t port, std::uint32_t lid) {
    set_port(sw, lid, port);
    hops(sw, lid) = 1;
    down_by_going_up(sw, SwitchGraph::kNone, lid, true, true, 1);
  }

  // Port of a group with the least `counter` (first on ties).
  template <typename Counter>
  GroupPort& least_used(const PortGroup& g, Counter counter) {
    GroupPort* best = &ports_[g.begin];
    for (std::uint32_t i = g.begin + 1; i < g.end; ++i) {
      if (counter(ports_[i]) < counter(*best)) best = &ports_[i];
    }
    return *best;
  }

  // Gives the switches below s routes up to s; true when the subtree holds a CA.
  bool up_by_going_down(std::uint32_t s, std::uint32_t prev, std::uint32_t lid, bool real, int depth) {
    bool created = has_ca_[s];
    for (std::uint32_t i = down_switch_begin_[s]; i < down_switch_begin_[s + 1]; ++i) {
      PortGroup& g = groups_[down_switches_[i]];
      if (g.remote == prev) continue;
      GroupPort& p = least_used(g, [](const GroupPort& x) { return x.counter_up; });
      if (real) {
        std::uint8_t& h = hops(g.remote, lid);
        if (h != kNoHops && depth + 1 >= h) continue;
        set_port(g.remote, lid, p.remote_port);
        h = static_cast<std::uint8_t>(depth + 1);
      }
      if (up_by_going_down(g.remote, SwitchGraph::kNone, lid, real, depth + 1)) {
        created = true;
        ++p.counter_up;
        ++g.counter_up;
      }
    }
    return created;
  }

  bool down_by_going_up(std::uint32_t s, std::uint32_t prev, std::uint32_t lid, bool real, bool main, int depth) {
    bool created = up_by_going_down(s, prev, lid, real, depth);
    if (ranks_.rank[s] == 0 || up_[s].empty()) return created;
    // Up groups in order of downward load, ties by the neighbour's GUID (ascending), which is the
    // order OpenSM's bubble sort with port_group_compare_load_down leaves them in. Secondary
    // routes follow the same order, so they rotate over the groups as the main paths load them.
    std::vector<std::uint32_t>& up = up_[s];
    auto before = [&](std::uint32_t a, std::uint32_t b) {
      if (groups_[a].counter_down != groups_[b].counter_down) return groups_[a].counter_down < groups_[b].counter_down;
      return remote_guid(a) < remote_guid(b);
    };
    for (std::size_t i = 1; i < up.size(); ++i) {
      for (std::size_t j = i; j > 0 && before(up[j], up[j - 1]); --j) std::swap(up[j], up[j - 1]);
    }
    const std::uint32_t chosen = up[0];
    if (main) {
      PortGroup& g = groups_[chosen];
      GroupPort& p = least_used(g, [](const GroupPort& x) { return x.counter_down; });
      ++g.counter_down;
      ++p.counter_down;
      if (!real) {
        created |= down_by_going_up(g.remote, s, lid, false, true, depth + 1);
      } else if (std::uint8_t& h = hops(g.remote, lid); h == kNoHops || depth + 1 < h) {
        set_port(g.remote, lid, p.remote_port);
        h = static_cast<std::uint8_t>(depth + 1);
        created |= down_by_going_up(g.remote, s, lid, true, true, depth + 1);
      }
    }
    if (!real) return created;
    for (std::size_t i = main ? 1 : 0; i < up.size(); ++i) {
      const std::uint32_t gi = up[i];
      const PortGroup& g = groups_[gi];
      std::uint8_t& h = hops(g.remote, lid);
      if (h != kNoHops && depth + 1 >= h) continue;
      const GroupPort& p = least_used(g, [](const GroupPort& x) { return x.counter_down; });
      set_port(g.remote, lid, p.remote_port);
      h = static_cast<std::uint8_t>(depth + 1);
      created |= down_by_going_up(g.remote, s, lid, true, false, depth + 1);
    }
    return created;
  }

  std::uint64_t remote_guid(std::uint32_t group) const {
    return fabric_.guid[graph_.node(groups_[group].remote).value()];
  }

  struct GroupLink {
    std::uint32_t group;
    std::uint8_t port;
    std::uint8_t remote_port;
  };

  const IbFabric& fabric_;
  const SwitchGraph& graph_;
  const IbRanks& ranks_;
  IbRouting& routing_;
  std::vector<bool> is_cn_;
  std::vector<PortGroup> groups_;
  std::vector<GroupLink> group_links_;
  std::vector<GroupPort> ports_;
  std::vector<std::vector<std::uint32_t>> up_;
  std::vector<std::vector<std::uint32_t>> down_;
  std::vector<std::uint32_t> leaves_;
  std::vector<std::uint8_t> hops_;  // [lid * switches + s]
  std::vector<std::uint8_t> lft_;   // [lid * switches + s]
  std::vector<std::uint32_t> down_switches_;  // CSR: switch down groups of each switch
  std::vector<std::uint32_t> down_switch_begin_;
  std::vector<bool> has_ca_;
};

}  // namespace

Diagnostics route_ftree(const IbFabric& fabric, const SwitchGraph& graph, const IbRoutingOptions& options,
                        IbRouting& routing) {
  const IbRanks ranks = rank_switches(fabric, graph, options.roots);
  if (ranks.roots.empty()) {
    return {fabric_diagnostic(fabric, IbNodeId::invalid(), "roots", "ftree: no root switch detected (no switch has a CA)")};
  }
  std::vector<bool> is_cn(fabric.node_count(), options.compute_nodes.empty());
  for (const IbNodeId n : options.compute_nodes) is_cn[n.value()] = true;
  FatTree tree(fabric, graph, ranks, routing);
  if (Diagnostics errors = tree.build(is_cn, options.roots.empty()); !errors.empty()) return errors;
  tree.route(options.threads);
  return {};
}

}  // namespace ct
