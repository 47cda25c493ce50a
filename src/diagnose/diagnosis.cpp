#include "diagnose/diagnosis.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "analysis/birthday.h"

namespace ct {
namespace {

constexpr double kBitsPerByte = 8.0;

std::string gbps_text(double bps) { return fmt::format("{:.2f} Gb/s", bps / 1e9); }
// Whole percents from 10% up; two significant digits below, so a lab-scale utilization does not
// read "0%".
std::string percent(double x) {
  return 100.0 * x >= 9.95 ? fmt::format("{:.0f}%", 100.0 * x) : fmt::format("{:.2g}%", 100.0 * x);
}

// Per directed link: the best source of its rate (switch transmit, switch receive, host).
struct RateTable {
  std::vector<double> switch_tx, switch_rx, host;
  explicit RateTable(std::size_t links) : switch_tx(2 * links, -1), switch_rx(2 * links, -1), host(2 * links, -1) {}
  [[nodiscard]] double rate(std::size_t d) const {
    if (switch_tx[d] >= 0) return switch_tx[d];
    if (switch_rx[d] >= 0) return switch_rx[d];
    return host[d];
  }
};

// Hash interval [lo, hi] owned by member m of an n-way group (hash-threshold), found with the
// walker's own selection so the two can never disagree.
std::pair<std::uint64_t, std::uint64_t> member_interval(const PathWalker& w, std::uint32_t n, std::uint32_t m, int bits) {
  const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
  auto first_at_least = [&](std::uint32_t member) {
    std::uint64_t lo = 0, hi = top + 1;
    while (lo < hi) {
      const std::uint64_t mid = (lo + hi) / 2;
      if (w.select(n, static_cast<std::uint32_t>(mid)) >= member) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  };
  const std::uint64_t lo = first_at_least(m);
  const std::uint64_t next = m + 1 < n ? first_at_least(m + 1) : top + 1;
  return {lo, next - 1};
}

// Members of group g (owned by s) that a flow can reach, given the lower-tier switches that feed
// s and hash identically (see the header). All true when no feeder couples.
std::vector<bool> reachable_members(const Fabric& fabric, VertexId s, std::uint32_t g, std::vector<std::string>& coupled_with) {
  const Topology& t = fabric.topology();
  const ForwardingState& f = fabric.forwarding();
  const PathWalker& w = fabric.walker();
  const std::uint32_t n = f.size(g);
  std::vector<bool> reach(n, false);
  bool any_feeder = false;
  const bool modulo = fabric.ecmp().effective_selection() == MemberSelection::kModulo;
  const int bits = fabric.hashes().bits();
  for (const Adjacency& adj : t.neighbors(s)) {
    const VertexId c = adj.neighbor;
    if (t.kind[c.value()] != VertexKind::kSwitch || t.tier[c.value()] >= t.tier[s.value()]) continue;
    // c's up groups of >= 2 members that contain this link.
    for (std::uint32_t cg = f.first_group(c); cg < f.first_group(c) + f.group_count(c); ++cg) {
      if (f.kind(cg) != GroupKind::kUp || f.size(cg) < 2) continue;
      const auto members = f.members(cg);
      const auto it = std::find(members.begin(), members.end(), adj.link);
      if (it == members.end()) continue;
      any_feeder = true;
      const auto m = static_cast<std::uint32_t>(it - members.begin());
      if (!fabric.hashes().identical(c, s)) {
        std::fill(reach.begin(), reach.end(), true);
        continue;
      }
      if (std::find(coupled_with.begin(), coupled_with.end(), t.vertex_name(c)) == coupled_with.end()) {
        coupled_with.push_back(t.vertex_name(c));
      }
      const std::uint32_t nc = static_cast<std::uint32_t>(members.size());
      if (modulo) {
        if (nc == n) {
          reach[m] = true;
        } else {
          std::fill(reach.begin(), reach.end(), true);
        }
        continue;
      }
      const auto [lo, hi] = member_interval(w, nc, m, bits);
      for (std::uint32_t i = w.select(n, static_cast<std::uint32_t>(lo)); i <= w.select(n, static_cast<std::uint32_t>(hi)); ++i) {
        reach[i] = true;
      }
    }
  }
  if (!any_feeder) std::fill(reach.begin(), reach.end(), true);
  return reach;
}

// Leaves at or below switch s (down links only).
std::vector<VertexId> leaves_below(const Topology& t, VertexId s) {
  std::vector<VertexId> out, stack{s};
  std::set<std::uint32_t> seen;
  while (!stack.empty()) {
    const VertexId v = stack.back();
    stack.pop_back();
    if (!seen.insert(v.value()).second) continue;
    if (t.tier[v.value()] == 1) {
      out.push_back(v);
      continue;
    }
    for (const Adjacency& a : t.neighbors(v)) {
      if (t.kind[a.neighbor.value()] == VertexKind::kSwitch && t.tier[a.neighbor.value()] < t.tier[v.value()]) {
        stack.push_back(a.neighbor);
      }
    }
  }
  return out;
}

// The model's walk of the known flows over a fabric (the built one, or the built one without the
// members found failed): per flow the directed links it crosses, and per directed link the flows
// that cross it, ascending. Keyed by directed link rather than (group, member), so walks over
// different forwarding states compare.
struct OracleWalk {
  std::vector<std::vector<std::uint32_t>> links;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> flows_on;
  std::vector<LinkId> failed;  // links out of the fabric for this walk
};

OracleWalk walk_flows(const PathWalker& walker, const std::vector<FlowResult>& flows, Diagnostics* warnings) {
  OracleWalk o;
  std::vector<PathHop> hops;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const FlowResult& fl = flows[i];
    const bool reached = walker.walk(fl.src, fl.dst, fl.key, hops);
    if (!reached && warnings != nullptr) {
      warnings->push_back(Diagnostic{fl.where, "flow", "the model cannot route this flow (different plane or no path)",
                                     Severity::kWarning});
    }
    std::vector<std::uint32_t> d;
    for (const PathHop& h : hops) {
      d.push_back(h.directed());
      o.flows_on[h.directed()].push_back(static_cast<std::uint32_t>(i));
    }
    o.links.push_back(std::move(d));
  }
  return o;
}

// The known flows on each directed link of `members`.
std::vector<int> member_counts(const OracleWalk& o, const std::vector<std::uint32_t>& members) {
  std::vector<int> counts;
  for (const std::uint32_t d : members) {
    const auto it = o.flows_on.find(d);
    counts.push_back(it == o.flows_on.end() ? 0 : static_cast<int>(it->second.size()));
  }
  return counts;
}

std::string counts_text(const std::vector<int>& counts) {
  std::string s;
  for (std::size_t i = 0; i < counts.size(); ++i) s += (i ? "/" : "") + std::to_string(counts[i]);
  return s;
}

// ", with X, Y down" for a walk without failed members.
// Cables are named as every output names them (NameDirectory::cable_name: a parallel twin's " #k").
std::string failed_text(const NameDirectory& d, const OracleWalk& o) {
  std::string names;
  for (const LinkId l : o.failed) names += (names.empty() ? "" : ", ") + d.cable_name(l);
  return names.empty() ? names : ", with " + names + " down";
}

// Links of the group's members that have `flag` set, comma-separated.
std::string member_links(const NameDirectory& d, const GroupDiagnosis& gd, bool MemberStats::*flag) {
  std::string names;
  for (const MemberStats& m : gd.members) {
    if (m.*flag) names += (names.empty() ? "" : ", ") + d.cable_name(m.link);
  }
  return names;
}

// Rates: every mapped series becomes the rate of one direction of one link (the header's
// "Rates"); NIC transmit counters also become the host's netdev or RDMA rate. Fills out.links,
// out.hosts and out.unmapped.
RateTable link_rates(const Topology& t, const Counters& counters, Diagnosis& out) {
  RateTable table(t.link_count());
  std::map<std::uint32_t, HostPortRate> hosts;
  std::set<std::string> unmapped;
  for (const SeriesRate& s : counters.rates.series) {
    const MappedPort* p = counters.map.find(s.instance, s.device);
    if (p == nullptr) {
      unmapped.insert((s.instance.empty() ? std::string("(no instance)") : s.instance) + " " + s.device);
      continue;
    }
    const bool owner_is_lower = t.link_a[p->link.value()] == p->vertex;
    const bool up = s.transmit ? owner_is_lower : !owner_is_lower;
    const std::size_t d = directed_link(p->link, up);
    const double bps = s.bytes_per_second * kBitsPerByte;
    if (t.kind[p->vertex.value()] == VertexKind::kPort) {
      if (s.transmit && s.kind != CounterKind::kPhy) {
        HostPortRate& h = hosts[p->vertex.value()];
        h.port = p->vertex;
        (s.kind == CounterKind::kRdma ? h.rdma_bps : h.netdev_bps) = bps;
      }
      table.host[d] = std::max(table.host[d], bps);
    } else if (s.transmit) {
      table.switch_tx[d] = bps;
    } else {
      table.switch_rx[d] = bps;
    }
  }
  out.unmapped.assign(unmapped.begin(), unmapped.end());
  for (const auto& [v, h] : hosts) out.hosts.push_back(h);
  for (std::size_t d = 0; d < 2 * t.link_count(); ++d) {
    const double r = table.rate(d);
    if (r < 0) continue;
    const LinkId l(static_cast<std::uint32_t>(d / 2));
    const double cap = static_cast<double>(t.capacity[l.value()].value());
    const CounterKind src = table.switch_tx[d] >= 0 || table.switch_rx[d] >= 0 ? CounterKind::kSwitch : CounterKind::kNetdev;
    out.links.push_back(DirectedRate{l, d % 2 == 0, r, cap > 0 ? r / cap : 0, src});
  }
  return table;
}

// What every group is judged against: the fabric, the counters, their rates and the model's walk
// of the known flows.
struct Evidence {
  const Fabric& fabric;
  const Counters& counters;
  const DiagnoseOptions& options;
  const RateTable& table;
  const std::vector<HostPortRate>& hosts;
  bool have_flows = false;
};

// One group as the model sees it, beside its GroupDiagnosis.
struct GroupModel {
  VertexId sw;
  std::uint32_t group = 0;
  std::uint32_t n = 0;               // members
  double sum_bps = 0;                // over the members that have a counter
  std::vector<std::uint32_t> member_dl;  // each member's directed link leaving the switch
  const OracleWalk* oracle = nullptr;    // the walk the group is judged against
  std::vector<int> predicted;            // known flows the model puts on each member
  std::vector<std::pair<std::size_t, std::uint32_t>> through;  // known flows through the group, with their member
  std::vector<std::uint32_t> slow_unplaced;  // slow per flow, but the model's placement does not match the counters
  std::string sw_name;
};

// Groups: the members' rates leaving the switch, max, mean, Jain's fairness and the idle members.
// False when no member has a counter (the group is not judged).
bool group_rates(const Evidence& e, GroupModel& gm, GroupDiagnosis& gd, const ForwardingState& f) {
  const Topology& t = e.fabric.topology();
  bool any = false;
  for (const LinkId l : f.members(gm.group)) {
    MemberStats m;
    m.link = l;
    m.up = e.fabric.walker().is_up(l, gm.sw);
    const double r = e.table.rate(directed_link(l, m.up));
    const double rev = e.table.rate(directed_link(l, !m.up));
    m.counted = r >= 0;
    m.bits_per_second = std::max(0.0, r);
    m.reverse_bps = rev;
    const double cap = static_cast<double>(t.capacity[l.value()].value());
    m.utilization = cap > 0 ? m.bits_per_second / cap : 0;
    any = any || m.counted;
    gd.members.push_back(m);
  }
  if (!any) return false;
  double sum = 0, sum2 = 0;
  std::uint32_t counted = 0;
  for (const MemberStats& m : gd.members) {
    if (!m.counted) continue;
    ++counted;
    sum += m.bits_per_second;
    sum2 += m.bits_per_second * m.bits_per_second;
    gd.max_bps = std::max(gd.max_bps, m.bits_per_second);
  }
  gm.sum_bps = sum;
  gd.mean_bps = sum / counted;
  gd.jain = sum2 > 0 ? sum * sum / (counted * sum2) : 1.0;
  for (MemberStats& m : gd.members) {
    m.idle = m.counted && m.bits_per_second < e.options.idle_fraction * gd.max_bps;
    if (m.idle) ++gd.idle;
  }
  return true;
}

// The median of a non-empty list.
double median_of(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t h = x.size() / 2;
  return x.size() % 2 ? x[h] : 0.5 * (x[h - 1] + x[h]);
}

// Whether the members the model loads are exactly the busy ones (witness 3's test).
bool placement_matches(const GroupDiagnosis& gd, const std::vector<int>& predicted) {
  for (std::size_t i = 0; i < gd.members.size(); ++i) {
    if ((gd.members[i].counted && !gd.members[i].idle) != (predicted[i] > 0)) return false;
  }
  return true;
}

// The known flows through a group's members, ascending, each with the member it takes.
std::vector<std::pair<std::size_t, std::uint32_t>> flows_through(const OracleWalk& oracle, const std::vector<std::uint32_t>& members) {
  std::vector<std::pair<std::size_t, std::uint32_t>> through;
  for (std::uint32_t m = 0; m < members.size(); ++m) {
    const auto it = oracle.flows_on.find(members[m]);
    if (it == oracle.flows_on.end()) continue;
    for (const std::uint32_t f : it->second) through.emplace_back(f, m);
  }
  std::sort(through.begin(), through.end());
  return through;
}

// Witness 1: the switch's own port counters, the members' rates.
Witness switch_witness(const Evidence& e, const GroupModel& gm, const GroupDiagnosis& gd) {
  const Topology& t = e.fabric.topology();
  Witness w{"switch port counters", WitnessState::kAgrees, ""};
  std::string rates;
  bool from_switch = false;
  for (std::uint32_t i = 0; i < gm.n; ++i) {
    const MemberStats& m = gd.members[i];
    rates += (i ? ", " : "") + t.vertex_name(t.other_end(m.link, gm.sw)) + " " +
             (m.counted ? gbps_text(m.bits_per_second) : "no counter");
    const std::size_t d = directed_link(m.link, m.up);
    from_switch = from_switch || e.table.switch_tx[d] >= 0 || e.table.switch_rx[d] >= 0;
  }
  if (!from_switch) w.state = WitnessState::kMissing;
  w.evidence = fmt::format("{}; {} idle, Jain's fairness {:.2f}", rates, gd.idle, gd.jain);
  return w;
}

// What the hosts below a switch sent, summed over their NIC ports.
struct HostTotals {
  double netdev = 0, rdma = 0, utilization = 0;
  int count = 0;
  bool seen = false, rdma_seen = false;
};

// Witness 2: the NIC counters of the hosts below the switch, against what the group carried.
Witness host_witness(const Evidence& e, const GroupModel& gm, HostTotals& h) {
  const Topology& t = e.fabric.topology();
  std::set<std::uint32_t> below;
  for (const VertexId leaf : leaves_below(t, gm.sw)) below.insert(leaf.value());
  for (const HostPortRate& p : e.hosts) {
    if (!below.count(e.fabric.forwarding().leaf_of(p.port).value())) continue;
    h.seen = true;
    h.netdev += std::max(0.0, p.netdev_bps);
    h.rdma += std::max(0.0, p.rdma_bps);
    h.rdma_seen = h.rdma_seen || p.rdma_bps >= 0;
    const double cap = static_cast<double>(t.capacity[p.port.value()].value());
    h.utilization += cap > 0 ? std::max(std::max(0.0, p.netdev_bps), p.rdma_bps) / cap : 0;
    ++h.count;
  }
  Witness w{"host NIC counters", WitnessState::kMissing, "no NIC counters of the hosts below " + gm.sw_name};
  if (h.seen) {
    const double sent = std::max(h.netdev, h.rdma);
    w.state = sent >= 0.5 * gm.sum_bps ? WitnessState::kAgrees : WitnessState::kDisagrees;
    w.evidence = fmt::format("hosts below {} sent {} (netdev {}, RDMA {}); the group carried {}", gm.sw_name, gbps_text(sent),
                             gbps_text(h.netdev), h.rdma_seen ? gbps_text(h.rdma) : std::string("no counters"),
                             gbps_text(gm.sum_bps));
  }
  return w;
}

// Witness 3: the path oracle agrees when the members it loads are exactly the busy ones.
// `loads_idle`: it loads a member whose counters are idle.
Witness oracle_witness(const Evidence& e, const GroupModel& gm, const GroupDiagnosis& gd, bool& loads_idle) {
  Witness w{"path oracle", WitnessState::kMissing, "no flows given (--flows): the model cannot say where they go"};
  if (e.have_flows && !gm.through.empty()) {
    bool same = true;
    for (std::uint32_t i = 0; i < gm.n; ++i) {
      const bool busy = gd.members[i].counted && !gd.members[i].idle;
      if (busy != (gm.predicted[i] > 0)) same = false;
      if (gm.predicted[i] > 0 && gd.members[i].idle) loads_idle = true;
    }
    w.state = same ? WitnessState::kAgrees : WitnessState::kDisagrees;
    w.evidence = fmt::format("the model ({}{}) puts the {} known flows through {} on members {}", e.fabric.ecmp().function_name(),
                             failed_text(e.fabric.names(), *gm.oracle), gm.through.size(), gm.sw_name,
                             counts_text(gm.predicted));
  } else if (e.have_flows) {
    w.evidence = "none of the known flows crosses " + gm.sw_name;
  }
  return w;
}

// Witness 4: the known flows' achieved rates. Flows on a degraded member against the others';
// otherwise flows that share a member against those alone, or a saturated shared member.
Witness throughput_witness(const Evidence& e, const GroupModel& gm, const GroupDiagnosis& gd) {
  Witness w{"flow throughput", WitnessState::kMissing, "no flow results for flows through " + gm.sw_name};
  if (gm.through.empty()) return w;
  const std::vector<FlowResult>& flows = e.counters.flows;
  double shared = 0, alone = 0, on_degraded = 0, elsewhere = 0;
  int n_shared = 0, n_alone = 0, n_degraded = 0, n_elsewhere = 0;
  bool saturated = false;
  for (const auto& [i, member] : gm.through) {
    if (gm.predicted[member] >= 2) {
      shared += flows[i].bits_per_second;
      ++n_shared;
      saturated = saturated || gd.members[member].utilization >= 0.9;
    } else {
      alone += flows[i].bits_per_second;
      ++n_alone;
    }
    (gd.members[member].degraded ? on_degraded : elsewhere) += flows[i].bits_per_second;
    ++(gd.members[member].degraded ? n_degraded : n_elsewhere);
  }
  if (n_degraded > 0 && n_elsewhere > 0) {
    const double slow = on_degraded / n_degraded, fast = elsewhere / n_elsewhere;
    w.state = slow < 0.8 * fast ? WitnessState::kAgrees : WitnessState::kDisagrees;
    w.evidence = fmt::format("flows on the degraded member achieved {} on average, the others {}", gbps_text(slow),
                             gbps_text(fast));
  } else if (n_shared == 0) {
    w.state = WitnessState::kDisagrees;
    w.evidence = "no two known flows share a member in the model";
  } else {
    const double mean_shared = shared / n_shared;
    const bool slower = n_alone > 0 && mean_shared < 0.8 * (alone / n_alone);
    w.state = slower || saturated ? WitnessState::kAgrees : WitnessState::kDisagrees;
    w.evidence = n_alone > 0 ? fmt::format("flows sharing a member achieved {} on average, flows alone {}",
                                           gbps_text(mean_shared), gbps_text(alone / n_alone))
                             : fmt::format("flows sharing a member achieved {} on average{}", gbps_text(mean_shared),
                                           saturated ? " on a saturated member" : "");
  }
  return w;
}

// What the cause rules read besides the witnesses (the header's "Cause, first that holds").
struct CauseFacts {
  bool oracle_loads_idle = false;      // witness 3
  bool idle_both_ways = false;         // without flows: a member idle both ways, the others busy both ways
  std::uint32_t reachable = 0;         // members a flow can reach under polarization
  bool busy_within_reach = true;       // every busy member among them
  std::vector<std::string> coupled;    // the lower-tier switches that hash identically
  std::size_t same_keys = 0;           // known flows whose masked key repeats an earlier one's
};

// Gathers the facts; marks each member reachable or not.
CauseFacts cause_facts(const Evidence& e, const GroupModel& gm, GroupDiagnosis& gd, bool oracle_loads_idle) {
  const Topology& t = e.fabric.topology();
  CauseFacts c;
  c.oracle_loads_idle = oracle_loads_idle;
  const std::vector<bool> reach = gd.up && t.tier[gm.sw.value()] >= 2 ? reachable_members(e.fabric, gm.sw, gm.group, c.coupled)
                                                                      : std::vector<bool>(gm.n, true);
  for (std::uint32_t i = 0; i < gm.n; ++i) {
    gd.members[i].reachable = reach[i];
    if (reach[i]) ++c.reachable;
  }
  for (std::uint32_t i = 0; i < gm.n; ++i) {
    if (gd.members[i].counted && !gd.members[i].idle && !reach[i]) c.busy_within_reach = false;
  }
  if (!e.have_flows) {
    const double idle_below = e.options.idle_fraction * gd.max_bps;
    bool others_both = true;
    for (const MemberStats& m : gd.members) {
      if (m.idle && m.reverse_bps >= 0 && m.reverse_bps < idle_below) c.idle_both_ways = true;
      if (!m.idle && !(m.reverse_bps >= idle_below)) others_both = false;
    }
    c.idle_both_ways = c.idle_both_ways && others_both;
  }
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint8_t, std::uint16_t, std::uint16_t>, int> keys;
  const FieldMask mask = e.fabric.ecmp().effective_fields();
  for (const auto& [i, member] : gm.through) {
    const FlowKey k = masked(e.counters.flows[i].key, mask);
    if (++keys[{k.src_ip, k.dst_ip, k.protocol, k.src_port, k.dst_port}] > 1) ++c.same_keys;
  }
  return c;
}

// The first cause that holds, in the header's order.
Cause cause(const GroupDiagnosis& gd, const GroupModel& gm, const CauseFacts& c, bool have_flows) {
  if (c.oracle_loads_idle || c.idle_both_ways) return Cause::kFailedMember;
  if (gd.degraded > 0) return Cause::kDegradedMember;
  if (c.reachable < gm.n && c.busy_within_reach) return Cause::kPolarization;
  if (c.same_keys > 0) return Cause::kMissingEntropy;
  if (!have_flows || gm.through.empty() || !gm.slow_unplaced.empty() || !placement_matches(gd, gm.predicted)) {
    return Cause::kUnexplained;
  }
  const bool collision = std::any_of(gm.predicted.begin(), gm.predicted.end(), [](int k) { return k >= 2; });
  return collision ? Cause::kBadLuck : Cause::kFewFlows;
}

void explain_failed_member(const Evidence& e, const GroupModel& gm, const CauseFacts& c, GroupDiagnosis& gd) {
  const std::string idle_names = member_links(e.fabric.names(), gd, &MemberStats::idle);
  gd.explanation = c.oracle_loads_idle
                       ? fmt::format("the model sends known flows over {} but its counters are idle: the flows went "
                                     "elsewhere, so the member is down or removed from the group",
                                     idle_names)
                       : fmt::format("{} is idle in both directions while the other members carry traffic both ways: "
                                     "a failed or disabled member",
                                     idle_names);
  gd.fix = "repair or re-enable " + idle_names + "; until then the group has " + std::to_string(gm.n - gd.idle) + " members";
  gd.predicted = e.have_flows ? "with every member healthy the model places the known flows " + counts_text(gm.predicted)
                              : "the group's full width back: " + std::to_string(gm.n) + " members";
}

void explain_degraded_member(const Evidence& e, const GroupModel& gm, GroupDiagnosis& gd) {
  const std::string degraded_names = member_links(e.fabric.names(), gd, &MemberStats::degraded);
  std::string degraded_rates;
  for (const MemberStats& m : gd.members) {
    if (m.degraded) degraded_rates += (degraded_rates.empty() ? "" : ", ") + gbps_text(m.per_flow_bps);
  }
  gd.explanation = fmt::format(
      "{} carries traffic, so it is up, but runs at {} per flow the model gives it while the other loaded members "
      "run at {} per flow (median): the member is degraded (a lower negotiated speed, errors and retransmits, or "
      "a failing optic), not failed",
      degraded_names, degraded_rates, gbps_text(gd.degraded_reference_bps));
  gd.fix = "check " + degraded_names +
           ": its negotiated speed (ethtool, ifHighSpeed), FEC and error counters; replace the cable or optic, or "
           "take it out of the group until then";
  gd.predicted = fmt::format("at full rate the member carries {} per flow like its twins: the group's flows ({}) "
                             "finish together",
                             gbps_text(gd.degraded_reference_bps), counts_text(gm.predicted));
}

// The fix's effect from the model: the known flows re-walked with per-switch seeds.
void explain_polarization(const Evidence& e, const GroupModel& gm, const CauseFacts& c, GroupDiagnosis& gd) {
  const EcmpConfig& ecmp = e.fabric.ecmp();
  std::string coupled_list;
  for (const auto& name : c.coupled) coupled_list += (coupled_list.empty() ? "" : ", ") + name;
  gd.explanation = fmt::format(
      "{} hashes with the same function, fields and seed as {} below it ({}, seed_mode {}): a flow that came up "
      "through a given member there lands in the same part of the hash range here, so only {} of {} members can "
      "ever be chosen",
      gm.sw_name, coupled_list, ecmp.function_name(), seed_mode_name(ecmp.seed_mode), c.reachable, gm.n);
  gd.fix = "per-switch seeds (routing.ecmp.seed_mode: per-switch; Linux: a distinct net.ipv4.fib_multipath_hash_seed per router)";
  if (!e.have_flows) {
    gd.predicted = fmt::format("every one of the {} members becomes reachable (now {})", gm.n, c.reachable);
    return;
  }
  EcmpConfig fixed = ecmp;
  fixed.seed_mode = SeedMode::kPerSwitch;
  const SwitchHashes hashes(e.fabric.topology(), fixed);
  const PathWalker walker(e.fabric.forwarding(), hashes);
  const std::vector<int> after = member_counts(walk_flows(walker, e.counters.flows, nullptr), gm.member_dl);
  const auto busy_after = std::count_if(after.begin(), after.end(), [](int k) { return k > 0; });
  const auto busy_now = std::count_if(gm.predicted.begin(), gm.predicted.end(), [](int k) { return k > 0; });
  gd.predicted = fmt::format("the model re-walks the {} known flows with per-switch seeds: members {} ({} of {} busy; now {})",
                             gm.through.size(), counts_text(after), busy_after, gm.n, busy_now);
}

void explain_missing_entropy(const Evidence& e, const GroupModel& gm, const CauseFacts& c, GroupDiagnosis& gd) {
  const int qps = e.options.qps_for_fix;
  gd.explanation = fmt::format("{} of the {} known flows through {} hash the same key under the fields hashed ({}): "
                               "no seed or function can separate them",
                               c.same_keys + 1, gm.through.size(), gm.sw_name, field_list(e.fabric.ecmp().effective_fields()));
  gd.fix = fmt::format("hash the ports (routing.ecmp.fields with src_port; Linux fib_multipath_hash_policy 1) and use "
                       "{} QPs per connection so each connection has {} source ports",
                       qps, qps);
  gd.probability = p_any_collision(gm.n, gm.through.size());
  gd.predicted = fmt::format("with distinct keys {} flows on {} members still collide with probability {:.3f}",
                             gm.through.size(), gm.n, gd.probability);
}

// P(any collision) of k flows on n members; the fix's effect as the expected busiest member.
void explain_bad_luck(const Evidence& e, const GroupModel& gm, GroupDiagnosis& gd) {
  const std::uint32_t n = gm.n;
  const std::uint64_t k = gm.through.size();
  gd.probability = p_any_collision(n, k);
  gd.explanation = fmt::format("{} independent flows on {} members ({}): P(any collision) = 1 - {}!/(({}-{})! {}^{}) = {:.4f}",
                               k, n, counts_text(gm.predicted), n, n, std::min<std::uint64_t>(k, n), n, k, gd.probability);
  const auto q = static_cast<std::uint32_t>(e.options.qps_for_fix);
  gd.fix = fmt::format("{} QPs per connection (NCCL_IB_QPS_PER_CONNECTION), or packet spraying", q);
  // The max-load recursion is O(n k^2) per load value: evaluated for small cases only.
  if (static_cast<std::uint64_t>(n) * k * q <= 16384) {
    const auto k32 = static_cast<std::uint32_t>(k);
    const double now = expected_max_load(n, k32) / (static_cast<double>(k32) / n);
    const double with_qps = expected_max_load(n, k32 * q) / (static_cast<double>(k32 * q) / n);
    gd.predicted = fmt::format("expected busiest member at {:.2f}x the mean load with {} subflows (now {:.2f}x); spraying: 1.00x",
                               with_qps, k32 * q, now);
  } else {
    gd.predicted = fmt::format("with {} subflows P(any collision) stays {:.3f} but each carries 1/{} of a flow; spraying: even",
                               k * q, p_any_collision(n, k * q), q);
  }
}

// k flows on n > k members, each on its own member: the idle members are the ones no flow needs.
void explain_few_flows(const GroupModel& gm, GroupDiagnosis& gd) {
  const std::size_t k = gm.through.size();
  gd.explanation = fmt::format("{} known flows on {} members ({}): no two share a member, so there is no collision; {} "
                               "member(s) idle because there are fewer flows than members",
                               k, gm.n, counts_text(gm.predicted), gd.idle);
  gd.fix = "nothing is broken; to use the idle members give each connection more flows (QPs) or spray packets";
  gd.predicted = fmt::format("with every member used the busiest carries 1 flow, as now");
}

// Why the model cannot judge the group: the known flows' placement does not match the busy members
// (traffic that no known flow names), so a rate per flow means nothing; what is missing.
void explain_unplaced(const Evidence& e, const GroupModel& gm, GroupDiagnosis& gd) {
  const NameDirectory& names = e.fabric.names();
  std::string unknown, slow;
  for (std::uint32_t i = 0; i < gm.n; ++i) {
    const MemberStats& m = gd.members[i];
    if (m.counted && !m.idle && gm.predicted[i] == 0) unknown += (unknown.empty() ? "" : ", ") + names.cable_name(m.link);
  }
  for (const std::uint32_t i : gm.slow_unplaced) {
    slow += fmt::format("{}{} at {} per known flow", slow.empty() ? "" : ", ", names.cable_name(gd.members[i].link),
                        gbps_text(gd.members[i].per_flow_bps));
  }
  gd.explanation = fmt::format("the model{} puts the known flows on members {}, which is not what the counters show{}{}",
                               failed_text(names, *gm.oracle), counts_text(gm.predicted),
                               unknown.empty() ? "" : ": " + unknown + " carry traffic of no known flow",
                               slow.empty() ? "" : "; so " + slow + " cannot be called degraded, its twins may carry unknown flows");
  gd.fix = "missing: the flows that cross " + (unknown.empty() ? gm.sw_name : unknown) +
           " (iperf3 --json or a flows CSV, --flows); then the model can place them";
}

// Explanation, fix and predicted effect of gd.cause.
void explain(const Evidence& e, const GroupModel& gm, const CauseFacts& c, GroupDiagnosis& gd) {
  switch (gd.cause) {
    case Cause::kFailedMember: explain_failed_member(e, gm, c, gd); return;
    case Cause::kDegradedMember: explain_degraded_member(e, gm, gd); return;
    case Cause::kPolarization: explain_polarization(e, gm, c, gd); return;
    case Cause::kMissingEntropy: explain_missing_entropy(e, gm, c, gd); return;
    case Cause::kBadLuck: explain_bad_luck(e, gm, gd); return;
    case Cause::kFewFlows: explain_few_flows(gm, gd); return;
    case Cause::kNone:
    case Cause::kUnexplained: break;
  }
  if (e.have_flows && !gm.through.empty()) {
    explain_unplaced(e, gm, gd);
    return;
  }
  gd.explanation = e.have_flows ? "imbalanced, but none of the known flows crosses " + gm.sw_name +
                                      ": the model cannot say what its members carry"
                                : "imbalanced, but without the flows (--flows) the model cannot tell bad luck from missing entropy";
  gd.fix = "give the flows (iperf3 --json or a flows CSV) to the path oracle";
}

// Each witness that disagrees with the verdict: why the verdict stands, in its explanation. A
// disagreement that is the verdict's own evidence (the path oracle loading the idle member of a
// failed group) is no overrule; "no two flows share a member" supports "fewer flows than members".
void overrule(GroupDiagnosis& gd) {
  for (std::size_t w = 1; w < gd.witnesses.size(); ++w) {
    Witness& witness = gd.witnesses[w];
    if (witness.state != WitnessState::kDisagrees) continue;
    std::string why;
    if (w == 1) {
      why = "the hosts below sent less than the group carried, so traffic from other switches crosses it; the verdict "
            "rests on the group's own counters";
    } else if (w == 2 && gd.cause == Cause::kPolarization) {
      why = "polarization is read from the switches' hash configuration, which confines every flow, known or not";
    } else if (w == 2 && gd.cause == Cause::kMissingEntropy) {
      why = "flows that hash one key share one member wherever the model puts it";
    } else if (w == 3 && gd.cause == Cause::kFewFlows) {
      witness.state = WitnessState::kAgrees;  // no flow shares a member: the verdict's own claim
    } else if (w == 3 && gd.cause == Cause::kBadLuck) {
      why = "the flows on the shared member lost nothing at this load (the member has room), but they do share it: "
            "the collision costs speed once they need more than their share";
    } else if (w == 3 && gd.cause == Cause::kDegradedMember) {
      why = "the flows' own reports (a UDP sender's view) do not show the loss; the member's counters, what really "
            "crossed it, do";
    } else if (w == 3) {
      why = "the known flows reached their rates at this load; the verdict is about where they can go, not how fast "
            "they went";
    }
    if (!why.empty()) gd.explanation += "; this overrules the " + witness.name + " witness, which disagrees: " + why;
  }
}

// Why the dashboards stayed green: averages under the alarm while a member is hot, no alarm on a
// member at zero or a slow member, the hosts' average, netdev counters blind to RDMA.
std::vector<std::string> green_reasons(const Evidence& e, const GroupModel& gm, const HostTotals& h, const GroupDiagnosis& gd) {
  const double alarm = e.options.alarm_threshold;
  std::vector<std::string> green;
  double mean_util = 0, max_util = 0;
  for (const MemberStats& m : gd.members) {
    mean_util += m.utilization / gm.n;
    max_util = std::max(max_util, m.utilization);
  }
  if (mean_util < alarm && max_util >= alarm) {
    green.push_back(fmt::format("the group's average utilization is {} (alarm at {}) while its busiest member runs at {}",
                                percent(mean_util), percent(alarm), percent(max_util)));
  } else if (max_util < alarm) {
    green.push_back(fmt::format("no member crossed the {} alarm (busiest {})", percent(alarm), percent(max_util)));
  }
  const std::string idle_names = member_links(e.fabric.names(), gd, &MemberStats::idle);
  const std::string degraded_names = member_links(e.fabric.names(), gd, &MemberStats::degraded);
  if (!idle_names.empty()) green.push_back("no alarm watches for a member at zero: " + idle_names);
  if (!degraded_names.empty()) {
    green.push_back("no alarm compares a member's rate per flow with its twins': " + degraded_names + " is up and busy, only slower");
  }
  if (h.seen && h.count > 0 && h.utilization / h.count < alarm) {
    green.push_back(fmt::format("the hosts below {} average {} NIC utilization", gm.sw_name, percent(h.utilization / h.count)));
  }
  if (h.rdma > 0 && h.netdev < 0.1 * h.rdma) {
    green.push_back(fmt::format("host netdev counters saw {} while RDMA counters saw {}: RoCE bypasses the kernel, so a "
                                "node_exporter network panel shows idle NICs",
                                gbps_text(h.netdev), gbps_text(h.rdma)));
  }
  return green;
}

// A group, its rates and its model, judged against one walk of the known flows.
struct Judged {
  GroupDiagnosis gd;
  GroupModel gm;
};

// Group g of switch s: its rates and where the walk puts the known flows. Empty when no member
// has a counter.
std::optional<Judged> measure_group(const Evidence& e, const OracleWalk& oracle, VertexId s, std::uint32_t g) {
  const ForwardingState& f = e.fabric.forwarding();
  Judged j;
  GroupModel& gm = j.gm;
  GroupDiagnosis& gd = j.gd;
  gm.sw = s;
  gm.group = g;
  gm.n = f.size(g);
  gm.oracle = &oracle;
  gd.sw = s;
  gd.group = g;
  gd.up = f.kind(g) == GroupKind::kUp;
  if (!group_rates(e, gm, gd, f)) return std::nullopt;
  for (const MemberStats& m : gd.members) gm.member_dl.push_back(directed_link(m.link, m.up));
  gm.predicted = member_counts(oracle, gm.member_dl);
  gm.through = flows_through(oracle, gm.member_dl);
  gd.flows = static_cast<std::uint32_t>(gm.through.size());
  if (e.have_flows) {
    for (std::uint32_t i = 0; i < gm.n; ++i) gd.members[i].predicted_flows = gm.predicted[i];
  }
  return j;
}

// A member slow per flow against its twins (the header's "degraded member").
struct SlowMember {
  std::size_t judged;
  std::uint32_t member;
  double ratio;      // its rate per flow over the twins' median
  double reference;  // the twins' median rate per flow
  std::size_t flows;
  std::size_t hop;   // the earliest hop of its flows' paths that crosses it (upstream first)
};

std::vector<SlowMember> slow_members(std::vector<Judged>& all, const DiagnoseOptions& options) {
  std::vector<SlowMember> slow;
  for (std::size_t j = 0; j < all.size(); ++j) {
    GroupDiagnosis& gd = all[j].gd;
    const std::vector<int>& k = all[j].gm.predicted;
    const bool placed = placement_matches(gd, k);
    for (std::uint32_t i = 0; i < gd.members.size(); ++i) {
      MemberStats& m = gd.members[i];
      if (!m.counted || m.idle || k[i] <= 0) continue;
      std::vector<double> others;
      for (std::uint32_t o = 0; o < gd.members.size(); ++o) {
        const MemberStats& x = gd.members[o];
        if (o != i && x.counted && !x.idle && k[o] > 0) others.push_back(x.bits_per_second / k[o]);
      }
      if (others.empty()) continue;
      const double median = median_of(std::move(others));
      m.per_flow_bps = m.bits_per_second / k[i];
      if (m.per_flow_bps >= options.degraded_fraction * median) continue;
      if (!placed) {
        all[j].gm.slow_unplaced.push_back(i);
        continue;
      }
      const std::uint32_t dl = all[j].gm.member_dl[i];
      std::size_t hop = PathWalker::kMaxPathHops;
      for (const std::uint32_t f : all[j].gm.oracle->flows_on.at(dl)) {
        const std::vector<std::uint32_t>& path = all[j].gm.oracle->links[f];
        hop = std::min(hop, static_cast<std::size_t>(std::find(path.begin(), path.end(), dl) - path.begin()));
      }
      slow.push_back(SlowMember{j, i, m.per_flow_bps / median, median, static_cast<std::size_t>(k[i]), hop});
    }
  }
  return slow;
}

// Degraded members over all groups at once, upstream first: by the earliest hop of its flows'
// paths at which a slow member is crossed, then the slowest per flow, then the most flows. An open
// loop (UDP) sender's bytes cross every member before the bottleneck at full rate and every member
// after it at the bottleneck's; a closed loop (TCP) slows them all, and the counters cannot tell
// which member limits, so the first on the path is taken. A slow member is degraded unless its flows also cross a member already found degraded
// that explains its rate: with each such flow expected at that member's rate per flow and the
// others at the twins' median, the member carries at least degraded_fraction of what it should.
// So the member downstream of a rate-limited one, carrying its flows, is not called degraded.
void resolve_degraded(std::vector<Judged>& all, const DiagnoseOptions& options) {
  std::vector<SlowMember> slow = slow_members(all, options);
  std::sort(slow.begin(), slow.end(), [&](const SlowMember& a, const SlowMember& b) {
    if (a.hop != b.hop) return a.hop < b.hop;
    if (a.ratio != b.ratio) return a.ratio < b.ratio;
    if (a.flows != b.flows) return a.flows > b.flows;
    return all[a.judged].gm.member_dl[a.member] < all[b.judged].gm.member_dl[b.member];
  });
  std::unordered_map<std::uint32_t, double> degraded;  // directed link -> its rate per flow
  for (const SlowMember& x : slow) {
    Judged& j = all[x.judged];
    MemberStats& m = j.gd.members[x.member];
    const std::uint32_t dl = j.gm.member_dl[x.member];
    double expected = 0;
    for (const std::uint32_t f : j.gm.oracle->flows_on.at(dl)) {
      double rate = x.reference;
      for (const std::uint32_t d : j.gm.oracle->links[f]) {
        if (const auto it = degraded.find(d); d != dl && it != degraded.end()) rate = std::min(rate, it->second);
      }
      expected += rate;
    }
    if (m.bits_per_second >= options.degraded_fraction * expected) continue;
    m.degraded = true;
    ++j.gd.degraded;
    j.gd.degraded_reference_bps = x.reference;
    degraded[dl] = m.per_flow_bps;
  }
}

// An imbalanced group's four witnesses, cause and its fix, and why the dashboards stayed green.
void give_verdict(const Evidence& e, Judged& j) {
  GroupModel& gm = j.gm;
  GroupDiagnosis& gd = j.gd;
  gd.imbalanced = gd.max_bps >= e.options.noise_floor_bps && (gd.idle > 0 || gd.degraded > 0 || !gm.slow_unplaced.empty());
  if (!gd.imbalanced) return;
  gm.sw_name = e.fabric.topology().vertex_name(gm.sw);
  HostTotals hosts;
  bool oracle_loads_idle = false;
  gd.witnesses.push_back(switch_witness(e, gm, gd));
  gd.witnesses.push_back(host_witness(e, gm, hosts));
  gd.witnesses.push_back(oracle_witness(e, gm, gd, oracle_loads_idle));
  gd.witnesses.push_back(throughput_witness(e, gm, gd));
  const CauseFacts facts = cause_facts(e, gm, gd, oracle_loads_idle);
  gd.cause = cause(gd, gm, facts, e.have_flows);
  explain(e, gm, facts, gd);
  overrule(gd);
  gd.green = green_reasons(e, gm, hosts, gd);
}

// Every backend group of >= 2 up or down members that has counters, judged against `oracle`.
std::vector<Judged> judge_all(const Evidence& e, const OracleWalk& oracle) {
  const Topology& t = e.fabric.topology();
  const ForwardingState& f = e.fabric.forwarding();
  std::vector<Judged> all;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend) continue;
    const VertexId s(v);
    for (std::uint32_t g = f.first_group(s); g < f.first_group(s) + f.group_count(s); ++g) {
      if (f.size(g) < 2 || (f.kind(g) != GroupKind::kUp && f.kind(g) != GroupKind::kDown)) continue;
      std::optional<Judged> j = measure_group(e, oracle, s, g);
      if (j) all.push_back(std::move(*j));
    }
  }
  if (e.have_flows) resolve_degraded(all, e.options);
  for (Judged& j : all) give_verdict(e, j);
  return all;
}

// The members this round finds failed: on each known flow's path, the first member that the walk
// loads but whose counters are idle (the members after it are idle because the flow never got
// there).
std::vector<LinkId> first_failures(const std::vector<Judged>& all, const OracleWalk& oracle) {
  std::set<std::uint32_t> idle_loaded;
  for (const Judged& j : all) {
    if (j.gd.cause != Cause::kFailedMember) continue;
    for (std::uint32_t i = 0; i < j.gm.n; ++i) {
      if (j.gd.members[i].idle && j.gm.predicted[i] > 0) idle_loaded.insert(j.gm.member_dl[i]);
    }
  }
  std::set<std::uint32_t> first;
  for (const std::vector<std::uint32_t>& path : oracle.links) {
    for (const std::uint32_t d : path) {
      if (idle_loaded.count(d)) {
        first.insert(d / 2);
        break;
      }
    }
  }
  std::vector<LinkId> out;
  for (const std::uint32_t l : first) out.emplace_back(l);
  return out;
}

// After a member fails the kernel reroutes its flows: the known flows are walked again on the
// fabric without the members found failed, and every group judged again against that walk, until
// no new failure is found. A group holding a failed member keeps the verdict that found it.
std::vector<Judged> judge_with_failures(const Evidence& e, std::deque<OracleWalk>& walks) {
  constexpr int kMaxRounds = 4;
  std::vector<Judged> all = judge_all(e, walks.back());
  if (!e.have_flows) return all;
  for (int round = 0; round < kMaxRounds; ++round) {
    std::vector<LinkId> failed = walks.back().failed;
    std::size_t added = 0;
    for (const LinkId l : first_failures(all, walks.back())) {
      if (std::find(failed.begin(), failed.end(), l) == failed.end()) {
        failed.push_back(l);
        ++added;
      }
    }
    if (added == 0) break;
    std::sort(failed.begin(), failed.end());
    const ForwardingState without(e.fabric.topology(), failed);
    const PathWalker walker(without, e.fabric.hashes());
    walks.push_back(walk_flows(walker, e.counters.flows, nullptr));
    walks.back().failed = failed;
    std::vector<Judged> again = judge_all(e, walks.back());
    for (std::size_t i = 0; i < again.size() && i < all.size(); ++i) {
      const bool holds_failed = std::any_of(all[i].gd.members.begin(), all[i].gd.members.end(), [&](const MemberStats& m) {
        return std::find(failed.begin(), failed.end(), m.link) != failed.end();
      });
      if (holds_failed && all[i].gd.cause == Cause::kFailedMember) again[i] = std::move(all[i]);
    }
    all = std::move(again);
  }
  return all;
}
}  // namespace

std::size_t Diagnosis::imbalanced() const {
  return static_cast<std::size_t>(std::count_if(groups.begin(), groups.end(), [](const GroupDiagnosis& g) { return g.imbalanced; }));
}

std::string_view cause_name(Cause c) {
  switch (c) {
    case Cause::kNone: return "none";
    case Cause::kFailedMember: return "failed member";
    case Cause::kDegradedMember: return "degraded member";
    case Cause::kPolarization: return "polarization";
    case Cause::kMissingEntropy: return "missing entropy";
    case Cause::kBadLuck: return "bad luck";
    case Cause::kFewFlows: return "fewer flows than members";
    case Cause::kUnexplained: return "unexplained";
  }
  return "?";
}

std::string_view witness_state_name(WitnessState s) {
  switch (s) {
    case WitnessState::kAgrees: return "agrees";
    case WitnessState::kDisagrees: return "disagrees";
    case WitnessState::kMissing: return "missing";
  }
  return "?";
}

Result<Diagnosis> diagnose(const Fabric& fabric, const Counters& counters, const DiagnoseOptions& options) {
  const Topology& t = fabric.topology();
  Diagnosis out;
  out.scrapes = counters.rates.scrapes;
  out.flows = counters.flows.size();
  out.warnings = counters.rates.warnings;
  const RateTable table = link_rates(t, counters, out);
  std::deque<OracleWalk> walks;
  walks.push_back(walk_flows(fabric.walker(), counters.flows, &out.warnings));
  const Evidence e{fabric, counters, options, table, out.hosts, !counters.flows.empty()};
  // Only groups with traffic are reported.
  for (Judged& j : judge_with_failures(e, walks)) {
    if (j.gd.max_bps >= options.noise_floor_bps) out.groups.push_back(std::move(j.gd));
  }
  AlertOptions alert_options = options.alerts;
  alert_options.idle_fraction = options.idle_fraction;
  alert_options.noise_floor_bps = options.noise_floor_bps;
  alert_options.degraded_fraction = options.degraded_fraction;
  out.alert_plan = plan_alerts(fabric, counters.map, alert_options);
  out.alerts = evaluate_alerts(out.alert_plan, counters.rates);
  for (const SeriesRate& s : counters.rates.series) out.alerts_evaluated = out.alerts_evaluated || s.timeline.size() >= 2;
  bool any = false;
  for (const SeriesRate& s : counters.rates.series) {
    if (s.timeline.empty()) continue;
    out.first_sample_ms = any ? std::min(out.first_sample_ms, s.timeline.front().time_ms) : s.timeline.front().time_ms;
    any = true;
  }
  return out;
}

}  // namespace ct
