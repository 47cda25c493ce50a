#include "routing/seed_policy.h"

#include "core/rng.h"

namespace ct {
namespace {

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t state = a ^ (b * 0x9E3779B97F4A7C15ULL);
  return splitmix64(state);
}

}  // namespace

std::string_view seed_mode_name(SeedMode m) {
  switch (m) {
    case SeedMode::kSame: return "same";
    case SeedMode::kPerTier: return "per-tier";
    case SeedMode::kPerSwitch: return "per-switch";
  }
  return "?";
}

std::optional<SeedMode> parse_seed_mode(std::string_view name) {
  if (name == "same") return SeedMode::kSame;
  if (name == "per-tier") return SeedMode::kPerTier;
  if (name == "per-switch") return SeedMode::kPerSwitch;
  return std::nullopt;
}

std::uint32_t derive_seed(SeedMode mode, std::uint64_t base_seed, int tier, std::uint32_t switch_index) {
  const auto tier_key = static_cast<std::uint64_t>(tier) + 1;
  switch (mode) {
    case SeedMode::kSame: return static_cast<std::uint32_t>(base_seed);
    case SeedMode::kPerTier: return static_cast<std::uint32_t>(mix(base_seed, tier_key));
    case SeedMode::kPerSwitch:
      return static_cast<std::uint32_t>(mix(mix(base_seed, tier_key), std::uint64_t{switch_index} + 1));
  }
  return 0;
}

}  // namespace ct
