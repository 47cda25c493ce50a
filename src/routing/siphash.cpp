#include "routing/siphash.h"

namespace ct {
namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct SipState {
  std::uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
    v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
    v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
    v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
  }
  void compress(std::uint64_t m) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
};

std::uint64_t load_le64(const std::uint8_t* p, std::size_t n) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < n; ++i) w |= std::uint64_t{p[i]} << (8 * i);
  return w;
}

}  // namespace

std::uint64_t siphash_2_4(std::uint64_t k0, std::uint64_t k1, const std::uint8_t* data, std::size_t length) {
  // Initialisation constants: "somepseudorandomlygeneratedbytes" in ASCII.
  SipState s{k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL, k0 ^ 0x6c7967656e657261ULL,
             k1 ^ 0x7465646279746573ULL};
  const std::size_t whole = length - length % 8;
  for (std::size_t i = 0; i < whole; i += 8) s.compress(load_le64(data + i, 8));
  s.compress(load_le64(data + whole, length % 8) | (std::uint64_t{length & 0xFF} << 56));
  s.v2 ^= 0xFF;
  for (int i = 0; i < 4; ++i) s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

}  // namespace ct
