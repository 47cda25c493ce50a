// Path walking: every path is a valid up/down shortest path of the fat tree, with the hop counts
// worked out by hand; decisions follow the switch hash; unreachable destinations stop the walk.
#include <gtest/gtest.h>

#include <set>
#include <span>
#include <vector>

#include "core/rng.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "routing/port_address.h"
#include "support/fabric_fixtures.h"

namespace ct {
namespace {

FlowKey key_of(const Topology& t, std::uint32_t src, std::uint32_t dst, std::uint16_t port) {
  return FlowKey{port_address(t, VertexId(src)), port_address(t, VertexId(dst)), kIpProtoUdp, port, kRoceV2UdpPort};
}

// 4-ary fat tree, hosts 2 per edge, 4 per pod. Expected links per path: same edge 2 (up, down),
// same pod 4 (edge-agg-edge), other pod 6 (edge-agg-core-agg-edge). Every path climbs then
// descends (tiers strictly increase, then strictly decrease), consecutive hops share a vertex and
// it ends at the destination.
TEST(PathWalker, EveryPathIsAnUpDownShortestPath) {
  const Topology t = fixtures::fat_tree_4();
  const ForwardingState f(t);
  const SwitchHashes h(t, EcmpConfig{});
  const PathWalker w(f, h);
  Rng rng(1, 0, 0);
  std::vector<PathHop> path;
  for (std::uint32_t src = 0; src < 16; ++src) {
    for (std::uint32_t dst = 0; dst < 16; ++dst) {
      if (src == dst) continue;
      for (int trial = 0; trial < 8; ++trial) {
        const auto port = static_cast<std::uint16_t>(rng.uniform(65536));
        ASSERT_TRUE(w.walk(VertexId(src), VertexId(dst), key_of(t, src, dst, port), path));
        const std::size_t expected = src / 2 == dst / 2 ? 2 : (src / 4 == dst / 4 ? 4 : 6);
        ASSERT_EQ(path.size(), expected) << src << "->" << dst;
        VertexId at(src);
        bool descending = false;
        for (const PathHop& hop : path) {
          ASSERT_EQ(hop.from, at);
          const VertexId next = t.other_end(hop.link, at);
          ASSERT_TRUE(t.link_a[hop.link.value()] == at || t.link_b[hop.link.value()] == at);
          const bool up = t.tier[next.value()] > t.tier[at.value()];
          EXPECT_EQ(hop.up, up);
          if (!up) descending = true;
          EXPECT_FALSE(descending && up) << "valley in " << src << "->" << dst;
          at = next;
        }
        EXPECT_EQ(at, VertexId(dst));
      }
    }
  }
}

// CRC-32 (IEEE 802.3) computed bit by bit from its Rocksoft parameters (poly 0x04C11DB7 reflected
// = 0xEDB88320, init 0xFFFFFFFF, refin/refout true, xorout 0xFFFFFFFF): the textbook shift
// register, independent of the table-driven, affine code under test and of Boost.CRC.
std::uint32_t bitwise_crc32(std::span<const std::uint8_t> bytes) {
  std::uint32_t crc = 0xFFFFFFFFU;
  for (std::uint8_t b : bytes) {
    crc ^= b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1U) != 0 ? (crc >> 1) ^ 0xEDB88320U : crc >> 1;
  }
  return crc ^ 0xFFFFFFFFU;
}

// The decision at edge 16 (host 0's edge) toward host 12 (another pod), worked out without the
// code's hash: every switch has seed 0x5EED (seed mode same), prepended as four big-endian bytes
// to the 13-byte key of flow_key.h, written out here by hand from the addresses of
// port_address.h (host 0 = 10.0.0.0, host 12 = 10.0.0.12):
//   00 00 5E ED | 0A 00 00 00 | 0A 00 00 0C | port_hi port_lo | 12 B7 (4791) | 11 (UDP)
// The CRC-32 of those 17 bytes mod 2 (modulo selection over the 2 up members) is the member, and
// member m is link 16 + m (edge 16's links to aggregations 24 and 25, fixtures::fat_tree_4). The
// bitwise CRC is first checked against the published check value: CRC-32("123456789") =
// 0xCBF43926. Over 100 ports both members must occur (a walker stuck on one member fails).
TEST(PathWalker, DecisionsFollowTheSwitchHash) {
  const std::uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  ASSERT_EQ(bitwise_crc32(check), 0xCBF43926U);

  const Topology t = fixtures::fat_tree_4();
  const ForwardingState f(t);
  EcmpConfig c;
  c.algorithm = HashAlgorithm::kCrc32;
  c.selection = MemberSelection::kModulo;
  c.seed_mode = SeedMode::kSame;
  c.seed = 0x5EED;
  c.seed_input = SeedInput::kPrepend;
  const SwitchHashes h(t, c);
  const PathWalker w(f, h);
  std::vector<PathHop> path;
  std::set<std::uint32_t> members_seen;
  for (std::uint16_t port = 49152; port < 49252; ++port) {
    const std::uint8_t bytes[] = {0x00, 0x00, 0x5E, 0xED, 0x0A, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x0C,
                                  static_cast<std::uint8_t>(port >> 8), static_cast<std::uint8_t>(port & 0xFF),
                                  0x12, 0xB7, 0x11};
    const std::uint32_t member = bitwise_crc32(bytes) % 2;
    members_seen.insert(member);
    ASSERT_TRUE(w.walk(VertexId(0u), VertexId(12u), key_of(t, 0, 12, port), path));
    EXPECT_EQ(path[1].member, member) << "port " << port;
    EXPECT_EQ(path[1].link, LinkId(16 + member));
    EXPECT_EQ(path[1].group, f.group(VertexId(16u), f.destination_of(VertexId(12u))));
    EXPECT_EQ(path[0].group, kNoGroup);  // the NIC link is no choice
  }
  EXPECT_EQ(members_seen.size(), 2U);
}

// A failed destination NIC link (link 5 = host 5's) and a cross-plane pair stop the walk.
TEST(PathWalker, UnreachableStops) {
  const Topology t = fixtures::fat_tree_4();
  const std::vector<LinkId> failed = {LinkId(5u)};
  const ForwardingState f(t, failed);
  const SwitchHashes h(t, EcmpConfig{});
  const PathWalker w(f, h);
  std::vector<PathHop> path;
  EXPECT_FALSE(w.walk(VertexId(0u), VertexId(5u), key_of(t, 0, 5, 1), path));
  EXPECT_TRUE(w.walk(VertexId(0u), VertexId(6u), key_of(t, 0, 6, 1), path));
  EXPECT_FALSE(w.walk(VertexId(5u), VertexId(6u), key_of(t, 5, 6, 1), path));
}

// walk_all interleaves up to kLanes flows; it must give every flow exactly walk()'s hops and
// verdict. The 4-ary fat tree with host 5's NIC link and three switch links failed, every ordered
// pair (unreachable, same-edge, same-pod and cross-pod paths, and src = dst) with 3 source ports,
// 768 flows in a batch whose size is not a multiple of kLanes; affine (crc16) and non-affine
// (Linux policy 1, random) hashes with per-switch seeds.
TEST(PathWalker, WalkAllEqualsWalk) {
  const Topology t = fixtures::fat_tree_4();
  const std::vector<LinkId> failed = {LinkId(5u), LinkId(16u), LinkId(21u), LinkId(30u)};
  const ForwardingState f(t, failed);
  std::vector<RouteRequest> flows;
  for (std::uint32_t src = 0; src < 16; ++src) {
    for (std::uint32_t dst = 0; dst < 16; ++dst) {
      for (const std::uint16_t port : {std::uint16_t{49152}, std::uint16_t{50001}, std::uint16_t{65535}}) {
        flows.push_back(RouteRequest{VertexId(src), VertexId(dst), key_of(t, src, dst, port), 1});
      }
    }
  }
  flows.pop_back();
  ASSERT_NE(flows.size() % PathWalker::kLanes, 0u);
  // Variants 3 and 4: the reflected 32-bit CRCs, which walk_all hashes by carry-less
  // multiplication where the CPU has it (crc_clmul.h) and walk() by the tables.
  for (int variant = 0; variant < 5; ++variant) {
    EcmpConfig c;
    c.seed_mode = SeedMode::kPerSwitch;
    c.seed = 0x5EED;
    if (variant == 0) c.algorithm = HashAlgorithm::kCrc16CcittFalse;
    if (variant == 1) c.linux_kernel = true;
    if (variant == 1) c.linux_policy = 1;
    if (variant == 2) c.algorithm = HashAlgorithm::kRandom;
    if (variant == 3) c.algorithm = HashAlgorithm::kCrc32;
    if (variant == 4) c.algorithm = HashAlgorithm::kCrc32Hi16;
    if (variant == 4) c.fields = kFieldSrcIp | kFieldDstIp | kFieldSrcPort;
    const SwitchHashes h(t, c);
    const PathWalker w(f, h);
    std::size_t seen = 0;
    std::size_t reached = 0;
    std::vector<PathHop> expected;
    w.walk_all(std::span<const RouteRequest>(flows), [&](std::size_t i, bool ok, std::span<const PathHop> hops) {
      ASSERT_EQ(i, seen++);
      const bool expected_ok = w.walk(flows[i].src, flows[i].dst, flows[i].key, expected);
      EXPECT_EQ(ok, expected_ok) << "flow " << i;
      reached += ok ? 1 : 0;
      ASSERT_EQ(hops.size(), expected.size()) << "flow " << i;
      for (std::size_t k = 0; k < hops.size(); ++k) {
        EXPECT_EQ(hops[k].link, expected[k].link);
        EXPECT_EQ(hops[k].from, expected[k].from);
        EXPECT_EQ(hops[k].group, expected[k].group);
        EXPECT_EQ(hops[k].member, expected[k].member);
        EXPECT_EQ(hops[k].up, expected[k].up);
      }
    });
    EXPECT_EQ(seen, flows.size());
    // Worked by hand: src = dst (16 pairs) and pairs with host 5 (30) stop. Links 16 (edge 0 - agg
    // 0), 21 (edge 2 - agg 3) and 30 (edge 7 - agg 6) leave edge 0 only cores 2-3, edge 2 only
    // cores 0-1 and edge 7 only cores 2-3, so valley-free paths between edge 2's host 4 and the
    // hosts of edges 0 and 7 (0, 1, 14, 15) are gone: 8 more pairs. 3 ports x (256 - 16 - 30 - 8)
    // arrive (the dropped last flow is 15 -> 15).
    EXPECT_EQ(reached, 3u * (256 - 16 - 30 - 8));
  }
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// The closed-form hash-threshold choice and the modulo choice equal MemberSelector for every
// 16-bit hash and group sizes 1..70, and for 31- and 32-bit hashes on a sample including the ends.
TEST(PathWalker, SelectionEqualsMemberSelector) {
  const Topology t = fixtures::fat_tree_4();
  const ForwardingState f(t);
  for (MemberSelection method : {MemberSelection::kModulo, MemberSelection::kHashThreshold}) {
    for (HashAlgorithm a : {HashAlgorithm::kCrc16Arc, HashAlgorithm::kCrc32}) {
      EcmpConfig c;
      c.algorithm = a;
      c.selection = method;
      const SwitchHashes h(t, c);
      const PathWalker w(f, h);
      const int bits = hash_bits(a);
      Rng rng(3, 0, 0);
      for (std::uint32_t n = 1; n <= 70; ++n) {
        const MemberSelector s(n, method, bits);
        if (bits == 16) {
          for (std::uint32_t x = 0; x < 65536; ++x) ASSERT_EQ(w.select(n, x), s.select(x)) << n << " " << x;
        } else {
          for (std::uint32_t x : {0u, 1u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u}) ASSERT_EQ(w.select(n, x), s.select(x));
          for (int i = 0; i < 20000; ++i) {
            const auto x = static_cast<std::uint32_t>(rng.next_u64());
            ASSERT_EQ(w.select(n, x), s.select(x)) << n << " " << x;
          }
        }
      }
    }
  }
  EcmpConfig linux_config;
  linux_config.linux_kernel = true;
  const SwitchHashes lh(t, linux_config);
  const PathWalker lw(f, lh);
  for (std::uint32_t n = 1; n <= 70; ++n) {
    const MemberSelector s(n, MemberSelection::kHashThreshold, 31);
    for (std::uint32_t x : {0u, 1u, 0x7FFFFFFEu, 0x7FFFFFFFu, 0x40000000u}) ASSERT_EQ(lw.select(n, x), s.select(x));
  }
}

// The per-walk shortcut for affine hashes (switch_hashes.h) equals each switch's own FlowHasher,
// bit for bit, for every affine function, both seed inputs, several masks and per-switch seeds.
TEST(SwitchHashes, AffineShortcutIsExact) {
  const Topology t = fixtures::fat_tree_4();
  Rng rng(5, 0, 0);
  for (HashAlgorithm a : kAllHashAlgorithms) {
    for (SeedInput in : {SeedInput::kPrepend, SeedInput::kInitialValue}) {
      for (FieldMask mask : {kFiveTuple, kL3Only, static_cast<FieldMask>(kFieldSrcPort | kFieldDstIp)}) {
        EcmpConfig c;
        c.algorithm = a;
        c.seed_input = in;
        c.fields = mask;
        c.seed_mode = SeedMode::kPerSwitch;
        c.seed = 0xABCDEF;
        const SwitchHashes h(t, c);
        EXPECT_EQ(h.affine(), a != HashAlgorithm::kRandom);
        for (int i = 0; i < 200; ++i) {
          const FlowKey k{static_cast<std::uint32_t>(rng.next_u64()), static_cast<std::uint32_t>(rng.next_u64()),
                          static_cast<std::uint8_t>(rng.uniform(256)), static_cast<std::uint16_t>(rng.uniform(65536)),
                          static_cast<std::uint16_t>(rng.uniform(65536))};
          const std::uint32_t base = h.base(k);
          for (std::uint32_t v = 16; v < 36; ++v) {
            const FlowHasher own(a, h.seed(VertexId(v)), in, mask);
            ASSERT_EQ(h.from_base(VertexId(v), base, k), own.hash(k)) << hash_algorithm_name(a) << " switch " << v;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ct
