#include "ib/switch_graph.h"

#include <algorithm>
#include <numeric>

namespace ct {

SwitchGraph::SwitchGraph(const IbFabric& fabric) : index_of_(fabric.node_count(), kNone) {
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    if (!fabric.is_switch(IbNodeId(i))) continue;
    index_of_[i] = static_cast<std::uint32_t>(node_.size());
    node_.push_back(IbNodeId(i));
  }
  link_begin_.push_back(0);
  ca_begin_.push_back(0);
  port_begin_.push_back(0);
  for (std::uint32_t s = 0; s < size(); ++s) {
    const IbNodeId n = node_[s];
    peer_by_port_.push_back(kNone);  // port 0
    for (int p = 1; p <= fabric.ports(n); ++p) {
      const IbPortRef far = fabric.remote(n, p);
      std::uint32_t peer = kNone;
      if (far.connected() && fabric.is_switch(far.node)) {
        if (far.node != n) {
          peer = index_of_[far.node.value()];
          links_.push_back({static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(far.port), peer});
        }
      } else if (far.connected()) {
        cas_.push_back({static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(far.port), far.node});
      }
      peer_by_port_.push_back(peer);
    }
    link_begin_.push_back(static_cast<std::uint32_t>(links_.size()));
    ca_begin_.push_back(static_cast<std::uint32_t>(cas_.size()));
    port_begin_.push_back(static_cast<std::uint32_t>(peer_by_port_.size()));
  }
  guid_order_.resize(size());
  std::iota(guid_order_.begin(), guid_order_.end(), 0U);
  std::sort(guid_order_.begin(), guid_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return fabric.guid[node_[a].value()] < fabric.guid[node_[b].value()];
  });
}

}  // namespace ct
