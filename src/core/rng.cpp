#include "core/rng.h"

#include <cmath>

namespace ct {
namespace {
__extension__ typedef unsigned __int128 u128;
constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t run, std::uint64_t stream) {
  // Mix the three coordinates so that neighbouring (seed, run, stream) give unrelated states.
  std::uint64_t state = seed;
  std::uint64_t mixed = splitmix64(state);
  state = mixed ^ (run * 0xD1B54A32D192ED03ULL);
  mixed = splitmix64(state);
  state = mixed ^ (stream * 0x8CB92BA72F3D8DD7ULL);
  for (auto& word : s_) word = splitmix64(state);
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::uniform(std::uint64_t bound) {
  // Lemire, "Fast random integer generation in an interval", 2019.
  u128 m = static_cast<u128>(next_u64()) * bound;
  auto low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = -bound % bound;
    while (low < threshold) {
      m = static_cast<u128>(next_u64()) * bound;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

double Rng::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Rng::exponential(double rate) { return -std::log1p(-uniform01()) / rate; }

}  // namespace ct
