// clustertwin spof MANIFESTS... --dns named.conf [--spec SPEC] [--pairs N] [--compare OTHER...]
//                 [--compare-dns named.conf] [--now TIME] [--json] [-o FILE] [--html FILE]
//   Every single element taken away in turn and ranked by apps lost x time lost, the single points
//   of failure named per layer (survival/spof.h); --pairs N the double failures of the N top
//   elements; --compare the same study on other manifests (the same spec; the same DNS views unless
//   --compare-dns names others), side by side: what a change buys. --now (RFC 3339): t = 0 on the
//   wall clock, to place the certificates' renewals when an issuer is removed (without it, the
//   issuers of dated certificates are not ranked).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/frontend_inputs.h"
#include "report/spof_report.h"
#include "survival/spof.h"

namespace ct::cli {
namespace {

struct SpofOptions {
  std::vector<std::string> manifests;
  std::vector<std::string> compare;
  std::string dns;
  std::string compare_dns;
  std::optional<std::string> now;  // --now, as given (an empty value is refused, not unset)
  int pairs = 0;
  bool json = false;
  std::string output;
  std::string html;
};

int run_spof(const SpofOptions& o, const Context& context) {
  auto timers = context.raw_spec ? lifecycle_timers(context.raw_spec->survival) : Result<LifecycleTimers>(LifecycleTimers{});
  if (!timers) return report_errors(timers.errors());
  auto loaded = load_frontend_model(o.manifests, o.dns, context);
  if (!loaded) return report_errors(loaded.errors());
  if (const Diagnostics bad = set_study_clock(loaded.value(), o.now); !bad.empty()) return report_errors(bad);
  const SpofReport r = spof_study(loaded.value(), timers.value(), o.pairs);
  std::optional<SpofReport> other;
  if (!o.compare.empty()) {
    auto second = load_frontend_model(o.compare, o.compare_dns.empty() ? o.dns : o.compare_dns, context);
    if (!second) return report_errors(second.errors());
    second.value().now_ms = loaded.value().now_ms;
    other = spof_study(second.value(), timers.value(), o.pairs);
  }
  const SpofReport* c = other ? &*other : nullptr;
  return emit_report(o.output, o.json ? spof_json(r, c) : spof_text(r, c), o.html, [&] { return spof_html(r, c, context.command_line); });
}

}  // namespace

Runner setup_spof(CLI::App& app, Context& context) {
  auto o = std::make_shared<SpofOptions>();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_option("--dns", o->dns, "BIND named.conf with the DNS views (the clients inside and outside, the name servers)")->check(CLI::ExistingFile);
  app.add_option("--spec", context.spec_path, "Cluster spec: the frontend network (switches, links) and the survival: timers");
  app.add_option("--pairs", o->pairs, "Also fail the N top-ranked elements two at a time")->check(CLI::Range(0, 64))->capture_default_str();
  app.add_option("--compare", o->compare, "Other manifests (files or folders) to rank the same way, side by side")->check(CLI::ExistingPath);
  app.add_option("--now", o->now, "Wall-clock time of t = 0 (RFC 3339): places the certificates' renewals when an issuer is removed");
  app.add_option("--compare-dns", o->compare_dns, "The --compare design's named.conf (default: --dns)")->check(CLI::ExistingFile);
  app.add_flag("--json", o->json, "JSON instead of text");
  add_output_option(app, o->output);
  add_html_option(app, o->html);
  return [o](const Context& c) { return run_spof(*o, c); };
}

}  // namespace ct::cli
