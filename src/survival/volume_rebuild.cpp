#include "survival/volume_rebuild.h"

#include <algorithm>
#include <limits>

// The one place survival/ uses the max-min solver (sim/maxmin/max_min_solver.h).
#include "sim/maxmin/max_min_solver.h"

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

}  // namespace ct
