// clustertwin hash SPEC [FLOWS] [--elephants K] [--from PORTS] [--to PORTS] [--ring] [--channels C]
//                      [--qps Q] [--trials N] [--seed S] [--threads T] [--compare] [--compare-qps Q]
//                      [--fail LINK]... [--fib SWITCH]... [--max-listed N] [--json] [--progress] [--quiet]
//                      [--catalog DIR] [-o FILE] [--html FILE]
// ECMP on the built fabric: each flow's path, loads, collisions and why, Monte Carlo over source
// ports beside the closed forms, and alternatives to per-flow hashing on the same flows
// (analysis/hash_study.h; report/hash_report.h).
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "analysis/hash_study.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "io/files.h"
#include "report/hash_html.h"
#include "report/hash_json.h"
#include "report/hash_report.h"
#include "core/units.h"

namespace ct::cli {
namespace {

struct HashOptions {
  HashStudyOptions study;
  std::string output;
  std::string html;
  std::string flows_path;
  std::string size;
  HashReportOptions report;
  std::uint64_t max_listed = 64;
  bool json = false;
  ProgressFlags progress;
};

// Generated elephants: the decision-coupling estimate walks every flow at least 32 times within a
// budget of 2^20 walks (analysis/hash_study.h), so 2^15 flows is where its sampling would fall
// below its floor; beyond, runs take tens of seconds to say nothing more.
constexpr int kMaxElephants = 1 << 15;

int run_hash(const HashOptions& o, const Context& context) {
  if (auto w = protocol_mismatch(*context.fabric, Protocol::kEthernet, "clustertwin hash", Severity::kWarning)) {
    std::cerr << format_diagnostic(*w) << "\n";
  }
  HashStudyOptions study = o.study;
  if (study.elephants > kMaxElephants) {
    return report_errors({flag_error(
        "--elephants", fmt::format("{} is above the limit of {}: the decision-coupling estimate walks each flow at least "
                                   "32 times within 2^20 walks; give the flows in a FLOWS file to study more",
                                   study.elephants, kMaxElephants))});
  }
  if (!o.size.empty()) {
    auto parsed = parse_size(o.size);
    if (!parsed) return report_errors({flag_error("--size", parsed.errors().front().message)});
    study.size = parsed.value();
  }
  if (!o.flows_path.empty()) {
    auto text = read_text_file(o.flows_path, "a flow file");
    if (!text) return report_errors(text.errors());
    study.flows_text = std::move(text).value();
    study.flows_file = o.flows_path;
  }
  ProgressReporter progress("hash", "trials", o.progress);
  study.progress = progress.callback();
  auto result = study_hash(*context.fabric, study);
  progress.finish();
  if (!result) return report_errors(result.errors());
  HashReportOptions report = o.report;
  report.max_listed = o.max_listed;
  return emit_report(o.output, o.json ? hash_json(result.value()) : hash_report(result.value(), report), o.html,
                     [&] { return hash_html(result.value(), report, context.command_line); });
}

}  // namespace

Runner setup_hash(CLI::App& app, Context& context) {
  auto o = std::make_shared<HashOptions>();
  HashStudyOptions& s = o->study;
  s.where = command_line();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML); its routing: block sets the hash")->required();
  app.add_option("flows", o->flows_path, "Explicit flows, YAML or CSV (default: generated elephant flows)");
  app.add_option("--elephants", s.elephants, "Number of generated elephant flows")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--from", s.from, "Source ports of the elephants, e.g. host0/nic0,host1/nic0 (default: the first leaf's)")
      ->delimiter(',');
  app.add_option("--to", s.to, "Destination ports of the elephants (default: the farthest leaf's)")->delimiter(',');
  app.add_flag("--ring", s.ring, "Flows of a ring collective: host h to h+1 on every rail and plane");
  app.add_option("--channels", s.channels, "Ring channels (connections per ring neighbour)")->check(CLI::Range(1, 64))->capture_default_str();
  app.add_option("--qps", s.qps, "QPs per ring connection (default: routing.qps_per_connection)")->check(CLI::Range(1, 1024));
  app.add_option("--size", o->size, "Bytes per generated flow, e.g. 1GiB (for completion times)");
  app.add_option("--bursts", s.bursts, "Bursts per generated flow (flowlet scheme)")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--idle-us", s.idle_us, "Idle gap between bursts, microseconds")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--trials", s.trials, "Monte Carlo trials over fresh source ports (0: none)")
      ->check(CLI::Range(0, 10'000'000))
      ->capture_default_str();
  add_seed_option(app, s.seed, "Seed of generated ports and of the trials");
  add_threads_option(app, s.threads, "Threads for the trials (the result does not depend on it)");
  app.add_flag("--compare", s.compare, "Compare hash, spray, flowlet, adaptive, more QPs and plane split");
  app.add_option("--compare-qps", s.compare_qps, "QPs per connection in the more-qps row")->check(CLI::Range(1, 1024))->capture_default_str();
  app.add_option("--fail", s.fail, "Failed link: an id or 'a -- b' (every parallel cable); repeatable");
  app.add_option("--fib", s.fib, "Print the whole forwarding table of a switch, e.g. p0/spine/0; repeatable");
  add_unsigned_option(app, "--max-listed", o->max_listed, "Paths, links, groups and collisions listed at most", 0,
                      1'000'000'000);
  app.add_flag("--json", o->json, "JSON (stable key order, every flow and number unrounded) instead of tables");
  add_progress_options(app, o->progress);
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_hash(*o, c); };
}

}  // namespace ct::cli
