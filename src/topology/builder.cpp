#include "topology/builder.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>

#include <fmt/format.h>

namespace ct {
namespace {

enum class Packing { kRail, kHost, kPort };

// The switch counts and cabling rule of one plane (every plane is the same), or of the frontend.
struct PlaneShape {
  int tiers = 2;
  Packing packing = Packing::kRail;
  long long hosts = 0;
  long long rails = 1;  // ports per host in this network
  long long radix = 1;
  long long down = 1;   // d0: endpoint ports per leaf
  long long leaves = 0;
  long long leaves_per_pod = 0;
  long long pods = 1;
  long long spines_per_pod = 0;  // 2 tiers: all spines of the plane
  long long leaf_spine_parallel = 1;
  long long cores_per_group = 0;  // C; there are spines_per_pod groups
  long long spine_core_parallel = 1;
  bool spines_fit = true;
  bool cores_fit = true;

  [[nodiscard]] long long spines() const { return pods * spines_per_pod; }
  [[nodiscard]] long long cores() const { return tiers == 3 ? spines_per_pod * cores_per_group : 0; }
  [[nodiscard]] long long switches() const { return leaves + spines() + cores(); }
  [[nodiscard]] long long endpoint_ports() const { return hosts * rails; }
  [[nodiscard]] long long leaf_spine_links() const { return leaves * spines_per_pod * leaf_spine_parallel; }
  [[nodiscard]] long long spine_core_links() const {
    return tiers == 3 ? spines() * cores_per_group * spine_core_parallel : 0;
  }

  [[nodiscard]] long long leaf_of(long long host, long long rail) const {
    switch (packing) {
      case Packing::kRail: return (host / down) * rails + rail;
      case Packing::kHost:
        if (rails <= down) return host / (down / rails);
        return (host * rails + rail) / down;
      case Packing::kPort: return (host * rails + rail) / down;
    }
    return 0;
  }
};

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

long long at_or(const std::vector<int>& v, std::size_t i, long long fallback) {
  return i < v.size() && v[i] > 0 ? v[i] : fallback;
}

// The smallest divisor n of `uplinks` with n switches of `radix` ports holding `needed` ports;
// `uplinks` (one cable per pair) and fits = false when none does.
long long smallest_fitting_divisor(long long uplinks, long long radix, long long needed, bool& fits) {
  for (long long n = 1; n <= uplinks; ++n) {
    if (uplinks % n == 0 && n * radix >= needed) {
      fits = true;
      return n;
    }
  }
  fits = false;
  return uplinks;
}

long long leaves_needed(const PlaneShape& s) {
  switch (s.packing) {
    case Packing::kRail: return ceil_div(s.hosts, s.down) * s.rails;
    case Packing::kHost:
      if (s.rails <= s.down) return ceil_div(s.hosts, s.down / s.rails);
      return ceil_div(s.endpoint_ports(), s.down);
    case Packing::kPort: return ceil_div(s.endpoint_ports(), s.down);
  }
  return 0;
}

// Fills the upper tiers of a shape whose leaf tier (packing, down, leaves) is set.
void shape_upper_tiers(PlaneShape& s, long long u0, long long d1, long long u1, bool fat_tree) {
  if (s.tiers == 2) {
    s.leaves_per_pod = s.leaves;
    s.pods = 1;
    s.spines_per_pod = smallest_fitting_divisor(u0, s.radix, s.leaves * u0, s.spines_fit);
    s.leaf_spine_parallel = u0 / s.spines_per_pod;
    return;
  }
  if (fat_tree) {
    s.leaves_per_pod = d1;
  } else if (s.packing == Packing::kRail) {
    s.leaves_per_pod = d1 >= s.rails ? (d1 / s.rails) * s.rails : d1;
  } else {
    s.leaves_per_pod = d1;
  }
  s.pods = ceil_div(s.leaves, s.leaves_per_pod);
  s.spines_per_pod = u0;
  s.leaf_spine_parallel = 1;
  s.cores_per_group = smallest_fitting_divisor(u1, s.radix, s.pods * u1, s.cores_fit);
  s.spine_core_parallel = u1 / s.cores_per_group;
}

PlaneShape backend_shape(const ValidSpec& spec) {
  const ValidBackend& be = spec.backend;
  PlaneShape s;
  s.tiers = be.tiers == 3 ? 3 : 2;
  s.hosts = spec.node_count;
  s.rails = std::max(1, be.ports_per_host);
  s.radix = std::max(1, be.radix);
  const bool fat_tree = be.topology == TopologyKind::kFatTree;
  if (fat_tree) {
    const long long half = std::max(1LL, s.radix / 2);
    s.packing = Packing::kPort;
    s.down = half;
    const long long full = s.tiers == 3 ? s.radix * half : s.radix;
    s.leaves = std::max(full, leaves_needed(s));
    shape_upper_tiers(s, half, half, half, true);
    return s;
  }
  s.packing = be.topology == TopologyKind::kLeafSpine ? Packing::kHost : Packing::kRail;
  s.down = at_or(be.down, 0, std::max(1LL, s.radix / 2));
  s.leaves = leaves_needed(s);
  const long long u0 = at_or(be.up, 0, std::max(1LL, s.radix - s.down));
  const long long d1 = at_or(be.down, 1, std::max(1LL, s.radix / 2));
  const long long u1 = at_or(be.up, 1, std::max(1LL, s.radix - d1));
  shape_upper_tiers(s, u0, d1, u1, false);
  return s;
}

int frontend_ports_per_host(const ValidSpec& spec) {
  const ValidFrontend& fe = *spec.frontend;
  const long long ways = fe.speed.value() > 0 ? fe.nic.port_speed.value() / fe.speed.value() : 1;
  return std::max(1, spec.node.frontend_nics) * std::max(1, fe.nic.ports) * static_cast<int>(std::max(1LL, ways));
}

long long frontend_radix(const ValidFrontend& fe) {
  const int at_speed = fe.switch_model.ports_at(fe.speed);
  return std::max(1, at_speed > 0 ? at_speed : fe.switch_model.ports);
}

std::optional<PlaneShape> frontend_shape(const ValidSpec& spec) {
  if (!spec.frontend) return std::nullopt;
  PlaneShape s;
  s.tiers = 2;
  s.packing = Packing::kHost;
  s.hosts = spec.node_count;
  s.rails = frontend_ports_per_host(spec);
  s.radix = frontend_radix(*spec.frontend);
  const double ratio = std::max(0.0, spec.frontend->oversubscription);
  const long long up = std::max(1LL, static_cast<long long>(static_cast<double>(s.radix) / (1.0 + ratio)));
  s.down = std::max(1LL, s.radix - up);
  s.leaves = leaves_needed(s);
  shape_upper_tiers(s, up, 0, 0, false);
  return s;
}

// Vertex ids of one plane's switches.
struct PlaneLayout {
  long long base = 0;  // first leaf
  const PlaneShape* shape = nullptr;

  [[nodiscard]] VertexId leaf(long long l) const { return VertexId(base + l); }
  [[nodiscard]] VertexId spine(long long pod, long long j) const {
    return VertexId(base + shape->leaves + pod * shape->spines_per_pod + j);
  }
  [[nodiscard]] VertexId core(long long c) const { return VertexId(base + shape->leaves + shape->spines() + c); }
  // First vertex and count of a tier (1 leaf, 2 spine, 3 core).
  [[nodiscard]] std::pair<long long, long long> tier_range(int tier) const {
    switch (tier) {
      case 1: return {base, shape->leaves};
      case 2: return {base + shape->leaves, shape->spines()};
      case 3: return {base + shape->leaves + shape->spines(), shape->cores()};
      default: return {base, 0};
    }
  }
};

struct LinkAttributes {
  BitsPerSecond capacity;
  TimePs latency;
  std::int32_t media[3] = {-1, -1, -1};  // by link tier - 1
};

void add_switches(Topology& t, Network net, int plane, const PlaneShape& s) {
  const auto radix = static_cast<int>(s.radix);
  const bool pods = s.tiers == 3;
  for (long long l = 0; l < s.leaves; ++l) {
    const auto pod = static_cast<std::uint32_t>(pods ? l / s.leaves_per_pod : 0);
    const auto index = static_cast<std::uint32_t>(pods ? l % s.leaves_per_pod : l);
    t.add_vertex(VertexKind::kSwitch, net, plane, 1, pod, index, radix);
  }
  for (long long pod = 0; pod < s.pods; ++pod) {
    for (long long j = 0; j < s.spines_per_pod; ++j) {
      t.add_vertex(VertexKind::kSwitch, net, plane, 2, static_cast<std::uint32_t>(pod), static_cast<std::uint32_t>(j),
                   radix);
    }
  }
  for (long long c = 0; c < s.cores(); ++c) {
    t.add_vertex(VertexKind::kSwitch, net, plane, 3, 0, static_cast<std::uint32_t>(c), radix);
  }
}

void add_upper_links(Topology& t, const PlaneLayout& layout, const LinkAttributes& a) {
  const PlaneShape& s = *layout.shape;
  for (long long l = 0; l < s.leaves; ++l) {
    const long long pod = l / s.leaves_per_pod;
    for (long long j = 0; j < s.spines_per_pod; ++j) {
      for (long long x = 0; x < s.leaf_spine_parallel; ++x) {
        t.add_link(layout.leaf(l), layout.spine(pod, j), a.capacity, a.latency, a.media[1]);
      }
    }
  }
  if (s.tiers != 3) return;
  for (long long pod = 0; pod < s.pods; ++pod) {
    for (long long j = 0; j < s.spines_per_pod; ++j) {
      for (long long c = 0; c < s.cores_per_group; ++c) {
        for (long long x = 0; x < s.spine_core_parallel; ++x) {
          t.add_link(layout.spine(pod, j), layout.core(j * s.cores_per_group + c), a.capacity, a.latency, a.media[2]);
        }
      }
    }
  }
}

// The switch an extra link names, or invalid when it does not exist.
VertexId extra_end(const ValidSpec& spec, const PlaneShape& s, long long first_switch, int plane, int tier,
                   int index) {
  if (plane < 0 || plane >= spec.backend.planes || index < 0) return VertexId::invalid();
  const PlaneLayout layout{first_switch + plane * s.switches(), &s};
  const auto [first, count] = layout.tier_range(tier);
  if (index >= count) return VertexId::invalid();
  return VertexId(first + index);
}

void add_extra_links(Topology& t, const ValidSpec& spec, const PlaneShape& s, const LinkAttributes& a) {
  const auto first_switch = static_cast<long long>(t.backend_port_count());
  for (const auto& e : spec.backend.extra_links) {
    VertexId lo = extra_end(spec, s, first_switch, e.plane_a, e.tier_a, e.index_a);
    VertexId hi = extra_end(spec, s, first_switch, e.plane_b, e.tier_b, e.index_b);
    if (!lo.valid() || !hi.valid()) continue;
    if (e.tier_a > e.tier_b) std::swap(lo, hi);
    const int tier = std::clamp(std::max(e.tier_a, e.tier_b), 1, 3);
    t.add_link(lo, hi, a.capacity, a.latency, a.media[tier - 1]);
  }
}

LinkAttributes backend_attributes(const ValidSpec& spec, const Catalog& catalog) {
  LinkAttributes a;
  a.capacity = spec.backend.port_speed;
  a.latency = spec.backend.link_latency;
  for (int i = 0; i < 3; ++i) a.media[i] = choose_media(catalog, a.capacity, spec.backend.cable_length_m[i]);
  return a;
}

void build_backend(Topology& t, const ValidSpec& spec, const PlaneShape& s, const LinkAttributes& a) {
  const int planes = t.planes;
  for (long long h = 0; h < s.hosts; ++h) {
    for (long long r = 0; r < s.rails; ++r) {
      for (int p = 0; p < planes; ++p) {
        t.add_vertex(VertexKind::kPort, Network::kBackend, p, 0, static_cast<std::uint32_t>(h),
                     static_cast<std::uint32_t>(r), 1);
      }
    }
  }
  for (int p = 0; p < planes; ++p) add_switches(t, Network::kBackend, p, s);
  const auto first_switch = static_cast<long long>(t.backend_port_count());
  for (long long h = 0; h < s.hosts; ++h) {
    for (long long r = 0; r < s.rails; ++r) {
      const long long leaf = s.leaf_of(h, r);
      for (int p = 0; p < planes; ++p) {
        const PlaneLayout layout{first_switch + p * s.switches(), &s};
        t.add_link(t.port_of(HostId(h), static_cast<int>(r), p), layout.leaf(leaf), a.capacity, a.latency,
                   a.media[0]);
      }
    }
  }
  for (int p = 0; p < planes; ++p) add_upper_links(t, PlaneLayout{first_switch + p * s.switches(), &s}, a);
  add_extra_links(t, spec, s, a);
}

void build_frontend(Topology& t, const ValidSpec& spec, const Catalog& catalog, const PlaneShape& s) {
  LinkAttributes a;
  a.capacity = spec.frontend->speed;
  a.latency = spec.backend.link_latency;
  for (int i = 0; i < 2; ++i) a.media[i] = choose_media(catalog, a.capacity, spec.backend.cable_length_m[i]);
  t.frontend_ports_per_host = static_cast<int>(s.rails);
  t.frontend_begin = static_cast<std::uint32_t>(t.vertex_count());
  for (long long h = 0; h < s.hosts; ++h) {
    for (long long r = 0; r < s.rails; ++r) {
      t.add_vertex(VertexKind::kPort, Network::kFrontend, 0, 0, static_cast<std::uint32_t>(h),
                   static_cast<std::uint32_t>(r), 1);
    }
  }
  const auto first_switch = static_cast<long long>(t.vertex_count());
  add_switches(t, Network::kFrontend, 0, s);
  const PlaneLayout layout{first_switch, &s};
  for (long long h = 0; h < s.hosts; ++h) {
    for (long long r = 0; r < s.rails; ++r) {
      t.add_link(t.frontend_port_of(HostId(h), static_cast<int>(r)), layout.leaf(s.leaf_of(h, r)), a.capacity,
                 a.latency, a.media[0]);
    }
  }
  add_upper_links(t, layout, a);
}

Diagnostic error_at(const ValidSpec& spec, std::string field, std::string message) {
  return Diagnostic{{spec.file, 0, 0}, std::move(field), std::move(message)};
}

void check_shape(const ValidSpec& spec, const PlaneShape& s, const std::string& field, Diagnostics& out) {
  if (!s.spines_fit) {
    out.push_back(error_at(spec, field,
                           fmt::format("{} leaves per plane need more ports than the spine tier can hold with "
                                       "{}-port switches; use 3 tiers or a larger radix",
                                       s.leaves, s.radix)));
  }
  if (s.tiers == 3 && !s.cores_fit) {
    out.push_back(error_at(spec, field,
                           fmt::format("{} pods per plane need more ports than the core tier can hold with "
                                       "{}-port switches",
                                       s.pods, s.radix)));
  }
}

// An end of a `links:` entry whose index is beyond the switches of its tier, at its place in the spec.
void check_link_end(const ValidSpec& spec, const PlaneShape& s, int plane, int tier, int index,
                    const SourceLocation& where, const std::string& field, Diagnostics& out) {
  if (extra_end(spec, s, 0, plane, tier, index).valid()) return;
  static constexpr const char* kTiers[] = {"leaf", "spine", "core"};
  const long long count = PlaneLayout{0, &s}.tier_range(tier).second;
  const char* name = tier >= 1 && tier <= 3 ? kTiers[tier - 1] : "?";
  out.push_back(Diagnostic{where.line > 0 ? where : SourceLocation{spec.file, 0, 0}, field,
                           fmt::format("plane{}.{}.{}: the fabric has {} {} switch(es) per plane, plane{}.{}.0 to "
                                       "plane{}.{}.{}",
                                       plane, name, index, count, name, plane, name, plane, name, count - 1)});
}

}  // namespace

std::int32_t choose_media(const Catalog& catalog, BitsPerSecond speed, double length_m) {
  constexpr double kUnknownPower = std::numeric_limits<double>::infinity();
  std::int32_t best = -1;
  std::tuple<double, double, const std::string*> best_key{};
  for (std::size_t i = 0; i < catalog.optics.size(); ++i) {
    const OpticModel& o = catalog.optics[i];
    const int links = links_per_module(o, speed);
    if (links == 0 || o.reach_m < length_m) continue;
    const double power = o.power_w ? *o.power_w / links : kUnknownPower;
    const bool better = best < 0 || power < std::get<0>(best_key) ||
                        (power == std::get<0>(best_key) &&
                         (o.reach_m < std::get<1>(best_key) ||
                          (o.reach_m == std::get<1>(best_key) && o.id < *std::get<2>(best_key))));
    if (better) {
      best = static_cast<std::int32_t>(i);
      best_key = {power, o.reach_m, &o.id};
    }
  }
  return best;
}

int links_per_module(const OpticModel& optic, BitsPerSecond speed) {
  if (optic.links > 1 && optic.speed.value() == speed.value() * optic.links) return optic.links;
  return optic.speed == speed ? 1 : 0;
}

Diagnostics check_buildable(const ValidSpec& spec) {
  Diagnostics out;
  const PlaneShape s = backend_shape(spec);
  check_shape(spec, s, "backend", out);
  if (spec.backend.topology == TopologyKind::kFatTree) {
    const long long half = s.radix / 2;
    const long long capacity = s.tiers == 3 ? s.radix * half * half : s.radix * half;
    if (s.endpoint_ports() > capacity) {
      out.push_back(error_at(spec, "backend.k",
                             fmt::format("a {}-tier fat tree of k = {} has {} endpoint ports per plane; {} are needed",
                                         s.tiers, s.radix, capacity, s.endpoint_ports())));
    }
  }
  for (std::size_t i = 0; i < spec.backend.extra_links.size(); ++i) {
    const auto& e = spec.backend.extra_links[i];
    check_link_end(spec, s, e.plane_a, e.tier_a, e.index_a, e.where_a, fmt::format("backend.links[{}][0]", i), out);
    check_link_end(spec, s, e.plane_b, e.tier_b, e.index_b, e.where_b, fmt::format("backend.links[{}][1]", i), out);
  }
  if (const auto fe = frontend_shape(spec)) check_shape(spec, *fe, "frontend", out);
  return out;
}

Topology build_topology(const ValidSpec& spec, const Catalog& catalog) {
  const PlaneShape s = backend_shape(spec);
  const std::optional<PlaneShape> fe = frontend_shape(spec);
  Topology t;
  t.host_count = spec.node_count;
  t.ports_per_host = static_cast<int>(s.rails);
  t.planes = std::max(1, spec.backend.planes);
  t.tiers = s.tiers;
  t.gpus_per_host = spec.node.gpus;
  const long long planes = t.planes;
  long long vertices = planes * (s.endpoint_ports() + s.switches());
  long long links =
      planes * (s.endpoint_ports() + s.leaf_spine_links() + s.spine_core_links()) +
      static_cast<long long>(spec.backend.extra_links.size());
  if (fe) {
    vertices += fe->endpoint_ports() + fe->switches();
    links += fe->endpoint_ports() + fe->leaf_spine_links();
  }
  t.reserve(static_cast<std::size_t>(vertices), static_cast<std::size_t>(links));
  build_backend(t, spec, s, backend_attributes(spec, catalog));
  t.frontend_begin = static_cast<std::uint32_t>(t.vertex_count());
  if (fe) build_frontend(t, spec, catalog, *fe);
  t.finalize();
  return t;
}

}  // namespace ct
