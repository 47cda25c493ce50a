// clustertwin trace REQUEST MANIFESTS... --from inside|outside|IP [--dns named.conf] [--spec SPEC]
//                  [-H 'Name: value']... [--sport N] [--router-hash-policy 0..3] [--router-hash-seed N]
//                  [--dead-node NODE]... [--json] [-o FILE] [--html FILE]
//   One request through the eight hops of the front door (src/frontend/request_trace.h); --html
//   the page with the hops as a step diagram and the survival table (report/trace_html.h).
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "frontend/request_trace.h"
#include "cli/frontend_inputs.h"
#include "report/trace_html.h"
#include "report/trace_report.h"

namespace ct::cli {
namespace {

struct TraceOptions {
  std::string request;
  std::vector<std::string> manifests;
  std::string from = "inside";
  std::string dns;
  std::vector<std::string> headers;
  std::vector<std::string> dead_nodes;
  int sport = 40000;
  int policy = 1;
  unsigned seed = 1;
  bool json = false;
  std::string output;
  std::string html;
  bool from_given = false;  // --from on the command line (else "inside", which needs --dns)
};

int run_trace(const TraceOptions& o, const Context& context) {
  if (o.dns.empty() && !o.from_given) {
    return report_errors({Diagnostic{command_line(), "",
                                     "give --dns named.conf (its views decide which client is inside) or --from an IPv4 address"}});
  }
  auto loaded = load_frontend_model(o.manifests, o.dns, context);
  if (!loaded) return report_errors(loaded.errors());
  FrontendModel& model = loaded.value();
  if (const Diagnostics dead = kill_nodes(model, o.dead_nodes); !dead.empty()) return report_errors(dead);
  TraceRequest r;
  r.request = o.request;
  r.headers = o.headers;
  r.from = o.from;
  r.source_port = static_cast<std::uint16_t>(o.sport);
  r.router.policy = o.policy;
  r.router.seed = o.seed;
  auto t = trace_request(model, r);
  if (!t) {
    Diagnostics errors = t.errors();
    for (auto& d : errors) {
      if (d.field == "--request") d.field = "REQUEST";  // trace takes the request as its first argument
    }
    return report_errors(errors);
  }
  return emit_report(o.output, o.json ? trace_json(t.value()) : trace_text(t.value()), o.html,
                     [&] { return trace_html(t.value(), context.command_line); });
}

}  // namespace

Runner setup_trace(CLI::App& app, Context& context) {
  auto o = std::make_shared<TraceOptions>();
  app.add_option("request", o->request, "The request: '[METHOD] http(s)://host[:port]/path[?query]'")->required();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_option("--from", o->from, "The client: inside, outside (per the DNS views) or an IPv4 address")
      ->capture_default_str()
      ->each([o](const std::string&) { o->from_given = true; });
  app.add_option("--dns", o->dns, "BIND named.conf with the DNS views (zone files and $INCLUDEs relative to its folder, for named's directory)")->check(CLI::ExistingFile);
  app.add_option("--spec", context.spec_path, "Cluster spec with the frontend network (the frontend switches and links)");
  app.add_option("-H,--header", o->headers, "A request header 'Name: value' (repeatable)");
  app.add_option("--dead-node", o->dead_nodes, "A Node taken as dead: its pods gone, not yet rescheduled (repeatable)");
  app.add_option("--sport", o->sport, "The client's TCP source port")->check(CLI::Range(1, 65535))->capture_default_str();
  app.add_option("--router-hash-policy", o->policy, "The router's net.ipv4.fib_multipath_hash_policy")
      ->check(CLI::Range(0, 2))->capture_default_str();
  app.add_option("--router-hash-seed", o->seed, "The router's net.ipv4.fib_multipath_hash_seed (0 is random on a real kernel)")
      ->capture_default_str();
  app.add_flag("--json", o->json, "JSON instead of text");
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_trace(*o, c); };
}

}  // namespace ct::cli
