#include "workload/flow_table_workload.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/rng.h"
#include "traffic/flow.h"

namespace ct {
namespace {

Hop hop_of(const RouteHop& h) {
  switch (h.kind) {
    case RouteHopKind::kLinkUp: return {HopKind::kLinkUp, h.index};
    case RouteHopKind::kLinkDown: return {HopKind::kLinkDown, h.index};
    case RouteHopKind::kNvlinkOut: return {HopKind::kNvlinkOut, h.index};
    case RouteHopKind::kNvlinkIn: return {HopKind::kNvlinkIn, h.index};
  }
  return {HopKind::kLinkUp, h.index};
}

ConnectionEnd src_end(const TableFlow& f) {
  return f.src_port.valid() ? ConnectionEnd{false, f.src_port.value()} : ConnectionEnd{true, f.src_gpu};
}
ConnectionEnd dst_end(const TableFlow& f) {
  return f.dst_port.valid() ? ConnectionEnd{false, f.dst_port.value()} : ConnectionEnd{true, f.dst_gpu};
}
std::uint64_t ends_key(ConnectionEnd a, ConnectionEnd b) {
  return stream_of({a.gpu ? 1U : 0U, a.id, b.gpu ? 1U : 0U, b.id});
}

// The UDP source port of every row: the given one, or the port of its connection
// (traffic/flow.h connection_source_port) with index channel x Q + qp, Q = 1 + the largest qp
// among the rows between the same two ends (computed only when a row without a port has a
// channel other than 0). A function of the rows' set, never of their order.
std::vector<std::uint16_t> source_ports(const FlowTable& table, std::uint64_t seed) {
  std::unordered_map<std::uint64_t, std::uint64_t> qps;  // ends_key -> 1 + largest qp
  const bool needs_qps = std::any_of(table.flows.begin(), table.flows.end(),
                                     [](const TableFlow& f) { return !f.has_udp_port && f.channel != 0; });
  for (std::size_t i = 0; needs_qps && i < table.flows.size(); ++i) {
    const TableFlow& f = table.flows[i];
    std::uint64_t& q = qps[ends_key(src_end(f), dst_end(f))];
    q = std::max(q, std::uint64_t{f.qp} + 1);
  }
  std::vector<std::uint16_t> ports(table.flows.size());
  for (std::size_t i = 0; i < table.flows.size(); ++i) {
    const TableFlow& f = table.flows[i];
    if (f.has_udp_port) {
      ports[i] = f.udp_src_port;
      continue;
    }
    const std::uint64_t q = f.channel == 0 ? 0 : qps.at(ends_key(src_end(f), dst_end(f)));
    ports[i] = connection_source_port(seed, src_end(f), dst_end(f), f.channel * q + f.qp);
  }
  return ports;
}

}  // namespace

Result<std::size_t> append_flow_table(const Fabric& fabric, const Scenario& scenario, const FlowTable& table,
                                      Workload& w, std::vector<double>* max_min_weights) {
  const Topology& t = fabric.topology();
  const bool nvlink = fabric.spec().node.nvlink_bytes_per_s.has_value();
  const auto per_host = static_cast<std::uint32_t>(std::max(t.gpus_per_host, 1));
  auto gpu_name = [&](std::uint32_t g) { return fmt::format("host{}/gpu{}", g / per_host, g % per_host); };
  auto sender = [&](const TableFlow& f) {
    if (f.src_port.valid()) return t.vertex_name(f.src_port);
    return f.src_gpu == kNoTableGpu ? std::string() : gpu_name(f.src_gpu);
  };
  for (const TableFlow& f : table.flows) {
    bool needs_nvlink = f.route_size == 0 && !f.src_port.valid();
    for (std::uint32_t h = 0; h < f.route_size; ++h) {
      const RouteHopKind k = table.hops[f.route_begin + h].kind;
      needs_nvlink = needs_nvlink || k == RouteHopKind::kNvlinkOut || k == RouteHopKind::kNvlinkIn;
    }
    if (needs_nvlink && !nvlink) {
      return Diagnostic{{table.file, f.line, 0}, "path",
                        "an NVLink flow or hop, but the catalog gives no NVLink bandwidth for this node model"};
    }
  }
  const std::vector<std::uint16_t> udp_ports = source_ports(table, scenario.seed);
  const auto base = static_cast<std::uint32_t>(w.flows.size());
  std::uint32_t records = 0;
  for (const WorkloadFlow& f : w.flows) records += f.join ? 0 : 1;
  std::size_t row = 0;
  for (std::uint32_t op = 0; op < table.operations.size(); ++op) {
    const std::size_t first = row;
    while (row < table.flows.size() && table.flows[row].operation == op) ++row;
    WorkloadOperation o;
    o.name = table.operations[op];
    o.kind = OperationKind::kTransfer;
    o.what = fmt::format("{} flow(s) from a table", row - first);
    o.phase = static_cast<std::uint32_t>(w.phases.size());
    o.records_begin = records;
    WorkloadPhase phase;
    phase.name = o.name;
    phase.workers_begin = static_cast<std::uint32_t>(w.workers.size());
    std::map<std::string, std::uint32_t> worker_of;
    std::set<std::uint32_t> gpus;
    std::int64_t bytes = 0;
    for (std::size_t r = first; r < row; ++r) {
      const TableFlow& tf = table.flows[r];
      for (const std::uint32_t g : {tf.src_gpu, tf.dst_gpu}) {
        if (g != kNoTableGpu) gpus.insert(g);
      }
      bytes = std::min(bytes + tf.bytes.value(), kMaxBytes.value());
      WorkloadFlow f;
      f.operation = static_cast<std::uint32_t>(w.operations.size());
      f.instance = tf.instance;
      f.iteration = 0;
      f.step = tf.step;
      f.channel = tf.channel;
      f.qp = tf.qp;
      if (const std::string name = sender(tf); !name.empty()) {
        auto [it, fresh] = worker_of.emplace(name, static_cast<std::uint32_t>(w.workers.size()));
        if (fresh) w.workers.push_back({name, o.phase, TimePs(0)});
        f.worker = it->second;
      }
      f.src_gpu = tf.src_gpu == kNoTableGpu ? kNoGpu : tf.src_gpu;
      f.dst_gpu = tf.dst_gpu == kNoTableGpu ? kNoGpu : tf.dst_gpu;
      f.src_port = tf.src_port;
      f.dst_port = tf.dst_port;
      f.src_udp_port = udp_ports[r];
      f.bytes = tf.bytes;
      f.start = tf.start;
      f.delay = tf.delay;
      f.routed = tf.route_size == 0 && tf.src_port.valid();
      f.hops_begin = static_cast<std::uint32_t>(w.hops.size());
      if (tf.route_size > 0) {
        for (std::uint32_t h = 0; h < tf.route_size; ++h) w.hops.push_back(hop_of(table.hops[tf.route_begin + h]));
      } else if (!f.routed) {
        w.hops.push_back({HopKind::kNvlinkOut, tf.src_gpu});
        w.hops.push_back({HopKind::kNvlinkIn, tf.dst_gpu});
      }
      f.hops_size = static_cast<std::uint32_t>(w.hops.size() - f.hops_begin);
      f.after_begin = static_cast<std::uint32_t>(w.after.size());
      for (std::uint32_t a = 0; a < tf.after_size; ++a) w.after.push_back(base + table.after[tf.after_begin + a]);
      f.after_size = tf.after_size;
      w.flows.push_back(f);
      if (max_min_weights != nullptr) max_min_weights->push_back(tf.weight);
      ++records;
    }
    phase.workers_end = static_cast<std::uint32_t>(w.workers.size());
    o.ranks = static_cast<std::uint32_t>(gpus.size());
    o.bytes = Bytes(bytes);
    o.records_end = records;
    w.phases.push_back(phase);
    w.operations.push_back(o);
  }
  if (w.batch_begin.back() != w.flows.size()) w.batch_begin.push_back(static_cast<std::uint32_t>(w.flows.size()));
  return table.flows.size();
}

}  // namespace ct
