#include "diagnose/diagnosis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

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

struct OracleWalk {
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> decisions;  // per flow: (group, member)
};

OracleWalk walk_flows(const PathWalker& walker, const std::vector<FlowResult>& flows, Diagnostics* warnings) {
  OracleWalk o;
  std::vector<PathHop> hops;
  for (const FlowResult& fl : flows) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> d;
    const bool reached = walker.walk(fl.src, fl.dst, fl.key, hops);
    if (!reached && warnings != nullptr) {
      warnings->push_back(Diagnostic{fl.where, "flow", "the model cannot route this flow (different plane or no path)",
                                     Severity::kWarning});
    }
    for (const PathHop& h : hops) {
      if (h.group != kNoGroup) d.emplace_back(h.group, h.member);
    }
    o.decisions.push_back(std::move(d));
  }
  return o;
}

std::vector<int> member_counts(const OracleWalk& o, std::uint32_t g, std::uint32_t n) {
  std::vector<int> counts(n, 0);
  for (const auto& d : o.decisions) {
    for (const auto& [group, member] : d) {
      if (group == g) ++counts[member];
    }
  }
  return counts;
}

std::string counts_text(const std::vector<int>& counts) {
  std::string s;
  for (std::size_t i = 0; i < counts.size(); ++i) s += (i ? "/" : "") + std::to_string(counts[i]);
  return s;
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
  const ForwardingState& f = fabric.forwarding();
  Diagnosis out;
  out.scrapes = counters.rates.scrapes;
  out.flows = counters.flows.size();
  out.warnings = counters.rates.warnings;

  // ---- rates per directed link and per host port ----
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

  // ---- the path oracle ----
  const OracleWalk oracle = walk_flows(fabric.walker(), counters.flows, &out.warnings);
  const bool have_flows = !counters.flows.empty();

  // ---- groups ----
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend) continue;
    const VertexId s(v);
    for (std::uint32_t g = f.first_group(s); g < f.first_group(s) + f.group_count(s); ++g) {
      const std::uint32_t n = f.size(g);
      if (n < 2 || (f.kind(g) != GroupKind::kUp && f.kind(g) != GroupKind::kDown)) continue;
      GroupDiagnosis gd;
      gd.sw = s;
      gd.group = g;
      gd.up = f.kind(g) == GroupKind::kUp;
      bool any = false;
      for (const LinkId l : f.members(g)) {
        MemberStats m;
        m.link = l;
        m.up = fabric.walker().is_up(l, s);
        const double r = table.rate(directed_link(l, m.up));
        const double rev = table.rate(directed_link(l, !m.up));
        m.counted = r >= 0;
        m.bits_per_second = std::max(0.0, r);
        m.reverse_bps = rev;
        const double cap = static_cast<double>(t.capacity[l.value()].value());
        m.utilization = cap > 0 ? m.bits_per_second / cap : 0;
        any = any || m.counted;
        gd.members.push_back(m);
      }
      if (!any) continue;
      double sum = 0, sum2 = 0;
      std::uint32_t counted = 0;
      for (const MemberStats& m : gd.members) {
        if (!m.counted) continue;
        ++counted;
        sum += m.bits_per_second;
        sum2 += m.bits_per_second * m.bits_per_second;
        gd.max_bps = std::max(gd.max_bps, m.bits_per_second);
      }
      gd.mean_bps = sum / counted;
      gd.jain = sum2 > 0 ? sum * sum / (counted * sum2) : 1.0;
      for (MemberStats& m : gd.members) {
        m.idle = m.counted && m.bits_per_second < options.idle_fraction * gd.max_bps;
        if (m.idle) ++gd.idle;
      }
      const std::vector<int> predicted = member_counts(oracle, g, n);
      // Degraded: a busy member that the model loads with k >= 1 flows but that carries less per
      // flow than degraded_fraction x the median per-flow rate of the other loaded members.
      if (have_flows) {
        for (std::uint32_t i = 0; i < n; ++i) {
          MemberStats& m = gd.members[i];
          if (!m.counted || m.idle || predicted[i] <= 0) continue;
          std::vector<double> others;
          for (std::uint32_t j = 0; j < n; ++j) {
            if (j != i && gd.members[j].counted && !gd.members[j].idle && predicted[j] > 0) {
              others.push_back(gd.members[j].bits_per_second / predicted[j]);
            }
          }
          if (others.empty()) continue;
          std::sort(others.begin(), others.end());
          const std::size_t h = others.size() / 2;
          const double median = others.size() % 2 ? others[h] : 0.5 * (others[h - 1] + others[h]);
          m.per_flow_bps = m.bits_per_second / predicted[i];
          m.degraded = m.per_flow_bps < options.degraded_fraction * median;
          if (m.degraded) {
            ++gd.degraded;
            gd.degraded_reference_bps = median;
          }
        }
      }
      gd.imbalanced = gd.max_bps >= options.noise_floor_bps && (gd.idle > 0 || gd.degraded > 0);
      std::vector<std::size_t> through;  // flows through g
      for (std::size_t i = 0; i < oracle.decisions.size(); ++i) {
        for (const auto& [group, member] : oracle.decisions[i]) {
          if (group == g) through.push_back(i);
        }
      }
      gd.flows = static_cast<std::uint32_t>(through.size());
      if (have_flows) {
        for (std::uint32_t i = 0; i < n; ++i) gd.members[i].predicted_flows = predicted[i];
      }
      if (!gd.imbalanced) {
        // Only groups with traffic are reported.
        if (gd.max_bps >= options.noise_floor_bps) out.groups.push_back(std::move(gd));
        continue;
      }
      const std::string sw_name = t.vertex_name(s);
      auto member_name = [&](std::uint32_t i) { return t.vertex_name(t.other_end(gd.members[i].link, s)); };

      // ---- witness 1: switch counters ----
      {
        Witness w{"switch port counters", WitnessState::kAgrees, ""};
        std::string rates;
        bool from_switch = false;
        for (std::uint32_t i = 0; i < n; ++i) {
          rates += (i ? ", " : "") + member_name(i) + " " + (gd.members[i].counted ? gbps_text(gd.members[i].bits_per_second) : "no counter");
          const std::size_t d = directed_link(gd.members[i].link, gd.members[i].up);
          from_switch = from_switch || table.switch_tx[d] >= 0 || table.switch_rx[d] >= 0;
        }
        if (!from_switch) w.state = WitnessState::kMissing;
        w.evidence = fmt::format("{}; {} idle, Jain's fairness {:.2f}", rates, gd.idle, gd.jain);
        gd.witnesses.push_back(w);
      }
      // ---- witness 2: host NIC counters ----
      double host_netdev = 0, host_rdma = 0, host_util = 0;
      int host_count = 0;
      bool host_seen = false, rdma_seen = false;
      {
        std::set<std::uint32_t> below;
        for (const VertexId leaf : leaves_below(t, s)) below.insert(leaf.value());
        for (const HostPortRate& h : out.hosts) {
          if (!below.count(f.leaf_of(h.port).value())) continue;
          host_seen = true;
          host_netdev += std::max(0.0, h.netdev_bps);
          host_rdma += std::max(0.0, h.rdma_bps);
          rdma_seen = rdma_seen || h.rdma_bps >= 0;
          const double cap = static_cast<double>(t.capacity[h.port.value()].value());
          host_util += cap > 0 ? std::max(std::max(0.0, h.netdev_bps), h.rdma_bps) / cap : 0;
          ++host_count;
        }
        Witness w{"host NIC counters", WitnessState::kMissing, "no NIC counters of the hosts below " + sw_name};
        if (host_seen) {
          const double sent = std::max(host_netdev, host_rdma);
          w.state = sent >= 0.5 * sum ? WitnessState::kAgrees : WitnessState::kDisagrees;
          w.evidence = fmt::format("hosts below {} sent {} (netdev {}, RDMA {}); the group carried {}", sw_name,
                                   gbps_text(sent), gbps_text(host_netdev),
                                   rdma_seen ? gbps_text(host_rdma) : std::string("no counters"), gbps_text(sum));
        }
        gd.witnesses.push_back(w);
      }
      // ---- witness 3: path oracle ----
      bool oracle_loads_idle = false;
      {
        Witness w{"path oracle", WitnessState::kMissing, "no flows given (--flows): the model cannot say where they go"};
        if (have_flows && !through.empty()) {
          bool same = true;
          for (std::uint32_t i = 0; i < n; ++i) {
            const bool busy = gd.members[i].counted && !gd.members[i].idle;
            if (busy != (predicted[i] > 0)) same = false;
            if (predicted[i] > 0 && gd.members[i].idle) oracle_loads_idle = true;
          }
          w.state = same ? WitnessState::kAgrees : WitnessState::kDisagrees;
          w.evidence = fmt::format("the model ({}) puts the {} known flows through {} on members {}", fabric.ecmp().function_name(),
                                   through.size(), sw_name, counts_text(predicted));
        } else if (have_flows) {
          w.evidence = "none of the known flows crosses " + sw_name;
        }
        gd.witnesses.push_back(w);
      }
      // ---- witness 4: achieved throughput ----
      {
        Witness w{"flow throughput", WitnessState::kMissing, "no flow results for flows through " + sw_name};
        if (!through.empty()) {
          double shared = 0, alone = 0;
          int n_shared = 0, n_alone = 0;
          bool saturated = false;
          for (const std::size_t i : through) {
            for (const auto& [group, member] : oracle.decisions[i]) {
              if (group != g) continue;
              if (predicted[member] >= 2) {
                shared += counters.flows[i].bits_per_second;
                ++n_shared;
                saturated = saturated || gd.members[member].utilization >= 0.9;
              } else {
                alone += counters.flows[i].bits_per_second;
                ++n_alone;
              }
            }
          }
          // A degraded member: its flows against the others'.
          double on_degraded = 0, elsewhere = 0;
          int n_degraded = 0, n_elsewhere = 0;
          for (const std::size_t i : through) {
            for (const auto& [group, member] : oracle.decisions[i]) {
              if (group != g) continue;
              (gd.members[member].degraded ? on_degraded : elsewhere) += counters.flows[i].bits_per_second;
              ++(gd.members[member].degraded ? n_degraded : n_elsewhere);
            }
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
        }
        gd.witnesses.push_back(w);
      }

      // ---- cause ----
      std::vector<std::string> coupled;
      const std::vector<bool> reach = gd.up && t.tier[v] >= 2 ? reachable_members(fabric, s, g, coupled) : std::vector<bool>(n, true);
      std::uint32_t reachable = 0;
      for (std::uint32_t i = 0; i < n; ++i) {
        gd.members[i].reachable = reach[i];
        if (reach[i]) ++reachable;
      }
      bool busy_within_reach = true;
      for (std::uint32_t i = 0; i < n; ++i) {
        if (gd.members[i].counted && !gd.members[i].idle && !reach[i]) busy_within_reach = false;
      }
      bool idle_both_ways = false;
      if (!have_flows) {
        bool others_both = true;
        for (std::uint32_t i = 0; i < n; ++i) {
          const MemberStats& m = gd.members[i];
          if (m.idle && m.reverse_bps >= 0 && m.reverse_bps < options.idle_fraction * gd.max_bps) idle_both_ways = true;
          if (!m.idle && !(m.reverse_bps >= options.idle_fraction * gd.max_bps)) others_both = false;
        }
        idle_both_ways = idle_both_ways && others_both;
      }
      std::size_t same_keys = 0;
      {
        std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint8_t, std::uint16_t, std::uint16_t>, int> keys;
        const FieldMask mask = fabric.ecmp().effective_fields();
        for (const std::size_t i : through) {
          const FlowKey k = masked(counters.flows[i].key, mask);
          if (++keys[{k.src_ip, k.dst_ip, k.protocol, k.src_port, k.dst_port}] > 1) ++same_keys;
        }
      }
      std::string idle_names;
      for (std::uint32_t i = 0; i < n; ++i) {
        if (gd.members[i].idle) idle_names += (idle_names.empty() ? "" : ", ") + t.link_name(gd.members[i].link);
      }
      std::string degraded_names, degraded_rates;
      for (std::uint32_t i = 0; i < n; ++i) {
        if (!gd.members[i].degraded) continue;
        degraded_names += (degraded_names.empty() ? "" : ", ") + t.link_name(gd.members[i].link);
        degraded_rates += (degraded_rates.empty() ? "" : ", ") + gbps_text(gd.members[i].per_flow_bps);
      }
      if (oracle_loads_idle || idle_both_ways) {
        gd.cause = Cause::kFailedMember;
        gd.explanation = oracle_loads_idle
                             ? fmt::format("the model sends known flows over {} but its counters are idle: the flows went "
                                           "elsewhere, so the member is down or removed from the group",
                                           idle_names)
                             : fmt::format("{} is idle in both directions while the other members carry traffic both ways: "
                                           "a failed or disabled member",
                                           idle_names);
        gd.fix = "repair or re-enable " + idle_names + "; until then the group has " + std::to_string(n - gd.idle) + " members";
        gd.predicted = have_flows ? "with every member healthy the model places the known flows " + counts_text(predicted)
                                  : "the group's full width back: " + std::to_string(n) + " members";
      } else if (gd.degraded > 0) {
        gd.cause = Cause::kDegradedMember;
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
                                   gbps_text(gd.degraded_reference_bps), counts_text(predicted));
      } else if (reachable < n && busy_within_reach) {
        gd.cause = Cause::kPolarization;
        std::string coupled_list;
        for (const auto& c : coupled) coupled_list += (coupled_list.empty() ? "" : ", ") + c;
        gd.explanation = fmt::format(
            "{} hashes with the same function, fields and seed as {} below it ({}, seed_mode {}): a flow that came up "
            "through a given member there lands in the same part of the hash range here, so only {} of {} members can "
            "ever be chosen",
            sw_name, coupled_list, fabric.ecmp().function_name(), seed_mode_name(fabric.ecmp().seed_mode), reachable, n);
        EcmpConfig fixed = fabric.ecmp();
        fixed.seed_mode = SeedMode::kPerSwitch;
        gd.fix = "per-switch seeds (routing.ecmp.seed_mode: per-switch; Linux: a distinct net.ipv4.fib_multipath_hash_seed per router)";
        if (have_flows) {
          const SwitchHashes hashes(t, fixed);
          const PathWalker walker(f, hashes);
          const std::vector<int> after = member_counts(walk_flows(walker, counters.flows, nullptr), g, n);
          const auto busy_after = std::count_if(after.begin(), after.end(), [](int c) { return c > 0; });
          const auto busy_now = std::count_if(predicted.begin(), predicted.end(), [](int c) { return c > 0; });
          gd.predicted = fmt::format("the model re-walks the {} known flows with per-switch seeds: members {} ({} of {} busy; now {})",
                                     through.size(), counts_text(after), busy_after, n, busy_now);
        } else {
          gd.predicted = fmt::format("every one of the {} members becomes reachable (now {})", n, reachable);
        }
      } else if (same_keys > 0) {
        gd.cause = Cause::kMissingEntropy;
        gd.explanation = fmt::format("{} of the {} known flows through {} hash the same key under the fields hashed ({}): "
                                     "no seed or function can separate them",
                                     same_keys + 1, through.size(), sw_name, field_list(fabric.ecmp().effective_fields()));
        gd.fix = fmt::format("hash the ports (routing.ecmp.fields with src_port; Linux fib_multipath_hash_policy 1) and use "
                             "{} QPs per connection so each connection has {} source ports",
                             options.qps_for_fix, options.qps_for_fix);
        gd.probability = p_any_collision(n, through.size());
        gd.predicted = fmt::format("with distinct keys {} flows on {} members still collide with probability {:.3f}",
                                   through.size(), n, gd.probability);
      } else if (have_flows && !through.empty()) {
        gd.cause = Cause::kBadLuck;
        const std::uint64_t k = through.size();
        gd.probability = p_any_collision(n, k);
        gd.explanation = fmt::format("{} independent flows on {} members ({}): P(any collision) = 1 - {}!/(({}-{})! {}^{}) = {:.4f}",
                                     k, n, counts_text(predicted), n, n, std::min<std::uint64_t>(k, n), n, k, gd.probability);
        const auto q = static_cast<std::uint32_t>(options.qps_for_fix);
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
      } else {
        gd.cause = Cause::kUnexplained;
        gd.explanation = "imbalanced, but without the flows (--flows) the model cannot tell bad luck from missing entropy";
        gd.fix = "give the flows (iperf3 --json or a flows CSV) to the path oracle";
      }

      // ---- why the dashboards stayed green ----
      double mean_util = 0, max_util = 0;
      for (const MemberStats& m : gd.members) {
        mean_util += m.utilization / n;
        max_util = std::max(max_util, m.utilization);
      }
      if (mean_util < options.alarm_threshold && max_util >= options.alarm_threshold) {
        gd.green.push_back(fmt::format("the group's average utilization is {} (alarm at {}) while its busiest member runs at {}",
                                       percent(mean_util), percent(options.alarm_threshold), percent(max_util)));
      } else if (max_util < options.alarm_threshold) {
        gd.green.push_back(fmt::format("no member crossed the {} alarm (busiest {})", percent(options.alarm_threshold), percent(max_util)));
      }
      if (!idle_names.empty()) gd.green.push_back("no alarm watches for a member at zero: " + idle_names);
      if (!degraded_names.empty()) {
        gd.green.push_back("no alarm compares a member's rate per flow with its twins': " + degraded_names +
                           " is up and busy, only slower");
      }
      if (host_seen && host_count > 0 && host_util / host_count < options.alarm_threshold) {
        gd.green.push_back(fmt::format("the hosts below {} average {} NIC utilization", sw_name, percent(host_util / host_count)));
      }
      if (host_rdma > 0 && host_netdev < 0.1 * host_rdma) {
        gd.green.push_back(fmt::format("host netdev counters saw {} while RDMA counters saw {}: RoCE bypasses the kernel, so a "
                                       "node_exporter network panel shows idle NICs",
                                       gbps_text(host_netdev), gbps_text(host_rdma)));
      }
      out.groups.push_back(std::move(gd));
    }
  }
  return out;
}

}  // namespace ct
