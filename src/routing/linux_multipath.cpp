#include "routing/linux_multipath.h"

#include <array>
#include <cassert>
#include <utility>

#include "routing/member_select.h"
#include "routing/siphash.h"

namespace ct {
namespace {

constexpr std::size_t kFlowKeysHashBytes = 48;
constexpr std::size_t kProtoAt = 2;
constexpr std::size_t kPortsAt = 28;
constexpr std::size_t kAddrsAt = 36;

constexpr std::uint32_t bswap32(std::uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}
constexpr std::uint16_t bswap16(std::uint16_t v) { return static_cast<std::uint16_t>((v >> 8) | (v << 8)); }

void put_be(std::array<std::uint8_t, kFlowKeysHashBytes>& b, std::size_t at, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * (bytes - 1 - i)));
}

constexpr std::uint32_t rol32(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// The outer fields of fib_multipath_hash_fields as a FieldMask (flow_key.h); the flow label and
// the inner fields do not exist in a FlowKey.
constexpr std::pair<std::uint32_t, FieldMask> kOuterFieldMasks[] = {
    {kLinuxFieldSrcIp, kFieldSrcIp},     {kLinuxFieldDstIp, kFieldDstIp},     {kLinuxFieldIpProto, kFieldProtocol},
    {kLinuxFieldSrcPort, kFieldSrcPort}, {kLinuxFieldDstPort, kFieldDstPort},
};

// Policy 0: addresses; 1: the 5-tuple; 3: the fields of hash_fields (policy 2 is treated as 0).
FlowKey policy_keys(const FlowKey& key, const LinuxMultipathConfig& c) {
  if (c.policy == 1) return masked(key, kFiveTuple);
  if (c.policy != 3) return masked(key, kL3Only);
  FieldMask mask = 0;
  for (const auto& [linux_field, field] : kOuterFieldMasks) {
    if ((c.hash_fields & linux_field) != 0) mask = static_cast<FieldMask>(mask | field);
  }
  return masked(key, mask);
}

}  // namespace

std::uint32_t linux_flow_hash(const FlowKey& hash_keys, std::uint32_t seed) {
  std::uint32_t src = hash_keys.src_ip, dst = hash_keys.dst_ip;
  std::uint16_t sport = hash_keys.src_port, dport = hash_keys.dst_port;
  if (bswap32(dst) < bswap32(src)) std::swap(src, dst);
  if (bswap16(dport) < bswap16(sport)) std::swap(sport, dport);

  std::array<std::uint8_t, kFlowKeysHashBytes> bytes{};
  bytes[kProtoAt] = hash_keys.protocol;
  put_be(bytes, kPortsAt, sport, 2);
  put_be(bytes, kPortsAt + 2, dport, 2);
  put_be(bytes, kAddrsAt, src, 4);
  put_be(bytes, kAddrsAt + 4, dst, 4);

  const std::uint64_t k = (std::uint64_t{seed} << 32) | seed;
  const auto hash = static_cast<std::uint32_t>(siphash_2_4(k, k, bytes.data(), bytes.size()));
  return hash == 0 ? 1u : hash;
}

std::uint32_t linux_jhash_2words(std::uint32_t a, std::uint32_t b, std::uint32_t initval) {
  // lookup3 (Jenkins 2006): the three-word state starts at initval + 0xdeadbeef + (2 << 2) plus
  // the words, then goes through the final mix.
  const std::uint32_t start = initval + 0xDEADBEEFu + (2u << 2);
  a += start;
  b += start;
  std::uint32_t c = start;
  c ^= b; c -= rol32(b, 14);
  a ^= c; a -= rol32(c, 11);
  b ^= a; b -= rol32(a, 25);
  c ^= b; c -= rol32(b, 16);
  a ^= c; a -= rol32(c, 4);
  b ^= a; b -= rol32(a, 14);
  c ^= b; c -= rol32(b, 24);
  return c;
}

std::uint32_t linux_multipath_hash(const FlowKey& key, const LinuxMultipathConfig& config) {
  assert(config.policy >= 0 && config.policy <= 3);
  std::uint32_t mhash = 0;
  if (config.policy == 3) {
    const std::uint32_t outer =
        (config.hash_fields & kLinuxOuterFields) ? linux_flow_hash(policy_keys(key, config), config.seed) : 0u;
    mhash = linux_jhash_2words(outer, 0, 0);
  } else {
    mhash = linux_flow_hash(policy_keys(key, config), config.seed);
  }
  return mhash >> 1;
}

std::vector<std::uint32_t> linux_nexthop_upper_bounds(std::span<const std::uint32_t> weights) {
  return hash_threshold_bounds(weights, 31);
}

std::size_t linux_select_nexthop(std::uint32_t hash, std::span<const std::uint32_t> bounds) {
  assert(!bounds.empty() && hash <= bounds.back());
  std::size_t i = 0;
  while (hash > bounds[i]) ++i;
  return i;
}

}  // namespace ct
