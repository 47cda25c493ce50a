#include "analysis/reliability_slowdown.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <map>
#include <unordered_map>
#include <vector>

#include "sim/flow/flow_engine.h"

namespace ct {
namespace {

// Traffic each source leaf sends: 1 GB per 100 Gb/s of its endpoint ports (80 ms at full speed).
constexpr double kBytesPer100G = 1e9;

struct Leaf {
  VertexId vertex;
  std::uint32_t pod = 0;
  double port_capacity = 0;  // bits/s of its endpoint ports together
};

bool in_plane(const Topology& t, VertexId v, int plane) {
  const auto i = v.value();
  return t.kind[i] == VertexKind::kSwitch && t.network[i] == Network::kBackend && t.plane[i] == plane;
}

// Leaves of the plane that have endpoint ports, in vertex order.
std::vector<Leaf> plane_leaves(const Topology& t, int plane) {
  std::vector<Leaf> out;
  for (std::uint32_t i = 0; i < t.vertex_count(); ++i) {
    const VertexId v(i);
    if (!in_plane(t, v, plane) || t.tier[i] != 1) continue;
    Leaf leaf{v, t.group[i], 0};
    for (const Adjacency& a : t.neighbors(v)) {
      if (t.kind[a.neighbor.value()] == VertexKind::kPort) leaf.port_capacity += static_cast<double>(t.capacity[a.link.value()].value());
    }
    if (leaf.port_capacity > 0) out.push_back(leaf);
  }
  return out;
}

// The shift permutation of the pattern (indices into `leaves`).
std::vector<std::pair<std::size_t, std::size_t>> pattern(const Topology& t, const std::vector<Leaf>& leaves, int tier,
                                                         std::uint32_t pod) {
  std::map<std::uint32_t, std::vector<std::size_t>> by_pod;
  for (std::size_t i = 0; i < leaves.size(); ++i) by_pod[t.tiers == 2 ? 0 : leaves[i].pod].push_back(i);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  if (tier == 2) {
    const auto it = by_pod.find(t.tiers == 2 ? 0 : pod);
    if (it == by_pod.end()) return pairs;
    const auto& group = it->second;
    for (std::size_t i = 0; i < group.size() && group.size() > 1; ++i) {
      pairs.emplace_back(group[i], group[(i + group.size() / 2) % group.size()]);
    }
    return pairs;
  }
  std::vector<const std::vector<std::size_t>*> pods;
  for (const auto& [id, group] : by_pod) pods.push_back(&group);
  const std::size_t q = pods.size();
  for (std::size_t p = 0; p < q && q > 1; ++p) {
    const auto& from = *pods[p];
    const auto& to = *pods[(p + q / 2) % q];
    for (std::size_t i = 0; i < from.size() && i < to.size(); ++i) pairs.emplace_back(from[i], to[i]);
  }
  return pairs;
}

std::uint64_t bundle_key(VertexId a, VertexId b) { return (std::uint64_t{a.value()} << 32) | b.value(); }

// Shortest switch paths of one plane, and the capacity of each directed switch-switch bundle.
class PlanePaths {
 public:
  PlanePaths(const Topology& t, int plane) : t_(t), plane_(plane), dist_(t.vertex_count(), -1) {
    for (std::uint32_t l = 0; l < t.link_count(); ++l) {
      const VertexId a = t.link_a[l];
      const VertexId b = t.link_b[l];
      if (!in_plane(t, a, plane) || !in_plane(t, b, plane)) continue;
      const auto c = static_cast<double>(t.capacity[l].value());
      capacity_[bundle_key(a, b)] += c;
      capacity_[bundle_key(b, a)] += c;
    }
    healthy_ = capacity_;
  }

  [[nodiscard]] double capacity(VertexId a, VertexId b) const { return capacity_.at(bundle_key(a, b)); }
  // Live over healthy capacity of the path's worst bundle.
  [[nodiscard]] double worst_share(const std::vector<VertexId>& path) const {
    double share = 1;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      const auto key = bundle_key(path[i], path[i + 1]);
      share = std::min(share, capacity_.at(key) / healthy_.at(key));
    }
    return share;
  }
  void reduce(VertexId a, VertexId b, double by) {
    capacity_[bundle_key(a, b)] -= by;
    capacity_[bundle_key(b, a)] -= by;
  }

  // Every shortest path (as switch vertices) from s to d, in link order, at most kMaxPathsPerPair.
  std::vector<std::vector<VertexId>> paths(VertexId s, VertexId d) {
    std::fill(dist_.begin(), dist_.end(), -1);
    std::vector<VertexId> queue = {d};
    dist_[d.value()] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const VertexId u = queue[head];
      for (const Adjacency& a : t_.neighbors(u)) {
        if (!in_plane(t_, a.neighbor, plane_) || dist_[a.neighbor.value()] >= 0) continue;
        dist_[a.neighbor.value()] = dist_[u.value()] + 1;
        queue.push_back(a.neighbor);
      }
    }
    std::vector<std::vector<VertexId>> out;
    if (dist_[s.value()] < 0) return out;
    std::vector<VertexId> path = {s};
    extend(path, out);
    return out;
  }

 private:
  void extend(std::vector<VertexId>& path, std::vector<std::vector<VertexId>>& out) {
    const VertexId u = path.back();
    if (dist_[u.value()] == 0) {
      out.push_back(path);
      return;
    }
    VertexId previous = VertexId::invalid();
    for (const Adjacency& a : t_.neighbors(u)) {
      if (out.size() >= kMaxPathsPerPair) return;
      const VertexId w = a.neighbor;
      // Parallel cables list the same neighbour more than once: one path per neighbour.
      if (w == previous || !in_plane(t_, w, plane_) || dist_[w.value()] != dist_[u.value()] - 1) continue;
      if (std::find(path.begin(), path.end(), w) != path.end()) continue;
      previous = w;
      path.push_back(w);
      extend(path, out);
      path.pop_back();
    }
  }

  const Topology& t_;
  int plane_;
  std::vector<int> dist_;
  std::unordered_map<std::uint64_t, double> capacity_;
  std::unordered_map<std::uint64_t, double> healthy_;
};

struct PairPaths {
  const Leaf* from;
  const Leaf* to;
  std::vector<std::vector<VertexId>> paths;
};

// Completion time in picoseconds of the pattern, +infinity when a pair has no live path.
double completion(const std::vector<PairPaths>& pairs, const PlanePaths& bundles, VertexId dead, PathSplit split) {
  FlowEngine engine;
  std::unordered_map<std::uint64_t, ConstraintId> constraint_of;
  std::map<std::uint32_t, ConstraintId> inject, eject;
  const auto bundle = [&](VertexId a, VertexId b) {
    const auto [it, added] = constraint_of.try_emplace(bundle_key(a, b));
    if (added) it->second = engine.add_constraint(BitsPerSecond(static_cast<std::int64_t>(bundles.capacity(a, b))));
    return it->second;
  };
  const auto endpoint = [&](std::map<std::uint32_t, ConstraintId>& m, const Leaf& leaf) {
    const auto [it, added] = m.try_emplace(leaf.vertex.value());
    if (added) it->second = engine.add_constraint(BitsPerSecond(static_cast<std::int64_t>(leaf.port_capacity)));
    return it->second;
  };
  std::vector<std::vector<ConstraintId>> routes;
  std::vector<Bytes> sizes;
  for (const PairPaths& pair : pairs) {
    std::vector<const std::vector<VertexId>*> live;
    for (const auto& path : pair.paths) {
      bool ok = std::find(path.begin(), path.end(), dead) == path.end();
      for (std::size_t i = 0; ok && i + 1 < path.size(); ++i) ok = bundles.capacity(path[i], path[i + 1]) > 0;
      if (ok) live.push_back(&path);
    }
    if (live.empty()) return std::numeric_limits<double>::infinity();
    const double total = kBytesPer100G * pair.from->port_capacity / 1e11;
    std::vector<double> weight;
    for (const auto* path : live) weight.push_back(split == PathSplit::kEcmp ? 1.0 : bundles.worst_share(*path));
    double weights = 0;
    for (double w : weight) weights += w;
    for (std::size_t i = 0; i < live.size(); ++i) {
      const auto* path = live[i];
      const Bytes share(static_cast<std::int64_t>(total * weight[i] / weights + 0.5));
      std::vector<ConstraintId> route = {endpoint(inject, *pair.from)};
      for (std::size_t h = 0; h + 1 < path->size(); ++h) route.push_back(bundle((*path)[h], (*path)[h + 1]));
      route.push_back(endpoint(eject, *pair.to));
      routes.push_back(std::move(route));
      sizes.push_back(share);
    }
  }
  std::vector<FlowId> flows;
  for (std::size_t i = 0; i < routes.size(); ++i) {
    FlowRequest request;
    request.path = routes[i];
    request.size = sizes[i];
    flows.push_back(engine.add_flow(request));
  }
  engine.run();
  double last = 0;
  for (FlowId f : flows) last = std::max(last, static_cast<double>(engine.completion_time(f).value()));
  return last;
}

}  // namespace

double fabric_slowdown(const Topology& topology, int plane, int tier, const FailedElement& failed, PathSplit split) {
  assert(tier == 2 || tier == 3);
  const std::vector<Leaf> leaves = plane_leaves(topology, plane);
  // The pod of the failed element: a switch's own group, or the lower end of a cable.
  const VertexId where = failed.vertex.valid() ? failed.vertex : topology.link_a[failed.link.value()];
  const auto pairs_of = pattern(topology, leaves, tier, topology.group[where.value()]);
  if (pairs_of.empty()) return 1.0;
  PlanePaths bundles(topology, plane);
  std::vector<PairPaths> pairs;
  for (const auto& [from, to] : pairs_of) {
    pairs.push_back({&leaves[from], &leaves[to], bundles.paths(leaves[from].vertex, leaves[to].vertex)});
  }
  const double healthy = completion(pairs, bundles, VertexId::invalid(), split);
  if (failed.link.valid()) {
    const auto l = failed.link.value();
    bundles.reduce(topology.link_a[l], topology.link_b[l], static_cast<double>(topology.capacity[l].value()));
  }
  const double broken = completion(pairs, bundles, failed.vertex, split);
  return broken / healthy;
}

}  // namespace ct
