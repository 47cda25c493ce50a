// The switch-level view of an IbFabric that routing engines and checks walk: switches renumbered
// 0..S-1 (fabric order), their switch-to-switch ports and their CA ports, in CSR arrays.
// Wherever an engine's result depends on the order it visits switches, it visits them in
// guid_order() (node GUID order, as OpenSM walks its switch table, a map keyed by GUID), never in
// fabric order, so the input file's order cannot change a table.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ib/ib_fabric.h"

namespace ct {

class SwitchGraph {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  struct Link {
    std::uint8_t port;       // local port
    std::uint8_t peer_port;  // port on the neighbour
    std::uint32_t peer;      // neighbour switch index
  };
  struct CaPort {
    std::uint8_t port;       // switch port the CA is cabled to
    std::uint8_t ca_port;    // the CA's port
    IbNodeId ca;
  };

  explicit SwitchGraph(const IbFabric& fabric);

  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(node_.size()); }
  [[nodiscard]] IbNodeId node(std::uint32_t s) const { return node_[s]; }
  // Switch index of a node, kNone for a CA.
  [[nodiscard]] std::uint32_t index_of(IbNodeId n) const { return index_of_[n.value()]; }
  // Switch-to-switch links of s in port order (parallel cables appear once per cable).
  [[nodiscard]] std::span<const Link> links(std::uint32_t s) const {
    return {links_.data() + link_begin_[s], links_.data() + link_begin_[s + 1]};
  }
  // CA ports cabled to s, in port order.
  [[nodiscard]] std::span<const CaPort> cas(std::uint32_t s) const {
    return {cas_.data() + ca_begin_[s], cas_.data() + ca_begin_[s + 1]};
  }
  // Neighbour switch index through port p of s (kNone: a CA, nothing, or out of range).
  [[nodiscard]] std::uint32_t peer_switch(std::uint32_t s, int p) const {
    return peer_by_port_[port_begin_[s] + static_cast<std::uint32_t>(p)];
  }
  // Switch indices by ascending node GUID.
  [[nodiscard]] const std::vector<std::uint32_t>& guid_order() const { return guid_order_; }
  [[nodiscard]] int port_count(std::uint32_t s) const {
    return static_cast<int>(port_begin_[s + 1] - port_begin_[s]) - 1;
  }

 private:
  std::vector<IbNodeId> node_;
  std::vector<std::uint32_t> index_of_;
  std::vector<std::uint32_t> link_begin_;
  std::vector<Link> links_;
  std::vector<std::uint32_t> ca_begin_;
  std::vector<CaPort> cas_;
  std::vector<std::uint32_t> port_begin_;    // per switch, entries for ports 0..port_count
  std::vector<std::uint32_t> peer_by_port_;
  std::vector<std::uint32_t> guid_order_;
};

}  // namespace ct
