#include "spec/validate.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "spec/routing_spec.h"
#include "yaml/yaml_reader.h"
#include "core/suggest.h"

namespace ct {

std::string to_string(TopologyKind k) {
  switch (k) {
    case TopologyKind::kRailOptimized: return "rail-optimized";
    case TopologyKind::kFatTree: return "fat-tree";
    case TopologyKind::kLeafSpine: return "leaf-spine";
  }
  return "?";
}

long long max_endpoints(int radix, const std::vector<int>& down, int tiers) {
  assert(tiers == 2 || tiers == 3);
  assert(down.size() >= static_cast<std::size_t>(tiers - 1));
  long long reach = static_cast<long long>(radix) * down[0];
  if (tiers == 3) reach *= down[1];
  return reach;
}

namespace {

constexpr std::array<int, 3> kPlaneCounts = {1, 2, 4};
constexpr const char* kTierNames[] = {"leaf", "spine", "core"};  // Topology tiers 1, 2, 3
// Cable length defaults per tier (leaf, spine, core): a design assumption, see valid_spec.h.
constexpr double kDefaultCableLengthM[3] = {30.0, 100.0, 500.0};

// a x b, or the largest long long when that overflows.
long long saturating_multiply(long long a, long long b) {
  long long product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::numeric_limits<long long>::max();
  return product;
}

// The down/up split of one tier for oversubscription ratio o: up = floor(radix / (1 + o)),
// down = radix - up (see valid_spec.h).
std::pair<int, int> split_ports(int radix, double ratio) {
  const int up = static_cast<int>(std::floor(static_cast<double>(radix) / (1.0 + ratio)));
  return {radix - up, up};
}

template <typename T>
std::string known_ids(const std::vector<T>& entries) {
  std::vector<std::string> ids;
  for (const auto& e : entries) ids.push_back(e.id);
  std::sort(ids.begin(), ids.end());
  return ids.empty() ? std::string("(the catalog has none)") : fmt::format("{}", fmt::join(ids, ", "));
}

template <typename T>
std::vector<std::string> ids_of(const std::vector<T>& entries) {
  std::vector<std::string> ids;
  for (const auto& e : entries) ids.push_back(e.id);
  return ids;
}

// "800G x64, 400G x128": the logical port speeds a switch runs and how many of each.
std::string switch_speeds(const SwitchModel& s) {
  std::vector<std::string> parts = {fmt::format("{} x{}", format_speed(s.port_speed), s.ports)};
  for (const auto& b : s.breakouts) parts.push_back(fmt::format("{} x{}", format_speed(b.speed), s.ports * b.ways));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The per-port speeds a NIC cage gives when split each of its supported ways.
std::string nic_speeds(const NicModel& n) {
  std::vector<std::string> parts;
  for (int ways : n.splits) {
    if (ways > 0) parts.push_back(format_speed(BitsPerSecond(n.port_speed.value() / ways)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

bool nic_runs(const NicModel& n, BitsPerSecond speed) {
  const auto cage = n.port_speed.value();
  return std::any_of(n.splits.begin(), n.splits.end(),
                     [&](int ways) { return ways > 0 && cage % ways == 0 && cage / ways == speed.value(); });
}

bool share_protocol(const std::vector<Protocol>& a, const std::vector<Protocol>& b) {
  if (a.empty() || b.empty()) return true;  // not stated in the catalog: nothing to check
  return std::any_of(a.begin(), a.end(), [&](Protocol p) { return std::find(b.begin(), b.end(), p) != b.end(); });
}

std::string protocols(const std::vector<Protocol>& ps) {
  std::vector<std::string> names;
  for (Protocol p : ps) names.push_back(to_string(p));
  return fmt::format("{}", fmt::join(names, "/"));
}

// A switch named in a `links:` entry: plane<p>.<leaf|spine|core>.<index>.
struct SwitchName {
  int plane = 0;
  int tier = 0;  // 1 leaf, 2 spine, 3 core
  int index = 0;
};

bool parse_int(std::string_view text, int& out) {
  if (text.empty() || text.size() > 9) return false;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  out = 0;
  for (char c : text) out = out * 10 + (c - '0');
  return true;
}

bool parse_switch_name(const std::string& text, SwitchName& out) {
  const auto first = text.find('.');
  const auto second = first == std::string::npos ? first : text.find('.', first + 1);
  if (second == std::string::npos || text.find('.', second + 1) != std::string::npos) return false;
  const std::string_view all(text);
  const std::string_view plane = all.substr(0, first);
  const std::string_view tier = all.substr(first + 1, second - first - 1);
  if (!plane.starts_with("plane") || !parse_int(plane.substr(5), out.plane)) return false;
  if (!parse_int(all.substr(second + 1), out.index)) return false;
  for (int t = 0; t < 3; ++t) {
    if (tier == kTierNames[t]) out.tier = t + 1;
  }
  return out.tier != 0;
}

}  // namespace

// Checks a Spec against the catalog rule by rule, recording every failure, and fills a ValidSpec.
// A rule whose inputs already failed is skipped, so that one mistake gives one diagnostic.
class SpecValidator {
 public:
  SpecValidator(const Spec& spec, const Catalog& catalog) : spec_(spec), catalog_(catalog) {}

  Result<ValidSpec> run() {
    out_.file = spec_.file;
    out_.routing_where = spec_.routing_where;
    out_.routing = spec_.routing;
    check_routing_spec(spec_.routing, errors_);
    check_name();
    check_nodes();
    check_backend();
    check_frontend();
    check_reliability();
    if (!errors_.empty()) {
      std::stable_sort(errors_.begin(), errors_.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::pair(a.where.line, a.where.column) < std::pair(b.where.line, b.where.column);
      });
      return errors_;
    }
    return std::move(out_);
  }

 private:
  void error(const SourceLocation& where, std::string field, std::string message) {
    errors_.push_back(Diagnostic{where, std::move(field), std::move(message), Severity::kError});
  }

  // Where a field was written, or where its enclosing block was when it was left out.
  template <typename T>
  static const SourceLocation& at(const Located<T>& field, const SourceLocation& block) {
    return field.present ? field.where : block;
  }
  SourceLocation file_start() const { return {spec_.file, 1, 1}; }
  const SourceLocation& backend_at() const { return spec_.backend.where; }

  // ---- name and nodes ----
  void check_name() {
    if (!spec_.name.present) {
      error(file_start(), "name", "required field is missing: a name for the cluster");
    } else if (spec_.name.value.empty()) {
      error(spec_.name.where, "name", "must not be empty");
    }
    out_.name = spec_.name.value;
  }

  void check_nodes() {
    const NodesSpec& n = spec_.nodes;
    if (n.where.line == 0) {
      error(file_start(), "nodes", "required field is missing: nodes: {model: <catalog node id>, count: <number>}");
      return;
    }
    if (!n.count.present) {
      error(n.where, "nodes.count", "required field is missing: how many nodes");
    } else if (n.count.value <= 0) {
      error(n.count.where, "nodes.count", fmt::format("must be a positive number of nodes, got {}", n.count.value));
    } else {
      out_.node_count = n.count.value;
    }
    if (!n.model.present) {
      error(n.where, "nodes.model", "required field is missing: a catalog node id; known: " + known_ids(catalog_.nodes));
      return;
    }
    node_ = catalog_.find_node(n.model.value);
    if (node_ == nullptr) {
      error(n.model.where, "nodes.model",
            fmt::format("unknown node model '{}'{}; known: {}", excerpt(n.model.value),
                        did_you_mean(n.model.value, ids_of(catalog_.nodes)), known_ids(catalog_.nodes)));
      return;
    }
    out_.node = *node_;
    nic_ = catalog_.find_nic(node_->backend_nic);
    if (nic_ == nullptr) {
      error(n.model.where, "nodes.model",
            fmt::format("the catalog's node '{}' names backend NIC '{}', which is not in the catalog; known NICs: {}",
                        node_->id, node_->backend_nic, known_ids(catalog_.nics)));
    } else if (node_->backend_nics <= 0) {
      error(n.model.where, "nodes.model", fmt::format("the catalog's node '{}' has no backend NICs", node_->id));
      nic_ = nullptr;
    } else {
      out_.backend.nic = *nic_;
      out_.backend.ports_per_host = node_->backend_nics;
    }
  }

  // ---- backend ----
  void check_backend() {
    if (!spec_.backend.present) {
      error(file_start(), "backend", "required field is missing: the backend (GPU) network");
      return;
    }
    check_topology();
    check_tiers();
    check_planes();
    check_switch();
    check_port_speed();
    check_k();
    check_oversubscription();
    derive_ports();
    check_capacity();
    check_latency_and_cables();
    check_links();
  }

  void check_topology() {
    const auto& t = spec_.backend.topology;
    if (!t.present) return;  // default rail-optimized
    static const std::vector<std::pair<std::string, TopologyKind>> kinds = {
        {"rail-optimized", TopologyKind::kRailOptimized},
        {"fat-tree", TopologyKind::kFatTree},
        {"leaf-spine", TopologyKind::kLeafSpine}};
    for (const auto& [name, kind] : kinds) {
      if (t.value == name) {
        out_.backend.topology = kind;
        return;
      }
    }
    topology_ok_ = false;
    error(t.where, "backend.topology",
          fmt::format("unknown topology '{}'{}; expected rail-optimized, fat-tree or leaf-spine", excerpt(t.value),
                      did_you_mean(t.value, {"rail-optimized", "fat-tree", "leaf-spine"})));
  }

  bool fat_tree() const { return topology_ok_ && out_.backend.topology == TopologyKind::kFatTree; }

  void check_tiers() {
    const auto& t = spec_.backend.tiers;
    out_.backend.tiers = fat_tree() ? 3 : 2;
    if (!t.present) return;
    if (t.value != 2 && t.value != 3) {
      tiers_ok_ = false;
      error(t.where, "backend.tiers", fmt::format("must be 2 (leaf, spine) or 3 (leaf, spine, core), got {}", t.value));
      return;
    }
    out_.backend.tiers = static_cast<int>(t.value);
  }

  void check_planes() {
    const auto& p = spec_.backend.planes;
    if (!p.present) return;  // default 1
    if (std::find(kPlaneCounts.begin(), kPlaneCounts.end(), p.value) == kPlaneCounts.end()) {
      planes_ok_ = false;
      error(p.where, "backend.planes", fmt::format("must be 1, 2 or 4, got {}", p.value));
      return;
    }
    out_.backend.planes = static_cast<int>(p.value);
    if (nic_ != nullptr && !nic_->can_split(out_.backend.planes)) {
      planes_ok_ = false;
      error(p.where, "backend.planes",
            fmt::format("{} (the backend NIC of {}) cannot split its {} port into {} planes (supported splits: {})",
                        nic_->id, node_->id, format_speed(nic_->port_speed), p.value, fmt::join(nic_->splits, ", ")));
    }
  }

  void check_switch() {
    const auto& s = spec_.backend.switch_model;
    if (!s.present) {
      error(backend_at(), "backend.switch",
            "required field is missing: a catalog switch id; known: " + known_ids(catalog_.switches));
      return;
    }
    switch_ = catalog_.find_switch(s.value);
    if (switch_ == nullptr) {
      error(s.where, "backend.switch",
            fmt::format("unknown switch model '{}'{}; known: {}", excerpt(s.value),
                        did_you_mean(s.value, ids_of(catalog_.switches)), known_ids(catalog_.switches)));
      return;
    }
    out_.backend.switch_model = *switch_;
    out_.backend.switch_where = s.where;
    if (nic_ != nullptr && !share_protocol(nic_->protocols, switch_->protocols)) {
      error(s.where, "backend.switch",
            fmt::format("{} runs {} but the backend NIC {} runs {}: no protocol in common", switch_->id,
                        protocols(switch_->protocols), nic_->id, protocols(nic_->protocols)));
    }
  }

  void check_port_speed() {
    const auto& ps = spec_.backend.port_speed;
    BitsPerSecond speed;
    if (ps.present) {
      auto parsed = parse_speed(ps.value);
      if (!parsed) {
        error(ps.where, "backend.port_speed", parsed.errors().front().message);
        return;
      }
      speed = parsed.value();
      // speed x planes > NIC speed, written so that no product can overflow.
      if (nic_ != nullptr && planes_ok_ && speed.value() > nic_->port_speed.value() / out_.backend.planes) {
        error(ps.where, "backend.port_speed",
              fmt::format("{} is faster than {}'s {} port split into {} plane(s) ({} per plane)", format_speed(speed),
                          nic_->id, format_speed(nic_->port_speed), out_.backend.planes,
                          format_speed(BitsPerSecond(nic_->port_speed.value() / out_.backend.planes))));
        return;
      }
    } else {
      if (nic_ == nullptr || !planes_ok_) return;
      speed = BitsPerSecond(nic_->port_speed.value() / out_.backend.planes);
    }
    out_.backend.port_speed = speed;
    out_.backend.port_speed_where = at(ps, backend_at());
    if (switch_ == nullptr) return;
    const int radix = switch_->ports_at(speed);
    if (radix == 0) {
      error(at(ps, backend_at()), "backend.port_speed",
            fmt::format("{} cannot run {} ports{}; it runs {}", switch_->id, format_speed(speed),
                        ps.present ? "" : " (the default: NIC speed / planes)", switch_speeds(*switch_)));
      return;
    }
    out_.backend.radix = radix;
  }

  void check_k() {
    const auto& k = spec_.backend.k;
    if (k.present && topology_ok_ && !fat_tree()) {
      error(k.where, "backend.k", "only for topology: fat-tree");
      return;
    }
    if (!fat_tree() || out_.backend.radix == 0) return;
    if (!k.present) {
      if (out_.backend.radix % 2 != 0) {
        error(backend_at(), "backend.k",
              fmt::format("a fat-tree needs an even k; {} has an odd radix {} at {}: set k", switch_->id,
                          out_.backend.radix, format_speed(out_.backend.port_speed)));
        out_.backend.radix = 0;
      }
      return;
    }
    if (k.value < 2 || k.value % 2 != 0) {
      error(k.where, "backend.k", fmt::format("must be even and at least 2, got {}", k.value));
      out_.backend.radix = 0;
    } else if (k.value > out_.backend.radix) {
      error(k.where, "backend.k",
            fmt::format("k = {} needs {} ports per switch but {} has {} at {}", k.value, k.value, switch_->id,
                        out_.backend.radix, format_speed(out_.backend.port_speed)));
      out_.backend.radix = 0;
    } else {
      out_.backend.radix = static_cast<int>(k.value);
    }
  }

  void check_oversubscription() {
    const BackendSpec& b = spec_.backend;
    if (!tiers_ok_) return;
    const std::size_t expected = static_cast<std::size_t>(out_.backend.tiers - 1);
    out_.backend.oversubscription.assign(expected, 1.0);
    if (b.oversubscription_where.line == 0) return;
    if (b.oversubscription.size() != expected) {
      ratios_ok_ = false;
      error(b.oversubscription_where, "backend.oversubscription",
            fmt::format("{} tiers have {} tier(s) with uplinks ({}): expected {} ratio(s), got {}",
                        out_.backend.tiers, expected, expected == 1 ? "leaf" : "leaf, spine", expected,
                        b.oversubscription.size()));
      return;
    }
    for (std::size_t t = 0; t < expected; ++t) {
      const auto& ratio = b.oversubscription[t];
      const std::string field = fmt::format("backend.oversubscription[{}]", t);
      if (ratio.value < 1.0) {
        ratios_ok_ = false;
        error(ratio.where, field, fmt::format("a down:up ratio must be at least 1, got {:g}", ratio.value));
      } else if (fat_tree() && ratio.value != 1.0) {
        ratios_ok_ = false;
        error(ratio.where, field, fmt::format("a fat-tree is non-blocking: the ratio must be 1, got {:g}", ratio.value));
      } else {
        out_.backend.oversubscription[t] = ratio.value;
      }
    }
  }

  void derive_ports() {
    ValidBackend& vb = out_.backend;
    if (vb.radix == 0 || !tiers_ok_ || !ratios_ok_) return;
    vb.down.clear();
    vb.up.clear();
    for (std::size_t t = 0; t < vb.oversubscription.size(); ++t) {
      const auto [down, up] = split_ports(vb.radix, vb.oversubscription[t]);
      if (up < 1) {
        const auto& written = spec_.backend.oversubscription;
        error(t < written.size() ? written[t].where : backend_at(), fmt::format("backend.oversubscription[{}]", t),
              fmt::format("a down:up ratio of {:g} needs at least {:g} ports per switch, but {} has {} at {}: "
                          "no port would be left for an uplink",
                          vb.oversubscription[t], 1.0 + vb.oversubscription[t], switch_->id, vb.radix,
                          format_speed(vb.port_speed)));
        return;
      }
      vb.down.push_back(down);
      vb.up.push_back(up);
    }
    if (vb.topology == TopologyKind::kLeafSpine && vb.ports_per_host > vb.down[0]) {
      error(at(spec_.backend.topology, backend_at()), "backend.topology",
            fmt::format("leaf-spine puts all {} backend NICs of a host on one leaf, but a leaf has only {} host ports",
                        vb.ports_per_host, vb.down[0]));
      return;
    }
    ports_ok_ = true;
  }

  void check_capacity() {
    const ValidBackend& vb = out_.backend;
    if (!ports_ok_ || out_.node_count == 0 || nic_ == nullptr) return;
    const long long needed = saturating_multiply(out_.node_count, vb.ports_per_host);
    const long long reach = max_endpoints(vb.radix, vb.down, vb.tiers);
    if (needed <= reach) return;
    const std::string need = fmt::format("{} nodes x {} backend NICs need {} endpoint ports per plane", out_.node_count,
                                         vb.ports_per_host, needed);
    std::string message;
    if (fat_tree()) {
      message = fmt::format("{}, but a {}-tier k = {} fat-tree reaches {} = {}; use more planes or a larger k/switch",
                            need, vb.tiers, vb.radix, vb.tiers == 3 ? "k^3/4" : "k^2/2", reach);
    } else {
      // What the other tier count would reach: 2 tiers with this leaf split; 3 tiers with this
      // leaf split and the written (or a non-blocking) spine split.
      const int down1 = vb.tiers == 3 ? vb.down[1] : split_ports(vb.radix, 1.0).first;
      const long long reach2 = max_endpoints(vb.radix, {vb.down[0]}, 2);
      const long long reach3 = max_endpoints(vb.radix, {vb.down[0], down1}, 3);
      const std::string design = fmt::format("{} at {} (radix {}, {} down / {} up per leaf)", switch_->id,
                                             format_speed(vb.port_speed), vb.radix, vb.down[0], vb.up[0]);
      message = vb.tiers == 2
                    ? fmt::format("{}, but 2 tiers of {} reach {}; 3 tiers reach {}", need, design, reach2, reach3)
                    : fmt::format("{}, but 3 tiers of {} reach {} (2 tiers: {})", need, design, reach3, reach2);
      if (needed > reach3) message += ": use more planes, a larger switch or fewer nodes";
    }
    error(at(spec_.backend.tiers, backend_at()), "backend.tiers", message);
  }

  void check_latency_and_cables() {
    const BackendSpec& b = spec_.backend;
    ValidBackend& vb = out_.backend;
    if (b.link_latency_ns.present && b.link_latency_ns.value < 0) {
      error(b.link_latency_ns.where, "backend.link_latency_ns",
            fmt::format("must be zero or positive, got {}", b.link_latency_ns.value));
    } else if (b.link_latency_ns.present) {
      vb.link_latency = nanoseconds(b.link_latency_ns.value);
    }
    const Located<double>* lengths[3] = {&b.cable_length_leaf_m, &b.cable_length_spine_m, &b.cable_length_core_m};
    for (int t = 0; t < 3; ++t) {
      vb.cable_length_m[t] = kDefaultCableLengthM[t];
      vb.cable_length_where[t] = at(*lengths[t], backend_at());
      if (!lengths[t]->present) continue;
      if (lengths[t]->value <= 0) {
        error(lengths[t]->where, fmt::format("backend.cable_length_m.{}", kTierNames[t]),
              fmt::format("must be a positive length in metres, got {:g}", lengths[t]->value));
      } else {
        vb.cable_length_m[t] = lengths[t]->value;
      }
    }
  }

  // One end of an extra link, or nullopt after reporting why it is not a switch of this design.
  std::optional<SwitchName> link_end(const Located<std::string>& end, const std::string& field) {
    SwitchName name;
    if (!parse_switch_name(end.value, name)) {
      error(end.where, field,
            fmt::format("'{}' is not a switch name: expected plane<p>.<leaf|spine|core>.<index>, e.g. plane0.spine.3",
                        excerpt(end.value)));
      return std::nullopt;
    }
    if (planes_ok_ && name.plane >= out_.backend.planes) {
      error(end.where, field,
            fmt::format("plane {} does not exist: the design has {} plane(s), numbered from 0", name.plane,
                        out_.backend.planes));
      return std::nullopt;
    }
    if (tiers_ok_ && name.tier > out_.backend.tiers) {
      error(end.where, field, fmt::format("there is no core tier in a {}-tier design", out_.backend.tiers));
      return std::nullopt;
    }
    return name;
  }

  void check_links() {
    const auto& links = spec_.backend.links;
    for (std::size_t i = 0; i < links.size(); ++i) {
      const std::string field = fmt::format("backend.links[{}]", i);
      const auto a = link_end(links[i].a, field + "[0]");
      const auto b = link_end(links[i].b, field + "[1]");
      if (!a || !b) continue;
      if (a->plane != b->plane) {
        error(links[i].where, field,
              fmt::format("links plane {} to plane {}: the planes of a multi-plane design are separate networks "
                          "and share no cable",
                          a->plane, b->plane));
      } else if (a->tier == b->tier && a->index == b->index) {
        error(links[i].where, field, fmt::format("links {} to itself", links[i].a.value));
      } else {
        out_.backend.extra_links.push_back(
            {a->plane, a->tier, a->index, b->plane, b->tier, b->index, links[i].a.where, links[i].b.where});
      }
    }
  }

  // ---- frontend ----
  void check_frontend() {
    const FrontendSpec& fe = spec_.frontend;
    if (!fe.present) return;
    ValidFrontend v;
    const NicModel* nic = nullptr;
    if (fe.nic.present) {
      nic = catalog_.find_nic(fe.nic.value);
      if (nic == nullptr) {
        error(fe.nic.where, "frontend.nic",
              fmt::format("unknown NIC model '{}'{}; known: {}", excerpt(fe.nic.value),
                          did_you_mean(fe.nic.value, ids_of(catalog_.nics)), known_ids(catalog_.nics)));
      }
    } else if (node_ != nullptr) {
      nic = catalog_.find_nic(node_->frontend_nic);
      if (nic == nullptr) {
        error(fe.where, "frontend.nic",
              fmt::format("required field is missing: node '{}' names no frontend NIC in the catalog; known: {}",
                          node_->id, known_ids(catalog_.nics)));
      }
    }
    BitsPerSecond speed;
    bool speed_ok = true;
    if (fe.speed.present) {
      auto parsed = parse_speed(fe.speed.value);
      if (parsed) speed = parsed.value();
      if (!parsed) {
        error(fe.speed.where, "frontend.speed", parsed.errors().front().message);
        speed_ok = false;
      } else if (nic != nullptr && !nic_runs(*nic, speed)) {
        error(fe.speed.where, "frontend.speed",
              fmt::format("{} cannot run {} ports; it runs {}", nic->id, format_speed(speed), nic_speeds(*nic)));
        speed_ok = false;
      }
    } else if (nic != nullptr) {
      speed = nic->port_speed;
    } else {
      speed_ok = false;
    }
    const SwitchModel* sw = nullptr;
    if (!fe.switch_model.present) {
      error(fe.where, "frontend.switch",
            "required field is missing: a catalog switch id; known: " + known_ids(catalog_.switches));
    } else if (sw = catalog_.find_switch(fe.switch_model.value); sw == nullptr) {
      error(fe.switch_model.where, "frontend.switch",
            fmt::format("unknown switch model '{}'{}; known: {}", excerpt(fe.switch_model.value),
                        did_you_mean(fe.switch_model.value, ids_of(catalog_.switches)), known_ids(catalog_.switches)));
    } else if (speed_ok && sw->ports_at(speed) == 0) {
      error(at(fe.speed, fe.switch_model.where), "frontend.speed",
            fmt::format("{} cannot run {} ports; it runs {}", sw->id, format_speed(speed), switch_speeds(*sw)));
    } else if (nic != nullptr && !share_protocol(nic->protocols, sw->protocols)) {
      error(fe.switch_model.where, "frontend.switch",
            fmt::format("{} runs {} but the frontend NIC {} runs {}: no protocol in common", sw->id,
                        protocols(sw->protocols), nic->id, protocols(nic->protocols)));
    }
    if (fe.oversubscription.present && fe.oversubscription.value < 1.0) {
      error(fe.oversubscription.where, "frontend.oversubscription",
            fmt::format("a down:up ratio must be at least 1, got {:g}", fe.oversubscription.value));
    }
    if (nic == nullptr || sw == nullptr) return;
    v.nic = *nic;
    v.speed = speed;
    v.speed_where = at(fe.speed, fe.where);
    v.switch_model = *sw;
    if (fe.oversubscription.present) v.oversubscription = fe.oversubscription.value;
    out_.frontend = std::move(v);
  }

  // ---- the reliability: block (shape and ranges only; the analysis supplies defaults) ----
  void check_reliability() {
    const ReliabilitySpec& r = spec_.reliability;
    if (!r.present) return;
    ValidReliability& v = out_.reliability;
    const auto positive = [&](const Located<double>& f, const char* field, std::optional<double>& out, bool zero_ok) {
      if (!f.present) return;
      if (f.value < 0 || (!zero_ok && f.value == 0)) {
        error(f.where, field, fmt::format("must be {}, got {:g}", zero_ok ? "at least 0" : "positive", f.value));
        return;
      }
      out = f.value;
    };
    if (r.job_gpus.present) {
      const long long gpus = out_.gpu_count();
      if (r.job_gpus.value < 1 || (gpus > 0 && r.job_gpus.value > gpus)) {
        error(r.job_gpus.where, "reliability.job_gpus",
              fmt::format("must be between 1 and the cluster's {} GPUs, got {}", gpus, r.job_gpus.value));
      } else {
        v.job_gpus = r.job_gpus.value;
      }
    }
    positive(r.horizon_days, "reliability.horizon_days", v.horizon_days, false);
    positive(r.checkpoint_hours, "reliability.checkpoint_hours", v.checkpoint_hours, false);
    positive(r.restart_minutes, "reliability.restart_minutes", v.restart_minutes, true);
    if (r.comm_fraction.present) {
      if (r.comm_fraction.value < 0 || r.comm_fraction.value > 1) {
        error(r.comm_fraction.where, "reliability.comm_fraction",
              fmt::format("a share of the step time, between 0 and 1; got {:g}", r.comm_fraction.value));
      } else {
        v.comm_fraction = r.comm_fraction.value;
      }
    }
    if (r.spare_hosts.present) {
      if (r.spare_hosts.value < 0) {
        error(r.spare_hosts.where, "reliability.spare_hosts", fmt::format("must be at least 0, got {}", r.spare_hosts.value));
      } else {
        v.spare_hosts = r.spare_hosts.value;
      }
    }
    if (r.degraded.present) {
      if (r.degraded.value == "drain" || r.degraded.value == "continue") {
        v.drain_degraded = r.degraded.value == "drain";
      } else {
        error(r.degraded.where, "reliability.degraded",
              fmt::format("expected drain or continue, got '{}'", excerpt(r.degraded.value)));
      }
    }
    if (r.split.present) {
      if (r.split.value == "ecmp" || r.split.value == "adaptive") {
        v.adaptive_split = r.split.value == "adaptive";
      } else {
        error(r.split.where, "reliability.split", fmt::format("expected ecmp or adaptive, got '{}'", excerpt(r.split.value)));
      }
    }
    const std::pair<const ElementFiguresSpec*, std::pair<const char*, bool>> blocks[] = {
        {&r.afr, {"afr", true}}, {&r.repair_hours, {"repair_hours", false}}};
    for (const auto& [figures, what] : blocks) {
      const Located<double>* by_element[kFailureElementCount] = {&figures->nic, &figures->link, &figures->leaf,
                                                                  &figures->spine, &figures->core};
      auto& out = what.second ? v.afr : v.repair_hours;
      for (int k = 0; k < kFailureElementCount; ++k) {
        const std::string field =
            fmt::format("reliability.{}.{}", what.first, to_string(static_cast<FailureElement>(k)));
        positive(*by_element[k], field.c_str(), out[k], what.second);
      }
    }
  }

  const Spec& spec_;
  const Catalog& catalog_;
  Diagnostics errors_;
  ValidSpec out_;
  const NodeModel* node_ = nullptr;
  const NicModel* nic_ = nullptr;  // the backend NIC
  const SwitchModel* switch_ = nullptr;
  bool topology_ok_ = true;
  bool tiers_ok_ = true;
  bool planes_ok_ = true;
  bool ratios_ok_ = true;
  bool ports_ok_ = false;  // radix, down and up are derived
};

Result<ValidSpec> validate(const Spec& spec, const Catalog& catalog) { return SpecValidator(spec, catalog).run(); }

namespace {

// True when `field` is `reported` or lies inside it (reported.x, reported[i]).
bool within(const std::string& field, const std::string& reported) {
  if (!field.starts_with(reported)) return false;
  return field.size() == reported.size() || field[reported.size()] == '.' || field[reported.size()] == '[';
}

}  // namespace

Result<ValidSpec> validate_reading(const SpecReading& reading, const Catalog& catalog) {
  if (reading.errors.empty()) return validate(reading.spec, catalog);
  Diagnostics all = reading.errors;
  const bool whole_file = !reading.readable || std::any_of(all.begin(), all.end(), [](const Diagnostic& d) {
    return d.field.empty();
  });
  if (whole_file) return all;
  auto valid = validate(reading.spec, catalog);
  if (!valid) {
    for (const Diagnostic& d : valid.errors()) {
      const bool repeat = std::any_of(reading.errors.begin(), reading.errors.end(),
                                      [&](const Diagnostic& r) { return within(d.field, r.field); });
      if (!repeat) all.push_back(d);
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.where.line, a.where.column) < std::tie(b.where.line, b.where.column);
  });
  return all;
}

}  // namespace ct
