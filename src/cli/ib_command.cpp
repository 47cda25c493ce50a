// clustertwin ib route|trace|export: the InfiniBand subnet manager model (src/ib/).
//
//   ib route  SPEC|--ibnetdiscover FILE [--engine ftree|updn|minhop] [--lmc N] [--roots FILE]
//             [--cn FILE] [--fail LINK]... [--lft FILE] [--shifts N] [--random N] [--seed N]
//             [--progress] [--quiet]
//       Assigns LIDs, routes, prints reachability, credit loops, uplink balance and permutation
//       loads; --lft writes the LFTs as dump_fts prints them; --html FILE the page with plots
//       (report/ib_html.h). With --fail, the same again after
//       removing those cables (and --lft writes the tables of the degraded fabric); a cable is
//       named as every command names a link ("A -- B", a link id) or as NODE,NODE, NODE:PORT,
//       NODE. A --fail that names no cable, or a degraded fabric the engine refuses, is an error
//       before any output.
//       --check-lft DUMP checks another SM's tables (dump_fts or opensm-lfts.dump) instead of
//       routing; with --fail, the same tables on the degraded fabric (before any rerouting).
//   ib trace  SRC DST [same fabric and engine options]
//       The hop-by-hop path from CA SRC (NODE or NODE:PORT) to DST (a node, or a LID), like
//       ibtracert; with --fail, before and after.
//   ib export SPEC|--ibnetdiscover FILE [--lids] [--lmc N] [-o FILE]
//       The fabric in ibnetdiscover format (an ibsim net file).
// Every subcommand takes --json (report/ib_json.h: the same numbers as the text). Outputs (-o and
// --lft) are committed together at the end, or none (io/output_set.h).
// Each subcommand is one library call (io/ib_requests.h: the files the options name are read there,
// and node names are cluster names on a spec's fabric, ib/cluster_names.h) and its report a pure
// function (report/ib_report.h); this file parses the options and prints.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/choice_option.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "ib/ib_routing.h"
#include "ib/ibnetdiscover.h"
#include "io/ib_requests.h"
#include "report/ib_html.h"
#include "report/ib_json.h"
#include "report/ib_report.h"

namespace ct::cli {
namespace {

// Permutations evaluated per kind: each is one all-pairs load count, so a million already takes
// minutes on a large fabric.
constexpr std::uint64_t kMaxPermutations = 1'000'000;

struct IbOptions {
  IbRequest request;  // spec_path is the context's
  std::string engine = "ftree";
  std::string output;
  bool json = false;
  std::string html;      // route
  std::string lft_path;  // route: write the LFTs
  ProgressFlags progress;
  bool with_lids = false;  // export
};

// The request with what the context holds: the spec's path, and the engine the option names.
IbRequest request_of(const IbOptions& o, const Context& context) {
  IbRequest r = o.request;
  r.spec_path = context.spec_path;
  r.engine = ib_engine_named(o.engine).value();  // checked against ib_engine_names()
  r.where = command_line();
  return r;
}

// The spec's built fabric, or null with --ibnetdiscover.
const Fabric* spec_fabric(const Context& context) { return context.fabric ? &*context.fabric : nullptr; }

// The degraded fabric failed (e.g. ftree refuses it): the run failed, so it prints the errors
// alone (exit 1), never half a report, and writes no file. The errors say the healthy fabric routed.
int fail_after(const Diagnostics& errors, std::size_t removed) {
  Diagnostics out = errors;
  for (Diagnostic& d : out) {
    d.message = fmt::format("after removing {} cable(s) (--fail; the intact fabric routed): {}", removed, d.message);
  }
  return report_errors(out);
}

// One fabric source, SPEC or --ibnetdiscover FILE, is a usage rule: exit 2 before anything loads.
bool one_fabric_source(const IbOptions& o, const Context& context) {
  return context.spec_path.empty() != o.request.ibnetdiscover_path.empty();
}

int run_route(const IbOptions& o, const Context& context) {
  ProgressReporter progress("ib route", "steps", o.progress);
  auto study = run_ib_route(request_of(o, context), spec_fabric(context), progress.callback());
  progress.finish();
  if (!study) return report_errors(study.errors());
  const IbRouteStudy& s = study.value();
  if (!s.degraded_errors.empty()) return fail_after(s.degraded_errors, s.removed);
  const std::string out = o.json ? ib_route_json(s) : ib_route_report(s);
  OutputSet outputs;
  if (!o.lft_path.empty()) {
    const IbRoutedFabric& last = s.degraded ? *s.degraded : s.healthy;
    outputs.stage(o.lft_path, write_lft_dump(last.fabric, last.routing), "--lft");
  }
  return emit_report(outputs, o.output, out, o.html, [&] { return ib_route_html(s, context.command_line); });
}

int run_trace(const IbOptions& o, const Context& context) {
  auto study = run_ib_trace(request_of(o, context), spec_fabric(context));
  if (!study) return report_errors(study.errors());
  if (!study->degraded_errors.empty()) return fail_after(study->degraded_errors, study->removed);
  return emit(o.output, o.json ? ib_trace_json(study.value()) : ib_trace_report(study.value()));
}

int run_export(const IbOptions& o, const Context& context) {
  auto exported = run_ib_export(request_of(o, context), spec_fabric(context), o.with_lids);
  if (!exported) return report_errors(exported.errors());
  const IbExport& e = exported.value();
  const LidAssignment* lids = e.lids ? &*e.lids : nullptr;
  const std::string net = write_ibnetdiscover(e.fabric, lids);
  return emit(o.output, o.json ? ib_export_json(e.fabric, lids, net) : net);
}

void add_fabric_options(CLI::App& app, IbOptions& o, std::string& spec_path, bool positional_spec) {
  // --catalog belongs to `ib` (main.cpp); it may follow the subcommand's own options.
  app.fallthrough();
  if (positional_spec) app.add_option("spec", spec_path, "Cluster spec (YAML)");
  else app.add_option("--spec", spec_path, "Cluster spec (YAML)");
  app.add_option("--ibnetdiscover", o.request.ibnetdiscover_path, "Read the fabric from ibnetdiscover output (or an ibsim net file)");
  app.add_option("--plane", o.request.plane, "Backend plane of the spec to model (an IB subnet is one plane)")->capture_default_str();
  app.add_option("--fail", o.request.failures, "Remove cables: 'A -- B' or a link id (as hash and simulate take them), NODE,NODE (all cables between), NODE:PORT or NODE (all its cables)");
  app.add_flag("--json", o.json, "JSON (stable key order) instead of text");
  add_output_option(app, o.output);
}

void add_engine_options(CLI::App& app, IbOptions& o) {
  add_choice_option(app, "--engine", o.engine, ib_engine_names(), "Routing engine")->capture_default_str();
  app.add_option("--lmc", o.request.lmc, "LID Mask Control: 2^LMC LIDs per CA port")->check(CLI::Range(0, 7))->capture_default_str();
  app.add_option("--roots", o.request.roots_path, "Root switches, one node id/description/GUID per line (OpenSM -a)");
  app.add_option("--cn", o.request.cn_path, "Compute-node CAs for ftree, one per line (OpenSM -u)");
  add_threads_option(app, o.request.threads, "Threads for routing (results do not depend on it)");
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
  route->add_option("--check-lft", o->request.lft_in,
                    "Check these LFTs (dump_fts output or OpenSM's opensm-lfts.dump) instead of routing");
  add_unsigned_option(*route, "--shifts", o->request.shifts, "Shift permutations to evaluate", 0, kMaxPermutations);
  add_unsigned_option(*route, "--random", o->request.random, "Random permutations to evaluate", 0, kMaxPermutations);
  add_seed_option(*route, o->request.seed, "Seed of the random permutations");
  route->add_flag("--switch-lids", o->request.switch_lids, "Also check routes to switch LIDs (management traffic)");
  add_progress_options(*route, o->progress);
  CLI::App* trace = app.add_subcommand("trace", "Print the hop-by-hop path from SRC to DST, like ibtracert");
  trace->add_option("src", o->request.source, "Source CA: NODE or NODE:PORT")->required();
  trace->add_option("dst", o->request.destination, "Destination: a node, or a LID")->required();
  add_fabric_options(*trace, *o, context.spec_path, false);
  add_engine_options(*trace, *o);
  CLI::App* exp = app.add_subcommand("export", "Write the fabric in ibnetdiscover format (an ibsim net file)");
  add_fabric_options(*exp, *o, context.spec_path, true);
  exp->add_flag("--lids", o->with_lids, "Annotate the LIDs our assignment gives (ibsim then presets them)");
  exp->add_option("--lmc", o->request.lmc, "LMC for --lids")->check(CLI::Range(0, 7));
  return [o, route, trace, exp](const Context& c) {
    if (!one_fabric_source(*o, c)) return report_usage("give either a cluster SPEC or --ibnetdiscover FILE");
    if (route->parsed()) return run_route(*o, c);
    if (trace->parsed()) return run_trace(*o, c);
    if (exp->parsed()) return run_export(*o, c);
    return kExitUsage;
  };
}

}  // namespace ct::cli
