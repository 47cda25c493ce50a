#include "diagnose/uplink_bytes.h"

#include <algorithm>

namespace ct {

UplinkTable uplink_bytes(const Fabric& fabric, const Counters& counters) {
  const Topology& t = fabric.topology();
  UplinkTable out;
  std::vector<double> tx(t.link_count(), -1), rx(t.link_count(), -1);  // upward direction only
  for (const SeriesRate& s : counters.rates.series) {
    const MappedPort* p = counters.map.find(s.instance, s.device);
    if (p == nullptr || s.kind == CounterKind::kRdma || s.kind == CounterKind::kPhy) continue;
    const bool at_lower = t.link_a[p->link.value()] == p->vertex;
    if (s.transmit && at_lower) tx[p->link.value()] = std::max(tx[p->link.value()], s.bytes);
    if (!s.transmit && !at_lower) rx[p->link.value()] = std::max(rx[p->link.value()], s.bytes);
    out.seconds = std::max(out.seconds, s.seconds);
  }
  std::vector<int> flows(t.link_count(), 0);
  std::vector<PathHop> hops;
  for (const FlowResult& f : counters.flows) {
    ++out.flows;
    if (!fabric.walker().walk(f.src, f.dst, f.key, hops)) {
      ++out.unrouted;
      continue;
    }
    for (const PathHop& h : hops) {
      if (h.up) ++flows[h.link.value()];
    }
  }
  // Switch-to-switch uplinks by lower end, in link order (the topology lists a vertex's
  // neighbours in link-id order).
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend) continue;
    std::vector<UplinkBytes> mine;
    bool used = false;
    for (const Adjacency& adj : t.neighbors(VertexId(v))) {
      const std::uint32_t l = adj.link.value();
      if (t.link_a[l] != VertexId(v) || t.kind[adj.neighbor.value()] != VertexKind::kSwitch) continue;
      UplinkBytes row{VertexId(v), adj.neighbor, adj.link, tx[l] >= 0 ? tx[l] : rx[l], flows[l]};
      used = used || row.bytes > 0 || row.flows > 0;
      mine.push_back(row);
    }
    if (used) out.rows.insert(out.rows.end(), mine.begin(), mine.end());
  }
  return out;
}

}  // namespace ct
