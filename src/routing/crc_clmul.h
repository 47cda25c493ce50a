// The flow key's CRC by carry-less multiplication (x86-64 PCLMULQDQ with SSSE3's byte shuffle), for
// the reflected 32-bit CRCs: crc32, crc32-lo16, crc32-hi16 and crc32c. The same hash as
// FlowHasher::hash, bit for bit (hash_function_test, against Boost.CRC); used by the path walker's
// batch walk when the CPU has both (checked at run time; every other CPU and function takes the
// table path of hash_function.h).
//
// The model. L(key) (hash_function.h, "Speed") is the zero-init, zero-xorout CRC of the 13 serialised
// key bytes: r = M(x) x^32 mod P(x), M the message polynomial (first bit highest). Split M into the
// 32-bit chunks c0 (source address), c1 (destination address), c2 (both ports) and the protocol
// byte c3:  M x^32 = c0 x^104 + c1 x^72 + c2 x^40 + c3 x^32, so
//   M x^32 = c0 (x^104 mod P) + c1 (x^72 mod P) + c2 (x^40 mod P) + c3 x^32   (mod P),
// three 32 x 32-bit carry-less products and the protocol byte, a polynomial V of degree < 64;
// r = V mod P by Barrett reduction with mu = floor(x^64 / P): q = floor(floor(V / x^32) mu / x^32),
// r = V + q P mod x^32 (two more products). In the reflected (LSB-first) representation that
// reflected CRCs keep, a carry-less product of a- and b-bit values is the (a + b - 1)-bit reflected
// product, hence the constants' extra shift by one. The chunks are cut from the key's memory with
// one byte shuffle each (fields outside the hasher's mask read as zero), so the key is loaded once.
#pragma once

#include <cstdint>

#include "routing/flow_key.h"
#include "routing/hash_function.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define CT_CRC_CLMUL 1
#include <immintrin.h>
#else
#define CT_CRC_CLMUL 0
#endif

namespace ct {

#if CT_CRC_CLMUL

// The constants of one reflected 32-bit CRC: (x^104 mod P, x^72 mod P), (x^40 mod P, 0),
// (mu, P without its x^32 term), each reflected; the first three shifted left by one.
struct ClmulConstants {
  std::uint64_t chunks01[2];
  std::uint64_t chunk2[2];
  std::uint64_t barrett[2];
};

// One FlowHasher's hash by carry-less multiplication, its constants held by value so that a loop
// keeps them in registers. Construct and call only inside code built for "pclmul,ssse3" (the path
// walker's walk_all does) and only where FlowHasher::clmul() is true.
class ClmulHasher {
 public:
  [[gnu::target("pclmul,ssse3")]] explicit ClmulHasher(const FlowHasher& h)
      : chunks01_(load(h.clmul_->chunks01)),
        chunk2_(load(h.clmul_->chunk2)),
        barrett_(load(h.clmul_->barrett)),
        shuffle01_(shuffle(h.fields_, true)),
        shuffle23_(shuffle(h.fields_, false)),
        constant_(h.constant_),
        out_shift_(h.out_shift_),
        out_mask_(h.out_mask_) {}

  // Equals FlowHasher::hash(key).
  [[gnu::target("pclmul,ssse3")]] std::uint32_t hash(const FlowKey& key) const {
    // The key's 16 bytes (13 of them fields; the padding is shuffled away).
    const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&key));
    const __m128i c01 = _mm_shuffle_epi8(k, shuffle01_);  // c0 | c1, reflected, one per half
    const __m128i c23 = _mm_shuffle_epi8(k, shuffle23_);  // c2 | c3 x^32, reflected
    const __m128i v = _mm_xor_si128(
        _mm_xor_si128(_mm_clmulepi64_si128(c01, chunks01_, 0x00), _mm_clmulepi64_si128(c01, chunks01_, 0x11)),
        _mm_xor_si128(_mm_clmulepi64_si128(c23, chunk2_, 0x00), _mm_srli_si128(c23, 8)));
    const __m128i low = _mm_set_epi32(0, 0, 0, -1);
    const __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(v, low), barrett_, 0x00), low);
    const __m128i r = _mm_xor_si128(_mm_srli_epi64(v, 32), _mm_srli_epi64(_mm_clmulepi64_si128(q, barrett_, 0x10), 31));
    const auto l = static_cast<std::uint32_t>(_mm_cvtsi128_si32(r));
    return ((constant_ ^ l) >> out_shift_) & out_mask_;
  }

 private:
  [[gnu::target("pclmul,ssse3")]] static __m128i load(const std::uint64_t (&v)[2]) {
    return _mm_set_epi64x(static_cast<long long>(v[1]), static_cast<long long>(v[0]));
  }
  // The byte shuffle that cuts (c0, c1) or (c2, c3 x^32) from the key's memory: each chunk's bytes
  // in serialised order (flow_key.h), little-endian in its 64-bit half; -1 (0x80) reads zero.
  [[gnu::target("pclmul,ssse3")]] static __m128i shuffle(FieldMask fields, bool addresses);

  __m128i chunks01_;
  __m128i chunk2_;
  __m128i barrett_;
  __m128i shuffle01_;
  __m128i shuffle23_;
  std::uint32_t constant_;
  int out_shift_;
  std::uint32_t out_mask_;
};

#endif

}  // namespace ct
