#include "plan/planner.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "plan/max_flow.h"
#include "plan/media_gaps.h"
#include "spec/validate.h"
#include "topology/builder.h"

namespace ct {
namespace {

constexpr double kLossEpsilon = 1e-12;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool is_backend(const Topology& t, std::size_t v) { return t.network[v] == Network::kBackend; }
bool is_switch_of(const Topology& t, std::size_t v, Network net) {
  return t.network[v] == net && t.kind[v] == VertexKind::kSwitch;
}
bool is_backend_switch(const Topology& t, std::size_t v) {
  return is_backend(t, v) && t.kind[v] == VertexKind::kSwitch;
}

bool is_transceiver(const Catalog& catalog, std::int32_t media) {
  return media >= 0 && catalog.optics[static_cast<std::size_t>(media)].kind == MediaKind::kTransceiver;
}

MediaFigures& media_slot(std::map<int, MediaFigures>& media, const Catalog& catalog, std::int32_t index) {
  auto [it, inserted] = media.try_emplace(index);
  if (inserted && index >= 0) {
    assert(static_cast<std::size_t>(index) < catalog.optics.size());
    const auto& optic = catalog.optics[static_cast<std::size_t>(index)];
    it->second.optic = index;
    it->second.id = optic.id;
    it->second.kind = to_string(optic.kind);
  }
  return it->second;
}

// GPUs g of a host are served by NICs [first, last): a partition of the NICs when there are at least
// as many NICs as GPUs, else the one NIC that g shares with its neighbours.
std::pair<int, int> nics_of_gpu(int g, int gpus, int nics) {
  if (nics >= gpus) return {g * nics / gpus, (g + 1) * nics / gpus};
  const int nic = g * nics / gpus;
  return {nic, nic + 1};
}

// ---- switches, ports, links -------------------------------------------------------------------

// Counting functions take the network: the backend's planes, or the frontend as one "plane" 0.
void count_switches(const Topology& t, std::vector<PlaneFigures>& planes, Network net = Network::kBackend) {
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (!is_switch_of(t, v, net)) continue;
    assert(t.tier[v] >= 1 && t.tier[v] <= planes[t.plane[v]].tiers.size());
    auto& f = planes[t.plane[v]].tiers[t.tier[v] - 1U];
    const auto adjacent = t.neighbors(VertexId(v));
    ++f.switches;
    f.ports_used += static_cast<long long>(adjacent.size());
    f.ports_free += t.ports[v] - static_cast<long long>(adjacent.size());
    for (const auto& a : adjacent) {
      const auto u = a.neighbor.value();
      if (t.tier[u] < t.tier[v]) f.down_capacity += t.capacity[a.link.value()];
      if (t.tier[u] > t.tier[v]) f.up_capacity += t.capacity[a.link.value()];
    }
  }
}

void count_links(const Topology& t, std::vector<PlaneFigures>& planes, Network net = Network::kBackend) {
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    const auto upper = t.link_b[l].value();
    if (t.network[upper] != net) continue;
    auto& f = planes[t.plane[upper]].tiers[t.tier[upper] - 1U];
    ++f.links;
    if (f.links == 1) f.link_speed = t.capacity[l];
    else if (f.link_speed != t.capacity[l]) f.link_speed = BitsPerSecond(0);
  }
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] == net && t.kind[v] == VertexKind::kPort) ++planes[t.plane[v]].endpoints;
  }
  for (auto& plane : planes) {
    for (auto& f : plane.tiers) {
      if (f.up_capacity.value() > 0) {
        f.oversubscription = static_cast<double>(f.down_capacity.value()) / static_cast<double>(f.up_capacity.value());
      }
    }
  }
}

// ---- optics and cables ------------------------------------------------------------------------

// Logical ports one module occupies at a switch: the cage's `ways` (logical ports at the link speed
// over physical cages), or the links the module carries when the catalog counts a twin-port cage as
// two ports at full speed (ways 1, a 2-link module).
int ports_per_module(const SwitchModel& sw, const OpticModel& optic, BitsPerSecond link_speed) {
  const int logical = sw.ports_at(link_speed);
  const int ways = (sw.ports > 0 && logical >= sw.ports) ? logical / sw.ports : 1;
  return std::max({1, ways, links_per_module(optic, link_speed)});
}

struct MediumAtSwitch {
  std::int32_t media;
  BitsPerSecond speed;
  long long links;
};

void count_switch_media(const Topology& t, const Catalog& catalog, const SwitchModel& sw,
                        std::vector<std::map<int, MediaFigures>>& media, Network net = Network::kBackend) {
  std::vector<MediumAtSwitch> groups;
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (!is_switch_of(t, v, net)) continue;
    groups.clear();
    for (const auto& a : t.neighbors(VertexId(v))) {
      const auto m = t.media[a.link.value()];
      const auto speed = t.capacity[a.link.value()];
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.media == m && g.speed == speed; });
      if (it == groups.end()) groups.push_back({m, speed, 1});
      else ++it->links;
    }
    for (const auto& g : groups) {
      if (!is_transceiver(catalog, g.media)) continue;
      const int per_module = ports_per_module(sw, catalog.optics[static_cast<std::size_t>(g.media)], g.speed);
      media_slot(media[t.plane[v]], catalog, g.media).switch_modules += (g.links + per_module - 1) / per_module;
    }
  }
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    const auto upper = t.link_b[l].value();
    if (t.network[upper] != net) continue;
    auto& f = media_slot(media[t.plane[upper]], catalog, t.media[l]);
    ++f.links;
    ++f.cables;
  }
}

// The module in a NIC cage whose links use transceiver `link_media` at `link_speed`: a transceiver
// of the same medium and form factor (so the fibre and the switch end match), at least the switch
// module's reach, that carries exactly one link per plane at the link speed and fits the cage
// (speed at most the cage's); the lowest power, then the id. A twin-port 2 x 400G switch module
// (osfp-800g-2xsr4) thus faces a single-port 400G part in a 400G NIC (osfp-400g-sr4, the pairing
// of the MMA4Z00-NS400 connectivity scenarios) and itself in an 800G cage split into two planes.
// The link's own module when no part fits.
std::int32_t nic_cage_media(const Catalog& catalog, const NicModel& nic, int planes, std::int32_t link_media,
                            BitsPerSecond link_speed) {
  const OpticModel& far = catalog.optics[static_cast<std::size_t>(link_media)];
  constexpr double kUnknownPower = std::numeric_limits<double>::infinity();
  std::int32_t best = -1;
  double best_power = kUnknownPower;
  for (std::size_t i = 0; i < catalog.optics.size(); ++i) {
    const OpticModel& o = catalog.optics[i];
    if (o.kind != MediaKind::kTransceiver || o.medium != far.medium || o.form_factor != far.form_factor) continue;
    if (links_per_module(o, link_speed) != planes || o.speed.value() > nic.port_speed.value()) continue;
    if (o.reach_m < far.reach_m) continue;  // the link may be as long as the switch module reaches
    const double power = o.power_w.value_or(kUnknownPower);
    if (best < 0 || power < best_power || (power == best_power && o.id < catalog.optics[static_cast<std::size_t>(best)].id)) {
      best = static_cast<std::int32_t>(i);
      best_power = power;
    }
  }
  return best >= 0 ? best : link_media;
}

// One module per NIC cage and transceiver medium (nic_cage_media); the cage's logical ports are its
// planes. Returns the cluster-wide count by medium (a module serving several planes counted once).
std::map<int, long long> count_nic_media(const Topology& t, const Catalog& catalog, const NicModel& nic,
                                         std::vector<std::map<int, MediaFigures>>& media) {
  std::map<int, long long> total;
  std::map<std::pair<std::int32_t, std::int64_t>, std::int32_t> cage_choice;  // (link media, speed) -> module
  std::vector<std::int32_t> cage_media;
  for (long long h = 0; h < t.host_count; ++h) {
    for (int r = 0; r < t.ports_per_host; ++r) {
      cage_media.clear();
      for (int p = 0; p < t.planes; ++p) {
        const auto port = t.port_of(HostId(h), r, p);
        std::vector<std::int32_t> port_media;
        for (const auto& a : t.neighbors(port)) {
          const auto link_media = t.media[a.link.value()];
          if (!is_transceiver(catalog, link_media)) continue;
          const BitsPerSecond speed = t.capacity[a.link.value()];
          const auto key = std::make_pair(link_media, speed.value());
          auto chosen = cage_choice.find(key);
          if (chosen == cage_choice.end()) {
            chosen = cage_choice.emplace(key, nic_cage_media(catalog, nic, t.planes, link_media, speed)).first;
          }
          const auto m = chosen->second;
          if (std::find(port_media.begin(), port_media.end(), m) != port_media.end()) continue;
          port_media.push_back(m);
          ++media_slot(media[static_cast<std::size_t>(p)], catalog, m).nic_modules;
          if (std::find(cage_media.begin(), cage_media.end(), m) == cage_media.end()) cage_media.push_back(m);
        }
      }
      for (const auto m : cage_media) ++total[m];
    }
  }
  return total;
}

// ---- bisection --------------------------------------------------------------------------------

// Max-flow from the NIC ports of hosts [0, H/2) to those of hosts [H/2, H) in one plane (or in the
// frontend: net kFrontend, plane 0).
BitsPerSecond plane_bisection(const Topology& t, int plane, BitsPerSecond& half_injection,
                              Network net = Network::kBackend) {
  half_injection = BitsPerSecond(0);
  if (t.host_count < 2) return BitsPerSecond(0);
  std::vector<std::uint32_t> local(t.vertex_count(), kNone);
  std::uint32_t n = 0;
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (t.network[v] == net && t.plane[v] == plane) local[v] = n++;
  }
  const std::uint32_t source = n;
  const std::uint32_t sink = n + 1;
  MaxFlow flow(n + 2);
  for (std::size_t l = 0; l < t.link_count(); ++l) {
    const auto a = local[t.link_a[l].value()];
    const auto b = local[t.link_b[l].value()];
    if (a != kNone && b != kNone) flow.add_edge(a, b, t.capacity[l].value(), t.capacity[l].value());
  }
  constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max() / 4;
  std::int64_t inject[2] = {0, 0};
  const long long half = t.host_count / 2;
  for (long long h = 0; h < t.host_count; ++h) {
    const int side = h < half ? 0 : 1;
    const int ports = net == Network::kBackend ? t.ports_per_host : t.frontend_ports_per_host;
    for (int r = 0; r < ports; ++r) {
      const auto port = net == Network::kBackend ? t.port_of(HostId(h), r, plane) : t.frontend_port_of(HostId(h), r);
      for (const auto& a : t.neighbors(port)) inject[side] += t.capacity[a.link.value()].value();
      if (side == 0) flow.add_edge(source, local[port.value()], kUnbounded, 0);
      else flow.add_edge(local[port.value()], sink, kUnbounded, 0);
    }
  }
  half_injection = BitsPerSecond(std::min(inject[0], inject[1]));
  return BitsPerSecond(flow.solve(source, sink));
}

// ---- hops -------------------------------------------------------------------------------------

struct Reach {
  std::vector<int> distance;          // links from the source; -1 unreached
  std::vector<std::uint64_t> paths;   // shortest paths, saturating
};

Reach breadth_first(const Topology& t, VertexId source) {
  Reach r{std::vector<int>(t.vertex_count(), -1), std::vector<std::uint64_t>(t.vertex_count(), 0)};
  std::vector<VertexId> queue{source};
  r.distance[source.value()] = 0;
  r.paths[source.value()] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto u = queue[head].value();
    for (const auto& a : t.neighbors(queue[head])) {
      const auto w = a.neighbor.value();
      if (r.distance[w] < 0) {
        r.distance[w] = r.distance[u] + 1;
        queue.push_back(a.neighbor);
      }
      if (r.distance[w] == r.distance[u] + 1) {
        const auto sum = r.paths[w] + r.paths[u];
        r.paths[w] = sum < r.paths[w] ? std::numeric_limits<std::uint64_t>::max() : sum;
      }
    }
  }
  return r;
}

std::uint32_t leaf_of(const Topology& t, VertexId port) {
  for (const auto& a : t.neighbors(port)) {
    if (t.tier[a.neighbor.value()] == 1) return a.neighbor.value();
  }
  return kNone;
}

// The first GPU (host, rail), in host-then-rail order from `first_host`, whose plane-0 port passes
// `accept(leaf)`; rail fixed when `rail` >= 0.
template <typename Accept>
bool find_partner(const Topology& t, long long first_host, int rail, Accept accept, HopPair& pair) {
  for (long long h = first_host; h < t.host_count; ++h) {
    for (int r = rail < 0 ? 0 : rail; r < (rail < 0 ? t.ports_per_host : rail + 1); ++r) {
      if (h == 0 && r == 0) continue;
      const auto leaf = leaf_of(t, t.port_of(HostId(h), r, 0));
      if (leaf != kNone && accept(leaf)) {
        pair.host_b = h;
        pair.rail_b = r;
        return true;
      }
    }
  }
  return false;
}

std::vector<HopPair> hop_pairs(const Topology& t) {
  std::vector<HopPair> pairs;
  if (t.host_count == 0 || t.ports_per_host == 0) return pairs;
  const auto leaf_a = leaf_of(t, t.port_of(HostId(0), 0, 0));
  if (leaf_a == kNone) return pairs;
  const auto pod_a = t.group[leaf_a];
  HopPair p;
  p.relation = "same leaf";
  if (find_partner(t, 0, -1, [&](std::uint32_t leaf) { return leaf == leaf_a; }, p)) pairs.push_back(p);
  if (t.ports_per_host > 1) {
    p.relation = "same host, other rail";
    p.host_b = 0;
    p.rail_b = 1;
    pairs.push_back(p);
  }
  p.relation = t.tiers == 3 ? "same rail, other leaf, same pod" : "same rail, other leaf";
  if (find_partner(t, 1, 0, [&](std::uint32_t leaf) { return leaf != leaf_a && t.group[leaf] == pod_a; }, p)) {
    pairs.push_back(p);
  }
  p.relation = "same rail, other pod";
  if (t.tiers == 3 && find_partner(t, 1, 0, [&](std::uint32_t leaf) { return t.group[leaf] != pod_a; }, p)) {
    pairs.push_back(p);
  }
  for (int plane = 0; plane < t.planes; ++plane) {
    const auto reach = breadth_first(t, t.port_of(HostId(0), 0, plane));
    for (auto& pair : pairs) {
      const auto b = t.port_of(HostId(pair.host_b), pair.rail_b, plane).value();
      pair.switch_hops.push_back(reach.distance[b] < 0 ? -1 : reach.distance[b] - 1);
      pair.shortest_paths.push_back(reach.paths[b]);
    }
  }
  return pairs;
}

// ---- failure domains --------------------------------------------------------------------------

// Backend vertices from the top tier down, so that every vertex follows the ones above it.
std::vector<std::uint32_t> top_down_order(const Topology& t) {
  std::vector<std::uint32_t> order;
  for (int tier = t.tiers; tier >= 0; --tier) {
    for (std::size_t v = 0; v < t.vertex_count(); ++v) {
      if (is_backend(t, v) && t.tier[v] == tier) order.push_back(static_cast<std::uint32_t>(v));
    }
  }
  return order;
}

// R(v): the share of v's up capacity that still reaches the top tier with `removed` gone.
std::vector<double> retained_up_share(const Topology& t, const std::vector<std::uint32_t>& order,
                                      const std::vector<char>& removed) {
  std::vector<double> share(t.vertex_count(), 0.0);
  for (const auto v : order) {
    if (removed[v] != 0) continue;
    double total = 0;
    double kept = 0;
    for (const auto& a : t.neighbors(VertexId(v))) {
      const auto u = a.neighbor.value();
      if (t.tier[u] <= t.tier[v]) continue;
      const auto cap = static_cast<double>(t.capacity[a.link.value()].value());
      total += cap;
      kept += cap * share[u];
    }
    share[v] = total > 0 ? kept / total : 1.0;
  }
  return share;
}

FailureDomain measure_failure(const Topology& t, const std::vector<std::uint32_t>& order,
                              const std::vector<VertexId>& removed_vertices) {
  std::vector<char> removed(t.vertex_count(), 0);
  for (const auto v : removed_vertices) removed[v.value()] = 1;
  const auto share = retained_up_share(t, order, removed);
  FailureDomain d;
  const int gpus = t.gpus_per_host > 0 ? t.gpus_per_host : t.ports_per_host;
  double lost_sum = 0;
  double capacity_sum = 0;
  for (long long h = 0; h < t.host_count; ++h) {
    for (int g = 0; g < gpus; ++g) {
      const auto [first, last] = nics_of_gpu(g, gpus, t.ports_per_host);
      double capacity = 0;
      double kept = 0;
      for (int r = first; r < last; ++r) {
        for (int p = 0; p < t.planes; ++p) {
          const auto port = t.port_of(HostId(h), r, p);
          for (const auto& a : t.neighbors(port)) {
            const auto cap = static_cast<double>(t.capacity[a.link.value()].value());
            capacity += cap;
            kept += cap * share[port.value()];
          }
        }
      }
      capacity_sum += capacity;
      lost_sum += capacity - kept;
      if (capacity <= 0) continue;
      const double lost = 1.0 - kept / capacity;
      if (lost <= kLossEpsilon) continue;
      d.min_share_lost = d.gpus_affected == 0 ? lost : std::min(d.min_share_lost, lost);
      d.max_share_lost = std::max(d.max_share_lost, lost);
      ++d.gpus_affected;
    }
  }
  d.fabric_share_lost = capacity_sum > 0 ? lost_sum / capacity_sum : 0;
  return d;
}

std::uint32_t first_switch(const Topology& t, int tier) {
  for (std::size_t v = 0; v < t.vertex_count(); ++v) {
    if (is_backend_switch(t, v) && t.plane[v] == 0 && t.tier[v] == tier) return static_cast<std::uint32_t>(v);
  }
  return kNone;
}

std::vector<FailureDomain> failure_domains(const Topology& t) {
  std::vector<FailureDomain> domains;
  if (t.host_count == 0 || t.ports_per_host == 0) return domains;
  const auto order = top_down_order(t);
  const auto port = t.port_of(HostId(0), 0, 0);
  auto add = [&](std::string element, std::string removed_name, const std::vector<VertexId>& removed) {
    auto d = measure_failure(t, order, removed);
    d.element = std::move(element);
    d.removed = std::move(removed_name);
    domains.push_back(std::move(d));
  };
  add("NIC port", t.vertex_name(port), {port});
  if (t.planes > 1) {
    std::vector<VertexId> cage;
    for (int p = 0; p < t.planes; ++p) cage.push_back(t.port_of(HostId(0), 0, p));
    add("NIC", "host0/nic0 (all planes)", cage);
  }
  const char* names[] = {"leaf", "spine", "core"};
  for (int tier = 1; tier <= t.tiers; ++tier) {
    const auto v = first_switch(t, tier);
    if (v != kNone) add(names[tier - 1], t.vertex_name(VertexId(v)), {VertexId(v)});
  }
  return domains;
}

// ---- scale limits -----------------------------------------------------------------------------

// Down ports of tier t for a radix: the design's own split when the radix is the design's, else the
// design's down:up ratio o for that tier (1:1 where the design has no such tier), split as the
// validator splits: up = floor(radix / (1 + o)), down = radix - up.
int down_ports(const PlanInputs& in, int radix, std::size_t tier) {
  if (radix == in.radix && tier < in.down.size()) return in.down[tier];
  const double ratio = tier < in.oversubscription.size() ? in.oversubscription[tier] : 1.0;
  return radix - static_cast<int>(std::floor(static_cast<double>(radix) / (1.0 + ratio)));
}

ScaleLimit scale_limit(const PlanInputs& in, const Topology& t, int planes, BitsPerSecond speed, int radix) {
  ScaleLimit s;
  s.planes = planes;
  s.port_speed = speed;
  s.radix = radix;
  s.chosen = planes == t.planes;
  if (radix <= 0 || t.ports_per_host <= 0) return s;
  const std::vector<int> down = {down_ports(in, radix, 0), down_ports(in, radix, 1)};
  const long long gpus = t.gpus_per_host > 0 ? t.gpus_per_host : t.ports_per_host;
  s.gpus_2_tiers = max_endpoints(radix, {down[0]}, 2) * gpus / t.ports_per_host;
  s.gpus_3_tiers = max_endpoints(radix, down, 3) * gpus / t.ports_per_host;
  return s;
}

std::vector<ScaleLimit> scale_limits(const PlanInputs& in, const Topology& t) {
  std::vector<ScaleLimit> limits{scale_limit(in, t, t.planes, in.port_speed, in.radix)};
  if (in.topology != TopologyKind::kFatTree) {
    for (const int ways : in.nic.splits) {
      if (ways <= 0 || ways == t.planes) continue;
      const BitsPerSecond speed(in.nic.port_speed.value() / ways);
      limits.push_back(scale_limit(in, t, ways, speed, in.switch_model.ports_at(speed)));
    }
  }
  std::stable_sort(limits.begin(), limits.end(), [](const auto& a, const auto& b) { return a.planes < b.planes; });
  limits.erase(std::unique(limits.begin(), limits.end(), [](const auto& a, const auto& b) { return a.planes == b.planes; }),
               limits.end());
  return limits;
}

// ---- power and cost ---------------------------------------------------------------------------

void add_line(Bill& bill, std::string part, std::string item, long long count, std::optional<double> unit) {
  if (count == 0) return;
  BillLine line{std::move(part), std::move(item), count, unit};
  if (line.unit) bill.known_total += *line.total();
  else bill.unknown.push_back(line.part + " (" + line.item + ")");
  bill.lines.push_back(std::move(line));
}

Bill make_bill(const std::vector<TierFigures>& tiers, const std::vector<MediaFigures>& media, const SwitchModel& sw,
               const NicModel& nic, long long nics, const Catalog& catalog, bool power) {
  Bill bill;
  long long switches = 0;
  for (const auto& f : tiers) switches += f.switches;
  add_line(bill, sw.id, "switch", switches, power ? sw.power_w : sw.price_usd);
  add_line(bill, nic.id, "NIC", nics, power ? nic.power_w : nic.price_usd);
  for (const auto& m : media) {
    if (m.optic < 0) {
      add_line(bill, kNoMedium, "link medium", m.links, std::nullopt);
      continue;
    }
    const auto& optic = catalog.optics[static_cast<std::size_t>(m.optic)];
    const auto unit = power ? optic.power_w : optic.price_usd;
    if (optic.kind == MediaKind::kTransceiver) add_line(bill, optic.id, "transceiver", m.switch_modules + m.nic_modules, unit);
    else if (power) add_line(bill, optic.id, "cable end", 2 * m.cables, unit);
    else add_line(bill, optic.id, "cable", m.cables, unit);
  }
  return bill;
}

std::vector<MediaFigures> to_vector(const std::map<int, MediaFigures>& media) {
  std::vector<MediaFigures> out;
  for (const auto& [index, f] : media) out.push_back(f);
  return out;
}

void add_totals(Plan& p, const Catalog& catalog, const std::map<int, long long>& nic_modules) {
  p.total_tiers.resize(static_cast<std::size_t>(p.tiers));
  for (int tier = 1; tier <= p.tiers; ++tier) p.total_tiers[static_cast<std::size_t>(tier - 1)].tier = tier;
  std::map<int, MediaFigures> media;
  for (const auto& plane : p.plane_figures) {
    for (std::size_t i = 0; i < plane.tiers.size(); ++i) {
      auto& sum = p.total_tiers[i];
      const auto& f = plane.tiers[i];
      const bool same_speed = sum.switches + sum.links == 0 || sum.link_speed == f.link_speed;
      sum.switches += f.switches;
      sum.ports_used += f.ports_used;
      sum.ports_free += f.ports_free;
      sum.links += f.links;
      sum.link_speed = same_speed ? f.link_speed : BitsPerSecond(0);
      sum.down_capacity += f.down_capacity;
      sum.up_capacity += f.up_capacity;
    }
    for (const auto& m : plane.media) {
      auto& sum = media_slot(media, catalog, m.optic);
      sum.links += m.links;
      sum.switch_modules += m.switch_modules;
      sum.cables += m.cables;
    }
    p.bisection += plane.bisection;
    p.half_injection += plane.half_injection;
  }
  for (const auto& [index, count] : nic_modules) media_slot(media, catalog, index).nic_modules = count;
  for (auto& f : p.total_tiers) {
    if (f.up_capacity.value() > 0) {
      f.oversubscription = static_cast<double>(f.down_capacity.value()) / static_cast<double>(f.up_capacity.value());
    }
  }
  p.total_media = to_vector(media);
}

// ---- frontend ---------------------------------------------------------------------------------

// The frontend counted like one backend plane; NIC modules: one per frontend NIC cage whose links
// use a transceiver (nic_cage_media with the cage's ways in place of the plane count).
FrontendFigures plan_frontend(const ValidFrontend& fe, const NodeModel& node, const Topology& t,
                              const Catalog& catalog) {
  FrontendFigures f;
  f.switch_model = fe.switch_model.id;
  f.nic_model = fe.nic.id;
  f.speed = fe.speed;
  f.ports_per_host = t.frontend_ports_per_host;
  f.nics = t.host_count * std::max(1, node.frontend_nics);
  f.oversubscription_asked = fe.oversubscription;
  std::vector<PlaneFigures> as_plane(1);
  as_plane[0].tiers.resize(2);
  as_plane[0].tiers[0].tier = 1;
  as_plane[0].tiers[1].tier = 2;
  count_switches(t, as_plane, Network::kFrontend);
  count_links(t, as_plane, Network::kFrontend);
  std::vector<std::map<int, MediaFigures>> media(1);
  count_switch_media(t, catalog, fe.switch_model, media, Network::kFrontend);
  const int ways = fe.speed.value() > 0 ? std::max<int>(1, static_cast<int>(fe.nic.port_speed.value() / fe.speed.value())) : 1;
  const long long cages = (as_plane[0].endpoints + ways - 1) / ways;
  std::int32_t nic_link_media = -1;
  for (std::size_t l = 0; l < t.link_count() && nic_link_media < 0; ++l) {
    const auto lower = t.link_a[l].value();
    if (t.network[lower] == Network::kFrontend && t.kind[lower] == VertexKind::kPort) nic_link_media = t.media[l];
  }
  if (is_transceiver(catalog, nic_link_media)) {
    const BitsPerSecond speed = fe.speed;
    media_slot(media[0], catalog, nic_cage_media(catalog, fe.nic, ways, nic_link_media, speed)).nic_modules += cages;
  }
  f.endpoints = as_plane[0].endpoints;
  f.tiers = std::move(as_plane[0].tiers);
  f.media = to_vector(media[0]);
  f.bisection = plane_bisection(t, 0, f.half_injection, Network::kFrontend);
  f.backend_links = static_cast<long long>(count_cross_network_links(t));
  f.power = make_bill(f.tiers, f.media, fe.switch_model, fe.nic, f.nics, catalog, true);
  f.cost = make_bill(f.tiers, f.media, fe.switch_model, fe.nic, f.nics, catalog, false);
  return f;
}

}  // namespace

PlanInputs plan_inputs(const ValidSpec& spec) {
  PlanInputs in;
  in.name = spec.name;
  in.topology = spec.backend.topology;
  in.node = spec.node;
  in.switch_model = spec.backend.switch_model;
  in.nic = spec.backend.nic;
  in.port_speed = spec.backend.port_speed;
  in.port_speed_where = spec.backend.port_speed_where;
  for (int i = 0; i < 3; ++i) {
    in.cable_length_m[i] = spec.backend.cable_length_m[i];
    in.cable_length_where[i] = spec.backend.cable_length_where[i];
  }
  in.radix = spec.backend.radix;
  in.down = spec.backend.down;
  in.oversubscription = spec.backend.oversubscription;
  in.frontend = spec.frontend;
  return in;
}

Plan plan(const ValidSpec& spec, const Topology& topology, const Catalog& catalog) {
  return plan(plan_inputs(spec), topology, catalog);
}

Plan plan(const PlanInputs& in, const Topology& t, const Catalog& catalog) {
  Plan p;
  p.name = in.name;
  p.topology = to_string(in.topology);
  p.node_model = in.node.id;
  p.switch_model = in.switch_model.id;
  p.nic_model = in.nic.id;
  p.hosts = t.host_count;
  p.gpus_per_host = t.gpus_per_host;
  p.gpus = t.host_count * t.gpus_per_host;
  p.nics_per_host = t.ports_per_host;
  p.planes = t.planes;
  p.tiers = t.tiers;
  p.cross_plane_links = static_cast<long long>(count_cross_plane_links(t));

  p.plane_figures.resize(static_cast<std::size_t>(t.planes));
  for (int plane = 0; plane < t.planes; ++plane) {
    auto& f = p.plane_figures[static_cast<std::size_t>(plane)];
    f.plane = plane;
    f.tiers.resize(static_cast<std::size_t>(t.tiers));
    for (int tier = 1; tier <= t.tiers; ++tier) f.tiers[static_cast<std::size_t>(tier - 1)].tier = tier;
  }
  count_switches(t, p.plane_figures);
  count_links(t, p.plane_figures);
  std::vector<std::map<int, MediaFigures>> media(static_cast<std::size_t>(t.planes));
  count_switch_media(t, catalog, in.switch_model, media);
  const auto nic_modules = count_nic_media(t, catalog, in.nic, media);
  for (int plane = 0; plane < t.planes; ++plane) {
    auto& f = p.plane_figures[static_cast<std::size_t>(plane)];
    f.media = to_vector(media[static_cast<std::size_t>(plane)]);
    f.bisection = plane_bisection(t, plane, f.half_injection);
  }
  p.nics = p.plane_figures.empty() ? 0 : p.plane_figures[0].endpoints;
  add_totals(p, catalog, nic_modules);
  p.hops = hop_pairs(t);
  p.scale_limits = scale_limits(in, t);
  p.failure_domains = failure_domains(t);
  p.power = make_bill(p.total_tiers, p.total_media, in.switch_model, in.nic, p.nics, catalog, true);
  p.cost = make_bill(p.total_tiers, p.total_media, in.switch_model, in.nic, p.nics, catalog, false);
  if (in.frontend && t.frontend_ports_per_host > 0) p.frontend = plan_frontend(*in.frontend, in.node, t, catalog);
  MediaSources sources{in.port_speed_where, std::nullopt, {}, {}};
  if (in.frontend) sources.frontend_speed = in.frontend->speed_where;
  for (int i = 0; i < 3; ++i) {
    sources.cable_length_m[i] = in.cable_length_m[i];
    sources.cable_length[i] = in.cable_length_where[i];
  }
  p.warnings = media_gaps(sources, t, catalog);
  return p;
}

}  // namespace ct
