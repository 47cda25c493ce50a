#include "routing/port_address.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "core/text.h"
#include "routing/flow_key.h"

namespace ct {
namespace {

constexpr long long kMaxHosts = 65536;
constexpr int kMaxRailsOrPlanes = 16;
constexpr std::uint32_t kDenseBase = 10u << 24;  // 10.0.0.0
constexpr unsigned long long kAddresses = 1ull << 32;

}  // namespace

bool compact_addresses(const Topology& topology) {
  return topology.host_count <= kMaxHosts && topology.ports_per_host <= kMaxRailsOrPlanes &&
         topology.planes <= kMaxRailsOrPlanes;
}

bool addressable(const Topology& topology) {
  const auto ports = static_cast<unsigned long long>(std::max(0, topology.planes)) *
                     static_cast<unsigned long long>(std::max(0, topology.ports_per_host)) *
                     static_cast<unsigned long long>(std::max(0LL, static_cast<long long>(topology.host_count)));
  return ports <= kAddresses;
}

std::uint32_t port_address(const Topology& topology, VertexId port) {
  const auto v = port.value();
  const std::uint32_t host = topology.group[v];
  const std::uint32_t rail = topology.index[v];
  const std::uint32_t plane = topology.plane[v];
  if (!compact_addresses(topology)) {
    const std::uint64_t index =
        (std::uint64_t{plane} * static_cast<std::uint64_t>(topology.ports_per_host) + rail) *
            static_cast<std::uint64_t>(topology.host_count) + host;
    return static_cast<std::uint32_t>(kDenseBase + index);  // modulo 2^32
  }
  return ipv4(10, static_cast<std::uint8_t>(16 * plane + rail), static_cast<std::uint8_t>(host >> 8),
              static_cast<std::uint8_t>(host & 0xFF));
}

std::optional<VertexId> port_of_address(const Topology& topology, std::uint32_t address) {
  if (!compact_addresses(topology)) {
    const std::uint64_t index = static_cast<std::uint32_t>(address - kDenseBase);  // modulo 2^32
    const auto hosts = static_cast<std::uint64_t>(topology.host_count);
    const auto rails = static_cast<std::uint64_t>(topology.ports_per_host);
    if (hosts == 0 || rails == 0 || index >= hosts * rails * static_cast<std::uint64_t>(topology.planes)) return std::nullopt;
    const std::uint64_t host = index % hosts;
    const std::uint64_t rail = (index / hosts) % rails;
    const std::uint64_t plane = index / hosts / rails;
    return topology.port_of(HostId(static_cast<std::uint32_t>(host)), static_cast<int>(rail), static_cast<int>(plane));
  }
  if ((address >> 24) != 10) return std::nullopt;
  const std::uint32_t second = (address >> 16) & 0xFF;
  const auto plane = static_cast<int>(second / 16);
  const auto rail = static_cast<int>(second % 16);
  const long long host = address & 0xFFFF;
  if (plane >= topology.planes || rail >= topology.ports_per_host || host >= topology.host_count) return std::nullopt;
  return topology.port_of(HostId(static_cast<std::uint32_t>(host)), rail, plane);
}

std::string format_ipv4(std::uint32_t a) {
  return fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 0xFF, (a >> 8) & 0xFF, a & 0xFF);
}

std::optional<std::uint32_t> parse_ipv4(const std::string& text) {
  std::string_view rest(text);
  std::uint32_t address = 0;
  for (int i = 0; i < 4; ++i) {
    long long octet = 0;
    if (i > 0 && !take_word(rest, ".")) return std::nullopt;
    if (!take_number(rest, octet) || octet < 0 || octet > 255) return std::nullopt;
    address = (address << 8) | static_cast<std::uint32_t>(octet);
  }
  if (!rest.empty()) return std::nullopt;
  return address;
}

}  // namespace ct
