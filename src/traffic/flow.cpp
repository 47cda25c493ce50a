#include "traffic/flow.h"

namespace ct {

std::uint16_t roce_port_of(std::uint64_t key, std::uint32_t index) {
  static_assert(kRoceSourcePorts == 1U << 14, "two 7-bit halves");
  constexpr std::uint32_t kHalf = 0x7F;
  std::uint32_t left = (index >> 7) & kHalf;
  std::uint32_t right = index & kHalf;
  for (std::uint64_t round = 0; round < 4; ++round) {
    std::uint64_t state = stream_of({key, round, right});
    const auto f = static_cast<std::uint32_t>(splitmix64(state)) & kHalf;
    const std::uint32_t next = left ^ f;
    left = right;
    right = next;
  }
  return static_cast<std::uint16_t>(kRoceSourcePortMin + ((left << 7) | right));
}

std::uint16_t connection_source_port(std::uint64_t seed, ConnectionEnd src, ConnectionEnd dst, std::uint64_t index) {
  const std::uint64_t key = stream_of({seed, kConnectionTag, src.gpu ? 1U : 0U, src.id, dst.gpu ? 1U : 0U, dst.id});
  return roce_port_of(key, static_cast<std::uint32_t>(index % kRoceSourcePorts));
}

void redraw_source_ports(std::vector<Flow>& flows, std::uint64_t seed, std::uint64_t trial) {
  Rng rng(seed, trial, kPortStream);
  for (Flow& f : flows) f.key.src_port = draw_roce_source_port(rng);
}

}  // namespace ct
