#include "routing/linux_multipath.h"

#include <gtest/gtest.h>

#include <array>

#include "routing/siphash.h"

namespace ct {
namespace {

// The published SipHash-2-4 test vectors (reference implementation by Aumasson and Bernstein; the
// same table is in the kernel's lib/siphash_kunit.c): key bytes 00..0f, message bytes 00..n-1.
TEST(SipHash, ReferenceVectors) {
  static constexpr std::uint64_t kVectors[64] = {
    0x726fdb47dd0e0e31ULL, 0x74f839c593dc67fdULL, 0x0d6c8009d9a94f5aULL,
    0x85676696d7fb7e2dULL, 0xcf2794e0277187b7ULL, 0x18765564cd99a68dULL,
    0xcbc9466e58fee3ceULL, 0xab0200f58b01d137ULL, 0x93f5f5799a932462ULL,
    0x9e0082df0ba9e4b0ULL, 0x7a5dbbc594ddb9f3ULL, 0xf4b32f46226bada7ULL,
    0x751e8fbc860ee5fbULL, 0x14ea5627c0843d90ULL, 0xf723ca908e7af2eeULL,
    0xa129ca6149be45e5ULL, 0x3f2acc7f57c29bdbULL, 0x699ae9f52cbe4794ULL,
    0x4bc1b3f0968dd39cULL, 0xbb6dc91da77961bdULL, 0xbed65cf21aa2ee98ULL,
    0xd0f2cbb02e3b67c7ULL, 0x93536795e3a33e88ULL, 0xa80c038ccd5ccec8ULL,
    0xb8ad50c6f649af94ULL, 0xbce192de8a85b8eaULL, 0x17d835b85bbb15f3ULL,
    0x2f2e6163076bcfadULL, 0xde4daaaca71dc9a5ULL, 0xa6a2506687956571ULL,
    0xad87a3535c49ef28ULL, 0x32d892fad841c342ULL, 0x7127512f72f27cceULL,
    0xa7f32346f95978e3ULL, 0x12e0b01abb051238ULL, 0x15e034d40fa197aeULL,
    0x314dffbe0815a3b4ULL, 0x027990f029623981ULL, 0xcadcd4e59ef40c4dULL,
    0x9abfd8766a33735cULL, 0x0e3ea96b5304a7d0ULL, 0xad0c42d6fc585992ULL,
    0x187306c89bc215a9ULL, 0xd4a60abcf3792b95ULL, 0xf935451de4f21df2ULL,
    0xa9538f0419755787ULL, 0xdb9acddff56ca510ULL, 0xd06c98cd5c0975ebULL,
    0xe612a3cb9ecba951ULL, 0xc766e62cfcadaf96ULL, 0xee64435a9752fe72ULL,
    0xa192d576b245165aULL, 0x0a8787bf8ecb74b2ULL, 0x81b3e73d20b49b6fULL,
    0x7fa8220ba3b2eceaULL, 0x245731c13ca42499ULL, 0xb78dbfaf3a8d83bdULL,
    0xea1ad565322a1a0bULL, 0x60e61c23a3795013ULL, 0x6606d7e446282b93ULL,
    0x6ca4ecb15c5f91e1ULL, 0x9f626da15c9625f3ULL, 0xe51b38608ef25f57ULL,
    0x958a324ceb064572ULL,
  };
  std::array<std::uint8_t, 64> msg{};
  for (std::size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<std::uint8_t>(i);
  for (std::size_t n = 0; n < 64; ++n) {
    EXPECT_EQ(siphash_2_4(0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, msg.data(), n), kVectors[n]) << "n=" << n;
  }
}

// Two next hops of weight 1 split the 31-bit space at 2^30; weights 1 and 3 at 2^29.
TEST(LinuxMultipath, UpperBoundsByHand) {
  const std::uint32_t equal[] = {1, 1};
  EXPECT_EQ(linux_nexthop_upper_bounds(equal), (std::vector<std::uint32_t>{(1u << 30) - 1, (1u << 31) - 1}));
  const std::uint32_t skew[] = {1, 3};
  const auto b = linux_nexthop_upper_bounds(skew);
  EXPECT_EQ(b, (std::vector<std::uint32_t>{(1u << 29) - 1, (1u << 31) - 1}));
  EXPECT_EQ(linux_select_nexthop((1u << 29) - 1, b), 0u);
  EXPECT_EQ(linux_select_nexthop(1u << 29, b), 1u);
}

// The kernel's flow hash is direction-independent: it sorts addresses and, separately, ports.
TEST(LinuxMultipath, FlowHashIsSymmetric) {
  const FlowKey fwd{ipv4(10, 1, 2, 3), ipv4(10, 99, 0, 7), kIpProtoUdp, 50000, kRoceV2UdpPort};
  const FlowKey rev{fwd.dst_ip, fwd.src_ip, kIpProtoUdp, kRoceV2UdpPort, 50000};
  const FlowKey mixed{fwd.dst_ip, fwd.src_ip, kIpProtoUdp, 50000, kRoceV2UdpPort};
  EXPECT_EQ(linux_flow_hash(fwd, 42), linux_flow_hash(rev, 42));
  EXPECT_EQ(linux_flow_hash(fwd, 42), linux_flow_hash(mixed, 42));
  EXPECT_NE(linux_flow_hash(fwd, 42), linux_flow_hash(fwd, 43));
}

// Policy 0 reads addresses only; policy 1 also ports; policy 2 equals 0 on a plain packet; the
// result always fits 31 bits.
TEST(LinuxMultipath, PolicyFields) {
  const FlowKey a{ipv4(10, 1, 2, 3), ipv4(10, 99, 0, 7), kIpProtoUdp, 50000, kRoceV2UdpPort};
  FlowKey b = a;
  b.src_port = 50001;
  const LinuxMultipathConfig l3{0, kLinuxDefaultHashFields, 7}, l4{1, kLinuxDefaultHashFields, 7};
  const LinuxMultipathConfig inner{2, kLinuxDefaultHashFields, 7};
  EXPECT_EQ(linux_multipath_hash(a, l3), linux_multipath_hash(b, l3));
  EXPECT_NE(linux_multipath_hash(a, l4), linux_multipath_hash(b, l4));
  EXPECT_EQ(linux_multipath_hash(a, inner), linux_multipath_hash(a, l3));
  EXPECT_LT(linux_multipath_hash(a, l4), 1u << 31);
  // Policy 3 with the L4 fields hashes the same keys as policy 1, then mixes with jhash.
  const LinuxMultipathConfig custom{3, 0x37, 7};
  EXPECT_EQ(linux_multipath_hash(a, custom),
            linux_jhash_2words(linux_flow_hash(a, 7), 0, 0) >> 1);
}

// Answers of the real kernel (Linux 6.18.44, x86-64), recorded with `ip route get <dst> from <src>
// iif <dev> ipproto <p> sport <s> dport <d>` on a 64-way route (next hops of weight 1, in order),
// with the policy, fields and seed sysctls shown. tests/linux/ repeats the comparison live on
// thousands of tuples where network namespaces are available.
TEST(LinuxMultipath, MatchesRecordedKernelAnswers) {
  struct Row {
    FlowKey key;
    int policy;
    std::uint32_t fields;
    std::uint32_t seed;
    std::size_t nexthop;
  };
  static const Row kRows[] = {
      {{ipv4(10,1,240,47), ipv4(10,99,155,52), 6, 59173, 47417}, 0, 0x7, 0x5eed1234u, 48},
      {{ipv4(10,1,209,194), ipv4(10,99,135,137), 17, 17091, 4791}, 0, 0x7, 0x5eed1234u, 10},
      {{ipv4(10,1,255,91), ipv4(10,99,212,135), 17, 48718, 4791}, 0, 0x7, 0x5eed1234u, 35},
      {{ipv4(10,1,111,80), ipv4(10,99,169,133), 6, 5917, 47931}, 0, 0x7, 0x5eed1234u, 51},
      {{ipv4(10,1,105,177), ipv4(10,99,239,237), 17, 47491, 4791}, 0, 0x7, 0x5eed1234u, 55},
      {{ipv4(10,1,75,137), ipv4(10,99,108,223), 17, 28018, 4791}, 0, 0x7, 0x5eed1234u, 12},
      {{ipv4(10,1,240,47), ipv4(10,99,155,52), 6, 59173, 47417}, 1, 0x7, 0x5eed1234u, 5},
      {{ipv4(10,1,209,194), ipv4(10,99,135,137), 17, 17091, 4791}, 1, 0x7, 0x5eed1234u, 37},
      {{ipv4(10,1,255,91), ipv4(10,99,212,135), 17, 48718, 4791}, 1, 0x7, 0x5eed1234u, 20},
      {{ipv4(10,1,111,80), ipv4(10,99,169,133), 6, 5917, 47931}, 1, 0x7, 0x5eed1234u, 45},
      {{ipv4(10,1,105,177), ipv4(10,99,239,237), 17, 47491, 4791}, 1, 0x7, 0x5eed1234u, 59},
      {{ipv4(10,1,75,137), ipv4(10,99,108,223), 17, 28018, 4791}, 1, 0x7, 0x5eed1234u, 31},
      {{ipv4(10,1,240,47), ipv4(10,99,155,52), 6, 59173, 47417}, 2, 0x7, 0x5eed1234u, 48},
      {{ipv4(10,1,209,194), ipv4(10,99,135,137), 17, 17091, 4791}, 2, 0x7, 0x5eed1234u, 10},
      {{ipv4(10,1,255,91), ipv4(10,99,212,135), 17, 48718, 4791}, 2, 0x7, 0x5eed1234u, 35},
      {{ipv4(10,1,111,80), ipv4(10,99,169,133), 6, 5917, 47931}, 2, 0x7, 0x5eed1234u, 51},
      {{ipv4(10,1,105,177), ipv4(10,99,239,237), 17, 47491, 4791}, 2, 0x7, 0x5eed1234u, 55},
      {{ipv4(10,1,75,137), ipv4(10,99,108,223), 17, 28018, 4791}, 2, 0x7, 0x5eed1234u, 12},
      {{ipv4(10,1,240,47), ipv4(10,99,155,52), 6, 59173, 47417}, 3, 0x37, 0x5eed1234u, 49},
      {{ipv4(10,1,209,194), ipv4(10,99,135,137), 17, 17091, 4791}, 3, 0x37, 0x5eed1234u, 40},
      {{ipv4(10,1,255,91), ipv4(10,99,212,135), 17, 48718, 4791}, 3, 0x37, 0x5eed1234u, 50},
      {{ipv4(10,1,111,80), ipv4(10,99,169,133), 6, 5917, 47931}, 3, 0x37, 0x5eed1234u, 14},
      {{ipv4(10,1,105,177), ipv4(10,99,239,237), 17, 47491, 4791}, 3, 0x37, 0x5eed1234u, 13},
      {{ipv4(10,1,75,137), ipv4(10,99,108,223), 17, 28018, 4791}, 3, 0x37, 0x5eed1234u, 12},
      {{ipv4(10,1,240,47), ipv4(10,99,155,52), 6, 59173, 47417}, 3, 0x14, 0x1u, 39},
      {{ipv4(10,1,209,194), ipv4(10,99,135,137), 17, 17091, 4791}, 3, 0x14, 0x1u, 16},
      {{ipv4(10,1,255,91), ipv4(10,99,212,135), 17, 48718, 4791}, 3, 0x14, 0x1u, 36},
      {{ipv4(10,1,111,80), ipv4(10,99,169,133), 6, 5917, 47931}, 3, 0x14, 0x1u, 45},
      {{ipv4(10,1,105,177), ipv4(10,99,239,237), 17, 47491, 4791}, 3, 0x14, 0x1u, 33},
      {{ipv4(10,1,75,137), ipv4(10,99,108,223), 17, 28018, 4791}, 3, 0x14, 0x1u, 44},
      {{ipv4(10,1,240,47), ipv4(10,99,155,52), 6, 59173, 47417}, 1, 0x7, 0xffffffffu, 5},
      {{ipv4(10,1,209,194), ipv4(10,99,135,137), 17, 17091, 4791}, 1, 0x7, 0xffffffffu, 49},
      {{ipv4(10,1,255,91), ipv4(10,99,212,135), 17, 48718, 4791}, 1, 0x7, 0xffffffffu, 16},
      {{ipv4(10,1,111,80), ipv4(10,99,169,133), 6, 5917, 47931}, 1, 0x7, 0xffffffffu, 5},
      {{ipv4(10,1,105,177), ipv4(10,99,239,237), 17, 47491, 4791}, 1, 0x7, 0xffffffffu, 33},
      {{ipv4(10,1,75,137), ipv4(10,99,108,223), 17, 28018, 4791}, 1, 0x7, 0xffffffffu, 42}
  };
  const std::vector<std::uint32_t> weights(64, 1);
  const auto bounds = linux_nexthop_upper_bounds(weights);
  for (const Row& r : kRows) {
    const LinuxMultipathConfig c{r.policy, r.fields, r.seed};
    EXPECT_EQ(linux_select_nexthop(linux_multipath_hash(r.key, c), bounds), r.nexthop)
        << "policy " << r.policy << " fields " << r.fields << " sport " << r.key.src_port;
  }
}

}  // namespace
}  // namespace ct
