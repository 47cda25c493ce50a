#include "ib/lid_assignment.h"

#include <cassert>

#include <fmt/format.h>

namespace ct {

void LidAssignment::reset(const IbFabric& fabric, int lmc_value) {
  lmc = lmc_value;
  owner_node.assign(1, IbNodeId::invalid());
  owner_port.assign(1, 0);
  switch_base_.assign(fabric.node_count(), 0);
  ca_port_begin_.assign(fabric.node_count() + 1, 0);
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    const IbNodeId n(i);
    ca_port_begin_[i + 1] = ca_port_begin_[i] + (fabric.is_switch(n) ? 0U : static_cast<std::uint32_t>(fabric.ports(n)));
  }
  ca_base_.assign(ca_port_begin_.back(), 0);
}

std::uint16_t LidAssignment::base_lid(IbNodeId n, int port) const {
  const auto i = n.value();
  if (ca_port_begin_[i + 1] == ca_port_begin_[i]) return switch_base_[i];
  if (port < 1) return 0;
  return ca_base_[ca_port_begin_[i] + static_cast<std::uint32_t>(port) - 1];
}

void LidAssignment::assign(IbNodeId n, int port, std::uint32_t base, std::uint32_t count, const IbFabric& fabric) {
  assert(base >= 1 && base + count - 1 <= kMaxUnicastLid);
  if (owner_node.size() < base + count) {
    owner_node.resize(base + count, IbNodeId::invalid());
    owner_port.resize(base + count, 0);
  }
  for (std::uint32_t l = base; l < base + count; ++l) {
    owner_node[l] = n;
    owner_port[l] = static_cast<std::uint8_t>(port);
  }
  if (fabric.is_switch(n)) {
    switch_base_[n.value()] = static_cast<std::uint16_t>(base);
  } else {
    ca_base_[ca_port_begin_[n.value()] + static_cast<std::uint32_t>(port) - 1] = static_cast<std::uint16_t>(base);
  }
}

Result<LidAssignment> assign_lids(const IbFabric& fabric, int lmc) {
  assert(lmc >= 0 && lmc <= 7);
  LidAssignment lids;
  lids.reset(fabric, lmc);
  const std::uint32_t block = 1U << lmc;
  std::uint32_t next = 1;
  bool overflow = false;
  // Next free LID aligned to `count`, or 0 once the unicast range is exhausted.
  auto take = [&](std::uint32_t count) -> std::uint32_t {
    const std::uint32_t base = (next + count - 1) / count * count;
    next = base + count;
    if (next - 1 > LidAssignment::kMaxUnicastLid) overflow = true;
    return overflow ? 0 : base;
  };
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    const IbNodeId n(i);
    if (fabric.is_switch(n)) {
      if (const auto base = take(1)) lids.assign(n, 0, base, 1, fabric);
      continue;
    }
    for (int p = 1; p <= fabric.ports(n); ++p) {
      if (!fabric.remote(n, p).connected()) continue;
      if (const auto base = take(block)) lids.assign(n, p, base, block, fabric);
    }
  }
  if (overflow) {
    return Diagnostic{{}, "lmc",
                      fmt::format("the fabric needs {} LIDs with LMC {}, more than the {} unicast LIDs of a subnet",
                                  next - 1, lmc, LidAssignment::kMaxUnicastLid)};
  }
  return lids;
}

}  // namespace ct
