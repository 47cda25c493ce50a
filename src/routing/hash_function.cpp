#include "routing/hash_function.h"

#include <array>
#include <boost/crc.hpp>
#include <cassert>
#include <cstddef>

#include "core/rng.h"

namespace ct {
namespace {

// A CRC's linear part: width, polynomial and bit order.
struct CrcFamily {
  int width;
  std::uint32_t poly;
  bool reflected;
};

constexpr std::uint32_t width_mask(int width) { return width == 32 ? 0xFFFFFFFFu : (1u << width) - 1u; }

constexpr std::uint32_t reflect(std::uint32_t v, int width) {
  std::uint32_t r = 0;
  for (int i = 0; i < width; ++i) r |= ((v >> i) & 1u) << (width - 1 - i);
  return r;
}

// One byte through the Rocksoft-model register. A reflected CRC keeps its register in reflected
// order (shifting right with the reflected polynomial), so its output needs no final reflection.
constexpr std::uint32_t crc_update(CrcFamily f, std::uint32_t reg, std::uint8_t byte) {
  if (f.reflected) {
    const std::uint32_t rpoly = reflect(f.poly, f.width);
    reg ^= byte;
    for (int i = 0; i < 8; ++i) reg = (reg & 1u) ? (reg >> 1) ^ rpoly : reg >> 1;
    return reg;
  }
  const std::uint32_t top = 1u << (f.width - 1);
  reg ^= std::uint32_t{byte} << (f.width - 8);
  for (int i = 0; i < 8; ++i) reg = ((reg & top) ? (reg << 1) ^ f.poly : reg << 1) & width_mask(f.width);
  return reg;
}

// T[p][b]: zero-init, zero-xorout CRC of the 13-byte key holding b at position p, zeros elsewhere.
using KeyTable = std::array<std::array<std::uint32_t, 256>, kFlowKeyBytes>;

constexpr KeyTable make_key_table(CrcFamily f) {
  KeyTable t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t reg = crc_update(f, 0, static_cast<std::uint8_t>(b));
    for (std::size_t p = kFlowKeyBytes; p-- > 0;) {
      t[p][b] = reg;
      reg = crc_update(f, reg, 0);
    }
  }
  return t;
}

constexpr CrcFamily kFamilyCcitt{16, 0x1021, false};
constexpr CrcFamily kFamilyArc{16, 0x8005, true};
constexpr CrcFamily kFamilyCrc32{32, 0x04C11DB7, true};
constexpr CrcFamily kFamilyCrc32c{32, 0x1EDC6F41, true};
constexpr KeyTable kTableCcitt = make_key_table(kFamilyCcitt);
constexpr KeyTable kTableArc = make_key_table(kFamilyArc);
constexpr KeyTable kTableCrc32 = make_key_table(kFamilyCrc32);
constexpr KeyTable kTableCrc32c = make_key_table(kFamilyCrc32c);


struct CrcDefinition {
  CrcParameters params;
  CrcFamily family;
  const KeyTable* table;
};

// PRECONDITION: a is a CRC.
const CrcDefinition& crc_definition(HashAlgorithm a) {
  static constexpr CrcDefinition kCcittFalse{{16, 0x1021, 0xFFFF, false, false, 0x0000, 0x29B1}, kFamilyCcitt, &kTableCcitt};
  static constexpr CrcDefinition kXmodem{{16, 0x1021, 0x0000, false, false, 0x0000, 0x31C3}, kFamilyCcitt, &kTableCcitt};
  static constexpr CrcDefinition kArc{{16, 0x8005, 0x0000, true, true, 0x0000, 0xBB3D}, kFamilyArc, &kTableArc};
  static constexpr CrcDefinition kCrc32{
      {32, 0x04C11DB7, 0xFFFFFFFF, true, true, 0xFFFFFFFF, 0xCBF43926}, kFamilyCrc32, &kTableCrc32};
  static constexpr CrcDefinition kCrc32c{
      {32, 0x1EDC6F41, 0xFFFFFFFF, true, true, 0xFFFFFFFF, 0xE3069283}, kFamilyCrc32c, &kTableCrc32c};
  switch (a) {
    case HashAlgorithm::kCrc16CcittFalse: return kCcittFalse;
    case HashAlgorithm::kCrc16Xmodem: return kXmodem;
    case HashAlgorithm::kCrc16Arc: return kArc;
    case HashAlgorithm::kCrc32:
    case HashAlgorithm::kCrc32Lo16:
    case HashAlgorithm::kCrc32Hi16: return kCrc32;
    case HashAlgorithm::kCrc32c: return kCrc32c;
    case HashAlgorithm::kXor16:
    case HashAlgorithm::kRandom: break;
  }
  assert(false && "not a CRC");
  return kCrc32;
}

bool is_crc(HashAlgorithm a) { return a != HashAlgorithm::kXor16 && a != HashAlgorithm::kRandom; }

// The function's output from a full-width CRC value.
std::uint32_t crc_output(HashAlgorithm a, std::uint32_t crc) {
  if (a == HashAlgorithm::kCrc32Lo16) return crc & 0xFFFFu;
  if (a == HashAlgorithm::kCrc32Hi16) return crc >> 16;
  return crc;
}

std::array<std::uint8_t, 4> seed_bytes(std::uint32_t seed) {
  return {static_cast<std::uint8_t>(seed >> 24), static_cast<std::uint8_t>(seed >> 16),
          static_cast<std::uint8_t>(seed >> 8), static_cast<std::uint8_t>(seed)};
}

// The full CRC (init, xorout) of `prefix` followed by `key`, computed bit by bit.
std::uint32_t crc_direct(const CrcDefinition& d, std::uint32_t init, std::span<const std::uint8_t> prefix,
                         std::span<const std::uint8_t> key) {
  std::uint32_t reg = d.family.reflected ? reflect(init, d.family.width) : init;
  for (std::uint8_t b : prefix) reg = crc_update(d.family, reg, b);
  for (std::uint8_t b : key) reg = crc_update(d.family, reg, b);
  return reg ^ d.params.xorout;
}

template <typename Crc>
std::uint32_t boost_crc(std::uint32_t init, std::span<const std::uint8_t> prefix, std::span<const std::uint8_t> key) {
  Crc crc(static_cast<typename Crc::value_type>(init));
  crc.process_bytes(prefix.data(), prefix.size());
  crc.process_bytes(key.data(), key.size());
  return crc.checksum();
}

std::uint32_t boost_crc_of(HashAlgorithm a, std::uint32_t init, std::span<const std::uint8_t> prefix,
                           std::span<const std::uint8_t> key) {
  switch (a) {
    case HashAlgorithm::kCrc16CcittFalse:
    case HashAlgorithm::kCrc16Xmodem:
      return boost_crc<boost::crc_optimal<16, 0x1021, 0, 0, false, false>>(init, prefix, key);
    case HashAlgorithm::kCrc16Arc:
      return boost_crc<boost::crc_optimal<16, 0x8005, 0, 0, true, true>>(init, prefix, key);
    case HashAlgorithm::kCrc32:
    case HashAlgorithm::kCrc32Lo16:
    case HashAlgorithm::kCrc32Hi16:
      return boost_crc<boost::crc_optimal<32, 0x04C11DB7, 0, 0xFFFFFFFF, true, true>>(init, prefix, key);
    case HashAlgorithm::kCrc32c:
      return boost_crc<boost::crc_optimal<32, 0x1EDC6F41, 0, 0xFFFFFFFF, true, true>>(init, prefix, key);
    case HashAlgorithm::kXor16:
    case HashAlgorithm::kRandom: break;
  }
  assert(false && "not a CRC");
  return 0;
}

std::uint32_t fold16(std::uint32_t v) { return (v >> 16) ^ (v & 0xFFFFu); }

std::uint32_t xor16_bytes(std::uint32_t seed, std::span<const std::uint8_t> key) {
  std::uint32_t acc = fold16(seed);
  for (std::size_t i = 0; i < key.size(); i += 2) {
    const std::uint32_t lo = i + 1 < key.size() ? key[i + 1] : 0u;
    acc ^= (std::uint32_t{key[i]} << 8) | lo;
  }
  return acc;
}

struct MixKey {
  std::uint64_t k0, k1;
};

MixKey mix_key(std::uint32_t seed) {
  std::uint64_t state = seed;
  const std::uint64_t k0 = splitmix64(state);
  const std::uint64_t k1 = splitmix64(state);
  return {k0, k1};
}

std::uint32_t mix(MixKey k, const FlowKey& m) {
  const std::uint64_t a = (std::uint64_t{m.src_ip} << 32) | m.dst_ip;
  const std::uint64_t b = (std::uint64_t{m.src_port} << 24) | (std::uint64_t{m.dst_port} << 8) | m.protocol;
  std::uint64_t state = a ^ k.k0;
  state = splitmix64(state) ^ b ^ k.k1;
  return static_cast<std::uint32_t>(splitmix64(state) >> 32);
}

FlowKey parse_key(std::span<const std::uint8_t> b) {
  assert(b.size() == kFlowKeyBytes);
  auto be = [&](std::size_t at, std::size_t n) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | b[at + i];
    return v;
  };
  FlowKey k;
  k.src_ip = be(0, 4);
  k.dst_ip = be(4, 4);
  k.src_port = static_cast<std::uint16_t>(be(8, 2));
  k.dst_port = static_cast<std::uint16_t>(be(10, 2));
  k.protocol = b[12];
  return k;
}

struct Named {
  HashAlgorithm algorithm;
  std::string_view name;
};
constexpr Named kNames[] = {
    {HashAlgorithm::kCrc16CcittFalse, "crc16-ccitt-false"}, {HashAlgorithm::kCrc16Xmodem, "crc16-xmodem"},
    {HashAlgorithm::kCrc16Arc, "crc16-arc"},                {HashAlgorithm::kCrc32, "crc32"},
    {HashAlgorithm::kCrc32Lo16, "crc32-lo16"},              {HashAlgorithm::kCrc32Hi16, "crc32-hi16"},
    {HashAlgorithm::kCrc32c, "crc32c"},                     {HashAlgorithm::kXor16, "xor16"},
    {HashAlgorithm::kRandom, "random"}};

}  // namespace

std::string_view hash_algorithm_name(HashAlgorithm a) {
  for (const Named& n : kNames)
    if (n.algorithm == a) return n.name;
  return "?";
}

std::optional<HashAlgorithm> parse_hash_algorithm(std::string_view name) {
  for (const Named& n : kNames)
    if (n.name == name) return n.algorithm;
  return std::nullopt;
}

std::string_view seed_input_name(SeedInput s) { return s == SeedInput::kPrepend ? "prepend" : "init"; }

std::optional<SeedInput> parse_seed_input(std::string_view name) {
  if (name == "prepend") return SeedInput::kPrepend;
  if (name == "init") return SeedInput::kInitialValue;
  return std::nullopt;
}

int hash_bits(HashAlgorithm a) {
  switch (a) {
    case HashAlgorithm::kCrc32:
    case HashAlgorithm::kCrc32c:
    case HashAlgorithm::kRandom: return 32;
    default: return 16;
  }
}

std::optional<CrcParameters> crc_parameters(HashAlgorithm a) {
  if (!is_crc(a)) return std::nullopt;
  return crc_definition(a).params;
}

std::uint32_t hash_bytes(HashAlgorithm a, std::uint32_t seed, SeedInput seed_input, std::span<const std::uint8_t> key) {
  if (a == HashAlgorithm::kXor16) return xor16_bytes(seed, key);
  if (a == HashAlgorithm::kRandom) return mix(mix_key(seed), parse_key(key));
  const CrcDefinition& d = crc_definition(a);
  const auto prefix = seed_bytes(seed);
  const std::uint32_t crc =
      seed_input == SeedInput::kPrepend
          ? boost_crc_of(a, d.params.init, prefix, key)
          : boost_crc_of(a, seed & width_mask(d.params.width), std::span<const std::uint8_t>(), key);
  return crc_output(a, crc);
}

FlowHasher::FlowHasher(HashAlgorithm algorithm, std::uint32_t seed, SeedInput seed_input, FieldMask fields)
    : algorithm_(algorithm), seed_input_(seed_input), fields_(fields), seed_(seed) {
  if (algorithm == HashAlgorithm::kXor16) {
    constant_ = fold16(seed);
  } else if (algorithm == HashAlgorithm::kRandom) {
    const MixKey k = mix_key(seed);
    k0_ = k.k0;
    k1_ = k.k1;
  } else {
    const CrcDefinition& d = crc_definition(algorithm);
    const FlowKeyBytes zeros{};
    const auto prefix = seed_bytes(seed);
    constant_ = seed_input == SeedInput::kPrepend
                    ? crc_direct(d, d.params.init, prefix, zeros)
                    : crc_direct(d, seed & width_mask(d.params.width), std::span<const std::uint8_t>(), zeros);
    table_ = d.table->data();
    // crc_output as a shift and a mask.
    if (algorithm == HashAlgorithm::kCrc32Lo16) out_mask_ = 0xFFFFu;
    if (algorithm == HashAlgorithm::kCrc32Hi16) out_shift_ = 16;
    if (d.family.width == 32) clmul_ = clmul_constants(d.family.poly);
  }
}



std::uint32_t FlowHasher::other_hash(const FlowKey& key) const {
  if (algorithm_ == HashAlgorithm::kXor16) {
    const FlowKey m = masked(key, fields_);
    return constant_ ^ fold16(m.src_ip) ^ fold16(m.dst_ip) ^ m.src_port ^ m.dst_port ^ (std::uint32_t{m.protocol} << 8);
  }
  assert(algorithm_ == HashAlgorithm::kRandom);
  return random_hash(key);
}

std::uint32_t FlowHasher::random_hash(const FlowKey& key) const { return mix({k0_, k1_}, masked(key, fields_)); }

}  // namespace ct
