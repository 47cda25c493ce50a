#include "diagnose/alert_rules.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "analysis/birthday.h"

namespace ct {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kBitsPerByte = 8.0;

// A threshold as the rules print it (6 significant digits) and as the evaluator then uses it, so
// the two compare against the same double.
double as_printed(double x) { return std::stod(fmt::format("{:.6g}", x)); }
std::string number(double x) { return fmt::format("{:.6g}", x); }

std::string duration(std::int64_t s) { return prometheus_duration(s); }

// A PromQL string literal.
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool member_quantity(AlertQuantity q) { return q == AlertQuantity::kMemberTransmit || q == AlertQuantity::kMemberReceive; }

// m*, P(max load > m*) for k flows on n members (the header's s* and J*): the least m from k/n up
// whose tail is within `tail`.
std::pair<std::uint32_t, double> tail_max_load(std::uint32_t n, std::uint32_t k, double tail) {
  for (std::uint32_t m = (k + n - 1) / n; m < k; ++m) {
    const double above = 1.0 - p_max_load_at_most(n, k, m);
    if (above <= tail) return {m, above};
  }
  return {k, 0.0};
}

// The thresholds of the header for n members.
struct Thresholds {
  std::uint32_t flows = 0, max_load = 0;
  double tail_probability = 0, hot_share = 1, jain_floor = 0;
};

// The group's thresholds from balls into bins, cached per member count.
void set_thresholds(AlertGroup& g, const AlertOptions& o, std::map<std::uint32_t, Thresholds>& cache) {
  const auto n = static_cast<std::uint32_t>(g.members.size());
  auto it = cache.find(n);
  if (it == cache.end()) {
    Thresholds x;
    x.flows = o.flows_per_member * n;
    const auto [m, p] = tail_max_load(n, x.flows, o.tail);
    x.max_load = m;
    x.tail_probability = p;
    const double k = x.flows;
    x.hot_share = as_printed(m / k);
    const double rest = (k - m) / (n - 1);
    x.jain_floor = as_printed(k * k / (n * (static_cast<double>(m) * m + (n - 1) * rest * rest)));
    it = cache.emplace(n, x).first;
  }
  g.flows = it->second.flows;
  g.max_load = it->second.max_load;
  g.tail_probability = it->second.tail_probability;
  g.hot_share = it->second.hot_share;
  g.jain_floor = it->second.jain_floor;
}

// A quantity over a group as the recorded series that holds it.
std::string series(AlertQuantity q, const AlertGroup& g, const AlertOptions& o) {
  return recorded_name(q, o) + "{group=" + quoted(g.name) + "}";
}

std::string compare_text(Compare op) {
  switch (op) {
    case Compare::kLess: return " < ";
    case Compare::kGreater: return " > ";
    case Compare::kAtLeast: return " >= ";
  }
  return " ? ";
}

// One comparison in PromQL: a member series against a group series matches on the group.
std::string comparison_promql(const Comparison& c, const AlertGroup& g, const AlertOptions& o) {
  const std::string lhs = series(c.lhs, g, o);
  if (c.rhs == AlertQuantity::kConstant) return lhs + compare_text(c.op) + number(c.factor);
  const std::string rhs = (c.factor == 1 ? "" : number(c.factor) + " * ") + series(c.rhs, g, o);
  if (member_quantity(c.lhs) && !member_quantity(c.rhs)) return lhs + compare_text(c.op) + "on(group) group_left() (" + rhs + ")";
  return lhs + compare_text(c.op) + rhs;
}

std::string member_match(const AlertOptions& o) {
  const SourceConvention& s = source_convention(o.source);
  return fmt::format("on(group, {}, {})", s.instance_label, s.interface_label);
}

std::string condition_promql(const RuleCondition& rc, const AlertGroup& g, const AlertOptions& o) {
  std::string out;
  for (const Comparison& c : rc.all) {
    const std::string term = "(" + comparison_promql(c, g, o) + ")";
    if (out.empty()) {
      out = term;
    } else {
      out += (member_quantity(c.lhs) ? " and " + member_match(o) : std::string(" and on(group)")) + " " + term;
    }
  }
  if (rc.unless) out += " unless " + member_match(o) + " (" + condition_promql(rule_condition(*rc.unless, g, o), g, o) + ")";
  return out;
}

bool compare(double a, Compare op, double b) {
  switch (op) {
    case Compare::kLess: return a < b;
    case Compare::kGreater: return a > b;
    case Compare::kAtLeast: return a >= b;
  }
  return false;
}

// The group quantities of the header over the members that have each series (NaN: none has).
struct GroupValues {
  double tx_max = kNaN, rx_max = kNaN, tx_sum = kNaN, tx_median = kNaN, jain = kNaN;
};

GroupValues group_values(std::span<const MemberRates> members) {
  GroupValues v;
  std::vector<double> tx;
  double sum2 = 0;
  for (const MemberRates& m : members) {
    if (!std::isnan(m.transmit_bps)) {
      tx.push_back(m.transmit_bps);
      v.tx_max = std::isnan(v.tx_max) ? m.transmit_bps : std::max(v.tx_max, m.transmit_bps);
      v.tx_sum = std::isnan(v.tx_sum) ? m.transmit_bps : v.tx_sum + m.transmit_bps;
      sum2 += m.transmit_bps * m.transmit_bps;
    }
    if (!std::isnan(m.receive_bps)) v.rx_max = std::isnan(v.rx_max) ? m.receive_bps : std::max(v.rx_max, m.receive_bps);
  }
  if (tx.empty()) return v;
  // Prometheus' quantile(0.5): rank 0.5 (n - 1), interpolated between its neighbours.
  std::sort(tx.begin(), tx.end());
  const double rank = 0.5 * static_cast<double>(tx.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const std::size_t hi = std::min(lo + 1, tx.size() - 1);
  const double w = rank - static_cast<double>(lo);
  v.tx_median = tx[lo] * (1 - w) + tx[hi] * w;
  v.jain = v.tx_sum * v.tx_sum / (static_cast<double>(tx.size()) * sum2);
  return v;
}

double value_of(AlertQuantity q, const MemberRates& m, const GroupValues& v) {
  switch (q) {
    case AlertQuantity::kMemberTransmit: return m.transmit_bps;
    case AlertQuantity::kMemberReceive: return m.receive_bps;
    case AlertQuantity::kGroupTransmitMax: return v.tx_max;
    case AlertQuantity::kGroupReceiveMax: return v.rx_max;
    case AlertQuantity::kGroupTransmitSum: return v.tx_sum;
    case AlertQuantity::kGroupTransmitMedian: return v.tx_median;
    case AlertQuantity::kGroupJain: return v.jain;
    case AlertQuantity::kConstant: return 1;
  }
  return kNaN;
}

}  // namespace

const SourceConvention& source_convention(AlertSource source) {
  // node_exporter's netclass/netdev collector; snmp_exporter's if_mib module (IF-MIB Counter64,
  // ifName as the interface label); gnmic's Prometheus output of the OpenConfig counters
  // (/interfaces/interface/state/counters/out-octets, the list key as interface_name, the target
  // as source).
  static const std::array<SourceConvention, 3> conventions = {{
      {"node_exporter", "node_network_transmit_bytes_total", "node_network_receive_bytes_total", "instance", "device"},
      {"snmp", "ifHCOutOctets", "ifHCInOctets", "instance", "ifName"},
      {"gnmic", "interfaces_interface_state_counters_out_octets", "interfaces_interface_state_counters_in_octets", "source",
       "interface_name"},
  }};
  return conventions[static_cast<std::size_t>(source)];
}

std::optional<AlertSource> parse_alert_source(std::string_view name) {
  for (const AlertSource s : kAllAlertSources) {
    if (source_convention(s).name == name) return s;
  }
  return std::nullopt;
}

std::vector<std::string> alert_source_names() {
  std::vector<std::string> names;
  for (const AlertSource s : kAllAlertSources) names.emplace_back(source_convention(s).name);
  return names;
}

std::string prometheus_duration(std::int64_t s) {
  if (s > 0 && s % 3600 == 0) return fmt::format("{}h", s / 3600);
  if (s > 0 && s % 60 == 0) return fmt::format("{}m", s / 60);
  return fmt::format("{}s", s);
}

std::optional<std::int64_t> parse_prometheus_duration(std::string_view text) {
  if (text.size() < 2 || text.size() > 12) return std::nullopt;
  std::int64_t n = 0;
  for (const char c : text.substr(0, text.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  switch (text.back()) {
    case 's': return n;
    case 'm': return n * 60;
    case 'h': return n * 3600;
    case 'd': return n * 86400;
    default: return std::nullopt;
  }
}

std::string_view alert_name(AlertRule rule) {
  switch (rule) {
    case AlertRule::kMemberDown: return "ClustertwinEcmpMemberDown";
    case AlertRule::kMemberIdle: return "ClustertwinEcmpMemberIdle";
    case AlertRule::kMemberDegraded: return "ClustertwinEcmpMemberDegraded";
    case AlertRule::kMemberHot: return "ClustertwinEcmpMemberHot";
    case AlertRule::kGroupUnfair: return "ClustertwinEcmpGroupUnfair";
  }
  return "?";
}

AlertPlan plan_alerts(const Fabric& fabric, const PortMap& map, const AlertOptions& options) {
  const Topology& t = fabric.topology();
  const ForwardingState& f = fabric.forwarding();
  AlertPlan plan;
  plan.options = options;
  // (link, owning end) -> (instance, device); of two names for one interface the smaller, so the
  // map's order cannot reach the rules.
  std::unordered_map<std::uint64_t, std::pair<std::string_view, std::string_view>> by_end;
  by_end.reserve(map.size());
  map.for_each([&](std::string_view instance, std::string_view device, const MappedPort& p) {
    if (t.kind[p.vertex.value()] != VertexKind::kSwitch) return;  // a NIC port owns no group
    const std::uint64_t key = (std::uint64_t{p.link.value()} << 32) | p.vertex.value();
    const auto [it, added] = by_end.try_emplace(key, instance, device);
    if (!added && std::pair(instance, device) < it->second) it->second = {instance, device};
  });
  std::map<std::uint32_t, Thresholds> cache;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend) continue;
    const VertexId s(v);
    int ups = 0;
    for (std::uint32_t g = f.first_group(s); g < f.first_group(s) + f.group_count(s); ++g) {
      if (f.kind(g) != GroupKind::kUp || f.size(g) < 2) continue;
      AlertGroup ag{s, g, t.vertex_name(s) + " up" + (ups++ ? fmt::format("#{}", ups) : ""), {}};
      bool named = true;
      for (const LinkId l : f.members(g)) {
        const auto it = by_end.find((std::uint64_t{l.value()} << 32) | v);
        if (it == by_end.end()) {
          plan.unnamed.push_back(fabric.names().cable_name(l));
          named = false;
          continue;
        }
        ag.members.push_back(AlertMember{l, t.vertex_name(t.other_end(l, s)), std::string(it->second.first),
                                         std::string(it->second.second)});
      }
      if (!named) continue;
      set_thresholds(ag, options, cache);
      plan.groups.push_back(std::move(ag));
    }
  }
  return plan;
}

RuleCondition rule_condition(AlertRule rule, const AlertGroup& g, const AlertOptions& o) {
  using Q = AlertQuantity;
  const Comparison busy{Q::kGroupTransmitMax, Compare::kAtLeast, as_printed(o.noise_floor_bps), Q::kConstant};
  const double f = as_printed(o.idle_fraction);
  const Comparison idle_out{Q::kMemberTransmit, Compare::kLess, f, Q::kGroupTransmitMax};
  switch (rule) {
    case AlertRule::kMemberDown:
      return {rule,
              true,
              {idle_out,
               {Q::kMemberReceive, Compare::kLess, f, Q::kGroupTransmitMax},
               {Q::kGroupReceiveMax, Compare::kAtLeast, f, Q::kGroupTransmitMax},
               busy},
              std::nullopt};
    case AlertRule::kMemberIdle: return {rule, true, {idle_out, busy}, AlertRule::kMemberDown};
    case AlertRule::kMemberDegraded:
      return {rule,
              true,
              {{Q::kMemberTransmit, Compare::kLess, as_printed(o.degraded_fraction), Q::kGroupTransmitMedian},
               {Q::kMemberTransmit, Compare::kAtLeast, f, Q::kGroupTransmitMax},
               busy},
              std::nullopt};
    case AlertRule::kMemberHot:
      return {rule, true, {{Q::kMemberTransmit, Compare::kGreater, g.hot_share, Q::kGroupTransmitSum}, busy}, std::nullopt};
    case AlertRule::kGroupUnfair:
      return {rule, false, {{Q::kGroupJain, Compare::kLess, g.jain_floor, Q::kConstant}, busy}, std::nullopt};
  }
  return {rule, true, {}, std::nullopt};
}

std::string recorded_name(AlertQuantity q, const AlertOptions& o) {
  const std::string w = duration(o.window_s);
  switch (q) {
    case AlertQuantity::kMemberTransmit: return "clustertwin:ecmp_member_transmit_bits:rate" + w;
    case AlertQuantity::kMemberReceive: return "clustertwin:ecmp_member_receive_bits:rate" + w;
    case AlertQuantity::kGroupTransmitMax: return "clustertwin:ecmp_group_transmit_bits:max_rate" + w;
    case AlertQuantity::kGroupReceiveMax: return "clustertwin:ecmp_group_receive_bits:max_rate" + w;
    case AlertQuantity::kGroupTransmitSum: return "clustertwin:ecmp_group_transmit_bits:sum_rate" + w;
    case AlertQuantity::kGroupTransmitMedian: return "clustertwin:ecmp_group_transmit_bits:median_rate" + w;
    case AlertQuantity::kGroupJain: return "clustertwin:ecmp_group_jain:rate" + w;
    case AlertQuantity::kConstant: break;
  }
  return "";
}

std::vector<RecordingRule> recording_rules(const AlertGroup& g, const AlertOptions& o) {
  const SourceConvention& s = source_convention(o.source);
  std::vector<RecordingRule> out;
  for (const bool transmit : {true, false}) {
    for (const AlertMember& m : g.members) {
      out.push_back({recorded_name(transmit ? AlertQuantity::kMemberTransmit : AlertQuantity::kMemberReceive, o),
                     fmt::format("8 * rate({}{{{}={},{}={}}}[{}])", transmit ? s.transmit_metric : s.receive_metric,
                                 s.instance_label, quoted(m.instance), s.interface_label, quoted(m.device), duration(o.window_s)),
                     {{"group", g.name}, {"member", m.device}, {"peer", m.peer}}});
    }
  }
  const std::string tx = series(AlertQuantity::kMemberTransmit, g, o);
  const std::string rx = series(AlertQuantity::kMemberReceive, g, o);
  auto group_rule = [&](AlertQuantity q, std::string expr) {
    out.push_back({recorded_name(q, o), std::move(expr), {{"group", g.name}}});
  };
  group_rule(AlertQuantity::kGroupTransmitMax, "max by (group) (" + tx + ")");
  group_rule(AlertQuantity::kGroupReceiveMax, "max by (group) (" + rx + ")");
  group_rule(AlertQuantity::kGroupTransmitSum, "sum by (group) (" + tx + ")");
  group_rule(AlertQuantity::kGroupTransmitMedian, "quantile by (group) (0.5, " + tx + ")");
  group_rule(AlertQuantity::kGroupJain,
             "(sum by (group) (" + tx + "))^2 / (count by (group) (" + tx + ") * sum by (group) (" + tx + "^2))");
  return out;
}

std::string promql(AlertRule rule, const AlertGroup& g, const AlertOptions& o) {
  return condition_promql(rule_condition(rule, g, o), g, o);
}

std::string threshold_source(AlertRule rule, const AlertGroup& g, const AlertOptions& o) {
  const std::string floor = fmt::format("busy: the group's busiest member at >= {} b/s, diagnose's noise floor",
                                        number(as_printed(o.noise_floor_bps)));
  const std::string idle = fmt::format("idle: below {} x the group's busiest member, diagnose's idle fraction",
                                       number(as_printed(o.idle_fraction)));
  const std::string bins = fmt::format(
      "balls into bins (analysis/birthday.h): {} flows ({} per member) hashed uniformly onto {} members load the busiest "
      "with more than {} flows with probability {:.4f} (<= {})",
      g.flows, o.flows_per_member, g.members.size(), g.max_load, g.tail_probability, number(o.tail));
  switch (rule) {
    case AlertRule::kMemberDown:
      return idle + ", in both directions, while another member receives at least that much (diagnose's failed "
                    "member without flows); " + floor;
    case AlertRule::kMemberIdle: return idle + ", while its peer still sends to it; " + floor;
    case AlertRule::kMemberDegraded:
      return fmt::format("degraded: below {} x the group's median member rate, diagnose's degraded fraction (its per-flow "
                         "test with one flow count per member: interface counters carry no flows), yet not idle (at or "
                         "above {} x the group's busiest member); {}",
                         number(as_printed(o.degraded_fraction)), number(as_printed(o.idle_fraction)), floor);
    case AlertRule::kMemberHot:
      return fmt::format("share above {} = {}/{}: {}; {}", number(g.hot_share), g.max_load, g.flows, bins, floor);
    case AlertRule::kGroupUnfair:
      return fmt::format("Jain's fairness below {}, the fairness of {} of {} flows on one member and the rest even: {}; {}",
                         number(g.jain_floor), g.max_load, g.flows, bins, floor);
  }
  return "";
}

std::string runbook_command(const AlertGroup& g, const AlertOptions& o) {
  const std::string instance = g.members.empty() ? "" : g.members.front().instance;
  return fmt::format("clustertwin diagnose {} --counters {}=before.prom {}=after.prom{} (before/after: two scrapes of {} "
                     "across the alert's interval)",
                     o.spec_path, instance, instance, o.map_path.empty() ? "" : " --map " + o.map_path, instance);
}

std::vector<bool> condition_holds(const RuleCondition& rc, std::span<const MemberRates> members, const AlertGroup& g,
                                  const AlertOptions& o) {
  const GroupValues v = group_values(members);
  auto holds = [&](const RuleCondition& c, const MemberRates& m) {
    if (c.per_member && std::isnan(m.transmit_bps)) return false;  // no series, no row
    for (const Comparison& x : c.all) {
      const double rhs = x.rhs == AlertQuantity::kConstant ? x.factor : x.factor * value_of(x.rhs, m, v);
      if (!compare(value_of(x.lhs, m, v), x.op, rhs)) return false;
    }
    return true;
  };
  if (!rc.per_member) return {holds(rc, MemberRates{kNaN, kNaN})};
  std::vector<bool> out;
  std::optional<RuleCondition> unless;
  if (rc.unless) unless = rule_condition(*rc.unless, g, o);
  for (const MemberRates& m : members) out.push_back(holds(rc, m) && !(unless && holds(*unless, m)));
  return out;
}

}  // namespace ct
