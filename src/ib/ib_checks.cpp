#include "ib/ib_checks.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include "core/rng.h"
#include "ib/switch_graph.h"

namespace ct {
namespace {

enum class Fate : std::uint8_t { kUnknown, kVisiting, kDelivered, kNoRoute, kDeadEnd, kLoop };

// Follows LFTs toward one destination LID, memoizing the fate of each switch.
class Walker {
 public:
  Walker(const IbFabric& fabric, const SwitchGraph& graph, const IbRouting& routing)
      : fabric_(fabric), graph_(graph), routing_(routing), fate_(graph.size()), hops_(graph.size(), 0) {}

  void set_destination(std::uint32_t lid) {
    lid_ = lid;
    std::fill(fate_.begin(), fate_.end(), Fate::kUnknown);
  }

  Fate fate(std::uint32_t s) {
    path_.clear();
    std::uint32_t cur = s;
    Fate result = Fate::kUnknown;
    std::uint32_t beyond = 0;  // switches crossed after the last one walked here (a memoized delivery)
    while (true) {
      if (fate_[cur] == Fate::kVisiting) {
        result = Fate::kLoop;
        break;
      }
      if (fate_[cur] != Fate::kUnknown) {
        result = fate_[cur];
        beyond = hops_[cur];
        break;
      }
      fate_[cur] = Fate::kVisiting;
      path_.push_back(cur);
      const auto step = next(cur);
      if (step.terminal != Fate::kUnknown) {
        result = step.terminal;
        break;
      }
      cur = step.next;
    }
    for (const auto p : path_) fate_[p] = result;
    if (result == Fate::kDelivered) {
      for (std::size_t i = path_.size(); i-- > 0;) hops_[path_[i]] = beyond + static_cast<std::uint32_t>(path_.size() - i);
    }
    return result;
  }
  // Switches a delivered packet from switch s crosses, s and the last one included.
  // PRECONDITION: fate(s) returned kDelivered for the current destination.
  [[nodiscard]] std::uint32_t hops(std::uint32_t s) const { return hops_[s]; }

  struct Step {
    Fate terminal = Fate::kUnknown;  // kUnknown: continue at `next`
    std::uint32_t next = 0;
  };
  Step next(std::uint32_t s) const {
    const std::uint8_t out = routing_.port(s, lid_);
    const IbNodeId owner = routing_.lids.owner_node[lid_];
    if (out == IbRouting::kNoPath) return {Fate::kNoRoute, 0};
    if (out == 0) return {graph_.node(s) == owner ? Fate::kDelivered : Fate::kDeadEnd, 0};
    if (out > graph_.port_count(s)) return {Fate::kDeadEnd, 0};
    const IbPortRef far = fabric_.remote(graph_.node(s), out);
    if (!far.connected()) return {Fate::kDeadEnd, 0};
    if (fabric_.is_switch(far.node)) return {Fate::kUnknown, graph_.index_of(far.node)};
    const bool hit = far.node == owner && far.port == routing_.lids.owner_port[lid_];
    return {hit ? Fate::kDelivered : Fate::kDeadEnd, 0};
  }

 private:
  const IbFabric& fabric_;
  const SwitchGraph& graph_;
  const IbRouting& routing_;
  std::vector<Fate> fate_;
  std::vector<std::uint32_t> hops_;  // per switch, valid where fate_ is kDelivered
  std::vector<std::uint32_t> path_;
  std::uint32_t lid_ = 0;
};

const char* fate_text(Fate f) {
  switch (f) {
    case Fate::kNoRoute: return "no LFT entry";
    case Fate::kDeadEnd: return "forwarded to a port that does not lead to it";
    case Fate::kLoop: return "forwarding loop";
    default: return "?";
  }
}

// Is this LID a destination under the traffic model?
bool is_destination(const IbFabric& fabric, const IbRouting& routing, std::uint32_t lid, const CheckOptions& options) {
  const IbNodeId owner = routing.lids.owner_node[lid];
  if (!owner.valid()) return false;
  return options.include_switch_lids || !fabric.is_switch(owner);
}

// Number of source CA ports per switch.
std::vector<std::uint32_t> sources_per_switch(const SwitchGraph& graph) {
  std::vector<std::uint32_t> n(graph.size());
  for (std::uint32_t s = 0; s < graph.size(); ++s) n[s] = static_cast<std::uint32_t>(graph.cas(s).size());
  return n;
}

// Switch the owner of `lid` hangs off when it is a CA port (kNone otherwise).
std::uint32_t owner_switch(const IbFabric& fabric, const SwitchGraph& graph, const IbRouting& routing, std::uint32_t lid) {
  const IbNodeId owner = routing.lids.owner_node[lid];
  if (fabric.is_switch(owner)) return SwitchGraph::kNone;
  const IbPortRef far = fabric.remote(owner, routing.lids.owner_port[lid]);
  if (!far.connected() || !fabric.is_switch(far.node)) return SwitchGraph::kNone;
  return graph.index_of(far.node);
}

// Neighbour switch the LFT of s sends `lid` to (kNone: no entry, port 0, a CA or no cable).
std::uint32_t next_switch(const SwitchGraph& graph, const IbRouting& routing, std::uint32_t s, std::uint32_t lid) {
  const std::uint8_t out = routing.port(s, lid);
  if (out == IbRouting::kNoPath || out > graph.port_count(s)) return SwitchGraph::kNone;
  return graph.peer_switch(s, out);
}

std::string lid_label(const IbFabric& fabric, const IbRouting& routing, std::uint32_t lid) {
  return fmt::format("LID {} ('{}')", lid, fabric.label(routing.lids.owner_node[lid]));
}

}  // namespace

ReachabilityReport check_reachability(const IbFabric& fabric, const IbRouting& routing, const CheckOptions& options) {
  const SwitchGraph graph(fabric);
  const auto n_src = sources_per_switch(graph);
  ReachabilityReport report;
  Walker walker(fabric, graph, routing);
  for (std::uint32_t lid = 1; lid <= routing.lids.max_lid(); ++lid) {
    if (!is_destination(fabric, routing, lid, options)) continue;
    walker.set_destination(lid);
    const std::uint32_t home = owner_switch(fabric, graph, routing, lid);
    bool loop = false;
    for (std::uint32_t s = 0; s < graph.size(); ++s) {
      const std::uint32_t sources = n_src[s] - (s == home ? 1U : 0U);
      if (sources == 0) continue;
      report.pairs += sources;
      const Fate f = walker.fate(s);
      if (f == Fate::kDelivered) {
        const std::uint32_t h = walker.hops(s);
        if (report.switch_hops.size() <= h) report.switch_hops.resize(h + 1, 0);
        report.switch_hops[h] += sources;
        continue;
      }
      report.unreachable += sources;
      loop |= f == Fate::kLoop;
      if (report.examples.size() < 5) {
        report.examples.push_back(fmt::format("{} unreachable from the {} CA port(s) of '{}': {}", lid_label(fabric, routing, lid),
                                              sources, fabric.label(graph.node(s)), fate_text(f)));
      }
    }
    report.loops += loop ? 1 : 0;
  }
  return report;
}

CreditLoopReport check_credit_loops(const IbFabric& fabric, const IbRouting& routing, const CheckOptions& options) {
  const SwitchGraph graph(fabric);
  const std::uint32_t n = graph.size();
  // Channel slots (s, p) for every port; dependency bitsets over the ports of the channel's far end.
  std::vector<std::uint32_t> chan_base(n + 1, 0);
  for (std::uint32_t s = 0; s < n; ++s) chan_base[s + 1] = chan_base[s] + static_cast<std::uint32_t>(graph.port_count(s)) + 1;
  std::vector<std::uint32_t> word_base(chan_base[n] + 1, 0);
  for (std::uint32_t s = 0; s < n; ++s) {
    for (int p = 0; p <= graph.port_count(s); ++p) {
      const std::uint32_t v = graph.peer_switch(s, p);
      const std::uint32_t words = v == SwitchGraph::kNone ? 0 : static_cast<std::uint32_t>(graph.port_count(v) + 64) / 64;
      const std::uint32_t c = chan_base[s] + static_cast<std::uint32_t>(p);
      word_base[c + 1] = word_base[c] + words;
    }
  }
  std::vector<std::uint64_t> deps(word_base.back(), 0);
  const auto n_src = sources_per_switch(graph);
  std::vector<std::uint32_t> stamp(n, 0);
  for (std::uint32_t lid = 1; lid <= routing.lids.max_lid(); ++lid) {
    if (!is_destination(fabric, routing, lid, options)) continue;
    const std::uint32_t home = owner_switch(fabric, graph, routing, lid);
    for (std::uint32_t s = 0; s < n; ++s) {
      const bool source = options.include_switch_lids || n_src[s] > (s == home ? 1U : 0U);
      for (std::uint32_t cur = s; source && stamp[cur] != lid;) {
        stamp[cur] = lid;
        const std::uint32_t v = next_switch(graph, routing, cur, lid);
        if (v == SwitchGraph::kNone) break;
        cur = v;
      }
    }
    for (std::uint32_t u = 0; u < n; ++u) {
      if (stamp[u] != lid) continue;
      const std::uint32_t v = next_switch(graph, routing, u, lid);
      if (v == SwitchGraph::kNone || next_switch(graph, routing, v, lid) == SwitchGraph::kNone) continue;
      const std::uint8_t o1 = routing.port(u, lid);
      const std::uint8_t o2 = routing.port(v, lid);
      deps[word_base[chan_base[u] + o1] + o2 / 64] |= std::uint64_t{1} << (o2 % 64);
    }
  }
  CreditLoopReport report;
  for (std::uint32_t s = 0; s < n; ++s) {
    for (int p = 1; p <= graph.port_count(s); ++p) report.channels += graph.peer_switch(s, p) != SwitchGraph::kNone ? 1 : 0;
  }
  for (const auto w : deps) report.dependencies += static_cast<std::size_t>(std::popcount(w));
  // Iterative DFS for a cycle; colour 0 new, 1 on stack, 2 done.
  const std::uint32_t slots = chan_base[n];
  std::vector<std::uint8_t> colour(slots, 0);
  std::vector<std::uint32_t> owner(slots);
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t c = chan_base[s]; c < chan_base[s + 1]; ++c) owner[c] = s;
  }
  struct Frame {
    std::uint32_t chan;
    std::uint32_t next_bit;
  };
  std::vector<Frame> stack;
  for (std::uint32_t root = 0; root < slots && report.cycle.empty(); ++root) {
    if (colour[root] != 0 || word_base[root] == word_base[root + 1]) continue;
    stack.push_back({root, 0});
    colour[root] = 1;
    while (!stack.empty() && report.cycle.empty()) {
      Frame& f = stack.back();
      const std::uint32_t v = graph.peer_switch(owner[f.chan], static_cast<int>(f.chan - chan_base[owner[f.chan]]));
      const std::uint32_t bits = (word_base[f.chan + 1] - word_base[f.chan]) * 64;
      std::uint32_t b = f.next_bit;
      while (b < bits && !(deps[word_base[f.chan] + b / 64] >> (b % 64) & 1U)) ++b;
      if (b >= bits) {
        colour[f.chan] = 2;
        stack.pop_back();
        continue;
      }
      f.next_bit = b + 1;
      const std::uint32_t next = chan_base[v] + b;
      if (colour[next] == 1) {
        auto it = std::find_if(stack.begin(), stack.end(), [&](const Frame& x) { return x.chan == next; });
        for (; it != stack.end(); ++it) {
          const std::uint32_t s = owner[it->chan];
          report.cycle.push_back(fmt::format("'{}'[{}]", fabric.label(graph.node(s)), it->chan - chan_base[s]));
        }
      } else if (colour[next] == 0) {
        colour[next] = 1;
        stack.push_back({next, 0});
      }
    }
    stack.clear();
  }
  return report;
}

std::vector<RankBalance> uplink_balance(const IbFabric& fabric, const IbRouting& routing, const IbRanks& ranks) {
  const SwitchGraph graph(fabric);
  std::vector<std::uint32_t> ca_lids;
  for (std::uint32_t lid = 1; lid <= routing.lids.max_lid(); ++lid) {
    if (is_destination(fabric, routing, lid, {})) ca_lids.push_back(lid);
  }
  std::vector<RankBalance> out;
  std::vector<double> sums;
  std::vector<std::uint32_t> count;
  for (const std::uint32_t s : graph.guid_order()) {  // ties for the worst switch: lowest GUID
    const int r = ranks.rank[s];
    if (r == IbRanks::kUnranked) continue;
    count.assign(static_cast<std::size_t>(graph.port_count(s)) + 1, 0);
    for (const auto lid : ca_lids) {
      const auto p = routing.port(s, lid);
      if (p != IbRouting::kNoPath && p <= graph.port_count(s)) ++count[p];
    }
    std::uint32_t lo = 0xFFFFFFFFu;
    std::uint32_t hi = 0;
    std::size_t uplinks = 0;
    double sum = 0;
    std::vector<std::uint32_t> mine;
    for (const auto& link : graph.links(s)) {
      if (ranks.rank[link.peer] >= r) continue;
      ++uplinks;
      mine.push_back(count[link.port]);
      lo = std::min(lo, count[link.port]);
      hi = std::max(hi, count[link.port]);
      sum += count[link.port];
    }
    if (uplinks == 0) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const RankBalance& b) { return b.rank == r; });
    if (it == out.end()) {
      out.push_back({r, 0, lo, hi, 0, 0, {}, {}});
      sums.push_back(0);
      it = out.end() - 1;
    }
    it->uplinks += uplinks;
    it->destinations.insert(it->destinations.end(), mine.begin(), mine.end());
    it->min = std::min(it->min, lo);
    it->max = std::max(it->max, hi);
    sums[static_cast<std::size_t>(it - out.begin())] += sum;
    if (hi - lo > it->worst_switch_spread || it->worst_switch.empty()) {
      it->worst_switch_spread = hi - lo;
      it->worst_switch = fabric.label(graph.node(s));
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].mean = sums[i] / static_cast<double>(out[i].uplinks);
  std::sort(out.begin(), out.end(), [](const RankBalance& a, const RankBalance& b) { return a.rank > b.rank; });
  return out;
}

namespace {

struct Endpoint {
  std::uint32_t sw;
  std::uint16_t lid;
  std::uint64_t port_guid;
};

std::vector<Endpoint> permutation_endpoints(const IbFabric& fabric, const SwitchGraph& graph, const IbRouting& routing) {
  std::vector<Endpoint> eps;
  for (std::size_t i = 0; i < fabric.node_count(); ++i) {
    const IbNodeId n(i);
    if (fabric.is_switch(n)) continue;
    for (int p = 1; p <= fabric.ports(n); ++p) {
      const IbPortRef far = fabric.remote(n, p);
      const auto lid = routing.lids.base_lid(n, p);
      if (!far.connected() || !fabric.is_switch(far.node) || lid == 0) continue;
      eps.push_back({graph.index_of(far.node), lid, fabric.port_guid(n, p)});
    }
  }
  std::stable_sort(eps.begin(), eps.end(), [](const Endpoint& a, const Endpoint& b) { return a.port_guid < b.port_guid; });
  return eps;
}

// Max channel load of one permutation (perm[i] = destination index of source i).
std::uint32_t max_load(const SwitchGraph& graph, const IbRouting& routing, const std::vector<Endpoint>& eps,
                       const std::vector<std::uint32_t>& perm, std::vector<std::uint32_t>& load,
                       const std::vector<std::uint32_t>& chan_base, std::size_t& undelivered) {
  std::fill(load.begin(), load.end(), 0);
  std::uint32_t worst = 0;
  for (std::size_t i = 0; i < eps.size(); ++i) {
    if (perm[i] == i) continue;
    const std::uint32_t lid = eps[perm[i]].lid;
    std::uint32_t cur = eps[i].sw;
    bool ok = false;
    for (std::uint32_t steps = 0; steps <= graph.size(); ++steps) {
      const std::uint8_t out = routing.port(cur, lid);
      if (out == IbRouting::kNoPath || out > graph.port_count(cur)) break;
      const std::uint32_t v = graph.peer_switch(cur, out);
      if (v == SwitchGraph::kNone) {
        ok = out != 0;
        break;
      }
      worst = std::max(worst, ++load[chan_base[cur] + out]);
      cur = v;
    }
    undelivered += ok ? 0 : 1;
  }
  return worst;
}

PermutationReport run_patterns(const IbFabric& fabric, const IbRouting& routing, std::size_t count,
                               const std::function<void(std::size_t, std::size_t, std::vector<std::uint32_t>&)>& make) {
  const SwitchGraph graph(fabric);
  const auto eps = permutation_endpoints(fabric, graph, routing);
  PermutationReport report;
  if (eps.size() < 2 || count == 0) return report;
  std::vector<std::uint32_t> chan_base(graph.size() + 1, 0);
  for (std::uint32_t s = 0; s < graph.size(); ++s) {
    chan_base[s + 1] = chan_base[s] + static_cast<std::uint32_t>(graph.port_count(s)) + 1;
  }
  std::vector<std::uint32_t> load(chan_base.back());
  std::vector<std::uint32_t> perm(eps.size());
  double sum = 0;
  for (std::size_t k = 0; k < count; ++k) {
    make(k, eps.size(), perm);
    const auto worst = max_load(graph, routing, eps, perm, load, chan_base, report.undelivered_flows);
    report.worst_max_load = std::max(report.worst_max_load, worst);
    sum += worst;
    ++report.patterns;
  }
  report.mean_max_load = sum / static_cast<double>(report.patterns);
  return report;
}

}  // namespace

PermutationReport shift_permutation_load(const IbFabric& fabric, const IbRouting& routing, std::size_t count) {
  const SwitchGraph graph(fabric);
  const std::size_t n = permutation_endpoints(fabric, graph, routing).size();
  if (n < 2) return {};
  const std::size_t patterns = std::min(count, n - 1);
  return run_patterns(fabric, routing, patterns, [&](std::size_t k, std::size_t size, std::vector<std::uint32_t>& perm) {
    const std::size_t shift = 1 + k * (size - 1) / patterns;
    for (std::size_t i = 0; i < size; ++i) perm[i] = static_cast<std::uint32_t>((i + shift) % size);
  });
}

PermutationReport random_permutation_load(const IbFabric& fabric, const IbRouting& routing, std::size_t count,
                                          std::uint64_t seed) {
  return run_patterns(fabric, routing, count, [&](std::size_t k, std::size_t size, std::vector<std::uint32_t>& perm) {
    std::iota(perm.begin(), perm.end(), 0U);
    Rng rng(seed, k, 0);
    for (std::size_t i = size - 1; i > 0; --i) std::swap(perm[i], perm[rng.uniform(i + 1)]);
  });
}

Trace trace_route(const IbFabric& fabric, const IbRouting& routing, IbNodeId src, int src_port, std::uint32_t dlid) {
  Trace trace;
  trace.hops.push_back({src, 0, src_port});
  if (dlid == 0 || dlid > routing.lids.max_lid() || !routing.lids.owner_node[dlid].valid()) {
    trace.problem = fmt::format("LID {} is not assigned", dlid);
    return trace;
  }
  const IbNodeId owner = routing.lids.owner_node[dlid];
  IbPortRef at = fabric.remote(src, src_port);
  for (std::size_t steps = 0; steps <= routing.switches.size() + 1; ++steps) {
    if (!at.connected()) {
      trace.problem = "the port is not cabled";
      return trace;
    }
    if (!fabric.is_switch(at.node)) {
      trace.delivered = at.node == owner && at.port == routing.lids.owner_port[dlid];
      if (!trace.delivered) trace.problem = fmt::format("arrived at '{}', which does not own the LID", fabric.label(at.node));
      trace.hops.push_back({at.node, at.port, 0});
      return trace;
    }
    const std::uint8_t out = routing.port(routing.switch_index(at.node), dlid);
    trace.hops.push_back({at.node, at.port, out == IbRouting::kNoPath ? -1 : out});
    if (out == IbRouting::kNoPath) {
      trace.problem = fmt::format("'{}' has no LFT entry for LID {}", fabric.label(at.node), dlid);
      return trace;
    }
    if (out == 0) {
      trace.delivered = at.node == owner;
      if (!trace.delivered) trace.problem = fmt::format("'{}' forwards LID {} to itself", fabric.label(at.node), dlid);
      return trace;
    }
    at = fabric.remote(at.node, out);
  }
  trace.problem = "forwarding loop";
  return trace;
}

std::string format_trace(const IbFabric& fabric, const IbRouting& routing, const Trace& trace, std::uint32_t dlid) {
  auto lid_range = [&](IbNodeId n, int port) {
    const auto base = routing.lids.base_lid(n, fabric.is_switch(n) ? 0 : port);
    const int span = fabric.is_switch(n) ? 1 : routing.lids.lids_per_port();
    return fmt::format("lid {}-{}", base, base + span - 1);
  };
  auto kind = [&](IbNodeId n) { return fabric.is_switch(n) ? "switch" : "ca"; };
  std::string out;
  const TraceHop& first = trace.hops.front();
  out += fmt::format("From {} {{{}}} portnum {} {} \"{}\"\n", kind(first.node), format_guid(fabric.guid[first.node.value()]),
                     first.out_port, lid_range(first.node, first.out_port), fabric.label(first.node));
  for (std::size_t i = 1; i < trace.hops.size(); ++i) {
    const TraceHop& prev = trace.hops[i - 1];
    const TraceHop& h = trace.hops[i];
    out += fmt::format("[{}] -> {} port {{{}}}[{}] {} \"{}\"\n", prev.out_port, kind(h.node),
                       format_guid(fabric.port_guid(h.node, h.in_port)), h.in_port, lid_range(h.node, h.in_port),
                       fabric.label(h.node));
  }
  if (trace.delivered) {
    const IbNodeId owner = routing.lids.owner_node[dlid];
    const int port = routing.lids.owner_port[dlid];
    out += fmt::format("To {} {{{}}} portnum {} {} \"{}\"\n", kind(owner), format_guid(fabric.guid[owner.value()]), port,
                       lid_range(owner, port), fabric.label(owner));
  } else {
    out += fmt::format("ibtracert: no path to LID {}: {}\n", dlid, trace.problem);
  }
  return out;
}

}  // namespace ct
