// The one random number generator of the project.
//
// Engine: xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2018),
// state seeded through SplitMix64. A generator is named by (seed, run, stream): the user's seed,
// the Monte Carlo trial, and a stream derived from the component that draws (e.g. a switch's or
// link's id), so draws do not depend on the order in which components or threads ask
// (ns-3's RngSeedManager does the same with seed and run). Same (seed, run, stream), same sequence,
// on any platform and thread count.
#pragma once

#include <cstdint>

namespace ct {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t run, std::uint64_t stream);

  std::uint64_t next_u64();
  // Uniform in [0, bound), bound > 0, without modulo bias (Lemire's method).
  std::uint64_t uniform(std::uint64_t bound);
  // Uniform in [0, 1) with 53 random bits.
  double uniform01();
  // Exponential with the given rate (> 0).
  double exponential(double rate);

 private:
  std::uint64_t s_[4];
};

}  // namespace ct
