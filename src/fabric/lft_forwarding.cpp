#include "fabric/lft_forwarding.h"

#include <cassert>

namespace ct {

LftForwarding::LftForwarding(const Topology& topology)
    : ports_(static_cast<std::uint32_t>(topology.backend_port_count())), switch_row_(topology.vertex_count(), 0) {
  std::uint32_t rows = 0;
  for (std::uint32_t v = 0; v < topology.vertex_count(); ++v) {
    if (topology.kind[v] == VertexKind::kSwitch) switch_row_[v] = rows++;
  }
  table_.assign(static_cast<std::size_t>(rows) * ports_, LinkId::invalid());
}

void LftForwarding::set(VertexId sw, VertexId destination, LinkId link) {
  assert(destination.value() < ports_);
  table_[static_cast<std::size_t>(switch_row_[sw.value()]) * ports_ + destination.value()] = link;
}

bool LftForwarding::walk(const Topology& t, VertexId src, VertexId dst, std::vector<std::uint32_t>& directed) const {
  directed.clear();
  const auto leave = [&](VertexId from, LinkId l) {
    directed.push_back(2 * l.value() + (t.link_a[l.value()] == from ? 0U : 1U));
    return t.other_end(l, from);
  };
  const auto nic = t.neighbors(src);
  if (nic.empty()) return false;
  VertexId at = leave(src, nic.front().link);
  // A loop revisits a switch within as many hops as there are vertices.
  for (std::size_t hops = 0; hops <= t.vertex_count(); ++hops) {
    if (at == dst) return true;
    if (t.kind[at.value()] != VertexKind::kSwitch) return false;
    const LinkId out = next(at, dst);
    if (!out.valid()) return false;
    at = leave(at, out);
  }
  return false;
}

}  // namespace ct
