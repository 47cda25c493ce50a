// The header fields an ECMP hash reads, and the bytes they become.
//
// FlowKey is the IPv4 5-tuple of a packet: addresses as host-order uint32 (10.0.0.1 = 0x0A000001),
// ports as host-order uint16. For RoCEv2 the destination port is always 4791 (IANA) and the UDP
// source port carries the flow's entropy.
//
// Serialisation (the "hash key" every function of hash_function.h reads), network byte order,
// 13 bytes, fields in this order:
//   offset 0  src_ip   4 bytes, big-endian
//   offset 4  dst_ip   4 bytes, big-endian
//   offset 8  src_port 2 bytes, big-endian
//   offset 10 dst_port 2 bytes, big-endian
//   offset 12 protocol 1 byte
// A field left out by the FieldMask is serialised as zero bytes, so the key length never changes
// (switch ASICs mask fields the same way). Ports come before the protocol so that the 16-bit
// words of the key are the address halves and the ports themselves (see XOR-fold).
#pragma once

#include <array>
#include <cstdint>

namespace ct {

inline constexpr std::uint8_t kIpProtoTcp = 6;
inline constexpr std::uint8_t kIpProtoUdp = 17;
inline constexpr std::uint16_t kRoceV2UdpPort = 4791;

struct FlowKey {
  std::uint32_t src_ip = 0;
  std::uint32_t dst_ip = 0;
  std::uint8_t protocol = kIpProtoUdp;
  std::uint16_t src_port = 0;
  std::uint16_t dst_port = kRoceV2UdpPort;

  constexpr bool operator==(const FlowKey&) const = default;
};

// Which fields enter the hash: a bit set.
enum FlowField : std::uint8_t {
  kFieldSrcIp = 1u << 0,
  kFieldDstIp = 1u << 1,
  kFieldProtocol = 1u << 2,
  kFieldSrcPort = 1u << 3,
  kFieldDstPort = 1u << 4,
};
using FieldMask = std::uint8_t;
inline constexpr FieldMask kFiveTuple = kFieldSrcIp | kFieldDstIp | kFieldProtocol | kFieldSrcPort | kFieldDstPort;
inline constexpr FieldMask kL3Only = kFieldSrcIp | kFieldDstIp;

inline constexpr std::size_t kFlowKeyBytes = 13;
using FlowKeyBytes = std::array<std::uint8_t, kFlowKeyBytes>;

// The key with the fields outside `mask` set to zero.
constexpr FlowKey masked(const FlowKey& k, FieldMask mask) {
  FlowKey m;
  m.src_ip = (mask & kFieldSrcIp) ? k.src_ip : 0;
  m.dst_ip = (mask & kFieldDstIp) ? k.dst_ip : 0;
  m.protocol = (mask & kFieldProtocol) ? k.protocol : std::uint8_t{0};
  m.src_port = (mask & kFieldSrcPort) ? k.src_port : std::uint16_t{0};
  m.dst_port = (mask & kFieldDstPort) ? k.dst_port : std::uint16_t{0};
  return m;
}

// The 13 bytes described above.
constexpr FlowKeyBytes serialize(const FlowKey& k, FieldMask mask) {
  const FlowKey m = masked(k, mask);
  auto byte = [](std::uint32_t v, int shift) { return static_cast<std::uint8_t>(v >> shift); };
  return {byte(m.src_ip, 24), byte(m.src_ip, 16), byte(m.src_ip, 8), byte(m.src_ip, 0),
          byte(m.dst_ip, 24), byte(m.dst_ip, 16), byte(m.dst_ip, 8), byte(m.dst_ip, 0),
          byte(m.src_port, 8), byte(m.src_port, 0), byte(m.dst_port, 8), byte(m.dst_port, 0),
          m.protocol};
}

// Dotted-quad helper for tests and fixtures: ipv4(10, 0, 0, 1) = 0x0A000001.
constexpr std::uint32_t ipv4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d) {
  return (std::uint32_t{a} << 24) | (std::uint32_t{b} << 16) | (std::uint32_t{c} << 8) | d;
}

}  // namespace ct
