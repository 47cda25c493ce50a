#include "routing/switch_hashes.h"

#include <algorithm>

namespace ct {

SwitchHashes::SwitchHashes(const Topology& topology, const EcmpConfig& config) : config_(config) {
  const Topology& t = topology;
  std::uint32_t end = 0;
  first_switch_ = static_cast<std::uint32_t>(t.vertex_count());
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend) continue;
    first_switch_ = std::min(first_switch_, v);
    end = v + 1;
  }
  for (std::uint32_t v = first_switch_; v < end; ++v) {
    const std::uint32_t index = v - first_switch_;
    const std::uint32_t seed = derive_seed(config.seed_mode, config.seed, t.tier[v], index);
    seeds_.push_back(seed);
    if (config.linux_kernel) {
      linux_.push_back(LinuxMultipathConfig{config.linux_policy, config.linux_hash_fields, seed});
    } else {
      hashers_.emplace_back(config.algorithm, seed, config.seed_input, config.fields);
    }
  }
  affine_ = !config.linux_kernel && config.algorithm != HashAlgorithm::kRandom && !hashers_.empty();
  if (affine_) {
    const FlowKey zero{0, 0, 0, 0, 0};
    const std::uint32_t reference = hashers_.front().hash(zero);
    for (const FlowHasher& h : hashers_) offset_.push_back(h.hash(zero) ^ reference);
  }
}

}  // namespace ct
