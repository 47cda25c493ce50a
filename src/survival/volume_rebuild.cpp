#include "survival/volume_rebuild.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "frontend/request_trace.h"
#include "frontend/volume_replicas.h"

// The one place survival/ uses the max-min solver (sim/maxmin/max_min_solver.h).
#include "sim/maxmin/max_min_solver.h"
#include "sim/resource_name.h"

namespace ct {

std::string to_string(VolumeHealth h) {
  switch (h) {
    case VolumeHealth::kHealthy: return "healthy";
    case VolumeHealth::kDegraded: return "degraded";
    case VolumeHealth::kFaulted: return "faulted";
  }
  return "?";
}

VolumeAfter volume_after(const std::vector<std::string>& replica_nodes, int wanted, const std::string& engine_node,
                         const std::vector<std::string>& dead) {
  const auto is_dead = [&](const std::string& n) { return std::find(dead.begin(), dead.end(), n) != dead.end(); };
  VolumeAfter v;
  v.replicas_wanted = wanted;
  v.replicas_alive = static_cast<int>(std::count_if(replica_nodes.begin(), replica_nodes.end(), [&](const std::string& n) { return !is_dead(n); }));
  v.health = v.replicas_alive == 0 ? VolumeHealth::kFaulted : v.replicas_alive < wanted ? VolumeHealth::kDegraded : VolumeHealth::kHealthy;
  v.data_lost = v.replicas_alive == 0 && !replica_nodes.empty();
  v.unavailable = !v.data_lost && !engine_node.empty() && is_dead(engine_node);
  return v;
}

std::vector<double> rebuild_finish_times(const std::vector<RebuildLink>& links, const std::vector<Rebuild>& rebuilds) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> finish(rebuilds.size(), kInf);
  std::vector<double> left(rebuilds.size());
  for (std::size_t i = 0; i < rebuilds.size(); ++i) left[i] = 8 * rebuilds[i].bytes;
  double t = kInf;
  for (const auto& r : rebuilds) t = std::min(t, r.start_s);
  MaxMinSolver solver;
  std::vector<std::size_t> active;
  while (t < kInf) {
    for (std::size_t i = 0; i < rebuilds.size(); ++i) {
      if (rebuilds[i].start_s <= t && finish[i] == kInf && left[i] <= 0) finish[i] = t;
      if (rebuilds[i].start_s <= t && finish[i] == kInf && std::find(active.begin(), active.end(), i) == active.end()) active.push_back(i);
    }
    std::sort(active.begin(), active.end());
    MaxMinSystem system;
    for (const auto& l : links) system.add_constraint(l.bits_per_s);
    std::vector<FlowId> flows;
    for (std::size_t i : active) {
      std::vector<ConstraintId> hops;
      for (std::size_t l : rebuilds[i].links) hops.emplace_back(l);
      flows.push_back(system.add_flow(hops));
    }
    std::vector<double> rate(system.flow_count(), 0);
    if (!flows.empty()) solver.solve_all(system, rate);
    double next = kInf;
    for (std::size_t k = 0; k < active.size(); ++k) {
      if (rate[k] > 0) next = std::min(next, t + left[active[k]] / rate[k]);
    }
    for (std::size_t i = 0; i < rebuilds.size(); ++i) {
      if (rebuilds[i].start_s > t) next = std::min(next, rebuilds[i].start_s);
    }
    if (next == kInf) break;
    std::vector<std::size_t> still;
    for (std::size_t k = 0; k < active.size(); ++k) {
      const std::size_t i = active[k];
      left[i] -= rate[k] * (next - t);
      if (rate[k] > 0 && left[i] <= 1e-9 * 8 * rebuilds[i].bytes) {
        finish[i] = next;
      } else {
        still.push_back(i);
      }
    }
    active = std::move(still);
    t = next;
  }
  return finish;
}

namespace {

// One direction of a link: constraint 2l going up (toward the spines), 2l + 1 going down.
struct FrontendHop {
  LinkId link;
  bool up = true;
};

// The first shortest path over the frontend from one host's frontend ports to another's, avoiding
// dead switches and links; nullopt when there is none. Every port of a host is a way in or out (a
// bond or several uplinks): the search starts from all of the source's ports, in port order, and
// ends at the first of the destination's it reaches. One rebuild is one TCP stream, so it takes one
// path (a bond hashes a flow onto one member).
std::optional<std::vector<FrontendHop>> frontend_path(const Topology& t, long long from, long long to, const DeadElements& dead) {
  if (from == to) return std::vector<FrontendHop>{};
  std::vector<std::int64_t> via(t.vertex_count(), -1);  // the link that reached each vertex
  std::vector<bool> seen(t.vertex_count(), false);
  std::vector<bool> target(t.vertex_count(), false);
  for (VertexId s : dead.switches) seen[s.value()] = true;
  std::set<std::uint32_t> dead_links;
  for (LinkId l : dead.links) dead_links.insert(l.value());
  std::deque<VertexId> queue;
  for (int p = 0; p < t.frontend_ports_per_host; ++p) {
    const VertexId a = t.frontend_port_of(HostId(from), p);
    seen[a.value()] = true;
    queue.push_back(a);
    target[t.frontend_port_of(HostId(to), p).value()] = true;
  }
  std::optional<VertexId> reached;
  while (!queue.empty() && !reached) {
    const VertexId v = queue.front();
    queue.pop_front();
    for (const Adjacency& adj : t.neighbors(v)) {
      const auto n = adj.neighbor.value();
      if (seen[n] || dead_links.contains(adj.link.value()) || t.network[n] != Network::kFrontend) continue;
      // Only switches forward: a host's port is an end, never a hop.
      if (t.kind[n] == VertexKind::kPort && !target[n]) continue;
      seen[n] = true;
      via[n] = adj.link.value();
      if (target[n]) {
        reached = adj.neighbor;
        break;
      }
      queue.push_back(adj.neighbor);
    }
  }
  if (!reached) return std::nullopt;
  std::vector<FrontendHop> path;
  for (VertexId v = *reached; via[v.value()] >= 0;) {
    const LinkId l(static_cast<std::uint32_t>(via[v.value()]));
    const VertexId prev = t.other_end(l, v);
    path.push_back(FrontendHop{l, t.link_a[l.value()] == prev});
    v = prev;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::optional<long long> host_of(const Manifests& m, const Topology& t, const std::string& node) {
  const Node* n = m.find_node(node);
  const auto host = spec_host_of(n != nullptr && !n->host.empty() ? n->host : node);
  if (!host || *host >= t.host_count) return std::nullopt;
  return host;
}

// The rebuilds of one volume: the new disks, their sources and paths (not yet timed).
// `names`: the topology's name directory (null without one), for the paths' cable names.
VolumeRebuilds plan_volume(const Manifests& m, const Topology* topo, const NameDirectory* names, const DeadElements& dead,
                           LonghornSchedule& s, ScheduledVolume& v, std::vector<std::vector<FrontendHop>>& paths) {
  VolumeRebuilds r;
  r.volume = v.claim->meta.ns + "/" + v.claim->meta.name;
  r.bytes = v.bytes;
  r.engine_node = v.engine_node;
  r.after = volume_after(v.replica_nodes, v.wanted, v.engine_node, dead.nodes);
  if (r.after.data_lost) return r;
  const auto is_dead = [&](const std::string& n) { return std::find(dead.nodes.begin(), dead.nodes.end(), n) != dead.nodes.end(); };
  std::vector<std::string> live;
  for (const auto& n : v.replica_nodes) {
    if (!is_dead(n)) live.push_back(n);
  }
  std::sort(live.begin(), live.end());
  const auto lost = std::count_if(v.replica_nodes.begin(), v.replica_nodes.end(), is_dead);
  double start = dead.at_s + s.settings.replenishment_wait_s;
  if (!v.engine_node.empty() && is_dead(v.engine_node)) {
    if (auto it = dead.reattached_s.find(r.volume); it != dead.reattached_s.end()) start = std::max(start, it->second);
  }
  for (long i = 0; i < lost; ++i) {
    PlannedRebuild b;
    b.start_s = start;
    std::string why;
    const auto disk = schedule_replica(s, v, dead.nodes, why);
    paths.emplace_back();
    if (!disk) {
      b.never = why;
      r.rebuilds.push_back(std::move(b));
      continue;
    }
    b.to_node = s.disks[*disk].node;
    b.to_disk = s.disks[*disk].name;
    if (topo == nullptr || topo->frontend_ports_per_host == 0) {
      b.from_node = live.front();
      b.never = "no frontend network in the cluster spec: the rebuild is not timed";
      r.rebuilds.push_back(std::move(b));
      continue;
    }
    const auto to_host = host_of(m, *topo, b.to_node);
    std::optional<std::vector<FrontendHop>> best;
    for (const auto& src : live) {
      const auto from_host = host_of(m, *topo, src);
      if (!from_host || !to_host) continue;
      auto p = frontend_path(*topo, *from_host, *to_host, dead);
      if (p && (!best || p->size() < best->size())) {
        best = std::move(p);
        b.from_node = src;
      }
    }
    if (!best) {
      b.from_node = live.front();
      b.never = to_host ? "no frontend path from a live replica's node to " + b.to_node
                        : "node " + b.to_node + " maps to no host of the spec (annotate it clustertwin.io/host: hostN)";
    } else {
      for (const FrontendHop& h : *best) b.path.push_back(cable_direction_name(*names, h.link, h.up));
      paths.back() = std::move(*best);
    }
    r.rebuilds.push_back(std::move(b));
  }
  return r;
}

}  // namespace

std::vector<VolumeRebuilds> plan_rebuilds(const Manifests& m, const Placement& placement, const Topology* topology, const DeadElements& dead) {
  LonghornSchedule s = schedule_longhorn(m, placement);
  std::vector<VolumeRebuilds> out;
  std::vector<std::vector<FrontendHop>> paths;  // per rebuild, in order
  std::optional<NameDirectory> names;
  if (topology != nullptr) names.emplace(*topology);
  for (ScheduledVolume& v : s.volumes) {
    const bool touched = std::any_of(v.replica_nodes.begin(), v.replica_nodes.end(), [&](const std::string& n) {
      return std::find(dead.nodes.begin(), dead.nodes.end(), n) != dead.nodes.end();
    });
    if (touched) out.push_back(plan_volume(m, topology, names ? &*names : nullptr, dead, s, v, paths));
  }
  // Time every rebuild with a path together (a same-host rebuild crosses no link: instant).
  std::vector<RebuildLink> links;
  if (topology != nullptr) {
    std::set<std::uint32_t> dead_links;
    for (LinkId l : dead.links) dead_links.insert(l.value());
    for (std::size_t l = 0; l < topology->link_count(); ++l) {
      const double c = dead_links.contains(static_cast<std::uint32_t>(l)) ? 0 : static_cast<double>(topology->capacity[l].value());
      links.push_back({cable_direction_name(*names, LinkId(static_cast<std::uint32_t>(l)), true), c});
      links.push_back({cable_direction_name(*names, LinkId(static_cast<std::uint32_t>(l)), false), c});
    }
  }
  std::vector<Rebuild> flows;
  std::vector<PlannedRebuild*> timed;
  std::size_t k = 0;
  for (auto& v : out) {
    for (auto& b : v.rebuilds) {
      const std::vector<FrontendHop>& p = paths[k++];
      if (!b.never.empty()) continue;
      if (p.empty()) {
        b.finish_s = b.start_s;
        continue;
      }
      Rebuild f{v.volume, v.bytes, b.start_s, {}};
      for (const FrontendHop& h : p) f.links.push_back(2 * static_cast<std::size_t>(h.link.value()) + (h.up ? 0 : 1));
      flows.push_back(std::move(f));
      timed.push_back(&b);
    }
  }
  const std::vector<double> finish = rebuild_finish_times(links, flows);
  for (std::size_t i = 0; i < timed.size(); ++i) timed[i]->finish_s = finish[i];
  return out;
}

std::optional<std::vector<RebuildLink>> rebuild_links(const Manifests& m, const Topology& t, const std::string& from_node,
                                                      const std::string& to_node, const DeadElements& dead) {
  const auto from = host_of(m, t, from_node);
  const auto to = host_of(m, t, to_node);
  if (!from || !to) return std::nullopt;
  const auto path = frontend_path(t, *from, *to, dead);
  if (!path) return std::nullopt;
  std::vector<RebuildLink> out;
  const NameDirectory names(t);
  for (const FrontendHop& h : *path) {
    out.push_back({cable_direction_name(names, h.link, h.up), static_cast<double>(t.capacity[h.link.value()].value())});
  }
  return out;
}

}  // namespace ct
