#include "report/hash_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "analysis/birthday.h"
#include "report/table.h"
#include "routing/port_address.h"
#include "sim/resource_name.h"

namespace ct {
namespace {

const char* tier_name(int tier) {
  switch (tier) {
    case 0: return "port";
    case 1: return "leaf";
    case 2: return "spine";
    case 3: return "core";
  }
  return "?";
}

std::string gbps_text(double bps) { return fmt::format("{:.1f} Gb/s", bps / 1e9); }
std::string load_text(double flows) {
  return std::abs(flows - std::round(flows)) < 1e-9 ? fmt::format("{:.0f}", flows) : fmt::format("{:.2f}", flows);
}
std::string percent(double p) { return fmt::format("{:.2f}%", 100.0 * p); }
std::string probability(double p) { return p > 0 && p < 1e-4 ? fmt::format("{:.3e}", p) : fmt::format("{:.5f}", p); }

// A directed link's name as every output gives it: "p0/leaf/0 -- p0/spine/0 #2 up".
std::string link_text(const NameDirectory& names, std::uint32_t directed) {
  return cable_direction_name(names, LinkId(directed / 2), directed % 2 == 0);
}

std::string stage_name(const DecisionStage& s) {
  const int to = s.up ? s.tier + 1 : s.tier - 1;
  return fmt::format("tier {} {} ({} -> {})", s.tier, s.up ? "up" : "down", tier_name(s.tier), tier_name(to));
}

bool affine(const EcmpConfig& c) { return !c.linux_kernel && c.algorithm != HashAlgorithm::kRandom; }

class HashReport {
 public:
  HashReport(const HashStudy& in, const HashReportOptions& options)
      : in_(in), max_listed_(options.max_listed), t_(in.topology()), f_(in.forwarding()) {}

  std::string render() {
    header();
    forwarding_state();
    for (VertexId sw : in_.fib_switches) fib(sw);
    paths();
    loads();
    collisions();
    evidence();
    throughput();
    if (in_.monte_carlo) monte_carlo();
    if (in_.comparison) comparison();
    return out_;
  }

 private:
  void line(const std::string& s = "") { out_ += s + "\n"; }

  void header() {
    const EcmpConfig& c = in_.hashes().config();
    line(fmt::format("clustertwin hash: {} ({})", in_.spec_name, in_.spec_file));
    std::size_t switches = 0;
    for (std::uint32_t v = 0; v < t_.vertex_count(); ++v) {
      switches += t_.kind[v] == VertexKind::kSwitch && t_.network[v] == Network::kBackend;
    }
    line(fmt::format("fabric: backend, {} plane{}, {} tiers, {} switches, {} links{}", t_.planes, t_.planes > 1 ? "s" : "",
                     t_.tiers, switches, t_.link_count(),
                     in_.failed.empty() ? "" : fmt::format(", {} failed", in_.failed.size())));
    std::string selection(member_selection_name(c.effective_selection()));
    std::string seeds = fmt::format("seed {:#x} ({})", c.seed, seed_mode_name(c.seed_mode));
    if (!c.linux_kernel) seeds += fmt::format(", seed input {}", seed_input_name(c.seed_input));
    line(fmt::format("hash: {} over {}; {}; {}", c.function_name(), field_list(c.effective_fields()), seeds, selection));
    line(fmt::format("flows: {}", in_.flow_source));
    for (const std::string& note : in_.notes) line("note: " + note);
    for (const std::string& warning : in_.warnings) line("warning: " + warning);
    failed_cables();
    line();
  }

  // Each failed cable by the name --fail reads back to it (the JSON gives its link id too); a
  // bundle of parallel cables that failed whole by the bundle's name, which reads back to all of
  // them: "failed: p0/leaf/0 -- p0/spine/0 (all 16 cables)". In the order of the first failed link.
  void failed_cables() {
    const NameDirectory& names = in_.names();
    using Ends = std::pair<std::uint32_t, std::uint32_t>;
    const auto ends = [&](LinkId l) { return Ends{t_.link_a[l.value()].value(), t_.link_b[l.value()].value()}; };
    std::map<Ends, std::size_t> failed_in_bundle;
    for (LinkId l : in_.failed) ++failed_in_bundle[ends(l)];
    std::set<Ends> named_whole;
    for (LinkId l : in_.failed) {
      const std::size_t bundle = names.cable_index().cables(t_.link_a[l.value()], t_.link_b[l.value()]).size();
      if (bundle < 2 || failed_in_bundle[ends(l)] < bundle) {
        line("failed: " + names.cable_name(l));
      } else if (named_whole.insert(ends(l)).second) {
        line(fmt::format("failed: {} (all {} cables)", t_.link_name(l), bundle));
      }
    }
  }

  // "p0/spine/0 x8, p0/spine/1 x8": a group's members by the vertex they lead to.
  std::string members_text(std::uint32_t g) const {
    std::vector<std::pair<VertexId, int>> next;
    const GroupSpan span = f_.span(g);
    for (std::uint32_t e = span.offset; e < span.offset + span.size; ++e) {
      const VertexId v = f_.member_next(e);
      if (next.empty() || next.back().first != v) {
        next.emplace_back(v, 1);
      } else {
        ++next.back().second;
      }
    }
    std::vector<std::string> parts;
    for (const auto& [v, n] : next) parts.push_back(n > 1 ? fmt::format("{} x{}", vertex(v), n) : vertex(v));
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  // The whole table of one switch: destination leaves with the same group merged into ranges.
  void fib(VertexId sw) {
    TextTable table({{"destination leaves"}, {"group"}, {"members", Align::kRight}, {"next hops", Align::kLeft, 70}},
                    fmt::format("Forwarding table of {} (groups toward every destination leaf of its plane)", vertex(sw)));
    std::uint32_t first = 0;
    bool open = false;
    std::uint32_t current = 0;
    auto flush = [&](std::uint32_t last) {
      const std::string dests = first == last ? vertex(f_.leaf(first))
                                              : fmt::format("{} .. {}", vertex(f_.leaf(first)), vertex(f_.leaf(last)));
      if (current == ForwardingState::kLocalGroup) {
        table.add_row({dests, "local", "", "its own ports"});
      } else if (current == ForwardingState::kNoRouteGroup) {
        table.add_row({dests, "no route", "0", ""});
      } else {
        table.add_row({dests, f_.kind(current) == GroupKind::kUp ? "up" : "down", std::to_string(f_.size(current)),
                       members_text(current)});
      }
    };
    std::uint32_t previous = 0;
    for (std::uint32_t d = 0; d < f_.leaf_count(); ++d) {
      if (t_.plane[f_.leaf(d).value()] != t_.plane[sw.value()]) continue;
      const std::uint32_t g = f_.group(sw, d);
      if (open && g == current && d == previous + 1) {
        previous = d;
        continue;
      }
      if (open) flush(previous);
      first = previous = d;
      current = g;
      open = true;
    }
    if (open) flush(previous);
    out_ += table.render();
    line();
  }

  // Groups by (tier, kind, size): how many switches hold such groups and how many groups there are.
  void forwarding_state() {
    std::map<std::tuple<int, int, std::uint32_t>, std::pair<std::uint32_t, std::uint32_t>> shapes;
    std::size_t switches = 0;
    for (std::uint32_t v = 0; v < t_.vertex_count(); ++v) {
      if (t_.kind[v] != VertexKind::kSwitch || t_.network[v] != Network::kBackend) continue;
      ++switches;
      std::map<std::tuple<int, int, std::uint32_t>, std::uint32_t> mine;
      for (std::uint32_t i = 0; i < f_.group_count(VertexId(v)); ++i) {
        const std::uint32_t g = f_.first_group(VertexId(v)) + i;
        ++mine[{t_.tier[v], f_.kind(g) == GroupKind::kUp ? 0 : 1, f_.size(g)}];
      }
      for (const auto& [shape, count] : mine) {
        ++shapes[shape].first;
        shapes[shape].second += count;
      }
    }
    TextTable table({{"tier"}, {"group"}, {"members", Align::kRight}, {"switches", Align::kRight},
                     {"groups", Align::kRight}},
                    "ECMP groups (next-hop groups per switch; every parallel cable is a member)");
    for (const auto& [shape, counts] : shapes) {
      const auto& [tier, kind, size] = shape;
      table.add_row({tier_name(tier), kind == 0 ? "up" : "down", std::to_string(size), std::to_string(counts.first),
                     std::to_string(counts.second)});
    }
    out_ += table.render();
    line(fmt::format("{} groups in {} switches; lookup tables hold {} entries beyond one fallback group per switch",
                     f_.group_count() - 2, switches, f_.window_entries()));
    line();
  }

  std::string vertex(VertexId v) const { return t_.vertex_name(v); }

  void paths() {
    const HashScenario& s = in_.scenario;
    line("Paths (=[m of n]=> : the switch hashed the flow onto member m of its n-way group)");
    for (std::size_t i = 0; i < s.paths.size() && i < max_listed_; ++i) {
      const Flow& fl = in_.flows[i];
      const FlowKey& k = fl.key;
      line(fmt::format("flow {}: {} -> {}  {}:{} -> {}:{} proto {}  [{}]", i, vertex(fl.src), vertex(fl.dst),
                       format_ipv4(k.src_ip), k.src_port, format_ipv4(k.dst_ip), k.dst_port, k.protocol, fl.label));
      std::string p = "  " + vertex(fl.src);
      for (const PathHop& h : s.paths[i].hops) {
        const VertexId next = t_.other_end(h.link, h.from);
        p += h.group == kNoGroup || f_.size(h.group) < 2
                 ? " -> "
                 : fmt::format(" =[{} of {}]=> ", h.member, f_.size(h.group));
        p += vertex(next);
      }
      if (!s.paths[i].reached) p += "  (unreachable: stops here)";
      line(p);
    }
    if (s.paths.size() > max_listed_) line(fmt::format("... {} more flows", s.paths.size() - max_listed_));
    line();
  }

  void loads() {
    const HashScenario& s = in_.scenario;
    std::vector<std::pair<double, std::uint32_t>> busy;
    for (std::uint32_t d = 0; d < s.loads.load.size(); ++d) {
      const LinkId l(d / 2);
      const bool switch_link = t_.kind[t_.link_a[l.value()].value()] == VertexKind::kSwitch;
      if (s.loads.load[d] > 0 && switch_link) busy.emplace_back(-s.loads.load[d], d);
    }
    std::sort(busy.begin(), busy.end());
    if (!s.unreachable.empty()) {
      line(fmt::format("{} of {} flows have no path:", s.unreachable.size(), s.paths.size()));
      no_paths();
      line();
    }
    if (busy.empty() && s.unreachable.size() == s.paths.size()) return;
    if (busy.empty()) {
      line("No flow crosses a switch-to-switch link: every flow stays on its leaf, so no ECMP decision is made");
      line("(a rail-optimized fabric keeps same-rail traffic of a scalable unit on one leaf).");
      line();
      return;
    }
    TextTable links({{"link"}, {"flows", Align::kRight}}, "Flows per switch-to-switch link (directed)");
    for (std::size_t i = 0; i < busy.size() && i < max_listed_; ++i) {
      links.add_row({link_text(in_.names(), busy[i].second), load_text(-busy[i].first)});
    }
    out_ += links.render();
    if (busy.size() > max_listed_) line(fmt::format("... {} more links", busy.size() - max_listed_));
    line();
    TextTable groups({{"group"}, {"members", Align::kRight}, {"flows", Align::kRight}, {"max", Align::kRight},
                      {"mean", Align::kRight}, {"idle", Align::kRight}},
                     "ECMP groups the flows entered (load in flows per member)");
    std::size_t listed = 0;
    for (const GroupLoad& g : s.loads.groups) {
      if (listed++ == max_listed_) break;
      groups.add_row({fmt::format("{} {}", vertex(f_.owner(g.group)), f_.kind(g.group) == GroupKind::kUp ? "up" : "down"),
                      std::to_string(g.members), load_text(g.mean_load * g.members), load_text(g.max_load),
                      fmt::format("{:.2f}", g.mean_load), std::to_string(g.idle)});
    }
    out_ += groups.render();
    if (s.loads.groups.size() > max_listed_) line(fmt::format("... {} more groups", s.loads.groups.size() - max_listed_));
    const LinkSet& up = s.loads.uplinks;
    line(fmt::format("uplinks in play: {}, the busiest carries {} flow{}, {} idle", up.links, load_text(up.busiest),
                     up.busiest == 1.0 ? "" : "s", up.idle));
    line();
  }

  // Flows without a path, those with the same reason on one line.
  void no_paths() {
    std::map<std::string, std::vector<std::uint32_t>> by_reason;
    for (const NoPath& x : in_.scenario.unreachable) by_reason[no_path_text(in_, x)].push_back(x.flow);
    for (const auto& [reason, flows] : by_reason) {
      std::vector<std::uint32_t> listed(flows.begin(), flows.begin() + static_cast<std::ptrdiff_t>(
                                                                          std::min(flows.size(), max_listed_)));
      line(fmt::format("  flow{} {}{}: {}", flows.size() == 1 ? "" : "s", fmt::join(listed, ", "),
                       flows.size() > listed.size() ? fmt::format(" (and {} more)", flows.size() - listed.size()) : "",
                       reason));
    }
  }

  std::string fields_that_differ(const FlowKey& a, const FlowKey& b) const {
    std::vector<std::string_view> names;
    if (a.src_ip != b.src_ip) names.push_back(flow_field_name(kFieldSrcIp));
    if (a.dst_ip != b.dst_ip) names.push_back(flow_field_name(kFieldDstIp));
    if (a.protocol != b.protocol) names.push_back(flow_field_name(kFieldProtocol));
    if (a.src_port != b.src_port) names.push_back(flow_field_name(kFieldSrcPort));
    if (a.dst_port != b.dst_port) names.push_back(flow_field_name(kFieldDstPort));
    return names.empty() ? std::string("nothing: the same 5-tuple") : fmt::format("{}", fmt::join(names, ", "));
  }

  std::string why(const Collision& c) const {
    const EcmpConfig& cfg = in_.hashes().config();
    const std::uint32_t n = f_.size(c.group);
    switch (c.cause) {
      case CollisionCause::kMissingEntropy:
        if (!c.identical_inputs) {
          return fmt::format(
              "missing entropy: the hash reads {}, not the source port (a RoCE flow's entropy), so flows {} and {} "
              "land here for any source ports: their addresses alone decide, and this collision recurs in every trial",
              field_list(cfg.effective_fields()), c.witness_a, c.witness_b);
        }
        return fmt::format(
            "missing entropy: flows {} and {} present identical hash inputs (hashed: {}; they differ in {}), so "
            "they share every hop whatever the seeds",
            c.witness_a, c.witness_b, field_list(cfg.effective_fields()),
            fields_that_differ(in_.flows[c.witness_a].key, in_.flows[c.witness_b].key));
      case CollisionCause::kPolarization: {
        const int st = in_.coupling().stage_of(c.group);
        std::string reason = "the previous decision fixes this one";
        if (st >= 0) {
          const DecisionStage& s = in_.coupling().stages()[static_cast<std::size_t>(st)];
          reason = s.same_hash_as_previous
                       ? fmt::format("this switch computes the same hash as the previous decider (same function {} "
                                     "and seed)",
                                     cfg.function_name())
                       : (affine(cfg) ? fmt::format("{} is affine: a different seed only XORs a constant into the hash",
                                                    cfg.function_name())
                                      : std::string("the hashes of consecutive tiers are correlated"));
        }
        return fmt::format("polarization: flows {} and {} arrived after earlier decisions that fully determine this "
                           "one: {}; the switch could not spread them",
                           c.witness_a, c.witness_b, reason);
      }
      case CollisionCause::kBadLuck: break;
    }
    return fmt::format("bad luck: independent hashes; {} flows entering this {}-way group collide with probability {}",
                       c.flows_in_group, n, probability(p_any_collision(n, c.flows_in_group)));
  }

  void collisions() {
    const HashScenario& s = in_.scenario;
    line(fmt::format("Collisions: {} (two or more flows hashed onto one member)", s.collisions.size()));
    for (std::size_t i = 0; i < s.collisions.size() && i < max_listed_; ++i) {
      const Collision& c = s.collisions[i];
      line(fmt::format("  {}: flows {} on member of {}'s {}-way {} group", link_text(in_.names(), c.directed_link),
                       fmt::join(c.flows, ", "), vertex(c.at), f_.size(c.group),
                       f_.kind(c.group) == GroupKind::kUp ? "up" : "down"));
      line("    " + why(c));
    }
    if (s.collisions.size() > max_listed_) line(fmt::format("  ... {} more", s.collisions.size() - max_listed_));
    line();
  }

  // Why consecutive deciders agree: the same hash, or an affine one.
  std::string coupling_cause(const DecisionStage& s) const {
    const EcmpConfig& c = in_.hashes().config();
    return s.same_hash_as_previous ? fmt::format(" (same function {} and seed at both)", c.function_name())
           : affine(c)             ? fmt::format(" ({} is affine: per-switch seeds only XOR a constant)", c.function_name())
                                   : std::string();
  }

  std::string reach(const DecisionStage& s) const {
    return fmt::format("only {} of {} tier-{} {} links can carry these flows' traffic", s.links_reachable,
                       s.links_available, s.tier, s.up ? "up" : "down");
  }

  // "only 2 of 4 tier-2 up links can carry these flows' traffic; the tier-2 choice is fully
  // determined by the tier-1 choice (same function crc32 and seed at both)".
  std::string finding(const DecisionStage& s, const DecisionStage& previous) const {
    const std::string dir = s.up ? "up" : "down";
    const std::string reachable =
        s.links_reachable < s.links_available
            ? reach(s)
            : fmt::format("all {} tier-{} {} links are reachable, but flows that share a tier-{} link share the tier-{} "
                          "link too",
                          s.links_available, s.tier, dir, previous.tier, s.tier);
    return fmt::format("{}; the tier-{} choice is fully determined by the tier-{} choice{}", reachable, s.tier,
                       previous.tier, coupling_cause(s));
  }

  // "partial coupling: the tier-2 up choice shares 1.00 of its 2.00 bits with the tier-1 choice
  // (mutual information); only 8 of 16 tier-2 up links can carry these flows' traffic".
  std::string partial_finding(const DecisionStage& s, const DecisionStage& previous) const {
    std::string text = fmt::format(
        "partial coupling: the tier-{} {} choice shares {:.2f} of its {:.2f} bits with the tier-{} choice (mutual "
        "information of consecutive choices; 0 when independent)",
        s.tier, s.up ? "up" : "down", s.mutual_information_bits, s.entropy_bits, previous.tier);
    if (s.links_reachable < s.links_available) text += "; " + reach(s);
    return text + coupling_cause(s);
  }

  static std::string verdict(const DecisionStage& s, const EcmpConfig& c) {
    switch (s.coupling) {
      case Coupling::kFirst: return "first decision of the path";
      case Coupling::kNoEntropy: return "no entropy: every trial identical (source port not hashed)";
      case Coupling::kIndependent: return "independent of the previous decision";
      case Coupling::kPartial: return "partial coupling: the previous decision fixes part of this one";
      case Coupling::kDetermined: break;
    }
    return std::string("fully determined by the previous decision") +
           (s.same_hash_as_previous ? " (same function and seed)" : affine(c) ? " (affine hash)" : "");
  }

  void evidence() {
    const auto& stages = in_.coupling().stages();
    if (stages.empty()) return;
    const EcmpConfig& cfg = in_.hashes().config();
    const bool mc = in_.monte_carlo.has_value();
    TextTable table({}, fmt::format("Per-tier evidence (links of the groups entered; reachable = used with any of {} "
                                    "source ports per flow; dependence = mutual information with the previous choice)",
                                    in_.coupling_samples));
    table.add_column("stage");
    table.add_column("links", Align::kRight);
    table.add_column("used now", Align::kRight);
    if (mc) table.add_column("used in trials", Align::kRight);
    table.add_column("reachable", Align::kRight);
    table.add_column("dependence", Align::kRight);
    table.add_column("decision", Align::kLeft, 60);
    std::vector<std::string> findings;
    for (std::size_t i = 0; i < stages.size(); ++i) {
      const DecisionStage& s = stages[i];
      std::vector<std::string> row = {stage_name(s), std::to_string(s.links_available),
                                      std::to_string(in_.scenario.stage_links_used.at(i))};
      if (mc) row.push_back(std::to_string(in_.monte_carlo->stage_links_used.at(i)));
      row.push_back(std::to_string(s.links_reachable));
      const bool measured = s.coupling != Coupling::kFirst && s.coupling != Coupling::kNoEntropy;
      row.push_back(measured ? fmt::format("{:.2f} of {:.2f} bits", s.mutual_information_bits, s.entropy_bits) : "-");
      row.push_back(verdict(s, cfg));
      table.add_row(row);
      if (i == 0) continue;
      if (s.coupling == Coupling::kDetermined) findings.push_back(finding(s, stages[i - 1]));
      if (s.coupling == Coupling::kPartial) findings.push_back(partial_finding(s, stages[i - 1]));
    }
    out_ += table.render();
    if (!(cfg.effective_fields() & kFieldSrcPort)) {
      findings.push_back(fmt::format("no entropy: the hash reads {}; the source port, a RoCE flow's only entropy, is not "
                                     "hashed, so every flow takes the same path for any source port and every trial is "
                                     "identical",
                                     field_list(cfg.effective_fields())));
    }
    for (const auto& finding : findings) line("  " + finding);
    line();
  }

  void throughput() {
    const HashScenario& s = in_.scenario;
    const bool sizes = std::any_of(in_.flows.begin(), in_.flows.end(), [](const Flow& x) { return x.size.value() > 0; });
    TextTable table({{"flow", Align::kRight}, {"throughput", Align::kRight}, {sizes ? "time" : "", Align::kRight}},
                    "Flow throughput (max-min fair share of every link)");
    for (std::size_t i = 0; i < s.loads.throughput.size() && i < max_listed_; ++i) {
      const double thr = s.loads.throughput[i];
      std::string time;
      if (sizes && in_.flows[i].size.value() > 0 && thr > 0) {
        time = fmt::format("{:.3f} ms", 8.0 * static_cast<double>(in_.flows[i].size.value()) / thr * 1e3);
      }
      table.add_row({std::to_string(i), thr > 0 ? gbps_text(thr) : "unreachable", time});
    }
    out_ += table.render();
    line(fmt::format("slowest flow {}, mean {}", gbps_text(s.loads.slowest), gbps_text(s.loads.mean_throughput)));
    line();
  }

  void monte_carlo() {
    const MonteCarloResult& r = *in_.monte_carlo;
    const EcmpClosedForms& c = r.closed;
    line(fmt::format("Monte Carlo: {} trials, seed {}, fresh RoCE source ports every trial", r.trials, in_.seed));
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> alike;  // (flows, members) -> groups
    for (const auto& [n, k] : c.groups) ++alike[{k, n}];
    std::vector<std::string> shape;
    for (const auto& [kn, groups] : alike) {
      shape.push_back(groups == 1 ? fmt::format("{} flows on {}", kn.first, kn.second)
                                  : fmt::format("{} groups of {} flows on {}", groups, kn.first, kn.second));
    }
    const std::string none = c.unreachable > 0 ? fmt::format("none ({} of {} flows have no path)", c.unreachable,
                                                             in_.flows.size())
                                               : std::string("none (no flow leaves its leaf)");
    line(fmt::format("first-tier uplinks = the source leaves' up groups: {}",
                     shape.empty() ? none : fmt::format("{}", fmt::join(shape, "; "))));
    const bool entropy = (in_.hashes().config().effective_fields() & kFieldSrcPort) != 0;
    if (!entropy) {
      line(fmt::format("no entropy: every trial identical: the hash reads {}, not the source port each trial redraws, so "
                       "the trials repeat one placement and the closed forms (independent uniform hashing) do not apply",
                       field_list(in_.hashes().config().effective_fields())));
    }
    const bool closed = !c.groups.empty() && entropy;
    TextTable table({{"quantity"}, {"simulated", Align::kRight}, {"closed form", Align::kRight}, {"formula"}});
    const double se_first = std::sqrt(r.p_first_collision * (1 - r.p_first_collision) / r.trials);
    const double se_any = std::sqrt(r.p_any_collision * (1 - r.p_any_collision) / r.trials);
    table.add_row({"P(collision on first-tier uplinks)", fmt::format("{:.4f} ± {:.4f}", r.p_first_collision, se_first),
                   closed ? fmt::format("{:.4f}", std::max(0.0, c.p_collision)) : "-", "1 - prod n!/((n-k)! n^k)"});
    table.add_row({"P(collision anywhere on the paths)", fmt::format("{:.4f} ± {:.4f}", r.p_any_collision, se_any), "-",
                   "(later tiers depend on earlier ones)"});
    const std::size_t top = std::max(r.busiest_histogram.size(), c.busiest_pmf.size());
    for (std::size_t m = 0; m < top; ++m) {
      const double sim = m < r.busiest_histogram.size() ? static_cast<double>(r.busiest_histogram[m]) / r.trials : 0.0;
      const double cf = m < c.busiest_pmf.size() ? c.busiest_pmf[m] : 0.0;
      if (sim == 0.0 && (cf < 5e-5 || !closed)) continue;
      table.add_row({fmt::format("busiest first-tier uplink = {} flow{}", m, m == 1 ? "" : "s"), percent(sim),
                     closed && c.busiest_known ? percent(cf) : "-", "exact max-load distribution"});
    }
    table.add_row({"E[idle first-tier uplinks]", fmt::format("{:.3f} ± {:.3f}", r.mean_idle, r.se_idle),
                   closed ? fmt::format("{:.3f}", c.expected_idle) : "-", "sum n (1 - 1/n)^k"});
    table.add_row({"E[slowest flow]", fmt::format("{} ± {:.1f}", gbps_text(r.mean_slowest), r.se_slowest / 1e9),
                   closed && c.slowest_applicable ? gbps_text(c.expected_slowest) : "-",
                   closed && c.slowest_applicable ? "C sum P(busiest = m) / m" : slowest_not_applicable(c, entropy)});
    out_ += table.render();
    const std::uint32_t collided = static_cast<std::uint32_t>(std::lround(r.p_first_collision * r.trials));
    if (closed) {
      line(fmt::format("{} of {} trials collided on the first-tier uplinks; with independent hashing, P(at least {} of {}) "
                       "= {}",
                       collided, r.trials, collided, r.trials, probability(binomial_at_least(r.trials, collided, c.p_collision))));
    }
    if (!entropy) {
      line(fmt::format("{} of {} trials collided on the first-tier uplinks: every trial is the same placement, so it is "
                       "none or all of them",
                       collided, r.trials));
    } else {
      line("closed forms: independent uniform hashing at the source leaves; the slowest-flow form also assumes the "
           "uplinks are the only shared links, so later-tier collisions (above: anywhere) show as a gap");
    }
    const auto cause = [&](CollisionCause x) { return r.trials_with_cause[static_cast<int>(x)]; };
    line(fmt::format("trials with a collision of each cause (one trial can have several: a first-tier collision by bad "
                     "luck is repeated downstream by polarization): bad luck {}, polarization {}, missing entropy {}",
                     cause(CollisionCause::kBadLuck), cause(CollisionCause::kPolarization),
                     cause(CollisionCause::kMissingEntropy)));
    line();
  }

  // Why the slowest-flow closed form is not given, most basic reason first.
  static std::string slowest_not_applicable(const EcmpClosedForms& c, bool entropy) {
    if (!entropy) return "n/a: no entropy, every trial identical";
    if (c.unreachable > 0) return fmt::format("n/a: {} flow{} without a path", c.unreachable, c.unreachable == 1 ? "" : "s");
    if (c.shared_nics) return "n/a: flows share NICs";
    if (c.without_leaf_choice > 0) {
      return fmt::format("n/a: {} flow{} make no hashed choice at a source leaf", c.without_leaf_choice,
                         c.without_leaf_choice == 1 ? "" : "s");
    }
    if (c.mixed_capacities) return "n/a: the flows cross links of different capacities";
    return "n/a";
  }

  void comparison() {
    TextTable table({{"scheme"}, {"busiest link", Align::kRight}, {"idle links", Align::kRight},
                     {"slowest flow", Align::kRight}, {"mean flow", Align::kRight}, {"note"}},
                    fmt::format("Schemes on the same flows ({}; busiest in flows, idle of the links in play)",
                                in_.comparison_trials > 1 ? fmt::format("mean of {} trials", in_.comparison_trials)
                                                          : std::string("one draw of source ports")));
    for (const SchemeRow& r : *in_.comparison) {
      if (!r.applicable) {
        table.add_row({std::string(scheme_name(r.scheme)), "-", "-", "-", "-", r.note});
        continue;
      }
      table.add_row({std::string(scheme_name(r.scheme)), fmt::format("{:.2f}", r.busiest),
                     fmt::format("{:.2f} of {:.0f}", r.idle, r.links), gbps_text(r.slowest), gbps_text(r.mean_throughput),
                     r.note});
    }
    out_ += table.render();
  }

  const HashStudy& in_;
  std::size_t max_listed_;
  const Topology& t_;
  const ForwardingState& f_;
  std::string out_;
};

}  // namespace

std::string no_path_text(const HashStudy& study, const NoPath& x) {
  const Topology& t = study.topology();
  const Flow& fl = study.flows[x.flow];
  switch (x.reason) {
    case NoPathReason::kAllUplinksDown: return fmt::format("no path: all uplinks of {} are down", t.vertex_name(x.culprit));
    case NoPathReason::kSourceNicDown: return fmt::format("no path: the NIC link of {} is down", t.vertex_name(fl.src));
    case NoPathReason::kDestinationNicDown:
      return fmt::format("no path: the NIC link of {} is down", t.vertex_name(fl.dst));
    case NoPathReason::kOtherPlane:
      return fmt::format("no path: {} and {} are on different planes", t.vertex_name(fl.src), t.vertex_name(fl.dst));
    case NoPathReason::kNoRoute: break;
  }
  return fmt::format("no path: {} has no route toward {}", t.vertex_name(x.stopped_at),
                     t.vertex_name(study.forwarding().leaf_of(fl.dst)));
}

std::string hash_report(const HashStudy& study, const HashReportOptions& options) {
  return HashReport(study, options).render();
}

}  // namespace ct
