#include "fluid_scenario.h"

#include "sim/flow/flow_engine.h"

namespace ct {

void FluidScenario::append(const FluidScenario& other) {
  const auto offset = static_cast<std::uint32_t>(capacity.size());
  capacity.insert(capacity.end(), other.capacity.begin(), other.capacity.end());
  for (Flow f : other.flows) {
    for (ConstraintId& c : f.path) c = ConstraintId(c.value() + offset);
    flows.push_back(std::move(f));
  }
  for (CapacityChange change : other.changes) {
    change.constraint = ConstraintId(change.constraint.value() + offset);
    changes.push_back(change);
  }
}

FluidScenario leaf_spine_constraints(const LeafSpineShape& shape) {
  FluidScenario s;
  const int leaves = shape.hosts / shape.hosts_per_leaf;
  s.capacity.assign(2 * static_cast<std::size_t>(shape.hosts), shape.host_link);
  s.capacity.resize(s.capacity.size() + 2 * static_cast<std::size_t>(leaves * shape.spines), shape.fabric_link);
  return s;
}

std::vector<ConstraintId> leaf_spine_path(const LeafSpineShape& shape, int src, int dst, int spine) {
  const int src_leaf = src / shape.hosts_per_leaf;
  const int dst_leaf = dst / shape.hosts_per_leaf;
  const ConstraintId up(2 * src);
  const ConstraintId down(2 * dst + 1);
  if (src_leaf == dst_leaf) return {up, down};
  const int fabric = 2 * shape.hosts;
  return {up, ConstraintId(fabric + 2 * (src_leaf * shape.spines + spine)),
          ConstraintId(fabric + 2 * (dst_leaf * shape.spines + spine) + 1), down};
}

FluidScenario random_leaf_spine_scenario(Rng& rng) {
  static constexpr std::int64_t kSpeeds[] = {100, 200, 400, 800};
  LeafSpineShape shape;
  shape.hosts_per_leaf = rng.uniform(2) == 0 ? 4 : 8;
  shape.hosts = shape.hosts_per_leaf * static_cast<int>(2 + rng.uniform(3));
  shape.spines = static_cast<int>(2 + rng.uniform(3));
  shape.host_link = gbps(kSpeeds[rng.uniform(3)]);
  shape.fabric_link = gbps(kSpeeds[rng.uniform(4)]);
  FluidScenario s = leaf_spine_constraints(shape);

  const auto hosts = static_cast<std::uint64_t>(shape.hosts);
  const std::uint64_t flows = hosts + rng.uniform(2 * hosts);
  for (std::uint64_t i = 0; i < flows; ++i) {
    const auto src = static_cast<int>(rng.uniform(hosts));
    const auto dst = static_cast<int>((static_cast<std::uint64_t>(src) + 1 + rng.uniform(hosts - 1)) % hosts);
    const auto spine = static_cast<int>(rng.uniform(static_cast<std::uint64_t>(shape.spines)));
    FluidScenario::Flow f;
    f.path = leaf_spine_path(shape, src, dst, spine);
    f.size = Bytes(1'000'000 + static_cast<std::int64_t>(rng.uniform(255'000'000)));
    f.start = TimePs(static_cast<std::int64_t>(rng.uniform(10'000'000'000)));
    if (rng.uniform(6) == 0) {
      f.rate_cap = BitsPerSecond(shape.host_link.value() / 10 * static_cast<std::int64_t>(1 + rng.uniform(9)));
    }
    s.flows.push_back(std::move(f));
  }
  const std::uint64_t changes = rng.uniform(4);
  for (std::uint64_t k = 0; k < changes; ++k) {
    s.changes.push_back({ConstraintId(rng.uniform(s.capacity.size())),
                         TimePs(static_cast<std::int64_t>(rng.uniform(20'000'000'000))),
                         0.25 * static_cast<double>(1 + rng.uniform(4))});
  }
  return s;
}

std::vector<double> clustertwin_completion_seconds(const FluidScenario& scenario, bool incremental) {
  FlowEngine engine(FlowEngine::Options{.incremental = incremental});
  for (const BitsPerSecond c : scenario.capacity) engine.add_constraint(c);
  for (const FluidScenario::CapacityChange& change : scenario.changes) {
    engine.schedule_capacity(change.constraint, change.at, change.fraction);
  }
  for (const FluidScenario::Flow& f : scenario.flows) {
    FlowRequest r;
    r.path = f.path;
    r.size = f.size;
    r.start = f.start;
    r.rate_cap = f.rate_cap;
    engine.add_flow(r);
  }
  engine.run();
  std::vector<double> seconds(scenario.flows.size());
  for (std::size_t i = 0; i < seconds.size(); ++i) seconds[i] = to_seconds(engine.completion_time(FlowId(i)));
  return seconds;
}

FluidScenario fluid_of(const SimulationResult& r) {
  FluidScenario f;
  for (const ResourceInfo& c : r.resources) f.capacity.push_back(c.capacity);
  for (const FlowRecord& rec : r.flows) {
    FluidScenario::Flow flow;
    for (std::uint32_t h = 0; h < rec.path_size; ++h) flow.path.push_back(ConstraintId(r.path_pool[rec.path_begin + h]));
    flow.size = rec.bytes;
    flow.start = rec.start;
    f.flows.push_back(std::move(flow));
  }
  return f;
}

std::vector<double> last_byte_seconds(const SimulationResult& r, const Topology& topology) {
  std::vector<double> out;
  out.reserve(r.flows.size());
  for (const FlowRecord& rec : r.flows) {
    TimePs latency{0};
    for (std::uint32_t h = 0; h < rec.path_size; ++h) {
      const ResourceInfo& c = r.resources[r.path_pool[rec.path_begin + h]];
      if (c.kind == ResourceKind::kLinkUp || c.kind == ResourceKind::kLinkDown) latency += topology.latency[c.link.value()];
    }
    out.push_back(rec.end.value() < 0 ? -1.0 : to_seconds(rec.end - latency));
  }
  return out;
}

}  // namespace ct
