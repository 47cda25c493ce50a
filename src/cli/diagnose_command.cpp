// clustertwin diagnose SPEC --counters FILES|INSTANCE=FILE|INSTANCE,DEVICE=FILE... [--interval S] [--map FILE]
//                          [--lldp [INSTANCE@]VERTEX=FILE...] [--flows FILES...] [--threshold F] [--json]
//                          [--for 10m] [--window 5m] [-o FILE] [--html FILE] [--catalog DIR]
// clustertwin diagnose SPEC --prometheus URL --from T1 --to T2 [--prometheus-raw] [--prometheus-token-file F |
//                          --prometheus-basic-auth-file F] [--prometheus-ca F] [--prometheus-timeout S] [the rest as above]
// Diagnoses a running fabric from its interface counters against the model (diagnose/diagnosis.h):
// rates per link and ECMP group, the imbalanced groups with their four witnesses, the cause, why
// the dashboards stayed green, and the fix. Warnings (missing series, wraps, resets) on stderr.
// With --prometheus the counters come from a live server's HTTP API (diagnose/prometheus_source.h).
// --html FILE: the page with the groups' members side by side (report/diagnose_html.h).
// --for, --window: the rules of `clustertwin alerts` evaluated on the scrapes (the alert that would
// have fired, diagnose/alert_rules.h).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/prometheus_flags.h"
#include "diagnose/counter_inputs.h"
#include "io/files.h"
#include "report/diagnose_html.h"
#include "report/diagnose_report.h"

namespace ct::cli {
namespace {

struct DiagnoseCliOptions {
  std::string output;
  std::string html;
  bool json = false;
  std::vector<std::string> counters;
  std::vector<std::string> flows;
  std::string map;
  std::vector<std::string> lldp;
  double interval_s = 0;
  PrometheusFlags prometheus;
  std::string for_text = "10m";
  std::string window_text = "5m";
  DiagnoseOptions model;
};

Result<TextInput> read_input(const std::string& path, std::string_view what) {
  auto text = read_text_file(path, what);
  if (!text) return text.errors();
  return TextInput{path, std::move(text).value(), nullptr};
}

// A scrape, a flow results file or a port map is read a piece at a time as it is parsed
// (io/files.h): a large one is never held whole.
Result<TextInput> open_input(const std::string& path, std::string_view what) {
  auto source = FileTextSource::open(path, what);
  if (!source) return source.errors();
  return TextInput{path, "", std::shared_ptr<TextSource>(std::move(source).value())};
}

int run_diagnose(const DiagnoseCliOptions& cli_options, const Context& context) {
  DiagnoseCliOptions options = cli_options;
  if (options.counters.empty() == options.prometheus.url.empty()) {
    return report_usage("diagnose: give the counters as saved scrapes (--counters) or a live server (--prometheus), one of the two");
  }
  if (const std::string usage = prometheus_usage_error(options.prometheus); !usage.empty()) return report_usage(usage);
  const auto for_s = parse_prometheus_duration(options.for_text);
  const auto window_s = parse_prometheus_duration(options.window_text);
  // Values that are not durations: bad input (exit 1), as every bad value (cli/command.h).
  if (!for_s) return report_errors({flag_error("--for", "'" + options.for_text + "' is not a Prometheus duration such as 10m, 90s or 1h")});
  if (!window_s || *window_s == 0) {
    return report_errors({flag_error("--window", "'" + options.window_text + "' is not a Prometheus duration above 0 such as 5m")});
  }
  options.model.alerts.for_s = *for_s;
  options.model.alerts.window_s = *window_s;
  const Fabric& fabric = *context.fabric;
  CounterInputs inputs;
  inputs.interval_s = options.interval_s;
  Diagnostics errors;
  auto take = [&](const std::string& path, std::string_view what, auto&& store, bool stream = false) {
    auto in = stream ? open_input(path, what) : read_input(path, what);
    if (!in) {
      errors.insert(errors.end(), in.errors().begin(), in.errors().end());
    } else {
      store(std::move(in).value());
    }
  };
  for (const auto& arg : options.counters) {
    const auto [instance, file] = host_and_file(arg);
    take(file, "a counter scrape", [&](TextInput t) {
      inputs.instances.resize(inputs.scrapes.size());
      inputs.instances.push_back(instance);
      inputs.scrapes.push_back(std::move(t));
    }, true);
  }
  for (const auto& p : options.flows) take(p, "a flow result file", [&](TextInput t) { inputs.flows.push_back(std::move(t)); }, true);
  if (!options.map.empty()) take(options.map, "a port map", [&](TextInput t) { inputs.map = std::move(t); }, true);
  for (const auto& arg : options.lldp) {
    const std::size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      report_errors({flag_error("--lldp", "'" + arg + "': give the device lldpctl ran on, as [INSTANCE@]VERTEX=FILE")});
      return kExitUsage;
    }
    take(arg.substr(eq + 1), "lldpctl -f json output", [&](TextInput t) {
      inputs.lldp_devices.push_back(arg.substr(0, eq));
      inputs.lldp.push_back(std::move(t));
    });
  }
  if (!errors.empty()) return report_errors(errors);
  if (!options.prometheus.url.empty()) {
    auto rates = read_prometheus_counters(options.prometheus, rate_options_for(fabric));
    if (!rates) return report_errors(rates.errors());
    inputs.measured = std::move(rates).value();
  }
  auto counters = read_counter_inputs(inputs, fabric);
  if (!counters) return report_errors(counters.errors());
  auto diagnosis = diagnose(fabric, counters.value(), options.model);
  if (!diagnosis) return report_errors(diagnosis.errors());
  for (const Diagnostic& w : diagnosis->warnings) std::cerr << format_diagnostic(w) << "\n";
  const Topology& t = fabric.topology();
  return emit_report(options.output, options.json ? to_json(diagnosis.value(), fabric.names()) : to_text(diagnosis.value(), t),
                     options.html,
                     [&] { return diagnose_html(diagnosis.value(), t, context.spec->name, context.command_line); });
}

}  // namespace

Runner setup_diagnose(CLI::App& app, Context& context) {
  auto options = std::make_shared<DiagnoseCliOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_option("--counters", options->counters,
                 "Scrapes, two or more: Prometheus text (HOST=FILE where it names no instance), gnmic JSON, INSTANCE=FILE for snmpwalk output, "
                 "INSTANCE,DEVICE=FILE for ethtool -S output")
      ->expected(1, -1);
  add_prometheus_flags(app, options->prometheus);
  app.add_option("--interval", options->interval_s, "Seconds between one host's scrapes without timestamps (each host's files in time order)")
      ->check(CLI::Range(0.001, 1e7));
  app.add_option("--map", options->map, "Port map CSV: instance,device,vertex,peer[,cable]");
  app.add_option("--lldp", options->lldp, "LLDP neighbours as a port map: [INSTANCE@]VERTEX=FILE (lldpctl -f json)")
      ->expected(1, -1);
  app.add_option("--flows", options->flows, "Flow results: iperf3 --json, perftest (ib_write_bw) text or a flows CSV")
      ->expected(1, -1);
  app.add_option("--threshold", options->model.alarm_threshold, "The dashboards' utilization alarm (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--for", options->for_text, "The alert rules' for: (Prometheus duration), for the alert that would have fired");
  app.add_option("--window", options->window_text, "The alert rules' rate() range (Prometheus duration)");
  app.add_flag("--json", options->json, "Print JSON (stable key order) instead of tables");
  add_output_option(app, options->output);
  add_html_option(app, options->html);
  return [options](const Context& c) { return run_diagnose(*options, c); };
}

}  // namespace ct::cli
