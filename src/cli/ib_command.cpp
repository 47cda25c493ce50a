// clustertwin ib route|trace|export: the InfiniBand subnet manager model (src/ib/).
//
//   ib route  SPEC|--ibnetdiscover FILE [--engine ftree|updn|minhop] [--lmc N] [--roots FILE]
//             [--cn FILE] [--fail LINK]... [--lft FILE] [--shifts N] [--random N] [--seed N]
//             [--progress] [--quiet]
//       Assigns LIDs, routes, prints reachability, credit loops, uplink balance and permutation
//       loads; --lft writes the LFTs as dump_fts prints them; --html FILE the page with plots
//       (report/ib_html.h). With --fail, the same again after
//       removing those cables (and --lft writes the tables of the degraded fabric).
//       --check-lft DUMP checks another SM's tables (dump_fts or opensm-lfts.dump) instead of
//       routing; with --fail, the same tables on the degraded fabric (before any rerouting).
//   ib trace  SRC DST [same fabric and engine options]
//       The hop-by-hop path from CA SRC (NODE or NODE:PORT) to DST (a node, or a LID), like
//       ibtracert; with --fail, before and after.
//   ib export SPEC|--ibnetdiscover FILE [--lids] [--lmc N] [-o FILE]
//       The fabric in ibnetdiscover format (an ibsim net file).
// Every subcommand takes --json (report/ib_json.h: the same numbers as the text). Outputs (-o and
// --lft) are committed together at the end, or none (io/output_set.h).
// The studies are library calls (ib/ib_study.h) and their reports pure functions
// (report/ib_report.h); this file reads the files the options name and prints.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/progress.h"
#include "ib/fabric_edits.h"
#include "ib/ib_study.h"
#include "ib/ibnetdiscover.h"
#include "ib/lft_dump.h"
#include "ib/topology_to_ib.h"
#include "io/files.h"
#include "report/ib_html.h"
#include "report/ib_json.h"
#include "report/ib_report.h"

namespace ct::cli {
namespace {

// Permutations evaluated per kind: each is one all-pairs load count, so a million already takes
// minutes on a large fabric.
constexpr std::uint64_t kMaxPermutations = 1'000'000;

struct IbOptions {
  std::string output;
  std::string ibnetdiscover_path;
  int plane = 0;
  std::string engine = "ftree";
  int lmc = 0;
  std::string roots_path;
  std::string cn_path;
  std::vector<std::string> failures;
  unsigned threads = 0;
  bool json = false;
  // route
  std::string html;
  std::string lft_path;
  std::string lft_in;  // check these LFTs instead of routing
  std::uint64_t shifts = 64;
  std::uint64_t random = 16;
  std::uint64_t seed = 1;
  bool switch_lids = false;
  ProgressFlags progress;
  // trace
  std::string source;
  std::string destination;
  // export
  bool with_lids = false;
};

// The subnet: one plane of the spec's fabric, or an ibnetdiscover file.
Result<IbSubnet> load_subnet(const IbOptions& o, const Context& context) {
  if (!o.ibnetdiscover_path.empty()) {
    auto text = read_text_file(o.ibnetdiscover_path);
    if (!text) return text.errors();
    auto fabric = parse_ibnetdiscover(text.value(), o.ibnetdiscover_path);
    if (!fabric) return fabric.errors();
    return IbSubnet{std::move(fabric).value(), o.ibnetdiscover_path, o.ibnetdiscover_path};
  }
  if (auto wrong = protocol_mismatch(*context.fabric, Protocol::kInfiniband, "clustertwin ib", Severity::kError)) {
    return *wrong;
  }
  auto fabric = fabric_from_topology(context.fabric->topology(), o.plane, context.spec_path);
  if (!fabric) return fabric.errors();
  return IbSubnet{std::move(fabric).value(), fmt::format("plane {} of {}", o.plane, context.spec_path), context.spec_path};
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
  r.threads = static_cast<int>(o.threads);
  auto roots = load_node_list(fabric, o.roots_path, IbNodeType::kSwitch);
  if (!roots) return roots.errors();
  r.roots = std::move(roots).value();
  auto cns = load_node_list(fabric, o.cn_path, IbNodeType::kCa);
  if (!cns) return cns.errors();
  r.compute_nodes = std::move(cns).value();
  return r;
}

// The degraded fabric failed (e.g. ftree refuses it): the report so far goes to stdout, never to
// an -o or --lft file, so a file is written only by a run that exits 0.
int fail_after(const IbOptions& o, const std::string& partial, const Diagnostics& errors) {
  if (o.output.empty() || o.output == "-") emit("", partial);
  return report_errors(errors);
}

// One fabric source, SPEC or --ibnetdiscover FILE, is a usage rule: exit 2 before anything loads.
bool one_fabric_source(const IbOptions& o, const Context& context) {
  return context.spec_path.empty() != o.ibnetdiscover_path.empty();
}

// On a spec's fabric, node names typed by the user are cluster names: a name the IB subnet knows
// (a description, which is the vertex name, a node id or a GUID) is taken as is; any other goes
// through the fabric's name directory ("host3" is host3/nic0, as in every command), which also
// gives the did-you-mean. A port suffix (NODE:PORT) and a destination LID pass through.
Result<std::string> cluster_name(const Context& context, const IbFabric& subnet, const std::string& name,
                                 const char* field, bool lid_allowed) {
  if (!context.fabric || name.empty() || find_node(subnet, name).ok()) return name;
  const bool digits = name.find_first_not_of("0123456789") == std::string::npos;
  if (lid_allowed && digits) return name;
  auto v = context.fabric->names().vertex(name, command_line(), field);
  if (v) return context.fabric->topology().vertex_name(v.value());
  if (const auto colon = name.rfind(':'); !lid_allowed && colon != std::string::npos) {
    auto node = cluster_name(context, subnet, name.substr(0, colon), field, false);
    if (!node) return node.errors();
    return node.value() + name.substr(colon);
  }
  return v.errors();
}

// --fail on a spec's fabric: the node names of NODE, NODE:PORT and NODE,NODE through the same
// directory, so a typo gets its did-you-mean; the cable syntax is the IB model's (fabric_edits.h).
Result<std::vector<std::string>> cluster_failures(const Context& context, const IbFabric& subnet,
                                                  const std::vector<std::string>& failures) {
  std::vector<std::string> out;
  Diagnostics errors;
  for (const std::string& f : failures) {
    const auto comma = f.find(',');
    std::vector<std::string> parts = comma == std::string::npos
                                         ? std::vector<std::string>{f}
                                         : std::vector<std::string>{f.substr(0, comma), f.substr(comma + 1)};
    std::string joined;
    for (const std::string& part : parts) {
      auto name = cluster_name(context, subnet, part, "--fail", false);
      if (!name) {
        errors.insert(errors.end(), name.errors().begin(), name.errors().end());
        continue;
      }
      joined += (joined.empty() ? "" : ",") + name.value();
    }
    out.push_back(joined);
  }
  if (!errors.empty()) return errors;
  return out;
}

int run_route(const IbOptions& o, const Context& context) {
  auto subnet = load_subnet(o, context);
  if (!subnet) return report_errors(subnet.errors());
  IbRouteStudyOptions so;
  auto ro = routing_options(subnet.value().fabric, o);
  if (!ro) return report_errors(ro.errors());
  so.routing = std::move(ro).value();
  if (!o.lft_in.empty()) {
    auto text = read_text_file(o.lft_in);
    if (!text) return report_errors(text.errors());
    auto dump = parse_lft_dump(text.value(), o.lft_in);
    if (!dump) return report_errors(dump.errors());
    so.lfts = std::move(dump).value();
    so.lfts_file = o.lft_in;
  }
  auto failures = cluster_failures(context, subnet.value().fabric, o.failures);
  if (!failures) return report_errors(failures.errors());
  so.failures = std::move(failures).value();
  so.shifts = o.shifts;
  so.random = o.random;
  so.seed = o.seed;
  so.switch_lids = o.switch_lids;
  so.where = command_line();
  ProgressReporter progress("ib route", "steps", o.progress);
  so.progress = progress.callback();
  auto study = study_ib_route(std::move(subnet).value(), so);
  progress.finish();
  if (!study) return report_errors(study.errors());
  const IbRouteStudy& s = study.value();
  const std::string out = o.json ? ib_route_json(s) : ib_route_report(s);
  if (!s.degraded_errors.empty()) return fail_after(o, out, s.degraded_errors);
  OutputSet outputs;
  if (!o.lft_path.empty()) {
    const IbRoutedFabric& last = s.degraded ? *s.degraded : s.healthy;
    outputs.stage(o.lft_path, write_lft_dump(last.fabric, last.routing));
  }
  return emit_report(outputs, o.output, out, o.html, [&] { return ib_route_html(s, context.command_line); });
}

int run_trace(const IbOptions& o, const Context& context) {
  auto subnet = load_subnet(o, context);
  if (!subnet) return report_errors(subnet.errors());
  IbTraceOptions to;
  auto ro = routing_options(subnet.value().fabric, o);
  if (!ro) return report_errors(ro.errors());
  to.routing = std::move(ro).value();
  auto source = cluster_name(context, subnet.value().fabric, o.source, "src", false);
  auto destination = cluster_name(context, subnet.value().fabric, o.destination, "dst", true);
  Diagnostics errors;
  if (!source) errors = source.errors();
  if (!destination) errors.insert(errors.end(), destination.errors().begin(), destination.errors().end());
  if (!errors.empty()) return report_errors(errors);
  to.source = source.value();
  to.destination = destination.value();
  auto failures = cluster_failures(context, subnet.value().fabric, o.failures);
  if (!failures) return report_errors(failures.errors());
  to.failures = std::move(failures).value();
  to.where = command_line();
  auto study = study_ib_trace(std::move(subnet).value(), to);
  if (!study) return report_errors(study.errors());
  const std::string out = o.json ? ib_trace_json(study.value()) : ib_trace_report(study.value());
  if (!study->degraded_errors.empty()) return fail_after(o, out, study->degraded_errors);
  return emit(o.output, out);
}

int run_export(const IbOptions& o, const Context& context) {
  auto subnet = load_subnet(o, context);
  if (!subnet) return report_errors(subnet.errors());
  IbFabric& fabric = subnet.value().fabric;
  if (!o.failures.empty()) {
    auto failures = cluster_failures(context, subnet.value().fabric, o.failures);
    if (!failures) return report_errors(failures.errors());
    auto removed = remove_cables(fabric, failures.value(), command_line());
    if (!removed) return report_errors(removed.errors());
  }
  const auto render = [&](const LidAssignment* lids) {
    const std::string net = write_ibnetdiscover(fabric, lids);
    return o.json ? ib_export_json(fabric, lids, net) : net;
  };
  if (!o.with_lids) return emit(o.output, render(nullptr));
  auto lids = assign_lids(fabric, o.lmc);
  if (!lids) {
    Diagnostics errors = lids.errors();
    for (Diagnostic& d : errors) {
      if (d.where.file.empty()) d.where.file = subnet.value().file;
    }
    return report_errors(errors);
  }
  return emit(o.output, render(&lids.value()));
}

void add_fabric_options(CLI::App& app, IbOptions& o, std::string& spec_path, bool positional_spec) {
  // --catalog belongs to `ib` (main.cpp); it may follow the subcommand's own options.
  app.fallthrough();
  if (positional_spec) app.add_option("spec", spec_path, "Cluster spec (YAML)");
  else app.add_option("--spec", spec_path, "Cluster spec (YAML)");
  app.add_option("--ibnetdiscover", o.ibnetdiscover_path, "Read the fabric from ibnetdiscover output (or an ibsim net file)");
  app.add_option("--plane", o.plane, "Backend plane of the spec to model (an IB subnet is one plane)")->capture_default_str();
  app.add_option("--fail", o.failures, "Remove cables: NODE:PORT, NODE,NODE (all cables between) or NODE (all its cables)");
  app.add_flag("--json", o.json, "JSON (stable key order) instead of text");
  add_output_option(app, o.output);
}

void add_engine_options(CLI::App& app, IbOptions& o) {
  app.add_option("--engine", o.engine, "Routing engine")
      ->check(CLI::IsMember({"ftree", "updn", "minhop"}))
      ->capture_default_str();
  app.add_option("--lmc", o.lmc, "LID Mask Control: 2^LMC LIDs per CA port")->check(CLI::Range(0, 7))->capture_default_str();
  app.add_option("--roots", o.roots_path, "Root switches, one node id/description/GUID per line (OpenSM -a)");
  app.add_option("--cn", o.cn_path, "Compute-node CAs for ftree, one per line (OpenSM -u)");
  add_threads_option(app, o.threads, "Threads for routing (results do not depend on it)");
}

}  // namespace

Runner setup_ib(CLI::App& app, Context& context) {
  auto o = std::make_shared<IbOptions>();
  app.require_subcommand(1);
  CLI::App* route = app.add_subcommand("route", "Assign LIDs, route with an OpenSM engine, check and print the result");
  add_fabric_options(*route, *o, context.spec_path, true);
  add_engine_options(*route, *o);
  route->add_option("--lft", o->lft_path, "Write the LFTs in dump_fts format to this file");
  add_html_option(*route, o->html);
  route->add_option("--check-lft", o->lft_in,
                    "Check these LFTs (dump_fts output or OpenSM's opensm-lfts.dump) instead of routing");
  add_unsigned_option(*route, "--shifts", o->shifts, "Shift permutations to evaluate", 0, kMaxPermutations);
  add_unsigned_option(*route, "--random", o->random, "Random permutations to evaluate", 0, kMaxPermutations);
  add_seed_option(*route, o->seed, "Seed of the random permutations");
  route->add_flag("--switch-lids", o->switch_lids, "Also check routes to switch LIDs (management traffic)");
  add_progress_options(*route, o->progress);
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
    if (!one_fabric_source(*o, c)) return report_usage("give either a cluster SPEC or --ibnetdiscover FILE");
    if (route->parsed()) return run_route(*o, c);
    if (trace->parsed()) return run_trace(*o, c);
    if (exp->parsed()) return run_export(*o, c);
    return kExitUsage;
  };
}

}  // namespace ct::cli
