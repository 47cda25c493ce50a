// Named ECMP hash functions over the 13-byte flow key of flow_key.h, as switch data planes compute
// them, with a per-switch seed.
//
// CRC parameters in the Rocksoft model (Williams, "A painless guide to CRC error detection
// algorithms", 1993) with the values of Greg Cook's "Catalogue of parametrised CRC algorithms";
// "check" is the CRC of the nine ASCII bytes "123456789":
//   crc16-ccitt-false  CRC-16/CCITT-FALSE (catalogue name CRC-16/IBM-3740): width 16, poly 0x1021,
//                      init 0xFFFF, refin false, refout false, xorout 0x0000, check 0x29B1
//   crc16-xmodem       CRC-16/XMODEM: width 16, poly 0x1021, init 0x0000, refin false, refout
//                      false, xorout 0x0000, check 0x31C3
//   crc16-arc          CRC-16/ARC (aliases ARC, CRC-16, CRC-16/LHA, CRC-IBM; the polynomial
//                      0x8005 of IBM BISYNC): width 16, poly 0x8005, init 0x0000, refin true,
//                      refout true, xorout 0x0000, check 0xBB3D
//   crc32              CRC-32 (IEEE 802.3, catalogue CRC-32/ISO-HDLC): width 32, poly 0x04C11DB7,
//                      init 0xFFFFFFFF, refin true, refout true, xorout 0xFFFFFFFF, check 0xCBF43926
//   crc32-lo16         bits 0..15 of crc32 (check 0x3926)
//   crc32-hi16         bits 16..31 of crc32 (check 0xCBF4)
//   crc32c             CRC-32C (Castagnoli, catalogue CRC-32/ISCSI): width 32, poly 0x1EDC6F41,
//                      init 0xFFFFFFFF, refin true, refout true, xorout 0xFFFFFFFF, check 0xE3069283
// Non-CRC functions:
//   xor16              XOR of the big-endian 16-bit words of the input (seed bytes, then the 13
//                      key bytes; the odd last byte is the high byte of a word whose low byte is
//                      zero): src_ip[31:16] ^ src_ip[15:0] ^ dst_ip[31:16] ^ dst_ip[15:0] ^
//                      src_port ^ dst_port ^ (protocol << 8) ^ seed[31:16] ^ seed[15:0].
//   random             the ideal reference: a keyed mixer, uniform and independent per seed.
//                      (k0, k1) = the first two SplitMix64 outputs from state = seed; with
//                      a = src_ip << 32 | dst_ip and b = src_port << 24 | dst_port << 8 | protocol,
//                      hash = upper 32 bits of M(M(a ^ k0) ^ b ^ k1), M = one SplitMix64 step
//                      (Steele, Lea & Flood 2014). Not a CRC; the seed input mode does not apply.
//
// How the seed enters (SeedInput; real switches differ, so it is an option):
//   prepend  the 32-bit seed is four big-endian bytes placed before the key: the function reads
//            17 bytes. Default.
//   init     the seed replaces the CRC's init parameter (truncated to the CRC width, in the
//            catalogue's unreflected sense); for xor16 it starts the accumulator at
//            seed[31:16] ^ seed[15:0], which equals prepend.
//
// Speed: a CRC is affine over GF(2) in its input bits, so for the fixed-length key
//   crc(prefix || key) = crc(prefix || 0^13) XOR L(key),  L(key) = XOR over positions p of T_p[key_p],
// with T_p[b] the zero-init, zero-xorout CRC of the 13-byte message holding b at p. The constant is
// computed once per hasher, the tables once at compile time: 13 independent table look-ups per
// hash, no loop-carried dependency and no allocation. hash_bytes() is the plain reference built on
// Boost.CRC that tests compare the fast path against.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "routing/flow_key.h"

namespace ct {

struct ClmulConstants;
class ClmulHasher;
// The carry-less multiplication constants of the reflected 32-bit CRC with polynomial `poly`
// (crc_clmul.h), or null where that CRC or this CPU has no such path.
const ClmulConstants* clmul_constants(std::uint32_t poly);

enum class HashAlgorithm : std::uint8_t {
  kCrc16CcittFalse,
  kCrc16Xmodem,
  kCrc16Arc,
  kCrc32,
  kCrc32Lo16,
  kCrc32Hi16,
  kCrc32c,
  kXor16,
  kRandom,
};
inline constexpr HashAlgorithm kAllHashAlgorithms[] = {
    HashAlgorithm::kCrc16CcittFalse, HashAlgorithm::kCrc16Xmodem, HashAlgorithm::kCrc16Arc,
    HashAlgorithm::kCrc32,           HashAlgorithm::kCrc32Lo16,   HashAlgorithm::kCrc32Hi16,
    HashAlgorithm::kCrc32c,          HashAlgorithm::kXor16,       HashAlgorithm::kRandom};

enum class SeedInput : std::uint8_t { kPrepend, kInitialValue };

std::string_view hash_algorithm_name(HashAlgorithm a);
std::optional<HashAlgorithm> parse_hash_algorithm(std::string_view name);
std::string_view seed_input_name(SeedInput s);
std::optional<SeedInput> parse_seed_input(std::string_view name);

// Number of significant bits of the function's output: the hash lies in [0, 2^bits).
int hash_bits(HashAlgorithm a);

// The catalogue parameters of a CRC (nullopt for xor16 and random). For crc32-lo16/-hi16 they are
// those of the underlying CRC-32.
struct CrcParameters {
  int width;
  std::uint32_t poly;
  std::uint32_t init;
  bool refin;
  bool refout;
  std::uint32_t xorout;
  std::uint32_t check;
};
std::optional<CrcParameters> crc_parameters(HashAlgorithm a);

// Reference implementation over arbitrary bytes (Boost.CRC for the CRCs), applying the seed as
// `seed_input` says. For random, `key` must be a serialised FlowKey (13 bytes).
std::uint32_t hash_bytes(HashAlgorithm a, std::uint32_t seed, SeedInput seed_input, std::span<const std::uint8_t> key);

// One switch's hash: function, seed, seed input and field mask fixed at construction.
class FlowHasher {
 public:
  FlowHasher(HashAlgorithm algorithm, std::uint32_t seed, SeedInput seed_input = SeedInput::kPrepend,
             FieldMask fields = kFiveTuple);

  // POSTCONDITION: result < 2^bits(). Equals hash_bytes(algorithm, seed, seed_input, serialize(key, fields)).
  // Inline for the CRCs (a walk hashes every key once): the 13 look-ups, then the output bits.
  [[nodiscard]] std::uint32_t hash(const FlowKey& key) const {
    return table_ != nullptr ? (crc_hash(key) >> out_shift_) & out_mask_ : other_hash(key);
  }

  [[nodiscard]] int bits() const { return hash_bits(algorithm_); }
  [[nodiscard]] HashAlgorithm algorithm() const { return algorithm_; }
  [[nodiscard]] std::uint32_t seed() const { return seed_; }
  [[nodiscard]] SeedInput seed_input() const { return seed_input_; }
  [[nodiscard]] FieldMask fields() const { return fields_; }
  // The same hash by carry-less multiplication is available (crc_clmul.h): a reflected 32-bit CRC
  // on a CPU with PCLMULQDQ and SSSE3.
  [[nodiscard]] bool clmul() const { return clmul_ != nullptr; }

 private:
  friend class ClmulHasher;

  // The full-width CRC: constant XOR L(key) (see "Speed" above). The whole 5-tuple (the usual
  // mask) needs no masking.
  [[nodiscard]] std::uint32_t crc_hash(const FlowKey& key) const {
    return fields_ == kFiveTuple ? crc_of(key) : crc_of(masked(key, fields_));
  }
  // T_p[byte p] of the serialised key (flow_key.h), each byte taken from its field in place: the
  // same 13 look-ups as over serialize(k), without building the byte array.
  [[nodiscard]] std::uint32_t crc_of(const FlowKey& k) const {
    const std::array<std::uint32_t, 256>* t = table_;
    const std::uint32_t s = k.src_ip;
    const std::uint32_t d = k.dst_ip;
    const std::uint32_t ports = (std::uint32_t{k.src_port} << 16) | k.dst_port;
    std::uint32_t h = constant_ ^ t[12][k.protocol];
    h ^= t[0][s >> 24] ^ t[1][(s >> 16) & 0xFFu] ^ t[2][(s >> 8) & 0xFFu] ^ t[3][s & 0xFFu];
    h ^= t[4][d >> 24] ^ t[5][(d >> 16) & 0xFFu] ^ t[6][(d >> 8) & 0xFFu] ^ t[7][d & 0xFFu];
    h ^= t[8][ports >> 24] ^ t[9][(ports >> 16) & 0xFFu] ^ t[10][(ports >> 8) & 0xFFu] ^ t[11][ports & 0xFFu];
    return h;
  }
  std::uint32_t other_hash(const FlowKey& key) const;  // xor16 and random
  std::uint32_t random_hash(const FlowKey& key) const;

  HashAlgorithm algorithm_;
  SeedInput seed_input_;
  FieldMask fields_;
  std::uint32_t seed_;
  std::uint32_t constant_ = 0;  // CRCs: crc(prefix || 0^13); xor16: the seed's fold
  const std::array<std::uint32_t, 256>* table_ = nullptr;  // CRCs: T_p, p = 0..12 (static storage)
  int out_shift_ = 0;                   // CRCs: the output is (crc >> out_shift_) & out_mask_
  std::uint32_t out_mask_ = 0xFFFFFFFFu;
  const ClmulConstants* clmul_ = nullptr;  // crc_clmul.h (static storage), when available
  std::uint64_t k0_ = 0;        // random: the mixer's key
  std::uint64_t k1_ = 0;
};

}  // namespace ct
