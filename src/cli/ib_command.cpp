// clustertwin ib route|trace|export: the InfiniBand subnet manager model (src/ib/).
//
//   ib route  SPEC|--ibnetdiscover FILE [--engine ftree|updn|minhop] [--lmc N] [--roots FILE]
//             [--cn FILE] [--fail LINK]... [--lft FILE] [--shifts N] [--random N] [--seed N]
//       Assigns LIDs, routes, prints reachability, credit loops, uplink balance and permutation
//       loads; --lft writes the LFTs as dump_fts prints them. With --fail, the same again after
//       removing those cables (and --lft writes the tables of the degraded fabric).
//       --check-lft DUMP checks another SM's tables (dump_fts or opensm-lfts.dump) instead of
//       routing; with --fail, the same tables on the degraded fabric (before any rerouting).
//   ib trace  SRC DST [same fabric and engine options]
//       The hop-by-hop path from CA SRC (NODE or NODE:PORT) to DST (a node, or a LID), like
//       ibtracert; with --fail, before and after.
//   ib export SPEC|--ibnetdiscover FILE [--lids] [--lmc N] [-o FILE]
//       The fabric in ibnetdiscover format (an ibsim net file).
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "ib/fabric_edits.h"
#include "ib/ib_checks.h"
#include "ib/ib_ranking.h"
#include "ib/ib_routing.h"
#include "ib/ibnetdiscover.h"
#include "ib/lft_dump.h"
#include "ib/switch_graph.h"
#include "ib/topology_to_ib.h"
#include "io/files.h"
#include "io/loaders.h"
#include "topology/builder.h"

namespace ct::cli {
namespace {

struct IbOptions {
  std::string output;
  std::string ibnetdiscover_path;
  int plane = 0;
  std::string engine = "ftree";
  int lmc = 0;
  std::string roots_path;
  std::string cn_path;
  std::vector<std::string> failures;
  int threads = 0;
  // route
  std::string lft_path;
  std::string lft_in;  // check these LFTs instead of routing
  std::size_t shifts = 64;
  std::size_t random = 16;
  std::uint64_t seed = 1;
  bool switch_lids = false;
  // trace
  std::string source;
  std::string destination;
  // export
  bool with_lids = false;
};

struct LoadedFabric {
  IbFabric fabric;
  std::string origin;
};

Result<LoadedFabric> load_fabric(const IbOptions& o, const Context& context) {
  if (context.spec_path.empty() == o.ibnetdiscover_path.empty()) {
    return Diagnostic{{}, "", "give either a cluster SPEC or --ibnetdiscover FILE"};
  }
  if (!o.ibnetdiscover_path.empty()) {
    auto text = read_text_file(o.ibnetdiscover_path);
    if (!text) return text.errors();
    auto fabric = parse_ibnetdiscover(text.value(), o.ibnetdiscover_path);
    if (!fabric) return fabric.errors();
    return LoadedFabric{std::move(fabric).value(), o.ibnetdiscover_path};
  }
  if (auto wrong = protocol_mismatch(*context.fabric, Protocol::kInfiniband, "clustertwin ib", Severity::kError)) {
    return *wrong;
  }
  auto fabric = fabric_from_topology(context.fabric->topology(), o.plane, context.spec_path);
  if (!fabric) return fabric.errors();
  return LoadedFabric{std::move(fabric).value(), fmt::format("plane {} of {}", o.plane, context.spec_path)};
}

Result<std::vector<IbNodeId>> load_node_list(const IbFabric& fabric, const std::string& path, IbNodeType type) {
  if (path.empty()) return std::vector<IbNodeId>{};
  auto text = read_text_file(path);
  if (!text) return text.errors();
  return parse_node_list(fabric, text.value(), path, type);
}

Result<IbRoutingOptions> routing_options(const IbFabric& fabric, const IbOptions& o) {
  IbRoutingOptions r;
  if (o.engine == "minhop") r.engine = IbEngine::kMinHop;
  else if (o.engine == "updn") r.engine = IbEngine::kUpDown;
  else r.engine = IbEngine::kFatTree;
  r.lmc = o.lmc;
  r.threads = o.threads;
  auto roots = load_node_list(fabric, o.roots_path, IbNodeType::kSwitch);
  if (!roots) return roots.errors();
  r.roots = std::move(roots).value();
  auto cns = load_node_list(fabric, o.cn_path, IbNodeType::kCa);
  if (!cns) return cns.errors();
  r.compute_nodes = std::move(cns).value();
  return r;
}

std::string report(const IbFabric& fabric, const IbRouting& routing, const IbRoutingOptions& ro, const IbOptions& o) {
  std::string out;
  const SwitchGraph graph(fabric);
  const IbRanks ranks = rank_switches(fabric, graph, ro.roots);
  const std::string source = o.lft_in.empty() ? "Engine " + to_string(routing.engine) : "LFTs of " + o.lft_in;
  out += fmt::format("{}, LMC {}: {} LIDs; {} root switch(es) ({})\n", source, routing.lids.lmc, routing.lids.max_lid(),
                     ranks.roots.size(), ro.roots.empty() ? "detected" : "given");
  const CheckOptions co{o.switch_lids};
  const auto reach = check_reachability(fabric, routing, co);
  out += fmt::format("Reachability: {} of {} (source port, destination LID) pairs delivered{}\n",
                     reach.pairs - reach.unreachable, reach.pairs, reach.loops ? fmt::format(", {} LIDs loop", reach.loops) : "");
  for (const auto& e : reach.examples) out += "  " + e + "\n";
  const auto loops = check_credit_loops(fabric, routing, co);
  if (loops.ok()) {
    out += fmt::format("Credit loops: none ({} channel dependencies over {} switch-to-switch channels)\n",
                       loops.dependencies, loops.channels);
  } else {
    out += fmt::format("Credit loops: FOUND, a cycle of {} channels:", loops.cycle.size());
    for (const auto& c : loops.cycle) out += " " + c;
    out += "\n";
  }
  out += "Uplink balance (CA destination LIDs routed through each uplink port):\n";
  for (const auto& b : uplink_balance(fabric, routing, ranks)) {
    out += fmt::format("  rank {}: {} uplinks, min {} max {} mean {:.1f}, spread {}; worst switch spread {} ('{}')\n", b.rank,
                       b.uplinks, b.min, b.max, b.mean, b.spread(), b.worst_switch_spread, b.worst_switch);
  }
  const auto shift = shift_permutation_load(fabric, routing, o.shifts);
  out += fmt::format("Shift permutations ({}): worst max link load {}, mean {:.2f}\n", shift.patterns, shift.worst_max_load,
                     shift.mean_max_load);
  const auto rnd = random_permutation_load(fabric, routing, o.random, o.seed);
  out += fmt::format("Random permutations ({}, seed {}): worst max link load {}, mean {:.2f}\n", rnd.patterns, o.seed,
                     rnd.worst_max_load, rnd.mean_max_load);
  if (shift.undelivered_flows + rnd.undelivered_flows > 0) {
    out += fmt::format("  ({} flows had no route and were left out)\n", shift.undelivered_flows + rnd.undelivered_flows);
  }
  return out;
}

std::string describe(const IbFabric& fabric, const std::string& origin) {
  return fmt::format("InfiniBand subnet ({}): {} switches, {} CAs, {} cables\n", origin, fabric.switch_count(),
                     fabric.ca_count(), fabric.cable_count());
}

// Our routing, or the LFTs of --check-lft read back onto the fabric.
Result<IbRouting> routing_for(const IbFabric& fabric, const IbRoutingOptions& ro, const IbOptions& o) {
  if (o.lft_in.empty()) return route_fabric(fabric, ro);
  auto text = read_text_file(o.lft_in);
  if (!text) return text.errors();
  auto dump = parse_lft_dump(text.value(), o.lft_in);
  if (!dump) return dump.errors();
  return routing_from_lft_dump(fabric, dump.value(), o.lft_in);
}

// The degraded fabric failed (e.g. ftree refuses it): the report so far goes to stdout, never to
// an -o file, so a file is written only by a run that exits 0.
int fail_after(const IbOptions& o, const std::string& partial, const Diagnostics& errors) {
  if (o.output.empty() || o.output == "-") emit("", partial);
  return report_errors(errors);
}

int run_route(const IbOptions& o, const Context& context) {
  auto loaded = load_fabric(o, context);
  if (!loaded) return report_errors(loaded.errors());
  IbFabric fabric = std::move(loaded.value().fabric);
  auto ro = routing_options(fabric, o);
  if (!ro) return report_errors(ro.errors());
  std::string out = describe(fabric, loaded.value().origin);
  auto routed = routing_for(fabric, ro.value(), o);
  if (!routed) return report_errors(routed.errors());
  out += report(fabric, routed.value(), ro.value(), o);
  std::string lft = o.lft_path.empty() ? std::string{} : write_lft_dump(fabric, routed.value());
  if (!o.failures.empty()) {
    auto removed = apply_failures(fabric, o.failures);
    if (!removed) return report_errors(removed.errors());
    out += fmt::format("\nAfter removing {} cable(s): {} cables left{}\n", removed.value(), fabric.cable_count(),
                       o.lft_in.empty() ? "" : " (the same LFTs, before any rerouting)");
    auto degraded = routing_for(fabric, ro.value(), o);
    if (!degraded) return fail_after(o, out, degraded.errors());
    out += report(fabric, degraded.value(), ro.value(), o);
    if (!o.lft_path.empty()) lft = write_lft_dump(fabric, degraded.value());
  }
  if (!o.lft_path.empty()) {
    if (int rc = emit(o.lft_path, lft); rc != kExitOk) return rc;
  }
  return emit(o.output, out);
}

Result<std::uint32_t> destination_lid(const IbFabric& fabric, const IbRouting& routing, const std::string& key) {
  if (auto node = find_node(fabric, key)) {
    const int port = fabric.is_switch(node.value()) ? 0 : 1;
    return static_cast<std::uint32_t>(routing.lids.base_lid(node.value(), port));
  }
  std::uint32_t lid = 0;
  const auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), lid);
  if (ec == std::errc() && ptr == key.data() + key.size()) return lid;
  return Diagnostic{{}, "destination", fmt::format("\"{}\" is neither a node nor a LID", key)};
}

Result<std::string> trace_text(const IbFabric& fabric, const IbRoutingOptions& ro, const IbOptions& o) {
  auto routed = route_fabric(fabric, ro);
  if (!routed) return routed.errors();
  std::string src = o.source;
  int port = 1;
  if (auto whole = find_node(fabric, src); !whole) {
    if (const auto colon = src.rfind(':'); colon != std::string::npos) {
      port = std::atoi(src.c_str() + colon + 1);
      src = src.substr(0, colon);
    }
  }
  auto node = find_node(fabric, src);
  if (!node) return node.errors();
  if (fabric.is_switch(node.value()) || port < 1 || port > fabric.ports(node.value())) {
    return Diagnostic{{}, "source", "the source must be a CA port (NODE or NODE:PORT)"};
  }
  auto lid = destination_lid(fabric, routed.value(), o.destination);
  if (!lid) return lid.errors();
  const Trace trace = trace_route(fabric, routed.value(), node.value(), port, lid.value());
  return format_trace(fabric, routed.value(), trace, lid.value());
}

int run_trace(const IbOptions& o, const Context& context) {
  auto loaded = load_fabric(o, context);
  if (!loaded) return report_errors(loaded.errors());
  IbFabric fabric = std::move(loaded.value().fabric);
  auto ro = routing_options(fabric, o);
  if (!ro) return report_errors(ro.errors());
  auto text = trace_text(fabric, ro.value(), o);
  if (!text) return report_errors(text.errors());
  std::string out = text.value();
  if (!o.failures.empty()) {
    auto removed = apply_failures(fabric, o.failures);
    if (!removed) return report_errors(removed.errors());
    auto after = trace_text(fabric, ro.value(), o);
    out += fmt::format("\nAfter removing {} cable(s):\n", removed.value());
    if (!after) return fail_after(o, out, after.errors());
    out += after.value();
  }
  return emit(o.output, out);
}

int run_export(const IbOptions& o, const Context& context) {
  auto loaded = load_fabric(o, context);
  if (!loaded) return report_errors(loaded.errors());
  IbFabric fabric = std::move(loaded.value().fabric);
  if (!o.failures.empty()) {
    auto removed = apply_failures(fabric, o.failures);
    if (!removed) return report_errors(removed.errors());
  }
  if (!o.with_lids) return emit(o.output, write_ibnetdiscover(fabric, nullptr));
  auto lids = assign_lids(fabric, o.lmc);
  if (!lids) return report_errors(lids.errors());
  return emit(o.output, write_ibnetdiscover(fabric, &lids.value()));
}

void add_fabric_options(CLI::App& app, IbOptions& o, std::string& spec_path, bool positional_spec) {
  // --catalog belongs to `ib` (main.cpp); it may follow the subcommand's own options.
  app.fallthrough();
  if (positional_spec) app.add_option("spec", spec_path, "Cluster spec (YAML)");
  else app.add_option("--spec", spec_path, "Cluster spec (YAML)");
  app.add_option("--ibnetdiscover", o.ibnetdiscover_path, "Read the fabric from ibnetdiscover output (or an ibsim net file)");
  app.add_option("--plane", o.plane, "Backend plane of the spec to model (an IB subnet is one plane)")->capture_default_str();
  app.add_option("--fail", o.failures, "Remove cables: NODE:PORT, NODE,NODE (all cables between) or NODE (all its cables)");
  add_output_option(app, o.output);
}

void add_engine_options(CLI::App& app, IbOptions& o) {
  app.add_option("--engine", o.engine, "Routing engine")
      ->check(CLI::IsMember({"ftree", "updn", "minhop"}))
      ->capture_default_str();
  app.add_option("--lmc", o.lmc, "LID Mask Control: 2^LMC LIDs per CA port")->check(CLI::Range(0, 7))->capture_default_str();
  app.add_option("--roots", o.roots_path, "Root switches, one node id/description/GUID per line (OpenSM -a)");
  app.add_option("--cn", o.cn_path, "Compute-node CAs for ftree, one per line (OpenSM -u)");
  app.add_option("--threads", o.threads, "Threads for routing (results do not depend on it; 0 = all cores)");
}

}  // namespace

Runner setup_ib(CLI::App& app, Context& context) {
  auto o = std::make_shared<IbOptions>();
  app.require_subcommand(1);
  CLI::App* route = app.add_subcommand("route", "Assign LIDs, route with an OpenSM engine, check and print the result");
  add_fabric_options(*route, *o, context.spec_path, true);
  add_engine_options(*route, *o);
  route->add_option("--lft", o->lft_path, "Write the LFTs in dump_fts format to this file");
  route->add_option("--check-lft", o->lft_in,
                    "Check these LFTs (dump_fts output or OpenSM's opensm-lfts.dump) instead of routing");
  route->add_option("--shifts", o->shifts, "Shift permutations to evaluate")->capture_default_str();
  route->add_option("--random", o->random, "Random permutations to evaluate")->capture_default_str();
  route->add_option("--seed", o->seed, "Seed of the random permutations")->capture_default_str();
  route->add_flag("--switch-lids", o->switch_lids, "Also check routes to switch LIDs (management traffic)");
  CLI::App* trace = app.add_subcommand("trace", "Print the hop-by-hop path from SRC to DST, like ibtracert");
  trace->add_option("src", o->source, "Source CA: NODE or NODE:PORT")->required();
  trace->add_option("dst", o->destination, "Destination: a node, or a LID")->required();
  add_fabric_options(*trace, *o, context.spec_path, false);
  add_engine_options(*trace, *o);
  CLI::App* exp = app.add_subcommand("export", "Write the fabric in ibnetdiscover format (an ibsim net file)");
  add_fabric_options(*exp, *o, context.spec_path, true);
  exp->add_flag("--lids", o->with_lids, "Annotate the LIDs our assignment gives (ibsim then presets them)");
  exp->add_option("--lmc", o->lmc, "LMC for --lids")->check(CLI::Range(0, 7));
  return [o, route, trace, exp](const Context& c) {
    if (route->parsed()) return run_route(*o, c);
    if (trace->parsed()) return run_trace(*o, c);
    if (exp->parsed()) return run_export(*o, c);
    return kExitUsage;
  };
}

}  // namespace ct::cli
