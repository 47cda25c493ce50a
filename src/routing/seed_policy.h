// How switches get their hash seeds. Real fabrics either leave every switch at the same seed
// (the vendor default: flows that collide at a leaf collide again at the spine, "hash
// polarisation"), set one seed per tier, or one per switch.
//   same        seed = base_seed (low 32 bits), everywhere.
//   per-tier    seed = low 32 bits of M(base_seed, tier + 1).
//   per-switch  seed = low 32 bits of M(M(base_seed, tier + 1), switch_index + 1).
// with M(a, b) = SplitMix64 output from state a XOR (b * 0x9E3779B97F4A7C15). Deterministic and
// platform-independent; distinct inputs give unrelated seeds.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ct {

enum class SeedMode : std::uint8_t { kSame, kPerTier, kPerSwitch };

std::string_view seed_mode_name(SeedMode m);
std::optional<SeedMode> parse_seed_mode(std::string_view name);

// tier: 1 = leaf, 2 = spine, 3 = core (topology.h); switch_index: the switch's index in the fabric.
std::uint32_t derive_seed(SeedMode mode, std::uint64_t base_seed, int tier, std::uint32_t switch_index);

}  // namespace ct
