#include "fabric/name_directory.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "routing/port_address.h"
#include "core/suggest.h"
#include "core/text.h"

namespace ct {
namespace {

// A canonical decimal (no sign, no leading zero, below 2^32) at the front of `rest`, consumed.
bool take_canonical(std::string_view& rest, std::uint32_t& out) {
  std::size_t n = 0;
  std::uint64_t v = 0;
  while (n < rest.size() && n < 11 && rest[n] >= '0' && rest[n] <= '9') v = v * 10 + static_cast<std::uint64_t>(rest[n++] - '0');
  if (n == 0 || (n > 1 && rest[0] == '0') || v > 0xFFFF'FFFFU) return false;
  out = static_cast<std::uint32_t>(v);
  rest.remove_prefix(n);
  return true;
}

// The host number a misspelt name holds (the first run of digits), when the fabric has that host.
std::optional<std::uint32_t> host_number_in(std::string_view name, const Topology& t) {
  const auto first = name.find_first_of("0123456789");
  if (first == std::string_view::npos) return std::nullopt;
  std::string_view rest = name.substr(first);
  std::uint32_t host = 0;
  if (!take_canonical(rest, host) || host >= t.host_count) return std::nullopt;
  return host;
}

}  // namespace

NameDirectory::NameDirectory(const Topology& topology) : topology_(&topology) {}

void NameDirectory::index() const {
  std::call_once(indexed_, [this] {
    const Topology& t = *topology_;
    vertex_by_name_.reserve(t.vertex_count());
    for (std::uint32_t v = 0; v < t.vertex_count(); ++v) vertex_by_name_.emplace(t.vertex_name(VertexId(v)), VertexId(v));
  });
}

void NameDirectory::index_cables() const {
  std::call_once(cables_indexed_, [this] {
    cable_index_ = std::make_unique<CableIndex>(*topology_);
    cables_ready_.store(true, std::memory_order_release);
  });
}

void NameDirectory::index_switches() const {
  if (switches_ready_.load(std::memory_order_acquire)) return;
  std::call_once(switches_indexed_, [this] {
    const Topology& t = *topology_;
    const auto end = static_cast<std::uint32_t>(t.frontend_begin > 0 ? t.frontend_begin : t.vertex_count());
    const auto begin = static_cast<std::uint32_t>(std::min<std::size_t>(t.backend_port_count(), end));
    for (std::uint32_t v = begin; v < end; ++v) {
      if (t.kind[v] == VertexKind::kSwitch) switch_pods_ = std::max(switch_pods_, t.group[v] + 1);
    }
    const std::size_t groups = static_cast<std::size_t>(std::max(t.planes, 1)) * 4 * switch_pods_;
    switch_first_.assign(groups, 0);
    switch_count_.assign(groups, 0);
    // A group is indexed when its switches are consecutive vertices numbered by index from 0 (as
    // the topology numbers them); any other group keeps count 0 and its names go through vertex().
    std::vector<std::uint8_t> broken(groups, 0);
    for (std::uint32_t v = begin; v < end; ++v) {
      if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend || t.tier[v] > 3) continue;
      const std::size_t g = (static_cast<std::size_t>(t.plane[v]) * 4 + t.tier[v]) * switch_pods_ + t.group[v];
      if (g >= groups) continue;
      if (switch_count_[g] == 0 && t.index[v] == 0) switch_first_[g] = v;
      if (t.index[v] != switch_count_[g] || v != switch_first_[g] + t.index[v]) broken[g] = 1;
      ++switch_count_[g];
    }
    for (std::size_t g = 0; g < groups; ++g) {
      if (broken[g] != 0) switch_count_[g] = 0;
    }
    switches_ready_.store(true, std::memory_order_release);
  });
}

VertexId NameDirectory::printed_vertex(std::string_view name) const {
  const Topology& t = *topology_;
  std::string_view rest = name;
  std::uint32_t plane = 0;
  if (take_word(rest, "host")) {
    std::uint32_t host = 0;
    std::uint32_t rail = 0;
    if (!take_canonical(rest, host) || !take_word(rest, "/nic") || !take_canonical(rest, rail)) return VertexId::invalid();
    if (t.planes > 1 && (!take_word(rest, "/p") || !take_canonical(rest, plane))) return VertexId::invalid();
    if (!rest.empty() || host >= t.host_count || rail >= static_cast<std::uint32_t>(t.ports_per_host) ||
        plane >= static_cast<std::uint32_t>(t.planes)) {
      return VertexId::invalid();
    }
    return t.port_of(HostId(host), static_cast<int>(rail), static_cast<int>(plane));
  }
  if (!take_word(rest, "p") || !take_canonical(rest, plane) || !take_word(rest, "/")) return VertexId::invalid();
  std::uint32_t pod = 0;
  const bool pod_form = take_word(rest, "pod");
  if (pod_form && (!take_canonical(rest, pod) || !take_word(rest, "/"))) return VertexId::invalid();
  std::uint32_t tier = 0;
  if (take_word(rest, "leaf/")) {
    tier = 1;
  } else if (take_word(rest, "spine/")) {
    tier = 2;
  } else if (take_word(rest, "core/")) {
    tier = 3;
  } else {
    return VertexId::invalid();
  }
  std::uint32_t i = 0;
  if (!take_canonical(rest, i) || !rest.empty() || pod_form != (t.tiers == 3 && tier < 3)) return VertexId::invalid();
  index_switches();
  if (plane >= static_cast<std::uint32_t>(t.planes) || pod >= switch_pods_) return VertexId::invalid();
  const std::size_t g = (static_cast<std::size_t>(plane) * 4 + tier) * switch_pods_ + pod;
  if (i >= switch_count_[g]) return VertexId::invalid();
  return VertexId(switch_first_[g] + i);
}

Diagnostic NameDirectory::unknown(std::string_view name, const SourceLocation& where, std::string_view field,
                                  bool switches_only) const {
  const Topology& t = *topology_;
  // Candidates for did-you-mean: every name of the kind asked for (the error path only).
  const std::string word(name);
  std::vector<std::string> candidates;
  for (const auto& [n, v] : vertex_by_name_) {
    if (switches_only && t.kind[v.value()] != VertexKind::kSwitch) continue;
    candidates.push_back(n);
  }
  std::sort(candidates.begin(), candidates.end());
  std::string hint = did_you_mean(word, candidates);
  if (hint.empty() && !t.label.empty()) {
    hint = fmt::format(" (this fabric names its {} hosts and {} switches by their node descriptions in its "
                       "ibnetdiscover file, e.g. '{}')",
                       t.host_count, t.vertex_count() - static_cast<std::size_t>(t.host_count), t.label.front());
  } else if (hint.empty()) {
    hint = fmt::format(" (this fabric has hosts host0..host{} with {} NIC(s) each, {} plane(s), {} tier(s))",
                       t.host_count - 1, t.ports_per_host, t.planes, t.tiers);
  }
  return Diagnostic{where, std::string(field),
                    fmt::format("no {} named '{}'{}", switches_only ? "switch" : "port or switch", word, hint)};
}

Result<VertexId> NameDirectory::vertex(std::string_view name, const SourceLocation& where, std::string_view field) const {
  index();
  name = trim(name, kWhiteSpace);
  if (auto it = vertex_by_name_.find(std::string(name)); it != vertex_by_name_.end()) return it->second;
  if (auto port = backend_port(name, where, field)) return port.value();
  return unknown(name, where, field, false);
}

Result<VertexId> NameDirectory::backend_switch(std::string_view name, const SourceLocation& where,
                                               std::string_view field) const {
  index();
  name = trim(name, kWhiteSpace);
  const Topology& t = *topology_;
  if (auto it = vertex_by_name_.find(std::string(name)); it != vertex_by_name_.end()) {
    const auto v = it->second.value();
    if (t.kind[v] == VertexKind::kSwitch && t.network[v] == Network::kBackend) return it->second;
    return Diagnostic{where, std::string(field), fmt::format("'{}' is not a backend switch (e.g. p0/leaf/0)", name)};
  }
  return unknown(name, where, field, true);
}

Result<VertexId> NameDirectory::backend_port(std::string_view name, const SourceLocation& where,
                                             std::string_view field) const {
  name = trim(name, kWhiteSpace);
  const std::string text(name);
  std::optional<VertexId> v;
  if (auto a = parse_ipv4(text); a && addressable(*topology_)) v = port_of_address(*topology_, *a);
  if (!v) v = port_spelled(text);
  if (v) return *v;
  index();
  if (!topology_->label.empty()) {  // an imported fabric: its ports by their labels
    const auto it = vertex_by_name_.find(text);
    if (it != vertex_by_name_.end() && topology_->kind[it->second.value()] == VertexKind::kPort) return it->second;
    if (it != vertex_by_name_.end()) {
      return Diagnostic{where, std::string(field), fmt::format("'{}' is a switch, not a host's port", text)};
    }
    return unknown(name, where, field, false);
  }
  std::string hint = port_hint(text);
  if (hint.empty()) hint = fmt::format(" (e.g. host0/nic1{})", topology_->planes > 1 ? "/p0" : "");
  return Diagnostic{where, std::string(field),
                    fmt::format("'{}' is no backend port{}; this fabric has hosts host0..host{}, {} NIC(s) each, {} plane(s)",
                                text, hint, topology_->host_count - 1, topology_->ports_per_host, topology_->planes)};
}

std::string NameDirectory::port_hint(std::string_view name) const {
  const Topology& t = *topology_;
  const auto host = host_number_in(name, t);
  if (!t.label.empty() || !host) return "";
  std::vector<std::string> candidates;
  for (int rail = 0; rail < t.ports_per_host; ++rail) {
    candidates.push_back(fmt::format("host{}/nic{}", *host, rail));
    for (int plane = 0; t.planes > 1 && plane < t.planes; ++plane) {
      candidates.push_back(fmt::format("host{}/nic{}/p{}", *host, rail, plane));
    }
  }
  return did_you_mean(std::string(name), candidates);
}

// The port grammar; the numbers as std::from_chars reads them ("host03" is host 3).
std::optional<VertexId> NameDirectory::port_spelled(std::string_view name) const {
  const Topology& t = *topology_;
  std::string_view rest(name);
  long long host = 0;
  long long rail = 0;
  long long plane = 0;
  if (!take_word(rest, "host") || !take_number(rest, host)) return std::nullopt;
  if (take_word(rest, "/nic")) {
    if (!take_number(rest, rail)) return std::nullopt;
    if (take_word(rest, "/p") && !take_number(rest, plane)) return std::nullopt;
  }
  if (!rest.empty()) return std::nullopt;
  if (host < 0 || rail < 0 || plane < 0) return std::nullopt;
  if (host >= t.host_count || rail >= t.ports_per_host || plane >= t.planes) return std::nullopt;
  return t.port_of(HostId(static_cast<std::uint32_t>(host)), static_cast<int>(rail), static_cast<int>(plane));
}

Result<std::uint32_t> NameDirectory::gpu(std::string_view name, const SourceLocation& where,
                                          std::string_view field) const {
  const Topology& t = *topology_;
  name = trim(name, kWhiteSpace);
  const auto per_host = static_cast<std::uint64_t>(std::max(t.gpus_per_host, 0));
  const std::uint64_t count = static_cast<std::uint64_t>(std::max<long long>(t.host_count, 0)) * per_host;
  const auto number = [](std::string_view digits, std::uint64_t& out) {
    if (!all_digits(digits) || digits.size() > 10) return false;
    std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return true;
  };
  std::uint64_t id = 0;
  bool well_formed = false;
  if (name.starts_with("host")) {
    const auto slash = name.find("/gpu");
    std::uint64_t h = 0;
    std::uint64_t g = 0;
    well_formed = slash != std::string_view::npos && number(name.substr(4, slash - 4), h) &&
                  number(name.substr(slash + 4), g);
    if (well_formed && (h >= static_cast<std::uint64_t>(t.host_count) || g >= per_host)) {
      return Diagnostic{where, std::string(field),
                        fmt::format("no GPU named '{}': this fabric has hosts host0..host{} with gpu0..gpu{} each", name,
                                    t.host_count - 1, per_host == 0 ? 0 : per_host - 1)};
    }
    id = h * per_host + g;
  } else {
    well_formed = number(name.starts_with("gpu") ? name.substr(3) : name, id);
  }
  if (!well_formed) {
    // Near misses among the GPUs of the host the name holds a number of ("hots3/gpu0").
    std::vector<std::string> near;
    if (const auto host = host_number_in(name, t)) {
      for (std::uint64_t g = 0; g < per_host; ++g) near.push_back(fmt::format("host{}/gpu{}", *host, g));
    }
    return Diagnostic{where, std::string(field),
                      fmt::format("'{}' names no GPU (host<h>/gpu<g>, gpu<id> or <id>; {} GPUs){}", name, count,
                                  did_you_mean(std::string(name), near))};
  }
  if (id >= count) {
    return Diagnostic{where, std::string(field),
                      fmt::format("no GPU {}: this fabric has {} GPUs (gpu0..gpu{})", id, count, count == 0 ? 0 : count - 1)};
  }
  return static_cast<std::uint32_t>(id);
}

Result<std::vector<LinkId>> NameDirectory::links(std::string_view name, const SourceLocation& where,
                                                 std::string_view field) const {
  const Topology& t = *topology_;
  name = trim(name, kWhiteSpace);
  if (all_digits(name) && name.size() <= 10) {
    std::uint64_t id = 0;
    std::from_chars(name.data(), name.data() + name.size(), id);
    if (id >= t.link_count()) {
      return Diagnostic{where, std::string(field), fmt::format("link {} does not exist ({} links)", id, t.link_count())};
    }
    return std::vector<LinkId>{LinkId(static_cast<std::uint32_t>(id))};
  }
  const CableSpelling spelled = split_cable_number(name);
  if (!spelled.ok) {
    return Diagnostic{where, std::string(field),
                      fmt::format("'{}': expected 'A -- B #k' with k a cable index from 0", name)};
  }
  const std::size_t sep = spelled.bundle.find("--");
  if (sep == std::string_view::npos) {
    return Diagnostic{where, std::string(field),
                      fmt::format("'{}' is no link: give a link id, 'A -- B' (e.g. 'p0/leaf/0 -- p0/spine/1') or "
                                  "'A -- B #k' (one of parallel cables)",
                                  name)};
  }
  auto a = vertex(spelled.bundle.substr(0, sep), where, field);
  auto b = vertex(spelled.bundle.substr(sep + 2), where, field);
  Diagnostics errors;
  if (!a) errors.insert(errors.end(), a.errors().begin(), a.errors().end());
  if (!b) errors.insert(errors.end(), b.errors().begin(), b.errors().end());
  if (!errors.empty()) return errors;
  const std::span<const Adjacency> joining = cable_index().cables(a.value(), b.value());
  if (joining.empty()) {
    return Diagnostic{where, std::string(field),
                      fmt::format("no cable joins {} and {}", t.vertex_name(a.value()), t.vertex_name(b.value()))};
  }
  if (spelled.k) {
    if (*spelled.k >= joining.size()) {
      return Diagnostic{where, std::string(field), cable_number_error(name, *spelled.k, joining.size())};
    }
    return std::vector<LinkId>{joining[*spelled.k].link};
  }
  std::vector<LinkId> out;
  out.reserve(joining.size());
  for (const Adjacency& adj : joining) out.push_back(adj.link);
  return out;
}

NameDirectory::CableSpelling NameDirectory::split_cable_number(std::string_view name) {
  CableSpelling out{name, std::nullopt, true};
  const std::size_t hash = name.rfind('#');
  if (hash == std::string_view::npos) return out;
  const std::string_view k = trim(name.substr(hash + 1), kWhiteSpace);
  std::size_t which = 0;
  const auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), which);
  out.bundle = trim(name.substr(0, hash), kWhiteSpace);
  out.k = which;
  out.ok = !k.empty() && ec == std::errc() && p == k.data() + k.size();
  return out;
}

std::string NameDirectory::cable_number_error(std::string_view name, std::size_t k, std::size_t bundle_size) {
  return fmt::format("'{}': cable #{} does not exist ({} cable(s) join them, #0..#{})", name, k, bundle_size,
                     bundle_size - 1);
}

void NameDirectory::append_cable_name(std::string& out, LinkId l) const {
  const Topology& t = *topology_;
  const VertexId a = t.link_a[l.value()];
  const VertexId b = t.link_b[l.value()];
  t.append_vertex_name(out, a);
  out += " -- ";
  t.append_vertex_name(out, b);
  const std::span<const Adjacency> joining = cable_index().cables(a, b);
  if (joining.size() < 2) return;
  const auto at = std::lower_bound(joining.begin(), joining.end(), l,
                                   [](const Adjacency& adj, LinkId x) { return adj.link.value() < x.value(); });
  out += " #";
  const fmt::format_int k(at - joining.begin());
  out.append(k.data(), k.size());
}

std::string NameDirectory::cable_name(LinkId l) const {
  std::string name;
  append_cable_name(name, l);
  return name;
}

}  // namespace ct
