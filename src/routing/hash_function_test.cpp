#include "routing/hash_function.h"

#include <gtest/gtest.h>

#include <string_view>

#include "core/rng.h"
#include "routing/crc_clmul.h"

namespace ct {
namespace {

std::span<const std::uint8_t> ascii(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Every way the fast paths hash `key` agrees with `want`: the tables (hash) and, where the CPU and
// the function have it, the carry-less multiplication (crc_clmul.h) that the batch walk uses.
::testing::AssertionResult fast_paths_give(const FlowHasher& hasher, const FlowKey& key, std::uint32_t want) {
  if (const std::uint32_t h = hasher.hash(key); h != want) {
    return ::testing::AssertionFailure() << "table path " << h << " != " << want;
  }
#if CT_CRC_CLMUL
  if (hasher.clmul()) {
    if (const std::uint32_t h = ClmulHasher(hasher).hash(key); h != want) {
      return ::testing::AssertionFailure() << "clmul path " << h << " != " << want;
    }
  }
#endif
  return ::testing::AssertionSuccess();
}

// Known answers: the catalogue's check value, the CRC of ASCII "123456789", for each function run
// with its catalogue init as the seed (seed input "init" replaces init by the seed).
TEST(HashFunction, CatalogueCheckValues) {
  const auto check = [](HashAlgorithm a) {
    return hash_bytes(a, crc_parameters(a)->init, SeedInput::kInitialValue, ascii("123456789"));
  };
  EXPECT_EQ(check(HashAlgorithm::kCrc16CcittFalse), 0x29B1u);
  EXPECT_EQ(check(HashAlgorithm::kCrc16Xmodem), 0x31C3u);
  EXPECT_EQ(check(HashAlgorithm::kCrc16Arc), 0xBB3Du);
  EXPECT_EQ(check(HashAlgorithm::kCrc32), 0xCBF43926u);
  EXPECT_EQ(check(HashAlgorithm::kCrc32Lo16), 0x3926u);
  EXPECT_EQ(check(HashAlgorithm::kCrc32Hi16), 0xCBF4u);
  EXPECT_EQ(check(HashAlgorithm::kCrc32c), 0xE3069283u);
  for (HashAlgorithm a : kAllHashAlgorithms) {
    if (auto p = crc_parameters(a); p && a != HashAlgorithm::kCrc32Lo16 && a != HashAlgorithm::kCrc32Hi16) {
      EXPECT_EQ(check(a), p->check) << hash_algorithm_name(a);
    }
  }
}

// Serialisation of 10.0.0.1 -> 10.0.1.2, UDP 0x1234 -> 4791 (0x12B7), worked by hand from the
// layout in flow_key.h.
TEST(HashFunction, SerialisesInNetworkOrder) {
  const FlowKey k{ipv4(10, 0, 0, 1), ipv4(10, 0, 1, 2), kIpProtoUdp, 0x1234, kRoceV2UdpPort};
  const FlowKeyBytes want{10, 0, 0, 1, 10, 0, 1, 2, 0x12, 0x34, 0x12, 0xB7, 17};
  EXPECT_EQ(serialize(k, kFiveTuple), want);
  const FlowKeyBytes l3{10, 0, 0, 1, 10, 0, 1, 2, 0, 0, 0, 0, 0};
  EXPECT_EQ(serialize(k, kL3Only), l3);
}

// xor16 by hand for the key above and seed 0x00010002:
//   0x0A00 ^ 0x0001 ^ 0x0A00 ^ 0x0102 ^ 0x1234 ^ 0x12B7 ^ 0x1100 ^ 0x0001 ^ 0x0002
//   (the two 0x0A00 and the two 0x0001 cancel) = 0x0102 ^ 0x0083 ^ 0x1100 ^ 0x0002 = 0x1083.
TEST(HashFunction, XorFoldByHand) {
  const FlowKey k{ipv4(10, 0, 0, 1), ipv4(10, 0, 1, 2), kIpProtoUdp, 0x1234, kRoceV2UdpPort};
  EXPECT_EQ(FlowHasher(HashAlgorithm::kXor16, 0x00010002).hash(k), 0x1083u);
  EXPECT_EQ(FlowHasher(HashAlgorithm::kXor16, 0x00010002, SeedInput::kInitialValue).hash(k), 0x1083u);
}

// The table-driven fast path equals the Boost.CRC reference on random keys, for every function,
// both seed inputs and several field masks.
TEST(HashFunction, FastPathMatchesBoostReference) {
  Rng rng(7, 0, 0);
  const FieldMask masks[] = {kFiveTuple, kL3Only, kFieldSrcPort, kFieldSrcIp | kFieldDstPort | kFieldProtocol};
  for (HashAlgorithm a : kAllHashAlgorithms) {
    for (SeedInput in : {SeedInput::kPrepend, SeedInput::kInitialValue}) {
      for (FieldMask mask : masks) {
        for (int trial = 0; trial < 200; ++trial) {
          const auto seed = static_cast<std::uint32_t>(rng.next_u64());
          const FlowKey k{static_cast<std::uint32_t>(rng.next_u64()), static_cast<std::uint32_t>(rng.next_u64()),
                          static_cast<std::uint8_t>(rng.uniform(256)), static_cast<std::uint16_t>(rng.uniform(65536)),
                          static_cast<std::uint16_t>(rng.uniform(65536))};
          const FlowHasher hasher(a, seed, in, mask);
          const FlowKeyBytes bytes = serialize(k, mask);
          const std::uint32_t h = hasher.hash(k);
          ASSERT_TRUE(fast_paths_give(hasher, k, hash_bytes(a, seed, in, bytes)))
              << hash_algorithm_name(a) << " " << seed_input_name(in) << " mask " << int{mask};
          ASSERT_LT(std::uint64_t{h}, std::uint64_t{1} << hasher.bits());
        }
      }
    }
  }
}

// Every byte position of the key through the fast path: for each of the 13 positions and each
// byte value, the key holding that byte alone (and the same byte everywhere else as 0xA5) hashes
// as the reference does over its serialised bytes, so no position is read from the wrong field
// or the wrong end of one.
TEST(HashFunction, FastPathReadsEveryKeyByteInPlace) {
  const auto key_of = [](const FlowKeyBytes& b) {
    const auto be32 = [&](int at) {
      return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
    };
    const auto be16 = [&](int at) { return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]); };
    return FlowKey{be32(0), be32(4), b[12], be16(8), be16(10)};
  };
  for (HashAlgorithm a : kAllHashAlgorithms) {
    if (!crc_parameters(a)) continue;
    for (SeedInput in : {SeedInput::kPrepend, SeedInput::kInitialValue}) {
      const FlowHasher hasher(a, 0x5EED1234u, in);
      for (std::size_t p = 0; p < kFlowKeyBytes; ++p) {
        for (std::uint8_t fill : {std::uint8_t{0}, std::uint8_t{0xA5}}) {
          for (int v = 0; v < 256; ++v) {
            FlowKeyBytes bytes;
            bytes.fill(fill);
            bytes[p] = static_cast<std::uint8_t>(v);
            const FlowKey k = key_of(bytes);
            ASSERT_EQ(serialize(k, kFiveTuple), bytes);
            ASSERT_TRUE(fast_paths_give(hasher, k, hash_bytes(a, 0x5EED1234u, in, bytes)))
                << hash_algorithm_name(a) << " position " << p << " byte " << v;
          }
        }
      }
    }
  }
}

// The catalogue check values through the fast path: with a zero register, leading zero bytes do
// not move a CRC, so CRC-16/XMODEM and CRC-16/ARC (init 0) of the key 0.0.0.0 -> "1234", ports
// "56" -> "78", protocol '9' (the 13 bytes 0^4 "123456789") and seed 0 are the check values, with
// the seed prepended (four more zero bytes) or as init.
TEST(HashFunction, FastPathGivesCatalogueCheckValues) {
  const FlowKey k{0, 0x31323334u, 0x39, 0x3536, 0x3738};
  for (SeedInput in : {SeedInput::kPrepend, SeedInput::kInitialValue}) {
    EXPECT_EQ(FlowHasher(HashAlgorithm::kCrc16Xmodem, 0, in).hash(k), 0x31C3u);
    EXPECT_EQ(FlowHasher(HashAlgorithm::kCrc16Arc, 0, in).hash(k), 0xBB3Du);
  }
}

// The carry-less path is taken for the reflected 32-bit CRCs on a CPU that has PCLMULQDQ and
// SSSE3, so that the tests above check it there; never for the others.
TEST(HashFunction, ClmulPathForTheReflected32BitCrcs) {
#if CT_CRC_CLMUL
  const bool cpu = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
#else
  const bool cpu = false;
#endif
  for (HashAlgorithm a : kAllHashAlgorithms) {
    const bool reflected32 = a == HashAlgorithm::kCrc32 || a == HashAlgorithm::kCrc32Lo16 ||
                             a == HashAlgorithm::kCrc32Hi16 || a == HashAlgorithm::kCrc32c;
    EXPECT_EQ(FlowHasher(a, 1).clmul(), cpu && reflected32) << hash_algorithm_name(a);
  }
  if (!cpu) GTEST_SKIP() << "no PCLMULQDQ or SSSE3 on this CPU: only the table path runs here";
}

// A field outside the mask does not move the hash; a field inside does (a full CRC-32 detects any
// change confined to 32 contiguous bits, so a different source port always changes it).
TEST(HashFunction, FieldMaskSelectsFields) {
  const FlowKey a{ipv4(10, 1, 0, 1), ipv4(10, 2, 0, 1), kIpProtoUdp, 1000, kRoceV2UdpPort};
  FlowKey b = a;
  b.src_port = 1001;
  const FlowHasher l3(HashAlgorithm::kCrc32, 5, SeedInput::kPrepend, kL3Only);
  const FlowHasher l4(HashAlgorithm::kCrc32, 5, SeedInput::kPrepend, kFiveTuple);
  EXPECT_EQ(l3.hash(a), l3.hash(b));
  EXPECT_NE(l4.hash(a), l4.hash(b));
}

// Different seeds change a full CRC-32 (the seeds differ within 32 contiguous bits) and the mixer.
TEST(HashFunction, SeedChangesHash) {
  const FlowKey k{ipv4(10, 1, 0, 1), ipv4(10, 2, 0, 1), kIpProtoUdp, 1000, kRoceV2UdpPort};
  for (SeedInput in : {SeedInput::kPrepend, SeedInput::kInitialValue}) {
    EXPECT_NE(FlowHasher(HashAlgorithm::kCrc32, 1, in).hash(k), FlowHasher(HashAlgorithm::kCrc32, 2, in).hash(k));
  }
  EXPECT_NE(FlowHasher(HashAlgorithm::kRandom, 1).hash(k), FlowHasher(HashAlgorithm::kRandom, 2).hash(k));
  EXPECT_EQ(FlowHasher(HashAlgorithm::kRandom, 9).hash(k), FlowHasher(HashAlgorithm::kRandom, 9).hash(k));
}

TEST(HashFunction, NamesRoundTrip) {
  for (HashAlgorithm a : kAllHashAlgorithms) EXPECT_EQ(parse_hash_algorithm(hash_algorithm_name(a)), a);
  EXPECT_FALSE(parse_hash_algorithm("crc64"));
  EXPECT_EQ(parse_seed_input("init"), SeedInput::kInitialValue);
  EXPECT_EQ(parse_seed_input("prepend"), SeedInput::kPrepend);
  EXPECT_EQ(hash_bits(HashAlgorithm::kCrc32Hi16), 16);
  EXPECT_EQ(hash_bits(HashAlgorithm::kCrc32c), 32);
}

}  // namespace
}  // namespace ct
