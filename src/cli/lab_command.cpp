// clustertwin lab up|run|counters|fail|down SPEC [--prefix P] ...
// The spec's small fabric as Linux network namespaces (lab/lab_plan.h, lab/lab_runner.h):
//   up        create the namespaces, veth pairs, addresses, multipath routes and ECMP sysctls
//   run       send UDP flows from the first half of the hosts to the second half (chosen source
//             ports); writes the flows CSV (-o) that `diagnose --flows` reads
//   counters  every lab interface's byte counters as Prometheus text (-o), and the port map (--map);
//             with --diff BEFORE AFTER [--flows FILES...], no root and no lab needed: the bytes up
//             each uplink between two such files, beside the flows the model puts there
//             (diagnose/uplink_bytes.h, report/uplink_report.h)
//   fail      set a link down at both ends (LINK as the name directory reads it)
//   down      remove every namespace of the prefix; idempotent
// --json on each: what it did as JSON (report/lab_json.h), on stdout or in place of -o's text.
// Needs root. Nothing outside the namespaces it creates is touched. --prefix defaults to
// ctlab-<uid>- (the uid of the person, under sudo too), and a lab whose owner mark names another
// uid, or namespaces of the prefix's shape that no lab marked, are refused (lab/lab_owner.h).
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "diagnose/counter_inputs.h"
#include "diagnose/uplink_bytes.h"
#include "io/files.h"
#include "lab/lab_runner.h"
#include "report/lab_json.h"
#include "report/uplink_report.h"
#include "routing/port_address.h"

namespace ct::cli {
namespace {

struct LabOptions {
  std::string prefix = lab_default_prefix();
  std::string output;
  std::string map;
  std::string link;
  std::vector<std::string> diff;   // counters: BEFORE AFTER
  std::vector<std::string> flows_files;
  int flows = 2;
  int sport = 49152;
  int sport_step = 1;
  std::uint32_t packets = 2000;
  std::uint32_t payload = 1000;
  bool json = false;
  CLI::App* up = nullptr;
  CLI::App* run = nullptr;
  CLI::App* counters = nullptr;
  CLI::App* fail = nullptr;
  CLI::App* down = nullptr;
};

// counters --diff: two scrapes of this lab, its own port map and the flows CSVs, read as
// `diagnose` reads them.
int run_diff(const LabOptions& o, const Fabric& fabric, const LabPlan& plan) {
  CounterInputs in;
  auto scrapes = read_text_files<TextInput>(o.diff);
  auto flows = read_text_files<TextInput>(o.flows_files);
  Diagnostics errors;
  if (!scrapes) errors = scrapes.errors();
  if (!flows) errors.insert(errors.end(), flows.errors().begin(), flows.errors().end());
  if (!errors.empty()) return report_errors(errors);
  in.scrapes = std::move(scrapes).value();
  in.flows = std::move(flows).value();
  in.map = TextInput{"(the lab's port map)", lab_port_map(plan, fabric.topology())};
  auto counters = read_counter_inputs(in, fabric);
  if (!counters) return report_errors(counters.errors());
  const UplinkTable table = uplink_bytes(fabric, counters.value());
  const auto& t = fabric.topology();
  return emit(o.output, o.json ? uplink_bytes_json(table, t, o.diff[0], o.diff[1]) : uplink_bytes_text(table, t, o.diff[0], o.diff[1]));
}

int run_lab(const LabOptions& o, const Context& context) {
  const Fabric& fabric = *context.fabric;
  const Topology& t = fabric.topology();
  if (o.down->parsed()) {
    auto removed = lab_down(o.prefix);
    if (!removed) return report_errors(removed.errors());
    std::cerr << "lab: removed " << removed->size() << " namespaces (prefix " << o.prefix << ")\n";
    return o.json ? emit("", lab_down_json(o.prefix, removed.value())) : kExitOk;
  }
  auto plan = plan_lab(fabric, o.prefix);
  if (!plan) return report_errors(plan.errors());
  if (o.counters->parsed() && !o.diff.empty()) return run_diff(o, fabric, plan.value());
  if (const std::string why = lab_unavailable(); !why.empty()) {
    return report_errors({Diagnostic{SourceLocation{"lab", 0, 0}, "lab", why}});
  }
  if (auto owned = lab_check_owner(o.prefix, lab_user()); !owned) return report_errors(owned.errors());
  if (o.up->parsed()) {
    auto r = lab_up(plan.value());
    if (!r) return report_errors(r.errors());
    std::cerr << "lab: " << plan->namespaces.size() << " namespaces, " << plan->links.size() << " links up (prefix "
              << o.prefix << (o.prefix == lab_default_prefix() ? ", the default for uid " + std::to_string(lab_user()) : "")
              << "; owner mark " << kLabRegistry << "/" << o.prefix << ")\n";
    return o.json ? emit("", lab_up_json(plan.value(), fabric.names())) : kExitOk;
  }
  if (o.counters->parsed()) {
    auto counters = lab_read_counters(plan.value());
    if (!counters) return report_errors(counters.errors());
    OutputSet outputs;
    if (!o.map.empty()) outputs.stage(o.map, lab_port_map(plan.value(), t), "--map");
    outputs.stage(o.output,
                  o.json ? lab_counters_json(plan.value(), counters.value(), t) : lab_counters_text(plan.value(), counters.value(), t),
                  o.output.empty() ? kReportOnStdout : "-o");
    return commit(outputs);
  }
  if (o.fail->parsed()) {
    auto links = fabric.names().links(o.link, SourceLocation{"command line", 0, 0}, "LINK");
    if (!links) return report_errors(links.errors());
    for (const LinkId l : links.value()) {
      auto r = lab_fail_link(plan.value(), l);
      if (!r) return report_errors(r.errors());
    }
    return o.json ? emit("", lab_fail_json(plan.value(), links.value(), fabric.names())) : kExitOk;
  }
  // run: hosts 0 .. H/2-1 send to H/2 .. H-1, flow i from host i mod (H/2).
  const auto hosts = static_cast<int>(t.host_count);
  if (hosts < 2) return report_errors({Diagnostic{SourceLocation{fabric.spec().file, 0, 0}, "nodes.count", "needs 2 hosts"}});
  std::vector<LabFlow> flows;
  const int half = hosts / 2;
  for (int i = 0; i < o.flows; ++i) {
    LabFlow f;
    f.src = t.port_of(HostId(i % half), 0, 0);
    f.dst = t.port_of(HostId(half + i % (hosts - half)), 0, 0);
    f.key.src_ip = port_address(t, f.src);
    f.key.dst_ip = port_address(t, f.dst);
    f.key.protocol = kIpProtoUdp;
    f.key.src_port = static_cast<std::uint16_t>(o.sport + i * o.sport_step);
    f.key.dst_port = 9;
    flows.push_back(f);
  }
  auto warm = lab_send(plan.value(), flows, 3, 64);
  if (!warm) return report_errors(warm.errors());
  auto sent = lab_send(plan.value(), flows, o.packets, o.payload);
  if (!sent) return report_errors(sent.errors());
  return emit(o.output, o.json ? lab_run_json(plan.value(), sent.value(), t) : lab_flows_csv(sent.value()));
}

}  // namespace

Runner setup_lab(CLI::App& app, Context& context) {
  auto o = std::make_shared<LabOptions>();
  app.require_subcommand(1);
  auto common = [&](CLI::App* sub) {
    sub->add_option("spec", context.spec_path, "Cluster spec (YAML)")->required();
    sub->add_option("--prefix", o->prefix, "Namespace name prefix (default ctlab-<uid>-, here " + o->prefix + ")")
        ->check(CLI::Validator([](std::string& s) {
          if (s.empty() || s.size() > 16 || s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
            return std::string("1 to 16 characters of a-z, 0-9 and -");
          }
          return std::string();
        }, "PREFIX"));
    sub->add_flag("--json", o->json, "Print what was done as JSON (run, counters: in place of the CSV or text)");
    return sub;
  };
  o->up = common(app.add_subcommand("up", "Build the namespaces, links, routes and ECMP sysctls"));
  o->run = common(app.add_subcommand("run", "Send UDP flows; writes the flows CSV"));
  o->run->add_option("--flows", o->flows, "Number of flows")->check(CLI::Range(1, 4096));
  o->run->add_option("--sport", o->sport, "Source port of the first flow")->check(CLI::Range(1, 65535));
  o->run->add_option("--sport-step", o->sport_step, "Source port increment")->check(CLI::Range(0, 1024));
  o->run->add_option("--packets", o->packets, "Datagrams per flow")->check(CLI::Range(1, 10000000));
  o->run->add_option("--payload", o->payload, "UDP payload bytes")->check(CLI::Range(1, 1400));
  add_output_option(*o->run, o->output);
  o->counters = common(app.add_subcommand("counters", "Read the interfaces' byte counters as Prometheus text"));
  o->counters->add_option("--map", o->map, "Also write the port map CSV here");
  o->counters->add_option("--diff", o->diff, "BEFORE AFTER: print the bytes up each uplink between two scrapes (no root)")
      ->expected(2);
  o->counters->add_option("--flows", o->flows_files, "With --diff: the flows CSVs of `lab run`, walked through the model")
      ->needs("--diff");
  add_output_option(*o->counters, o->output);
  o->fail = common(app.add_subcommand("fail", "Set a link down at both ends"));
  o->fail->add_option("link", o->link, "Link: id or 'A -- B'")->required();
  o->down = common(app.add_subcommand("down", "Remove every namespace of the prefix (idempotent)"));
  return [o](const Context& c) { return run_lab(*o, c); };
}

}  // namespace ct::cli
