#include "ib/lid_assignment.h"

#include <algorithm>
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
  struct Holder {
    std::uint64_t port_guid;
    IbNodeId node;
    int port;  // 0 for a switch
  };
  std::vector<Holder> holders;
  std::uint64_t needed = 0;
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    const IbNodeId n(i);
    if (fabric.is_switch(n)) {
      holders.push_back({fabric.guid[i], n, 0});
      needed += 1;
      continue;
    }
    for (int p = 1; p <= fabric.ports(n); ++p) {
      if (!fabric.remote(n, p).connected()) continue;
      holders.push_back({fabric.port_guid(n, p), n, p});
      needed += block;
    }
  }
  std::sort(holders.begin(), holders.end(), [&](const Holder& a, const Holder& b) {
    if (a.port_guid != b.port_guid) return a.port_guid < b.port_guid;
    if (fabric.guid[a.node.value()] != fabric.guid[b.node.value()]) return fabric.guid[a.node.value()] < fabric.guid[b.node.value()];
    return a.port < b.port;
  });
  auto who = [&](const Holder& h) {
    return h.port == 0 ? fmt::format("switch \"{}\"", fabric.label(h.node)) : fmt::format("\"{}\" port {}", fabric.label(h.node), h.port);
  };
  auto at_line = [&](IbNodeId n, int line, std::string field, std::string message) {
    Diagnostic d = fabric_diagnostic(fabric, n, std::move(field), std::move(message));
    if (line > 0) d.where.line = line;
    return d;
  };
  // 1. Stated LIDs, as given.
  std::vector<const Holder*> taken_by(LidAssignment::kMaxUnicastLid + 1, nullptr);
  Diagnostics errors;
  std::vector<bool> done(holders.size(), false);
  for (std::size_t k = 0; k < holders.size(); ++k) {
    const Holder& h = holders[k];
    const auto stated = fabric.stated_lid(h.node, h.port);
    if (stated.lid == 0) continue;
    const std::uint32_t count = h.port == 0 ? 1 : block;
    const std::uint32_t base = stated.lid;
    const char* field = h.port == 0 ? "node.lid" : "port.lid";
    if (base % count != 0) {
      errors.push_back(at_line(h.node, stated.line, field,
                               fmt::format("LID {} of {} is not a multiple of {}: with LMC {} each CA port takes {} LIDs from an "
                                           "aligned base",
                                           base, who(h), count, lmc, count)));
      continue;
    }
    if (base + count - 1 > LidAssignment::kMaxUnicastLid) {
      errors.push_back(at_line(h.node, stated.line, field,
                               fmt::format("LIDs {}..{} of {} run past the last unicast LID {}", base, base + count - 1, who(h),
                                           LidAssignment::kMaxUnicastLid)));
      continue;
    }
    const Holder* clash = nullptr;
    for (std::uint32_t l = base; l < base + count && clash == nullptr; ++l) clash = taken_by[l];
    if (clash != nullptr) {
      errors.push_back(at_line(h.node, stated.line, field,
                               fmt::format("LID {} of {} is already the LID of {} (line {})", base, who(h), who(*clash),
                                           fabric.stated_lid(clash->node, clash->port).line)));
      continue;
    }
    for (std::uint32_t l = base; l < base + count; ++l) taken_by[l] = &h;
    lids.assign(h.node, h.port, base, count, fabric);
    done[k] = true;
  }
  if (!errors.empty()) return errors;
  // 2. The others, in port GUID order.
  std::uint32_t next = 1;
  for (std::size_t k = 0; k < holders.size(); ++k) {
    if (done[k]) continue;
    const Holder& h = holders[k];
    const std::uint32_t count = h.port == 0 ? 1 : block;
    std::uint32_t base = 0;
    for (;;) {
      base = (next + count - 1) / count * count;
      if (base + count - 1 > LidAssignment::kMaxUnicastLid) break;
      std::uint32_t busy = 0;
      for (std::uint32_t l = base; l < base + count && busy == 0; ++l) busy = taken_by[l] != nullptr ? l : 0;
      if (busy == 0) break;
      next = busy + 1;
    }
    if (base + count - 1 > LidAssignment::kMaxUnicastLid) {
      return fabric_diagnostic(fabric, h.node, "lmc",
                               fmt::format("no LID left for {}: the fabric needs {} LIDs with LMC {}, more than the {} unicast "
                                           "LIDs of a subnet",
                                           who(h), needed, lmc, LidAssignment::kMaxUnicastLid));
    }
    for (std::uint32_t l = base; l < base + count; ++l) taken_by[l] = &h;
    lids.assign(h.node, h.port, base, count, fabric);
    next = base + count;
  }
  return lids;
}

}  // namespace ct
