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
#include <initializer_list>

namespace ct {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The stream of a component named by a tuple (a tag, then its ids: operation, GPUs, channel, ...):
// the parts hashed one after another through SplitMix64, never packed into bit fields, so no part
// has a size limit and distinct tuples give unrelated streams. Each step is a bijection of the
// running hash, so tuples of one length that differ only in their last part never collide; any
// other pair collides with probability 2^-64.
constexpr std::uint64_t stream_of(std::initializer_list<std::uint64_t> parts) {
  std::uint64_t hash = 0x243F'6A88'85A3'08D3ULL ^ parts.size();  // pi's fraction: any fixed start
  for (const std::uint64_t part : parts) {
    std::uint64_t state = hash ^ part;
    hash = splitmix64(state);
  }
  return hash;
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
