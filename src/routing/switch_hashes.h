// The hash every backend switch computes over a flow's key: the function, field mask and seed
// input of the EcmpConfig, with the switch's own seed from the seed policy
// (derive_seed(mode, base seed, tier, switch index), routing/seed_policy.h; switch index = the
// switch's position among the backend switches in vertex order). With `hash: linux` each switch
// is a Linux router whose net.ipv4.fib_multipath_hash_seed is that seed.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "routing/ecmp_config.h"
#include "routing/flow_key.h"
#include "routing/hash_function.h"
#include "routing/linux_multipath.h"
#include "topology/topology.h"

namespace ct {

class SwitchHashes {
 public:
  SwitchHashes(const Topology& topology, const EcmpConfig& config);

  // PRECONDITION: sw is a backend switch. POSTCONDITION: result < 2^bits().
  [[nodiscard]] std::uint32_t hash(VertexId sw, const FlowKey& key) const {
    const std::uint32_t slot = sw.value() - first_switch_;
    return config_.linux_kernel ? linux_multipath_hash(key, linux_[slot]) : hashers_[slot].hash(key);
  }
  // The per-walk part: the reference hash of the key for affine functions (0 otherwise).
  [[nodiscard]] std::uint32_t base(const FlowKey& key) const { return affine_ ? hashers_.front().hash(key) : 0; }
  // Equals hash(sw, key). PRECONDITION: base_value == base(key).
  [[nodiscard]] std::uint32_t from_base(VertexId sw, std::uint32_t base_value, const FlowKey& key) const {
    const std::uint32_t slot = sw.value() - first_switch_;
    return affine_ ? base_value ^ offset_[slot] : hash(sw, key);
  }
  // Equals from_base(sw, base_value, key). PRECONDITION: affine().
  [[nodiscard]] std::uint32_t from_affine_base(VertexId sw, std::uint32_t base_value) const {
    return base_value ^ offset_[sw.value() - first_switch_];
  }
  // from_affine_base over the offsets' address, for a loop that holds it in a register (as
  // ForwardingState::Tables). Valid while this object lives. PRECONDITION: affine().
  struct AffineOffsets {
    const std::uint32_t* offset;
    std::uint32_t first_switch;
    [[nodiscard]] std::uint32_t of(VertexId sw, std::uint32_t base_value) const {
      return base_value ^ offset[sw.value() - first_switch];
    }
  };
  [[nodiscard]] AffineOffsets affine_offsets() const { return {offset_.data(), first_switch_}; }
  [[nodiscard]] bool affine() const { return affine_; }
  // base() is available by carry-less multiplication (crc_clmul.h): ClmulHasher(reference()).
  [[nodiscard]] bool clmul() const { return affine_ && hashers_.front().clmul(); }
  // The hasher whose hash is base(). PRECONDITION: affine().
  [[nodiscard]] const FlowHasher& reference() const { return hashers_.front(); }
  [[nodiscard]] std::uint32_t seed(VertexId sw) const { return seeds_[sw.value() - first_switch_]; }
  [[nodiscard]] int bits() const { return config_.hash_bits(); }
  [[nodiscard]] const EcmpConfig& config() const { return config_; }
  // Same function, fields and seed: the two switches compute the same hash of every key.
  [[nodiscard]] bool identical(VertexId a, VertexId b) const { return seed(a) == seed(b); }

 private:
  EcmpConfig config_;
  std::uint32_t first_switch_ = 0;
  bool affine_ = false;
  std::vector<std::uint32_t> seeds_;
  std::vector<std::uint32_t> offset_;  // affine: hash_sw(0) XOR hash_first(0)
  std::vector<FlowHasher> hashers_;
  std::vector<LinuxMultipathConfig> linux_;
};

}  // namespace ct
