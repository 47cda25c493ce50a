// clustertwin break MANIFESTS... --dns named.conf [--spec SPEC] [--node NODE] [--switch SWITCH]
//                  [--link LINK] [--bgp-peer PEER] [--dns-server NS] [--disk NODE] [--issuer ISSUER]
//                  [--address-pool POOL] [--at SECONDS]... [--now TIME] [--json] [-o FILE] [--html FILE]
//   What the failures do from t = 0 to the steady state (survival/failure_timeline.h): the
//   published URLs that fail and when, the pods, the volumes and their rebuilds, data lost or only
//   unavailable, downtime per app and in total. Each failure flag is repeatable; `--at T` gives
//   the failure named just before it on the command line its time (seconds after t = 0); a
//   failure without one fails at 0. The spec's `survival:` block sets the lifecycle timers. `--now`
//   (RFC 3339) is t = 0 on the wall clock: needed with --issuer when certificates carry dates.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/failure_flags.h"
#include "cli/frontend_inputs.h"
#include "report/break_report.h"
#include "survival/cert_renewal.h"
#include "survival/failure_timeline.h"

namespace ct::cli {
namespace {

struct BreakOptions {
  std::vector<std::string> manifests;
  std::string dns;
  FailureFlags failures;
  std::optional<std::string> now;  // --now, as given (an empty value is refused, not unset)
  bool json = false;
  std::string output;
  std::string html;
};

int run_break(const BreakOptions& o, const CLI::App& app, const Context& context) {
  auto failures = o.failures.in_order(app);
  if (!failures) return report_usage(failures.errors().front().message);
  if (failures->empty()) return report_usage("name at least one element to fail (--node, --switch, --link, --bgp-peer, --dns-server, --disk, --issuer, --address-pool)");
  auto loaded = load_frontend_model(o.manifests, o.dns, context);
  if (!loaded) return report_errors(loaded.errors());
  FrontendModel& model = loaded.value();
  if (const Diagnostics bad = check_failures(model, failures.value()); !bad.empty()) return report_errors(bad);
  if (const Diagnostics bad = set_study_clock(model, o.now); !bad.empty()) return report_errors(bad);
  const bool issuer = std::any_of(failures->begin(), failures->end(), [](const Failure& f) { return f.kind == FailureKind::kIssuer; });
  if (issuer && !model.now_ms && certificates_dated(model.manifests)) {
    return report_usage("--issuer with certificates that carry dates (status.notAfter) needs --now (RFC 3339): the time of t = 0");
  }
  auto timers = context.raw_spec ? lifecycle_timers(context.raw_spec->survival) : Result<LifecycleTimers>(LifecycleTimers{});
  if (!timers) return report_errors(timers.errors());
  const FailureTimeline t = failure_timeline(model, std::move(failures).value(), timers.value());
  return emit_report(o.output, o.json ? break_json(t) : break_text(t), o.html, [&] { return break_html(t, context.command_line); });
}

}  // namespace

Runner setup_break(CLI::App& app, Context& context) {
  auto o = std::make_shared<BreakOptions>();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_option("--dns", o->dns, "BIND named.conf with the DNS views (the clients inside and outside)")->check(CLI::ExistingFile);
  app.add_option("--spec", context.spec_path, "Cluster spec: the frontend network (switches, links, rebuild bandwidth) and the survival: timers");
  o->failures.add_to(app, true);
  app.add_option("--now", o->now, "Wall-clock time of t = 0 (RFC 3339) for the certificates' dates (needed with --issuer when they carry some)");
  app.add_flag("--json", o->json, "JSON instead of text");
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  const CLI::App* self = &app;
  return [o, self](const Context& c) { return run_break(*o, *self, c); };
}

}  // namespace ct::cli
