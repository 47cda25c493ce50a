#include "analysis/reliability_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>


namespace ct {
namespace {

bool backend_switch(const Topology& t, std::uint32_t v) {
  return t.kind[v] == VertexKind::kSwitch && t.network[v] == Network::kBackend;
}
bool backend_link(const Topology& t, std::uint32_t l) {
  return t.network[t.link_a[l].value()] == Network::kBackend && t.network[t.link_b[l].value()] == Network::kBackend;
}

std::string class_name(FailureElement e, int tier, std::optional<MediaKind> media) {
  static const char* const kLinkNames[] = {"link", "NIC-leaf link", "leaf-spine link", "spine-core link"};
  switch (e) {
    case FailureElement::kNic: return "NIC";
    case FailureElement::kLeaf: return "leaf";
    case FailureElement::kSpine: return "spine";
    case FailureElement::kCore: return "core";
    case FailureElement::kLink: break;
  }
  const std::string base = kLinkNames[std::clamp(tier, 0, 3)];
  return media ? fmt::format("{} ({})", base, to_string(*media)) : base + " (media unknown)";
}

FailureElement switch_element(int tier) {
  return tier == 1 ? FailureElement::kLeaf : tier == 2 ? FailureElement::kSpine : FailureElement::kCore;
}

// Where the job sits: which tiers its traffic crosses and in which pods (see the header).
struct JobGeometry {
  bool crosses_tier2 = false;
  bool crosses_tier3 = false;
  std::set<std::uint32_t> pods;
};

JobGeometry job_geometry(const Topology& t, long long job_hosts) {
  JobGeometry g;
  std::vector<std::set<std::uint32_t>> rail_leaves(t.ports_per_host), rail_pods(t.ports_per_host);
  for (long long h = 0; h < job_hosts; ++h) {
    for (int r = 0; r < t.ports_per_host; ++r) {
      const VertexId port = t.port_of(HostId(static_cast<std::uint32_t>(h)), r, 0);
      const VertexId leaf = t.neighbors(port).front().neighbor;
      rail_leaves[r].insert(leaf.value());
      rail_pods[r].insert(t.group[leaf.value()]);
      g.pods.insert(t.group[leaf.value()]);
    }
  }
  for (int r = 0; r < t.ports_per_host; ++r) {
    g.crosses_tier2 = g.crosses_tier2 || rail_leaves[r].size() > 1;
    g.crosses_tier3 = g.crosses_tier3 || rail_pods[r].size() > 1;
  }
  return g;
}

class ModelBuilder {
 public:
  ModelBuilder(const Topology& t, const Catalog& c, const ReliabilityInputs& in, const ClassSlowdowns& s)
      : t_(t), catalog_(c), inputs_(in), slowdowns_(s) {}

  Result<ReliabilityModel> run(const std::string& name) {
    resolve_job(name);
    geometry_ = job_geometry(t_, m_.job_hosts);
    const std::uint64_t nics = static_cast<std::uint64_t>(t_.host_count) * t_.ports_per_host;
    for (std::uint64_t n = 0; n < nics; ++n) add_nic(n);
    for (std::uint32_t l = 0; l < t_.link_count(); ++l) {
      if (backend_link(t_, l)) add_link(l, nics + l);
    }
    for (std::uint32_t v = 0; v < t_.vertex_count(); ++v) {
      if (backend_switch(t_, v)) add_switch(v, nics + t_.link_count() + v);
    }
    m_.slot_begin.push_back(static_cast<std::uint32_t>(m_.slots.size()));
    for (const auto& c : m_.classes) {
      if (!c.per_hour) {
        m_.unmodelled.push_back(fmt::format("{} ({}): no failure rate ({}); set reliability.afr.{} to model them",
                                            c.name, c.count, c.source, to_string(c.element)));
      }
    }
    if (!errors_.empty()) return errors_;
    return std::move(m_);
  }

 private:
  void resolve_job(const std::string& name) {
    m_.name = name;
    m_.planes = t_.planes;
    m_.tiers = t_.tiers;
    m_.rails = t_.ports_per_host;
    m_.hosts = t_.host_count;
    const int per_host = std::max(1, t_.gpus_per_host);
    m_.gpus = t_.host_count * per_host;
    m_.job = inputs_.job;
    m_.split = inputs_.split;
    m_.job_gpus = inputs_.job.gpus <= 0 ? m_.gpus : std::min(inputs_.job.gpus, m_.gpus);
    m_.job_hosts = (m_.job_gpus + per_host - 1) / per_host;
    m_.spare_hosts = inputs_.job.spare_hosts >= 0 ? inputs_.job.spare_hosts
                                                   : (m_.job_hosts + kHostsPerSpare - 1) / kHostsPerSpare;
    m_.job.gpus = m_.job_gpus;
    m_.job.spare_hosts = m_.spare_hosts;
  }

  // The class of (element, tier, media), created with its rates on first use.
  std::size_t class_of(FailureElement e, int tier, std::optional<MediaKind> media) {
    const auto key = std::make_tuple(static_cast<int>(e), tier, media ? static_cast<int>(*media) : -1);
    const auto [it, added] = class_index_.try_emplace(key, m_.classes.size());
    if (!added) return it->second;
    ElementClass c;
    c.element = e;
    c.tier = tier;
    c.media = media;
    c.name = class_name(e, tier, media);
    const int k = static_cast<int>(e);
    const FailureRate* entry = catalog_.find_failure_rate(e, media);
    if (inputs_.afr[k]) {
      c.per_hour = *inputs_.afr[k] / kHoursPerYear;
      c.source = "spec";
    } else if (entry != nullptr) {
      c.per_hour = entry->per_hour;
      c.source = entry->id;
    } else {
      c.source = "no catalog entry";
    }
    if (inputs_.repair_hours[k]) {
      c.mttr_hours = inputs_.repair_hours[k];
      c.source += "; repair: spec";
    } else if (entry != nullptr) {
      c.mttr_hours = entry->mttr_hours;
    }
    if (e != FailureElement::kNic && e != FailureElement::kLeaf && tier >= 2) {
      c.slowdown = slowdowns_.factor[std::min(tier, 3)][e == FailureElement::kLink ? 0 : 1];
      if (e == FailureElement::kLink) c.bundle = slowdowns_.bundle[std::min(tier, 3)];
    }
    if (c.per_hour && !c.mttr_hours && reported_.insert(k).second) {
      errors_.push_back({{}, "reliability.repair_hours." + to_string(e),
                         fmt::format("no time to repair for {}: {} gives none (no public source was found); set "
                                     "reliability.repair_hours.{} in the spec or pass --repair-hours",
                                     c.name, entry != nullptr ? "catalog entry " + entry->id : "the catalog",
                                     to_string(e))});
    }
    m_.classes.push_back(std::move(c));
    return m_.classes.size() - 1;
  }

  void add(std::size_t cls, std::uint64_t stream, Impact impact, const std::vector<std::uint32_t>& slots) {
    ElementClass& c = m_.classes[cls];
    ++c.count;
    if (!c.modelled()) return;
    if (impact != Impact::kNone) ++c.touching_job;
    m_.element_class.push_back(static_cast<std::uint16_t>(cls));
    m_.stream.push_back(stream);
    m_.impact.push_back(impact);
    m_.slot_begin.push_back(static_cast<std::uint32_t>(m_.slots.size()));
    m_.slots.insert(m_.slots.end(), slots.begin(), slots.end());
  }

  std::vector<std::uint32_t> slot_if_in_job(std::uint32_t host, std::uint32_t rail) const {
    if (host >= m_.job_hosts) return {};
    return {static_cast<std::uint32_t>(host * static_cast<std::uint64_t>(m_.rails) + rail)};
  }

  // Impact of an element above the leaves: whether the job's traffic crosses it.
  Impact upper_impact(int tier, std::uint32_t pod, double slowdown) const {
    const bool crosses = tier == 2 ? geometry_.crosses_tier2 && (t_.tiers == 2 || geometry_.pods.count(pod) > 0)
                                   : geometry_.crosses_tier3;
    if (!crosses) return Impact::kNone;
    return std::isinf(slowdown) ? Impact::kPartition : Impact::kSlowdown;
  }

  void add_nic(std::uint64_t n) {
    const auto host = static_cast<std::uint32_t>(n / m_.rails);
    const auto rail = static_cast<std::uint32_t>(n % m_.rails);
    const auto slots = slot_if_in_job(host, rail);
    add(class_of(FailureElement::kNic, 0, std::nullopt), n, slots.empty() ? Impact::kNone : Impact::kGpu, slots);
  }

  void add_link(std::uint32_t l, std::uint64_t stream) {
    const VertexId lower = t_.link_a[l];
    const int tier = t_.tier[t_.link_b[l].value()];
    std::optional<MediaKind> media;
    if (t_.media[l] >= 0) media = catalog_.optics[t_.media[l]].kind;
    const std::size_t cls = class_of(FailureElement::kLink, tier, media);
    if (t_.kind[lower.value()] == VertexKind::kPort) {
      const auto slots = slot_if_in_job(t_.group[lower.value()], t_.index[lower.value()]);
      add(cls, stream, slots.empty() ? Impact::kNone : Impact::kPlane, slots);
      return;
    }
    add(cls, stream, upper_impact(tier, t_.group[lower.value()], m_.classes[cls].slowdown), {});
  }

  void add_switch(std::uint32_t v, std::uint64_t stream) {
    const int tier = t_.tier[v];
    const std::size_t cls = class_of(switch_element(tier), tier, std::nullopt);
    if (tier > 1) {
      add(cls, stream, upper_impact(tier, t_.group[v], m_.classes[cls].slowdown), {});
      return;
    }
    std::vector<std::uint32_t> slots;
    for (const Adjacency& a : t_.neighbors(VertexId(v))) {
      const auto p = a.neighbor.value();
      if (t_.kind[p] != VertexKind::kPort) continue;
      const auto s = slot_if_in_job(t_.group[p], t_.index[p]);
      slots.insert(slots.end(), s.begin(), s.end());
    }
    std::sort(slots.begin(), slots.end());
    add(cls, stream, slots.empty() ? Impact::kNone : Impact::kPlane, slots);
  }

  const Topology& t_;
  const Catalog& catalog_;
  const ReliabilityInputs& inputs_;
  const ClassSlowdowns& slowdowns_;
  ReliabilityModel m_;
  JobGeometry geometry_;
  std::map<std::tuple<int, int, int>, std::size_t> class_index_;
  std::set<int> reported_;
  Diagnostics errors_;
};

}  // namespace

std::string to_string(DegradedPolicy p) {
  return p == DegradedPolicy::kContinue ? "continue" : "drain at checkpoint";
}

std::string to_string(PathSplit s) { return s == PathSplit::kEcmp ? "ecmp" : "adaptive"; }

ClassSlowdowns compute_class_slowdowns(const Topology& t, PathSplit split) {
  ClassSlowdowns out;
  for (int tier = 2; tier <= std::min(t.tiers, 3); ++tier) {
    for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
      if (backend_switch(t, v) && t.plane[v] == 0 && t.tier[v] == tier) {
        out.factor[tier][1] = fabric_slowdown(t, 0, tier, {VertexId(v), LinkId::invalid()}, split);
        break;
      }
    }
    for (std::uint32_t l = 0; l < t.link_count(); ++l) {
      const auto a = t.link_a[l].value();
      const auto b = t.link_b[l].value();
      if (backend_switch(t, a) && backend_switch(t, b) && t.plane[a] == 0 && t.tier[b] == tier) {
        out.factor[tier][0] = fabric_slowdown(t, 0, tier, {VertexId::invalid(), LinkId(l)}, split);
        int parallel = 0;
        for (std::uint32_t m = 0; m < t.link_count(); ++m) parallel += t.link_a[m] == t.link_a[l] && t.link_b[m] == t.link_b[l];
        out.bundle[tier] = parallel;
        break;
      }
    }
  }
  return out;
}

Result<ReliabilityModel> build_reliability_model(const std::string& name, const Topology& topology,
                                                 const Catalog& catalog, const ReliabilityInputs& inputs,
                                                 const ClassSlowdowns& slowdowns) {
  return ModelBuilder(topology, catalog, inputs, slowdowns).run(name);
}

}  // namespace ct
