// clustertwin hash SPEC [FLOWS] [--elephants K] [--from PORTS] [--to PORTS] [--ring] [--channels C]
//                      [--qps Q] [--trials N] [--seed S] [--threads T] [--compare] [--compare-qps Q]
//                      [--fail LINK]... [--fib SWITCH]... [--max-listed N] [--catalog DIR] [-o FILE]
// ECMP on the built fabric: each flow's path, loads, collisions and why, Monte Carlo over source
// ports beside the closed forms, and alternatives to per-flow hashing on the same flows.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/decision_coupling.h"
#include "analysis/ecmp_monte_carlo.h"
#include "analysis/hash_scenario.h"
#include "analysis/scheme_comparison.h"
#include "cli/command.h"
#include "io/files.h"
#include "io/loaders.h"
#include "report/hash_report.h"
#include "routing/ecmp_config.h"
#include "routing/forwarding_state.h"
#include "routing/path_walker.h"
#include "routing/port_address.h"
#include "routing/switch_hashes.h"
#include "topology/builder.h"
#include "traffic/flow_file.h"
#include "traffic/flow_generator.h"

namespace ct::cli {
namespace {

// Source ports redrawn per flow to find which decisions are determined (decision_coupling.h):
// enough for 16 samples per member of the widest group.
constexpr std::uint32_t kMinCouplingSamples = 256;
constexpr std::uint32_t kMaxCouplingWalks = 1u << 20;

struct HashOptions {
  std::string output;
  std::string flows_path;
  int elephants = 2;
  std::vector<std::string> from;
  std::vector<std::string> to;
  bool ring = false;
  int channels = 1;
  int qps = 0;  // 0: routing.qps_per_connection
  std::string size;
  int bursts = 1;
  double idle_us = 0.0;
  std::uint32_t trials = 0;
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: the hardware's
  bool compare = false;
  std::uint32_t compare_qps = 4;
  std::vector<std::string> fail;
  std::vector<std::string> fib;
  std::size_t max_listed = 64;
};

Diagnostic usage_error(const std::string& field, const std::string& message) {
  return Diagnostic{{"command line", 0, 0}, field, message, Severity::kError};
}

Result<std::vector<VertexId>> ports_of(const Topology& t, const std::vector<std::string>& names, const char* option) {
  std::vector<VertexId> out;
  for (const auto& name : names) {
    std::optional<VertexId> v;
    if (auto a = parse_ipv4(name)) v = port_of_address(t, *a);
    if (!v) v = parse_port_name(t, name);
    if (!v) return usage_error(option, fmt::format("'{}' is no backend port (e.g. host0/nic1 or host0/nic1/p0)", name));
    out.push_back(*v);
  }
  return out;
}

// Link ids, or "a -- b" names meaning every parallel cable between a and b.
Result<std::vector<LinkId>> links_of(const Topology& t, const std::vector<std::string>& names) {
  std::vector<LinkId> out;
  for (const auto& name : names) {
    const bool numeric = !name.empty() && name.size() <= 9 && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numeric) {
      const unsigned long id = std::stoul(name);
      if (id >= t.link_count()) return usage_error("--fail", fmt::format("link {} does not exist ({} links)", id, t.link_count()));
      out.push_back(LinkId(static_cast<std::uint32_t>(id)));
      continue;
    }
    const std::size_t before = out.size();
    for (std::uint32_t l = 0; l < t.link_count(); ++l) {
      if (t.link_name(LinkId(l)) == name) out.push_back(LinkId(l));
    }
    if (out.size() == before) {
      return usage_error("--fail", fmt::format("no link named '{}' (names look like 'p0/leaf/0 -- p0/spine/1')", name));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<std::vector<Flow>> make_flows(const HashOptions& o, const Topology& t, const EcmpConfig& config,
                                     std::string& source) {
  if (!o.flows_path.empty()) {
    auto text = read_text_file(o.flows_path);
    if (!text) return text.errors();
    source = fmt::format("{} (explicit; Monte Carlo trials redraw the source ports)", o.flows_path);
    return parse_flow_file(o.flows_path, text.value(), t);
  }
  Bytes size(0);
  if (!o.size.empty()) {
    auto parsed = parse_size(o.size);
    if (!parsed) return usage_error("--size", parsed.errors().front().message);
    size = parsed.value();
  }
  const int qps = o.qps > 0 ? o.qps : config.qps_per_connection;
  if (o.ring) {
    if (t.host_count < 2) return usage_error("--ring", "a ring needs at least 2 hosts");
    source = fmt::format("ring collective per rail and plane, {} channel(s) x {} QP(s) per connection (generated, seed {})",
                         o.channels, qps, o.seed);
    return ring_flows(t, RingOptions{o.channels, qps, size}, o.seed);
  }
  ElephantOptions e;
  e.count = o.elephants;
  e.size = size;
  e.bursts = o.bursts;
  e.idle_us = o.idle_us;
  auto from = ports_of(t, o.from, "--from");
  if (!from) return from.errors();
  auto to = ports_of(t, o.to, "--to");
  if (!to) return to.errors();
  e.sources = from.value();
  e.destinations = to.value();
  std::vector<Flow> flows = elephant_flows(t, e, o.seed);
  for (const Flow& f : flows) {
    if (t.plane[f.src.value()] != t.plane[f.dst.value()] || f.src == f.dst) {
      return usage_error("--to", fmt::format("{} -> {}: source and destination must be different ports of one plane",
                                             t.vertex_name(f.src), t.vertex_name(f.dst)));
    }
  }
  source = fmt::format("{} elephant flow{} (generated: RoCE source ports from seed {})", o.elephants,
                       o.elephants == 1 ? "" : "s", o.seed);
  return flows;
}

int run_hash(const HashOptions& o, const Context& context) {
  const Fabric& fabric = *context.fabric;
  const Topology& topology = fabric.topology();
  const auto config = &fabric.ecmp();
  const ValidSpec* spec = &fabric.spec();
  if (auto w = protocol_mismatch(fabric, Protocol::kEthernet, "clustertwin hash", Severity::kWarning)) {
    std::cerr << format_diagnostic(*w) << "\n";
  }
  auto failed = links_of(topology, o.fail);
  if (!failed) return report_errors(failed.errors());
  std::vector<VertexId> fib_switches;
  for (const auto& name : o.fib) {
    std::optional<VertexId> found;
    for (std::uint32_t v = 0; v < topology.vertex_count() && !found; ++v) {
      const bool backend_switch = topology.kind[v] == VertexKind::kSwitch && topology.network[v] == Network::kBackend;
      if (backend_switch && topology.vertex_name(VertexId(v)) == name) found = VertexId(v);
    }
    if (!found) return report_errors({usage_error("--fib", fmt::format("no backend switch named '{}' (e.g. p0/leaf/0)", name))});
    fib_switches.push_back(*found);
  }
  std::string source;
  auto flows = make_flows(o, topology, *config, source);
  if (!flows) return report_errors(flows.errors());

  const ForwardingState forwarding(topology, failed.value());
  const SwitchHashes& hashes = fabric.hashes();
  const PathWalker walker(forwarding, hashes);
  std::vector<RouteRequest> requests;
  std::vector<BurstPattern> bursts;
  for (const Flow& f : flows.value()) {
    requests.push_back(RouteRequest{f.src, f.dst, f.key, 1});
    bursts.push_back(BurstPattern{f.bursts, f.idle_us});
  }
  std::uint32_t widest = 1;
  for (std::uint32_t g = 0; g < forwarding.group_count(); ++g) widest = std::max(widest, forwarding.size(g));
  const auto budget = static_cast<std::uint32_t>(kMaxCouplingWalks / std::max<std::size_t>(1, requests.size()));
  const std::uint32_t samples = std::max(32u, std::min(std::max(kMinCouplingSamples, 32 * widest), budget));
  const DecisionCoupling coupling(walker, requests, o.seed, samples);
  const HashScenario scenario = analyze_hash_scenario(walker, requests, coupling);
  const unsigned threads = o.threads > 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());

  HashReportInput in;
  in.spec_name = spec->name;
  in.spec_file = context.spec_path;
  in.topology = &topology;
  in.forwarding = &forwarding;
  in.hashes = &hashes;
  in.flows = flows.value();
  in.flow_source = source;
  in.failed = failed.value();
  in.scenario = &scenario;
  in.coupling = &coupling;
  in.coupling_samples = samples;
  in.seed = o.seed;
  in.max_listed = o.max_listed;
  in.fib_switches = fib_switches;
  MonteCarloResult mc;
  if (o.trials > 0) {
    mc = run_ecmp_monte_carlo(walker, requests, coupling, {o.trials, o.seed, threads});
    in.monte_carlo = &mc;
  }
  std::vector<SchemeRow> rows;
  if (o.compare) {
    ComparisonOptions c;
    c.qps = o.compare_qps;
    c.flowlet_gap_us = config->flowlet_gap_us;
    c.seed = o.seed;
    c.trials = std::max(1u, o.trials);
    c.threads = threads;
    rows = compare_schemes(walker, requests, bursts, c);
    in.comparison = &rows;
    in.comparison_trials = c.trials;
  }
  return emit(o.output, hash_report(in));
}

}  // namespace

Runner setup_hash(CLI::App& app, Context& context) {
  auto o = std::make_shared<HashOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML); its routing: block sets the hash")->required();
  app.add_option("flows", o->flows_path, "Explicit flows, YAML or CSV (default: generated elephant flows)");
  app.add_option("--elephants", o->elephants, "Number of generated elephant flows")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--from", o->from, "Source ports of the elephants, e.g. host0/nic0,host1/nic0 (default: the first leaf's)")
      ->delimiter(',');
  app.add_option("--to", o->to, "Destination ports of the elephants (default: the farthest leaf's)")->delimiter(',');
  app.add_flag("--ring", o->ring, "Flows of a ring collective: host h to h+1 on every rail and plane");
  app.add_option("--channels", o->channels, "Ring channels (connections per ring neighbour)")->check(CLI::Range(1, 64))->capture_default_str();
  app.add_option("--qps", o->qps, "QPs per ring connection (default: routing.qps_per_connection)")->check(CLI::Range(1, 1024));
  app.add_option("--size", o->size, "Bytes per generated flow, e.g. 1GiB (for completion times)");
  app.add_option("--bursts", o->bursts, "Bursts per generated flow (flowlet scheme)")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--idle-us", o->idle_us, "Idle gap between bursts, microseconds")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--trials", o->trials, "Monte Carlo trials over fresh source ports (0: none)")->capture_default_str();
  app.add_option("--seed", o->seed, "Seed of generated ports and of the trials")->capture_default_str();
  app.add_option("--threads", o->threads, "Threads for the trials (0: all cores; the result does not depend on it)")
      ->capture_default_str();
  app.add_flag("--compare", o->compare, "Compare hash, spray, flowlet, adaptive, more QPs and plane split");
  app.add_option("--compare-qps", o->compare_qps, "QPs per connection in the more-qps row")->check(CLI::Range(1, 1024))->capture_default_str();
  app.add_option("--fail", o->fail, "Failed link: an id or 'a -- b' (every parallel cable); repeatable");
  app.add_option("--fib", o->fib, "Print the whole forwarding table of a switch, e.g. p0/spine/0; repeatable");
  app.add_option("--max-listed", o->max_listed, "Paths, links, groups and collisions listed at most")->capture_default_str();
  add_output_option(app, o->output);
  return [o](const Context& c) { return run_hash(*o, c); };
}

}  // namespace ct::cli
