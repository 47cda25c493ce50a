// clustertwin lab up|run|counters|fail|down SPEC [--prefix P] ...
// The spec's small fabric as Linux network namespaces (lab/lab_plan.h, lab/lab_runner.h):
//   up        create the namespaces, veth pairs, addresses, multipath routes and ECMP sysctls
//   run       send UDP flows from the first half of the hosts to the second half (chosen source
//             ports); writes the flows CSV (-o) that `diagnose --flows` reads
//   counters  every lab interface's byte counters as Prometheus text (-o), and the port map (--map)
//   fail      set a link down at both ends (LINK as the name directory reads it)
//   down      remove every namespace of the prefix; idempotent
// --json on each: what it did as JSON (report/lab_json.h), on stdout or in place of -o's text.
// Needs root. Nothing outside the namespaces it creates is touched.
#include <iostream>
#include <memory>
#include <string>

#include "cli/command.h"
#include "lab/lab_runner.h"
#include "report/lab_json.h"
#include "routing/port_address.h"

namespace ct::cli {
namespace {

struct LabOptions {
  std::string prefix = "ctlab-";
  std::string output;
  std::string map;
  std::string link;
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

int run_lab(const LabOptions& o, const Context& context) {
  const Fabric& fabric = *context.fabric;
  const Topology& t = fabric.topology();
  if (o.down->parsed()) {
    const auto removed = lab_down(o.prefix);
    std::cerr << "lab: removed " << removed.size() << " namespaces\n";
    return o.json ? emit("", lab_down_json(o.prefix, removed)) : kExitOk;
  }
  auto plan = plan_lab(fabric, o.prefix);
  if (!plan) return report_errors(plan.errors());
  if (const std::string why = lab_unavailable(); !why.empty()) {
    return report_errors({Diagnostic{SourceLocation{"lab", 0, 0}, "lab", why}});
  }
  if (o.up->parsed()) {
    lab_down(o.prefix);
    auto r = lab_up(plan.value());
    if (!r) return report_errors(r.errors());
    std::cerr << "lab: " << plan->namespaces.size() << " namespaces, " << plan->links.size() << " links up (prefix "
              << o.prefix << ")\n";
    return o.json ? emit("", lab_up_json(plan.value(), t)) : kExitOk;
  }
  if (o.counters->parsed()) {
    auto counters = lab_read_counters(plan.value());
    if (!counters) return report_errors(counters.errors());
    OutputSet outputs;
    if (!o.map.empty()) outputs.stage(o.map, lab_port_map(plan.value(), t));
    outputs.stage(o.output, o.json ? lab_counters_json(plan.value(), counters.value(), t)
                                   : lab_counters_text(plan.value(), counters.value(), t));
    return commit(outputs);
  }
  if (o.fail->parsed()) {
    auto links = fabric.names().links(o.link, SourceLocation{"command line", 0, 0}, "LINK");
    if (!links) return report_errors(links.errors());
    for (const LinkId l : links.value()) {
      auto r = lab_fail_link(plan.value(), l);
      if (!r) return report_errors(r.errors());
    }
    return o.json ? emit("", lab_fail_json(plan.value(), links.value(), t)) : kExitOk;
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
    sub->add_option("--prefix", o->prefix, "Namespace name prefix (default ctlab-)")
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
  add_output_option(*o->counters, o->output);
  o->fail = common(app.add_subcommand("fail", "Set a link down at both ends"));
  o->fail->add_option("link", o->link, "Link: id or 'A -- B'")->required();
  o->down = common(app.add_subcommand("down", "Remove every namespace of the prefix (idempotent)"));
  return [o](const Context& c) { return run_lab(*o, c); };
}

}  // namespace ct::cli
