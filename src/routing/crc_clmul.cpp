#include "routing/crc_clmul.h"

#include <cstddef>

namespace ct {

#if CT_CRC_CLMUL
namespace {

// GF(2) polynomials of degree < 64 as bit sets (bit d: the coefficient of x^d); p has degree 32.
constexpr std::uint64_t poly_mod(std::uint64_t a, std::uint64_t p, int exponent) {  // x^exponent mod p
  for (int i = 0; i < exponent; ++i) {
    a <<= 1;
    if (a >> 32) a ^= p;
  }
  return a;
}
constexpr std::uint64_t poly_div_x64(std::uint64_t p) {  // floor(x^64 / p), degree 32: long division
  std::uint64_t q = 0;
  std::uint64_t r = 0;
  for (int bit = 64; bit >= 0; --bit) {
    r = r << 1 | (bit == 64 ? 1u : 0u);
    if (r >> 32) {
      r ^= p;
      q |= std::uint64_t{1} << bit;
    }
  }
  return q;
}
constexpr std::uint64_t reflect64(std::uint64_t v, int width) {
  std::uint64_t r = 0;
  for (int i = 0; i < width; ++i) r |= ((v >> i) & 1u) << (width - 1 - i);
  return r;
}
constexpr ClmulConstants make_clmul_constants(std::uint32_t poly) {
  const std::uint64_t p = std::uint64_t{1} << 32 | poly;
  const auto k = [&](int e) { return reflect64(poly_mod(1, p, e), 32) << 1; };
  return {{k(104), k(72)}, {k(40), 0}, {reflect64(poly_div_x64(p), 33), reflect64(poly, 32)}};
}
constexpr ClmulConstants kClmulCrc32 = make_clmul_constants(0x04C11DB7);
constexpr ClmulConstants kClmulCrc32c = make_clmul_constants(0x1EDC6F41);
static_assert(kClmulCrc32.barrett[0] == 0x1F7011641u && kClmulCrc32.barrett[1] == 0xEDB88320u);
static_assert(kClmulCrc32.chunks01[0] == 0x1CC0A1202u && kClmulCrc32.chunk2[0] == 0x77073096u);
static_assert(kClmulCrc32c.chunks01[1] == 0x38116FACu && kClmulCrc32c.barrett[0] == 0xDEA713F1u);

// Safe before main too (a hasher built by a static initializer): the CPU model is read first.
bool cpu_has_clmul() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
  }();
  return has;
}

}  // namespace

const ClmulConstants* clmul_constants(std::uint32_t poly) {
  if (!cpu_has_clmul()) return nullptr;
  if (poly == 0x04C11DB7u) return &kClmulCrc32;
  if (poly == 0x1EDC6F41u) return &kClmulCrc32c;
  return nullptr;
}

static_assert(offsetof(FlowKey, src_ip) == 0 && offsetof(FlowKey, dst_ip) == 4 && offsetof(FlowKey, protocol) == 8 &&
              offsetof(FlowKey, src_port) == 10 && offsetof(FlowKey, dst_port) == 12 && sizeof(FlowKey) == 16);

[[gnu::target("pclmul,ssse3")]] __m128i ClmulHasher::shuffle(FieldMask fields, bool addresses) {
  // Byte i of the result takes byte b[i] of the key's memory (little-endian fields); -1: zero.
  const auto in = [&](FlowField f, char byte) { return (fields & f) != 0 ? byte : char{-1}; };
  const char n = -1;
  if (addresses) {
    return _mm_setr_epi8(in(kFieldSrcIp, 3), in(kFieldSrcIp, 2), in(kFieldSrcIp, 1), in(kFieldSrcIp, 0), n, n, n, n,
                         in(kFieldDstIp, 7), in(kFieldDstIp, 6), in(kFieldDstIp, 5), in(kFieldDstIp, 4), n, n, n, n);
  }
  return _mm_setr_epi8(in(kFieldSrcPort, 11), in(kFieldSrcPort, 10), in(kFieldDstPort, 13), in(kFieldDstPort, 12), n, n,
                       n, n, n, n, n, in(kFieldProtocol, 8), n, n, n, n);
}

#else

const ClmulConstants* clmul_constants(std::uint32_t) { return nullptr; }

#endif

}  // namespace ct
