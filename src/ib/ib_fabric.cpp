#include "ib/ib_fabric.h"

#include <cassert>
#include <charconv>

#include <fmt/format.h>

namespace ct {

IbNodeId IbFabric::add_node(IbNodeType node_type, std::uint64_t node_guid, std::string node_name,
                            std::string node_description, int ports) {
  assert(ports >= 1 && ports <= kMaxPorts);
  const IbNodeId id(node_count());
  type.push_back(node_type);
  guid.push_back(node_guid);
  name.push_back(std::move(node_name));
  description.push_back(std::move(node_description));
  port_count.push_back(static_cast<std::uint8_t>(ports));
  tier.push_back(0);
  line.push_back(0);
  switch_lid_.emplace_back();
  const auto begin = port_begin_.back();
  port_begin_.push_back(begin + static_cast<std::uint32_t>(ports));
  peer_node_.resize(port_begin_.back());
  peer_port_.resize(port_begin_.back(), 0);
  port_guid_.resize(port_begin_.back(), 0);
  port_lid_.resize(port_begin_.back());
  port_rate_.resize(port_begin_.back());
  return id;
}

void IbFabric::connect(IbNodeId a, int pa, IbNodeId b, int pb) {
  assert(pa >= 1 && pa <= ports(a) && pb >= 1 && pb <= ports(b) && a != b);
  const auto ia = port_begin_[a.value()] + static_cast<std::uint32_t>(pa) - 1;
  const auto ib = port_begin_[b.value()] + static_cast<std::uint32_t>(pb) - 1;
  assert(!peer_node_[ia].valid() && !peer_node_[ib].valid());
  peer_node_[ia] = b;
  peer_port_[ia] = static_cast<std::uint8_t>(pb);
  peer_node_[ib] = a;
  peer_port_[ib] = static_cast<std::uint8_t>(pa);
}

void IbFabric::disconnect(IbNodeId n, int p) {
  const IbPortRef far = remote(n, p);
  if (!far.connected()) return;
  const auto i = port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1;
  const auto j = port_begin_[far.node.value()] + static_cast<std::uint32_t>(far.port) - 1;
  peer_node_[i] = IbNodeId::invalid();
  peer_port_[i] = 0;
  peer_node_[j] = IbNodeId::invalid();
  peer_port_[j] = 0;
}

std::uint64_t IbFabric::port_guid(IbNodeId n, int p) const {
  if (is_switch(n) || p < 1) return guid[n.value()];
  const auto explicit_guid = port_guid_[port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1];
  return explicit_guid != 0 ? explicit_guid : guid[n.value()] + static_cast<std::uint64_t>(p);
}

void IbFabric::set_port_guid(IbNodeId n, int p, std::uint64_t port_guid_value) {
  port_guid_[port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1] = port_guid_value;
}

void IbFabric::set_stated_lid(IbNodeId n, int p, StatedLid lid) {
  if (is_switch(n) || p < 1) {
    switch_lid_[n.value()] = lid;
  } else {
    port_lid_[port_begin_[n.value()] + static_cast<std::uint32_t>(p) - 1] = lid;
  }
}

Diagnostic fabric_diagnostic(const IbFabric& fabric, IbNodeId at, std::string field, std::string message) {
  const int line = at.valid() ? fabric.line[at.value()] : 0;
  if (!fabric.source_context.empty()) message = fabric.source_context + ": " + message;
  return Diagnostic{{fabric.source, line, 0}, std::move(field), std::move(message)};
}

std::optional<IbNodeId> IbFabric::find_by_guid(std::uint64_t node_guid) const {
  for (std::size_t i = 0; i < node_count(); ++i) {
    if (guid[i] == node_guid) return IbNodeId(i);
  }
  return std::nullopt;
}

std::optional<IbPortRef> IbFabric::find_port_by_guid(std::uint64_t port_guid_value) const {
  for (std::size_t i = 0; i < node_count(); ++i) {
    const IbNodeId n(i);
    if (is_switch(n)) {
      if (guid[i] == port_guid_value) return IbPortRef{n, 0};
      continue;
    }
    for (int p = 1; p <= ports(n); ++p) {
      if (port_guid(n, p) == port_guid_value) return IbPortRef{n, p};
    }
  }
  return std::nullopt;
}

std::optional<IbNodeId> IbFabric::find(std::string_view key) const {
  for (std::size_t i = 0; i < node_count(); ++i) {
    if (name[i] == key || description[i] == key) return IbNodeId(i);
  }
  if (key.size() > 2 && key[0] == '0' && (key[1] == 'x' || key[1] == 'X')) {
    std::uint64_t value = 0;
    const auto* end = key.data() + key.size();
    const auto [ptr, ec] = std::from_chars(key.data() + 2, end, value, 16);
    if (ec == std::errc() && ptr == end) return find_by_guid(value);
  }
  return std::nullopt;
}

std::size_t IbFabric::switch_count() const {
  std::size_t count = 0;
  for (const auto t : type) count += t == IbNodeType::kSwitch ? 1 : 0;
  return count;
}

std::size_t IbFabric::cable_count() const {
  std::size_t ends = 0;
  for (const auto& peer : peer_node_) ends += peer.valid() ? 1 : 0;
  return ends / 2;
}

namespace {

struct IbSpeed {
  const char* name;
  std::int64_t lane_mbps;  // data rate per lane after encoding
};
// Longest names first where one is a prefix of another (FDR10 before FDR).
constexpr IbSpeed kIbSpeeds[] = {{"SDR", 2000},   {"DDR", 4000},    {"QDR", 8000},    {"FDR10", 10000}, {"FDR", 13636},
                                 {"EDR", 25000},  {"HDR", 50000},   {"NDR", 100000},  {"XDR", 200000}};

}  // namespace

BitsPerSecond IbLinkRate::rate() const {
  return BitsPerSecond(static_cast<std::int64_t>(width) * kIbSpeeds[speed].lane_mbps * 1'000'000);
}

std::string IbLinkRate::text() const { return fmt::format("{}x{}", width, kIbSpeeds[speed].name); }

std::optional<IbLinkRate> parse_ib_link_rate(std::string_view token) {
  const auto x = token.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const std::string_view lanes = token.substr(0, x);
  const std::string_view speed = token.substr(x + 1);
  IbLinkRate r;
  for (const auto& [text, width] : {std::pair{"1", 1}, std::pair{"2", 2}, std::pair{"4", 4}, std::pair{"8", 8},
                                    std::pair{"12", 12}}) {
    if (lanes == text) r.width = static_cast<std::uint8_t>(width);
  }
  if (r.width == 0) return std::nullopt;
  for (std::size_t i = 0; i < std::size(kIbSpeeds); ++i) {
    if (speed == kIbSpeeds[i].name) {
      r.speed = static_cast<std::uint8_t>(i);
      return r;
    }
  }
  return std::nullopt;
}

std::string format_guid(std::uint64_t guid) { return fmt::format("0x{:016x}", guid); }

}  // namespace ct
