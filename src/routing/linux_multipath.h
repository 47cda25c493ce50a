// The Linux kernel's IPv4 multipath (ECMP) next-hop choice for a forwarded packet, bit-exact.
// Learned from the kernel sources (net/ipv4/route.c fib_multipath_hash, include/net/ip_fib.h
// fib_multipath_hash_from_keys, net/core/flow_dissector.c __flow_hash_from_keys,
// include/net/flow_dissector.h struct flow_keys, net/ipv4/fib_semantics.c fib_rebalance and
// fib_select_multipath, net/ipv4/sysctl_net_ipv4.c) and checked against the running kernel
// (tests/linux/, docs/models/ecmp.md). Valid for kernels with the multipath seed sysctl (6.11+)
// on little-endian hosts.
//
// 1. Hash keys. A zeroed struct flow_keys gets, by net.ipv4.fib_multipath_hash_policy:
//      0  L3: source and destination address.
//      1  L4: addresses, IP protocol, source and destination port.
//      2  L3, or the inner L3 header of an encapsulated packet: for a plain packet, as 0.
//      3  custom: the fields chosen by net.ipv4.fib_multipath_hash_fields (bits below).
// 2. Flow hash (__flow_hash_from_keys): the keys are made direction-independent by swapping the
//    addresses if dst < src, and independently the ports if dport < sport, both compared as the
//    host's native integers of the network-order bytes (byte-swapped values on a little-endian
//    host). Then SipHash-2-4 over the 48 bytes of struct flow_keys from member `basic` on:
//      0..1 n_proto (0)  2 ip_proto  3 pad  4..7 flow label  8..23 two VLAN keys  24..27 key id
//      28..29 sport  30..31 dport (network order)  32..35 ICMP key  36..39 saddr  40..43 daddr
//      44..47 zero (rest of the address union)
//    keyed with k0 = k1 = seed << 32 | seed, seed = the namespace's mp_seed, which is
//    net.ipv4.fib_multipath_hash_seed when that is non-zero (0 means a random seed drawn by the
//    kernel, so set the sysctl to reproduce a kernel). The low 32 bits are the hash; 0 becomes 1.
// 3. Policy 3 on a forwarded packet also passes the outer hash through Jenkins' lookup3 final mix:
//    jhash_2words(outer, inner, 0), inner = 0 without encapsulation; the outer hash is 0 when no
//    outer field is selected.
// 4. The multipath hash is that value shifted right by one (31 bits).
// 5. Next hop (fib_select_multipath, hash-threshold): next hop i, of weight w_i (weight = the
//    iproute2 "weight", default 1), owns hashes up to round(2^31 * (w_1+...+w_i) / W) - 1; the
//    first next hop whose bound is >= the hash wins. See member_select.h.
// Not modelled: the locally-originated (socket) path, whose policy-3 hash skips the jhash step and
// whose selection prefers next hops matching the source address; IPv6; encapsulated packets;
// ICMP errors (hashed on the inner header); fib_multipath_use_neigh; dead or link-down next hops;
// nexthop objects with resilient groups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "routing/flow_key.h"

namespace ct {

// net.ipv4.fib_multipath_hash_fields bits (include/net/ip_fib.h, user API).
enum LinuxHashField : std::uint32_t {
  kLinuxFieldSrcIp = 1u << 0,
  kLinuxFieldDstIp = 1u << 1,
  kLinuxFieldIpProto = 1u << 2,
  kLinuxFieldFlowLabel = 1u << 3,
  kLinuxFieldSrcPort = 1u << 4,
  kLinuxFieldDstPort = 1u << 5,
  kLinuxFieldInnerSrcIp = 1u << 6,
  kLinuxFieldInnerDstIp = 1u << 7,
  kLinuxFieldInnerIpProto = 1u << 8,
  kLinuxFieldInnerFlowLabel = 1u << 9,
  kLinuxFieldInnerSrcPort = 1u << 10,
  kLinuxFieldInnerDstPort = 1u << 11,
};
inline constexpr std::uint32_t kLinuxOuterFields = 0x3F;
inline constexpr std::uint32_t kLinuxDefaultHashFields = kLinuxFieldSrcIp | kLinuxFieldDstIp | kLinuxFieldIpProto;

struct LinuxMultipathConfig {
  int policy = 0;                                        // fib_multipath_hash_policy, 0..3
  std::uint32_t hash_fields = kLinuxDefaultHashFields;  // fib_multipath_hash_fields (policy 3)
  std::uint32_t seed = 0;                                // mp_seed, see step 2
};

// Step 2 on keys already reduced to the policy's fields (zero = absent).
std::uint32_t linux_flow_hash(const FlowKey& hash_keys, std::uint32_t seed);

// Jenkins' lookup3 final mix as the kernel's jhash_2words(a, b, initval).
std::uint32_t linux_jhash_2words(std::uint32_t a, std::uint32_t b, std::uint32_t initval);

// Steps 1 to 4 for a forwarded IPv4 packet. PRECONDITION: 0 <= config.policy <= 3; key's ports are
// zero for protocols without ports (the kernel's dissector reads none for them).
// POSTCONDITION: result < 2^31.
std::uint32_t linux_multipath_hash(const FlowKey& key, const LinuxMultipathConfig& config);

// Step 5: the next hops' inclusive upper bounds (fib_rebalance) and the choice.
std::vector<std::uint32_t> linux_nexthop_upper_bounds(std::span<const std::uint32_t> weights);
// PRECONDITION: bounds from linux_nexthop_upper_bounds, hash < 2^31.
std::size_t linux_select_nexthop(std::uint32_t hash, std::span<const std::uint32_t> bounds);

}  // namespace ct
