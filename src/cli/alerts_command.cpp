// clustertwin alerts SPEC [--map FILE] [--for 10m] [--window 5m] [--source node_exporter|snmp|gnmic]
//                         [--flows-per-member K] [--json] [-o FILE] [--catalog DIR]
// Prometheus alerting and recording rules for the fabric's ECMP uplink groups (diagnose/alert_rules.h),
// as a rule file `promtool check rules` accepts (report/alert_rules_yaml.h). The members are named
// as the port map names them; without --map, as `clustertwin lab` names its interfaces.
#include <memory>
#include <string>

#include "cli/choice_option.h"
#include "cli/command.h"
#include "diagnose/alert_rules.h"
#include "io/files.h"
#include "lab/lab_plan.h"
#include "report/alert_rules_yaml.h"

namespace ct::cli {
namespace {

struct AlertsCliOptions {
  std::string output;
  bool json = false;
  std::string map;
  std::string for_text = "10m";
  std::string window_text = "5m";
  std::string source = "node_exporter";
  std::uint64_t flows_per_member = 4;
};

// The port map: the file given, else the lab's own.
Result<PortMap> alert_port_map(const AlertsCliOptions& o, const Fabric& fabric) {
  if (!o.map.empty()) {
    auto source = FileTextSource::open(o.map, "a port map");  // read as it is parsed, never whole
    if (!source) return source.errors();
    return read_port_map_csv(*source.value(), o.map, fabric.names());
  }
  auto plan = plan_lab(fabric, "ct");
  if (!plan) {
    Diagnostics errors = plan.errors();
    errors.push_back(flag_error("--map", "without --map the members are named as `clustertwin lab` names them, and this fabric "
                                         "cannot be a lab (above): give the port map CSV"));
    return errors;
  }
  return read_port_map_csv(lab_port_map(plan.value(), fabric.topology()), "(the lab's port map)", fabric.names());
}

int run_alerts(const AlertsCliOptions& o, const Context& context) {
  AlertOptions model;
  const auto source = parse_alert_source(o.source);  // a member: checked by add_choice_option
  const auto for_s = parse_prometheus_duration(o.for_text);
  const auto window_s = parse_prometheus_duration(o.window_text);
  // Values that are not durations: bad input (exit 1), as every bad value (cli/command.h).
  if (!for_s) return report_errors({flag_error("--for", "'" + o.for_text + "' is not a Prometheus duration such as 10m, 90s or 1h")});
  if (!window_s || *window_s == 0) {
    return report_errors({flag_error("--window", "'" + o.window_text + "' is not a Prometheus duration above 0 such as 5m")});
  }
  model.source = source.value();
  model.for_s = *for_s;
  model.window_s = *window_s;
  model.flows_per_member = static_cast<std::uint32_t>(o.flows_per_member);
  model.spec_path = context.spec_path;
  model.map_path = o.map;
  auto map = alert_port_map(o, *context.fabric);
  if (!map) return report_errors(map.errors());
  const AlertPlan plan = plan_alerts(*context.fabric, map.value(), model);
  const std::string& name = context.spec->name;
  return emit(o.output, o.json ? alert_rules_json(plan, name) : alert_rules_yaml(plan, name));
}

}  // namespace

Runner setup_alerts(CLI::App& app, Context& context) {
  auto options = std::make_shared<AlertsCliOptions>();
  app.add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
  app.add_option("--map", options->map, "Port map CSV: instance,device,vertex,peer[,cable] (default: the lab's interface names)");
  app.add_option("--for", options->for_text, "How long a condition holds before the alert fires (Prometheus duration)");
  app.add_option("--window", options->window_text, "rate()'s range (Prometheus duration)");
  add_choice_option(app, "--source", options->source, alert_source_names(), "Counter names: node_exporter, snmp (if_mib) or gnmic")
      ->capture_default_str();
  add_unsigned_option(app, "--flows-per-member", options->flows_per_member,
                      "Elephant flows per member for the bad-luck thresholds (share, Jain)", 1, 64);
  app.add_flag("--json", options->json, "Print the groups, thresholds and rules as JSON");
  add_output_option(app, options->output);
  return [options](const Context& c) { return run_alerts(*options, c); };
}

}  // namespace ct::cli
