// clustertwin traffic [SPEC] --ss FILE [LATER_FILE] | --conntrack FILE [--counters FILES...] [--interval S]
//                     [--elephant-bytes N] [--width N] [--json] [-o FILE] [--html FILE]
// What the traffic really is, from a host's connection tables (diagnose/connection_table.h):
// connections, bytes, mice and elephants, top-flow shares, and what that means for ECMP at the
// fabric's width (the SPEC's widest leaf up group, or --width). --html FILE: the page with the
// size distribution, the top connections' shares and the birthday curve (report/traffic_html.h).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "diagnose/connection_table.h"
#include "diagnose/counter_inputs.h"
#include "io/files.h"
#include "report/connection_report.h"
#include "report/traffic_html.h"

namespace ct::cli {
namespace {

struct TrafficCliOptions {
  std::string output;
  std::string html;
  bool json = false;
  std::vector<std::string> ss;
  std::string conntrack;
  std::vector<std::string> counters;
  double interval_s = 0;
  TrafficOptions model;
};

std::uint32_t leaf_width(const Fabric& f) {
  std::uint32_t width = 0;
  const Topology& t = f.topology();
  const ForwardingState& fs = f.forwarding();
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend || t.tier[v] != 1) continue;
    for (std::uint32_t g = fs.first_group(VertexId(v)); g < fs.first_group(VertexId(v)) + fs.group_count(VertexId(v)); ++g) {
      if (fs.kind(g) == GroupKind::kUp) width = std::max(width, fs.size(g));
    }
  }
  return width;
}

// One connection table, read a piece at a time as it is parsed (io/files.h).
Result<std::vector<Connection>> read_connections(const std::string& path, bool ss) {
  auto source = FileTextSource::open(path, ss ? "ss -tin output" : "conntrack -L output");
  if (!source) return source.errors();
  return ss ? read_ss(*source.value(), path) : read_conntrack(*source.value(), path);
}

// The connection table (the later of two ss captures, with its rates over their interval).
Result<std::vector<Connection>> read_table(const TrafficCliOptions& o, TrafficOptions& options) {
  auto connections = read_connections(o.ss.empty() ? o.conntrack : o.ss.back(), !o.ss.empty());
  if (!connections || o.ss.size() < 2) return connections;
  if (o.interval_s <= 0) return flag_error("--interval", "two ss captures need the seconds between them (--interval)");
  auto earlier = read_connections(o.ss.front(), true);
  if (!earlier) return earlier.errors();
  rates_between(connections.value(), earlier.value(), o.interval_s);
  options.rate_source = RateSource::kCaptureInterval;
  options.capture_seconds = o.interval_s;
  return connections;
}

int run_traffic(const TrafficCliOptions& o, const Context& context) {
  TrafficOptions options = o.model;
  auto connections = read_table(o, options);
  if (!connections) return report_errors(connections.errors());
  options.source = o.ss.empty() ? ConnectionSource::kConntrack : ConnectionSource::kSs;
  if (options.width == 0 && context.fabric) options.width = leaf_width(*context.fabric);
  std::optional<CounterRates> rates;
  if (!o.counters.empty()) {
    CounterInputs inputs;
    inputs.interval_s = o.interval_s;
    Diagnostics errors;
    for (const std::string& arg : o.counters) {
      const auto [host, file] = host_and_file(arg);
      auto in = read_text_file(file, "a counter scrape");
      if (!in) {
        errors.insert(errors.end(), in.errors().begin(), in.errors().end());
        continue;
      }
      inputs.instances.push_back(host);
      inputs.scrapes.push_back(TextInput{file, std::move(in).value()});
    }
    if (!errors.empty()) return report_errors(errors);
    auto scrapes = read_scrapes(inputs);
    if (!scrapes) return report_errors(scrapes.errors());
    auto r = compute_rates(scrapes.value(), RateOptions{});
    if (!r) return report_errors(r.errors());
    rates = std::move(r).value();
  }
  const TrafficSummary summary = summarize_traffic(connections.value(), rates ? &*rates : nullptr, options);
  const std::string source = o.ss.empty() ? "conntrack -L output " + o.conntrack : "ss -tin output " + o.ss.back();
  return emit_report(o.output, o.json ? to_json(summary, options) : to_text(summary, options), o.html,
                     [&] { return traffic_html(summary, options, source, context.command_line); });
}

}  // namespace

Runner setup_traffic(CLI::App& app, Context& context) {
  auto o = std::make_shared<TrafficCliOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML), for the fabric's ECMP width");
  auto* ss = app.add_option("--ss", o->ss,
                            "`ss -tin` output (with or without -H, -p, a state filter); two captures, --interval apart, "
                            "give each connection its bytes over the interval as its rate")
                 ->expected(1, 2);
  auto* ct = app.add_option("--conntrack", o->conntrack, "`conntrack -L` output");
  ss->excludes(ct);
  app.add_option("--counters", o->counters, "Prometheus text scrapes of the hosts' NIC counters, FILE or HOST=FILE")
      ->expected(1, -1);
  app.add_option("--interval", o->interval_s, "Seconds between scrapes without timestamps, and between two --ss captures")
      ->check(CLI::Range(0.001, 1e7));
  app.add_option("--elephant-bytes", o->model.elephant_bytes, "Elephant threshold in bytes (default 10,000,000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));
  app.add_option("--width", o->model.width, "ECMP members per leaf up group (default: from the SPEC)")
      ->check(CLI::Range(1u, 1u << 20));
  app.add_flag("--json", o->json, "Print JSON (stable key order) instead of tables");
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  app.callback([o]() {
    if (o->ss.empty() && o->conntrack.empty()) throw CLI::RequiredError("--ss or --conntrack");
  });
  return [o](const Context& c) { return run_traffic(*o, c); };
}

}  // namespace ct::cli
